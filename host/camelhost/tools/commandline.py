"""The commands the advice lines name, as a maker types them: each word quoted for a
POSIX shell, and a ``pyramid`` command named with the port it was run with (tester
s37tm findings 1, 2, 10, 11: ``pyramid calibrate --autorange`` without it looks for
the first RP2040 on USB, and finds none on the emulated Pico's port)."""

import shlex

from camelhost.i18n import language_option


def command(*words):
    """A command line to type, each word quoted for a POSIX shell: ``command("pyramid",
    "calibrate", "--port", "/dev/pts/6")`` -> ``pyramid calibrate --port /dev/pts/6``;
    a ``pyramid`` command ends with the language in force (``--lang de``:
    ``i18n.language_option``), as the tool that advises it was run."""
    if words and words[0] == "pyramid":
        words = words + tuple(language_option(words))
    return " ".join(shlex.quote(str(w)) for w in words)


def with_port(subcommand, port, *more):
    """``pyramid <subcommand> --port <port> <more...>`` as ``command`` writes it; without
    ``--port`` when ``port`` is ``None`` or ``auto`` (the default finds the same board)."""
    words = ["pyramid", subcommand]
    if port not in (None, "auto"):
        words += ["--port", port]
    return command(*words, *more)

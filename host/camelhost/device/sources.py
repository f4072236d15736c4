"""The names of the dice sources on the command line (``play --pyramid``, ``doctor
--port``, ``flash --port``): one place for them, below every device module that names
them (``open`` resolves them, ``flash`` refuses the two that are no board), and how a
maker's tool names a port it did not find."""

from camelhost.i18n import _, language_option, ngettext, port_word

#: the player types every die (no pyramid)
MANUAL = "manual"
#: the simulated pyramid: the checkout's firmware on MicroPython behind a pty
VIRTUAL = "virtual"
#: the first RP2040 board on USB
AUTO = "auto"

#: The first half of the RP2040 unique id every emulated Pico reports (``pyramid
#: emulate``): the flash chip hardware/emu/board.cjs models answers its unique-id command
#: with these four bytes, then four of the ``--flash`` image's own, drawn at its first use
#: (docs/emulator.md), so two images are two boards. A board whose ``HELLO`` names an id
#: starting so is the emulator's, whose terminal takes the emulator's keys (``x`` the
#: reset button, Enter a push); the virtual pyramid's (``hardware/sim``:
#: ``E66141040327582E``) and a real board's are others (a real flash chip's id starting
#: so is a chance of one in 2**32, and then only costs a hint of keys it has not).
EMULATED_UID_MARK = "55565758"
#: An emulated Pico's id as images made before the per-image ids carry it.
EMULATED_UID = EMULATED_UID_MARK + "595A5B5C"


def emulated_uid(uid):
    """True when ``uid`` (a board's unique id from its ``HELLO``, or None) is an emulated
    Pico's: 16 hex digits starting with ``EMULATED_UID_MARK``."""
    return isinstance(uid, str) and len(uid) == 16 and uid.upper().startswith(EMULATED_UID_MARK)


def _dice_record(port):
    """The file ``publish_emulated_dice`` writes for ``port``: in this user's runtime
    folder (``$XDG_RUNTIME_DIR``, else the temporary folder), named by the port's real
    path."""
    import os
    import tempfile

    runtime = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    folder = os.path.join(runtime, "smart-pyramid-" + str(os.getuid()), "emulated")
    return os.path.join(folder, os.path.realpath(port).strip("/").replace("/", "_") + ".json")


def publish_emulated_dice(port, edition, uid=None, image=None):
    """Record, while ``pyramid emulate`` runs, the edition of the dice in its emulated
    Pico's table (``edition``: ``classic``/``second``, its ``--edition``) for its port
    ``port``: the board's firmware may run another (a kept ``--flash`` image keeps its
    settings), and no protocol line names the dice, yet ``pyramid calibrate`` on that
    port asks for them (``emulated_dice``; maker s43, finding 2). ``uid``: the board's
    unique id as its ``HELLO`` names it (16 hex digits, the form a game's journal keeps
    in its ``board`` line), ``None`` while no ``HELLO`` named it (``--fresh``); ``image``:
    the ``--flash`` image's path, made absolute, ``None`` without ``--flash`` (a new
    board each start): what tells the game's board among several emulators
    (``emulators_of``) and what starts the same board again (``emulate_words``). Called
    again with the same ``port`` it writes the record anew (emulate, once a ``--fresh``
    board's ``HELLO`` names its uid). Returns the record's path, for
    ``withdraw_emulated_dice``; ``None`` when it can't be written (then nothing is
    checked)."""
    import json
    import os

    path = _dice_record(port)
    record = {"port": os.path.realpath(port), "pid": os.getpid(), "dice": edition}
    if uid is not None:
        record["uid"] = str(uid)
    if image is not None:
        record["image"] = os.path.abspath(image)
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        with open(path + ".new", "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.replace(path + ".new", path)
    except OSError:
        return None
    return path


def withdraw_emulated_dice(path):
    """Remove the record ``publish_emulated_dice`` wrote at ``path`` (None: nothing),
    when the emulator that wrote it stops."""
    import os

    if path is not None:
        try:
            os.remove(path)
        except OSError:
            pass


def _live_record(path):
    """The record ``publish_emulated_dice`` wrote at ``path`` (a dict: ``port``,
    ``pid``, ``dice``, and ``uid`` and ``image`` when known, each ``None`` when not: an
    emulate before s46 wrote neither) while the emulator that wrote it still runs, else
    ``None``."""
    import json
    import os

    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        os.kill(int(record["pid"]), 0)  # its emulator still runs
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if not isinstance(record.get("port"), str):
        return None
    for key in ("uid", "image"):  # an older record has neither
        if not isinstance(record.get(key), str):
            record[key] = None
    return record


def emulator_on(port):
    """The record (``_live_record``: ``port``, ``pid``, ``dice``, ``uid``, ``image``) of
    the running ``pyramid emulate`` whose emulated Pico is on ``port`` (a port path), or
    ``None``: no record, or one left by an emulator no longer running, or for another
    port."""
    import os

    record = _live_record(_dice_record(port))
    if record is None or record["port"] != os.path.realpath(port):
        return None
    return record


def emulated_dice(port):
    """The edition of the dice in the emulated Pico on ``port`` (a port path) as the
    running ``pyramid emulate`` that serves it recorded them (``publish_emulated_dice``),
    or ``None``: no record, or one left by an emulator no longer running, or for another
    port. Not ``None`` also tells that an emulated Pico runs on ``port`` now."""
    record = emulator_on(port)
    return None if record is None else record.get("dice")


def emulators():
    """The records (``_live_record``, one per port, sorted by port) of every running
    ``pyramid emulate`` whose port is there; empty when none runs."""
    import os

    folder = os.path.dirname(_dice_record("port"))
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = {}
    for name in names:
        if name.endswith(".json"):
            record = _live_record(os.path.join(folder, name))
            if record is not None and os.path.exists(record["port"]):
                found[record["port"]] = record
    return [found[port] for port in sorted(found)]


def emulated_ports():
    """The ports (sorted list of paths, e.g. ``["/dev/pts/5"]``) on which a running
    ``pyramid emulate`` recorded its emulated Pico (``publish_emulated_dice``); empty
    when none runs. Records of emulators no longer running are left out."""
    return [record["port"] for record in emulators()]


def _names(record, uid):
    """True when the emulator's ``record`` (``_live_record``) names the board ``uid``
    (hex digits, either case)."""
    return record["uid"] is not None and record["uid"].upper() == str(uid).upper()


def emulators_of(uid=None, exact=False):
    """The ports (sorted list of paths) of the running emulated Picos that can be the
    board ``uid`` (a unique id as a ``HELLO`` and a game's journal name it; ``None``:
    not known): those whose record names ``uid``; when none does, those whose record
    names no uid (an emulate before s46, or a ``--fresh`` board before its first
    ``HELLO``). An emulated Pico recorded as another board is never one of them: a game
    resumed on it is refused (tester s45b, findings 3 and 4). ``uid`` ``None``: every
    running one. ``exact``: only those whose record names ``uid``."""
    running = emulators()
    if uid is None:
        return [] if exact else [record["port"] for record in running]
    same = [record["port"] for record in running if _names(record, uid)]
    if same or exact:
        return same
    return [record["port"] for record in running if record["uid"] is None]


def may_be_board(port, uid=None):
    """True when a running ``pyramid emulate`` recorded its emulated Pico on ``port`` (a
    port path, ``emulator_on``) and it can be the board ``uid`` (``None``: not known), as
    ``emulators_of`` judges: its record names ``uid``, or names no uid while no other
    running one names ``uid``."""
    record = emulator_on(port)
    if record is None:
        return False
    if uid is None:
        return True
    if record["uid"] is not None:
        return _names(record, uid)
    return not emulators_of(uid, exact=True)


def emulate_words(port, edition):
    """The words that start the emulated Pico on ``port`` (a port path) again with the
    ``edition`` edition's dice (``classic``/``second``): ``pyramid emulate --edition
    EDITION``, then ``--flash IMAGE`` when its running ``pyramid emulate`` recorded its
    ``--flash`` image (``emulator_on``), so that the same board starts again, the one a
    resumed game was played with (tester s45b, finding 4), else ``None`` for the image.
    Returns ``(command, image)``: the command (a str, the image quoted for a shell) and
    the image's absolute path or ``None``; the command ends with the language in force
    (``--lang de``: ``i18n.language_option``)."""
    import shlex

    record = emulator_on(port) if port else None
    image = record["image"] if record is not None else None
    words = ["pyramid", "emulate", "--edition", edition]
    if image is not None:
        words += ["--flash", image]
    return " ".join(shlex.quote(w) for w in words + language_option()), image


#: The environment variable that holds how the command that runs a maker's tool names
#: the port, when that command is not ``pyramid ... --port PORT``: the Makefile's
#: ``flash`` target sets it to ``make flash PORT=/dev/ttyACM0`` (the README's form), so
#: that ``make flash`` without a board says to give ``PORT=``, which make takes, not
#: ``--port``, which it does not (tester s36tm, finding 17). Read by
#: ``open.find_rp2040_port`` for ``--port`` only and by ``port_given``; unset or empty:
#: ``--port PORT``.
PORT_FORM_ENV = "PYRAMID_PORT_FORM"


def port_given(value):
    """How the maker's command names the port ``value`` (str, e.g. ``auto``): ``--port
    auto``, or in the form ``PORT_FORM_ENV`` gives when it is set, its setting with
    ``value`` (``make flash PORT=/dev/ttyACM0`` -> ``PORT=auto``), which make takes
    where it does not take ``--port`` (tester s40, finding 1)."""
    import os

    form = os.environ.get(PORT_FORM_ENV, "").strip()
    if form and "=" in form:
        return form.split()[-1].split("=", 1)[0] + "=" + value
    return "--port " + value


def without_a_board(option="--port"):
    """The sentence the maker's tools (flash, doctor, calibrate, monitor) end a missing
    port's message with (translated; no final full stop): while ``pyramid emulate``
    runs, the emulated Pico's port to give (``running_emulator``; ``option``: the
    command's option that names a port), else ``pyramid
    emulate`` for a maker without a board."""
    return running_emulator(option) or _(
        "Without a board: pyramid emulate runs the firmware on an emulated Pico and prints "
        "its port (docs/emulator.md)")


def running_emulator(option="--port", uid=None):
    """The sentence that names the port of each emulated Pico running now
    (``emulated_ports``) and how to give it with ``option`` (``--port``, under ``make
    flash`` its ``PORT=``: ``port_given``; play's ``--pyramid``): ``An emulated Pico
    runs on /dev/pts/5: give --port /dev/pts/5`` (translated; no final full stop), or
    ``None`` when none runs. Where a port was mistyped, the one that works is named
    (tester s45, finding 3). ``uid``: the board a resumed game was played with (its
    journal's): only the emulated Picos that can be it (``emulators_of``), so of two
    running the game's is named (tester s45b, finding 3)."""
    ports = emulators_of(uid)
    if not ports:
        return None
    given = [port_given(port) if option == "--port" else "%s %s" % (option, port)
             for port in ports]
    return ngettext("An emulated Pico runs on %(ports)s: give %(given)s",
                    "Emulated Picos run on %(ports)s: give %(given)s", len(ports)) % {
        "ports": ", ".join(ports), "given": _(" or ").join(given)}


def emulator_hint(option="--port", uid=None):
    """The sentence a missing port's line ends with (translated; no final full stop), or
    ``None``: for the maker's ``--port`` always one (``without_a_board``: the emulated
    Pico's port while ``pyramid emulate`` runs, else ``pyramid emulate``); for play's
    ``--pyramid``, which offers the dice typed, only the running emulated Pico's port
    (``running_emulator``). The one choice of every missing port's line: a path that names
    nothing, ``auto`` finding no board, ``id:<serial>`` with no such USB port (tester
    s45b, finding 2). ``uid``: play's resumed game's board (``running_emulator``)."""
    return without_a_board(option) if option == "--port" else running_emulator(option, uid)


def running_emulated_port(port=None, uid=None):
    """The port (a path) of the emulated Pico a running ``pyramid emulate`` recorded
    (``emulators_of``: its board ``uid`` when the game knows it, a unique id, else
    ``None``) to resume a game played on ``port`` (a path, or ``None``) on: ``port``
    itself when it is one of them, else the only one; ``None`` when none runs, or
    several can be the game's board and none is ``port`` (then the maker picks:
    ``--pyramid PORT``, among ``emulators_of``)."""
    import os

    ports = emulators_of(uid)
    if port is not None and os.path.realpath(port) in ports:
        return os.path.realpath(port)
    return ports[0] if len(ports) == 1 else None


def instead_of_a_port(option, first=AUTO, virtual=True):
    """What a command offers where the port it was given, or ``auto``'s, is not there:
    one clause in the table's language, each dice source named with ``option``, the one
    difference between the commands: ``first`` (``auto``: ``--port auto (the first RP2040
    on USB)``; ``PORT``: ``--port PORT``), the simulated pyramid (``--port virtual (the
    simulated pyramid)``; left out with ``virtual`` False: ``pyramid flash``, which needs
    a board) and, for play's ``--pyramid``, the dice typed (``--pyramid manual to type
    the dice``). The one source of that advice: ``open.missing_port`` (calibrate,
    monitor, doctor, play) and ``--port auto`` or ``--pyramid auto`` finding no board
    (``open.find_rp2040_port``: every command that takes ``auto``)."""
    named = {"o": option}
    ways = [_("%(o)s auto (the first RP2040 on USB)") % named if first == AUTO
            else "%s %s" % (option, port_word())]
    if virtual:
        ways.append(_("%(o)s virtual (the simulated pyramid)") % named)
    if option == "--pyramid":
        ways.append(_("%(o)s manual to type the dice") % named)
    if len(ways) == 1:
        return ways[0]
    return ", ".join(ways[:-1]) + _(" or ") + ways[-1]


def pseudo_terminal(spec):
    """True when the dice source ``spec`` (``--pyramid``'s word, or a journal's) is a
    pseudo-terminal's path: ``/dev/pts/N`` (there or gone), or a path that names one
    (``PortIdentity``: a symbolic link to it). An emulated pyramid's port; once that
    emulator ended, its number goes to the next program that asks for a terminal, so a
    resume opens it only when ``--pyramid`` names it again (docs/table.md, "Resuming")."""
    import os

    if spec in (AUTO, MANUAL, VIRTUAL) or "://" in spec:
        return False
    if os.path.realpath(spec).startswith("/dev/pts/"):
        return True
    from camelhost.device.transport import PortIdentity
    try:
        identity = PortIdentity.of(spec)
    except OSError:
        return False
    return identity is not None and identity.kind == "pty"


def meant(spec, option):
    """``--pyramid virtual`` when ``spec`` (a port that does not exist) is a slip of one
    of ``option``'s own words (``virtua``, ``Manual``, ``atuo``, ``virt``), else ``None``: a
    name with a folder in it, or ``COM3``, is meant as a port. The one matcher of every
    "did you mean" (``camelhost.suggest.nearest``)."""
    from camelhost.suggest import nearest

    if "/" in spec or "\\" in spec or spec.upper().startswith("COM"):
        return None
    words = (VIRTUAL, MANUAL, AUTO) if option == "--pyramid" else (VIRTUAL, AUTO)
    near = nearest(spec, words)
    return "%s %s" % (option, near) if near else None


def names_nothing(port, option="--port"):
    """True when ``port`` (``option``'s word: ``--port`` or ``--pyramid``) names no
    device here: a path that names nothing (``/dev/ttyACM0`` with no board plugged in),
    or, where serial ports are files (Linux, macOS), a bare name no file has (``COM3``
    copied from the README's Windows example: tester s43, finding 3). False for what
    exists, a URL, the option's own words (``auto``, ``virtual``, ``manual``) and a slip
    of one (``virtua``: the opening asks "did you mean"), and on Windows for a bare name
    (``COM3`` is a port name there, only opening it can tell). Every option that takes a
    port takes mpremote's forms too (``transport.port_path``): ``id:<serial>`` names nothing
    when no USB serial port has that serial number, ``port:PATH`` when ``PATH`` does."""
    import os

    from camelhost.device.transport import BY_PATH, BY_SERIAL, port_path

    if port.startswith(BY_SERIAL) or port.startswith(BY_PATH):
        path = port_path(port)  # every command takes mpremote's forms, as flash does
        if path is None:
            return True  # no USB serial port has that serial number
        port = path
    if "://" in port or port in (AUTO, VIRTUAL, MANUAL) or os.path.exists(port):
        return False
    if "/" in port:
        return True
    return os.name == "posix" and meant(port, option) is None


def no_such_serial(port, option="--port", virtual=True, uid=None):
    """The one line for ``port``, ``id:<serial>`` (mpremote's form,
    ``transport.port_path``), when no USB serial port here has that serial number: the serial ports seen, each
    with its own ``id:`` (``transport.ports_seen``), then what ``option`` offers instead
    (``instead_of_a_port``; ``virtual`` False for ``pyramid flash``, which needs a
    board; under ``make flash``, ``PORT_FORM_ENV``, its ``PORT=auto``) and
    ``emulator_hint``: ``pyramid emulate`` for a maker without a board, or the port of
    the emulated Pico running now (play's ``--pyramid`` names only that, the one that can
    be its resumed game's board ``uid`` among several). Every command says it before it reads, builds or copies anything."""
    import os

    from camelhost.device.transport import by_serial, ports_seen

    if os.environ.get(PORT_FORM_ENV, "").strip():
        instead = port_given(AUTO)  # make flash PORT=...: make's form
    else:
        instead = instead_of_a_port(option, virtual=virtual)
    text = (_("cannot open %(port)s: no USB serial port has the serial number %(serial)s "
              "(serial ports seen: %(seen)s). Plug the pyramid in, or give %(instead)s")
            % {"port": port, "serial": by_serial(port), "seen": ports_seen(ids=True),
               "instead": instead})
    hint = emulator_hint(option, uid)  # play: only a running emulated Pico's port
    return text + ". " + hint if hint else text

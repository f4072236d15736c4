"""The full screen's keyboard on a POSIX terminal: Textual's own driver, with the bytes
the terminal sends decoded so that one that is no UTF-8 text can't end the table.

Textual's ``LinuxDriver.run_input_thread`` decodes the terminal's bytes with a strict
UTF-8 decoder of its own: one byte of another encoding (a terminal set to Latin-1, an
``é`` typed) raises in its input thread and the app stops with a traceback (issue 29,
item 5). ``LenientDriver`` reads the terminal itself, decodes it with
``errors="replace"`` (the byte becomes U+FFFD, ``REPLACEMENT``) and hands Textual's
reader a pipe that carries only UTF-8; the command line then refuses the line that holds
it in one line (``camelhost.ui.tui``) and the table goes on. Everything else (raw mode,
escape sequences, resize, suspend) is Textual's, through its public driver API
(``App.get_driver_class``, ``run_input_thread``, ``fileno``).
"""

import codecs
import os
import selectors
import threading

#: What a byte that is no UTF-8 text becomes on the command line.
REPLACEMENT = "\ufffd"


def lenient(driver_class):
    """A subclass of ``driver_class`` (Textual's ``LinuxDriver``) whose keyboard
    decoding replaces a byte that is no UTF-8 text by ``REPLACEMENT`` instead of
    raising."""

    class LenientDriver(driver_class):
        """Textual's driver; the keyboard's bytes decoded with ``errors="replace"``."""

        def run_input_thread(self):
            terminal = self.fileno
            out, into = os.pipe()
            done = threading.Event()

            def pump():
                decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
                selector = selectors.DefaultSelector()
                selector.register(terminal, selectors.EVENT_READ)
                try:
                    while not done.is_set():
                        if not selector.select(0.1):
                            continue
                        data = os.read(terminal, 4096)
                        if not data:
                            break
                        text = decode(data)
                        if text:
                            os.write(into, text.encode("utf-8"))
                except OSError:
                    pass  # the terminal went away: Textual's reader sees the pipe end
                finally:
                    selector.close()
                    os.close(into)

            thread = threading.Thread(target=pump, name="table-keys", daemon=True)
            thread.start()
            self.fileno = out  # Textual's reader reads the decoded keys
            try:
                driver_class.run_input_thread(self)
            finally:
                self.fileno = terminal  # before Textual restores the terminal's mode
                done.set()
                thread.join(1.0)
                os.close(out)

    return LenientDriver

"""Speech (``--speak``): each die announcement said aloud with ``espeak-ng`` (RULES 5)."""

import shutil
import subprocess

from camelhost.i18n import _, language
from camelhost.table.display import Display
from camelhost.table.view import spoken_die


def spoken_text(notice):
    """Words to say for a die notice (RULES 5, optional speech), else ``None``:
    ``"blue camel, forward 3"`` (in the table's language: ``"Kamel blau, 3 Felder
    vorwärts"``; the web page's words, ``camelhost.table.view.spoken_die``)."""
    if notice.get("kind") != "die":
        return None
    m = notice["move"]
    return spoken_die(m["camel"], m["direction"], m["distance"])


class Speaker:
    """Says each die announcement with ``espeak-ng`` (``--speak``), without waiting
    for it. ``which``/``popen``: ``shutil.which``/``subprocess.Popen`` (for tests).
    ``available`` is false when ``espeak-ng`` is not on PATH (``missing`` says so in
    one line); ``say`` then does nothing."""

    PROGRAM = "espeak-ng"

    def __init__(self, which=None, popen=None):
        self.exe = (which or shutil.which)(self.PROGRAM)
        self.popen = popen or subprocess.Popen

    @property
    def available(self):
        return self.exe is not None

    @property
    def missing(self):
        """The one line said when ``espeak-ng`` is not there."""
        return _("speech: espeak-ng is not on PATH (install it, e.g. apt install espeak-ng); "
                 "going on without speech")

    def command(self, text):
        """The command line that says ``text``, or ``None`` without espeak-ng; in a
        language other than English with that language's voice (``-v de``)."""
        if self.exe is None:
            return None
        lang = language()
        return [self.exe, text] if lang == "en" else [self.exe, "-v", lang, text]

    def say(self, text):
        argv = self.command(text)
        if argv is None:
            return
        try:
            self.popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        except OSError:
            self.exe = None  # it went away: stay quiet from now on

    def notices(self, notices):
        for n in notices:
            text = spoken_text(n)
            if text:
                self.say(text)


class Speaking(Display):
    """The speech display: subscribed to the table's seam beside the others, it hands
    each batch of notices to a ``Speaker`` (and shows nothing)."""

    def __init__(self, speaker):
        self.speaker = speaker

    def notices(self, notices, view):
        self.speaker.notices(notices)

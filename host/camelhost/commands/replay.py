"""``pyramid replay FILE``: show a finished (or interrupted) game from its journal,
in the plain line form, then the table as it stands at the end."""

HELP = "show a finished or interrupted game from its journal"


def add_arguments(parser):
    parser.add_argument("file", help="journal file written by pyramid play or pyramid demo")
    parser.add_argument("--brief", action="store_true",
                        help="only the table at the end, not every event")
    from camelhost.web import add_web_argument
    add_web_argument(parser)


def run(args):
    from camelhost.table.journal import Journal, read_events
    from camelhost.table.session import Session
    from camelhost.ui import plain
    events = read_events(args.file)
    if not events:
        raise ValueError("%s: the journal is empty" % args.file)
    head = events[0]
    print("Journal %s: %s edition, players %s" % (args.file, head["edition"],
                                                  ", ".join(head["players"])))
    journal = Journal(None)
    journal.path = args.file
    journal.events = events
    if args.brief:
        session = Session.resume(journal)
    else:
        # Event by event, so each notice is shown with the state it left behind.
        session = Session(head["edition"], head["players"], head.get("seed", 1),
                          head.get("bots", ()), journal=None, _header=False)
        for event in events[1:]:
            notices = session._apply(event)
            view = session.view()
            for n in notices:
                for line in plain.notice_lines(n, view):
                    print(line)
    for line in plain.status_lines(session.view()):
        print(line)
    print(plain.prompt_line(session.view()))
    if args.web is not None:
        from camelhost.web import serve_replay_until_interrupted
        serve_replay_until_interrupted(args.web, events)
    return 0

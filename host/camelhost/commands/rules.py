"""``pyramid rules [SECTION]``: print the rules reference, or one section of it.

Error messages cite the reference as ``(RULES 3.8)``; ``pyramid rules 3.8`` prints
that section from the copy shipped inside the package (``camelhost.rulesdoc``), so an
installed user needs no checkout. Exit status 1 with a one-line error for a section
the reference does not have.
"""

from camelhost import rulesdoc

HELP = ("Print the Camel Up rules as this program implements them (docs/rules.md), or "
        "one section: the one an error message cites as RULES 3.8 is `pyramid rules 3.8`.")


def add_arguments(parser):
    parser.add_argument("section", nargs="*", metavar="SECTION",
                        help="a section number: 1.5, 3.8, 3.5 (c) or 3.5c; default: the "
                        "whole reference")


def run(args):
    if args.section:
        print(rulesdoc.section(" ".join(args.section)))
    else:
        print(rulesdoc.read().rstrip("\n"))
    return 0

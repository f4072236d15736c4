"""``pyramid rules [SECTION]``: print the rules reference, or one section of it.

Error messages cite the reference as ``(RULES 3.8)``; ``pyramid rules 3.8`` prints
that section from the copy shipped inside the package (``camelhost.rulesdoc``), so an
installed user needs no checkout. On a terminal the Markdown is rendered (Rich's
``Markdown``: bold headings, no ``**`` or backticks); piped or redirected, the text is
printed as it is written (plain Markdown, for scripts and ``grep``), except the heading
line put above one lettered item (``3.5 The grey die (c)``), which the reference does
not have as such and which is printed without ``**`` there. Exit status 1
with a one-line error for a section the reference does not have.
"""

import re
import sys

from camelhost import rulesdoc
from camelhost.commands.options import metavar
from camelhost.i18n import N_, _

HELP = (N_("Print the Camel Up rules as this program implements them (docs/rules.md), or "
           "one section: the one an error message cites as RULES 3.8 is `pyramid rules 3.8`."))


def add_arguments(parser):
    parser.add_argument("section", nargs="*", metavar=metavar("SECTION"),
                        help=_("section numbers: 1.5, 3.8, 3.5 (c) or 3.5c, one or more; default: the "
                               "whole reference"))


def _sections(words):
    """Group the words into section references: a word that starts with a digit
    starts one, a ``(c)`` after it belongs to it (``1.5 3.5 (c)`` -> two)."""
    groups = []
    for word in words:
        if groups and not word[:1].isdigit():
            groups[-1] += " " + word
        else:
            groups.append(word)
    return groups


def show(text, stream=None):
    """Print ``text`` (Markdown) on ``stream`` (default stdout): rendered for a
    terminal, as written when ``stream`` is not one."""
    stream = stream or sys.stdout
    if not stream.isatty():
        print(text, file=stream)
        return
    from rich.console import Console
    from rich.markdown import Markdown
    Console(file=stream).print(Markdown(text))


def shown_section(ref, rendered=False):
    """The text ``pyramid rules REF`` prints for one section (``rulesdoc.section``'s);
    an item of a paragraph (``3.5c``) comes under its paragraph's number and heading,
    so the line printed says which rule it is: ``3.5 The grey die (c)`` for a pipe or a
    file, ``**3.5 The grey die** (c)`` when ``rendered`` (Markdown for a terminal, which
    shows it bold with no ``**``). Raises ``CliError`` as ``rulesdoc.section`` does."""
    body = rulesdoc.section(ref)
    name = rulesdoc.normalise(ref)
    if " (" not in name:
        return body
    paragraph, letter = name.split(" (", 1)
    first = rulesdoc.section(paragraph).splitlines()[0]
    heading = re.match(r"\*\*[^*]+\*\*", first)
    title = heading.group(0)[2:-2] if heading else paragraph
    if rendered:
        title = "**%s**" % title
    return "%s (%s\n\n%s" % (title, letter, body)


def run(args):
    if args.section:
        rendered = sys.stdout.isatty()
        show("\n\n".join(shown_section(ref, rendered) for ref in _sections(args.section)))
    else:
        show(rulesdoc.read().rstrip("\n"))
    return 0

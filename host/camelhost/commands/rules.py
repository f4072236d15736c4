"""``pyramid rules [SECTION]``: print the rules reference, or one section of it.

Error messages cite the reference as ``(RULES 3.8)``; ``pyramid rules 3.8`` prints
that section from the copy shipped inside the package (``camelhost.rulesdoc``), so an
installed user needs no checkout; the form an error prints, ``RULES 1.8`` or
``(RULES 1.8)``, is read too. A word that is no section number is a keyword:
``pyramid rules tile`` lists the sections that mention it (their number and heading),
in file order. The text goes through one renderer, ``show``: on a terminal the
Markdown is rendered (Rich's ``Markdown``: bold headings, no ``**`` or backticks);
piped or redirected, it is plain text (``plain``: no ``**``, ``*``, backticks or
``#``, the words and line breaks as written), for scripts, files and ``grep``. Exit
status 1 with a one-line error for a section the reference does not have, or a
keyword no section mentions.
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
                        help=_("section numbers: 1.5, 3.8, 3.5 (c) or 3.5c (also as an error "
                               "cites them: RULES 1.8), one or more; or a word: the sections "
                               "that mention it (tile); default: the whole reference"))


#: A section as an error cites it: ``RULES 1.8``, ``(RULES 3.5 (c))``.
_CITED = re.compile(r"^\(?RULES$", re.IGNORECASE)


def _sections(words):
    """Group the words into section references: a word that starts with a digit
    starts one, a ``(c)`` after it belongs to it (``1.5 3.5 (c)`` -> two). The
    ``RULES`` an error's citation starts with is left out, and so are its brackets
    (``(RULES 1.8)``); any other word is a keyword of its own."""
    groups = []
    for word in words:
        for part in word.split():
            if _CITED.match(part):
                continue
            if part.endswith(")") and part.count(")") > part.count("("):
                part = part[:-1]  # the bracket closing '(RULES 1.8)'
            if not part:
                continue
            if groups and not part[:1].isdigit() and _is_letter(part) and \
                    groups[-1][:1].isdigit():
                groups[-1] += " " + part
            else:
                groups.append(part)
    return groups


def _is_letter(part):
    """True for a lettered item's mark written apart: ``(c)``, ``c``."""
    return re.match(r"^\(?[a-z]\)?$", part) is not None


def plain(text):
    """Markdown ``text`` as plain text for a pipe or a file: ``**bold**``, ``*italic*``
    and ```code``` lose their marks, ``## `` headings their hashes; every word and line
    break stays."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"^#+\s+", "", line)
        line = re.sub(r"\*\*(.+?)\*\*", r"\1", line)
        line = re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"\1", line)
        line = re.sub(r"`([^`]*)`", r"\1", line)
        line = re.sub(r"\\([\\`*_.#-])", r"\1", line)  # a Markdown escape: the sign itself
        out.append(line)
    return "\n".join(out)


def show(text, stream=None):
    """Print ``text`` (Markdown) on ``stream`` (default stdout): rendered for a
    terminal, as plain text (``plain``) when ``stream`` is not one."""
    stream = stream or sys.stdout
    if not stream.isatty():
        print(plain(text), file=stream)
        return
    from rich.console import Console
    from rich.markdown import Markdown
    Console(file=stream).print(Markdown(text))


def shown_section(ref, rendered=True):
    """The Markdown ``pyramid rules REF`` shows (``show``) for one section
    (``rulesdoc.section``'s); an item of a paragraph (``3.5c``) comes under its
    paragraph's number and heading, so the line printed says which rule it is:
    ``**3.5 The grey die** (c)`` (bold on a terminal, ``3.5 The grey die (c)`` in a
    pipe); ``rendered=False`` gives that plain line already. Raises ``CliError`` as
    ``rulesdoc.section`` does."""
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


def heading(body):
    """A section's number and heading, as a keyword look-up lists it: the bold opening
    of a paragraph (``1.5 Player tiles``), a chapter's title (``3. Second edition
    (2018 design, 2024 reprint)``), a lettered item's first words."""
    first = body.splitlines()[0]
    m = re.match(r"\*\*([^*]+?)\.?\*\*", first)
    if m:
        return m.group(1)
    return plain(first).strip()


def mentions(word, found=None):
    """``[(name, heading)]`` of the paragraphs (and a chapter's text before its first
    paragraph) that mention ``word`` (case-free, at the start of a word: ``tile``
    finds tiles and spectator tile), in file order. ``found``: ``rulesdoc.sections()``."""
    found = rulesdoc.sections() if found is None else found
    pattern = re.compile(r"(?<!\w)" + re.escape(word.lower()))
    out = []
    for name, body in found:
        if "(" in name:
            continue  # a lettered item is inside its paragraph, listed already
        if "." not in name:  # a chapter: only its own words, before its paragraphs
            body = re.split(r"\n\*\*\d", body, maxsplit=1)[0]
        if pattern.search(plain(body).lower()):
            out.append((name, heading(body)))
    return out


def _look_up(word):
    """The lines a keyword look-up prints. In another language than English a word its
    reference does not say (a command's English word: ``tile``, typed in English at a
    German table too) finds the sections the English reference says it in, listed by
    their headings in the table's language (the same section numbers). Raises
    ``CliError`` when no section mentions ``word``."""
    from camelhost import paths
    from camelhost.errors import CliError
    hits = mentions(word)
    # the example names the first section listed, one the reader can see below it
    intro = _("Sections that mention %(word)r (pyramid rules %(section)s prints one):")
    if not hits and rulesdoc.rules_path() != paths.RULES_DOC:
        headings = {}
        for name, body in rulesdoc.sections():
            headings[name] = heading(body)
        english = mentions(word, rulesdoc.sections(rulesdoc.read(paths.RULES_DOC)))
        hits = [(name, headings.get(name, title)) for name, title in english]
        intro = _("Sections whose English text mentions %(word)r (pyramid rules "
                  "%(section)s prints one):")
    if not hits:
        raise CliError(_("no section of the rules reference mentions %r: give a section "
                         "number like 1.5, 3.8 or 3.5 (c), or another word") % word)
    lines = [intro % {"word": word, "section": hits[0][0]}]
    for name, title in hits:
        line = title if title.startswith(name) else "%s %s" % (name, title)
        # '4. Where ...' would be a numbered list in Markdown: its dot escaped
        lines.append("- " + re.sub(r"^(\d+)\.", r"\1\\.", line))
    return lines


def run(args):
    refs = _sections(args.section or [])
    if refs:
        parts = []
        for ref in refs:
            if ref[:1].isdigit():
                parts.append(shown_section(ref))
            else:  # a keyword: the sections that mention it, as a list
                parts.append("\n".join(_look_up(ref)))
        show("\n\n".join(parts))
    else:  # none asked for (or 'RULES' alone): the whole reference
        show(rulesdoc.read().rstrip("\n"))
    return 0

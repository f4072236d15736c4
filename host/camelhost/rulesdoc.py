"""The rules reference (``docs/rules.md``) read as numbered sections.

Error messages, docstrings and docs cite it as ``RULES 1.5`` or ``RULES 3.5 (c)``;
``pyramid rules SECTION`` prints one section. The one parser of the file's layout:

* a chapter ``## 3. Second edition ...`` is section ``3``, up to the next chapter;
* a paragraph opening ``**3.5 The grey die**`` is section ``3.5``, up to the next
  numbered paragraph or chapter;
* a list item ``- (c) ...`` inside a numbered paragraph is section ``3.5 (c)``, with
  its continuation lines.
"""

import os
import re

from camelhost import paths
from camelhost.errors import CliError
from camelhost.i18n import _, language

_CHAPTER = re.compile(r"## (\d+)\. ")
_PARAGRAPH = re.compile(r"\*\*(\d+\.\d+) ")
_ITEM = re.compile(r"- \(([a-z])\) ")
#: how a section is written on the command line: ``3``, ``3.8``, ``3.5 (c)``, ``3.5c``
_NAME = re.compile(r"^\s*(\d+)(?:\.(\d+))?\s*(?:\(?\s*([a-z])\s*\)?)?\s*$")


def rules_path(lang=None):
    """The reference in the table's language (``lang``, default the language in
    force): ``rules.de.md`` beside ``paths.RULES_DOC`` for German (the same section
    numbers, in German words), else ``paths.RULES_DOC``."""
    lang = lang or language()
    if lang != "en":
        translated = os.path.join(os.path.dirname(paths.RULES_DOC), "rules.%s.md" % lang)
        if os.path.exists(translated):
            return translated
    return paths.RULES_DOC


def read(path=None):
    """The reference's text (``path`` default ``rules_path()``). Raises ``CliError``
    when the file is missing (a broken install)."""
    path = path or rules_path()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise CliError(_("the rules reference is missing from this install (%s): reinstall "
                         "smart-pyramid") % path) from None


def sections(text=None):
    """``[(name, text), ...]`` of every section in file order: ``("1", ...)``,
    ``("1.5", ...)``, ``("3.5 (a)", ...)``. A chapter's text holds its paragraphs, a
    paragraph's its list items; each text is stripped of surrounding blank lines."""
    lines = (read() if text is None else text).splitlines()
    starts = []  # (line index, name, level) level 0 chapter, 1 paragraph, 2 item
    paragraph = None
    for i, line in enumerate(lines):
        m = _CHAPTER.match(line)
        if m:
            starts.append((i, m.group(1), 0))
            paragraph = None
            continue
        m = _PARAGRAPH.match(line)
        if m:
            paragraph = m.group(1)
            starts.append((i, paragraph, 1))
            continue
        m = _ITEM.match(line)
        if m and paragraph:
            starts.append((i, "%s (%s)" % (paragraph, m.group(1)), 2))
    out = []
    for k, (i, name, level) in enumerate(starts):
        end = len(lines)
        for j, _name, other in starts[k + 1:]:
            if other <= level:
                end = j
                break
        if level == 2:  # an item runs over its indented continuation lines only
            stop = i + 1
            while stop < end and lines[stop].startswith("  "):
                stop += 1
            end = stop
        out.append((name, "\n".join(lines[i:end]).strip("\n")))
    return out


def normalise(name):
    """A section name as written on the command line (``3.8``, ``3.5 (c)``, ``3.5c``,
    ``3.5(c)``) in the reference's form (``3.5 (c)``). Raises ``CliError`` for text
    that is no section number."""
    m = _NAME.match(name.lower())
    if not m or (m.group(3) and not m.group(2)):
        raise CliError(_("%r is not a rules section: give a number like 1.5, 3.8 or 3.5 (c)")
                       % name)
    out = m.group(1) + ("." + m.group(2) if m.group(2) else "")
    return out + (" (%s)" % m.group(3) if m.group(3) else "")


def section(name, text=None):
    """The text of section ``name`` (any form ``normalise`` reads). Raises ``CliError``
    naming the sections there are when the reference has no such section."""
    wanted = normalise(name)
    found = sections(text)
    for have, body in found:
        if have == wanted:
            return body
    raise CliError(_("no section %(wanted)s in the rules reference (there are %(found)s)")
                   % {"wanted": wanted, "found": _summary(found)})


def _summary(found):
    """``1 (1.1-1.13), 2 (2.1-2.5), ..., 5``: the chapters with their paragraphs."""
    chapters = []
    for name, _body in found:
        if "." not in name:
            chapters.append([name])
        elif "(" not in name and chapters:
            chapters[-1].append(name)
    parts = []
    for chapter in chapters:
        if len(chapter) > 1:
            parts.append("%s (%s-%s)" % (chapter[0], chapter[1], chapter[-1]))
        else:
            parts.append(chapter[0])
    return ", ".join(parts)

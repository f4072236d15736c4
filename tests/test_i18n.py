"""The table's second language (issue 30): gettext catalogues made with Babel.

The compiled ``.mo`` files are committed (``make catalogue`` rebuilds them); these
tests check that each matches its ``.po`` byte for byte, that the catalogue holds every
message the code marks, and list what is not translated yet: the catalogue's empty
entries, and the player-facing literals that do not go through ``_()`` at all (their
count may only fall)."""

import ast
import io
import os

from camelhost import cli, i18n
from camelhost.i18n import _, ngettext, set_language

LOCALE = i18n.LOCALE_DIR
PO = os.path.join(LOCALE, "de", "LC_MESSAGES", "pyramid.po")
MO = os.path.join(LOCALE, "de", "LC_MESSAGES", "pyramid.mo")
HOST = os.path.dirname(i18n.__file__)

#: Player-facing literals in the host program that do not go through ``_()`` yet
#: (``unwrapped()``): the number committed; it may fall, never grow.
UNWRAPPED_MAX = 15


def _catalog():
    from babel.messages.pofile import read_po
    with open(PO, "rb") as fh:
        return read_po(fh)


def test_the_compiled_catalogue_is_the_po_compiled():
    from babel.messages.mofile import write_mo
    out = io.BytesIO()
    write_mo(out, _catalog())
    with open(MO, "rb") as fh:
        assert fh.read() == out.getvalue(), "run make catalogue"


def test_the_catalogue_holds_every_message_the_code_marks():
    from babel.messages.extract import extract_from_dir
    root = os.path.dirname(os.path.dirname(HOST))
    marked = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            os.path.join(root, "camelhost") if os.path.isdir(os.path.join(root, "camelhost"))
            else HOST, method_map=[("**.py", "python")]):
        marked.add(message)
    ids = {m.id for m in _catalog() if m.id}
    assert marked - ids == set(), "run make catalogue"


def test_every_german_message_is_translated_and_keeps_its_placeholders():
    import re
    spec = re.compile(r"%(?:\([a-z_]+\))?[-+ 0#]*\d*(?:\.\d+)?([sdrf%])")
    untranslated = []
    for m in _catalog():
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not all(strings):
            untranslated.append(m.id)
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        for s in strings:
            assert spec.findall(s) == spec.findall(ids[0]), (m.id, s)
    print("untranslated in de: %d" % len(untranslated))
    for message in untranslated:
        print("  ", message)
    assert untranslated == []


#: Words of Rich styles (``"bold reverse"``): no player reads them as words.
STYLE_WORDS = {"bold", "reverse", "underline", "italic", "dim", "not"}

#: Calls whose string argument a player reads.
SHOWN = {"append", "error", "_write", "_print", "print", "Text", "TableError", "CliError",
         "say", "notify", "_form", "text"}


def unwrapped(root=HOST):
    """``[(file, line, text)]``: string literals in the host program that look like
    words a player reads (formatted with ``%``, returned, or handed to a display or an
    error) and are not inside ``_()``, ``N_()`` or ``ngettext()``. A heuristic: it
    counts a few that are no words (format strings of numbers) and misses words kept
    in constants."""
    import re
    found = []
    for folder, _dirs, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            tree = ast.parse(open(path, encoding="utf-8").read())
            parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
            docs = {n.body[0].value for n in ast.walk(tree)
                    if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef,
                                      ast.AsyncFunctionDef))
                    and n.body and isinstance(n.body[0], ast.Expr)}
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                    continue
                text = re.sub(r"%(\([a-z_]+\))?[-+ 0#]*\d*(\.\d+)?[sdrfi%]", "", node.value)
                if node in docs or len(re.findall(r"[A-Za-z]{2,}", text)) < 2:
                    continue
                if set(text.split()) <= STYLE_WORDS or "(?" in text or "var(--" in text:
                    continue  # a Rich style, a regular expression, CSS: no words
                p = parents.get(node)
                shown = (isinstance(p, ast.BinOp) and isinstance(p.op, ast.Mod)
                         and p.left is node) or isinstance(p, ast.Return) or (
                    isinstance(p, ast.Call) and node in p.args
                    and (getattr(p.func, "attr", None) or getattr(p.func, "id", None)) in SHOWN)
                while isinstance(p, (ast.BinOp, ast.Call)):
                    if isinstance(p, ast.Call) and getattr(p.func, "id", "") in (
                            "_", "N_", "ngettext"):
                        shown = False
                        break
                    p = parents.get(p)
                if shown:
                    found.append((os.path.relpath(path, root), node.lineno, node.value))
    return found


def test_the_words_not_yet_through_the_catalogue_do_not_grow():
    left = unwrapped()
    print("player-facing literals not through _(): %d" % len(left))
    for path, line, text in left:
        print("  %s:%d %r" % (path, line, text[:70]))
    assert len(left) <= UNWRAPPED_MAX


def test_german_is_chosen_by_lang_or_the_locale_and_english_stays_the_default(
        monkeypatch):
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    assert set_language(None) == "en" and _("forward") == "forward"
    assert set_language("de") == "de" and _("forward") == "vorwärts"
    assert ngettext("%d space", "%d spaces", 2) % 2 == "2 Felder"
    assert _("a message with no German yet") == "a message with no German yet"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert set_language(None) == "de"
    assert set_language("en") == "en" and _("forward") == "forward"
    assert i18n.languages() == ["de", "en"] or i18n.languages() == ["en", "de"]


def test_an_unknown_language_is_one_line_and_changes_nothing(capsys):
    assert cli.main(["rules", "1.5", "--lang", "xx"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "pyramid: --lang xx: no such language here (en, de)"


def test_the_page_words_come_in_the_tables_language_and_cannot_end_their_block():
    from camelhost.web.words import WORDS_BLOCK, page_with_words, page_words
    assert page_words() == {"lang": "en", "words": {}}
    set_language("de")
    words = page_words()
    assert words["lang"] == "de" and words["words"]["Players"] == "Spieler"
    page = page_with_words(b"<head>" + WORDS_BLOCK + b"</head>")
    assert b"Spieler" in page and page.count(b"</script>") == 1


def test_one_english_word_with_two_meanings_keeps_both_in_german():
    # "last" heads the odds report's last-place column and names the replay's last step
    from camelhost.i18n import pgettext
    set_language("de")
    assert pgettext("odds column", "last") == "letzter" and _("last") == "Ende"
    set_language("en")
    assert pgettext("odds column", "last") == "last"

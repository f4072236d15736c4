"""``pyramid rules`` (tester 4 finding 14): a section copied from an error's citation
(``RULES 1.8``, ``(RULES 3.5 (c))``) is looked up; a word lists the sections that
mention it; piped, every section is plain text, through the one renderer."""

import io

from camelhost import cli, rulesdoc
from camelhost.commands.rules import show


def _out(capsys, *argv):
    assert cli.main(["rules"] + list(argv)) == 0
    return capsys.readouterr().out


def test_the_citation_an_error_prints_is_looked_up_as_copied(capsys):
    section = _out(capsys, "1.8")
    assert _out(capsys, "RULES", "1.8") == section
    assert _out(capsys, "RULES 1.8") == section
    assert _out(capsys, "(RULES", "1.8)") == section
    assert _out(capsys, "(RULES 3.5 (c))") == _out(capsys, "3.5c")
    assert section.startswith("1.8 Finish cards")


def test_a_word_lists_the_sections_that_mention_it(capsys):
    out = _out(capsys, "tile").splitlines()
    assert out[0] == "Sections that mention 'tile' (pyramid rules 1.3 prints one):"
    listed = [line[2:] for line in out[1:]]
    assert "1.5 Player tiles" in listed and "3.6 Spectator tiles" in listed
    assert "2.5 The desert tile" in listed
    names = [line.split()[0].rstrip(".") for line in listed]
    assert names == [n for n, _t in rulesdoc.sections() if n in names]  # file order
    assert "1.1" not in names  # 1.1 The track mentions no tile
    partner = [line[2:] for line in _out(capsys, "PARTNER").splitlines()[1:]]
    assert partner[0] == "3.8 Partnerships"


def test_a_word_no_section_mentions_is_one_line(capsys):
    assert cli.main(["rules", "xyzzy"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "no section of the rules reference mentions 'xyzzy'" in captured.err


def test_a_piped_section_has_no_markdown_left(capsys):
    for ref in ("1.5", "1.8", "3", "3.5", "3.5c"):
        out = _out(capsys, ref)
        assert "**" not in out and "`" not in out and "##" not in out, ref
    assert _out(capsys, "1.2").startswith("1.2 Stacks and units. All camels")
    assert "that group is the unit." in _out(capsys, "1.2")  # *unit*: plain too


def test_on_a_terminal_the_keyword_list_is_a_list():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    from camelhost.commands.rules import _look_up
    screen = Terminal()
    show("\n".join(_look_up("partner")), screen)
    import re
    shown = re.sub(r"\x1b\[[0-9;]*m", "", screen.getvalue()).splitlines()
    assert [line.strip() for line in shown if "•" in line] == [
        "• 3.8 Partnerships", "• 4. Where the sources disagree, and what the project does"]

"""A count of one line in the journal's German messages says "die eine Zeile danach", not
"die 1 Zeile danach" (s41 tester 9): the singular of a counted phrase is a word there."""

import pytest
from camelhost.i18n import set_language
from camelhost.table.journal import Journal, JournalError
from camelhost.table.session import Session
from test_journal_recover import _damage, _game


def _refused(path):
    with pytest.raises(JournalError) as refused:
        Journal.resume(str(path), check=Session.stale_line)
    return str(refused.value)


def test_one_line_kept_after_a_damaged_one_is_die_eine_zeile(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = _game(path, ("leg red", "pyramid", "purple 2"))
    _damage(lines, 4, b'"player":1', b'"player":2')  # Ben's pyramid ticket, its die after it
    path.write_bytes(b"".join(lines))
    set_language("de")
    said = _refused(path)
    assert ("beiseitegelegt wird und die eine Zeile danach bleibt: pyramid play --resume %s "
            "--upto-damage" % path) in said, said
    j = Journal.resume(str(path), upto_damage=True, check=Session.stale_line)
    note, = j.notes
    assert note.startswith("Zeile 4 ist beschädigt (die Prüfsumme stimmt nicht): ausgelassen, "
                           "beiseitegelegt in %s.damaged; die eine Zeile danach bleibt. "
                           % path), note
    j.close()
    set_language("en")  # English keeps its number
    path.write_bytes(b"".join(lines))
    (tmp_path / "g.jsonl.damaged").unlink()
    assert "and keeping the 1 line after it: " in _refused(path)


def test_one_line_moved_with_a_damaged_one_is_die_eine_zeile(tmp_path):
    path = tmp_path / "g.jsonl"
    lines = _game(path, ("leg red", "pyramid", "purple 2", "tile 8 -", "pyramid", "green 1",
                         "leg blue"))
    # the green die no longer reads, and Ben's leg ticket after it can't follow without it
    _damage(lines, 8, b'"value":1', b'"value":x1')
    path.write_bytes(b"".join(lines))
    set_language("de")
    said = _refused(path)
    assert ("; oder, um bis dorthin fortzusetzen und sie und die eine Zeile danach nach "
            "%s.damaged zu verschieben: " % path) in said, said
    set_language("en")
    assert "moving it and the 1 line after it to " in _refused(path)

"""A ``*.jsonl`` in a folder that is no journal is opened once while ``pyramid play
--resume FOLDER`` chooses (s44b journal task 4: it was opened twice more after its one
read, to tell whether it holds a game)."""

import shutil

from camelhost import cli
from camelhost.table import journal as journal_module
from test_resume_newest import _journal

WRITTEN = 1_796_671_000


def _folder(tmp_path, *names):
    """A folder holding one game's journal under each of ``names`` (copies, the same
    bytes), all written in the same second; the bytes."""
    folder = tmp_path / "jf"
    folder.mkdir()
    data = _journal(folder / names[0], written=WRITTEN)
    for name in names[1:]:
        shutil.copyfile(str(folder / names[0]), str(folder / name))
        import os
        os.utime(str(folder / name), (WRITTEN, WRITTEN))
    return folder, data


def _run(monkeypatch, capsys, *argv):
    monkeypatch.setattr("sys.stdin", iter(["quit\n"]))
    rc = cli.main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err.strip()


def test_a_file_that_is_no_journal_is_opened_once_while_choosing(
        tmp_path, monkeypatch, capsys):
    folder, _data = _folder(tmp_path, "a.jsonl")
    other = folder / "notes.jsonl"
    other.write_bytes(b'{"not": "a journal"}\n')
    import os
    os.utime(str(other), (WRITTEN + 10, WRITTEN + 10))  # newest: looked at first
    opened = []
    real = journal_module._open_read

    def counted(path):
        opened.append(str(path))
        return real(path)

    monkeypatch.setattr(journal_module, "_open_read", counted)
    rc, out, err = _run(monkeypatch, capsys, "play", "--plain", "--pyramid", "manual",
                        "--resume", str(folder))
    assert rc == 0, err
    assert opened.count(str(other)) == 1, opened


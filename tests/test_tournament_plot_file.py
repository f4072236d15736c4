"""``pyramid tournament --plot FILE`` (s37 player tester finding 11): a name matplotlib can't
write (``.docx``, ``.txt``) is refused in one line, in the table's language, before the
first game (it failed after every game, in matplotlib's English); a name without an ending
is written as matplotlib writes it, ``NAME.png``, and the table names that file, not
``NAME``."""

import pytest

pytest.importorskip("matplotlib")  # the plot extra: in make test's dev extras

from camelhost.cli import main  # noqa: E402

RUN = ["tournament", "--seats", "3", "--games", "2", "--bots", "random", "--workers", "1"]


@pytest.mark.parametrize("name", ["shares.docx", "shares.txt"])
def test_a_plot_name_matplotlib_cant_write_is_refused_before_the_games(tmp_path, capsys,
                                                                     name):
    path = tmp_path / name
    assert main(RUN + ["--plot", str(path)]) == 1
    out, err = capsys.readouterr()
    ending = name[name.index("."):]
    assert err.startswith("pyramid: --plot %s: a plot can't be written as %s; end the name in "
                          ".png, .svg or .pdf (or " % (path, ending)), err
    assert ".eps" in err and err.count("\n") == 1
    assert "games in" not in out and not path.exists()  # no game played, nothing written


def test_the_refusal_is_in_the_tables_language(tmp_path, capsys):
    path = tmp_path / "anteile.docx"
    assert main(RUN + ["--plot", str(path), "--lang", "de"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pyramid: --plot %s: als .docx kann kein Diagramm geschrieben "
                          "werden; " % path), err
    assert "Format" not in err and "supported" not in err


def test_a_name_without_an_ending_is_said_as_the_file_written(tmp_path, capsys):
    path = tmp_path / "shares"
    assert main(RUN + ["--plot", str(path)]) == 0
    out = capsys.readouterr().out
    written = tmp_path / "shares.png"
    assert written.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not path.exists()
    assert out.splitlines()[-1] == "plot written to %s" % written


def test_an_ending_in_capitals_is_written_as_named(tmp_path, capsys):
    path = tmp_path / "shares.SVG"
    assert main(RUN + ["--plot", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "plot written to %s" % path
    assert b"<svg" in path.read_bytes()[:400]

"""One matcher for the command line (s35): a misspelt ``pyramid`` command and a misspelt
``--pyramid``/``--port`` word are answered by the one "did you mean" of the table
(``camelhost.suggest.nearest``), in one line for every unknown command; before,
``pyramid foo`` got argparse's usage and choice list, ``pyramid tour`` was offered
``doctor`` and ``pyramid cal`` nothing (``difflib``'s cut-off)."""

import pytest
from camelhost import cli
from camelhost.i18n import set_language


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    set_language("en")


@pytest.mark.parametrize("argv, line", [
    (["plya", "--players", "Ann,Ben"],
     "unknown command 'plya'; did you mean 'play'? (pyramid --help lists them)"),
    (["tour"], "unknown command 'tour'; did you mean 'tournament'? (pyramid --help lists them)"),
    (["cal"], "unknown command 'cal'; did you mean 'calibrate'? (pyramid --help lists them)"),
    (["foo"], "unknown command 'foo'; the commands are play, demo, replay, check, odds, "
              "tournament, calibrate, monitor, flash, doctor, emulate, rules (pyramid --help "
              "says what each does)"),
    (["--lang", "de", "foo", "3"],
     "unbekannter Befehl 'foo'; die Befehle sind play, demo, replay, check, odds, tournament, "
     "calibrate, monitor, flash, doctor, emulate, rules (pyramid --help sagt, was jeder tut)"),
    (["--lang=de", "plya"], "unbekannter Befehl 'plya'; meintest du 'play'? (pyramid --help "
                            "nennt sie)"),
])
def test_an_unknown_command_is_one_line_with_the_nearest_command_or_the_list(capsys, argv,
                                                                              line):
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err == "pyramid: %s\n" % line and captured.out == ""


@pytest.mark.parametrize("command, option, typed, meant", [
    ("play", "--pyramid", "virtua", "--pyramid virtual"),
    ("play", "--pyramid", "Manul", "--pyramid manual"),
    ("play", "--pyramid", "atuo", "--pyramid auto"),
    ("play", "--pyramid", "virt", "--pyramid virtual"),
    ("play", "--pyramid", "au", None),  # two letters: a port as well as anything
    ("play", "--pyramid", "zzz", None),
    ("monitor", "--port", "virt", "--port virtual"),
    ("monitor", "--port", "manul", None),  # no manual pyramid to monitor
])
def test_a_slip_of_a_dice_source_word_is_answered_by_the_same_matcher(tmp_path, capsys,
                                                                      command, option, typed,
                                                                      meant):
    argv = [command, option, typed]
    if command == "play":
        argv += ["--players", "Ann,Ben,Cy", "--plain", "--journal", str(tmp_path / "g.jsonl")]
    else:
        argv += ["--count", "1"]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    if meant is None:
        assert "did you mean" not in err and err.startswith("pyramid: cannot open %s" % typed)
    else:
        assert err == "pyramid: cannot open %s: no such port; did you mean %s?\n" % (typed,
                                                                                       meant)
    assert not (tmp_path / "g.jsonl").exists()

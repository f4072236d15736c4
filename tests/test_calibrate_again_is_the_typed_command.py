"""Every rerun a calibration advises is the maker's own command (maker s43, finding 3):
``--edition``, ``--samples``, ``--no-save`` and the rest as typed, on the session's port,
with a light fix's settings (``--autorange``, or ``--integration MS --gain N``) in place
of the light options typed; it dropped all but the port."""

import pytest
from camelhost import cli


@pytest.mark.micropython
@pytest.mark.process
def test_too_little_light_advises_the_typed_command_with_the_fix(micropython, capsys):
    status = cli.main(["calibrate", "--port", "virtual", "--edition", "classic", "--samples",
                       "3", "--gain", "1", "--integration", "2.4", "--no-save"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.strip().endswith(
        "calibrate again: pyramid calibrate --port virtual --edition classic --samples 3 "
        "--no-save --integration 2.4 --gain 4 (nothing was saved)"), err



def _typed(monkeypatch, *argvs):
    """``typed_options`` of each calibrate command line in ``argvs``, as ``run`` gets it."""
    from camelhost.commands import calibrate as calibrate_command

    seen = []
    monkeypatch.setattr(calibrate_command, "run",
                        lambda args: seen.append(calibrate_command.typed_options(args)))
    for argv in argvs:
        assert cli.main(["calibrate"] + list(argv)) == 0
    return seen


def test_the_rerun_repeats_an_option_only_where_it_is_not_its_default(monkeypatch):
    assert _typed(monkeypatch, [], ["--seed", "5", "--samples", "3"]) == [
        [], [("--samples", "3"), ("--seed", "5")]]


def test_the_defaults_left_out_are_read_from_the_options_definitions(monkeypatch):
    """Maker s44, finding 3: ``--seed``'s default (1) was written a second time in
    ``typed_options``; defined otherwise, a rerun repeated the default and dropped a
    typed ``--seed 1``."""
    from camelhost.commands import calibrate as calibrate_command

    defined = calibrate_command.add_seed_argument
    monkeypatch.setattr(calibrate_command, "add_seed_argument",
                        lambda parser, what: defined(parser, what, default=7))
    assert _typed(monkeypatch, [], ["--seed", "1"]) == [[], [("--seed", "1")]]

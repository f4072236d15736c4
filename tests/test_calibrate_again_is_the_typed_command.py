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


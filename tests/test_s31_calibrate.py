"""s31 tester finding 5: a calibration reading that looks like the die before it (or
the empty head) offers ``r`` to read that step again, the doubtful reading dropped;
``q`` asks before it drops the readings already taken. One virtual pyramid for the
file (its pty, so calibrate asks a person); the person is scripted through ``input``."""

import os

import pytest
from camelhost import cli

pytestmark = [pytest.mark.hil, pytest.mark.micropython, pytest.mark.process,
              pytest.mark.xdist_group("s31_calibrate")]  # one board for the file


@pytest.fixture(scope="module")
def virtual(micropython):
    from camelhost.device.virtual import VirtualPyramid

    with VirtualPyramid("second", seed=7) as vp:
        yield vp


def _die(prompt):
    if "head must be empty" in prompt:
        return "empty"
    if "grey die with its" in prompt:
        return "grey-" + ("black" if "its black" in prompt else "white")
    return prompt.split("release the ", 1)[1].split(" die", 1)[0]


def _profile_on_flash(virtual):
    path = os.path.join(virtual.flash_dir, "profile.json")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def test_a_doubtful_reading_is_read_again_with_r_and_the_session_saves(virtual, capsys,
                                                                        monkeypatch):
    """At the second step the die before it stays in the head (the maker forgot the
    new one): the warning, then ``r`` with the right die in: the session saves, as a
    session that never went wrong does."""
    prompts = []

    def person(prompt):
        prompts.append(prompt)
        if len(prompts) == 2:
            return ""  # the die of step 1 stays in the head
        if prompt.lstrip().startswith("r reads it again"):
            virtual.place(_die(prompt))
            return "r"
        virtual.place(_die(prompt))
        return ""

    monkeypatch.setattr("builtins.input", person)
    rc = cli.main(["calibrate", "--port", virtual.port, "--samples", "3"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert out.count("this reading looks like") == 1, out
    again = prompts[2]
    assert again.lstrip().startswith("r reads it again (first release the "), again
    assert "Enter keeps this reading; q stops" in again
    # the step asked again was the doubtful one; the next prompt is the third step
    assert _die(again) == _die(prompts[1])
    assert prompts[3].startswith("[  3/")
    assert "profile saved on the pyramid" in out
    # every step has exactly one reading line kept after it: step 2 was read twice
    assert sum(1 for line in out.splitlines() if line.startswith("[  2/")) == 2


def test_enter_keeps_a_doubtful_reading_and_the_session_is_refused_as_before(virtual, capsys,
                                                                            monkeypatch):
    before = _profile_on_flash(virtual)
    prompts = []

    def person(prompt):
        prompts.append(prompt)
        if len(prompts) != 2:
            virtual.place(_die(prompt))
        return ""

    monkeypatch.setattr("builtins.input", person)
    rc = cli.main(["calibrate", "--port", virtual.port, "--samples", "3"])
    out, err = capsys.readouterr()
    assert rc != 0 and "saved" in err and "profile saved" not in out, err
    assert "r reads it again" in prompts[2]
    assert _profile_on_flash(virtual) == before


def test_q_asks_before_it_drops_the_readings_taken(virtual, capsys, monkeypatch):
    prompts = []
    answers = {4: "q", 5: "", 6: "q", 7: "y"}

    def person(prompt):
        prompts.append(prompt)
        virtual.place(_die(prompt)) if "release" in prompt or "empty" in prompt else None
        return answers.get(len(prompts), "")

    monkeypatch.setattr("builtins.input", person)
    rc = cli.main(["calibrate", "--port", virtual.port, "--samples", "3"])
    out, err = capsys.readouterr()
    assert rc != 0
    # q at step 4 asked, Enter went on with the same step; q again, y stopped
    assert prompts[4] == "stop? the 3 readings taken so far are lost, nothing is saved " \
                         "(y stops, Enter goes on): "
    assert prompts[5] == prompts[3]
    assert err == "pyramid: calibration stopped; its 3 readings are dropped and nothing " \
                  "was saved\n", err
    assert len(prompts) == 7

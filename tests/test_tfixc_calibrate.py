"""pyramid calibrate refuses a profile its own check calls useless (tester 4, finding 1).

A maker who never gets the grey die into the head (the purple die left there for the
first grey reading, the head empty after that) is warned at each such reading and
the session saves nothing: the pyramid keeps the profile it had. One virtual pyramid
for the file; the person at the keyboard is scripted through ``input``.
"""

import os
import re

import pytest
from camelhost import cli
from camelup import calibration

pytestmark = [pytest.mark.hil, pytest.mark.micropython, pytest.mark.process,
              pytest.mark.xdist_group("tfixc_calibrate")]  # one board for the file


@pytest.fixture(scope="module")
def virtual(micropython):
    from camelhost.device.virtual import VirtualPyramid

    with VirtualPyramid("second", seed=7) as vp:
        yield vp


def _person(virtual, grey_in_head):
    """A maker answering calibrate's prompts: the die asked for goes into the head,
    except the grey die when ``grey_in_head`` is false (the die before it stays in the
    head the first time, the head is empty after that)."""
    seen = {"grey": 0}

    def answer(prompt):
        if "head must be empty" in prompt:
            virtual.place("empty")
        elif "grey die with its" in prompt:
            ink = "black" if "its black" in prompt else "white"
            if grey_in_head:
                virtual.place("grey-" + ink)
            elif seen["grey"]:
                virtual.place("empty")
            seen["grey"] += 1
        else:
            virtual.place(prompt.split("release the ", 1)[1].split(" die", 1)[0])
        return ""

    return answer


def _profile_on_flash(virtual):
    path = os.path.join(virtual.flash_dir, "profile.json")
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def test_a_die_never_in_the_head_is_warned_and_nothing_is_saved(virtual, capsys, monkeypatch):
    before = _profile_on_flash(virtual)
    monkeypatch.setattr("builtins.input", _person(virtual, grey_in_head=False))
    rc = cli.main(["calibrate", "--port", virtual.port, "--samples", "3"])
    out, err = capsys.readouterr()
    assert rc != 0, out
    assert "profile saved" not in out
    # at the prompt: the first grey reading is the purple die left in the head, the
    # later ones the empty head
    assert "this reading looks like the purple die read just before it: is the grey die " \
           "in the head?" in out, out
    assert "this reading looks like the empty head: is the grey die in the head?" in out, out
    # one line: which die, why, what to do; the advice does not blame the paint
    assert err.count("\n") == 1 and err.startswith("pyramid: not saved: "), err
    assert "grey die" in err and "was not in the head" in err, err
    assert "Put the grey die in the head and read it again" in err, err
    assert "keeps its profile" in err, err
    assert "matte black" not in out
    assert _profile_on_flash(virtual) == before


def test_a_right_session_warns_of_nothing_and_saves(virtual, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", _person(virtual, grey_in_head=True))
    rc = cli.main(["calibrate", "--port", virtual.port, "--samples", "4"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "looks like" not in out
    assert "profile saved on the pyramid" in out
    assert _profile_on_flash(virtual) is not None


# --- the rule itself (no device) ----------------------------------------------


def test_readings_of_one_content_are_alike_and_of_two_dice_not():
    purple = (572, 179, 112, 221)  # the tester's purple die, then the "grey" reading
    assert calibration.alike(purple, (575, 184, 115, 222), 2000.0)
    assert calibration.alike((53, 14, 15, 12), (50, 13, 14, 12), 2000.0)  # the empty head
    assert not calibration.alike(purple, (1180, 377, 395, 320), 2000.0)  # grey die, black ink
    # the grey die's two inks differ only in brightness: still two readings apart
    assert not calibration.alike((1180, 377, 395, 320), (1680, 536, 563, 459), 2000.0)


def test_refusal_names_the_suspect_die_first_then_a_die_the_check_misses():
    check = {"red": {"n": 12, "correct": 5, "wrong": {"orange": 7}},
             "grey-black": {"n": 12, "correct": 2, "wrong": {"grey-white": 9}},
             "blue": {"n": 12, "correct": 12, "wrong": {}},
             "_total": {"n": 36}}
    # the grey die's inks named for each other still name the grey die: red fails
    assert calibration.refusal(check, {}) == ("red", "named", 5 / 12.0)
    assert calibration.refusal(check, {"blue": [(3, "empty"), (9, "purple"), (17, "empty")]}) \
        == ("blue", "like", ("empty", 3))
    check["red"]["correct"] = 12
    assert calibration.refusal(check, {"blue": []}) is None


def test_a_die_the_check_cannot_name_is_refused_with_the_advice_kept(virtual, capsys,
                                                                     monkeypatch):
    """The blue die released for every red prompt: no reading looks like the one
    before it (yellow) or the empty head, but the check cannot tell red from blue, so nothing is saved; the
    advice stays (a build whose colours overlap is fixed in the build)."""
    before = _profile_on_flash(virtual)
    person = _person(virtual, grey_in_head=True)

    def swapped(prompt):
        return person(prompt.replace("release the red die", "release the blue die"))

    monkeypatch.setattr("builtins.input", swapped)
    rc = cli.main(["calibrate", "--port", virtual.port, "--samples", "4"])
    out, err = capsys.readouterr()
    assert rc != 0 and "profile saved" not in out
    assert "looks like" not in out
    assert "advice: " in out
    assert err.startswith("pyramid: not saved: the check names the ")
    assert re.search(r"the (red|blue) die right in only \d+[.,]\d% of its readings, under "
                     r"the 50% a profile needs", err), err
    assert "keeps its profile" in err
    assert _profile_on_flash(virtual) == before


def test_the_rule_runs_unchanged_on_micropython(micropython):
    done = micropython(
        "from camelup import calibration as c\n"
        "print(c.alike((572, 179, 112, 221), (575, 184, 115, 222), 2000.0),"
        " c.alike((572, 179, 112, 221), (1180, 377, 395, 320), 2000.0))\n"
        "print(c.refusal({}, {'grey-black': [(0, 'purple'), (1, 'empty'), (2, 'empty')]}))\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["True False", "('grey-black', 'like', ('empty', 3))"]

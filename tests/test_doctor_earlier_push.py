"""``pyramid doctor``'s slider step and a push made before doctor connected (tester
s44, finding 5, as met by monitor): the board sends a push nobody acknowledged again to
the next program that connects, and on a slow board (the emulated Pico) it can arrive
after the step cleared the pushes waiting, where it passed as the push the maker was
asked for. The step waits for a push made after it asked."""

import queue
from types import SimpleNamespace

from camelhost.commands import doctor

HELLO = {"boot": "AAAAAAAA", "seq": 8}


def _push(seq, boot="AAAAAAAA"):
    return SimpleNamespace(boot=boot, seq=seq, kind="die")


class _Link:
    """A stand-in link whose ``next_event`` hands out ``events`` in order, then
    nothing (``None``, as the real link after its timeout)."""

    def __init__(self, events):
        self.events = queue.SimpleQueue()
        for event in events:
            self.events.put(event)
        self.waits = []

    def next_event(self, timeout=None):
        self.waits.append(timeout)
        try:
            return self.events.get_nowait()
        except queue.Empty:
            return None


def test_a_push_from_before_doctor_connected_is_not_the_push_asked_for():
    old, new = _push(8), _push(9)
    link = _Link([old, new])
    assert doctor.next_push(link, HELLO, 10.0) is new


def test_only_earlier_pushes_means_no_push_seen():
    link = _Link([_push(7), _push(8)])
    assert doctor.next_push(link, HELLO, 10.0) is None
    assert all(0 <= wait <= 10.0 for wait in link.waits)


def test_a_push_of_a_new_boot_is_a_new_push():
    # the board rebooted since its HELLO: its numbers start again, every push is new
    fresh = _push(1, boot="BBBBBBBB")
    assert doctor.next_push(_Link([fresh]), HELLO, 10.0) is fresh

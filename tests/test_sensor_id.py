"""Sensor chip ids on the simulated board: 0x10 modules are accepted like 0x44/0x4D,
and the id read shows in HELLO and in `pyramid monitor`."""

import sys

import pytest
from camelhost import paths
from camelhost.device.link import Link
from camelhost.device.virtual import VirtualPyramid
from camelhost.tools import monitor

pytestmark = [pytest.mark.hil, pytest.mark.micropython]

if paths.SIM_DIR not in sys.path:
    sys.path.insert(0, paths.SIM_DIR)


def _hello(link):
    return dict(link.wait_hello(5.0).fields)


@pytest.mark.parametrize("chip_id, state, shown", [(0x10, "ok", "0x10"), (0x44, "ok", "0x44"), (0x4D, "ok", "0x4D"),
                                                   (0x23, "missing", "0x23")])
def test_chip_id_is_accepted_or_refused_and_shown(micropython, chip_id, state, shown):
    with VirtualPyramid("second", seed=2, hardware={"chip_id": chip_id}) as vp, Link(vp.port) as link:
        hello = _hello(link)
        assert hello["sensor"] == state and "0x" + hello["sid"] == shown
        lines = monitor.describe(hello)
        assert "sensor %s (chip id %s)" % (state, shown) in lines[1]
        if state == "ok":
            vp.release()
            assert link.next_event(10).kind in ("die", "unknown")


def test_no_chip_on_the_bus_reports_a_fault_and_no_id(micropython):
    with VirtualPyramid("second", seed=2, hardware={"sensor": "absent"}) as vp, Link(vp.port) as link:
        hello = _hello(link)
        assert hello["sensor"] == "fault" and hello.get("sid") is None
        assert "chip id" not in monitor.describe(hello)[1]

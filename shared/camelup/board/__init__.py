"""camelup.board: the part of ``camelup`` that is flashed to the pyramid.

``protocol`` (the wire codec both ends use), ``classifier`` (features and the decision
the board runs), ``tcs34725`` (the sensor's count arithmetic) and ``default_profiles``
(the built-in classifier profiles as JSON text). These modules import only each
other, ``camelup.editions`` and ``camelup.errors`` (``tests/test_architecture.py``), so
importing one on the board never loads the rules engine, the odds or the host-only
fitting (``camelup.calibration``). The board's module list is
``camelhost.device.flash.firmware_modules``: the firmware package, this sub-package
whole and the editions.
"""

"""camelup: the Camel Up rules engine, notation, odds and wire protocol.

Pure Python shared by the host program (CPython 3.11+) and the pyramid firmware
(MicroPython). Nothing here may import ``enum``, ``dataclasses``, ``typing``,
``functools`` or ``itertools`` at run time, or rely on dict order or a stable sort.

The rules engine's public names are re-exported here (see docs/api.md):
``Game``, ``Action``, ``parse_action``, ``parse_position``, ``IllegalAction``,
``NotationError`` (alias ``ParseError``), ``get_edition``. The firmware imports its
own modules (``camelup.protocol``, ...) directly and never pays for the engine.
"""

__version__ = "0.1.0"


def __getattr__(name):
    # Lazy re-exports keep `import camelup.protocol` on the board cheap.
    # (PEP 562 on CPython; MicroPython falls back to the explicit imports below.)
    return _lazy(name)


_EXPORTS = {
    "Game": "game", "setup_stacks": "game", "check_start": "game", "random_stacks": "game",
    "Action": "actions", "parse_action": "actions",
    "parse_position": "game", "position_text": "notation",
    "IllegalAction": "errors", "NotationError": "errors", "ParseError": "errors",
    "get_edition": "editions", "Edition": "editions",
    "move_unit": "movement", "select_crazy": "movement", "ranking": "movement",
    "XorShift32": "rng",
    "parse_transcript": "transcript", "Transcript": "transcript", "replay": "transcript",
    "transcript_of": "transcript", "random_game": "randomplay", "random_action": "randomplay",
    "parse_scenarios": "scenario", "run_scenarios": "scenario",
}


def _lazy(name):
    mod = _EXPORTS.get(name)
    if mod is None:
        if name[:1] == "_":
            raise AttributeError(name)
        # MicroPython asks the module's __getattr__ before it looks for a submodule, so
        # `from camelup import protocol` must be answered here with the submodule itself.
        try:
            return __import__("camelup." + name, None, None, [name])
        except ImportError:
            raise AttributeError(name) from None
    m = __import__("camelup." + mod, None, None, [name])
    return getattr(m, name)

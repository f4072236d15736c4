"""Transcripts: a whole race as text (setup, then every action, dice included).

Format (docs/notation.md)::

    # camelup transcript 1
    setup second players=4 seed=17          or: position <one-line position>
    p0 leg red
    p1 pyramid grey black 2
    p2 tile 7 -
    ...

Blank lines and ``#`` comments are ignored. The seat prefix (``p0``) is optional on
input; when present it must name the seat whose turn it is. Replaying a transcript is
deterministic: the same text always gives the same final position and scores.
"""

from camelup.actions import parse_action
from camelup.editions import get_edition
from camelup.errors import IllegalAction, NotationError
from camelup.game import parse_position

HEADER = "# camelup transcript 1"


def _setup_game(line, where):
    from camelup.game import Game

    words = line.split()
    if words[0] == "position":
        return parse_position(line[len("position"):].strip())
    if words[0] != "setup" or len(words) < 2:
        raise NotationError("%s: a transcript starts with 'setup EDITION players=N seed=S' "
                            "or 'position ...', got %r" % (where, line))
    ed = get_edition(words[1])
    opts = {}
    for w in words[2:]:
        if "=" not in w:
            raise NotationError("%s: setup option %r must be key=value" % (where, w))
        k, v = w.split("=", 1)
        opts[k] = v
    for k in opts:
        if k not in ("players", "seed", "start"):
            raise NotationError("%s: unknown setup option %r" % (where, k))
    try:
        players = int(opts["players"])
        seed = int(opts.get("seed", "1"))
        start = int(opts.get("start", "p0").lstrip("p"))
    except (KeyError, ValueError):
        raise NotationError("%s: setup needs players=N (and seed=S, start=pN numbers): %r"
                            % (where, line)) from None
    return Game.random(ed, players, seed, start=start)


class Transcript:
    """A parsed transcript: ``setup`` (the setup line), ``start`` (the starting ``Game``)
    and ``actions`` (list of ``(line_number, Action)``)."""

    def __init__(self, setup, start, actions):
        self.setup = setup
        self.start = start
        self.actions = actions

    def play(self):
        """Replay every action on a copy of the start. Returns the final ``Game``.

        Raises ``IllegalAction`` / ``NotationError`` with the line number when an action
        is refused or a seat prefix does not match the turn.
        """
        game = self.start.copy(history=False)
        for no, seat, action in self.actions:
            if seat is not None and seat != game.turn:
                raise NotationError("line %d: %s is marked p%d but it is p%d's turn"
                                    % (no, action, seat, game.turn))
            try:
                game.push(action)
            except IllegalAction as exc:
                raise IllegalAction("line %d: %s" % (no, exc), action) from None
        return game

    def text(self):
        """Canonical text: header, setup line, then ``pN action`` lines."""
        game = self.start.copy(history=False)
        lines = [HEADER, self.setup]
        for _, _, action in self.actions:
            lines.append("p%d %s" % (game.turn, action))
            game.push(action)
        return "\n".join(lines) + "\n"


def parse_transcript(text):
    """Read transcript text. Returns a ``Transcript``; raises ``NotationError`` naming
    the line for a bad setup line or an unreadable action (legality is checked by
    ``Transcript.play``)."""
    setup = None
    start = None
    actions = []
    lines = text.split("\n")
    for i in range(len(lines)):
        no = i + 1
        line = lines[i].strip()
        if not line or line.startswith("#"):
            continue
        if setup is None:
            start = _setup_game(line, "line %d" % no)
            setup = line
            continue
        seat = None
        words = line.split(None, 1)
        if len(words) == 2 and words[0][:1] == "p" and words[0][1:].isdigit():
            seat = int(words[0][1:])
            line = words[1]
        try:
            actions.append((no, seat, parse_action(line)))
        except NotationError as exc:
            raise NotationError("line %d: %s" % (no, exc)) from None
    if setup is None:
        raise NotationError("empty transcript: no setup line")
    return Transcript(setup, start, actions)


def transcript_of(game):
    """The transcript of everything pushed on ``game`` since its construction (the
    starting position is written as a ``position`` line). Returns text."""
    start = game.copy()
    while start.history:
        start.pop()
    start = start.copy(history=False)
    actions = [(0, None, a) for a in game.history]
    return Transcript("position " + start.position(), start, actions).text()


def replay(text):
    """Parse and play a transcript; returns the final ``Game``."""
    return parse_transcript(text).play()

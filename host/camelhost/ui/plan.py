"""The full screen's plan: what to show and how tall each part is, worked out from the
published view (``camelhost.table.view.table_view``), what the screen shows beside it
(the banner of the last notices, the error line, the panel on the left) and the
terminal's size. Plain data in, a ``Plan`` out: no Textual here, so the arithmetic is
tested without a running app (``tests/test_tui_plan.py``); ``camelhost.ui.tui`` puts
the plan on its widgets.

The rules of the plan (RULES 5: everything the table needs in view, at 80x24 too):
below ``MIN_SIZE`` the screen says so (``too_small_text``) instead of leaving things
out, the newest announcement under it as far as it fits, a line saying how many of its
lines are left out (``too_small_news``); else the banner, the public counts, the error line, the prompt and the command
line take what they need; every player's row and the odds panel come whole next (the
leg-scoring panel as many rows as the players'; the race-over panel all it needs, the
track making way for it, and a line under it saying when it is longer than its room);
the track draws tall stacks in its compact form (two, three or four camels a row) so
that the history keeps at least ``LOG_MIN`` lines. When that is not enough, the
players table takes its compact form, then the last die's detail line goes (the
history has the die), then the big digits, then the leaders line, then the counts'
note on whose pyramid ticket waits (the prompt line says it), then (while the error
line shows) the banner's own lines, and only then do the panels get fewer rows than they need (they
scroll; the leg-scoring and race-over panels say so on a line under them): the history
keeps its ``LOG_MIN`` lines. The odds panel's narrow advice gets its note line (what
its numbers are) only when the history can spare the row.
"""

from rich.text import Text

from camelhost.i18n import _, ngettext
from camelhost.ui.odds_view import wrap_columns
from camelhost.ui.panels import race_over_text, track_columns, track_rows

#: The start of a row that is the rest of something whose start is out of view (the
#: history's top row when an entry's start scrolled above it), or of the line saying
#: the rest is out of view (under the notice of a too small terminal): never a tail
#: read as if it were whole.
CUT_MARK = "… "
#: Fewest history lines the screen keeps when it shares out its height.
LOG_MIN = 3
#: The smallest terminal the full screen is laid out for (columns, rows): below it
#: the screen says so (``too_small_text``) instead of leaving things out.
MIN_SIZE = (80, 24)
#: Columns the big digits of the last die take beside the banner (``Digits`` of two
#: characters and its padding).
DIGITS_COLUMNS = 10
#: Rows the big digits take (the banner is at least as tall while they show).
DIGITS_ROWS = 3
#: Rows of the prompt and the command line (docked at the bottom).
BOTTOM_ROWS = 2
#: Most rows the error line wraps to.
ERROR_ROWS = 3
#: The left panels: the odds, the last leg's scoring, the race over.
PANELS = ("odds", "leg", "over")


def text_rows(text, width):
    """Screen rows ``text`` (a ``str``) takes, wrapped at words to ``width`` terminal
    columns (``0``: not wrapped, one row a line). Measured in columns as the screen draws
    them (``odds_view.wrap_columns``, Rich's ``cell_len``: a wide character such as 山
    or an emoji takes 2, a combining mark none; ``session.name_columns``), never in
    characters: ten such characters are two rows at ten columns."""
    lines = text.split("\n")
    if width <= 0:
        return len(lines)
    return sum(max(1, len(wrap_columns(line, width))) for line in lines)


def too_small(width, height):
    """True when a ``width`` x ``height`` terminal (columns, rows) is below ``MIN_SIZE``."""
    return width < MIN_SIZE[0] or height < MIN_SIZE[1]


def too_small_text(width, height):
    """The notice a terminal smaller than ``MIN_SIZE`` gets: the size needed and the
    size it has, and what to do (a bold Rich ``Text``)."""
    return Text(_("This terminal is %(have)s; the full screen needs at least %(need)s.\n"
                  "Make the window bigger (the race goes on: the command line below "
                  "still works), or quit (Ctrl-Q) and resume the race with --plain.")
                % {"have": "%dx%d" % (width, height), "need": "%dx%d" % MIN_SIZE}, "bold")


def news_cut_line(left):
    """The last line under the notice of a too small terminal when ``left`` (an
    ``int``, at least 1) of the newest announcement's lines did not fit there: it
    starts with ``CUT_MARK`` as the history's rest of an entry does, and says how many
    lines are left out and where they show (``str``)."""
    return CUT_MARK + ngettext("%d more line: a bigger window shows it in the history",
                               "%d more lines: a bigger window shows them in the history",
                               left) % left


def help_cut_line(left):
    """``news_cut_line`` for the help typed below ``MIN_SIZE``: the help is no history
    line, its box (``F1``) shows it whole (``str``)."""
    return CUT_MARK + ngettext("%d more line: F1 shows the whole help",
                               "%d more lines: F1 shows the whole help", left) % left


def too_small_news(lines, width, rows, cut_line=news_cut_line):
    """The newest announcement's lines (``lines``, ``str`` each, in the history's words)
    the notice of a too small terminal shows under it in ``rows`` screen rows wrapped to
    ``width`` columns (``text_rows``), a blank row before them: a ``list`` of ``str``.
    All of them when they fit; else the first of them, whole, that fit with
    ``cut_line(left)`` after them (``news_cut_line``; the help's lines,
    ``help_cut_line``), which says how many more there are and where they show (nothing
    is cut without a word: s43); empty when not even that line fits. The race goes on
    under the notice (a die, a leg's scoring, the race's end): what the table said shows
    there as a refusal does on the error line."""
    heights = [text_rows(line, width) for line in lines]
    if 1 + sum(heights) <= rows:
        return list(lines)
    for keep in range(len(lines) - 1, -1, -1):
        cut = cut_line(len(lines) - keep)
        if 1 + sum(heights[:keep]) + text_rows(cut, width) <= rows:
            return list(lines[:keep]) + [cut]
    return []


def race_over(view):
    """True when ``view`` shows a finished race (its final result known)."""
    return view["final"] is not None and view["phase"] == "over"


def odds_width(view, width):
    """Columns of the panel on the left for a ``width``-column terminal: the odds in
    their narrow form (46) below 110 columns, else 64; the race-over panel three
    fifths of the width (at least 46)."""
    if view is not None and view["phase"] == "over" and view["final"] is not None:
        return max(46, width * 3 // 5)
    return 64 if width >= 110 else 46


def players_width(view, width):
    """Columns of the players' panel (the tickets column and the rest) beside the left
    panel and its one column of padding."""
    return width - odds_width(view, width) - 1


class Plan:
    """What the screen shows and how tall each part is (rows). Attributes:

    ``too_small`` (the notice replaces the race), ``detail`` (the last die's detail
    line shows), ``track`` (the track shows), ``track_rows`` (the camel rows the track
    is drawn in, for ``panels.track_text``; ``None`` when it does not show),
    ``track_used`` (rows it takes), ``middle`` (most rows of the panels' band),
    ``hint`` (the leg-scoring or race-over panel is longer than its room: the line
    under it shows), ``players_compact`` (the players table's compact form shows),
    ``odds_noted`` (the odds panel's narrow advice with its note line shows),
    ``odds_single`` (that advice's form with its second action left out shows, where
    the other has it on two rows of its own: ``plan``),
    ``panel_rows`` (most rows of that scrolling panel, ``None``: as tall as it
    needs), ``log`` (rows left for the history), ``odds_width`` and ``players_width``
    (columns), ``height`` (the terminal's rows), ``marker_in_hint`` (the history is
    scrolled back and a row of its own for its marker would make the panels scroll,
    hiding a player or the bots' line: the empty command line's hint says it instead),
    ``digits`` (the big digits show), ``leaders`` (the leaders line shows: both give
    way, the digits first, before the panels would scroll), ``banner`` (the banner's
    lines show: they give way last, only while the error line shows), ``info_brief``
    (the public counts without whose pyramid ticket waits: before the banner gives
    way)."""

    __slots__ = ("too_small", "detail", "track", "track_rows", "track_used", "middle",
                 "hint", "panel_rows", "log", "odds_width", "players_width",
                 "players_compact", "odds_noted", "height", "marker_in_hint", "digits",
                 "leaders", "banner", "info_brief", "odds_single")

    def __init__(self, **fields):
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    def __repr__(self):
        return "Plan(%s)" % ", ".join("%s=%r" % (n, getattr(self, n)) for n in self.__slots__)


#: What a plan shows or leaves out (``Plan``'s attributes) that a row more of the odds
#: panel must not change for that row to cost the history a line only (``plan``).
_GIVES_WAY = ("detail", "track", "track_used", "hint", "panel_rows", "players_compact",
              "odds_noted", "marker_in_hint", "digits", "leaders", "banner", "info_brief")


def plan(view, size, texts, log_need=LOG_MIN, **parts):
    """``_plan``'s plan of the screen (the same arguments), with one choice more: where
    ``texts`` has ``"odds_single"`` (``odds_view.odds_lines(split=False)``: the narrow
    advice with its second action left out, where the ``"odds"`` text has it on two
    rows of its own), the plan with the ``"odds"`` text when its row costs nothing but
    a history line the history can spare (everything else laid out as with the other
    form), else the plan with ``"odds_single"``, its ``odds_single`` true."""
    if "odds_single" not in texts:
        return _plan(view, size, texts, log_need=log_need, **parts)
    single = _plan(view, size, dict(texts, odds=texts["odds_single"]), log_need=log_need,
                   **parts)
    both = _plan(view, size, texts, log_need=log_need, **parts)
    same = all(getattr(both, name) == getattr(single, name) for name in _GIVES_WAY)
    if both.too_small or (same and both.log >= log_need):
        both.odds_single = False
        return both
    single.odds_single = True
    return single


def _plan(view, size, texts, panel="odds", banner=(), digits=False, error=None,
          detail=None, scrolled_back=False, leaders=None, log_need=LOG_MIN):
    """The plan of the screen for ``view`` (a ``table_view`` dict, or ``None`` before
    the first) on a terminal of ``size`` (columns, rows).

    ``texts``: the plain text (``str``) in each part, by name: ``"info"`` (the public
    counts; ``"info_brief"``: them without whose pyramid ticket waits, the prompt line
    saying it, a form taken before the banner gives way), ``"players"``, ``"odds"``, ``"legscore"``, ``"raceover"`` (a part missing
    takes no rows), and the forms the plan may choose instead: ``"players_compact"``
    (``panels.players_text(compact=True)``, for a screen too short for the whole
    table) and ``"odds_noted"`` (``odds_view.odds_lines(noted=True)``, taken when its
    line costs nothing else); ``panel``: the left panel in view (one of ``PANELS``); ``banner``:
    the lines shown at the top beside the big digits (the announcement, the leaders
    line: ``str`` each, the detail line apart); ``digits``: the big digits show;
    ``error``: the error line's text or ``None``; ``detail``: the last die's detail
    line or ``None``; ``scrolled_back``: the history is scrolled back (its marker
    takes a row of its own, unless that row would make the panels scroll: then
    ``marker_in_hint``); ``leaders``: the leaders line (race, leg, the first two
    camels) when it shows apart from ``banner``: with the big digits it gives way when
    the players and the odds would scroll otherwise (the digits first: the banner
    says the die in words; the leaders line then: the odds panel lists the camels by
    their chances, the window's title says the race and leg); and while the error
    line shows, the banner's lines last (the history has the die, and the refusal is
    what is read then: the next command clears it). ``log_need``: the history's rows
    wanted (more than ``LOG_MIN`` while the table asks a question there that must show
    whole, with its answers: the ``undo`` of a scoring, s35): the parts above give way
    for it as they do for ``LOG_MIN`` (the banner too, as while an error shows), but
    never so far that a panel scrolls; the most rows they can give when not that many.
    Raises ``ValueError`` for an unknown ``panel``."""
    if panel not in PANELS:
        raise ValueError(_("unknown panel %(panel)r (one of %(known)s)")
                         % {"panel": panel, "known": ", ".join(PANELS)})
    width, height = size
    result = Plan(too_small=too_small(width, height), detail=detail is not None,
                  track=False, track_rows=None, track_used=0, hint=False,
                  players_compact=False, odds_noted=False, height=height,
                  marker_in_hint=False, digits=digits, leaders=leaders is not None,
                  banner=True, info_brief=False, odds_single=False,
                  odds_width=odds_width(view, width), players_width=players_width(view, width))
    if result.too_small or view is None:
        return result
    heads = width - 1 - (DIGITS_COLUMNS if digits else 0)
    over = panel == "over"
    panel_w = result.odds_width - 2  # the leg and race-over panels keep a scrollbar's room

    def rows(name, at):
        text = texts.get(name)
        return 0 if text is None else text_rows(text, at)

    def top_rows(with_detail, big=digits, with_leaders=True, with_banner=True):
        lines = (list(banner) if with_banner else []) + ([leaders] if with_leaders and leaders is not None else []) \
            + ([detail] if with_detail and detail is not None else [])
        at = width - 1 - (DIGITS_COLUMNS if big else 0)
        top = sum(text_rows(line, at) for line in lines)
        return max(top, DIGITS_ROWS if big else 0)

    more = 1 if scrolled_back else 0
    error_rows = min(ERROR_ROWS, text_rows(error, width)) if error is not None else 0
    if over and result.detail:
        # the race-over panel before the last die's detail line (the banner says the
        # result; the history keeps the die): with no track, would it fit?
        room = height - top_rows(False) - rows("info", width) - BOTTOM_ROWS - more \
            - LOG_MIN - error_rows - text_rows(detail, heads)
        whole = rows("raceover", panel_w)
        final = text_rows(race_over_text(view, panel_w, last_leg=False).plain, panel_w)
        result.detail = final <= room - (1 if whole > room else 0)
    # the history's LOG_MIN lines first: when the rest leaves it fewer, the players
    # table takes its compact form, then the last die's detail line goes (the history
    # keeps the die), and only then do the panels get fewer rows than they need (each
    # scrolls, a line saying so under the leg-scoring and race-over panels)
    # then the big digits go (the banner says the die in words), then the leaders line
    # (tester s34-2: eight players at 80x24 with a refusal of two or three lines, or a
    # pyramid ticket waiting, scrolled the players panel, hiding players, tickets and
    # the partnerships)
    tries = [("players", result.detail, digits, True, True)]
    if over and rows("players_compact", 0) and rows("players_compact", 0) < rows("players", 0):
        # the race over: a bot's mark (or a ticket) on a line of its own under a row,
        # ``(bot)`` alone on a row (tester s34-2): the compact form, the bots on one line
        tries = [("players_compact", result.detail, digits, True, True)]
    if not over and "players_compact" in texts:
        tries.append(("players_compact", result.detail, digits, True, True))
    compact = "players_compact" if "players_compact" in texts else "players"
    if not over and result.detail:
        tries.append((compact, False, digits, True, True))
    kept = len(tries)  # what gives way before the history's marker goes to the hint
    if not over and digits:
        tries.append((compact, False, False, True, True))
    if not over and leaders is not None:
        tries.append((compact, False, False, False, True))
    if not over and "info_brief" in texts and rows("info_brief", width) < rows("info", width):
        tries.append((compact, False, False, False, True, "info_brief"))
    info_key = tries[-1][5] if len(tries[-1]) > 5 else "info"
    asked = log_need > LOG_MIN
    if not over and (error is not None or asked) and banner:
        tries.append((compact, False, False, False, False, info_key))
    tries = [t if len(t) > 5 else t + ("info",) for t in tries]

    def shared(more, tries):  # the first of ``tries`` leaving the history LOG_MIN, or capped
        if asked:  # the first leaving the question its rows, else the one leaving the most
            most = None
            for t in tries:
                players_key, with_detail, big, with_leaders, with_banner, info = t
                _share(result, view, width, top_rows(with_detail, big, with_leaders,
                                                     with_banner),
                       rows, panel, players_key, error_rows + more, panel_w, info_key=info,
                       log_min=log_need)
                if result.log >= log_need:
                    return t + (False,)
                if result.log >= LOG_MIN and (most is None or result.log > most[0]):
                    most = (result.log, t)
            if most is not None:
                players_key, with_detail, big, with_leaders, with_banner, info = most[1]
                _share(result, view, width, top_rows(with_detail, big, with_leaders,
                                                     with_banner),
                       rows, panel, players_key, error_rows + more, panel_w, info_key=info,
                       log_min=log_need)
                return most[1] + (False,)
        for players_key, with_detail, big, with_leaders, with_banner, info in tries:
            top = top_rows(with_detail, big, with_leaders, with_banner)
            _share(result, view, width, top, rows, panel, players_key, error_rows + more,
                   panel_w, info_key=info)
            if result.log >= LOG_MIN:
                return players_key, with_detail, big, with_leaders, with_banner, info, False
        _share(result, view, width, top, rows, panel, players_key, error_rows + more,
               panel_w, cap=True, info_key=info)
        return players_key, with_detail, big, with_leaders, with_banner, info, True

    # scrolled back, the marker's row gives way to the hint before the digits, the
    # leaders line and the banner do
    players_key, with_detail, big, with_leaders, with_banner, info, capped = shared(
        more, tries[:kept] if more else tries)
    if more and capped:  # the marker's row would make the panels scroll: the hint says it
        result.marker_in_hint = True
        more = 0
        players_key, with_detail, big, with_leaders, with_banner, info, capped = shared(more, tries)
    result.banner = with_banner
    result.info_brief = info == "info_brief"
    result.detail = with_detail
    result.digits = big
    result.leaders = leaders is not None and with_leaders
    result.players_compact = players_key == "players_compact"
    # a capped band (the panels scroll) has no row to spare: sharing out again for the
    # note line would undo the cap and take the history's lines (tester 3's finding 1)
    if panel == "odds" and "odds_noted" in texts and not capped and result.log >= log_need:
        # the narrow advice's note line when it costs nothing but a history line the
        # history can spare (the track, the detail line and the players table kept)
        track_used = result.track_used
        _share(result, view, width, top_rows(with_detail, big, with_leaders, with_banner), rows,
               panel, players_key, error_rows + more, panel_w, odds_key="odds_noted",
               info_key=info, log_min=log_need)
        result.odds_noted = result.log >= log_need and result.track_used == track_used
        if not result.odds_noted:
            _share(result, view, width, top_rows(with_detail, big, with_leaders, with_banner),
                   rows, panel, players_key, error_rows + more, panel_w, info_key=info,
                   log_min=log_need)
    return result


def _share(result, view, width, top, rows, panel, players_key, taken, panel_w, cap=False,
           odds_key="odds", info_key="info", log_min=LOG_MIN):
    """Share the rows under a banner of ``top`` rows out (``plan``): the track, the
    panels' band, the history; ``cap``: the band gets no more than leaves the history
    its ``LOG_MIN`` lines (its panels scroll); ``odds_key``: the odds panel's text
    (``"odds_noted"``: the narrow advice with its note line); ``log_min``: the history's
    rows kept before the track takes more than its compact rows (``plan``'s
    ``log_need``)."""
    height = result.height
    over = panel == "over"
    avail = height - top - rows(info_key, width) - BOTTOM_ROWS - taken - log_min
    players = rows(players_key, 0)
    whole_left = {"odds": rows(odds_key, 0), "leg": rows("legscore", panel_w),
                  "over": rows("raceover", panel_w)}[panel]
    left = whole_left
    # the track gives up rows for every player and the odds whole, for the leg-scoring
    # panel as many as the players', for the race-over panel all it needs: when even
    # the compact track leaves too few, the track goes (the panel says the final
    # order), and a panel still too long scrolls, a line saying so
    if panel == "leg":
        left = min(left, players)
    need = max(players, left)
    used = 0
    result.track, result.track_rows = False, None
    if view["leg"]:
        stacks = max([len(c) for _, c, _ in track_columns(view)] + [1])  # camel rows
        camel_rows = max(1, avail - need - (track_rows(view) - stacks))
        used = track_rows(view, rows=camel_rows, width=width)
        result.track = not (over and avail - used < need)
        if result.track:
            result.track_rows = camel_rows
        else:
            used = 0
    result.track_used = used
    # every player's row and the odds whole come before the history's LOG_MIN lines
    # (the history gives up rows when even the compact track is too tall); the
    # race-over panel scrolls instead, saying so
    result.middle = max(players if over else need, avail - used, 1)
    if cap:
        result.middle = max(avail - used, 1)
    result.hint = False
    result.panel_rows = None
    if panel in ("over", "leg"):
        result.hint = whole_left > result.middle
        result.panel_rows = result.middle - 1 if result.hint else None
    # the history has what the rest leaves (the panels' band as tall as its tallest
    # part, at most ``middle``)
    band = min(result.middle, max(players, whole_left + (1 if result.hint else 0)))
    result.log = avail + log_min - used - band

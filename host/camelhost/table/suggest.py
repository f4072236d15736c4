"""The one "did you mean" of the table: the choice nearest to a word that matched none.

Every suggestion the table makes goes through ``nearest``: a misspelt command (``leeg``:
``leg``), a die's colour (``yelow``: ``yellow``), a player's name (``Omer``: ``Ömer``,
``partner`` and ``--bots``). The comparison folds letter case and accents (``Ö`` reads
as ``O``, ``ß`` as ``ss``), so a name typed without its diacritic is still found; it is
only ever offered as a suggestion, never taken silently: what a command matches is
decided elsewhere, letter for letter (``camelhost.table.parser.seat_of``).
"""

import difflib
import unicodedata

#: How close a word must be to be suggested: ``difflib.SequenceMatcher.ratio`` of the
#: folded words, 0..1 (``leeg``/``leg`` 0.86, ``yelow``/``yellow`` 0.91).
CUTOFF = 0.6


def fold(word):
    """``word`` (a string) with its letter case and accents folded away, for comparing:
    ``"Ömer"`` -> ``"omer"``, ``"Grün"`` -> ``"grun"``, ``"Strauß"`` -> ``"strauss"``."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def ratio(word, choice):
    """How alike ``word`` and ``choice`` are once folded (``fold``): 0.0..1.0 (as
    ``difflib.get_close_matches`` measures it)."""
    return difflib.SequenceMatcher(None, fold(choice), fold(word)).ratio()


def nearest(word, choices, cutoff=CUTOFF):
    """The one of ``choices`` (strings, as they are to be shown) nearest to ``word``
    with case and accents folded (``fold``): a choice that folds to the same word first
    (``Omer``: ``Ömer``), else the closest at ``cutoff`` or more (difflib); ``None``
    when none is that near. Of two equally near choices the earlier one wins."""
    folded = fold(word)
    best, best_ratio = None, cutoff
    for choice in choices:
        if fold(choice) == folded:
            return choice
        r = ratio(word, choice)
        if r > best_ratio or best is None and r >= cutoff:
            best, best_ratio = choice, r
    return best

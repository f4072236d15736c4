"""The one "did you mean" of the ``pyramid`` program: the choice nearest to a word that
matched none.

Every suggestion goes through ``nearest``: at the table a misspelt command (``leeg``:
``leg``), a die's colour (``yelow``: ``yellow``), a player's name (``Omer``: ``Ömer``,
``partner`` and ``--bots``); on the command line a command's name (``pyramid plya``:
``play``, ``camelhost.cli``) and a dice source's word (``--pyramid virtua``: ``virtual``,
``camelhost.device.open``). A leaf of the host: it imports nothing of ``camelhost``, so
every package may ask it (the device package may not import the table's). The comparison folds letter case and accents (``Ö`` reads
as ``O``, ``ß`` as ``ss``), so a name typed without its diacritic is still found; it is
only ever offered as a suggestion, never taken silently: what a command matches is
decided elsewhere, letter for letter (``camelhost.table.parser.seat_of``). A choice is
offered only when it is a sensible reading of the word typed with slips (``near``: a few
letters left out, added, swapped or replaced; tester s35 finding 5: ``foo`` was offered
``boo``).
"""

import difflib
import unicodedata

#: A typed word this long or longer that starts a choice is near it, however many letters
#: are left to type (``pyr``: ``pyramid``); a shorter start is judged by ``edits`` alone.
PREFIX_MIN = 3


def fold(word):
    """``word`` (a string) with its letter case and accents folded away, for comparing:
    ``"Ömer"`` -> ``"omer"``, ``"Grün"`` -> ``"grun"``, ``"Strauß"`` -> ``"strauss"``."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def ratio(word, choice):
    """How alike ``word`` and ``choice`` are once folded (``fold``): 0.0..1.0 (as
    ``difflib.get_close_matches`` measures it); it only ranks choices already near
    (``near``)."""
    return difflib.SequenceMatcher(None, fold(choice), fold(word)).ratio()


def edits(word, choice):
    """The typing slips that make ``choice`` into ``word``, both folded (``fold``): an int
    >= 0. A letter left out or one too many costs 1, two neighbours swapped 1 (``lge``:
    ``leg``), a letter typed for another 2 (it is one left out and one too many: ``foo``
    is 2 from ``boo``, ``sow`` 1 from ``show``): the optimal string alignment distance
    with those costs."""
    a, b = fold(word), fold(choice)
    row0, row1 = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(row1[j] + 1, row[j - 1] + 1,
                         row1[j - 1] + (0 if a[i - 1] == b[j - 1] else 2))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], row0[j - 2] + 1)
        row0, row1 = row1, row
    return row1[len(b)]


#: Most ``edits`` of a word read as a command whose form the rest of its line has
#: (``near``'s ``formed``: ``lgo red``, ``leg`` with an ``e`` left out and an ``o`` added).
FORMED_EDITS = 2


def near(word, choice, formed=False):
    """Whether ``choice`` is a sensible reading of ``word`` typed with slips: the same word
    folded (``Omer``: ``Ömer``); its start of ``PREFIX_MIN`` letters or more (``pyr``:
    ``pyramid``); or at most half as many ``edits`` as the shorter of the two has letters,
    at least 1 (``uno``: ``undo``, ``drav``: ``draw``, ``grean``: ``green``; never ``foo``:
    ``boo``, a letter of three replaced, nor ``lo``: ``lose``). ``formed``: the rest of
    the line already has ``choice``'s form (a colour after ``leg``), which makes the
    reading likelier: a word of ``PREFIX_MIN`` letters or more with its first letter
    right is near within ``FORMED_EDITS`` (``lgo red``: ``leg red``, tester s38 finding
    6; ``foo red`` still near no command)."""
    a, b = fold(word), fold(choice)
    if a == b or len(a) >= PREFIX_MIN and b.startswith(a):
        return True
    slips = edits(a, b)
    if formed and len(a) >= PREFIX_MIN and a[:1] == b[:1] and slips <= FORMED_EDITS:
        return True
    return slips <= max(1, min(len(a), len(b)) // 2)


def nearest(word, choices, formed=False):
    """The one of ``choices`` (strings, as they are to be shown) nearest to ``word``
    with case and accents folded (``fold``): a choice that folds to the same word first
    (``Omer``: ``Ömer``), else of those ``near`` it (``formed``: as ``near`` reads it)
    the one with the fewest ``edits`` (then the most alike, ``ratio``; then the
    earlier); ``None`` when none is near."""
    folded = fold(word)
    best, best_key = None, None
    for choice in choices:
        if fold(choice) == folded:
            return choice
        if not near(word, choice, formed):
            continue
        key = (edits(word, choice), -ratio(word, choice))
        if best_key is None or key < best_key:
            best, best_key = choice, key
    return best

"""The docs write a margin as ``±``, as the screens do (``blue 38% ±1.2``): no table
row in docs/ spells it ``+/-``."""

import pathlib

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"


def test_no_docs_table_spells_plus_minus_with_a_slash():
    rows = [(path.name, n, line) for path in sorted(DOCS.glob("*.md"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if line.startswith("|") and "+/-" in line]
    assert rows == [], rows

"""Test oracles: plain, independent references the tests check the product against.

``odds_naive``: full enumeration of every order and face of a leg (no merging), the
yardstick of ``camelup.odds``. ``odds_expect``: leg-odds expectations worded as
``../shared/cases/odds-cases.md`` words them, read and checked on a position (the
strict scenario files are checked against the case file's own text with it).
"""

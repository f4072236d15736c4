"""The scoreboard page's words, in the table's language (issue 30).

The page (``static/board.js``, ``static/index.html``) is written in English; every
word it shows a player is listed in ``PAGE_WORDS`` and goes through the translation
catalogue (``camelhost.i18n``) on the server. The page arrives with them in a JSON
data block (``WORDS_BLOCK``, filled by ``page_with_words``): ``{"lang": "de",
"words": {english: translated}}``; a word with no translation stays English. A
sentence with a name or a number in it is one entry with ``{0}``, ``{1}`` where those
go, so a language may put them where its grammar wants them.
"""

import json
from html import escape as html_escape

from camelhost.i18n import EDITION_WORDS, N_, _, colour_words, language

#: The page's place for its words in ``index.html``, filled by ``page_with_words``.
WORDS_BLOCK = b'<script id="words" type="application/json">{}</script>'

PAGE_WORDS = (
    # index.html: headings, buttons, labels
    N_("Camel Up scoreboard"), N_("waiting for the table\u2026"), N_("speech off"),
    N_("speech on"), N_("say each die aloud"), N_("connecting"), N_("reconnecting"),
    N_("live"), N_("replay"), N_("In the pyramid"), N_("Leading"), N_("Players"), N_("Leg odds"),
    N_("1st / 2nd / last"), N_("Race odds"), N_("overall winner / loser"),
    N_("Leg tickets left"), N_("Finish piles"), N_("Best now"), N_("Leg scored"),
    N_("once the race starts: the best actions for the player on turn, in the coach's order"),
    N_("Finish piles revealed"), N_("Final ranking"), N_("the track"), N_("first"), N_("previous"),
    N_("space {0}, bottom to top: {1}"), N_("behind the start, bottom to top: {0}"),
    N_("past the finish, bottom to top: {0}"),
    N_("space {0}: {1}'s desert tile, {2} side"), N_("space {0}: {1}'s spectator tile, {2} side"),
    N_("play"), N_("pause"), N_("next"), N_("last"),
    # board.js: the header (the edition named as i18n.edition_word names it)
    N_("Camel Up \u00b7 {0} edition"), N_("race {0}: setting up"), N_("race {0} \u00b7 leg {1}"), N_("{0}'s turn"),
    N_("{0}: type the die that came out"), N_("{0}: release a die"),
    N_("{0}: grey die, black or white numerals?"), N_("{0}: which value did the die show?"),
    N_("race over"), N_("race ended unscored"), N_("step {0} of {1}"),
    N_("noisy line to the pyramid: {0} of its lines whole"),
    N_("the pyramid is not answering: the dice are typed at the table"),
    # the last die
    N_("race over: {0} wins"), N_("{0} is last"), N_("setting up the camels"),
    N_("no die yet this race"),
    # TRANSLATORS: the web page's last die: {0} is the camel it moved, a colour name
    # ("red"); {1} which way and how far, as every screen says it ("forward 3", German
    # "3 Felder vorwärts": camelhost.table.view.which_way). A language may put them in
    # the other order or add words.
    N_("{0} {1}"),
    N_("{0}'s pyramid ticket"), N_("{0}'s {1}"), N_("{0}'s tile"),
    N_("{0} leg ticket {1}"), N_("1 pyramid ticket"), N_("{0} pyramid tickets"), N_("die {0}"),
    N_("carrying {0}"), N_("{0} moves: {1}"), N_("{0} die"),
    # panels
    N_("1 die inside"), N_("{0} dice inside"), N_(" (one stays in)"), N_("none inside"),
    N_("1st"), N_("2nd"), N_("coin"), N_("coins"), N_("{0} on {1}"), N_("partner {0}"),
    N_("1 finish card played"), N_("{0} finish cards played"), N_("none now"),
    N_("Best for"), N_("computing\u2026"),
    N_("No advice while a die is being read: it comes with the next turn"), N_("none"), N_("1 pyramid ticket left"),
    N_("{0} pyramid tickets left"), N_("overall winner"), N_("overall loser"),
    N_("1 card"), N_("{0} cards"), N_("face down"), N_("1 finish card face down"),
    N_("{0} finish cards face down"), N_("Leg {0} scored: 1st {1}, 2nd {2}"), N_("from {0}"),
    N_("nothing"), N_("1 coin forgiven"), N_("{0} coins forgiven"),
    N_("nobody goes below 0 (RULES 1.9)"), N_("leg {0} scored: {1}"),
    N_("overall winner pile, in play order"), N_("overall loser pile, in play order"),
    N_("empty"),
) + EDITION_WORDS


def page_words():
    """``{"lang": code, "words": {english: translated}, "colours": {colour: [word,
    label]}}`` for the language in force: the words only where their translation differs
    from the English; every camel's and die's colour with its word
    (``camelhost.i18n.colour_words``) and its three-letter label
    (``camelhost.ui.palette.label``), as the terminal names and draws them."""
    from camelhost.ui import palette

    words = {}
    for word in PAGE_WORDS:
        shown = _(word)
        if shown != word:
            words[word] = shown
    colours = {c: [w, palette.label(c, w)] for c, w in sorted(colour_words().items())}
    return {"lang": language(), "words": words, "colours": colours}


#: The page's language and title as ``index.html`` has them (English), which
#: ``page_with_words`` writes in the table's language, so the page is labelled in its
#: language before its script runs (a screen reader, a browser's translate offer).
HTML_LANG = b'<html lang="en">'
TITLE = b"<title data-t>Camel Up scoreboard</title>"


def page_with_words(html):
    """``html`` (the page's bytes) with ``WORDS_BLOCK`` holding ``page_words()`` (``<``,
    ``>``, ``&`` as JSON escapes, so no word can end the block), and ``HTML_LANG`` and
    ``TITLE`` in the table's language (the title HTML-escaped). Each part is left as it
    is when the page does not have it."""
    words = page_words()
    data = json.dumps(words, sort_keys=True, ensure_ascii=False).encode("utf-8")
    safe = data.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")
    html = html.replace(WORDS_BLOCK, WORDS_BLOCK.replace(b"{}", safe), 1)
    lang = html_escape(words["lang"], quote=True).encode("utf-8")
    html = html.replace(HTML_LANG, b'<html lang="%s">' % lang, 1)
    title = html_escape(_("Camel Up scoreboard")).encode("utf-8")
    return html.replace(TITLE, b"<title data-t>%s</title>" % title, 1)

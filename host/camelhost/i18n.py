"""The translation catalogue: every word a player reads goes through here.

``_("text")`` translates a message into the table's language; ``ngettext(one, many, n)``
picks the plural form; ``pgettext(context, "text")`` tells apart one English word with two
meanings; ``N_("text")`` marks a module-level constant for extraction and
returns it unchanged (translate it with ``_()`` where it is shown, so a language chosen
after import still applies).

The catalogues are GNU gettext catalogues (domain ``pyramid``) under
``camelhost/locale/<lang>/LC_MESSAGES/``; English is the source language and needs none.
A message with no translation yet is shown in English.

``set_language(lang)`` chooses the language for the whole process: ``"en"``, ``"de"``, or
``None`` for the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext
reads them).
"""

import gettext as _gettext
import os

DOMAIN = "pyramid"
#: where the compiled catalogues are (``<lang>/LC_MESSAGES/pyramid.mo``)
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")

_translation = _gettext.NullTranslations()
_language = "en"


def set_language(lang=None):
    """Choose the table's language; returns the language code in force (``"en"`` when no
    catalogue matches). ``lang``: a code such as ``"de"``, or None for the locale."""
    global _translation, _language
    languages = [lang] if lang else None
    _translation = _gettext.translation(
        DOMAIN, LOCALE_DIR, languages=languages, fallback=True
    )
    info = _translation.info() if hasattr(_translation, "info") else {}
    _language = (info.get("language") or "en").split("_")[0] if info else "en"
    return _language


def languages():
    """The language codes the table speaks: ``"en"`` (the source) and every language
    with a compiled catalogue, sorted."""
    found = ["en"]
    if os.path.isdir(LOCALE_DIR):
        for code in sorted(os.listdir(LOCALE_DIR)):
            if os.path.exists(os.path.join(LOCALE_DIR, code, "LC_MESSAGES", DOMAIN + ".mo")):
                found.append(code)
    return found


def language():
    """The language code in force (``"en"`` until ``set_language`` finds a catalogue)."""
    return _language


def _(message):
    """``message`` in the table's language (English when it has no translation)."""
    return _translation.gettext(message)


def ngettext(singular, plural, n):
    """The plural form of a message for the count ``n``, in the table's language."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context, message):
    """``message`` in the table's language where the same English word means two things
    (``context`` tells them apart, e.g. ``"odds column"`` for a camel's last place)."""
    return _translation.pgettext(context, message)


def N_(message):
    """Mark ``message`` for the catalogue without translating it now."""
    return message


def npgettext(context, singular, plural, n):
    """The plural form of a message for the count ``n`` where the same English words
    mean two things (``context`` tells them apart), in the table's language."""
    return _translation.npgettext(context, singular, plural, n)

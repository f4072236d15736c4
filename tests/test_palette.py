"""The table's colours (camelhost.ui.palette) tell every piece apart, for everyone.

Perceptual distance is CIEDE2000 (CIE 142-2001), written out below from Sharma, Wu
and Dalal, "The CIEDE2000 color-difference formula: implementation notes,
supplementary test data, and mathematical observations" (2005), and checked against
pairs of their published test data. sRGB -> CIELAB uses the D65 white point.

Thresholds (stated in the palette module): any two pieces drawn together in one
edition at least ``MIN_DELTA_E`` = 20 apart (about 2 is just noticeable); each piece
at least ``MIN_DELTA_E_BACKGROUND`` = 15 from the screen background, dark and light;
each label at least ``MIN_LABEL_CONTRAST`` = 4.5:1 (WCAG 2 AA) on its fill; the
screen text at least 7:1 (AAA) on each background.
"""

import itertools
import math

import pytest
from camelhost.ui import palette
from camelup.editions import EDITIONS


def _linear(channel):
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _rgb(hexrgb):
    h = hexrgb.lstrip("#")
    return [int(h[i:i + 2], 16) for i in (0, 2, 4)]


def lab(hexrgb):
    """CIELAB (D65) of an sRGB ``#rrggbb``."""
    r, g, b = (_linear(c) for c in _rgb(hexrgb))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1, lab2):
    """CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh) / 2)
    l_bar = (l1 + l2) / 2
    cp_bar = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_bar = (h1p + h2p + 360) / 2
    else:
        h_bar = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6))
         - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-((h_bar - 275) / 25) ** 2)
    r_c = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_h / s_h) ** 2
                     + r_t * (dc / s_c) * (d_h / s_h))


def delta_e(rgb1, rgb2):
    return ciede2000(lab(rgb1), lab(rgb2))


def contrast(rgb1, rgb2):
    """WCAG 2 contrast ratio (1..21) of two sRGB colours."""
    def luminance(h):
        r, g, b = (_linear(c) for c in _rgb(h))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    hi, lo = sorted((luminance(rgb1), luminance(rgb2)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# Sharma, Wu, Dalal (2005), table 1: pairs 1, 7, 13, 17, 19, 25 and 34.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((6.7747, -0.2908, -2.4247), (5.8714, -0.0985, -2.2286), 0.6377),
]


@pytest.mark.parametrize("first,second,expected", SHARMA)
def test_ciede2000_matches_the_published_test_data(first, second, expected):
    assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(second, first) == pytest.approx(expected, abs=1e-4)


def test_every_colour_of_every_edition_has_a_piece_and_a_label():
    for ed in EDITIONS.values():
        for name in palette.on_screen(ed):
            p = palette.piece(name)
            assert p.rgb.startswith("#") and len(p.rgb) == 7
            assert p.label and p.letter
        # labels for colour-blind players: unique within what one edition draws
        labels = [palette.piece(c).label for c in ed.camels + ed.dice]
        assert len(set(labels)) == len(set(ed.camels + ed.dice))
        letters = [palette.piece(c).letter for c in ed.racing]
        assert len(set(letters)) == len(letters), ed.name


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_pieces_of_one_edition_are_pairwise_distinct(edition):
    names = palette.on_screen(edition)
    worst = min((delta_e(palette.piece(a).rgb, palette.piece(b).rgb), a, b)
                for a, b in itertools.combinations(names, 2))
    assert worst[0] >= palette.MIN_DELTA_E, worst


def test_the_pairs_players_mixed_up_are_far_apart_and_blue_is_not_violet():
    pairs = [("red", "purple"), ("yellow", "orange"), ("blue", "purple")]
    for a, b in pairs:
        assert delta_e(palette.piece(a).rgb, palette.piece(b).rgb) >= palette.MIN_DELTA_E
    # CIELAB hue angle: the sRGB primary blue already sits at 306 degrees (towards
    # violet); the camel's blue must be clearly on the cyan side of it, the purple
    # on the other.
    def hue(name):
        _, a, b = lab(palette.piece(name).rgb)
        return math.degrees(math.atan2(b, a)) % 360
    assert 255 <= hue("blue") <= 295
    assert hue("purple") >= 306


@pytest.mark.parametrize("theme", sorted(palette.BACKGROUNDS))
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_piece_stands_out_on_the_dark_and_the_light_screen(theme, edition):
    background = palette.BACKGROUNDS[theme]
    for name in palette.on_screen(edition):
        p = palette.piece(name)
        assert delta_e(p.rgb, background) >= palette.MIN_DELTA_E_BACKGROUND, (name, theme)
        assert contrast(p.ink, p.rgb) >= palette.MIN_LABEL_CONTRAST, name
    assert contrast(palette.FOREGROUNDS[theme], background) >= 7.0


def test_style_draws_the_label_in_its_ink_on_its_fill():
    assert palette.style("blue") == "bold %s on %s" % (palette.piece("blue").ink,
                                                        palette.piece("blue").rgb)
    assert palette.style("nothing") == "bold"

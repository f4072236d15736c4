"""Is this file a MicroPython UF2 an RP2040 boots? Checked before the emulator starts.

A UF2 file (Microsoft's USB Flashing Format, github.com/microsoft/uf2, README
"File format") is a run of 512-byte blocks. Each block starts with the two magic
numbers ``0x0A324655`` ("UF2\\n") and ``0x9E5D5157`` and ends with ``0x0AB16F30``
(little-endian 32-bit words at offsets 0, 4 and 508); its flags word (offset 8)
with bit ``0x00002000`` set says the word at offset 28 is the family id, which is
``0xE48BFF56`` for the RP2040 (the family list of that repository,
``uf2families.json``; MicroPython's ``RPI_PICO`` image carries it in every block).
"""

import os
import struct

from camelhost.i18n import _

BLOCK = 512
MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_FAMILY = 0x00002000
RP2040_FAMILY = 0xE48BFF56


class UF2Error(ValueError):
    """The file is missing, not a UF2, or not for the RP2040; the message is one line."""


def check(path):
    """Raise ``UF2Error`` (one line naming ``path`` and what is wrong) unless ``path`` is a
    UF2 whose blocks are all RP2040 blocks: missing file, a size that is not whole
    512-byte blocks or a block without the UF2 magic numbers ("not a UF2 image"), a
    block of another family or one without a family id ("not an RP2040 UF2").
    Returns the number of blocks."""
    if not os.path.isfile(path):
        raise UF2Error(_("no such UF2 file: %s") % path)
    with open(path, "rb") as f:
        data = f.read()
    if not data or len(data) % BLOCK:
        raise UF2Error(_("%(path)s is not a UF2 image (%(bytes)d bytes, not whole 512-byte "
                         "UF2 blocks): give the RPI_PICO UF2 from micropython.org")
                       % {"path": path, "bytes": len(data)})
    for at in range(0, len(data), BLOCK):
        start0, start1, flags = struct.unpack_from("<III", data, at)
        family = struct.unpack_from("<I", data, at + 28)[0]
        end = struct.unpack_from("<I", data, at + BLOCK - 4)[0]
        if (start0, start1, end) != (MAGIC_START0, MAGIC_START1, MAGIC_END):
            raise UF2Error(_("%(path)s is not a UF2 image (block %(block)d lacks the UF2 magic "
                             "numbers): give the RPI_PICO UF2 from micropython.org")
                           % {"path": path, "block": at // BLOCK})
        if not flags & FLAG_FAMILY or family != RP2040_FAMILY:
            shown = "0x%08X" % family if flags & FLAG_FAMILY else _("none")
            raise UF2Error(_("%(path)s is not an RP2040 UF2 (block %(block)d: family id "
                             "%(family)s, the RP2040's is 0xE48BFF56): give the RPI_PICO UF2 "
                             "from micropython.org, not a Pico 2's or another board's")
                           % {"path": path, "block": at // BLOCK, "family": shown})
    return len(data) // BLOCK

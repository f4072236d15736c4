"""pyramid: MicroPython firmware of the smart Camel Up dice pyramid (RP2040)."""

VERSION = "0.1.0"

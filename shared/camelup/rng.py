"""A tiny deterministic PRNG (xorshift32) giving identical draws on CPython and MicroPython.

The two runtimes' ``random`` modules differ, so every seeded choice the engine makes
(random setup for the virtual pyramid, bots in tests) goes through this generator.
Not for cryptography.
"""

_MASK = 0xFFFFFFFF


class XorShift32:
    """Marsaglia's xorshift32 generator.

    ``seed``: any int; it is folded to 32 bits and a zero state is replaced by a
    fixed non-zero constant (xorshift cannot leave the zero state).
    """

    def __init__(self, seed=1):
        state = int(seed) & _MASK
        # Spread small seeds (0, 1, 2, ...) so their first draws differ a lot.
        state ^= 0x9E3779B9
        if state == 0:
            state = 0x6D2B79F5
        self.state = state
        for _ in range(4):
            self.next32()

    def next32(self):
        """Return the next 32-bit unsigned integer (0 .. 2**32-1)."""
        x = self.state
        x ^= (x << 13) & _MASK
        x ^= x >> 17
        x ^= (x << 5) & _MASK
        self.state = x & _MASK
        return self.state

    def below(self, n):
        """Return an integer uniform in ``0 .. n-1`` (rejection sampling, no modulo bias).

        Raises ``ValueError`` when ``n < 1``.
        """
        if n < 1:
            raise ValueError("below(n) needs n >= 1, got %r" % (n,))
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            x = self.next32()
            if x < limit:
                return x % n

    def choice(self, seq):
        """Return one element of the non-empty sequence ``seq``, uniformly."""
        return seq[self.below(len(seq))]

    def shuffle(self, items):
        """Shuffle the list ``items`` in place (Fisher-Yates); returns ``None``."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1

"""Reading a journal's ``FILE.damaged`` in tests: the batches a resume set aside, each
after its header line (when, which lines, how many bytes follow)."""

import re

HEADER = re.compile(rb"# \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: lines (\d+)-(\d+) of (\S+) (?:set "
                    rb"aside on its resume|on its resume: [^;\n]*); the (\d+) bytes after this "
                    rb"line are those lines as they were\n")


def batches(side):
    """``[(first, last, bytes), ...]`` of ``side`` (a ``FILE.damaged``'s bytes): each
    batch's journal lines and its bytes, exactly, taken by the size its header names.
    Anything else in ``side`` fails the assertion."""
    out = []
    while side:
        if out and not out[-1][2].endswith(b"\n"):
            assert side.startswith(b"\n"), side[:80]  # after a torn tail: its own line
            side = side[1:]
        head = HEADER.match(side)
        assert head is not None, side[:160]
        size = int(head.group(4))
        body = side[head.end():head.end() + size]
        assert len(body) == size
        out.append((int(head.group(1)), int(head.group(2)), body))
        side = side[head.end() + size:]
    return out


def kept(path):
    """Every byte the resumes set aside in ``path`` (a ``FILE.damaged``), in order,
    without the headers."""
    with open(str(path), "rb") as fh:
        return b"".join(body for _, _, body in batches(fh.read()))

"""One script, both runtimes: what the odds code prints on MicroPython must be what it
prints on CPython."""


def same_on_both(micropython, capsys, script, name, timeout=120, heapsize=None):
    """Run ``script`` on the MicroPython unix port (the ``micropython`` fixture) and in
    this CPython process (its stdout read with ``capsys``); asserts MicroPython ran
    cleanly and printed exactly what CPython printed. Returns that output (str)."""
    got = micropython(script, timeout=timeout, heapsize=heapsize)
    assert got.returncode == 0, got.stderr
    exec(compile(script, name, "exec"), {})
    expected = capsys.readouterr().out
    assert got.stdout == expected
    return got.stdout

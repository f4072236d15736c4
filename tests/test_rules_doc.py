"""docs/rules.md is the rules reference the product ships: every ``RULES n.m`` (and
``RULES 3.5 (c)``) cited anywhere in the code, tests and docs names a section of it."""

import os
import re

from camelhost import cli, paths, rulesdoc

ROOT = paths.REPO_ROOT
RULES_DOC = os.path.join(ROOT, "docs", "rules.md")
TREES = ("shared", "host", "firmware", "hardware", "tests", "docs")
CITE = re.compile(r"RULES (\d+(?:\.\d+)?)(?: ?\(([a-z])\))?")


def sections():
    """Section names of docs/rules.md: ``1``, ``1.5``, ``3.5 (a)``, as ``pyramid rules``
    reads them (``camelhost.rulesdoc``, the one parser of the file)."""
    with open(RULES_DOC, encoding="utf-8") as f:
        return {name for name, _text in rulesdoc.sections(f.read())}


def citations():
    """``{section: [file, ...]}`` of every citation outside docs/rules.md."""
    out = {}
    files = [os.path.join(ROOT, "README.md")]
    for tree in TREES:
        for folder, dirs, names in os.walk(os.path.join(ROOT, tree)):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
            files += [os.path.join(folder, n) for n in names if n.endswith((".py", ".md", ".scn", ".txt"))]
    for path in files:
        if os.path.abspath(path) == os.path.abspath(RULES_DOC):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for m in CITE.finditer(text):
            name = m.group(1) + (" (%s)" % m.group(2) if m.group(2) else "")
            out.setdefault(name, []).append(os.path.relpath(path, ROOT))
    return out


def test_every_cited_rules_section_exists_in_docs_rules_md():
    have = sections()
    cited = citations()
    assert len(cited) > 30  # the code does cite the rules
    missing = {name: sorted(set(files))[:3] for name, files in cited.items() if name not in have}
    assert not missing, "cited but not in docs/rules.md: %r" % missing


def test_the_reference_has_every_numbered_section():
    have = sections()
    expected = {"1", "2", "3", "4", "5"}
    expected |= {"1.%d" % n for n in range(1, 14)}
    expected |= {"2.%d" % n for n in range(1, 6)}
    expected |= {"3.%d" % n for n in range(1, 9)}
    expected |= {"3.5 (a)", "3.5 (b)", "3.5 (c)"}
    assert expected <= have, sorted(expected - have)


def test_no_doc_sends_the_reader_to_a_file_users_do_not_have():
    for folder in ("docs",):
        for name in os.listdir(os.path.join(ROOT, folder)):
            with open(os.path.join(ROOT, folder, name), encoding="utf-8") as f:
                assert "../shared/RULES.md" not in f.read(), name
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        assert "../shared/RULES.md" not in f.read()


def test_the_checkout_and_the_package_read_the_same_reference():
    assert os.path.samefile(paths.RULES_DOC, RULES_DOC)  # editable install: the checkout's


def test_pyramid_rules_prints_every_cited_section(capsys):
    """Every `RULES n.m` an error message or doc cites can be looked up with
    `pyramid rules n.m`, and what it prints opens with that section's number."""
    for name in sorted(citations()):
        assert cli.main(["rules", name]) == 0, name
        out = capsys.readouterr().out
        number, _, item = name.partition(" ")
        if item:  # under its section's number and heading (tester 2, finding 13)
            # into a pipe the heading is plain text (bold only on a terminal)
            assert out.startswith("%s " % number) and "**" not in out.split("\n")[0], \
                (name, out[:80])
            assert (" %s\n\n- %s " % (item, item)) in out, (name, out[:80])
        elif "." in number:  # piped: plain text, no '**' (tester 4 finding 14)
            assert out.startswith("%s " % number) and "**" not in out, (name, out[:80])
        else:
            assert out.startswith("%s. " % number) and "##" not in out, (name, out[:80])

"""``pyramid check FILE|FOLDER...``: run scenario files (the strict language of
docs/notation.md section 4, read by ``camelup.scenario``) against the rules engine and
their leg-odds expectations against the exact odds. A folder is searched recursively.

Exit status 0 when every case passes, 1 when any case fails (each mismatch shown
with its file, case id and line, want/got), 2 for a file that cannot be read or parsed
(the error names the file and line). Every message is in the table's language
(``--lang``): the scenario checker's are ``camelup.errors.Message`` values, translated
here (``camelhost.table.narration.translated``).
"""

import os

from camelup.errors import NotationError
from camelup.scenario import run_scenarios

from camelhost.commands.options import metavar
from camelhost.errors import CliError
from camelhost.i18n import N_, _, pgettext
from camelhost.table.narration import translated
from camelhost.textfile import without_bom

HELP = (N_("Run scenario files (position, actions, expected outcome, leg odds) against the "
           "rules engine; folders are searched recursively."))


def add_arguments(parser):
    parser.add_argument("files", nargs="+", metavar=metavar("FILE"),
                        help=_("scenario files (.scn) or folders holding them (searched "
                               "recursively)"))
    parser.add_argument("-q", "--quiet", action="store_true",
                        help=_("print only failures and the summary"))


def _walk(folder):
    """``.scn`` files in ``folder`` and its sub-folders: a folder's own files first
    (sorted), then each sub-folder in name order. Hidden folders are skipped."""
    files = []
    subs = []
    for name in sorted(os.listdir(folder)):
        full = os.path.join(folder, name)
        if os.path.isdir(full):
            if not name.startswith("."):
                subs.append(full)
        elif name.endswith(".scn"):
            files.append(full)
    for sub in subs:
        files += _walk(sub)
    return files


def _expand(paths):
    out = []
    for path in paths:
        if os.path.isdir(path):
            out += _walk(path)
        else:
            out.append(path)
    return out


def run(args):
    files = _expand(args.files)
    if not files:
        raise CliError(_("no scenario files found in %s") % " ".join(args.files), 2)
    passed = failed = 0
    for path in files:
        try:
            with open(path, encoding="utf-8") as fh:
                text = without_bom(fh.read())  # saved as "UTF-8 with BOM": as without it
        except OSError as exc:
            raise CliError(_("cannot read %(path)s: %(why)s") % {
                "path": path, "why": exc.strerror or exc}, 2) from None
        try:
            results = run_scenarios(text, path)
        except NotationError as exc:
            raise CliError(translated(exc), 2) from None
        # the verdicts in the table's language, one column wide for both
        fail, ok = pgettext("check verdict", "FAIL"), pgettext("check verdict", "ok")
        wide = max(len(fail), len(ok))
        for case, problems in results:
            label = "%s %s" % (case.id, case.title)
            if problems:
                failed += 1
                print("%-*s %s  (%s:%d)" % (wide, fail, label.strip(), path, case.line))
                for p in problems:
                    print("  " + translated(p).replace("\n", "\n  "))
            else:
                passed += 1
                if not args.quiet:
                    print("%-*s %s" % (wide, ok, label.strip()))
    print(_("%(passed)d passed, %(failed)d failed") % {"passed": passed, "failed": failed})
    return 1 if failed else 0

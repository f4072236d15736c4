# Run under the MicroPython unix port: every scenario file given, one line per case:
# "<id> ok" or "<id> FAIL <first problem>".
import sys

from camelup.scenario import run_scenarios

for path in sys.argv[1:]:
    with open(path) as fh:
        text = fh.read()
    for case, problems in run_scenarios(text, path):
        if problems:
            print("%s FAIL %s" % (case.id, problems[0].split("\n")[0]))
        else:
            print("%s ok" % case.id)

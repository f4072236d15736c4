# Run under the MicroPython unix port (and CPython, to compare byte for byte): every
# scenario file given, one line per case: "<id> ok" or "<id> FAIL <first problem>", then
# the position line before each of its steps (so both runtimes are compared step by step).
import sys

from camelup.scenario import parse_scenarios, run_case

for path in sys.argv[1:]:
    with open(path) as fh:
        text = fh.read()
    for case in parse_scenarios(text, path):
        trace = []
        problems = run_case(case, trace)
        if problems:
            print("%s FAIL %s" % (case.id, str(problems[0]).split("\n")[0]))
        else:
            print("%s ok" % case.id)
        for line in trace:
            print("  " + line)

# Run under the MicroPython unix port (and CPython): replay transcripts, print results.
# Usage: micropython replay.py FILE   -- FILE holds transcripts separated by lines "====".
# For each transcript prints: the final position line, then "coins ..." and "winners ..."
# (or "running" when the race is not over).
import sys

from camelup.transcript import replay


def main(path):
    with open(path) as fh:
        text = fh.read()
    for chunk in text.split("\n====\n"):
        if not chunk.strip():
            continue
        game = replay(chunk)
        print(game.position())
        print("coins " + " ".join([str(c) for c in game.coins]))
        print("winners " + (" ".join([str(w) for w in game.winners()]) if game.is_over
                            else "running"))


main(sys.argv[1])

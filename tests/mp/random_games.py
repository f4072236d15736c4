# Run under the MicroPython unix port (and CPython): seeded random games, print results.
# Usage: micropython random_games.py EDITION PLAYERS FIRST_SEED COUNT
# Prints per game: "seed actions position" on one line.
import sys

from camelup.randomplay import random_game


def main(edition, players, first, count):
    for seed in range(first, first + count):
        game = random_game(edition, players, seed)
        print("%d %d %s" % (seed, len(game.history), game.position()))


main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))

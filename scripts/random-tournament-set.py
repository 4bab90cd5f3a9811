#!/usr/bin/env python3
"""Writes a set of random 25x25 nonograms in the tournament format
(docs/reference/formats.md, "Tournament puzzle sets") with its solutions file: puzzles the
complete solver has never seen, made the way the TAAI sets are (random
pictures whose density falls evenly from 50% at the first puzzle to 35% at
the last). The same seed writes the same files.

Usage: random-tournament-set.py COUNT SEED SET.txt SOLUTIONS.txt
"""

import random
import sys

SIDE = 25


def clue(cells):
    """The runs of filled cells of a line, as a tab-separated clue line."""
    runs, run = [], 0
    for c in cells + [0]:
        if c:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    return "\t".join(map(str, runs)) if runs else "0"


def picture(rng, density):
    """A random picture with round(density * 625) filled cells."""
    filled = round(density * SIDE * SIDE)
    cells = [1] * filled + [0] * (SIDE * SIDE - filled)
    rng.shuffle(cells)
    return [cells[r * SIDE:(r + 1) * SIDE] for r in range(SIDE)]


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1])
    count, seed, set_path, solutions_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    if count < 1:
        sys.exit("COUNT must be at least 1")
    rng = random.Random(seed)
    puzzles, solutions = [], []
    for n in range(1, count + 1):
        density = 0.5 - 0.15 * (n - 1) / max(count - 1, 1)
        rows = picture(rng, density)
        columns = [[rows[r][c] for r in range(SIDE)] for c in range(SIDE)]
        puzzles.append(f"${n}\n" + "".join(clue(line) + "\n" for line in columns + rows))
        solutions.append(f"${n}\n" + "".join("\t".join(map(str, row)) + "\n" for row in rows))
    with open(set_path, "w") as f:
        f.write("".join(puzzles))
    with open(solutions_path, "w") as f:
        f.write("".join(solutions))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Two or more `crescendo` binaries side by side on the mate sets, one
process per position, interleaved.

    bench/mate_ab.py [--runs N] BIN... [-- SET...]

For every row of the sets (default: bench/data/sermate-public.jsonl,
bench/data/sermate-sparse.jsonl, bench/data/janko-guid-60.csv), each
binary runs `crescendo mate --fen FEN --json` N times (default 3), the
binaries taking turns, and the least CPU time (user + system of the
child) counts: the least of a few runs is what the code costs, the rest
is the host's noise. Prints the total per set and binary, and every row
whose nodes or verdict differ between the binaries (a change that should
not move the search shows none).
"""

import json
import os
import subprocess
import sys

from mate_popeye import rows_of

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
SETS = ["sermate-public.jsonl", "sermate-sparse.jsonl", "janko-guid-60.csv"]


def run(binary, fen):
    """(CPU ms, nodes, result) of one process."""
    p = subprocess.Popen([binary, "mate", "--fen", fen, "--json"], stdout=subprocess.PIPE)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit(f"{binary} failed on {fen}")
    row = json.loads(out.decode().strip().splitlines()[-1])
    return (usage.ru_utime + usage.ru_stime) * 1000, row["nodes"], row["result"]


def main(argv):
    runs = 3
    if argv[:1] == ["--runs"]:
        runs, argv = int(argv[1]), argv[2:]
    bins, sets = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    if not bins or runs < 1:
        sys.exit(__doc__)
    sets = sets or [os.path.join(DATA, s) for s in SETS]
    totals = {b: {} for b in bins}
    for path in sets:
        name = os.path.basename(path)
        for row in rows_of(path):
            i, fen = row["id"], row["fen"]
            best, seen = {b: float("inf") for b in bins}, {}
            for _ in range(runs):
                for b in bins:
                    ms, nodes, result = run(b, fen)
                    best[b] = min(best[b], ms)
                    seen[b] = (nodes, result)
            for b in bins:
                totals[b][name] = totals[b].get(name, 0.0) + best[b]
            if len(set(seen.values())) > 1:
                print(f"{name} {i}: " + ", ".join(f"{b} {n} nodes {r}" for b, (n, r) in seen.items()))
    for b in bins:
        parts = ", ".join(f"{n} {t:.1f}" for n, t in totals[b].items())
        print(f"{b}: {parts}; total {sum(totals[b].values()):.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])

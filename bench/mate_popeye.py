#!/usr/bin/env python3
"""Popeye side by side with `crescendo mate`, position by position.

    bench/mate_popeye.py POPEYE CRESCENDO SET... [--limit S] [--full] [--raw FILE] [--before BIN] [--runs N]
    bench/mate_popeye.py --from-raw RAW... [--limit S]

SET is a `.jsonl` file (rows with `id` and `fen`, as bench/data/sermate-*.jsonl)
or a `.csv` file with the header `id,fen` (bench/data/janko-guid-60.csv). For
every row, in the same run and one process per position on both sides, it
times (CPU seconds of the child, user + system):

- Crescendo: `crescendo mate --fen FEN --json` (Italian rules);
- Popeye (see ../shared/bench/POPEYE.md), stipulation `exact-ser-#n`, with
  `HalfDuplex` when Black moves, castling and en passant from the FEN:
  `default` (orthodox mate), `intelligent` (`Option Intelligent`, orthodox),
  `checkless` (`Condition ChecklessChess`: the Italian mate, the identical
  question; Popeye refuses it with `Intelligent`).

Verdicts: the truth is `checkless` when it finishes; otherwise an orthodox
mate from either other mode (every orthodox mate is an Italian mate); otherwise
Crescendo's mate (its line is replayed by the rules core) or the row is
marked unchecked. A Popeye mode is correct on a row when it gives the truth;
the ratio is Crescendo's CPU time over Popeye's fastest correct mode.
With `--before BIN` a second Crescendo binary (an earlier commit) is timed
on every row too, in the same run, and the report gives its time, ratio
and rows slower beside the first's.

With `--runs N` every run that finished in under a second (Crescendo's,
the earlier binary's, each Popeye mode's) is made N times in all, one
after the other, and its median time is recorded: close rows are then
decided by medians, not by one run's noise (longer rows are not close).

Each Popeye run stops at `--limit` CPU seconds (default 60; recorded as
"> 60 s"). Without `--full`, a mode that can no longer be the fastest
correct one is stopped once it has used the best correct time so far (its
time is then recorded as "> t"): the ratio is the same and the run shorter.
`checkless` runs to the limit whenever no orthodox mate is known (it decides
the Italian verdict). Prints a markdown table per set and the totals.
"""

import json
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

MODES = ["default", "intelligent", "checkless"]
TICK = os.sysconf("SC_CLK_TCK")
# Runs shorter than this (CPU seconds) are repeated with --runs.
SHORT = 1.0
RUNS = 1


def median_of(run):
    """`run()` -> (result, CPU seconds, finished), made RUNS times in all
    if the first finished in under SHORT seconds: the first result with
    the median time (finished only if every run finished)."""
    first = run()
    if RUNS <= 1 or not first[2] or first[1] >= SHORT:
        return first
    times, finished = [first[1]], True
    for _ in range(RUNS - 1):
        r = run()
        times.append(r[1])
        finished &= r[2]
    times.sort()
    return first[0], times[len(times) // 2], finished


def parse_fen(fen):
    f = fen.split()
    board = {}
    for r, row in enumerate(f[0].split("/")):
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            else:
                board["abcdefgh"[c] + str(8 - r)] = ch
                c += 1
    moves = int(f[5]) - (int(f[6]) if len(f) > 6 else 0)
    return board, f[1], f[2], f[3], moves


def popeye_problem(fen, mode):
    """The Popeye input posing "does the side to move mate with its n moves"."""
    board, side, castling, ep, n = parse_fen(fen)
    letters = {"k": "k", "q": "q", "r": "r", "b": "b", "n": "s", "p": "p"}
    white = [letters[p.lower()] + s for s, p in sorted(board.items()) if p.isupper()]
    black = [letters[p] + s for s, p in sorted(board.items()) if p.islower()]
    options = ["NoBoard", "MaxSolutions 1"]
    if side == "b":
        options.append("HalfDuplex")
    # Popeye assumes every king and rook on its home square may castle.
    forbid = []
    for king, rooks, color in (("e1", (("a1", "Q"), ("h1", "K")), str.upper),
                               ("e8", (("a8", "q"), ("h8", "k")), str.lower)):
        if board.get(king) != color("k"):
            continue
        rights = [r for r in rooks if r[1] in castling and board.get(r[0]) == color("r")]
        if not rights:
            forbid.append(king)
            continue
        forbid += [sq for sq, right in rooks if right not in castling and board.get(sq) == color("r")]
    if forbid:
        options.append("NoCastling " + "".join(forbid))
    if ep != "-":
        if "," in ep:
            raise ValueError(f"{fen}: Popeye knows one en-passant pawn")
        passed_rank = int(ep[1])
        step = 1 if passed_rank == 3 else -1
        options.append(f"EnPassant {ep[0]}{passed_rank - step}{ep}{ep[0]}{passed_rank + step}")
    if mode == "intelligent":
        options.append("Intelligent")
    lines = ["BeginProblem"]
    if white:
        lines.append("Pieces White " + " ".join(white))
    if black:
        lines.append("Pieces Black " + " ".join(black))
    lines.append(f"Stipulation exact-ser-#{n}")
    lines.append("Option " + " ".join(options))
    if mode == "checkless":
        lines.append("Condition ChecklessChess")
    lines.append("EndProblem")
    return "\n".join(lines) + "\n"


def cpu_of(pid):
    """CPU seconds used so far by a running child (clock ticks)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
        return (int(parts[11]) + int(parts[12])) / TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def run_timed(cmd, cap):
    """Runs `cmd`; returns (stdout, CPU seconds, finished). Stops it once it
    has used `cap` CPU seconds (finished False)."""
    out = tempfile.TemporaryFile()
    # No `preexec_fn`: Python code run in the forked child before the exec
    # is charged to the child, about a millisecond a process on both sides
    # (0.50 -> 1.51 ms for /bin/true). The CPU limit is set on the running
    # child instead; the polling below stops it at `cap` all the same.
    p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    soft = max(1, math.ceil(cap) + 1)
    try:
        resource.prlimit(p.pid, resource.RLIMIT_CPU, (soft, soft + 2))
    except OSError:
        pass  # already gone
    stopped = False
    delay = 0.001
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if cpu_of(p.pid) > cap:
            os.kill(p.pid, signal.SIGKILL)
            stopped = True
        time.sleep(delay)
        delay = min(delay * 2, 0.01)
    cpu = usage.ru_utime + usage.ru_stime
    out.seek(0)
    text = out.read().decode(errors="replace")
    finished = not stopped and cpu <= cap and os.WIFEXITED(status)
    return text, cpu, finished


def popeye(binary, fen, mode, cap):
    """(verdict or None, CPU seconds, finished)."""
    with tempfile.NamedTemporaryFile("w", suffix=".inp", delete=False) as f:
        f.write(popeye_problem(fen, mode))
        path = f.name
    try:
        text, cpu, finished = run_timed([binary, path], cap)
    finally:
        os.unlink(path)
    if not finished:
        return None, cpu, False
    if "Partial solution" in text:
        return "mate", cpu, True
    if "solution finished" in text:
        mated = any(" #" in l for l in text.splitlines())
        return ("mate" if mated else "none"), cpu, True
    if "Intelligent Mode only" in text or "error" in text.lower():
        raise RuntimeError(f"Popeye refused {fen} ({mode}):\n{text}")
    return None, cpu, False


def crescendo(binary, fen, cap):
    text, cpu, finished = run_timed([binary, "mate", "--fen", fen, "--json"], cap)
    if not finished:
        return {"result": "timeout"}, cpu
    row = json.loads(text.strip().splitlines()[-1])
    return row, cpu


def rows_of(path):
    if path.endswith(".csv"):
        with open(path) as f:
            next(f)
            for line in f:
                if line.strip():
                    i, fen = line.strip().split(",", 1)
                    yield {"id": i, "fen": fen}
    else:
        with open(path) as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def fmt(t, finished=True):
    if t is None:
        return "-"
    return f"{t * 1000:.0f}" if finished else f"> {t * 1000:.0f}"


def compare_row(popeye_bin, crescendo_bin, row, limit, full, before_bin=None):
    fen = row["fen"]
    def ours_of(binary):
        def run():
            result, cpu = crescendo(binary, fen, limit)
            return result, cpu, result.get("result") != "timeout"
        return median_of(run)[:2]

    ours, ours_cpu = ours_of(crescendo_bin)
    before = ours_of(before_bin) if before_bin else None
    runs = {}
    best = None  # fastest correct CPU seconds so far
    orthodox_mate = False

    def known_best():
        # A correct time is known once the truth is: an orthodox mate, or
        # a finished checkless run.
        return best if not full else None

    for mode in MODES:
        cap = limit
        if mode == "checkless" and not orthodox_mate:
            cap = limit
        elif known_best() is not None:
            cap = min(limit, known_best() * 1.02 + 0.002)
        verdict, cpu, finished = median_of(lambda: popeye(popeye_bin, fen, mode, cap))
        runs[mode] = (verdict, cpu, finished)
        if verdict == "mate" and mode != "checkless":
            orthodox_mate = True
        if verdict == "mate" or (mode == "checkless" and finished):
            # Correct for sure: an orthodox mate is an Italian mate, and
            # checkless is the Italian question.
            best = cpu if best is None else min(best, cpu)
    c = runs["checkless"]
    if c[2]:
        truth, source = c[0], "checkless"
    elif orthodox_mate:
        truth, source = "mate", "orthodox"
    elif ours.get("result") == "mate":
        truth, source = "mate", "crescendo line"
    else:
        truth, source = None, "unchecked"
    correct = [cpu for v, cpu, fin in runs.values() if fin and v == truth]
    best = min(correct) if correct else None
    extra = {}
    if before:
        extra = {"before": before[0].get("result"), "before_cpu_s": before[1],
                 "before_nodes": before[0].get("nodes")}
    return {
        **extra,
        "id": row["id"],
        "fen": fen,
        "n": parse_fen(fen)[4],
        "pieces": len(parse_fen(fen)[0]),
        "truth": truth,
        "truth_from": source,
        "crescendo": ours.get("result"),
        "crescendo_cpu_s": ours_cpu,
        "crescendo_nodes": ours.get("nodes"),
        "popeye": {m: {"verdict": v, "cpu_s": cpu, "finished": fin} for m, (v, cpu, fin) in runs.items()},
        "popeye_best_s": best,
        "right": ours.get("result") == truth,
    }


def report(name, results, limit):
    has_before = any("before_cpu_s" in r for r in results)
    print(f"\n### {name}\n")
    print("| id | n | pieces | verdict | checked by | Crescendo ms | nodes | Popeye default ms | intelligent ms | checkless ms | best Popeye ms | ratio |"
          + (" before ms | before nodes | before ratio |" if has_before else ""))
    print("|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if has_before else ""))
    tot = ptot = btot = 0.0
    slower, wrong, capped, unchecked = [], [], 0, 0
    bslower, bwrong = [], []
    for r in results:
        p = r["popeye"]
        cells = [fmt(p[m]["cpu_s"], p[m]["finished"]) for m in MODES]
        best = r["popeye_best_s"]
        ours = r["crescendo_cpu_s"]
        tot += ours
        b = r.get("before_cpu_s")
        bcells = ""
        if b is not None:
            btot += b
            bratio = f"< {b / limit:.3f}" if best is None else f"{max(b, 0.001) / max(best, 0.001):.3f}"
            bcells = f" {b * 1000:.0f} | {r['before_nodes']} | {bratio} |"
            if best is not None and b > best:
                bslower.append((r["id"], b, best))
            if r["truth"] is not None and r["before"] != r["truth"]:
                bwrong.append(r["id"])
        if best is None:
            capped += 1
            ptot += limit
            ratio = f"< {ours / limit:.3f}" if limit else "-"
            best_cell = f"timeout, > {limit:.0f} s"
        else:
            ptot += best
            # A floor of one clock tick keeps 0 ms rows comparable.
            ratio_v = max(ours, 0.001) / max(best, 0.001)
            ratio = f"{ratio_v:.3f}"
            best_cell = fmt(best)
            if ours > best:
                slower.append((r["id"], ours, best))
        if r["truth"] is None:
            unchecked += 1
            verdict = f"{r['crescendo']} (unchecked)"
        elif not r["right"]:
            wrong.append((r["id"], r["crescendo"], r["truth"], r["truth_from"]))
            verdict = f"**{r['crescendo']} (truth {r['truth']})**"
        else:
            verdict = r["crescendo"]
        print(f"| {r['id']} | {r['n']} | {r['pieces']} | {verdict} | {r['truth_from']} | {ours * 1000:.0f} | {r['crescendo_nodes']} | {' | '.join(cells)} | {best_cell} | {ratio} |{bcells}")
    nodes = sum(r["crescendo_nodes"] or 0 for r in results)
    print()
    why_unchecked = " (every Popeye mode timed out)" if unchecked else ""
    timed_out = f" ({capped} rows timed out, counted as {limit:.0f} s)" if capped else ""
    print(f"**{name}**: {len(results)} rows, {len(results) - len(wrong) - unchecked} verdicts right, "
          f"{len(wrong)} wrong, {unchecked} unchecked{why_unchecked}; "
          f"Crescendo {tot:.3f} s CPU ({nodes:,} nodes), Popeye's fastest correct mode "
          f"{'at least ' if capped else ''}{ptot:.3f} s{timed_out}: "
          f"{ptot / max(tot, 1e-9):.1f}x; rows slower than Popeye: {len(slower)}"
          + "".join(f"; {i} {o * 1000:.0f} ms vs {b * 1000:.0f} ms" for i, o, b in slower))
    if has_before:
        print(f"\n**{name}, before**: Crescendo {btot:.3f} s CPU, {len(bwrong)} verdicts wrong: "
              f"{ptot / max(btot, 1e-9):.1f}x; rows slower than Popeye: {len(bslower)}"
              + "".join(f"; {i} {o * 1000:.0f} ms vs {b * 1000:.0f} ms" for i, o, b in bslower))
    for w in wrong:
        print(f"WRONG: {w[0]}: Crescendo {w[1]}, truth {w[2]} (from {w[3]})")
    return tot, ptot, len(slower), len(wrong)


def main():
    args = sys.argv[1:]
    limit, full, raw, before_bin = 60.0, False, None, None
    if "--before" in args:
        i = args.index("--before")
        before_bin = args[i + 1]
        del args[i:i + 2]
    if "--runs" in args:
        global RUNS
        i = args.index("--runs")
        RUNS = max(1, int(args[i + 1]))
        del args[i:i + 2]
    if "--limit" in args:
        i = args.index("--limit")
        limit = float(args[i + 1])
        del args[i:i + 2]
    if "--full" in args:
        full = True
        args.remove("--full")
    if "--raw" in args:
        i = args.index("--raw")
        raw = open(args[i + 1], "w")
        del args[i:i + 2]
    if "--from-raw" in args:
        # Re-print the report of a run (or of the rows done so far) from
        # its --raw files.
        args.remove("--from-raw")
        for path in args:
            with open(path) as f:
                report(os.path.basename(path), [json.loads(l) for l in f if l.strip()], limit)
        return
    if len(args) < 3:
        sys.exit(__doc__)
    popeye_bin, crescendo_bin, sets = args[0], args[1], args[2:]
    grand = [0.0, 0.0, 0, 0]
    for path in sets:
        results = []
        for row in rows_of(path):
            r = compare_row(popeye_bin, crescendo_bin, row, limit, full, before_bin)
            results.append(r)
            if raw:
                raw.write(json.dumps(r) + "\n")
                raw.flush()
            print(f"{r['id']}: {r['crescendo']} {r['crescendo_cpu_s'] * 1000:.0f} ms, "
                  f"Popeye best {fmt(r['popeye_best_s'])} ms", file=sys.stderr)
        t = report(os.path.basename(path), results, limit)
        grand = [a + b for a, b in zip(grand, t)]
    print(f"\n**All sets**: Crescendo {grand[0]:.3f} s, Popeye {grand[1]:.3f} s, "
          f"{grand[1] / max(grand[0], 1e-9):.1f}x; {grand[2]} rows slower, {grand[3]} verdicts wrong")


if __name__ == "__main__":
    main()

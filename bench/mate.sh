#!/usr/bin/env bash
# Mate-finder benchmarks: Janko-Guid 60 and the Popeye-timed sermate set.
#   bench/mate.sh [threads]
#   bench/mate.sh --popeye POPEYE [--limit S] [--full]
# The first prints the batch totals, with the sermate times compared with
# the Popeye times recorded in the file. The second times Popeye (default
# mode, Option Intelligent, Condition ChecklessChess) and Crescendo in the
# same run, one process per position, on sermate-public, sermate-sparse and
# Janko-Guid 60, checks every verdict and prints the per-row ratios (see
# bench/mate_popeye.py; bench/mate.md has the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/crescendo
if [ "${1:-}" = "--popeye" ]; then
    popeye=$2
    shift 2
    exec python3 bench/mate_popeye.py "$popeye" "$bin" bench/data/sermate-public.jsonl \
        bench/data/sermate-sparse.jsonl bench/data/janko-guid-60.csv "$@"
fi
threads=${1:-1}
echo "== janko-guid-60 (threads $threads)"
set +o pipefail
# Position 22 has 17 black pieces and is rejected (exit status 2).
$bin mate --file bench/data/janko-guid-60.csv --threads "$threads" 2>/dev/null | tail -1
set -o pipefail
echo "== sermate-public (threads $threads)"
csv=$(mktemp)
python3 -c '
import json,sys
print("id,fen")
for l in open("bench/data/sermate-public.jsonl"):
    d=json.loads(l); print(d["id"]+","+d["fen"])
' > "$csv"
$bin mate --file "$csv" --threads "$threads" --json > "$csv.out"
python3 - "$csv.out" <<'PY'
import json,sys
pop={}
for l in open("bench/data/sermate-public.jsonl"):
    d=json.loads(l); pop[d["id"]]=d
tot=ptot=0; worst=(0,None)
for l in open(sys.argv[1]):
    r=json.loads(l); d=pop[r["id"]]
    tot+=r["ms"]; ptot+=d["popeye_cpu_s"]*1000
    if r["result"]!=d["popeye_verdict"]:
        print("differs from Popeye:", r["id"], r["result"], d["popeye_verdict"], r["san"])
    ratio=r["ms"]/(d["popeye_cpu_s"]*1000)
    worst=max(worst,(ratio,r["id"]))
print(f"total {tot} ms, Popeye {ptot:.0f} ms, ratio {ptot/max(tot,1):.1f}x; worst position {worst[1]} at {worst[0]:.2f}x Popeye's time")
PY
rm -f "$csv" "$csv.out"

#!/bin/sh
# Four-turn perft sample (bench/mate.md, "Four turns"): the five turn-3
# starts counted over two turns, then --turns 3 from the start position on
# one and two threads; one line each: label, CPU seconds (user+sys), wall
# seconds, the JSON output. Usage: bench/perft4.sh BINARY [samples|start]
bin=${1:?usage: bench/perft4.sh BINARY [samples|start]}
what=${2:-samples start}
run() {
    label=$1
    shift
    out=$( { /usr/bin/time -f "%U %S %e" nice -n 10 "$bin" perft "$@" --json; } 2>/tmp/perft4.time.$$)
    set -- $(tail -1 /tmp/perft4.time.$$)
    echo "$label cpu $(echo "$1 + $2" | bc) wall $3 $out"
}
for w in $what; do
    case $w in
    samples)
        run "e4/e5,Nf6" --fen "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 3" --turns 2
        run "Nh3/a5,d5" --fen "rnbqkbnr/1pp1pppp/8/p2p4/8/7N/PPPPPPPP/RNBQKB1R w KQkq a6,d6 0 3" --turns 2
        run "h3/d6,e6" --fen "rnbqkbnr/ppp2ppp/3pp3/8/8/7P/PPPPPPP1/RNBQKBNR w KQkq - 0 3" --turns 2
        run "d4/g5,c5" --fen "rnbqkbnr/pp1ppp1p/8/2p3p1/3P4/8/PPP1PPPP/RNBQKBNR w KQkq c6,g6 0 3" --turns 2
        run "b4/Na6,Nc5" --fen "r1bqkbnr/pppppppp/8/2n5/1P6/8/P1PPPPPP/RNBQKBNR w KQkq - 1 3" --turns 2
        ;;
    start)
        for rules in italian scottish; do
            run "start-T3-$rules-t1" --turns 3 --rules $rules
            run "start-T3-$rules-t2" --turns 3 --rules $rules --threads 2
        done
        ;;
    esac
done
rm -f /tmp/perft4.time.$$

#!/bin/bash
# Runs two builds of spotlight-bench one after the other, alternating, so that
# a change is measured against what it changes in one run on one machine.
#
#   Benchmarks/ab/ab.sh BEFORE_BINARY AFTER_BINARY OUT_DIR [scales] [rounds]
#
# Each binary needs its own build's spotlight-bench-child beside it (the phases run there).
#
# scales default "63666 1m"; each scale runs `rounds` times per build (default 2;
# 1M once), alternating before/after (the order swapped each round), engine only. Then:
#
#   python3 Benchmarks/ab/compare.py OUT_DIR
#
# prints each figure's median per build and the ratio after ÷ before. BENCH_ARGS adds arguments to
# every run (for example BENCH_ARGS="--ql-workloads titleWord,dateRange": at 1M the infix workload
# runs close to the 10 s query budget and can fail a run on a busy machine).
set -euo pipefail
before=$1 after=$2 out=$3
scales=${4:-"63666 1m"}
rounds=${5:-2}
mkdir -p "$out/work"
for scale in $scales; do
  n=$rounds
  [ "$scale" = 1m ] && n=1
  for round in $(seq 1 "$n"); do
    # The other order every other round: the build that runs first in a round runs slower.
    order="before after"
    [ $((round % 2)) = 0 ] && order="after before"
    for which in $order; do
      binary=$before
      [ "$which" = after ] && binary=$after
      echo "== $which, $scale items, round $round"
      # shellcheck disable=SC2086
      "$binary" --scales "$scale" --engines engine --work-dir "$out/work" ${BENCH_ARGS:-} \
        --json "$out/$which-$scale-$round.json" > "$out/$which-$scale-$round.log" 2>&1
    done
  done
done

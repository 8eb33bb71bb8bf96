#!/usr/bin/env bash
# Runs one libFuzzer harness for a bounded time on a fresh copy of its seed
# corpus (the seeds in the repository stay as they are) and fails on any
# finding: a crash, a sanitizer report, a broken invariant, one input that
# runs longer than 10 s (a parser must not hang on any input) or needs more
# than 2 GiB. The input that found it is left in WORK.
#   run-fuzzer.sh HARNESS SEED_CORPUS WORK SECONDS
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 HARNESS SEED_CORPUS WORK SECONDS" >&2; exit 2; }
harness=$1 seeds=$2 work=$3 seconds=$4
rm -rf "$work"
mkdir -p "$work/corpus"
cp "$seeds"/* "$work/corpus/"
rc=0
"$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1 || rc=$?
# The end of libFuzzer's log: the final stats, or the report of a finding.
tail -n 40 "$work/log"
if [ $rc -ne 0 ]; then
    for a in "$work"/crash-* "$work"/timeout-* "$work"/oom-* "$work"/leak-*; do
        [ -e "$a" ] && echo "finding: $a (reproduce: $harness $a)"
    done
    echo "$(basename "$harness"): finding after fuzzing (exit $rc); the whole log is $work/log" >&2
    exit 1
fi

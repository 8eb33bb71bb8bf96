# Shared helpers of the oracle tests (sourced). They compare warpdp's tools
# with Debian's HMMER 3.3.2; a test exits 77 (skipped) when the oracle or the
# tool is missing.
set -euo pipefail
EXAMPLES=/usr/share/doc/hmmer/examples
ORACLE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

need() {
    for c in "$@"; do
        if ! command -v "$c" >/dev/null 2>&1 && [ ! -x "$c" ]; then echo "skipped: $c not found"; exit 77; fi
    done
}

# Seed: fresh each run, printed, replayable with WARPDP_TEST_SEED.
oracle_seed() {
    local s=${WARPDP_TEST_SEED:-$(( (RANDOM << 15 | RANDOM) % 1000000 ))}
    echo "# seed = $s (replay with WARPDP_TEST_SEED=$s)" >&2
    echo "$s"
}

# Copies (and un-gzips) a Debian example model into DIR; prints the path.
model_file() {
    local name=$1 dir=$2 src
    for src in "$EXAMPLES/tutorial/$name.hmm" "$EXAMPLES/testsuite/$name.hmm"; do
        if [ -f "$src" ]; then cp "$src" "$dir/$name.hmm"; echo "$dir/$name.hmm"; return; fi
    done
    zcat "$EXAMPLES/testsuite/$name.hmm.gz" > "$dir/$name.hmm"
    echo "$dir/$name.hmm"
}

# "Passed <stage> filter" count from hmmsearch's main output.
passed_count() { awk -v s="$1" '$1 == "Passed" && $2 == s { print $4; exit }' "$2"; }

fail=0
check_eq() {  # name got want
    if [ "$2" != "$3" ]; then echo "FAIL $1: got $2, hmmsearch $3"; fail=$((fail + 1)); fi
}

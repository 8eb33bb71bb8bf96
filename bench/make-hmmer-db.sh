#!/usr/bin/env bash
# A benchmark database for hmmsearch-like searches: make_hmmer_db's random
# proteins with domain samples of every model in MODELS.hmm spliced in
# (DENSITY of the targets per model, default 0.001; some repeats and fused
# pairs). The samples come from hmmemit, half from the core model
# (full-length domains, as most real ones are) and half from the profile in
# unilocal mode with minimal flanks (`-p --unilocal -L 1`: fragments).
# Everything is seeded: the same arguments give the same file.
#   make-hmmer-db.sh MODELS.hmm N SEED [DENSITY [make_hmmer_db options...]] > db.fa
# make_hmmer_db and hmmemit are taken from $BIN (default: this script's
# directory's ../build), then PATH.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: make-hmmer-db.sh MODELS.hmm N SEED [DENSITY [make_hmmer_db options...]]" >&2; exit 1; }
hmm=$1; n=$2; seed=$3; density=${4:-0.001}; shift $(( $# < 4 ? $# : 4 ))
[ "$seed" -ge 1 ] 2> /dev/null || { echo "make-hmmer-db.sh: SEED must be a whole number >= 1 (hmmemit takes 0 as: random)" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
export PATH=${BIN:-$here/../build}:$PATH
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Enough samples that few repeat: a homolog holds 1.3 domains on average
# (make_hmmer_db's default --multi 0.3, repeats of 2-4).
per_model=$(awk -v n="$n" -v d="$density" 'BEGIN { k = int(n * d * 1.6 + 0.999); print (k < 2 ? 2 : k) }')
half=$(( (per_model + 1) / 2 ))
hmmemit -N "$half" --seed "$seed" "$hmm" > "$tmp/samples.fa"
hmmemit -N "$half" -p --unilocal -L 1 --seed $((seed + 1)) "$hmm" >> "$tmp/samples.fa"
make_hmmer_db --n "$n" --seed "$seed" --domains "$tmp/samples.fa" --density "$density" "$@"

#!/usr/bin/env bash
# gpu-nw-dist against its peers, in the same run: AmpliconNoise's NDist and
# SeqDist on one core (taskset) versus gpu-nw-dist's CPU engine (1 thread and
# all threads) and, when a GPU is visible, its CUDA engine, on the same
# BioMarKs reads. Checks that every output is byte-identical, then prints
# pairs/s, cell updates/s (cells = sum over pairs of la*lb) and ratios.
#   bench/nw-bench.sh BUILD_DIR [NDIST_READS=300] [SEQDIST_READS=120]
set -euo pipefail
build=$(cd "$1" && pwd)
nd_reads=${2:-300}
sd_reads=${3:-120}
tool=$build/gpu-nw-dist
data=${BIOMARKS:-/usr/share/doc/vsearch-examples/BioMarKs50k.fsa.gz}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
have_peer=1
command -v NDist >/dev/null && command -v SeqDist >/dev/null || have_peer=0
gpu=0; "$tool" --version | grep -q 'visible GPUs: [1-9]' && gpu=1

# Upper-cased sequence lines (SeqDist reads upper-case ACGT only); ids kept.
zcat "$data" | awk '/^>/ { print; next } { print toupper($0) }' > "$tmp/all.fa"
take() { awk -v n="$1" '/^>/ { if (++k > n) exit } { print }' "$tmp/all.fa"; }

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.6f\", $1 }"; }  # no bc on minimal machines
rows=()
run_case() {  # label metric reads peer
    local label=$1 metric=$2 n=$3 peer=$4 f=$tmp/$1.fa
    take "$n" > "$f"
    local cells
    cells=$("$tool" --in "$f" --metric "$metric" --device cpu --format binary 2>&1 > /dev/null | sed -n 's/.* \([0-9]*\) cells.*/\1/p')
    local peer_s=NA
    if [ "$have_peer" = 1 ]; then
        local t0; t0=$(now)
        taskset -c 0 "$peer" -in "$f" > "$tmp/peer.out" 2>/dev/null
        peer_s=$(calc "$(now) - $t0")
    fi
    for dev in cpu1 cpu gpu; do
        [ "$dev" = gpu ] && [ "$gpu" = 0 ] && continue
        local args=(--device cpu --threads 1)
        [ "$dev" = cpu ] && args=(--device cpu)
        [ "$dev" = gpu ] && args=(--device cuda)
        local t0; t0=$(now)
        "$tool" --in "$f" --metric "$metric" "${args[@]}" --quiet > "$tmp/ours.out"
        local s; s=$(calc "$(now) - $t0")
        local same=na
        [ "$have_peer" = 1 ] && { cmp -s "$tmp/peer.out" "$tmp/ours.out" && same=identical || same=DIFFERENT; }
        local pairs=$(( n * (n - 1) / 2 ))
        rows+=("$(printf '%-8s %-5s %6d %9d %13d %8.2f %10.3f %9.1f %s' "$label" "$dev" "$n" "$pairs" "$cells" "$s" \
            "$(calc "$cells / $s / 1000000000")" "$( [ "$peer_s" = NA ] && echo 0 || calc "$peer_s / $s")" "$same")")
    done
    [ "$have_peer" = 1 ] && rows+=("$(printf '%-8s %-5s %6d %9d %13d %8.2f %10.3f %9s %s' "$label" "peer1" "$n" \
        "$(( n * (n - 1) / 2 ))" "$cells" "$peer_s" "$(calc "$cells / $peer_s / 1000000000")" "1.0" "(NDist/SeqDist, 1 core)")")
    return 0
}
run_case ndist ndist "$nd_reads" NDist
run_case seqdist seqdist "$sd_reads" SeqDist
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
printf '%-8s %-5s %6s %9s %13s %8s %10s %9s %s\n' metric engine reads pairs cells seconds GCUPS x_peer output
printf '%s\n' "${rows[@]}"

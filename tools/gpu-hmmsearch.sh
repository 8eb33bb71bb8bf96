#!/usr/bin/env bash
# gpu-hmmsearch: hmmsearch with its MSV, bias and Viterbi filters run by
# gpu-msv and gpu-viterbi (GPU when one is visible, else CPU). Takes
# hmmsearch's own command line; the hit tables and the main output equal
# plain hmmsearch's (only the header lines naming files, and the pipeline
# statistics, differ), because the filter survivors are re-searched with
# `hmmsearch -Z <number of targets>`.
#   gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa
# Environment: WARPDP_DEVICE (--device of the filters, default auto),
# WARPDP_THREADS (default: all cores), HMMSEARCH (default: hmmsearch),
# WARPDP_TIMES=1 (stage wall times on stderr).
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
hmmsearch=${HMMSEARCH:-hmmsearch}
die() { echo "gpu-hmmsearch: error: $*" >&2; exit "${2:-1}"; }

F1=0.02 F2=0.001 nobias=() have_Z=0 use_max=0 cpu=
args=()  # every option, for the final hmmsearch
takes_value=" -o -A --tblout --domtblout --pfamtblout -E -T --domE --domT --incE --incT --incdomE --incdomT --F1 --F2 --F3 -Z --domZ --seed --tformat --cpu --textw "
while [ $# -gt 2 ]; do
    opt=$1; shift
    args+=("$opt")
    case "$opt" in
        --max) use_max=1 ;;
        --nobias) nobias=(--nobias) ;;
        -h) exec "$hmmsearch" -h ;;
    esac
    if [[ "$takes_value" == *" $opt "* ]]; then
        [ $# -gt 2 ] || die "option $opt needs a value"
        val=$1; shift
        args+=("$val")
        case "$opt" in
            --F1) F1=$val ;;
            --F2) F2=$val ;;
            -Z) have_Z=1 ;;
            --cpu) cpu=$val ;;
            --tformat) [[ "$val" =~ ^(fasta|FASTA)$ ]] || die "--tformat $val: gpu-hmmsearch reads FASTA targets only" ;;
        esac
    fi
done
[ $# -eq 2 ] || die "usage: gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa"
hmm=$1 db=$2
[ "$db" != "-" ] || die "targets must be a file (they are read twice)"
if [ $use_max = 1 ]; then
    # --max turns every filter off: there is nothing to accelerate.
    exec "$hmmsearch" "${args[@]}" "$hmm" "$db"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(--device "${WARPDP_DEVICE:-auto}" --threads "${WARPDP_THREADS:-0}" --quiet)
t_start=$(date +%s.%N)
# The MSV, bias and Viterbi filters in one process (the same decisions as
# `gpu-msv | gpu-viterbi --candidates -`, with one database read).
"$here/gpu-viterbi" --hmm "$hmm" --db "$db" --msv --F1 "$F1" "${nobias[@]}" --F2 "$F2" \
    --survivors "$tmp/survivors.fa" --stats "$tmp/vit.json" "${common[@]}" > /dev/null
Z=$(sed -n 's/^ *"Z": *\([0-9][0-9]*\).*/\1/p' "$tmp/vit.json")
[ -n "$Z" ] || die "gpu-viterbi did not report the database size" 4
zopt=(-Z "$Z"); [ $have_Z = 1 ] && zopt=()
# Threads do not change what hmmsearch prints: without --cpu, use every core.
cores=${cpu:-$(nproc)}; [ "$cores" -ge 1 ] || cores=1
[ -n "$cpu" ] || args+=(--cpu "$cores")

n=$(grep -c '^>' "$tmp/survivors.fa" || true)
if [ "$n" -eq 0 ]; then
    # hmmsearch refuses an empty file. Any one target will do instead: the
    # filters are exact, so a target that did not survive them here fails
    # them again there and the output is that of a search with no hits.
    # (The first record with residues, whole; awk reads to the end so the
    # pipe never breaks.)
    gzip -cdf "$db" | awk '/^>/ { if (have) done = 1; if (!done) { rec = $0 "\n"; have = 0 } next }
                           !done { rec = rec $0 "\n"; if (NF) have = 1 }
                           END { printf "%s", rec }' > "$tmp/targets.fa"
else
    # hmmsearch hands its worker threads blocks of 1,000 sequences, so a few
    # thousand survivors would keep only a few threads busy. Spread them: the
    # survivors, in database order, are cut into at least 16 blocks per thread,
    # each block topped up to 1,000 records with empty ones. hmmsearch skips
    # empty sequences, and with -Z fixed, domZ counting reported targets and
    # every target's domain sampling seeded by the target itself, nothing it
    # prints depends on them (only the pipeline statistics count them).
    blocks=$(( (n + 999) / 1000 )); [ $blocks -ge $((16 * cores)) ] || blocks=$((16 * cores))
    awk -v n="$n" -v b="$blocks" '
        /^>/ { k = int(r++ * b / n); if (r > 1 && k != blk) { for (; fill < 1000; fill++) print ">warpdp-empty"; fill = 0 }
               blk = k; fill++ }
        { print }' "$tmp/survivors.fa" > "$tmp/targets.fa"
fi

t_filters=$(date +%s.%N)
set +e
"$hmmsearch" "${zopt[@]}" "${args[@]}" "$hmm" "$tmp/targets.fa"
rc=$?
if [ -n "${WARPDP_TIMES:-}" ]; then
    awk -v a="$t_start" -v b="$t_filters" -v c="$(date +%s.%N)" -v n="$n" 'BEGIN {
        printf "gpu-hmmsearch: filters %.3f s, hmmsearch on %d survivors %.3f s\n", b - a, n, c - b }' >&2
fi
exit $rc

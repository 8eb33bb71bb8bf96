#!/usr/bin/env bash
# gpu-hmmsearch: hmmsearch with its MSV, bias and Viterbi filters run by
# gpu-msv and gpu-viterbi (GPU when one is visible, else CPU). Takes
# hmmsearch's own command line; the hit tables and the main output equal
# plain hmmsearch's (only the header lines naming files, and the pipeline
# statistics, differ), because the filter survivors are re-searched with
# `hmmsearch -Z <number of targets>`.
#   gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa
# Environment: WARPDP_DEVICE (--device of the filters, default auto),
# WARPDP_THREADS (default: all cores), HMMSEARCH (default: hmmsearch).
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
hmmsearch=${HMMSEARCH:-hmmsearch}
die() { echo "gpu-hmmsearch: error: $*" >&2; exit "${2:-1}"; }

F1=0.02 F2=0.001 nobias=() have_Z=0 use_max=0
main_out= tbl_out= dom_out= cpu= splittable=1
args=()      # every option, for a single final hmmsearch
pass_args=() # the options without -o/--tblout/--domtblout/--cpu, for per-model runs
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
            -o) main_out=$val; continue ;;
            --tblout) tbl_out=$val; continue ;;
            --domtblout) dom_out=$val; continue ;;
            --cpu) cpu=$val; continue ;;
            -A|--pfamtblout) splittable=0 ;;
            --tformat) [[ "$val" =~ ^(fasta|FASTA)$ ]] || die "--tformat $val: gpu-hmmsearch reads FASTA targets only" ;;
        esac
        pass_args+=("$opt" "$val")
    else
        pass_args+=("$opt")
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
# The MSV, bias and Viterbi filters in one process (the same decisions as
# `gpu-msv | gpu-viterbi --candidates -`, with one database read).
"$here/gpu-viterbi" --hmm "$hmm" --db "$db" --msv --F1 "$F1" "${nobias[@]}" --F2 "$F2" \
    --survivors "$tmp/survivors.fa" --stats "$tmp/vit.json" "${common[@]}" > /dev/null
Z=$(sed -n 's/^ *"Z": *\([0-9][0-9]*\).*/\1/p' "$tmp/vit.json")
[ -n "$Z" ] || die "gpu-viterbi did not report the database size" 4
if ! grep -q '^>' "$tmp/survivors.fa"; then
    # hmmsearch refuses an empty file. Any one target will do instead: the
    # filters are exact, so a target that did not survive them here fails
    # them again there and the output is that of a search with no hits.
    # (The first record with residues, whole; awk reads to the end so the
    # pipe never breaks.)
    gzip -cdf "$db" | awk '/^>/ { if (have) done = 1; if (!done) { rec = $0 "\n"; have = 0 } next }
                           !done { rec = rec $0 "\n"; if (NF) have = 1 }
                           END { printf "%s", rec }' > "$tmp/survivors.fa"
fi
zopt=(-Z "$Z"); [ $have_Z = 1 ] && zopt=()

# One model, or outputs we cannot stitch: a single hmmsearch on the survivors.
nmodels=$(gzip -cdf "$hmm" | grep -c '^//' || true)
if [ "$nmodels" -le 1 ] || [ $splittable = 0 ]; then
    set +e
    "$hmmsearch" "${zopt[@]}" "${args[@]}" "$hmm" "$tmp/survivors.fa"
    exit $?
fi

# Several models: hmmsearch hands its threads blocks of 1000 sequences, so on
# a few thousand survivors one run would use few cores. Each query's results
# are independent of the others' (Z is fixed by -Z, domZ is per query), so
# the models are searched by concurrent runs and their outputs stitched in
# model order: the first run's header, every run's query blocks and rows,
# the first run's footer.
cores=${cpu:-$(nproc)}
jobs=$(( nmodels < cores ? nmodels : cores ))
gzip -cdf "$hmm" | awk -v d="$tmp" '{ f = sprintf("%s/model.%05d.hmm", d, n + 1); print > f } /^\/\// { close(f); n++ }'
# Threads in proportion to model length (the long models' Forward/Backward
# dominate), at least one each.
total_M=$(gzip -cdf "$hmm" | awk '$1 == "LENG" { s += $2 } END { print s + 0 }')
running=0
for ((i = 1; i <= nmodels; i++)); do
    part=$(printf '%s/model.%05d' "$tmp" $i)
    M=$(awk '$1 == "LENG" { print $2; exit }' "$part.hmm")
    run_cpu=$(( total_M > 0 ? cores * M / total_M : 1 )); [ $run_cpu -ge 1 ] || run_cpu=1
    "$hmmsearch" "${zopt[@]}" "${pass_args[@]}" --cpu $run_cpu -o "$part.out" --tblout "$part.tbl" \
        --domtblout "$part.dom" "$part.hmm" "$tmp/survivors.fa" > /dev/null 2> "$part.err" &
    running=$((running + 1))
    if [ $running -ge $jobs ]; then wait -n || die "hmmsearch failed: $(cat "$tmp"/model.*.err)" 4; running=$((running - 1)); fi
done
while [ $running -gt 0 ]; do wait -n || die "hmmsearch failed: $(cat "$tmp"/model.*.err)" 4; running=$((running - 1)); done

first=$tmp/model.00001
stitch_main() {  # header of the first run, each run's query blocks, "[ok]"
    awk '/^Query:/ { exit } { print }' "$first.out"
    for f in "$tmp"/model.*.out; do awk '/^Query:/ { p = 1 } /^\[ok\]/ { p = 0 } p' "$f"; done
    echo "[ok]"
}
stitch_table() {  # $1 = tbl|dom: leading comment lines, rows of each run, trailing comment lines
    awk '!/^#/ { exit } { print }' "$first.$1"
    for f in "$tmp"/model.*."$1"; do grep -v '^#' "$f" || true; done
    awk 'seen && /^#/ { print } !/^#/ { seen = 1 }' "$first.$1"
}
if [ -n "$main_out" ]; then stitch_main > "$main_out"; else stitch_main; fi
[ -z "$tbl_out" ] || stitch_table tbl > "$tbl_out"
[ -z "$dom_out" ] || stitch_table dom > "$dom_out"

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
# WARPDP_TIMES=1 (stage wall times on stderr), WARPDP_FINAL_JOBS (concurrent
# final hmmsearch runs, one model each; default: one per model, at most one
# per core).
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
hmmsearch=${HMMSEARCH:-hmmsearch}
die() { echo "gpu-hmmsearch: error: $1" >&2; exit "${2:-1}"; }

F1=0.02 F2=0.001 nobias=() have_Z=0 use_max=0 cpu=
main_out= tbl_out= dom_out= splittable=1
args=()      # every option, for a single final hmmsearch
pass_args=() # the options but -o/--tblout/--domtblout/--cpu, for one run per model
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
            --cpu) cpu=$val; continue ;;
            -o) main_out=$val; continue ;;
            --tblout) tbl_out=$val; continue ;;
            --domtblout) dom_out=$val; continue ;;
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
# Threads do not change what hmmsearch prints: without --cpu, use every core.
cores=${cpu:-$(nproc)}; [ "$cores" -ge 1 ] || cores=1
[ -n "$cpu" ] || args+=(--cpu "$cores")
t_start=$(date +%s.%N)
# The MSV, bias and Viterbi filters in one process (the same decisions as
# `gpu-msv | gpu-viterbi --candidates -`, with one database read). hmmsearch
# hands its threads blocks of 1,000 records, so a few thousand survivors would
# keep a few threads busy: --spread cuts each model's survivors into runs of
# equal expected work, two per thread, topped up with empty records
# (core/survivors_file.hpp says why hmmsearch's output cannot change; more
# runs cost more in reading empty records than they gain: docs/benchmarks.md).
# gpu-viterbi closes its stdout as soon as its files are complete, before it
# frees its engines (~0.1 s): hmmsearch starts at that end of file.
mkfifo "$tmp/rows"
"$here/gpu-viterbi" --hmm "$hmm" --db "$db" --msv --F1 "$F1" "${nobias[@]}" --F2 "$F2" \
    --survivors "$tmp/targets.fa" --spread $((2 * cores)) --stats "$tmp/vit.json" "${common[@]}" > "$tmp/rows" &
filters=$!
cat "$tmp/rows" > /dev/null
if [ ! -s "$tmp/vit.json" ]; then
    rc=0; wait $filters || rc=$?
    die "the filters failed (gpu-viterbi exit status $rc)" $(( rc > 0 ? rc : 4 ))
fi
# Its engines' teardown must not slow hmmsearch down.
renice -n 19 -p $filters > /dev/null 2>&1 || true
Z=$(sed -n 's/^ *"Z": *\([0-9][0-9]*\).*/\1/p' "$tmp/vit.json")
[ -n "$Z" ] || die "gpu-viterbi did not report the database size" 4
zopt=(-Z "$Z"); [ $have_Z = 1 ] && zopt=()

if [ ! -s "$tmp/targets.fa" ]; then
    # hmmsearch refuses an empty file. Any one target will do instead: the
    # filters are exact, so a target that did not survive them here fails
    # them again there and the output is that of a search with no hits.
    # (The first record with residues, whole; awk reads to the end so the
    # pipe never breaks.)
    gzip -cdf "$db" | awk '/^>/ { if (have) done = 1; if (!done) { rec = $0 "\n"; have = 0 } next }
                           !done { rec = rec $0 "\n"; if (NF) have = 1 }
                           END { printf "%s", rec }' > "$tmp/targets.fa"
fi

t_filters=$(date +%s.%N)
# Several models: hmmsearch searches them one after another, and each ends
# with a tail in which its last blocks keep a few threads busy. Each query's
# results are independent of the others' (Z is fixed by -Z, domZ is per
# query), so the models are searched by concurrent runs, the longest models
# first, and their outputs stitched in model order: the first run's header
# (naming the user's model file), every run's query blocks and rows, the
# first run's footer. (-A and --pfamtblout are not stitched: one run.)
nmodels=$(gzip -cdf "$hmm" | grep -c '^//' || true)
jobs=${WARPDP_FINAL_JOBS:-$(( nmodels < cores ? nmodels : cores ))}
rc=0
if [ "$nmodels" -le 1 ] || [ $splittable = 0 ] || [ "$jobs" -le 1 ]; then
    set +e
    "$hmmsearch" "${zopt[@]}" "${args[@]}" "$hmm" "$tmp/targets.fa"
    rc=$?
    set -e
else
    gzip -cdf "$hmm" | awk -v d="$tmp" '/^HMMER/ { f = sprintf("%s/model.%06d.hmm", d, ++n) } n { print > f }'
    parts=("$tmp"/model.*.hmm)
    # (gpu-viterbi may still be exiting: wait only for these runs.)
    declare -A live=()
    mapfile -t order < <(for f in "${parts[@]}"; do echo "$(awk '$1 == "LENG" { print $2; exit }' "$f") $f"; done |
                         sort -k1,1nr | cut -d' ' -f2-)
    for f in "${order[@]}"; do
        p=${f%.hmm}
        outs=(-o "$p.out")
        [ -z "$tbl_out" ] || outs+=(--tblout "$p.tbl")
        [ -z "$dom_out" ] || outs+=(--domtblout "$p.dom")
        "$hmmsearch" "${zopt[@]}" "${pass_args[@]}" --cpu "$cores" "${outs[@]}" "$f" "$tmp/targets.fa" \
            > /dev/null 2> "$p.err" &
        live[$!]=1
        if [ ${#live[@]} -ge "$jobs" ]; then
            wait -n -p done_pid "${!live[@]}" || die "hmmsearch failed: $(cat "$tmp"/model.*.err)" 4
            unset "live[$done_pid]"
        fi
    done
    for pid in "${!live[@]}"; do wait "$pid" || die "hmmsearch failed: $(cat "$tmp"/model.*.err)" 4; done
    first=${parts[0]%.hmm}
    stitch_main() {
        awk -v q="$hmm" '/^Query:/ { exit }
            match($0, /^# query HMM file: */) { print substr($0, 1, RLENGTH) q; next } { print }' "$first.out"
        for f in "${parts[@]}"; do awk '/^Query:/ { p = 1 } /^\[ok\]/ { p = 0 } p' "${f%.hmm}.out"; done
        echo "[ok]"
    }
    stitch_table() {  # $1 = tbl|dom
        awk '!/^#/ { exit } { print }' "$first.$1"
        for f in "${parts[@]}"; do grep -v '^#' "${f%.hmm}.$1" || true; done
        awk -v q="$hmm" 'seen && match($0, /^# Query file: */) { print substr($0, 1, RLENGTH) q; next }
            seen && /^#/ { print } !/^#/ { seen = 1 }' "$first.$1"
    }
    # Each output appears whole or not at all (a regular file is renamed
    # into place; stdout, a device or a pipe is written directly).
    deliver() {  # path, stitching command...
        local path=$1; shift
        if [ -z "$path" ] || [ "$path" = "-" ]; then "$@"; return; fi
        if [ -e "$path" ] && [ ! -f "$path" ]; then "$@" > "$path"; return; fi
        local t; t=$(mktemp "$path.XXXXXX") || die "cannot write $path" 3
        "$@" > "$t" && chmod 644 "$t" && mv -f "$t" "$path" || { rm -f "$t"; die "cannot write $path" 3; }
    }
    deliver "$main_out" stitch_main
    [ -z "$tbl_out" ] || deliver "$tbl_out" stitch_table tbl
    [ -z "$dom_out" ] || deliver "$dom_out" stitch_table dom
fi
wait $filters || die "gpu-viterbi failed after writing its outputs (exit status $?)" 4
if [ -n "${WARPDP_TIMES:-}" ]; then
    n=$(grep '^>' "$tmp/targets.fa" | grep -vc '^>warpdp-empty$')
    awk -v a="$t_start" -v b="$t_filters" -v c="$(date +%s.%N)" -v n="$n" 'BEGIN {
        printf "gpu-hmmsearch: filters %.3f s, hmmsearch on %d survivors %.3f s\n", b - a, n, c - b }' >&2
fi
exit $rc

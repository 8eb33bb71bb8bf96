#!/usr/bin/env bash
# gpu-hmmsearch against hmmsearch --cpu <all cores> on the workloads of
# issue 36, where true homologs are as common as in real use, in one run on
# one host, the outputs compared as they are timed:
#   pkinase  Pkinase x N_BIG targets (default 1,000,000)
#   nine     the nine example models x the same database
#   pfam     PFAM_MODELS Pfam-like models (default 360, bench/make-pfam-like.sh)
#            x N_PFAM targets (default 100,000)
# The databases come from bench/make-hmmer-db.sh with samples of the nine
# models at DENSITY per model (default 0.001), so each Pfam-like model hits
# the homologs of its parent, as a Pfam family hits its members.
# Each search writes the main output (alignments included, unless
# BENCH_NOALI=1), --tblout and --domtblout. For each workload: hmmsearch,
# gpu-hmmsearch (with WARPDP_TIMES=1: the filters' end and the whole run by
# its own clock, so the time after the filters is the final stage's tail),
# (WARPDP_DEVICE=$GPU_DEVICE, default auto; cuda keeps even a small last
# stage on the GPU; MORE_DEVICES="cuda ..." runs it again on each, a line
# each under the table) and gpu-hmmsearch with WARPDP_DEVICE=cpu (our CPU
# engines, BENCH_CPU=0 skips it); wall times, ratios, hits, peak host
# memory (the largest process, /usr/bin/time) and peak GPU memory
# (nvidia-smi, sampled).
# The tables' rows and the main outputs (headers and pipeline statistics
# aside) must equal hmmsearch's; a difference is printed as MISMATCH and
# makes the exit status 1.
#   hmmsearch-workloads.sh BIN_DIR MODELS_DIR [WORKLOADS]
# BIN_DIR holds gpu-viterbi, gpu-hmmsearch, make_hmmer_db and (if not on
# PATH) hmmsearch, hmmemit, hmmbuild; MODELS_DIR holds Pkinase.hmm and
# nine.hmm (bench/pack-device.sh makes both). WORKLOADS: any of "pkinase
# nine pfam" (default all). Logs and the model set go to $OUT (or
# ./workload-logs); WORK sets the scratch directory (databases: ~0.5 GB per
# million targets).
set -uo pipefail
BIN=$(cd "$1" && pwd); MODELS=$(cd "$2" && pwd); workloads=${3:-pkinase nine pfam}
here=$(cd "$(dirname "$0")" && pwd)
export PATH=$BIN:$PATH
logs=${OUT:-$PWD/workload-logs}; mkdir -p "$logs"
work=${WORK:-$(mktemp -d)}; mkdir -p "$work"
cores=$(nproc)
N_BIG=${N_BIG:-1000000}; N_PFAM=${N_PFAM:-100000}; PFAM_MODELS=${PFAM_MODELS:-360}
DENSITY=${DENSITY:-0.001}; SEED=${SEED:-20261207}
opts=(--cpu "$cores"); [ "${BENCH_NOALI:-0}" = 1 ] && opts+=(--noali)
rows=(); more=(); status=0
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }'; }
fail() { echo "MISMATCH: $*" | tee -a "$logs/mismatch.txt"; status=1; }
have_time=0; [ -x /usr/bin/time ] && have_time=1

# Runs a command, timed; sets t (seconds), rss (peak KiB of its largest
# process, or -) and gpu_mib (peak GPU memory used during it, or -).
timed() {
    local log=$1; shift
    local sampler= gpu_log=$work/gpu.samples
    : > "$gpu_log"
    if command -v nvidia-smi > /dev/null 2>&1; then
        ( while :; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits >> "$gpu_log" 2> /dev/null; sleep 0.2; done ) &
        sampler=$!
    fi
    local a b rc
    a=$(now)
    if [ $have_time = 1 ]; then /usr/bin/time -f 'maxrss_kib %M' -o "$work/rss" "$@" 2> "$log"; rc=$?
    else "$@" 2> "$log"; rc=$?; fi
    b=$(now)
    [ -z "$sampler" ] || { kill "$sampler" 2> /dev/null; wait "$sampler" 2> /dev/null; }
    t=$(elapsed "$a" "$b")
    rss=-; [ $have_time = 1 ] && rss=$(awk '$1 == "maxrss_kib" { printf "%.0f", $2 / 1024 }' "$work/rss")
    # (with several GPUs: the sum over them of each sample)
    gpu_mib=$(awk 'NF { s[NR] = $1 } END { m = "-"; for (i in s) if (m == "-" || s[i] + 0 > m) m = s[i] + 0; print m }' "$gpu_log")
    return $rc
}

table_rows() { grep -v '^#' "$1"; }
main_rows() { grep -av '^#' "$1" | sed '/^Internal pipeline statistics summary/,/^\/\//d'; }
compare() {  # WORKLOAD SUFFIX
    local w=$1 s=$2
    cmp -s <(table_rows "$work/h.tbl") <(table_rows "$work/$s.tbl") || fail "$w --tblout differs ($s)"
    cmp -s <(table_rows "$work/h.dom") <(table_rows "$work/$s.dom") || fail "$w --domtblout differs ($s)"
    cmp -s <(main_rows "$work/h.out") <(main_rows "$work/$s.out") || fail "$w main output differs ($s)"
}

make_db() {  # N FILE
    [ -s "$2" ] && return
    local a b
    a=$(now)
    BIN=$BIN bash "$here/make-hmmer-db.sh" "$MODELS/nine.hmm" "$1" "$SEED" "$DENSITY" > "$2" || { echo "cannot make $2" >&2; exit 2; }
    b=$(now)
    echo "$(basename "$2"): $(grep -c '>' "$2") targets, $(grep -v '>' "$2" | tr -d '\n' | wc -c) residues, made in $(elapsed "$a" "$b") s"
}

for w in $workloads; do
    case $w in
    pkinase) hmm=$MODELS/Pkinase.hmm; db=$work/db-$N_BIG.fa; make_db "$N_BIG" "$db" ;;
    nine)    hmm=$MODELS/nine.hmm; db=$work/db-$N_BIG.fa; make_db "$N_BIG" "$db" ;;
    pfam)    hmm=$logs/pfam-like-$PFAM_MODELS.hmm
             if [ ! -s "$hmm" ]; then
                 a=$(now); bash "$here/make-pfam-like.sh" "$hmm" "$PFAM_MODELS" 1 "$MODELS/nine.hmm" || exit 2; b=$(now)
                 echo "pfam-like models made in $(elapsed "$a" "$b") s"
             fi
             db=$work/db-$N_PFAM.fa; make_db "$N_PFAM" "$db" ;;
    *) echo "unknown workload $w (pkinase, nine, pfam)" >&2; exit 1 ;;
    esac
    nmod=$(grep -c '^HMMER' "$hmm"); M=$(awk '$1 == "LENG" { s += $2 } END { print s }' "$hmm")
    ntg=$(grep -c '>' "$db")
    cat "$db" > /dev/null  # the same page-cache state for every program

    timed "$logs/hmmsearch-$w.log" hmmsearch "${opts[@]}" -o "$work/h.out" --tblout "$work/h.tbl" --domtblout "$work/h.dom" "$hmm" "$db" \
        || fail "hmmsearch failed on $w"
    t_h=$t; rss_h=$rss
    timed "$logs/gpu-hmmsearch-$w.log" env WARPDP_TIMES=1 WARPDP_DEVICE="${GPU_DEVICE:-auto}" gpu-hmmsearch "${opts[@]}" -o "$work/g.out" --tblout "$work/g.tbl" \
        --domtblout "$work/g.dom" "$hmm" "$db" || fail "gpu-hmmsearch failed on $w"
    t_g=$t; rss_g=$rss; gpu_g=$gpu_mib
    compare "$w" g
    # "gpu-hmmsearch: filters done after X s, all done after Y s"
    read -r t_filt t_all < <(sed -n 's/.*filters done after \([0-9.]*\) s, all done after \([0-9.]*\) s.*/\1 \2/p' \
        "$logs/gpu-hmmsearch-$w.log" | tail -1)
    t_after=$(awk -v a="${t_filt:-0}" -v b="${t_all:-0}" 'BEGIN { printf "%.2f", b - a }')
    for dev in ${MORE_DEVICES:-}; do
        timed "$logs/gpu-hmmsearch-$w-$dev.log" env WARPDP_TIMES=1 WARPDP_DEVICE="$dev" gpu-hmmsearch "${opts[@]}" -o "$work/d.out" \
            --tblout "$work/d.tbl" --domtblout "$work/d.dom" "$hmm" "$db" || fail "gpu-hmmsearch ($dev) failed on $w"
        compare "$w" d
        more+=("$(printf '%-8s WARPDP_DEVICE=%-5s %8s s (%s against hmmsearch), peak RSS %s MiB, GPU %s MiB; %s' "$w" "$dev" "$t" \
            "$(ratio "$t_h" "$t")" "$rss" "$gpu_mib" "$(grep -h 'last stage on' "$logs/gpu-hmmsearch-$w-$dev.log" | tail -1)")")
    done
    t_c=-; r_c=-
    if [ "${BENCH_CPU:-1}" = 1 ]; then
        timed "$logs/cpu-engines-$w.log" env WARPDP_DEVICE=cpu gpu-hmmsearch "${opts[@]}" -o "$work/c.out" --tblout "$work/c.tbl" \
            --domtblout "$work/c.dom" "$hmm" "$db" || fail "gpu-hmmsearch (CPU engines) failed on $w"
        t_c=$t; r_c=$(ratio "$t_h" "$t_c")
        compare "$w" c
    fi
    hits=$(grep -vc '^#' "$work/h.tbl"); doms=$(grep -vc '^#' "$work/h.dom")
    cp "$work/h.tbl" "$logs/hmmsearch-$w.tbl"
    rows+=("$(printf '%-8s %6s %7s %8s %7s %8s %10s %8s %7s %8s %8s %9s %8s %7s %9s %8s' "$w" "$nmod" "$M" "$ntg" "$hits" "$doms" \
        "$t_h" "$t_g" "$(ratio "$t_h" "$t_g")" "${t_filt:--}" "$t_after" "$t_c" "$r_c" "$rss_h" "$rss_g" "$gpu_g")")
done

echo
echo "== hmmsearch ${opts[*]} against gpu-hmmsearch, same options and host; seconds, MiB =="
echo "(filters / after: gpu-hmmsearch's own clock, WARPDP_TIMES=1; cpu-eng: WARPDP_DEVICE=cpu)"
printf '%-8s %6s %7s %8s %7s %8s %10s %8s %7s %8s %8s %9s %8s %7s %9s %8s\n' workload models sumM targets hits domains \
    hmmsearch gpu ratio filters after cpu-eng cpu/hs "hs-RSS" "gpu-RSS" "GPU-MiB"
printf '%s\n' "${rows[@]}"
[ ${#more[@]} -eq 0 ] || printf '%s\n' "${more[@]}"
[ -f "$logs/mismatch.txt" ] && cat "$logs/mismatch.txt"
exit $status

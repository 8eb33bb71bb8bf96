#!/usr/bin/env bash
# gpu-hmmsearch: hmmsearch with its MSV, bias, Viterbi and Forward filters run
# by gpu-viterbi (GPU when one is visible, else CPU). Takes
# hmmsearch's own command line; the hit tables and the main output equal
# plain hmmsearch's (only the pipeline statistics and a few header lines
# differ), because the filter survivors are re-searched with
# `hmmsearch -Z <number of targets>`, one run per model, each reading its
# model's survivors as the filters find them (serial runs, --cpu 0 or 1:
# without -Z, the survivors in place; see below).
#   gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa
# Environment: WARPDP_DEVICE (--device of the filters, default auto),
# WARPDP_THREADS (default: all cores), HMMSEARCH (default: hmmsearch),
# WARPDP_TIMES=1 (stage wall times on stderr), WARPDP_TRACE=1 (a timeline of
# events on stderr, these and gpu-viterbi's: core/base/trace.hpp), WARPDP_FORWARD=0 (leave the
# Forward filter to hmmsearch), WARPDP_SPREAD (runs per model, see --spread),
# WARPDP_FINAL_JOBS (concurrent
# final hmmsearch runs, one model each; default: one per model, at most one
# per core).
set -euo pipefail
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
hmmsearch=${HMMSEARCH:-hmmsearch}
die() { echo "gpu-hmmsearch: error: $1" >&2; exit "${2:-1}"; }
trace_event() { [ -z "${WARPDP_TRACE:-}" ] || echo "warpdp-trace $EPOCHREALTIME $1 ${2:-0}" >&2; }
trace_event wrapper-start

for a in "$@"; do [ "$a" != -h ] || exec "$hmmsearch" -h; done
F1=0.02 F2=0.001 F3=1e-5 nobias=() have_Z=0 plain_only=0 cpu= cutoff=
main_out= tbl_out= dom_out= splittable=1
args=()      # every option, for a single final hmmsearch
pass_args=() # the options but -o/--tblout/--domtblout/--cpu, for one run per model
takes_value=" -o -A --tblout --domtblout --pfamtblout -E -T --domE --domT --incE --incT --incdomE --incdomT --F1 --F2 --F3 -Z --domZ --seed --tformat --cpu --textw --ssifile --restrictdb_n --restrictdb_stkey "
# hmmsearch's other spellings (Easel's getopts) made plain for the loop
# below, which must see every option the filters or the stitching depend on:
# --opt=value, an unambiguous abbreviation of a long option (--nob), a value
# glued to a one-letter option (-Z1000). An abbreviation that is ambiguous or
# unknown goes on as it is, for hmmsearch to refuse.
long_opts=(--tblout --domtblout --pfamtblout --acc --noali --notextw --textw --domE --domT --incE --incT --incdomE
           --incdomT --cut_ga --cut_nc --cut_tc --max --F1 --F2 --F3 --nobias --nonull2 --domZ --seed --tformat --cpu
           --ssifile --restrictdb_n --restrictdb_stkey)
plain=()
while [ $# -gt 2 ]; do
    a=$1; shift
    case "$a" in
        --?*)
            name=${a%%=*} match=
            for o in "${long_opts[@]}"; do [ "$o" != "$name" ] || match=$o; done
            if [ -z "$match" ]; then
                for o in "${long_opts[@]}"; do
                    [[ "$o" != "$name"* ]] || { [ -z "$match" ] && match=$o || match=ambiguous; }
                done
            fi
            [ -z "$match" ] || [ "$match" = ambiguous ] || name=$match
            plain+=("$name")
            if [[ "$a" == *=* ]]; then plain+=("${a#*=}")
            elif [[ "$takes_value" == *" $name "* ]] && [ $# -gt 2 ]; then plain+=("$1"); shift; fi ;;
        --) [ $# -eq 2 ] || plain+=("$a") ;;  # (the end of the options, before the two files)
        -[oAETZ]?*) plain+=("${a:0:2}" "${a:2}") ;;
        -[oAETZ]) plain+=("$a"); [ $# -le 2 ] || { plain+=("$1"); shift; } ;;
        *) plain+=("$a") ;;
    esac
done
set -- "${plain[@]}" "$@"
once() { [ -z "$1" ] || die "option $opt has already been set"; }  # (as hmmsearch refuses a repeat)
while [ $# -gt 2 ]; do
    opt=$1; shift
    args+=("$opt")
    case "$opt" in
        --max|--restrictdb_n|--restrictdb_stkey|--ssifile) plain_only=1 ;;
        --nobias) nobias=(--nobias) ;;
        --cut_ga|--cut_tc|--cut_nc) cutoff=${opt#--cut_} ;;
        -h) exec "$hmmsearch" -h ;;
    esac
    if [[ "$takes_value" == *" $opt "* ]]; then
        [ $# -gt 2 ] || die "option $opt needs a value"
        val=$1; shift
        args+=("$val")
        case "$opt" in
            --F1) F1=$val ;;
            --F2) F2=$val ;;
            --F3) F3=$val ;;
            -Z) have_Z=1 ;;
            --cpu) once "$cpu" && cpu=$val; continue ;;
            -o) once "$main_out" && main_out=$val; continue ;;
            --tblout) once "$tbl_out" && tbl_out=$val; continue ;;
            --domtblout) once "$dom_out" && dom_out=$val; continue ;;
            -A|--pfamtblout) splittable=0 ;;
            --tformat) [ "${val,,}" = fasta ] || die "--tformat $val: gpu-hmmsearch reads FASTA targets only" ;;
        esac
        pass_args+=("$opt" "$val")
    else
        pass_args+=("$opt")
    fi
done
[ $# -eq 2 ] || die "usage: gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa"
whole() { [[ $2 =~ ^[0-9]+$ ]] || die "$1 $2: expected a whole number"; }
[ -z "$cpu" ] || whole --cpu "$cpu"
[ -z "${WARPDP_FINAL_JOBS:-}" ] || whole WARPDP_FINAL_JOBS "$WARPDP_FINAL_JOBS"
[ -z "${WARPDP_SPREAD:-}" ] || whole WARPDP_SPREAD "$WARPDP_SPREAD"
[ -z "${WARPDP_THREADS:-}" ] || whole WARPDP_THREADS "$WARPDP_THREADS"
hmm=$1 db=$2
[ "$db" != "-" ] || die "targets must be a file (they are read twice)"
# An output on an input or on another output would replace it (plain
# hmmsearch truncates the very database it then reads): refused before any
# work. Existing devices and FIFOs are written in place, and may be shared.
same_file() { [ "$1" -ef "$2" ] || [ "$(realpath -m -- "$1")" = "$(realpath -m -- "$2")" ]; }
outs_named=(-o "$main_out" --tblout "$tbl_out" --domtblout "$dom_out")
for ((i = 1; i < 6; i += 2)); do
    o=${outs_named[i]}
    [ -n "$o" ] && [ "$o" != - ] && ! { [ -e "$o" ] && [ ! -f "$o" ]; } || continue
    for in in "$hmm" "$db"; do
        [ "$in" = - ] || ! same_file "$o" "$in" || die "${outs_named[i - 1]} $o is an input: writing it would replace it"
    done
    for ((j = 1; j < i; j += 2)); do
        [ -z "${outs_named[j]}" ] || ! same_file "$o" "${outs_named[j]}" ||
            die "${outs_named[j - 1]} and ${outs_named[i - 1]} both name $o: one output would replace the other"
    done
done
if [ $plain_only = 1 ]; then
    # --max turns every filter off: there is nothing to accelerate; the
    # --restrictdb options pick targets by their place in the database,
    # which the survivors file does not keep.
    exec "$hmmsearch" "${args[@]}" "$hmm" "$db"
fi

declare -A live=()  # pid -> what runs there: gpu-viterbi or a model's number (stopped if we die)
declare -A runs=()  # the hmmsearch runs among them
tmp=
trap 'for pid in "${!live[@]}"; do kill "$pid" 2> /dev/null || true; done; [ -z "$tmp" ] || rm -rf "$tmp"' EXIT
# Stopped by a signal, the wrapper stops what it started (the EXIT trap).
trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP; trap 'exit 131' QUIT; trap 'exit 142' ALRM
trap 'exit 138' USR1; trap 'exit 140' USR2; trap 'exit 152' XCPU
tmp=$(mktemp -d)
hmm_named=$hmm  # as the user named it, for the outputs' headers
if [ "$hmm" = - ] || { [ -e "$hmm" ] && [ ! -f "$hmm" ]; }; then  # stdin, a FIFO, <(...): read once,
    # and the models are read more than once: keep a copy
    if [ "$hmm" = - ]; then cat; else cat -- "$hmm"; fi > "$tmp/query.hmm" || die "cannot read the models from $hmm_named"
    hmm=$tmp/query.hmm
fi
# hmmsearch also reads HMMER2 text and hmmpress'd binary models, which the
# filters do not: those (and a file that is no model at all, for hmmsearch
# to say so) get plain hmmsearch, with its results and without the filters.
plain_hmmsearch() {  # $1: why, for the warning (the models from stdin go there again)
    echo "gpu-hmmsearch: warning: $1: running plain hmmsearch" >&2
    local rc=0
    if [ "$hmm_named" = - ]; then "$hmmsearch" "${args[@]}" - "$db" < "$hmm" || rc=$?
    else "$hmmsearch" "${args[@]}" "$hmm" "$db" || rc=$?; fi
    exit $rc
}
[ "$(gzip -cdf -- "$hmm" 2> /dev/null | head -c 7 | tr -d '\0' || true)" = HMMER3/ ] ||
    plain_hmmsearch "$hmm_named is not a HMMER3 text model file (HMMER2? pressed binary?)"
common=(--device "${WARPDP_DEVICE:-auto}" --threads "${WARPDP_THREADS:-0}" --quiet)
# The models one per file, for the final runs, and their numbers longest
# model first (the order the runs start in).
# (Also to files of their own: the alphabet of any model that is not amino,
# and the name of the first model without the thresholds --cut_* asks for.)
mapfile -t order < <(gzip -cdf "$hmm" | WDP_D=$tmp WDP_CUT=${cutoff^^} awk '
    BEGIN { d = ENVIRON["WDP_D"]; cut = ENVIRON["WDP_CUT"] }
    /^HMMER/ { f = sprintf("%s/model.%d.hmm", d, ++n); has_cut = 0 }
    n { print > f } n && $1 == "LENG" { print $2, n } n && $1 == "NAME" { name = $2 }
    n && $1 == "ALPH" && tolower($2) != "amino" { print $2 > (d "/non-amino") }
    n && cut != "" && $1 == cut { has_cut = 1 }
    n && cut != "" && $1 == "HMM" && !has_cut && !lacking { lacking = 1; print name > (d "/lacking-cutoff") }' |
    sort -k1,1nr -k2,2n | cut -d' ' -f2)
nmodels=${#order[@]}
# The filters score amino models against protein targets; hmmsearch also
# searches DNA or RNA targets with nucleotide models: those get plain
# hmmsearch, with its results and without the filters.
[ ! -s "$tmp/non-amino" ] ||
    plain_hmmsearch "$hmm_named holds $(head -n 1 "$tmp/non-amino") models, and the filters score amino models only"
# hmmsearch stops at the first model without the bit thresholds that
# --cut_ga/--cut_tc/--cut_nc ask for, after the results of the models before
# it; here the outputs appear whole or not at all, so that model is named
# before any work.
[ ! -s "$tmp/lacking-cutoff" ] || die "${cutoff^^} bit thresholds unavailable on model $(head -n 1 "$tmp/lacking-cutoff")"
# Threads change what hmmsearch prints only in the weak hits it keeps unseen,
# which size its name columns (below): without --cpu, use every core.
cores=${cpu:-$(nproc)}; [ "$cores" -ge 1 ] || cores=1
[ -n "$cpu" ] || args+=(--cpu "$cores")
jobs=${WARPDP_FINAL_JOBS:-$(( nmodels < cores ? nmodels : cores ))}; [ "$jobs" -ge 1 ] || jobs=1
t_start=$EPOCHREALTIME t_filters=
# The MSV, bias, Viterbi and Forward filters in one process (the same
# decisions as `gpu-msv | gpu-viterbi --candidates - --forward`, with one
# database read): hmmsearch then meets only the Forward passers, and its
# work is their Backward and domain stages. hmmsearch hands its threads
# blocks of 1,000 records, so a few hundred survivors would keep one thread
# busy: --spread cuts each model's survivors into runs of equal expected
# work, two per thread, topped up with empty records (core/hmmer/pipeline/survivors_file.hpp
# says why hmmsearch's output cannot change; fewer runs leave threads idle,
# more cost more in reading empty records than they gain: docs/benchmarks.md).
#
# hmmsearch is exact to the byte only without -Z: it keeps a hit when its
# E-value is reportable against the number of targets read *so far* (with
# threads: by the worker that read it), and sizes its name columns over every
# kept hit, reported or not; with -Z every hit is judged against the whole
# database, so a long-named weak hit early in the file is not kept and a
# column is narrower (audits found it on ordinary data, serial and threaded).
# So the survivors go in place (--in-place: each at its record number, an
# empty record for every other target) to a run without -Z, which reads the
# records as the plain run reads them: serial runs (--cpu 0 or 1) count as
# the plain run counts, and threaded runs are dealt the same blocks of
# records (1,000 each), whatever the number of threads: a database of one
# block is exact. Which worker takes which block of several depends on
# timing and on the number of threads, in plain hmmsearch too, so there a
# threaded run is exact only as often as plain hmmsearch repeats itself;
# and reading the empty records costs a threaded run 15-25% on 1M targets
# (docs/benchmarks.md). So threaded runs on a database file over 64 MiB take
# -Z and all the cores' speed; on smaller ones the empty records cost at
# most a few milliseconds.
in_place_bytes=$((64 << 20))
forward=(--forward --F3 "$F3"); [ "${WARPDP_FORWARD:-1}" = 1 ] || forward=()
in_place=0
if { [ -n "$cpu" ] && [ "$cpu" -le 1 ]; } || [ "$(stat -L -c %s -- "$db" 2> /dev/null || echo 0)" -le $in_place_bytes ]; then
    in_place=1
fi
layout=(--spread "${WARPDP_SPREAD:-$((2 * cores))}"); [ $in_place = 0 ] || layout=(--in-place)
filters_cmd=("$here/gpu-viterbi" --hmm "$hmm" --db "$db" --msv --F1 "$F1" "${nobias[@]}" --F2 "$F2" "${forward[@]}"
             "${layout[@]}" --stats "$tmp/vit.json" "${common[@]}")

# The final search runs one hmmsearch per model, concurrently, longest models
# first: each query's results are independent of the others' (Z is fixed by
# -Z, domZ is per query), and one run over all models would search them one
# after another, each ending with a tail in which a few threads work. Their
# outputs are stitched in model order: the first run's header (naming the
# user's model file), every run's query blocks and rows, the first run's
# footer. (-A and --pfamtblout are not stitched: then one run.)
launch_part() {  # model number, its targets, [nice level]
    local p=$tmp/model.$1 outs=(-o "$tmp/model.$1.out")
    [ -z "$tbl_out" ] || outs+=(--tblout "$p.tbl")
    [ -z "$dom_out" ] || outs+=(--domtblout "$p.dom")
    # (with -o, hmmsearch's stdout carries only its complaints about options)
    nice -n "${3:-0}" "$hmmsearch" "${zopt[@]}" "${pass_args[@]}" --cpu "${cpu:-$cores}" "${outs[@]}" "$p.hmm" "$2" \
        > "$p.err" 2>&1 &
    live[$!]=$1; runs[$!]=$1
    trace_event final-start "$1"
}
failure_reason() {  # $1: a failed hmmsearch's output, $2: its exit status
    local why; why=$(grep -m 2 . "$1" | paste -sd ' ' || true)
    [ -n "$why" ] || [ "$2" -le 128 ] || why="killed by signal $(($2 - 128)) ($(kill -l $(($2 - 128)) 2> /dev/null || echo '?'))"
    echo "${why:-no message}"
}
reap() {  # waits for one of the given runs (default: all in `live`); the first failure stops everything
    local rc=0 pid
    wait -n -p pid "${@:-${!live[@]}}" 2> /dev/null || rc=$?  # (no job notice from bash: the message below says it)
    local what=${live[$pid]}; unset "live[$pid]" "runs[$pid]"
    trace_event "${what/#[0-9]*/final}-end" "${what//[!0-9]/}"
    [ "$what" != gpu-viterbi ] || t_filters=${t_filters:-$EPOCHREALTIME}
    [ $rc = 0 ] && return
    [ "$what" = gpu-viterbi ] && die "the filters failed (gpu-viterbi exit status $rc)" $(( rc < 128 ? rc : 4 ))
    # (its first two lines: "Fatal exception (source file ..., line ...):" then the reason)
    die "hmmsearch failed (exit status $rc) on model $what of $hmm_named: $(failure_reason "$tmp/model.$what.err" $rc)" \
        $(( rc < 128 ? rc : 4 ))
}
# The user's file names reach awk through the environment: `awk -v` would
# expand the backslash escapes in them.
names_for_awk() { export WDP_Q=$hmm_named WDP_T=$db WDP_O=$main_out WDP_TB=$tbl_out WDP_DM=$dom_out; }
awk_names='BEGIN { q = ENVIRON["WDP_Q"]; t = ENVIRON["WDP_T"]; o = ENVIRON["WDP_O"]; tb = ENVIRON["WDP_TB"]; dm = ENVIRON["WDP_DM"] }'
stitch_main() {  # the header names the user's files, as plain hmmsearch's does
    local -x LC_ALL=C  # (bytes as they are: names need not be UTF-8)
    names_for_awk
    awk "$awk_names"' /^Query:/ { exit }
        match($0, /^# query HMM file: */) { print substr($0, 1, RLENGTH) q; next }
        match($0, /^# target sequence database: */) { print substr($0, 1, RLENGTH) t; next }
        match($0, /^# output directed to file: */) { if (o != "") print substr($0, 1, RLENGTH) o; next }
        match($0, /^# per-seq hits tabular output: */) { print substr($0, 1, RLENGTH) tb; next }
        match($0, /^# per-dom hits tabular output: */) { print substr($0, 1, RLENGTH) dm; next }
        { print }' "$tmp/model.1.out"
    for ((i = 1; i <= nmodels; i++)); do awk '/^Query:/ { p = 1 } /^\[ok\]/ { p = 0 } p' "$tmp/model.$i.out"; done
    echo "[ok]"
}
# $1 = tbl|dom: the first run's column header (hmmsearch writes three lines),
# every run's rows (after its header, up to the lone "#" that opens its
# footer: a row itself starts with "#" when the target's name does), the
# first run's footer.
stitch_table() {
    local -x LC_ALL=C  # (bytes as they are: names need not be UTF-8)
    names_for_awk
    head -n 3 "$tmp/model.1.$1"
    for ((i = 1; i <= nmodels; i++)); do awk 'NR > 3 && /^#$/ { exit } NR > 3' "$tmp/model.$i.$1"; done
    awk "$awk_names"' /^#$/ { seen = 1 } !seen { next }
        match($0, /^# Query file: */) { print substr($0, 1, RLENGTH) q; next }
        match($0, /^# Target file: */) { print substr($0, 1, RLENGTH) t; next }
        { print }' "$tmp/model.1.$1"
}
# Each output appears whole or not at all, and all of them or none: each
# regular file is stitched into a temporary beside it, and only once all are
# stitched are they renamed into place. Stdout, a device, a pipe or a symlink
# is written through (as the tools' OutputFile does: renaming over
# /dev/stdout would replace the link), after the files.
through() { [ -z "$1" ] || [ "$1" = "-" ] || [ -L "$1" ] || { [ -e "$1" ] && [ ! -f "$1" ]; }; }
deliver_all() {
    local outs=("$main_out" "$tbl_out" "$dom_out") how=(stitch_main "stitch_table tbl" "stitch_table dom")
    local tmps=() i
    for i in 0 1 2; do
        { [ $i = 0 ] || [ -n "${outs[$i]}" ]; } && ! through "${outs[$i]}" || continue
        tmps[$i]=${outs[$i]}.warpdp-$$
        { ${how[$i]} > "${tmps[$i]}"; } 2> /dev/null || { rm -f -- "${tmps[@]}"; die "cannot write ${outs[$i]}" 3; }
    done
    for i in "${!tmps[@]}"; do
        mv -f -- "${tmps[$i]}" "${outs[$i]}" || { rm -f -- "${tmps[@]}"; die "cannot write ${outs[$i]}" 3; }
    done
    for i in 0 1 2; do
        { [ $i = 0 ] || [ -n "${outs[$i]}" ]; } && through "${outs[$i]}" || continue
        # (in a subshell, which a closed pipe ends: a reader that stopped
        # early, as `| head` does, has what it wanted, and we end quietly, as
        # the tools do)
        local rc=0 to=${outs[$i]:--}
        if [ "$to" = "-" ]; then ( ${how[$i]} ) 2> /dev/null || rc=$?; else ( ${how[$i]} > "$to" ) 2> /dev/null || rc=$?; fi
        [ $rc != 141 ] || exit 0
        [ $rc = 0 ] || die "cannot write ${to/#-/stdout}" 3
    done
}
reported() {  # $1: a whole-number key of gpu-viterbi's --stats (no process started: every one costs milliseconds)
    local line
    while IFS= read -r line; do
        if [[ $line =~ ^\ *\"$1\":\ *([0-9]+) ]]; then echo "${BASH_REMATCH[1]}"; fi
    done < "$tmp/vit.json"
}
# hmmsearch stops at the first target over 100,000 residues, whatever its
# score; the filters score it, and a final run only meets it if it survives.
refuse_overlong() {
    local n; n=$(reported targets_over_100k)
    [ "${n:-0}" = 0 ] || die "$db holds $n target(s) longer than 100,000 residues, which hmmsearch refuses (\"Target sequence length > 100K, over comparison pipeline limit\")" 2
}

# hmmsearch checks its options before it reads a target, and refuses some
# values only there (-E 0, --textw 50, ...): a run on the first model and
# one empty target checks them beside the filters, and one it refuses stops
# the filters (their pid: $1) instead of failing the first final run after
# the whole filter stage. (-A and --pfamtblout write to /dev/null there.)
start_preflight() {
    local a=() i
    for ((i = 0; i < ${#pass_args[@]}; i++)); do
        a+=("${pass_args[i]}")
        case "${pass_args[i]}" in -A|--pfamtblout) a+=(/dev/null); i=$((i + 1)) ;; esac
    done
    printf '>warpdp-preflight\n' > "$tmp/preflight.fa"
    { "$hmmsearch" "${a[@]}" --cpu 0 -o /dev/null "$tmp/model.1.hmm" "$tmp/preflight.fa" > "$tmp/preflight.err" 2>&1 ||
        { prc=$?; kill "$1" 2> /dev/null; exit $prc; }; } 2> /dev/null &
    preflight=$!
}
check_preflight() {
    local rc=0
    wait "$preflight" || rc=$?
    [ $rc != 0 ] || return 0
    [ $rc -le 128 ] || die "hmmsearch failed (exit status $rc) checking the options: $(failure_reason "$tmp/preflight.err" $rc)" 4
    die "hmmsearch refuses the options: $(failure_reason "$tmp/preflight.err" $rc)" $rc
}

rc=0
fasta_db() { [ "$(gzip -cdf "$db" 2> /dev/null | head -c 1 || true)" = ">" ]; }
if [ $splittable = 1 ] && [ "$nmodels" -ge 2 ] && [ "$nmodels" -le "$jobs" ] && fasta_db; then
    # Every model has its run from the start, and the runs search while the
    # filters still run: gpu-viterbi writes each model's survivors, chunk by
    # chunk, into a FIFO that model's hmmsearch reads. -Z must be known
    # before: the records are counted here, and gpu-viterbi's count must agree
    # (so only for FASTA; other input takes the path below). Measured on 1M
    # sequences, 16 cores: nine models 2.30-2.39 s -> 2.06-2.27 s; for one
    # model the runs' competition for the cores made the filters slower
    # (Pkinase 0.46-0.55 s -> 0.54-0.62 s), so one model takes the path below.
    mkdir "$tmp/s"
    for ((i = 1; i <= nmodels; i++)); do mkfifo "$tmp/s/$i.fa"; done
    "${filters_cmd[@]}" --model-survivors "$tmp/s" > /dev/null &
    live[$!]=gpu-viterbi
    start_preflight $!
    if [ $have_Z = 1 ] || [ $in_place = 1 ]; then zopt=(); else Z=$(gzip -cdf "$db" | LC_ALL=C grep -c '^>' || true); zopt=(-Z "$Z"); fi
    check_preflight
    if [ "${Z:-1}" = 0 ]; then  # nothing to search: gpu-viterbi says why
        while [ ${#live[@]} -gt 0 ]; do reap; done
        die "no sequences in $db" 2
    fi
    # The filters come first: the runs take the cores they leave idle.
    for i in "${order[@]}"; do launch_part "$i" "$tmp/s/$i.fa" "${WARPDP_FINAL_NICE:-10}"; done
    while [ ${#live[@]} -gt 0 ]; do reap; done
    refuse_overlong
    [ ${#zopt[@]} = 0 ] || [ "$(reported Z)" = "$Z" ] ||
        die "the database holds $(reported Z) records for gpu-viterbi but $Z lines start with '>'" 4
    deliver_all
else
    # The survivors of all models in one file, then the final search.
    # gpu-viterbi closes its stdout as soon as its files are complete, before
    # it frees its engines (~0.1 s): the search starts at that end of file.
    # The FIFO's ends are opened here, before gpu-viterbi starts with the
    # write end: opening a FIFO blocks until its other end is open, and a
    # gpu-viterbi stopped before its own open (by the options check) would
    # leave a reader waiting for ever.
    mkfifo "$tmp/rows"
    exec {both}<> "$tmp/rows"  # (a reader and a writer at once: the next two opens do not wait)
    exec {write_end}> "$tmp/rows" {read_end}< "$tmp/rows" {both}>&-
    "${filters_cmd[@]}" --survivors "$tmp/targets.fa" >&$write_end {read_end}<&- &
    filters=$!
    exec {write_end}>&-  # gpu-viterbi's is now the only write end: its close is the end of file
    live[$filters]=gpu-viterbi
    start_preflight $filters
    # (in the background: bash runs a signal's trap only once its foreground command ends)
    cat <&$read_end > /dev/null &
    wait $! || true
    exec {read_end}<&-
    check_preflight
    if [ ! -s "$tmp/vit.json" ]; then
        wait $filters || rc=$?
        die "the filters failed (gpu-viterbi exit status $rc)" $(( rc > 0 && rc < 128 ? rc : 4 ))
    fi
    live[$filters]=gpu-viterbi
    renice -n 19 -p $filters > /dev/null 2>&1 || true  # its teardown must not slow hmmsearch down
    t_filters=$EPOCHREALTIME
    trace_event filters-out
    Z=$(reported Z)
    [ -n "$Z" ] || die "gpu-viterbi did not report the database size" 4
    refuse_overlong
    zopt=(-Z "$Z"); [ $have_Z = 0 ] && [ $in_place = 0 ] || zopt=()
    # hmmsearch refuses an empty file, and skips empty targets.
    [ -s "$tmp/targets.fa" ] || echo ">warpdp-empty" > "$tmp/targets.fa"
    if [ $splittable = 0 ]; then  # (its header names the survivors' file)
        set +e
        "$hmmsearch" "${zopt[@]}" "${args[@]}" "$hmm" "$tmp/targets.fa"
        rc=$?
        set -e
        while [ ${#live[@]} -gt 0 ]; do reap; done
    else
        # (gpu-viterbi may still be freeing its engines: the outputs need
        # only the runs)
        for i in "${order[@]}"; do
            launch_part "$i" "$tmp/targets.fa"
            [ ${#runs[@]} -lt "$jobs" ] || reap "${!runs[@]}"
        done
        while [ ${#runs[@]} -gt 0 ]; do reap "${!runs[@]}"; done
        deliver_all
        # Nor is the end of that teardown waited for (Pkinase on 1M
        # sequences: 30 ms after the outputs): gpu-viterbi commits its
        # survivors and --stats before it closes its stdout, and writes
        # --stats only when it succeeds, so its work here is done.
        unset "live[$filters]"
    fi
fi
trace_event wrapper-end
if [ -n "${WARPDP_TIMES:-}" ]; then
    awk -v a="$t_start" -v b="${t_filters:-$t_start}" -v c="$EPOCHREALTIME" 'BEGIN {
        printf "gpu-hmmsearch: filters done after %.3f s, all done after %.3f s\n", b - a, c - a }' >&2
fi
exit $rc

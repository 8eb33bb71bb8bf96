#!/usr/bin/env bash
# gpu-hmmsearch's five outputs equal Debian's hmmsearch 3.3.2's byte for byte:
# the main output (alignments included), --tblout, --domtblout, -A and
# --pfamtblout, both programs run with the same arguments in the same
# directory. The only lines allowed to differ are those that name the
# program, the command or the timings (docs/hmmer-filters.md §14.3), and
# only their values: the line must be there, at the same place, in both.
# Covered: single- and multi-model files (M = 1 to 1,142), serial and
# threaded runs, the options that change what is reported, and generated
# databases with many multi-domain hits (repeats, fused pairs) and targets
# at the length limits (1 and 100,000 residues, domains flush with the ends).
#
# gpu-hmmsearch runs the stages after the filters itself; the same runs
# with WARPDP_LAST_STAGE=hmmsearch take the fallback, hmmsearch on the
# survivors, whose statistics count that run's targets: there the residue
# count and the MSV, bias and Viterbi pass counts are masked too.
source "$(dirname "$0")/lib.sh"
export LC_ALL=C
BIN=$(cd "$1" && pwd)
ROOT=$(cd "$ORACLE_DIR/../.." && pwd)
need hmmsearch hmmemit hmmconvert hmmbuild "$BIN/gpu-hmmsearch" "$BIN/gpu-viterbi" "$BIN/make_hmmer_db"
seed=$(oracle_seed)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# ---- models ----
for m in globins4 fn3 Pkinase RRM_1 2OG-FeII_Oxy_3 Caudal_act LuxC Patched SMC_N M1 XYPPX 20aa; do
    model_file "$m" "$tmp" > /dev/null
done
join_models() { local out=$1; shift; for m in "$@"; do hmmconvert "$m.hmm"; done > "$out"; }  # one format version per file
cp "$ROOT/examples/data/tutorial3.hmm" three.hmm                # globins4, fn3, Pkinase as shipped
join_models four.hmm globins4 fn3 Pkinase RRM_1
join_models ga.hmm fn3 Pkinase RRM_1 2OG-FeII_Oxy_3              # every one has GA
join_models nine.hmm fn3 globins4 Pkinase RRM_1 2OG-FeII_Oxy_3 Caudal_act LuxC Patched SMC_N
join_models small.hmm M1 XYPPX 20aa                               # M = 1, 5, 20
# A model of M = 2,345: hmmbuild on hmmemit alignments of SMC_N, Patched and
# LuxC joined row by row (hmmemit writes blocks; the RF row marks match
# columns, which hmmbuild --hand keeps).
emit_rows() {  # MODEL SEED: 8 aligned rows, then the RF row
    hmmemit -a -N 8 --seed "$2" "$1.hmm" |
        awk '/^#=GC RF/ { rf = rf $3 } NF == 2 && !/^#/ { if (!($1 in at)) at[$1] = ++n; row[at[$1]] = row[at[$1]] $2 }
             END { for (i = 1; i <= n; i++) print row[i]; print rf }'
}
paste -d '' <(emit_rows SMC_N $((seed % 1000 + 1))) <(emit_rows Patched $((seed % 1000 + 2))) <(emit_rows LuxC $((seed % 1000 + 3))) |
    awk 'BEGIN { print "# STOCKHOLM 1.0\n" } { r[NR] = $0 }
         END { for (i = 1; i < NR; i++) printf "s%d %s\n", i, r[i]; printf "#=GC RF %s\n//\n", r[NR] }' > big.sto
hmmbuild --hand --amino -n big -o /dev/null big.hmm big.sto
echo "big.hmm: M = $(awk '$1 == "LENG" { print $2 }' big.hmm)"

# ---- databases (each under 1,000 records: hmmsearch deals its threads
# blocks of 1,000, and on one block its output does not depend on the
# threads, so there is one answer to compare with; docs/hmmer-filters.md §9.3)
# The example targets: odd residues, lower case, an empty record. Gzip'd
# for one model (hmmsearch reads a gzip file with one model only).
cp "$ROOT/examples/data/targets.fa.gz" targets.fa.gz && gzip -dc targets.fa.gz > targets.fa
# Many multi-domain hits: 3% of the targets per model carry its samples
# (hmmemit, core and -p fragments), 70% of those as repeats of up to 6 or
# fused pairs; records of 1, 2, 99,999 and 100,000 residues (hmmsearch's
# limit), random and with domains flush with both ends.
BIN=$BIN bash "$ROOT/bench/make-hmmer-db.sh" four.hmm 700 "$seed" 0.03 --multi 0.7 --repeat-max 6 \
    --edge 1,2,99999,100000 > multi.fa
BIN=$BIN bash "$ROOT/bench/make-hmmer-db.sh" nine.hmm 450 $((seed + 1)) 0.02 --multi 0.5 > nine.fa
BIN=$BIN bash "$ROOT/bench/make-hmmer-db.sh" small.hmm 300 $((seed + 2)) 0.05 --multi 0.5 > small.fa
BIN=$BIN bash "$ROOT/bench/make-hmmer-db.sh" big.hmm 150 $((seed + 3)) 0.05 --multi 0.4 > big.fa
for db in multi nine small big; do echo "$db.fa: $(grep -c '>' $db.fa) targets"; done

# ---- masking: the lines that may differ, by output kind ----
mask() {  # KIND FILE [fallback]: the file with the allowed values replaced by <masked>
    local kind=$1 file=$2 fallback=0
    [ "${3:-}" = fallback ] && fallback=1
    case $kind in
    out)  # the banner (the lines before the first rule) names the program; timings in each query's statistics
        awk -v fallback="$fallback" '
            NR == 1 { head = 1 }
            head && /^# - - - / { head = 0 }
            head { print "# <masked>"; next }
            /^Internal pipeline statistics summary:$/ { stats = 1 }
            stats && /^\/\/$/ { stats = 0 }
            stats && /^# CPU time: / { print "# CPU time: <masked>"; next }
            stats && /^# Mc\/sec: / { print "# Mc/sec: <masked>"; next }
            stats && fallback && /^Target sequences: / { match($0, /^[^0-9]*[0-9]+/); print substr($0, 1, RLENGTH) " <masked>"; next }
            stats && fallback && /^Passed (MSV|bias|Vit) filter: / { print substr($0, 1, index($0, ":")) " <masked>"; next }
            { print }' "$file" ;;
    tbl)  # the footer (from the last lone "#"): program, version, command, date
        awk -v n="$(grep -n '^#$' "$file" | tail -1 | cut -d: -f1)" '
            NR >= n + 0 && n != "" && /^# (Program|Version|Option settings|Date): / {
                print substr($0, 1, index($0, ":")) " <masked>"; next }
            { print }' "$file" ;;
    sto)  # each alignment's header names the program
        awk '/^#=GF AU / { print "#=GF AU <masked>"; next } { print }' "$file" ;;
    esac
}

checks=0
same() {  # LABEL KIND [fallback]: h/o.KIND and g/o.KIND agree but for the masked values
    local label=$1 kind=$2 ext=$2
    case $kind in dom|pfam) kind=tbl ;; esac
    checks=$((checks + 1))
    if [ ! -f "h/o.$ext" ] || [ ! -f "g/o.$ext" ]; then
        echo "FAIL $label $ext: missing (hmmsearch: $(ls h/o.$ext 2>&1 | head -1); gpu-hmmsearch: $(ls g/o.$ext 2>&1 | head -1))"
        fail=$((fail + 1)); return
    fi
    if ! cmp -s <(mask "$kind" "h/o.$ext" "${3:-}") <(mask "$kind" "g/o.$ext" "${3:-}"); then
        echo "FAIL $label $ext differs (< hmmsearch, > gpu-hmmsearch):"
        diff <(mask "$kind" "h/o.$ext" "${3:-}") <(mask "$kind" "g/o.$ext" "${3:-}") | head -20
        fail=$((fail + 1))
    fi
}

# run MODELS DB OPTIONS...: both programs, the same command line
# in the same directory, outputs moved aside after each; then every output
# compared. -A is left out for the example targets, where hmmsearch itself aborts
# (docs/hmmer-filters.md §9.4).
cases=0
run() {
    local hmm=$1 db=$2; shift 2
    local outs=(-o o.out --tblout o.tbl --domtblout o.dom --pfamtblout o.pfam) kinds="out tbl dom pfam" plain=
    [[ "$db" = targets.fa* ]] || { outs+=(-A o.sto); kinds="$kinds sto"; }
    [ "${WARPDP_LAST_STAGE:-warpdp}" = warpdp ] || plain=fallback
    local label="$hmm $db [$*]"
    rm -rf h g o.*; mkdir h g
    # STDOUT=1: the main output goes to stdout (no -o)
    [ "${STDOUT:-0}" = 0 ] || outs=("${outs[@]:2}")
    hmmsearch "$@" "${outs[@]}" "$hmm" "$db" > o.stdout 2> h.err; local rc_h=$?
    [ "${STDOUT:-0}" = 0 ] || mv o.stdout o.out
    mv o.* h/ 2> /dev/null
    "$BIN/gpu-hmmsearch" "$@" "${outs[@]}" "$hmm" "$db" > o.stdout 2> g.err; local rc_g=$?
    [ "${STDOUT:-0}" = 0 ] || mv o.stdout o.out
    mv o.* g/ 2> /dev/null
    cases=$((cases + 1))
    check_eq "$label exit status" "$rc_g" "$rc_h"
    [ "$rc_h" = 0 ] || { echo "  hmmsearch: $(head -2 h.err)"; return; }
    check_eq "$label has hits" "$(grep -vc '^#' h/o.tbl | awk '{ print ($1 > 0) }')" 1
    for k in $kinds; do same "$label" "$k" $plain; done
}
set +e  # (failures are counted, not fatal)

# Multi-model files, default thread count, and the example targets.
run three.hmm targets.fa
run globins4.hmm targets.fa.gz --cpu 0 --acc
# The multi-domain database: serial, one worker, threaded.
run four.hmm multi.fa --cpu 0
run four.hmm multi.fa --cpu 1
run four.hmm multi.fa --cpu 2
# The data cover what they claim: hits, many targets with several domains
# reported, and a hit on a 100,000-residue target.
check_eq "multi.fa: targets with hits" "$(grep -vc '^#' h/o.tbl | awk '{ print ($1 >= 20) }')" 1
multi_hits=$(awk '!/^#/ && $17 > 1' h/o.tbl | wc -l)  # column 17: domains reported
check_eq "multi.fa: targets with 2+ domains reported ($multi_hits)" "$(( multi_hits >= 10 ))" 1
# (whether the domains at the ends of the 100,000-residue record are found
# depends on the samples drawn, short fragments are not: a note, not a check)
[ "$(awk '!/^#/ && $1 == "edge_dom_L100000"' h/o.tbl | wc -l)" -gt 0 ] ||
    echo "note: no hit on the 100,000-residue record with this seed"
run fn3.hmm multi.fa --cpu 2
# Options that change what is reported or how it is shown.
run four.hmm multi.fa --cpu 2 --acc --notextw
run four.hmm multi.fa --cpu 2 --textw 120 --noali
run four.hmm multi.fa --cpu 2 -E 1e-3 --domE 1e-2
run four.hmm multi.fa --cpu 2 -T 15 --domT 12
run four.hmm multi.fa --cpu 2 --incE 1e-8 --incdomE 1e-4
run four.hmm multi.fa --cpu 2 --incT 30 --incdomT 20
run ga.hmm multi.fa --cpu 2 --cut_ga
run four.hmm multi.fa --cpu 2 -Z 1000000 --domZ 500
run four.hmm multi.fa --cpu 0 --nobias --nonull2
run four.hmm multi.fa --cpu 2 --seed 7
run four.hmm multi.fa --cpu 2 --max
# Nine models (M up to 1,142), and tiny models (M = 1, 5, 20).
run nine.hmm nine.fa --cpu 2
run small.hmm small.fa --cpu 2 -E 100 --domE 100
run big.hmm big.fa --cpu 2
# Every target through every stage, everything reported (weak domains and
# their alignments too), and the main output on stdout.
run four.hmm small.fa --cpu 2 --F1 1 --F2 1 --F3 1 -E 1e30 --domE 1e30
STDOUT=1 run three.hmm nine.fa --cpu 0
# The fallback (hmmsearch on the survivors) stays an oracle of its own.
WARPDP_LAST_STAGE=hmmsearch run four.hmm multi.fa --cpu 0
WARPDP_LAST_STAGE=hmmsearch run three.hmm targets.fa --cpu 2 -E 1e-3

echo "hmmsearch outputs: $cases runs, $checks files compared, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# gpu-nw-dist's default output is byte-identical to AmpliconNoise's NDist and
# SeqDist (Debian ampliconnoise 1.29; docs/nw-dist.md §1-§4), with and
# without -i, on --device cpu and on the default device:
#  (a) a fresh random subset of BioMarKs 18S reads (lowercase as shipped for
#      NDist, upper-cased for SeqDist, which reads only upper-case ACGT);
#  (b) synthetic 454-like reads from make_amplicon_reads (homopolymer indels,
#      substitutions, multi-line records; N, R and lowercase for NDist);
#  (c) hand-made edge cases (empty record, length-1 read, identical reads,
#      lowercase, '-', multi-line, a line cut by 'K', CRLF, spaces/tabs in a
#      header, fgets' 65,536-byte line pieces);
#  and SeqDist's four shipped substitution tables (-rin = --lookup, and
#  $SEQ_LOOKUP_FILE without either), and
#  --strict on clean input;
# and its own invariants:
#  (d) --tile k/N for N = 1..5 and random --rows slices concatenate to the
#      whole output in every format (ndist with and without -i, tsv, jsonl,
#      phylip, binary); tsv carries the ndist values; --max-dist filters tsv;
#  (e) --threads 1 and --threads 2 give identical output.
# The oracles run in the background (2 cores) while the cheap checks run.
source "$(dirname "$0")/lib.sh"
set +e  # failures are counted, not fatal
BIN=$1
TOOL=$BIN/gpu-nw-dist
MAKE_READS=$BIN/make_amplicon_reads
BIOMARKS=/usr/share/doc/vsearch-examples/BioMarKs50k.fsa.gz
need NDist SeqDist "$TOOL" "$MAKE_READS"
unset SEQ_LOOKUP_FILE  # SeqDist's (and gpu-nw-dist's) default table when set; used below on purpose only
seed=$(oracle_seed)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

# NDist/SeqDist are MPI programs; without a working MPI runtime they do not start.
printf '>a\nACGT\n>b\nACGA\n' > "$tmp/probe.fa"
if ! NDist -in "$tmp/probe.fa" > "$tmp/probe.out" 2>&1 || [ "$(head -1 "$tmp/probe.out")" != 2 ]; then
    echo "skipped: NDist does not run here (openmpi-bin missing?): $(head -3 "$tmp/probe.out")"; exit 77
fi

checks=0
same() {  # name got-file want-file
    checks=$((checks + 1))
    if ! cmp -s "$2" "$3"; then
        fail=$((fail + 1))
        echo "FAIL $1: $(cmp "$2" "$3" 2>&1 | head -1)"
        diff <(cat -A "$2") <(cat -A "$3") | head -6 | sed 's/^/    /'
    fi
}
upper_seqs() { awk '/^>/ { print; next } { print toupper($0) }'; }

# ---- input files ----------------------------------------------------------------
# (a) BioMarKs: from a random record offset, each record with probability 1/20,
# until 170 (NDist) are taken; SeqDist (5x slower) gets the first 80 of them.
n_bio=0
if [ -f "$BIOMARKS" ]; then
    { zcat "$BIOMARKS" || true; } | awk -v seed="$seed" -v want=170 '
        BEGIN { srand(seed); first = int(rand() * (50000 - 30 * want)) }
        /^>/ { rec++; take = rec > first && rand() < 0.05 && got < want; if (take) got++ }
        take' > "$tmp/bio.fa"
    awk '/^>/ { n++ } n <= 80' "$tmp/bio.fa" | upper_seqs > "$tmp/bio_up.fa"
    n_bio=$(grep -c '>' "$tmp/bio.fa")
    echo "BioMarKs: $n_bio reads for NDist, $(grep -c '>' "$tmp/bio_up.fa") for SeqDist"
else
    echo "note: $BIOMARKS missing, part (a) skipped"
fi

# (b) synthetic: N/R + multi-line + homopolymer indels (+ a lowercase part) for
# NDist; plain upper-case ACGT for SeqDist.
"$MAKE_READS" --n 55 --length 300 --sd 70 --seed "$seed" --species 3 --wrap 60 --hp 0.08 --ambig > "$tmp/syn.fa"
"$MAKE_READS" --n 15 --length 250 --sd 40 --seed $((seed + 1)) --species 2 --wrap 0 --lower --ambig |
    sed 's/^>r/>low/' >> "$tmp/syn.fa"
"$MAKE_READS" --n 55 --length 280 --sd 60 --seed $((seed + 2)) --species 3 --wrap 70 --hp 0.08 > "$tmp/syn_sd.fa"

# (c) edge cases: one file for both metrics (SeqDist cuts its lines at N, '-'
# and lowercase, which yields empty reads and -nan), an all-lowercase file, a
# single read, two identical reads, and fgets' 65,536-byte pieces.
{
    printf '>empty\n'
    printf '>one\nA\n'
    printf '>sp header with spaces\tand a tab\nACGTACGTTTGACCAGGT\n'
    printf '>same\nACGTACGTTTGACCAGGT\n'
    printf '>low\nacgtacgtttgaccaggt\n'
    printf '>mixed\nACGTacgtTTTGACcaggT\n'
    printf '>dash\nACGT-ACGTTTG-ACCAGG\n'
    printf '>multi\nACGTAC\nGTTTG\nACCAGGT\n'
    printf '>cutK\nACGTAKGGTTTCCAAA\nACGTTT\n'
    printf '>crlf\r\nACGTACG\r\nTTTGACCAGGT\r\n'
    printf '>nry\nACNGTRACGTTYGAUCCAGG\n'
    printf '>tab\tx\nACGTACGTT\n'
    printf '>sp2 \nACGTTTTGACCAGGTTTTT\n'
    printf '>emptylines\n\nACGTACG\n\nTTTGACC\n'
    printf '>dot\nACGT.ACGT\nN\n'
    printf '>last\n'; head -c 2000 /dev/zero | tr '\0' 'A'; printf 'CGT\n'
} > "$tmp/edge.fa"
printf '>a\nacgtacgt\n>b\nacgtt\n>c\nggacgt\n' > "$tmp/lower.fa"
printf '>only\nACGTACGT\n' > "$tmp/single.fa"
printf '>x\nACGTTGCA\n>y\nACGTTGCA\n>z\nACGTTGCA\n' > "$tmp/ident.fa"
{   # a 70,000-letter line with 'K' in its first 65,535-byte piece (the rest of
    # that piece is dropped, the next piece is kept), then a short read
    printf '>long\n'
    awk 'BEGIN { srand(7); for (i = 0; i < 70000; i++) printf "%s", (i == 100 ? "K" : substr("ACGT", int(rand() * 4) + 1, 1)); print "" }'
    printf '>short\nACGTACGTACGTAAA\n>short2\nACGTTTTACGA\n'
} > "$tmp/longline.fa"

LUT_DIR=/usr/share/ampliconnoise/Data
awk '/^>/ { n++ } n <= 20' "$tmp/syn_sd.fa" > "$tmp/lut.fa"

# ---- oracles in the background --------------------------------------------------
# SeqDist's value for a pair of two empty reads is not defined: its loop over
# the free trailing moves reads its zero-length alignment buffer, so about one
# run in 70 prints 0 / -k = -0 instead of 0 / 0 = -nan (found by an audit;
# a pair with one empty read is 15, always). A true distance is never -0
# (SeqDist's sums start from +0, and the shipped tables' costs are >= 0),
# so -0 is read as -nan.
seqdist_defined() { sed 's/^-0\.00000000e+00$/-nan/'; }
oracle() {  # tool file name: writes $tmp/NAME.want (-i) and NAME.want_noi
    local tool=$1 f=$2 name=$3 n
    # An MPI program's start can fail for reasons of its own (another MPI job
    # starting beside it on a loaded machine): tried twice, its error shown.
    if ! "$tool" -in "$f" -i 2> "$tmp/$name.oracle_err" > "$tmp/$name.raw"; then
        sleep 1
        "$tool" -in "$f" -i 2> "$tmp/$name.oracle_err" > "$tmp/$name.raw" ||
            { echo "oracle $tool failed on $f:"; head -5 "$tmp/$name.oracle_err"; } >&2
    fi
    if [ "$tool" = SeqDist ]; then seqdist_defined < "$tmp/$name.raw"; else cat "$tmp/$name.raw"; fi > "$tmp/$name.want"
    n=$(head -1 "$tmp/$name.want")
    # without -i the id block is simply absent (checked directly on the small sets)
    awk -v n="$n" 'NR == 1 || NR > n + 1' "$tmp/$name.want" > "$tmp/$name.want_noi"
}
(
    [ "$n_bio" -gt 0 ] && oracle SeqDist "$tmp/bio_up.fa" bio_sd
    true
) & pid_sd=$!
(
    [ "$n_bio" -gt 0 ] && oracle NDist "$tmp/bio.fa" bio_nd
    for m in nd sd; do
        tool=NDist; [ $m = sd ] && tool=SeqDist
        f=syn; [ $m = sd ] && f=syn_sd
        oracle $tool "$tmp/$f.fa" ${f}_$m
        for e in edge lower single ident longline; do oracle $tool "$tmp/$e.fa" ${e}_$m; done
        if [ $m = sd ]; then  # the other shipped substitution tables (-rin / --lookup)
            for t in Tran TranN Tran_D Tran_V6; do
                SeqDist -in "$tmp/lut.fa" -rin "$LUT_DIR/$t.dat" > "$tmp/lut_$t.want" 2> /dev/null
            done
            # without -rin SeqDist takes the table $SEQ_LOOKUP_FILE names
            SEQ_LOOKUP_FILE=$LUT_DIR/Tran_V6.dat SeqDist -in "$tmp/lut.fa" > "$tmp/lut_env.want" 2> /dev/null
        fi
        # real runs without -i on the small sets, to check the derivation above
        for e in edge ident; do
            $tool -in "$tmp/$e.fa" 2> /dev/null | if [ $m = sd ]; then seqdist_defined; else cat; fi > "$tmp/${e}_$m.direct_noi"
        done
    done
    true
) & pid_nd=$!

# ---- (d) slices, (e) threads: no oracle needed -------------------------------
fmt_opts() {  # format name -> options
    case $1 in ndist-i) echo "--format ndist -i" ;; *) echo "--format $1" ;; esac
}
# on the first 30 (ndist) or 22 (seqdist) synthetic reads, to keep the ~300 runs short
awk '/^>/ { n++ } n <= 30' "$tmp/syn.fa" > "$tmp/slice_nd.fa"
awk '/^>/ { n++ } n <= 22' "$tmp/syn_sd.fa" > "$tmp/slice_sd.fa"
for metric in ndist seqdist; do
    f=$tmp/slice_nd.fa; [ $metric = seqdist ] && f=$tmp/slice_sd.fa
    n=$(grep -c '>' "$f")
    for fmt in ndist ndist-i tsv jsonl phylip binary; do
        # shellcheck disable=SC2046
        "$TOOL" --in "$f" --metric $metric $(fmt_opts $fmt) --device cpu --quiet > "$tmp/full" 2> "$tmp/err" ||
            { echo "FAIL $metric $fmt: exit $?: $(head -2 "$tmp/err")"; fail=$((fail + 1)); }
        for N in 1 2 3 4 5; do
            : > "$tmp/cat"
            for k in $(seq 1 $N); do
                "$TOOL" --in "$f" --metric $metric $(fmt_opts $fmt) --device cpu --quiet --tile $k/$N >> "$tmp/cat" 2> "$tmp/err" ||
                    echo "FAIL $metric $fmt --tile $k/$N: exit $?: $(head -2 "$tmp/err")"
            done
            same "$metric $fmt: --tile k/$N concatenated" "$tmp/cat" "$tmp/full"
        done
        # random --rows cuts (an empty slice 1:1 and a slice holding only row 0 included)
        cuts=$(awk -v s="$seed" -v n="$n" 'BEGIN { srand(s); print 0, 1, 1; for (i = 0; i < 4; i++) print 1 + int(rand() * n); print n }' |
               tr ' ' '\n' | sort -n | tr '\n' ' ')
        : > "$tmp/cat"; prev=
        for c in $cuts; do
            if [ -n "$prev" ]; then
                "$TOOL" --in "$f" --metric $metric $(fmt_opts $fmt) --device cpu --quiet --rows $prev:$c >> "$tmp/cat" 2> "$tmp/err" ||
                    echo "FAIL $metric $fmt --rows $prev:$c: exit $?: $(head -2 "$tmp/err")"
            fi
            prev=$c
        done
        same "$metric $fmt: --rows slices at $cuts concatenated" "$tmp/cat" "$tmp/full"
        cp "$tmp/full" "$tmp/$metric.$fmt"
    done
    # tsv = the ndist values with ids; jsonl has one line per pair
    pairs=$((n * (n - 1) / 2))
    tail -n +2 "$tmp/$metric.ndist" > "$tmp/v.nd"; tail -n +2 "$tmp/$metric.tsv" | cut -f3 > "$tmp/v.tsv"
    same "$metric: tsv distances = ndist values" "$tmp/v.tsv" "$tmp/v.nd"
    checks=$((checks + 1))
    if [ "$(head -1 "$tmp/$metric.tsv")" != $'#id_i\tid_j\tdistance' ] || [ "$(grep -c . "$tmp/$metric.jsonl")" != $pairs ] ||
       [ "$(tail -n +2 "$tmp/$metric.tsv" | grep -c .)" != $pairs ]; then
        echo "FAIL $metric: tsv header or tsv/jsonl line counts (want $pairs pairs)"; fail=$((fail + 1))
    fi
    # binary: 24-byte header + 8 bytes per pair
    checks=$((checks + 1))
    if [ "$(stat -c %s "$tmp/$metric.binary")" != $((24 + 8 * pairs)) ]; then
        echo "FAIL $metric: binary size $(stat -c %s "$tmp/$metric.binary"), want $((24 + 8 * pairs))"; fail=$((fail + 1))
    fi
    # --max-dist D keeps exactly the tsv rows with distance <= D
    # (D halfway between two adjacent distinct printed values, so that the
    # 9-digit rounding of the printed values cannot move a pair across D)
    D=$(tail -n +2 "$tmp/$metric.tsv" | cut -f3 | sort -gu | awk '{ v[NR] = $1 } END { k = int(NR / 3); printf "%.17g", (v[k] + v[k + 1]) / 2 }')
    "$TOOL" --in "$f" --metric $metric --format tsv --max-dist "$D" --device cpu --quiet > "$tmp/got"
    awk -F'\t' -v d="$D" 'NR == 1 || $3 + 0 <= d + 0' "$tmp/$metric.tsv" > "$tmp/want"
    same "$metric: --format tsv --max-dist $D" "$tmp/got" "$tmp/want"
    # (e) threads
    "$TOOL" --in "$f" --metric $metric --device cpu --threads 1 --quiet > "$tmp/t1"
    "$TOOL" --in "$f" --metric $metric --device cpu --threads 2 --quiet > "$tmp/t2"
    same "$metric: --threads 1 vs 2" "$tmp/t1" "$tmp/t2"
    same "$metric: --threads 2 vs default" "$tmp/t2" "$tmp/$metric.ndist"
done
# Tiles on matrices without cells: one read, three identical reads, and
# lowercase reads for seqdist (empty reads, all -nan); more tiles than rows.
for t in single:ndist ident:ndist lower:seqdist lower:ndist; do
    f=$tmp/${t%%:*}.fa; metric=${t#*:}
    for fmt in ndist-i tsv binary; do
        "$TOOL" --in "$f" --metric $metric $(fmt_opts $fmt) --device cpu --quiet > "$tmp/full"
        for N in 2 5; do
            for k in $(seq 1 $N); do "$TOOL" --in "$f" --metric $metric $(fmt_opts $fmt) --device cpu --quiet --tile $k/$N; done > "$tmp/cat"
            same "${t%%:*}.fa $metric $fmt: --tile k/$N concatenated" "$tmp/cat" "$tmp/full"
        done
    done
done
# An empty slice holds no row, so not row 0 either: it writes nothing.
for fmt in ndist-i tsv phylip binary; do
    "$TOOL" --in "$tmp/ident.fa" $(fmt_opts $fmt) --device cpu --quiet --rows 0:0 > "$tmp/got"
    same "ident.fa $fmt: --rows 0:0 writes nothing" "$tmp/got" /dev/null
done
echo "slices and threads done at $((SECONDS - start)) s"

# ---- (a)-(c): byte-identical to NDist/SeqDist ------------------------------------
# Without a visible GPU the default device is the CPU: then one default-device
# run (-i) per file suffices.
gpus=$("$TOOL" --version | sed -n 's/^visible GPUs: //p')
echo "visible GPUs: ${gpus:-?}"
compare() {  # file name metric
    local f=$1 name=$2 metric=$3 dev ids
    for dev in cpu default; do
        for ids in -i none; do
            [ $dev = default ] && [ $ids = none ] && [ "$gpus" = 0 ] && continue
            local opt=(--in "$f" --metric "$metric" --quiet)
            [ $dev = cpu ] && opt+=(--device cpu)
            [ $ids = -i ] && opt+=(-i)
            if ! "$TOOL" "${opt[@]}" > "$tmp/got" 2> "$tmp/err"; then
                echo "FAIL $name ($metric, device $dev, $ids): exit code, stderr: $(head -2 "$tmp/err")"; fail=$((fail + 1))
            fi
            local want=$tmp/$name.want; [ $ids = none ] && want=$tmp/$name.want_noi
            same "$name ($metric, device $dev, ids $ids) vs ${metric^^}" "$tmp/got" "$want"
        done
    done
}
wait $pid_nd
echo "NDist and small SeqDist oracles done at $((SECONDS - start)) s"
for m in nd sd; do
    for e in edge ident; do same "oracle ${e}_$m: derived no-id output = real run" "$tmp/${e}_$m.want_noi" "$tmp/${e}_$m.direct_noi"; done
done
[ "$n_bio" -gt 0 ] && compare "$tmp/bio.fa" bio_nd ndist
compare "$tmp/syn.fa" syn_nd ndist
compare "$tmp/syn_sd.fa" syn_sd_sd seqdist
for e in edge lower single ident longline; do
    compare "$tmp/$e.fa" ${e}_nd ndist
    compare "$tmp/$e.fa" ${e}_sd seqdist
done
for t in Tran TranN Tran_D Tran_V6; do
    "$TOOL" --in "$tmp/lut.fa" --metric seqdist --lookup "$LUT_DIR/$t.dat" --device cpu --quiet > "$tmp/got"
    same "lut.fa seqdist --lookup $t.dat vs SeqDist -rin" "$tmp/got" "$tmp/lut_$t.want"
done
SEQ_LOOKUP_FILE=$LUT_DIR/Tran_V6.dat "$TOOL" --in "$tmp/lut.fa" --metric seqdist --device cpu --quiet > "$tmp/got"
same "lut.fa seqdist with SEQ_LOOKUP_FILE=Tran_V6.dat vs SeqDist" "$tmp/got" "$tmp/lut_env.want"
checks=$((checks + 1))
if cmp -s "$tmp/lut_env.want" "$tmp/lut_Tran.want"; then echo "FAIL Tran_V6.dat and Tran.dat gave the same matrix"; fail=$((fail + 1)); fi
# --strict reads clean input exactly as compat mode does
"$TOOL" --in "$tmp/syn.fa" --strict --device cpu --quiet -i > "$tmp/got"
same "syn.fa ndist --strict vs NDist" "$tmp/got" "$tmp/syn_nd.want"
"$TOOL" --in "$tmp/syn_sd.fa" --metric seqdist --strict --device cpu --quiet -i > "$tmp/got"
same "syn_sd.fa seqdist --strict vs SeqDist" "$tmp/got" "$tmp/syn_sd_sd.want"
checks=$((checks + 1))
if ! grep -q -- '-nan' "$tmp/lower_sd.want"; then echo "FAIL SeqDist on lowercase reads gave no -nan"; fail=$((fail + 1)); fi
# (e) on the real reads too
if [ "$n_bio" -gt 0 ]; then
    "$TOOL" --in "$tmp/bio.fa" --device cpu --threads 1 --quiet > "$tmp/t1"
    same "BioMarKs ndist: --threads 1 vs NDist" "$tmp/t1" "$tmp/bio_nd.want_noi"
fi
wait $pid_sd
echo "SeqDist oracle done at $((SECONDS - start)) s"
[ "$n_bio" -gt 0 ] && compare "$tmp/bio_up.fa" bio_sd seqdist

echo "nw-dist oracle: $((checks - fail)) of $checks checks passed ($((SECONDS - start)) s)"
[ $fail -eq 0 ]

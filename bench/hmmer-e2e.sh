#!/usr/bin/env bash
# End-to-end benchmark of gpu-msv and the gpu-hmmsearch pipeline against
# Debian's hmmsearch 3.3.2 on the same host, in one run, with the results
# compared as they are timed:
#   - a synthetic database (default 1,000,000 sequences, lognormal lengths
#     around 350, Swiss-Prot composition, hmmemit homologs of every model
#     mixed in, in shuffled order), made by make_protein_db;
#   - for Pkinase alone and for the 9-model file: hmmsearch --cpu <all cores>,
#     gpu-msv on the GPU and on the CPU engine (their outputs must be
#     identical, and their Passed MSV/bias counts equal hmmsearch's), and
#     gpu-hmmsearch (its --tblout/--domtblout must equal hmmsearch's);
#   - Pkinase again on the database gzip-compressed (E2E_GZIP=0: not).
# Prints a table of wall times and ratios last; "final" is the pipeline's
# last stage alone (its hmmsearch runs on survivors ready in files) and
# "ceiling" hmmsearch's time over it: what no faster filter could exceed.
#   hmmer-e2e.sh BIN_DIR MODELS_DIR [N_SEQUENCES]
# BIN_DIR holds gpu-msv, gpu-viterbi, gpu-hmmsearch, make_protein_db and
# (if not on PATH) hmmsearch and hmmemit; MODELS_DIR holds Pkinase.hmm and
# nine.hmm. Logs go to $OUT (or ./e2e-logs).
set -uo pipefail
BIN=$(cd "$1" && pwd); MODELS=$(cd "$2" && pwd); N=${3:-1000000}
export PATH=$BIN:$PATH
logs=${OUT:-$PWD/e2e-logs}; mkdir -p "$logs"
work=${WORK:-$(mktemp -d)}
cores=$(nproc)
# With several GPUs, the tools also run on the first alone: their outputs
# must not depend on how many GPUs there are.
gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU' || true)
rows=(); vrows=(); grows=(); status=0
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }'; }
fail() { echo "MISMATCH: $*" | tee -a "$logs/mismatch.txt"; status=1; }

t0=$(now)
hmmemit -N 300 -p -L 350 --seed 7 "$MODELS/nine.hmm" > "$work/homologs.fa" 2> "$logs/hmmemit.log"
# E2E_GROUPED=1: each model's homologs together, as hmmemit writes them (the
# costliest families then sit in the database's last part: the worst case
# for a pipeline that searches survivors while the filters run).
make_protein_db "$N" 42 "$work/homologs.fa" ${E2E_GROUPED:+grouped} > "$work/db.fa"
t1=$(now)
nseq=$(grep -c '>' "$work/db.fa"); nres=$(grep -v '>' "$work/db.fa" | tr -d '\n' | wc -c)
echo "database: $nseq sequences, $nres residues, homologs $([ -n "${E2E_GROUPED:-}" ] && echo grouped by model || echo shuffled), made in $(elapsed "$t0" "$t1") s"

for set in Pkinase nine; do
    hmm=$MODELS/$set.hmm
    M=$(awk '$1 == "LENG" { s += $2 } END { print s }' "$hmm")
    cat "$work/db.fa" > /dev/null  # same page-cache state for everyone

    a=$(now); hmmsearch --cpu "$cores" --noali -o "$work/h.out" --tblout "$work/h.tbl" --domtblout "$work/h.dom" "$hmm" "$work/db.fa"; b=$(now)
    t_h=$(elapsed "$a" "$b")

    a=$(now); gpu-msv --hmm "$hmm" --db "$work/db.fa" --device "${E2E_DEVICE:-cuda}" --stats "$logs/msv-gpu-$set.json" > "$work/msv-gpu.tsv" 2> "$logs/msv-gpu-$set.log"; rc=$?; b=$(now)
    t_g=$(elapsed "$a" "$b"); [ $rc = 0 ] || fail "gpu-msv cuda rc=$rc on $set"
    a=$(now); gpu-msv --hmm "$hmm" --db "$work/db.fa" --device cpu --stats "$logs/msv-cpu-$set.json" > "$work/msv-cpu.tsv" 2> "$logs/msv-cpu-$set.log"; b=$(now)
    t_c=$(elapsed "$a" "$b")
    cmp -s "$work/msv-gpu.tsv" "$work/msv-cpu.tsv" || fail "gpu-msv GPU and CPU outputs differ on $set"
    want=$(awk '$1 == "Passed" && ($2 == "MSV" || $2 == "bias") { print $4 }' "$work/h.out" | tr '\n' ' ')
    got=$(grep -E '"passed_(msv|bias)"' "$logs/msv-gpu-$set.json" | tr -dc '0-9\n' | tr '\n' ' ')
    [ "$want" = "$got" ] || fail "$set Passed MSV/bias counts: gpu-msv [$got] hmmsearch [$want]"
    gcups=$(grep -m1 GCUPS "$logs/msv-gpu-$set.log" | sed 's/.*, \([0-9.]*\) GCUPS.*/\1/')

    # gpu-viterbi on the candidate stream, GPU and CPU engines: same rows.
    a=$(now); gpu-viterbi --hmm "$hmm" --db "$work/db.fa" --candidates "$work/msv-gpu.tsv" --forward --device "${E2E_DEVICE:-cuda}" > "$work/vit-gpu.tsv" 2> "$logs/vit-gpu-$set.log"; rc=$?; b=$(now)
    t_vg=$(elapsed "$a" "$b"); [ $rc = 0 ] || fail "gpu-viterbi cuda rc=$rc on $set"
    a=$(now); gpu-viterbi --hmm "$hmm" --db "$work/db.fa" --candidates "$work/msv-gpu.tsv" --forward --device cpu > "$work/vit-cpu.tsv" 2> "$logs/vit-cpu-$set.log"; b=$(now)
    t_vc=$(elapsed "$a" "$b")
    cmp -s "$work/vit-gpu.tsv" "$work/vit-cpu.tsv" || fail "gpu-viterbi GPU and CPU outputs differ on $set"
    want=$(awk '$1 == "Passed" && $2 == "Vit" { print $4 }' "$work/h.out" | tr '\n' ' ')
    got=$(grep -o 'passed Vit [0-9]*' "$logs/vit-gpu-$set.log" | awk '{ print $3 }' | tr '\n' ' ')
    [ "$want" = "$got" ] || fail "$set Passed Vit counts: gpu-viterbi [$got] hmmsearch [$want]"
    want=$(awk '$1 == "Passed" && $2 == "Fwd" { print $4 }' "$work/h.out" | tr '\n' ' ')
    got=$(grep -o 'passed Fwd [0-9]*' "$logs/vit-gpu-$set.log" | awk '{ print $3 }' | tr '\n' ' ')
    [ "$want" = "$got" ] || fail "$set Passed Fwd counts: gpu-viterbi [$got] hmmsearch [$want]"
    vrows+=("$(printf '%-8s %9s %9s' "$set" "$t_vg" "$t_vc")")
    if [ "${gpus:-0}" -gt 1 ]; then
        CUDA_VISIBLE_DEVICES=0 gpu-msv --hmm "$hmm" --db "$work/db.fa" --device cuda > "$work/msv-gpu1.tsv" 2>> "$logs/one-gpu-$set.log"
        cmp -s "$work/msv-gpu.tsv" "$work/msv-gpu1.tsv" || fail "gpu-msv on one GPU and on $gpus GPUs differ on $set"
        CUDA_VISIBLE_DEVICES=0 gpu-viterbi --hmm "$hmm" --db "$work/db.fa" --candidates "$work/msv-gpu.tsv" --forward \
            --device cuda > "$work/vit-gpu1.tsv" 2>> "$logs/one-gpu-$set.log"
        cmp -s "$work/vit-gpu.tsv" "$work/vit-gpu1.tsv" || fail "gpu-viterbi on one GPU and on $gpus GPUs differ on $set"
        a=$(now); CUDA_VISIBLE_DEVICES=0 gpu-hmmsearch --cpu "$cores" --noali -o "$work/g1.out" --tblout "$work/g1.tbl" \
            --domtblout "$work/g1.dom" "$hmm" "$work/db.fa" 2>> "$logs/one-gpu-$set.log"; b=$(now)
        for t in tbl dom; do
            diff -q <(grep -v '^#' "$work/h.$t") <(grep -v '^#' "$work/g1.$t") > /dev/null || fail "$set --${t}out differs (one GPU)"
        done
        grows+=("$(printf '%-8s %9s %9s' "$set" "$(elapsed "$a" "$b")" "$(ratio "$t_h" "$(elapsed "$a" "$b")")")")
    fi

    a=$(now); gpu-hmmsearch --cpu "$cores" --noali -o "$work/g.out" --tblout "$work/g.tbl" --domtblout "$work/g.dom" "$hmm" "$work/db.fa" 2> "$logs/pipe-$set.log"; rc=$?; b=$(now)
    t_p=$(elapsed "$a" "$b"); [ $rc = 0 ] || fail "gpu-hmmsearch rc=$rc on $set"
    for t in tbl dom; do
        diff -q <(grep -v '^#' "$work/h.$t") <(grep -v '^#' "$work/g.$t") > /dev/null || fail "$set --${t}out differs"
    done
    # The final stage alone: the per-model hmmsearch runs the pipeline makes,
    # on its survivors ready in files, all at once. However fast the filters,
    # the pipeline cannot beat this, so hmmsearch / final is its ceiling.
    rm -rf "$work/s" && mkdir "$work/s"
    gpu-viterbi --hmm "$hmm" --db "$work/db.fa" --msv --forward --spread $((2 * cores)) --model-survivors "$work/s" \
        --device "${E2E_DEVICE:-cuda}" --quiet > /dev/null 2>> "$logs/final-$set.log" || fail "gpu-viterbi --model-survivors on $set"
    awk -v d="$work/s" '/^HMMER/ { f = sprintf("%s/%d.hmm", d, ++n) } n { print > f }' "$hmm"
    a=$(now)
    for f in "$work"/s/*.hmm; do
        hmmsearch -Z "$nseq" --cpu "$cores" --noali -o /dev/null "$f" "${f%.hmm}.fa" >> "$logs/final-$set.log" 2>&1 &
    done
    wait; b=$(now)
    t_f=$(elapsed "$a" "$b")
    hits=$(grep -vc '^#' "$work/h.tbl")
    cp "$work/h.out" "$logs/hmmsearch-$set.out"
    rows+=("$(printf '%-8s %5s %9s %9s %9s %9s %9s %8s %8s %6s %9s %8s' "$set" "$M" "$t_h" "$t_g" "$t_c" "$t_p" "$gcups" \
        "$(ratio "$t_h" "$t_g")" "$(ratio "$t_h" "$t_p")" "$hits" "$t_f" "$(ratio "$t_h" "$t_f")")")
done

# The same database gzip-compressed (members of 1/16 of it, compressed in
# parallel; inflating is the same work as for one member), for Pkinase:
# hmmsearch reads it through `gzip -dc`, the tools inflate it themselves.
zrows=()
if [ "${E2E_GZIP:-1}" = 1 ]; then
    split -n l/16 -d "$work/db.fa" "$work/part." && ls "$work"/part.* | xargs -P "$cores" -n 1 gzip -6
    cat "$work"/part.*.gz > "$work/db.fa.gz" && rm -f "$work"/part.*.gz
    hmm=$MODELS/Pkinase.hmm
    a=$(now); gzip -dc "$work/db.fa.gz" > /dev/null; b=$(now); t_z=$(elapsed "$a" "$b")
    a=$(now); hmmsearch --cpu "$cores" --noali -o "$work/hz.out" --tblout "$work/hz.tbl" "$hmm" "$work/db.fa.gz"; b=$(now)
    t_h=$(elapsed "$a" "$b")
    a=$(now); gpu-hmmsearch --cpu "$cores" --noali -o "$work/gz.out" --tblout "$work/gz.tbl" "$hmm" "$work/db.fa.gz" 2> "$logs/pipe-gzip.log"; rc=$?; b=$(now)
    t_p=$(elapsed "$a" "$b"); [ $rc = 0 ] || fail "gpu-hmmsearch rc=$rc on the gzip database"
    diff -q <(grep -v '^#' "$work/hz.tbl") <(grep -v '^#' "$work/gz.tbl") > /dev/null || fail "Pkinase --tblout differs (gzip database)"
    zrows+=("$(printf '%-8s %9s %9s %9s %8s %9s' Pkinase "$(stat -c %s "$work/db.fa.gz")" "$t_z" "$t_h" "$t_p" "$(ratio "$t_h" "$t_p")")")
fi

echo
echo "== end-to-end on $nseq sequences ($nres residues), hmmsearch --cpu $cores; seconds =="
printf '%-8s %5s %9s %9s %9s %9s %9s %8s %8s %6s %9s %8s\n' models sumM hmmsearch msv-gpu msv-cpu pipeline "msvGCUPS" "msv/hs" "pipe/hs" hits \
    final "ceiling"
printf '%s\n' "${rows[@]}"
echo "== gpu-viterbi --forward on gpu-msv's candidates (seconds, whole tool: reads the database again) =="
printf '%-8s %9s %9s\n' models vit-gpu vit-cpu
printf '%s\n' "${vrows[@]}"
if [ ${#grows[@]} -gt 0 ]; then
    echo "== gpu-hmmsearch on one of the $gpus GPUs (outputs compared with all GPUs') =="
    printf '%-8s %9s %9s\n' models pipeline "pipe/hs"
    printf '%s\n' "${grows[@]}"
fi
if [ ${#zrows[@]} -gt 0 ]; then
    echo "== the same database gzip-compressed (bytes), seconds: gzip -dc alone, hmmsearch, gpu-hmmsearch =="
    printf '%-8s %9s %9s %9s %8s %9s\n' models gz-bytes gzip-dc hmmsearch pipeline "pipe/hs"
    printf '%s\n' "${zrows[@]}"
fi
[ -f "$logs/mismatch.txt" ] && cat "$logs/mismatch.txt"
exit $status

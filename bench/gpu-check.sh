#!/usr/bin/env bash
# The one script to run on the GPU machine: builds (or takes prebuilt
# binaries from $WARPDP_PREBUILT), runs the CUDA tests and the unit tests,
# then the benchmarks, and prints a short summary table last. Logs go to
# $OUT (the device tool's return folder) or ./gpu-check-logs.
#   WARPDP_PREBUILT=dir   directory holding test_msv_cuda, test_* and bench_msv_gpu
#   BENCH_RESIDUES=n      residues for bench_msv_gpu (default 1e9)
#   BENCH_MODELS=a,b,c    model lengths (default 86,260,1142)
#   BENCH_DEVICES=0,1|all devices for the benchmark (default all)
#   VIT_BENCH_RESIDUES=n, VIT_BENCH_MODELS=a,b,c   the same for bench_vit_gpu (2e8; 86,260,1142)
#   DOM_BENCH_ENVELOPES=n envelopes a model of tutorial3.hmm for bench_dom_gpu (2000)
#   NW_BENCH_READS=n, NW_BENCH_LENGTH=l   reads and read length for bench_nw_gpu (2000; 400)
#   NUS_BENCH_LENGTHS=a,b, NUS_BENCH_BATCHES=NxL,...   bench_nussinov_gpu (10000,26000,37000,100000; 100000x200,100000x1000)
#   SW_BENCH_TARGETS=n, SW_BENCH_LENGTHS=a,b,...   bench_sw_gpu (1000000; CUDASW++'s 20 query lengths)
#   SW_CPU_MRESIDUES=m, SW_CPU_LENGTHS=a,b,...     bench_sw_cpu on every core with parasail beside it (20; 144,464,1000,5478)
#   GPU_CHECK_BENCH=0     the tests and tool comparisons only, no benchmarks
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
logs=${OUT:-$PWD/gpu-check-logs}
mkdir -p "$logs"
summary=()

nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm --format=csv,noheader 2>&1 | tee "$logs/gpu.txt"

if [[ -n "${WARPDP_PREBUILT:-}" ]]; then
    bin=$WARPDP_PREBUILT
    tests=("$bin"/test_*)
    bench=$bin/bench_msv_gpu
else
    src=$(cd "$here/.." && pwd)
    build=$src/build-gpu
    cmake -S "$src" -B "$build" -DWARPDP_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >"$logs/configure.log" 2>&1 &&
        cmake --build "$build" -j"$(nproc)" >"$logs/build.log" 2>&1 || { tail -50 "$logs/build.log"; exit 2; }
    tests=("$build"/tests/test_*)
    bench=$build/bench_msv_gpu
fi

status=0
for t in "${tests[@]}"; do
    [[ -x $t ]] || continue
    name=$(basename "$t")
    start=$SECONDS
    timeout "${TEST_TIMEOUT:-240}" "$t" >"$logs/$name.log" 2>&1
    rc=$?
    tail -5 "$logs/$name.log"
    case $rc in
        0) res=passed ;;
        77) res=skipped ;;
        *) res="FAILED rc=$rc"; status=1; grep -E "ERROR|MISMATCH|got .* want" "$logs/$name.log" | head -20 ;;
    esac
    grep -E "^\[doctest\] (test cases|assertions)|seed|sweep:" "$logs/$name.log"
    summary+=("$(printf '%-28s %-16s %4ds' "$name" "$res" $((SECONDS - start)))")
done

# Every tool on the example data with --device cpu, cuda and auto: the
# outputs must be byte-identical (the run skeleton's engine policy on a GPU).
# WARPDP_EXAMPLES: the examples/data folder (default: beside this script's
# repository, or ./data/examples in the device pack).
examples=${WARPDP_EXAMPLES:-}
[[ -z $examples && -d $here/../examples/data ]] && examples=$here/../examples/data
[[ -z $examples && -d $here/data/examples ]] && examples=$here/data/examples
tools_bin=$(dirname "$bench")
if [[ -n $examples && -x $tools_bin/gpu-msv ]]; then
    ex=$(mktemp -d)
    zcat "$examples/targets.fa.gz" > "$ex/targets.fa"
    declare -A tool_cmd=(
        [msv]="gpu-msv $examples/tutorial3.hmm $ex/targets.fa --all"
        [viterbi]="gpu-viterbi $examples/tutorial3.hmm $ex/targets.fa --msv --forward --all"
        [nw]="gpu-nw-dist $examples/amplicons.fa --format tsv"
        [nussinov]="gpu-nussinov $examples/rnas.fa"
        [sw]="gpu-sw $examples/queries.fa $ex/targets.fa --cigar"
    )
    for t in msv viterbi nw nussinov sw; do
        start=$SECONDS; res=identical
        for d in cpu cuda auto; do
            # shellcheck disable=SC2086
            "$tools_bin"/${tool_cmd[$t]} --device $d --quiet -o "$ex/$t.$d" --stats "$ex/$t.$d.json" 2>"$logs/tool-$t-$d.err" ||
                { res="FAILED ($d)"; status=1; cat "$logs/tool-$t-$d.err"; }
            cp "$ex/$t.$d.json" "$logs/tool-$t-$d.json" 2>/dev/null
        done
        if [[ $res == identical ]] && ! { cmp -s "$ex/$t.cpu" "$ex/$t.cuda" && cmp -s "$ex/$t.cpu" "$ex/$t.auto"; }; then
            res="DIFFER"; status=1
        fi
        dev=$(sed -n 's/^ *"device": *"\(.*\)",$/\1/p' "$ex/$t.auto.json" 2>/dev/null | head -1)
        summary+=("$(printf '%-28s %-16s %4ds  auto: %s' "tool $t cpu/cuda/auto" "$res" $((SECONDS - start)) "$dev")")
    done
    # gpu-hmmsearch: its tables on every device, comment lines (command, date) aside.
    if [[ -x $tools_bin/gpu-hmmsearch ]]; then
        start=$SECONDS; res=identical
        for d in cpu cuda auto; do  # (a folder each: the main output names the files)
            mkdir -p "$ex/hs-$d"
            (cd "$ex/hs-$d" && PATH=$tools_bin:$PATH WARPDP_DEVICE=$d gpu-hmmsearch --tblout t --domtblout d -o o \
                "$examples/tutorial3.hmm" "$ex/targets.fa" 2>"$logs/tool-hmmsearch-$d.err") ||
                { res="FAILED ($d)"; status=1; cat "$logs/tool-hmmsearch-$d.err"; }
            { grep -hv '^#' "$ex/hs-$d/t" "$ex/hs-$d/d"; grep -v '^# \(CPU time\|Mc/sec\)\|Elapsed' "$ex/hs-$d/o"; } \
                > "$ex/hs.$d" 2>/dev/null
        done
        if [[ $res == identical ]] && ! { cmp -s "$ex/hs.cpu" "$ex/hs.cuda" && cmp -s "$ex/hs.cpu" "$ex/hs.auto"; }; then
            res="DIFFER"; status=1
        fi
        summary+=("$(printf '%-28s %-16s %4ds' "tool hmmsearch cpu/cuda/auto" "$res" $((SECONDS - start)))")
    fi
    rm -rf "$ex"
fi

# run_bench NAME ARGS...: one benchmark under a timeout, logged, summarised.
run_bench() {
    local exe=$1; shift
    [[ -x $exe && ${GPU_CHECK_BENCH:-1} != 0 ]] || return 0
    local name start rc
    name=$(basename "$exe"); start=$SECONDS
    timeout "${BENCH_TIMEOUT:-240}" "$exe" "$@" >"$logs/$name.log" 2>&1
    rc=$?
    [[ $rc -eq 0 ]] || status=1
    summary+=("$(printf '%-28s %-16s %4ds' "$name" "rc=$rc" $((SECONDS - start)))")
}
run_bench "$bench" "${BENCH_RESIDUES:-1000000000}" "${BENCH_MODELS:-86,260,1142}" 5 "${BENCH_DEVICES:-all}"
run_bench "$(dirname "$bench")/bench_vit_gpu" "${VIT_BENCH_RESIDUES:-200000000}" "${VIT_BENCH_MODELS:-86,260,1142}" 3 "${BENCH_DEVICES:-0}"
# Forward filter: CUDA vs the CPU engine on survivor-sized batches.
run_bench "$(dirname "$bench")/bench_fwd" "${FWD_BENCH_MRESIDUES:-10}" 3 "${BENCH_DEVICES:-all}"
# gpu-hmmsearch's last stage: the envelope kernels in both CUDA forms against the CPU's vector kernels on every core.
[[ -n $examples ]] && run_bench "$(dirname "$bench")/bench_dom_gpu" "$examples/tutorial3.hmm" "${DOM_BENCH_ENVELOPES:-2000}" "$(nproc)" 2 "${BENCH_DEVICE:-0}"
# gpu-nw-dist: NDist and SeqDist GCUPS on all-pairs 454-like reads (test_nw_cuda ran with the tests above).
run_bench "$(dirname "$bench")/bench_nw_gpu" "${NW_BENCH_READS:-2000}" "${NW_BENCH_LENGTH:-400}" "${BENCH_DEVICES:-all}" 150
# The MSV decisions' bias filter on the host: the scalar loop against the AVX2 lanes.
run_bench "$(dirname "$bench")/bench_bias" 20000 3
# gpu-nussinov: long mode (one sequence each) and batch mode, checked against the CPU engine on a small case.
run_bench "$(dirname "$bench")/bench_nussinov_gpu" "${NUS_BENCH_LENGTHS:-10000,26000,37000,100000}" "${NUS_BENCH_BATCHES:-100000x200,100000x1000}" "${BENCH_DEVICE:-0}"
# gpu-sw: TCUPS per query length on one GPU, then the CPU engine and parasail on every core (the peer for the GPU ratio).
run_bench "$(dirname "$bench")/bench_sw_gpu" "${SW_BENCH_TARGETS:-1000000}" "${SW_BENCH_LENGTHS:-144,189,222,375,464,567,657,729,850,1000,1500,2005,2504,3005,3564,4061,4548,4743,5147,5478}" "${BENCH_DEVICE:-0}" "" 2
run_bench "$(dirname "$bench")/bench_sw_cpu" "${SW_CPU_MRESIDUES:-20}" 2 "$(nproc)" "${SW_CPU_LENGTHS:-144,464,1000,5478}"
# gpu-sw's kernels under compute-sanitizer, one configuration of each lane
# count and the 32-bit one, one pass and several, enough targets that groups
# stream several pairs (SANITIZE_TOOLS=memcheck, synccheck by default;
# racecheck takes minutes: SANITIZE_SW_TARGETS=6000 keeps it near 4).
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [[ -n $sanitizer && -x "$(dirname "$bench")/bench_sw_gpu" ]]; then
    for tool in ${SANITIZE_TOOLS:-memcheck synccheck}; do
        start=$SECONDS
        timeout "${BENCH_TIMEOUT:-240}" "$sanitizer" --tool "$tool" --error-exitcode 9 "$(dirname "$bench")/bench_sw_gpu" "${SANITIZE_SW_TARGETS:-20000}" 144,1500 \
            "${BENCH_DEVICE:-0}" s16_g8_r18_b4,s16_g16_r24_b4,s16_g32_r32_b3,s32_g32_r16 1 >"$logs/sanitize_sw_$tool.log" 2>&1
        rc=$?
        [[ $rc -eq 0 ]] || status=1
        summary+=("$(printf '%-28s %-16s %4ds' "sanitizer $tool gpu-sw" "rc=$rc" $((SECONDS - start)))")
    done
fi

echo
echo "== gpu-check summary =="
printf '%s\n' "${summary[@]}"
[[ -f $logs/bench_msv_gpu.log ]] && sed -n '/^M /,$p' "$logs/bench_msv_gpu.log" && grep -E "MISMATCH|database" "$logs/bench_msv_gpu.log" | head -8
[[ -f $logs/bench_vit_gpu.log ]] && grep -v '^dpx-probe' "$logs/bench_vit_gpu.log" | sed -n '/^M /,$p' && grep -E "MISMATCH|database" "$logs/bench_vit_gpu.log" | head -8
[[ -f $logs/bench_fwd.log ]] && sed -n '/^#/,$p' "$logs/bench_fwd.log"
[[ -f $logs/bench_dom_gpu.log ]] && cat "$logs/bench_dom_gpu.log"
[[ -f $logs/bench_nw_gpu.log ]] && sed -n '/^metric /,$p' "$logs/bench_nw_gpu.log" && grep -E "MISMATCH" "$logs/bench_nw_gpu.log" | head -8
[[ -f $logs/bench_bias.log ]] && cat "$logs/bench_bias.log"
[[ -f $logs/bench_nussinov_gpu.log ]] && sed -n '/^check:/p;/^mode /,$p' "$logs/bench_nussinov_gpu.log" && grep -E "MISMATCH" "$logs/bench_nussinov_gpu.log" | head -8
[[ -f $logs/bench_sw_gpu.log ]] && cat "$logs/bench_sw_gpu.log"
[[ -f $logs/bench_sw_cpu.log ]] && cat "$logs/bench_sw_cpu.log"
exit $status

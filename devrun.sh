set -u
rm -rf /tmp/d; mkdir -p /tmp/d && tar xzf .carry/device.tgz -C /tmp/d && cd /tmp/d/device && export LD_LIBRARY_PATH=$PWD/lib PATH=$PWD/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
s=$(date +%s); timeout 120 bin/test_dom_cuda > $OUT/test_dom_cuda.log 2>&1; echo "test_dom_cuda rc=$? $(( $(date +%s) - s )) s"; grep -E 'MESSAGE|test cases' $OUT/test_dom_cuda.log | head -5
timeout 150 bin/bench_dom_gpu models/nine.hmm 2000 16 2 2>&1 | tee $OUT/bench_dom_gpu.log
realout=$OUT; export OUT=/tmp/wl; mkdir -p $OUT; cp models/pfam360.hmm $OUT/pfam-like-360.hmm
export WORK=/tmp/work
N_BIG=1000000 N_PFAM=30000 PFAM_MODELS=360 GPU_DEVICE=auto MORE_DEVICES=cuda BENCH_CPU=0 timeout 330 bash hmmsearch-workloads.sh bin models "nine pfam"
grep -h 'last stage on' $OUT/*.log 2>/dev/null | head -20
rm -f $OUT/pfam-like-360.hmm; tar czf $realout/wl.tgz -C $OUT .

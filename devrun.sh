set -u
rm -rf /tmp/d; mkdir -p /tmp/d && tar xzf .carry/device.tgz -C /tmp/d && cd /tmp/d/device && export LD_LIBRARY_PATH=$PWD/lib PATH=$PWD/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
s=$(date +%s); timeout 60 bin/test_dom_batch_cuda > $OUT/test_dom_batch_cuda.log 2>&1; echo "test_dom_batch_cuda rc=$? $(( $(date +%s) - s )) s"
realout=$OUT; export OUT=/tmp/wl; mkdir -p $OUT; cp models/pfam360.hmm $OUT/pfam-like-360.hmm
export WORK=/tmp/work
N_BIG=1000000 N_PFAM=30000 PFAM_MODELS=360 GPU_DEVICE=auto BENCH_CPU=0 timeout 250 bash hmmsearch-workloads.sh bin models "nine pfam"
grep -h 'last stage on\|filters' $OUT/gpu-hmmsearch-*.log 2>/dev/null | head -8
rm -f $OUT/pfam-like-360.hmm; tar czf $realout/wl.tgz -C $OUT .
timeout 70 bin/bench_dom_gpu models/nine.hmm 2000 16 1 2>&1 | tail -11 | tee $realout/bench_dom_gpu.log

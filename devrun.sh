set -u
rm -rf /tmp/d; mkdir -p /tmp/d && tar xzf .carry/device.tgz -C /tmp/d && cd /tmp/d/device && export LD_LIBRARY_PATH=$PWD/lib PATH=$PWD/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
s=$(date +%s); timeout 40 bin/test_dom_batch_cuda > $OUT/test_dom_batch_cuda.log 2>&1; echo "test_dom_batch_cuda rc=$? $(( $(date +%s) - s )) s"
realout=$OUT; export OUT=/tmp/wl; mkdir -p $OUT; export WORK=/tmp/work
N_BIG=1000000 GPU_DEVICE=auto BENCH_CPU=0 timeout 150 bash hmmsearch-workloads.sh bin models "nine"
grep -h 'last stage on\|filters' $OUT/gpu-hmmsearch-*.log 2>/dev/null | head -8
tar czf $realout/wl.tgz -C $OUT .

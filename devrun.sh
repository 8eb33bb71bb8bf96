set -u
mkdir -p /tmp/d && tar xzf .carry/device.tgz -C /tmp/d && cd /tmp/d/device && export LD_LIBRARY_PATH=$PWD/lib PATH=$PWD/bin:$PATH
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
echo "== tests"; for t in test_dom_cuda test_dom_optacc_cuda test_dom_batch_cuda; do s=$(date +%s); timeout 240 bin/$t > $OUT/$t.log 2>&1; echo "$t rc=$? $(( $(date +%s) - s )) s"; grep -E 'MESSAGE|test cases|ERROR|mismatch' $OUT/$t.log | head -12; done
echo "== bench_dom_gpu"; timeout 200 bin/bench_dom_gpu models/nine.hmm 2000 16 3 2>&1 | tee $OUT/bench_dom_gpu.log
echo "== bench_dom_gpu pfam360 (200 a model)"; timeout 200 bin/bench_dom_gpu models/pfam360.hmm 200 16 2 2>&1 | tee $OUT/bench_dom_gpu_pfam.log

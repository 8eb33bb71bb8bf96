set -u
mkdir -p /tmp/d && [ -d /tmp/d/device ] || tar xzf .carry/device.tgz -C /tmp/d; cd /tmp/d/device && export LD_LIBRARY_PATH=$PWD/lib PATH=$PWD/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
realout=$OUT; export OUT=/tmp/wl; mkdir -p $OUT; cp models/pfam360.hmm $OUT/pfam-like-360.hmm
export WORK=/tmp/work
N_BIG=1000000 N_PFAM=30000 PFAM_MODELS=360 GPU_DEVICE=auto MORE_DEVICES=cuda BENCH_CPU=0 timeout 540 bash hmmsearch-workloads.sh bin models "${WL:-nine pfam}"
grep -h 'last stage on\|filters' $OUT/*.log 2>/dev/null | head -20
rm -f $OUT/pfam-like-360.hmm; tar czf $realout/wl.tgz -C $OUT .

#!/usr/bin/env bash
# Packs what a run on the GPU machine needs into .carry/device (git-ignored),
# because that machine has no htslib/Boost and cannot install packages:
# the tools and benchmarks of a CUDA build, their non-system shared
# libraries, Debian's hmmsearch/hmmemit/hmmbuild and parasail_aligner (the
# peers and the data makers, the same binaries as here), the
# benchmark models (Pkinase.hmm, and nine.hmm: the 9 Pfam models of
# hmmer-examples joined into one 3/f file by hmmconvert) and the scripts.
#   bench/pack-device.sh BUILD_DIR   then   run: cd .carry/device && bash run.sh
set -euo pipefail
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/.carry/device
rm -rf "$dest"; mkdir -p "$dest/bin" "$dest/lib" "$dest/models"
ex=/usr/share/doc/hmmer/examples
for f in gpu-msv gpu-viterbi gpu-hmmsearch gpu-nw-dist gpu-nussinov gpu-sw make_protein_db make_hmmer_db; do cp "$build/$f" "$dest/bin/"; done
# Only tests that need no HMMER example files (the GPU machine has none).
for f in "$build"/bench_* "$build"/tests/test_*cuda* "$build"/tests/test_msv_cpu; do [ -x "$f" ] && cp "$f" "$dest/bin/"; done
cp /usr/bin/hmmsearch /usr/bin/hmmemit /usr/bin/hmmbuild /usr/bin/parasail_aligner "$dest/bin/"
for f in "$dest"/bin/*; do
    { ldd "$f" 2>/dev/null || true; } | awk '$3 ~ /^\// { print $3 }'
done | sort -u | grep -vE '/lib(c|m|pthread|dl|rt|gcc_s|stdc\+\+)\.so' | xargs -r -I{} cp -L {} "$dest/lib/"
cp "$ex/tutorial/Pkinase.hmm" "$dest/models/"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for m in fn3 globins4 Pkinase; do cp "$ex/tutorial/$m.hmm" "$tmp/$m.hmm"; done
for m in RRM_1 2OG-FeII_Oxy_3 Caudal_act LuxC Patched SMC_N; do zcat "$ex/testsuite/$m.hmm.gz" > "$tmp/$m.hmm"; done
for m in fn3 globins4 Pkinase RRM_1 2OG-FeII_Oxy_3 Caudal_act LuxC Patched SMC_N; do
    hmmconvert "$tmp/$m.hmm"   # one model at a time: a file mixes no format versions
done > "$dest/models/nine.hmm"
for f in gpu-check.sh hmmer-e2e.sh nw-50k.sh nussinov-sets.sh hmmsearch-workloads.sh make-hmmer-db.sh make-pfam-like.sh \
         sw-tool.sh; do
    cp "$root/bench/$f" "$dest/"
done
mkdir -p "$dest/data" && cp /usr/share/doc/vsearch-examples/BioMarKs50k.fsa.gz "$dest/data/"
cp -r "$root/examples/data" "$dest/data/examples"
cat > "$dest/run.sh" <<'RUN'
#!/usr/bin/env bash
# On the GPU machine: kernel tests and benchmarks, then the end-to-end run;
# with WORKLOADS set (any of "pkinase nine pfam"), hmmsearch-workloads.sh
# after them (N_BIG, N_PFAM, PFAM_MODELS, BENCH_NOALI, BENCH_CPU as there);
# then nussinov-sets.sh (SKIP_NUSSINOV skips it; NUS_SETS, BATCH_MAX as there).
# Logs are gathered into one archive under $OUT (the device tool returns
# only a few files).
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=$here/lib PATH=$here/bin:$PATH
final_out=${OUT:-$here}
export OUT=$(mktemp -d)
s1=skipped; [ -n "${SKIP_GPU_CHECK:-}" ] || { WARPDP_PREBUILT=$here/bin bash "$here/gpu-check.sh"; s1=$?; }
s2=skipped; [ -n "${SKIP_E2E:-}" ] || { bash "$here/hmmer-e2e.sh" "$here/bin" "$here/models" "${E2E_SEQUENCES:-1000000}"; s2=$?; }
s3=skipped; [ -n "${SKIP_NW:-}" ] || { bash "$here/nw-50k.sh" "$here/bin" "$here/data/BioMarKs50k.fsa.gz"; s3=$?; }
s4=skipped; [ -z "${WORKLOADS:-}" ] || { bash "$here/hmmsearch-workloads.sh" "$here/bin" "$here/models" "$WORKLOADS"; s4=$?; }
s5=skipped; [ -n "${SKIP_NUSSINOV:-}" ] || { bash "$here/nussinov-sets.sh" "$here/bin" "$here/data/BioMarKs50k.fsa.gz" "${NUS_SETS:-all}"; s5=$?; }
s6=skipped; [ -z "${SW_TOOL:-}" ] || { bash "$here/sw-tool.sh" "$here/bin" "$SW_TOOL"; s6=$?; }
tar -czf "$final_out/logs.tar.gz" -C "$OUT" .
echo "gpu-check rc=$s1, e2e rc=$s2, nw rc=$s3, workloads rc=$s4, nussinov sets rc=$s5, sw-tool rc=$s6"
RUN
du -sh "$dest"

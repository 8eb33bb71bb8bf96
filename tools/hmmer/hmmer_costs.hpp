// Rough costs of HMMER filter work, for the device choice and the chunk size
// of the filter tools. They decide only where work runs, never its results.
#pragma once

#include <cstdint>
#include <string>

namespace warpdp {

// Rough seconds of MSV-filter kernel on one H200 for a database file
// searched with models of `sum_m` nodes in all (~10^13 cells a second; file
// bytes as residues, a gzip file counted four times its size). Infinite when
// the size is unknown (a pipe, standard input). Only for hide_unused_gpus.
double msv_seconds_on_one_gpu(const std::string& db_path, uint64_t sum_m);

// Whether the CPU engines finish `msv_cells` cells of MSV filtering in about
// 0.1 s on `threads` threads (~40 GCUPS a core, measured on the H200 host).
// With --device auto such a chunk, arriving while the CUDA driver is still
// starting (0.1-0.5 s there), is done on the CPU instead of waited on: the
// results are the same either way.
inline bool cpu_finishes_quickly(uint64_t msv_cells, unsigned threads) {
    return msv_cells <= uint64_t{4'000'000'000} * threads;
}

// Database residues the filters hold at once (one chunk), for models of
// `sum_m` nodes in all. A short job wants small chunks, so that reading,
// filtering and writing overlap sooner and the last chunk's work is short
// (Pkinase on 409 M residues: 0.52-0.59 s with 2^27, 0.48 s with 2^26); with
// many nodes per residue larger chunks lose nothing there and save per-chunk
// costs (nine models: 0.94-1.05 s with 2^27, 1.05-1.08 s with 2^26). Measured
// with gpu-viterbi --msv on the H200 host.
inline uint64_t chunk_residues_for(uint64_t sum_m) {
    return sum_m <= 1024 ? uint64_t{1} << 26 : uint64_t{1} << 27;
}

}  // namespace warpdp

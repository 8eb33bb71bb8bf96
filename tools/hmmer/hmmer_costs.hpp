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

// The same for gpu-viterbi: its stage that meets the most targets, inline
// MSV over the database, or the Viterbi filter (~5x MSV's cost a cell) over
// the candidates of a stream (`candidate_cells`) or, without one, over the
// database.
double viterbi_seconds_on_one_gpu(const std::string& db_path, uint64_t sum_m, bool inline_msv, bool stream,
                                  uint64_t candidate_cells);

// Rough seconds of gpu-viterbi's filters with inline MSV on the CPU
// engines, `threads` threads (~1.7e10 MSV cells a second a thread: the
// whole filter pipeline on an H100 host's cores, Pkinase x 1M in
// docs/benchmarks.md). Infinite when the size is unknown.
double msv_filters_seconds_on_cpu(const std::string& db_path, uint64_t sum_m, unsigned threads);

// Under --device auto, a filter run that the CPU ends within about the CUDA
// start-up starts no GPU: on Pkinase x 1M the GPU path's filters ended no
// sooner than the CPU's (about half a second), and the whole run was slower.
inline constexpr double kGpuFiltersFromCpuSeconds = 0.5;

// Whether the CPU engines finish `msv_cells` cells of MSV filtering in about
// 0.1 s on `threads` threads (taking ~40 GCUPS a core, about the CPU engine's
// rate in docs/benchmarks.md). With --device auto such a chunk, arriving
// while the CUDA driver is still starting (a few tenths of a second), is done
// on the CPU instead of waited on: the
// results are the same either way.
inline bool cpu_finishes_quickly(uint64_t msv_cells, unsigned threads) {
    return msv_cells <= uint64_t{4'000'000'000} * threads;
}

// Database residues the filters hold at once (one chunk), for models of
// `sum_m` nodes in all. A short job wants small chunks, so that reading,
// filtering and writing overlap sooner and the last chunk's work is short
// (Pkinase); with many nodes per residue larger chunks lose nothing there and
// save per-chunk costs (nine models). docs/benchmarks.md has the runs.
inline uint64_t chunk_residues_for(uint64_t sum_m) {
    return sum_m <= 1024 ? uint64_t{1} << 26 : uint64_t{1} << 27;
}

}  // namespace warpdp

// Rough costs of HMMER filter work, for the device choice and chunk size.
#include "tools/hmmer/hmmer_costs.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>

namespace warpdp {

namespace {

// A database file's residues, roughly: its bytes, four times those of a
// gzip file; infinite when the size is unknown (a pipe, standard input).
double database_residues(const std::string& db_path) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::error_code ec;
    if (db_path == "-" || !std::filesystem::is_regular_file(db_path, ec)) return kInf;
    const auto bytes = std::filesystem::file_size(db_path, ec);
    if (ec) return kInf;
    unsigned char magic[2] = {0, 0};
    std::ifstream(db_path, std::ios::binary).read(reinterpret_cast<char*>(magic), 2);
    return static_cast<double>(bytes) * (magic[0] == 0x1f && magic[1] == 0x8b ? 4.0 : 1.0);
}

}  // namespace

double msv_seconds_on_one_gpu(const std::string& db_path, uint64_t sum_m) {
    return database_residues(db_path) * static_cast<double>(sum_m) / 1e13;
}

double msv_filters_seconds_on_cpu(const std::string& db_path, uint64_t sum_m, unsigned threads) {
    return database_residues(db_path) * static_cast<double>(sum_m) / (1.7e10 * std::max(1u, threads));
}

double viterbi_seconds_on_one_gpu(const std::string& db_path, uint64_t sum_m, bool inline_msv, bool stream,
                                  uint64_t candidate_cells) {
    const double msv_s = msv_seconds_on_one_gpu(db_path, sum_m);
    return inline_msv ? msv_s : !stream ? 5 * msv_s : 5 * static_cast<double>(candidate_cells) / 1e13;
}

}  // namespace warpdp

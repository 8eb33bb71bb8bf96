// Rough costs of HMMER filter work, for the device choice and chunk size.
#include "tools/hmmer/hmmer_costs.hpp"

#include <filesystem>
#include <fstream>
#include <limits>

namespace warpdp {

double msv_seconds_on_one_gpu(const std::string& db_path, uint64_t sum_m) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::error_code ec;
    if (db_path == "-" || !std::filesystem::is_regular_file(db_path, ec)) return kInf;
    const auto bytes = std::filesystem::file_size(db_path, ec);
    if (ec) return kInf;
    unsigned char magic[2] = {0, 0};
    std::ifstream(db_path, std::ios::binary).read(reinterpret_cast<char*>(magic), 2);
    const double residues = static_cast<double>(bytes) * (magic[0] == 0x1f && magic[1] == 0x8b ? 4.0 : 1.0);
    return residues * static_cast<double>(sum_m) / 1e13;
}

double viterbi_seconds_on_one_gpu(const std::string& db_path, uint64_t sum_m, bool inline_msv, bool stream,
                                  uint64_t candidate_cells) {
    const double msv_s = msv_seconds_on_one_gpu(db_path, sum_m);
    return inline_msv ? msv_s : !stream ? 5 * msv_s : 5 * static_cast<double>(candidate_cells) / 1e13;
}

}  // namespace warpdp

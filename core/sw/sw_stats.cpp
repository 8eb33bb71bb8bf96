// The gapped Karlin-Altschul parameters BLAST uses for our four matrices.
// The numbers are those of the per-matrix tables (blosum45_values and its
// siblings) in NCBI BLAST's src/algo/blast/core/blast_stat.c (NCBI C++
// Toolkit), each row there being (gap existence, gap extension, ...,
// lambda, K, ...); only the gapped rows are kept here (each table's first
// row, whose gap costs are "infinite", describes alignments without gaps).
// Looked up in BLAST's own terms: a gap of k costs existence + k * extension.
#include "core/sw/sw_stats.hpp"

#include <cmath>

#include "core/sw/sw_matrix.hpp"

namespace warpdp {

namespace {

struct Entry {
    const char* matrix;
    int existence, extension;
    double lambda, K;
};

constexpr Entry kEntries[] = {
    {"BLOSUM45", 13, 3, 0.207, 0.049}, {"BLOSUM45", 12, 3, 0.199, 0.039}, {"BLOSUM45", 11, 3, 0.190, 0.031},
    {"BLOSUM45", 10, 3, 0.179, 0.023}, {"BLOSUM45", 16, 2, 0.210, 0.051}, {"BLOSUM45", 15, 2, 0.203, 0.041},
    {"BLOSUM45", 14, 2, 0.195, 0.032}, {"BLOSUM45", 13, 2, 0.185, 0.024}, {"BLOSUM45", 12, 2, 0.171, 0.016},
    {"BLOSUM45", 19, 1, 0.205, 0.040}, {"BLOSUM45", 18, 1, 0.198, 0.032}, {"BLOSUM45", 17, 1, 0.189, 0.024},
    {"BLOSUM45", 16, 1, 0.176, 0.016},

    {"BLOSUM50", 13, 3, 0.212, 0.063}, {"BLOSUM50", 12, 3, 0.206, 0.055}, {"BLOSUM50", 11, 3, 0.197, 0.042},
    {"BLOSUM50", 10, 3, 0.186, 0.031}, {"BLOSUM50", 9, 3, 0.172, 0.022},  {"BLOSUM50", 16, 2, 0.215, 0.066},
    {"BLOSUM50", 15, 2, 0.210, 0.058}, {"BLOSUM50", 14, 2, 0.202, 0.045}, {"BLOSUM50", 13, 2, 0.193, 0.035},
    {"BLOSUM50", 12, 2, 0.181, 0.025}, {"BLOSUM50", 19, 1, 0.212, 0.057}, {"BLOSUM50", 18, 1, 0.207, 0.050},
    {"BLOSUM50", 17, 1, 0.198, 0.037}, {"BLOSUM50", 16, 1, 0.186, 0.025}, {"BLOSUM50", 15, 1, 0.171, 0.015},

    {"BLOSUM62", 11, 2, 0.297, 0.082}, {"BLOSUM62", 10, 2, 0.291, 0.075}, {"BLOSUM62", 9, 2, 0.279, 0.058},
    {"BLOSUM62", 8, 2, 0.264, 0.045},  {"BLOSUM62", 7, 2, 0.239, 0.027},  {"BLOSUM62", 6, 2, 0.201, 0.012},
    {"BLOSUM62", 13, 1, 0.292, 0.071}, {"BLOSUM62", 12, 1, 0.283, 0.059}, {"BLOSUM62", 11, 1, 0.267, 0.041},
    {"BLOSUM62", 10, 1, 0.243, 0.024}, {"BLOSUM62", 9, 1, 0.206, 0.010},

    {"BLOSUM80", 25, 2, 0.342, 0.17},  {"BLOSUM80", 13, 2, 0.336, 0.15},  {"BLOSUM80", 9, 2, 0.319, 0.11},
    {"BLOSUM80", 8, 2, 0.308, 0.090},  {"BLOSUM80", 7, 2, 0.293, 0.070},  {"BLOSUM80", 6, 2, 0.268, 0.045},
    {"BLOSUM80", 11, 1, 0.314, 0.095}, {"BLOSUM80", 10, 1, 0.299, 0.071}, {"BLOSUM80", 9, 1, 0.279, 0.048},
};

}  // namespace

std::optional<SwKarlinParams> sw_karlin_params(const std::string& matrix_name, int existence, int extension) {
    for (const Entry& e : kEntries)
        if (matrix_name == e.matrix && e.existence == existence && e.extension == extension)
            return SwKarlinParams{e.lambda, e.K, e.existence, e.extension, e.matrix};
    return std::nullopt;
}

std::vector<std::string> sw_karlin_gap_pairs(const std::string& matrix_name) {
    std::vector<std::string> out;
    for (const Entry& e : kEntries)
        if (matrix_name == e.matrix)
            out.push_back(std::to_string(e.existence) + "/" + std::to_string(e.extension));
    return out;
}

std::string sw_statistics_name(const SwMatrix& m) {
    static const std::string kStandard = "ACDEFGHIKLMNPQRSTVWY";
    for (const std::string& name : SwMatrix::builtin_names()) {
        const SwMatrix& b = SwMatrix::builtin(name);
        bool same = true;
        for (char x : kStandard) {
            for (char y : kStandard) {
                const int mx = m.code_of(static_cast<unsigned char>(x)), my = m.code_of(static_cast<unsigned char>(y));
                if (m.letters()[static_cast<size_t>(mx)] != x || m.letters()[static_cast<size_t>(my)] != y ||
                    m.score(mx, my) != b.score(b.code_of(static_cast<unsigned char>(x)), b.code_of(static_cast<unsigned char>(y)))) {
                    same = false;
                    break;
                }
            }
            if (!same) break;
        }
        if (same) return name;
    }
    return m.name();
}

double sw_bit_score(const SwKarlinParams& p, int64_t score) {
    return (p.lambda * static_cast<double>(score) - std::log(p.K)) / std::log(2.0);
}

double sw_evalue(const SwKarlinParams& p, int64_t score, double search_space) {
    return p.K * search_space * std::exp(-p.lambda * static_cast<double>(score));
}

}  // namespace warpdp

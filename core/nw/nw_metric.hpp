// The two AmpliconNoise distances gpu-nw-dist reproduces (docs/nw-dist.md):
// NDist (unit costs, gap-run distance) and SeqDist (Tran.dat substitution
// costs, homopolymer gaps, cost per aligned column). Reads are stored as
// upper-case letters; engines work on small letter codes.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace warpdp {

enum class NwMetric { ndist, seqdist };
NwMetric parse_nw_metric(const std::string& name);  // throws UsageError
const char* nw_metric_name(NwMetric m) noexcept;

// The characters each AmpliconNoise tool keeps from a sequence line: NDist
// takes both cases (stored upper-cased, '-' kept as a letter), SeqDist only
// upper-case ACGT.
std::string_view nw_alphabet(NwMetric m) noexcept;

// SeqDist substitution costs, rows and columns in AmpliconNoise's order
// A, C, T, G (not ACGT).
struct SeqDistTable {
    std::array<double, 16> cost{};  // cost[a * 4 + b]
    double at(int a, int b) const noexcept { return cost[static_cast<size_t>(a * 4 + b)]; }
};

// AmpliconNoise's Data/Tran.dat, parsed from its text so the doubles are the
// ones SeqDist reads.
const SeqDistTable& tran_dat();
// A lookup file in SeqDist's format: 4 lines of 4 comma-separated numbers,
// each number consumed whole (strtod: "inf", "1e400" = inf and "1e-310" are
// numbers). Throws InputError naming file and line. SeqDist also takes extra
// columns and ignores them; a 5-column table is refused here, as more likely
// a mistake than meant.
SeqDistTable read_seqdist_table(const std::string& path);
SeqDistTable parse_seqdist_table(const std::string& text, const std::string& origin);

// Letter codes the engines compare. NDist: any distinct small codes (equal
// letters = equal codes); 'N' and '-' have fixed codes because the distance
// treats them specially. SeqDist: the table index (A0 C1 T2 G3).
namespace nw_code {
inline constexpr uint8_t ndist_N = 8;
inline constexpr uint8_t ndist_gap = 9;  // a literal '-' in a read
uint8_t ndist(char upper) noexcept;      // 'A'..: 1..9
uint8_t seqdist(char upper) noexcept;    // 'A','C','T','G' -> 0..3
}  // namespace nw_code

// Cell updates of a pair: la * lb.
inline uint64_t nw_cells(uint32_t la, uint32_t lb) { return uint64_t{la} * lb; }

}  // namespace warpdp

// Both references mirror AmpliconNoise step by step on purpose: doubles for
// every score, the same order of additions and strict comparisons, the move
// tie rule (DIAG only when strictly best, else LEFT when strictly below UP,
// else UP), the traceback that emits the leftover residues of A before those
// of B, and SeqDist's homopolymer test that the vertical move borrows from the
// horizontal one.
#include "core/nw/nw_reference.hpp"

#include <string>
#include <vector>

namespace warpdp {

namespace {

enum Move : unsigned char { kDiag = 0, kLeft = 1, kUp = 2 };
constexpr char kGap = '-';
constexpr char kTerminalGap = '.';  // SeqDist's mark for free trailing gaps

Move choose(double diag, double left, double up) {
    if (diag < left) return diag < up ? kDiag : kUp;
    return left < up ? kLeft : kUp;
}

double min3(double diag, double left, double up) {
    const double dl = diag < left ? diag : left;
    return up < dl ? up : dl;
}

struct Matrices {
    size_t rows, cols;
    std::vector<double> f;
    std::vector<Move> move;
    Matrices(size_t la, size_t lb) : rows(la + 1), cols(lb + 1), f(rows * cols), move(rows * cols) {}
    double& F(size_t i, size_t j) { return f[i * cols + j]; }
    Move& M(size_t i, size_t j) { return move[i * cols + j]; }
};

}  // namespace

double ndist_columns_distance(std::string_view ra, std::string_view rb) {
    const long n = static_cast<long>(ra.size());
    long start_a = 0, start_b = 0, end_a = n - 1, end_b = n - 1;
    while (start_a < n && ra[start_a] == kGap) ++start_a;
    while (start_b < n && rb[start_b] == kGap) ++start_b;
    while (end_a >= 0 && ra[end_a] == kGap) --end_a;
    while (end_b >= 0 && rb[end_b] == kGap) --end_b;
    const long start = std::max(start_a, start_b), end = std::min(end_a, end_b) + 1;
    if (end - start <= 0) return 1.0;
    double columns = 0, differences = 0;
    bool in_gap_a = false, in_gap_b = false;
    for (long k = start; k < end; ++k) {
        const char x = ra[k], y = rb[k];
        if (x == kGap && y == kGap) continue;
        if (x == kGap || y == kGap) {
            bool& open = x == kGap ? in_gap_a : in_gap_b;
            if (!open) {
                columns += 1;
                differences += 1;
            }
            in_gap_a = x == kGap;
            in_gap_b = y == kGap;
            continue;
        }
        columns += 1;
        if (x != 'N' && y != 'N' && x != y) differences += 1;
        in_gap_a = in_gap_b = false;
    }
    return columns > 0 ? differences / columns : 1.0;
}

double ndist_reference(std::string_view a, std::string_view b, double* score) {
    const size_t la = a.size(), lb = b.size();
    constexpr double gap = 1.5;
    Matrices m(la, lb);
    for (size_t i = 0; i <= la; ++i) m.F(i, 0) = gap * static_cast<double>(i), m.M(i, 0) = kUp;
    for (size_t j = 0; j <= lb; ++j) m.F(0, j) = gap * static_cast<double>(j), m.M(0, j) = kLeft;
    for (size_t i = 1; i <= la; ++i) {
        const double gap_left = i != la ? gap : 0;  // trailing gaps are free
        for (size_t j = 1; j <= lb; ++j) {
            const double gap_up = j != lb ? gap : 0;
            const double diag = m.F(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1);
            const double left = m.F(i, j - 1) + gap_left;
            const double up = m.F(i - 1, j) + gap_up;
            m.M(i, j) = choose(diag, left, up);
            m.F(i, j) = min3(diag, left, up);
        }
    }
    if (score) *score = m.F(la, lb);
    // Columns from the end backwards; the distance does not care.
    std::string ra, rb;
    size_t i = la, j = lb;
    while (i > 0 && j > 0) {
        switch (m.M(i, j)) {
            case kDiag: ra += a[--i], rb += b[--j]; break;
            case kUp: ra += a[--i], rb += kGap; break;
            case kLeft: ra += kGap, rb += b[--j]; break;
        }
    }
    while (i > 0) ra += a[--i], rb += kGap;
    while (j > 0) ra += kGap, rb += b[--j];
    return ndist_columns_distance(ra, rb);
}

double seqdist_reference(std::string_view a, std::string_view b, const SeqDistTable& table) {
    const size_t la = a.size(), lb = b.size();
    constexpr double gap = 15.0, homopolymer_gap = 4.0;
    auto sub = [&](char x, char y) { return table.at(nw_code::seqdist(x), nw_code::seqdist(y)); };
    Matrices m(la, lb);
    for (size_t i = 0; i <= la; ++i) m.F(i, 0) = gap * static_cast<double>(i), m.M(i, 0) = kUp;
    for (size_t j = 0; j <= lb; ++j) m.F(0, j) = gap * static_cast<double>(j), m.M(0, j) = kLeft;
    // The character of the column by which the path entered (i, j); 0 = none.
    auto last = [&](size_t i, size_t j) -> char {
        switch (m.M(i, j)) {
            case kDiag: return a[i - 1] == b[j - 1] ? a[i - 1] : 0;
            case kLeft: return b[j - 1];
            default: return a[i - 1];
        }
    };
    for (size_t i = 1; i <= la; ++i) {
        for (size_t j = 1; j <= lb; ++j) {
            const double diag = m.F(i - 1, j - 1) + sub(a[i - 1], b[j - 1]);
            // One homopolymer test for both gap moves: B[j-1] extends the
            // column that entered the left neighbour.
            const double g = b[j - 1] == last(i, j - 1) ? homopolymer_gap : gap;
            const double left = i == la ? m.F(i, j - 1) : m.F(i, j - 1) + g;
            const double up = j == lb ? m.F(i - 1, j) : m.F(i - 1, j) + g;
            m.M(i, j) = choose(diag, left, up);
            m.F(i, j) = min3(diag, left, up);
        }
    }
    // Traceback, marking the free trailing moves; the normaliser is the
    // alignment length less the marked run at its end.
    std::string ra, rb;
    size_t i = la, j = lb;
    while (i > 0 && j > 0) {
        switch (m.M(i, j)) {
            case kDiag: ra += a[--i], rb += b[--j]; break;
            case kUp: rb += j == lb ? kTerminalGap : kGap, ra += a[--i]; break;
            case kLeft: ra += i == la ? kTerminalGap : kGap, rb += b[--j]; break;
        }
    }
    while (i > 0) ra += a[--i], rb += kGap;
    while (j > 0) ra += kGap, rb += b[--j];
    size_t free_end = 0;
    while (free_end < ra.size() && (ra[free_end] == kTerminalGap || rb[free_end] == kTerminalGap)) ++free_end;
    return m.F(la, lb) / static_cast<double>(ra.size() - free_end);
}

}  // namespace warpdp

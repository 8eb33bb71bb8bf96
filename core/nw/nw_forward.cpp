// NDist/SeqDist distances from forward passes alone (no matrix kept): the
// forms the CPU and CUDA engines compute, equal to the references.
#include "core/nw/nw_forward.hpp"

namespace warpdp {

namespace {
constexpr char kGap = '-';
enum Open : uint8_t { kNone = 0, kGapInA = 1, kGapInB = 2 };
}  // namespace

// General NDist forward form. A literal '-' makes a column look like a gap
// to NDist's distance, so column kinds come from the characters, not the
// moves: (gap, gap) columns change nothing, and a column counts only once
// both rows have shown a residue (the leading overhang is trimmed).
double ndist_forward(std::string_view a, std::string_view b, NwScratch& s) {
    const uint32_t la = static_cast<uint32_t>(a.size()), lb = static_cast<uint32_t>(b.size());
    const size_t first_a = std::min(a.find_first_not_of(kGap), a.size());
    const size_t first_b = std::min(b.find_first_not_of(kGap), b.size());
    s.key.resize(lb + 1);
    s.num.resize(lb + 1);
    s.den.resize(lb + 1);
    s.open.resize(lb + 1);
    for (uint32_t j = 0; j <= lb; ++j) {
        s.key[j] = int64_t{3} * j * 4 + nw_key::left;
        s.num[j] = s.den[j] = 0;
        s.open[j] = kNone;
    }
    struct Cell {
        int64_t key;
        uint32_t num, den;
        uint8_t open;
    };
    // A gap column (the other row shows a residue) opens a run unless one of
    // its kind is open; nothing counts before both rows have started.
    auto gap_column = [](Cell c, uint8_t kind, bool started) {
        if (started) {
            if (c.open != kind) ++c.num, ++c.den;
            c.open = kind;
        }
        return c;
    };
    for (uint32_t i = 1; i <= la; ++i) {
        const char x = a[i - 1];
        const bool x_gap = x == kGap;
        const int64_t gap_left = i == la ? 0 : 3;
        Cell diag{s.key[0], s.num[0], s.den[0], s.open[0]};
        s.key[0] = int64_t{3} * i * 4 + nw_key::up;  // column 0: counts stay 0 (nothing started)
        for (uint32_t j = 1; j <= lb; ++j) {
            const char y = b[j - 1];
            const bool y_gap = y == kGap, started = i > first_a && j > first_b;
            const Cell up{s.key[j], s.num[j], s.den[j], s.open[j]};
            const Cell left{s.key[j - 1], s.num[j - 1], s.den[j - 1], s.open[j - 1]};
            const int64_t kd = (diag.key & ~int64_t{3}) + (x == y ? 0 : 8) + nw_key::diag;
            const int64_t kl = (left.key & ~int64_t{3}) + gap_left * 4 + nw_key::left;
            const int64_t ku = (up.key & ~int64_t{3}) + (j == lb ? 0 : 12) + nw_key::up;
            const int64_t k = std::min({kd, kl, ku});
            Cell c;
            switch (static_cast<int32_t>(k & 3)) {
                case nw_key::diag:
                    c = diag;
                    if (x_gap && y_gap) break;
                    if (x_gap || y_gap) {
                        c = gap_column(c, x_gap ? kGapInA : kGapInB, started);
                    } else {
                        ++c.den;
                        if (x != y && x != 'N' && y != 'N') ++c.num;
                        c.open = kNone;
                    }
                    break;
                case nw_key::left:
                    c = y_gap ? left : gap_column(left, kGapInA, started);
                    break;
                default:
                    c = x_gap ? up : gap_column(up, kGapInB, started);
                    break;
            }
            c.key = k;
            diag = up;
            s.key[j] = k;
            s.num[j] = c.num, s.den[j] = c.den, s.open[j] = c.open;
        }
        s.num[0] = s.den[0] = 0;
        s.open[0] = kNone;
    }
    if (la == 0 || lb == 0) return 1.0;
    uint32_t num = s.num[lb], den = s.den[lb];
    if (s.open[lb] != kNone) --num, --den;  // the trailing overhang
    return den > 0 ? static_cast<double>(num) / static_cast<double>(den) : 1.0;
}

// SeqDist forward form: the left neighbour's move and letters give the
// homopolymer test, and a length counter replaces the traceback.
double seqdist_forward(std::string_view a, std::string_view b, const SeqDistTable& t, NwScratch& s) {
    const uint32_t la = static_cast<uint32_t>(a.size()), lb = static_cast<uint32_t>(b.size());
    constexpr double gap = 15.0, homopolymer_gap = 4.0;
    s.f.resize(lb + 1);
    s.aux.resize(lb + 1);   // alignment length so far, free trailing moves not counted
    s.move.resize(lb + 1);
    for (uint32_t j = 0; j <= lb; ++j) s.f[j] = gap * j, s.aux[j] = static_cast<int32_t>(j), s.move[j] = nw_key::left;
    for (uint32_t i = 1; i <= la; ++i) {
        const char x = a[i - 1];
        const int cx = nw_code::seqdist(x);
        double f_diag = s.f[0];
        int32_t len_diag = s.aux[0];
        s.f[0] = gap * i, s.aux[0] = static_cast<int32_t>(i), s.move[0] = nw_key::up;
        for (uint32_t j = 1; j <= lb; ++j) {
            const char y = b[j - 1];
            // The letter of the column that entered (i, j-1): for j == 1 that
            // is column 0's UP move, consuming x.
            char last;
            switch (s.move[j - 1]) {
                case nw_key::diag: last = x == b[j - 2] ? x : 0; break;
                case nw_key::left: last = b[j - 2]; break;
                default: last = x; break;
            }
            const double g = y == last ? homopolymer_gap : gap;
            const double diag = f_diag + t.at(cx, nw_code::seqdist(y));
            const double left = i == la ? s.f[j - 1] : s.f[j - 1] + g;
            const double up = j == lb ? s.f[j] : s.f[j] + g;
            int32_t mv;
            if (diag < left) mv = diag < up ? nw_key::diag : nw_key::up;
            else mv = left < up ? nw_key::left : nw_key::up;
            const double dl = diag < left ? diag : left;
            const double f = up < dl ? up : dl;
            int32_t len;
            if (mv == nw_key::diag) len = len_diag + 1;
            else if (mv == nw_key::left) len = s.aux[j - 1] + (i == la ? 0 : 1);
            else len = s.aux[j] + (j == lb ? 0 : 1);
            f_diag = s.f[j], len_diag = s.aux[j];
            s.f[j] = f, s.aux[j] = len, s.move[j] = static_cast<uint8_t>(mv);
        }
    }
    return s.f[lb] / static_cast<double>(s.aux[lb]);
}

}  // namespace warpdp

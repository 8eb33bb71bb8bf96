// The traceback rule of sw_traceback.hpp, twice: sw_align in bounded memory
// (an end pass and a reversed pass for the start, both the CPU engine's
// striped kernels tracking the first cell that reaches the score, and the
// start-end rectangle traced from one byte a cell, recomputed block by
// block from checkpoint rows when it is large),
// and sw_align_full over whole tables, with the start found by trying each
// candidate in the rule's order: a second formulation for the tests.
#include "core/sw/sw_traceback.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/sw/sw_cpu.hpp"

namespace warpdp {

namespace {

constexpr int64_t kNegInf = std::numeric_limits<int64_t>::min() / 4;

// Step 1's result: the best score and its first cell (the last pair).
struct End {
    int64_t score = 0;
    uint64_t i = 0, j = 0;
};

// Anchored rows: alignments that begin with the pair (a[0], b[0]). M, I, D
// are the best scores of such alignments whose last column is the pair
// (a[i], b[j]), a[i] against a gap, or b[j] against a gap. Choices: for
// each state, the predecessor column kept (the first of M, I, D reaching
// the maximum), two bits each: M in bits 0-1 (3: the start), I in 2-3, D in 4-5.
enum : uint8_t { kM = 0, kI = 1, kD = 2, kStart = 3 };

// Rows are int32_t, floored at kRowNegInf: every cell on the alignment
// traced holds a value >= 0 (a suffix that starts with a pair never scores
// above S, so what comes before it never scores below 0), and scores fit
// int32_t (sw_engine.hpp), so the floor only ever meets cells off the
// trace, and halving the rows keeps long ones in the cache.
constexpr int32_t kRowNegInf = -(1 << 30);

struct Rows {
    std::vector<int32_t> M, I, D;
    explicit Rows(size_t c) : M(c, kRowNegInf), I(c, kRowNegInf), D(c, kRowNegInf) {}
};

// The first of M, I, D reaching the maximum, without branches (which of
// them it is changes from cell to cell unpredictably).
inline uint8_t first_max(int32_t vm, int32_t vi, int32_t vd, int32_t& out) {
    out = std::max({vm, vi, vd, kRowNegInf});
    const uint8_t not_m = out != vm, not_i = out != vi;
    return static_cast<uint8_t>(not_m + (not_m & not_i));
}

// Row i of the anchored recurrences over a (the rectangle's query residues)
// and b (its target residues, c of them); prev is row i - 1 (unused for
// i == 0), cur receives row i; choice, when given, receives c bytes.
void anchored_row(uint64_t i, const uint8_t* a, const uint8_t* b, size_t c, const SwScoring& sc, const Rows& prev,
                  Rows& cur, uint8_t* choice) {
    const int32_t open = sc.gap_open, ext = sc.gap_extend;
    const int16_t* srow = sc.matrix->table().data() + static_cast<size_t>(a[i]) * kSwMaxLetters;
    // Column 0: no pair before it but the start; no target residue to its left.
    int32_t m0 = kRowNegInf, i0 = kRowNegInf;
    uint8_t ic0 = kM;
    if (i == 0) m0 = srow[b[0]];
    else ic0 = first_max(prev.M[0] - open, prev.I[0] - ext, prev.D[0] - open, i0);
    cur.M[0] = m0;
    cur.I[0] = i0;
    cur.D[0] = kRowNegInf;
    if (choice) choice[0] = static_cast<uint8_t>((i == 0 ? kStart : kM) | ic0 << 2);
    const int32_t* pM = prev.M.data();
    const int32_t* pI = prev.I.data();
    const int32_t* pD = prev.D.data();
    int32_t* cM = cur.M.data();
    int32_t* cI = cur.I.data();
    int32_t* cD = cur.D.data();
    // M and I read only the row above: no chain from cell to cell here.
    if (i > 0) {
        for (size_t j = 1; j < c; ++j) {
            int32_t best, iv;
            const uint8_t mc = first_max(pM[j - 1], pI[j - 1], pD[j - 1], best);
            const uint8_t ic = first_max(pM[j] - open, pI[j] - ext, pD[j] - open, iv);
            cM[j] = std::max(best + srow[b[j]], kRowNegInf);
            cI[j] = iv;
            if (choice) choice[j] = static_cast<uint8_t>(mc | ic << 2);
        }
    } else {
        for (size_t j = 1; j < c; ++j) {
            cM[j] = kRowNegInf;
            cI[j] = kRowNegInf;
            if (choice) choice[j] = 0;
        }
    }
    // D runs along the row.
    int32_t ld = kRowNegInf;
    for (size_t j = 1; j < c; ++j) {
        int32_t dv;
        const uint8_t dc = first_max(cM[j - 1] - open, cI[j - 1] - open, ld - ext, dv);
        cD[j] = ld = dv;
        if (choice) choice[j] = static_cast<uint8_t>(choice[j] | dc << 4);
    }
}

// Step 2: local scores over the reversed prefixes q[..ie] and t[..je]. Any
// local alignment of score S inside them ends at the end (an earlier end
// would come first in step 1's order), so a reversed cell reaching S is a
// start of an optimal alignment to the end. The query runs along the
// columns (as the target, the matrix read transposed), so the kernel's first
// cell is the smallest reversed query position (the largest query start),
// then the smallest reversed target position (the largest target start).
void find_start(std::span<const uint8_t> q, std::span<const uint8_t> t, const SwScoring& sc, const End& e,
                const SwCpuVariant& v, uint64_t& qbegin, uint64_t& tbegin) {
    const std::vector<uint8_t> rq(q.rend() - static_cast<std::ptrdiff_t>(e.i + 1), q.rend());
    const std::vector<uint8_t> rt(t.rend() - static_cast<std::ptrdiff_t>(e.j + 1), t.rend());
    const SwEnd r = sw_find_end(v, rt, rq, sc, true);
    if (r.score != e.score) throw InternalError("sw_align: the reversed pass misses the end's score");
    qbegin = e.i - r.j;
    tbegin = e.j - r.i;
}

// Step 3: the rectangle [qb, qe] x [tb, te] from its start, traced back
// from its end; bytes for at most memory_cells cells at once.
std::string trace_rectangle(std::span<const uint8_t> q, std::span<const uint8_t> t, const SwScoring& sc,
                            uint64_t qb, uint64_t tb, const End& e, uint64_t memory_cells, uint64_t checkpoint_cells) {
    const uint64_t r = e.i - qb + 1, c = e.j - tb + 1;
    const uint8_t* a = q.data() + qb;
    const uint8_t* b = t.data() + tb;
    const uint64_t h = std::max<uint64_t>(1, std::min<uint64_t>(r, memory_cells / c));
    const uint64_t blocks = (r + h - 1) / h;
    if (blocks > 1 && (blocks - 1) * c > checkpoint_cells)
        throw ResourceError("the traceback of a " + std::to_string(r) + " x " + std::to_string(c) +
                            " alignment rectangle needs more memory than allowed");
    std::vector<uint8_t> choice;
    std::vector<Rows> checkpoints;  // checkpoints[k]: row (k + 1) h - 1, the row before block k + 1
    try {
        choice.resize(static_cast<size_t>(h * c));
        checkpoints.reserve(static_cast<size_t>(blocks - 1));
    } catch (const std::bad_alloc&) {
        throw ResourceError("cannot allocate the traceback of a " + std::to_string(r) + " x " + std::to_string(c) +
                            " alignment rectangle");
    }
    Rows prev(c), cur(c);
    if (blocks > 1) {
        for (uint64_t i = 0; i < (blocks - 1) * h; ++i) {  // every row before the last block
            anchored_row(i, a, b, c, sc, prev, cur, nullptr);
            if ((i + 1) % h == 0) checkpoints.push_back(cur);
            std::swap(prev, cur);
        }
    }
    std::string rev;
    uint8_t state = kM;
    uint64_t i = r - 1, j = c - 1;
    bool first = true;
    for (uint64_t blk = blocks; blk-- > 0;) {
        const uint64_t row0 = blk * h, row1 = std::min(r, row0 + h);
        if (blk > 0) prev = checkpoints[static_cast<size_t>(blk - 1)];
        for (uint64_t k = row0; k < row1; ++k) {
            anchored_row(k, a, b, c, sc, prev, cur, choice.data() + (k - row0) * c);
            std::swap(prev, cur);
        }
        if (first) {
            if (prev.M[c - 1] != e.score) throw InternalError("sw_align: the rectangle's end misses the score");
            first = false;
        }
        while (i >= row0) {
            const uint8_t ch = choice[static_cast<size_t>((i - row0) * c + j)];
            if (state == kM) {
                rev += 'M';
                const uint8_t p = ch & 3;
                if (p == kStart) return std::string(rev.rbegin(), rev.rend());
                state = p;
                --i;
                --j;
            } else if (state == kI) {
                rev += 'I';
                state = (ch >> 2) & 3;
                --i;
            } else {
                rev += 'D';
                state = (ch >> 4) & 3;
                --j;
            }
            if (i == UINT64_MAX) break;
        }
    }
    throw InternalError("sw_align: the trace left the rectangle");
}

void check_lengths(std::span<const uint8_t> q, std::span<const uint8_t> t) {
    if (q.size() > kSwMaxLength || t.size() > kSwMaxLength)
        throw UsageError("sequences longer than " + std::to_string(kSwMaxLength) + " residues are not aligned");
}

}  // namespace

SwAlignment sw_align(std::span<const uint8_t> query, std::span<const uint8_t> target, const SwScoring& sc,
                     const SwAlignOptions& opt) {
    check_sw_scoring(sc);
    check_lengths(query, target);
    SwAlignment out;
    const SwCpuVariant& v = opt.variant ? *opt.variant : choose_variant<sw_cpu_variants>();
    const SwEnd found = sw_find_end(v, query, target, sc);
    const End e{found.score, found.i, found.j};
    if (e.score <= 0) return out;
    uint64_t qb = 0, tb = 0;
    find_start(query, target, sc, e, v, qb, tb);
    out.score = e.score;
    out.qbegin = qb;
    out.qend = e.i + 1;
    out.tbegin = tb;
    out.tend = e.j + 1;
    out.ops = trace_rectangle(query, target, sc, qb, tb, e, std::max<uint64_t>(opt.memory_cells, 1), opt.checkpoint_cells);
    return out;
}

SwAlignment sw_align_full(std::span<const uint8_t> q, std::span<const uint8_t> t, const SwScoring& sc) {
    check_sw_scoring(sc);
    check_lengths(q, t);
    const SwMatrix& mx = *sc.matrix;
    const int64_t open = sc.gap_open, ext = sc.gap_extend;
    const size_t m = q.size(), n = t.size();
    // Step 1: whole local tables, H[i][j] for prefixes of i and j residues.
    std::vector<int64_t> H((m + 1) * (n + 1), 0), E(H.size(), kNegInf), F(H.size(), kNegInf);
    auto at = [&](size_t i, size_t j) { return i * (n + 1) + j; };
    for (size_t i = 1; i <= m; ++i)
        for (size_t j = 1; j <= n; ++j) {
            E[at(i, j)] = std::max(H[at(i, j - 1)] - open, E[at(i, j - 1)] - ext);
            F[at(i, j)] = std::max(H[at(i - 1, j)] - open, F[at(i - 1, j)] - ext);
            H[at(i, j)] = std::max({int64_t{0}, H[at(i - 1, j - 1)] + mx.score(q[i - 1], t[j - 1]), E[at(i, j)], F[at(i, j)]});
        }
    int64_t S = 0;
    for (size_t i = 1; i <= m; ++i)
        for (size_t j = 1; j <= n; ++j) S = std::max(S, H[at(i, j)]);
    SwAlignment out;
    if (S == 0) return out;
    size_t ie = 0, je = 0;
    bool found = false;
    for (size_t j = 1; j <= n && !found; ++j)
        for (size_t i = 1; i <= m && !found; ++i)
            if (H[at(i, j)] == S) {
                ie = i - 1;
                je = j - 1;
                found = true;
            }
    // Steps 2 and 3: whole anchored tables from a start to the end.
    struct Tables {
        size_t r, c;
        std::vector<int64_t> M, I, D;
    };
    auto anchored = [&](size_t qb, size_t tb) {
        Tables T{ie - qb + 1, je - tb + 1, {}, {}, {}};
        T.M.assign(T.r * T.c, kNegInf);
        T.I = T.M;
        T.D = T.M;
        for (size_t i = 0; i < T.r; ++i)
            for (size_t j = 0; j < T.c; ++j) {
                const size_t k = i * T.c + j;
                const int s = mx.score(q[qb + i], t[tb + j]);
                if (i == 0 && j == 0) T.M[k] = s;
                else if (i > 0 && j > 0) {
                    const size_t p = (i - 1) * T.c + j - 1;
                    const int64_t best = std::max({T.M[p], T.I[p], T.D[p]});
                    if (best > kNegInf) T.M[k] = best + s;
                }
                if (i > 0) {
                    const size_t p = (i - 1) * T.c + j;
                    T.I[k] = std::max({T.M[p] - open, T.I[p] - ext, T.D[p] - open, kNegInf});
                }
                if (j > 0) {
                    const size_t p = k - 1;
                    T.D[k] = std::max({T.M[p] - open, T.I[p] - open, T.D[p] - ext, kNegInf});
                }
            }
        return T;
    };
    for (size_t qb = ie + 1; qb-- > 0;)
        for (size_t tb = je + 1; tb-- > 0;) {
            const Tables T = anchored(qb, tb);
            if (T.M[T.r * T.c - 1] != S) continue;
            // Greedy from the end: the first predecessor column, in the order
            // M, I, D, through which the score is still reached.
            std::string rev;
            size_t i = T.r - 1, j = T.c - 1;
            char state = 'M';
            for (;;) {
                const size_t k = i * T.c + j;
                rev += state;
                if (state == 'M') {
                    if (i == 0 && j == 0) break;
                    const size_t p = (i - 1) * T.c + j - 1;
                    const int64_t need = T.M[k] - mx.score(q[qb + i], t[tb + j]);
                    state = T.M[p] == need ? 'M' : T.I[p] == need ? 'I' : 'D';
                    --i;
                    --j;
                } else if (state == 'I') {
                    const size_t p = (i - 1) * T.c + j;
                    const int64_t v = T.I[k];
                    state = T.M[p] - open == v ? 'M' : T.I[p] - ext == v ? 'I' : 'D';
                    --i;
                } else {
                    const size_t p = k - 1;
                    const int64_t v = T.D[k];
                    state = T.M[p] - open == v ? 'M' : T.I[p] - open == v ? 'I' : 'D';
                    --j;
                }
            }
            out.score = S;
            out.qbegin = qb;
            out.qend = ie + 1;
            out.tbegin = tb;
            out.tend = je + 1;
            out.ops.assign(rev.rbegin(), rev.rend());
            return out;
        }
    throw InternalError("sw_align_full: no start reaches the end's score");
}

int64_t sw_rescore(const SwAlignment& a, std::span<const uint8_t> q, std::span<const uint8_t> t,
                   const SwScoring& sc) {
    if (a.ops.empty()) {
        if (a.qbegin != a.qend || a.tbegin != a.tend) throw InternalError("alignment without columns spans residues");
        return 0;
    }
    if (a.ops.front() != 'M' || a.ops.back() != 'M') throw InternalError("alignment does not begin and end with a pair");
    if (a.qend > q.size() || a.tend > t.size() || a.qbegin > a.qend || a.tbegin > a.tend)
        throw InternalError("alignment coordinates outside the sequences");
    int64_t score = 0;
    uint64_t i = a.qbegin, j = a.tbegin;
    char last = 'M';
    for (char op : a.ops) {
        switch (op) {
            case 'M': score += sc.matrix->score(q[i++], t[j++]); break;
            case 'I': score -= last == 'I' ? sc.gap_extend : sc.gap_open; ++i; break;
            case 'D': score -= last == 'D' ? sc.gap_extend : sc.gap_open; ++j; break;
            default: throw InternalError(std::string("alignment column '") + op + "'");
        }
        if (i > a.qend || j > a.tend) throw InternalError("alignment columns run past its end");
        last = op;
    }
    if (i != a.qend || j != a.tend) throw InternalError("alignment columns end before its end");
    return score;
}

SwColumnCounts sw_count_columns(const SwAlignment& a, std::span<const uint8_t> q, std::span<const uint8_t> t) {
    SwColumnCounts c;
    uint64_t i = a.qbegin, j = a.tbegin;
    char last = 'M';
    for (char op : a.ops) {
        ++c.length;
        if (op == 'M') {
            (q[i++] == t[j++] ? c.identities : c.mismatches) += 1;
        } else {
            ++c.gaps;
            if (op != last) ++c.gap_opens;
            (op == 'I' ? i : j) += 1;
        }
        last = op;
    }
    return c;
}

std::string sw_cigar(const std::string& ops) {
    std::string s;
    for (size_t k = 0; k < ops.size();) {
        size_t e = k;
        while (e < ops.size() && ops[e] == ops[k]) ++e;
        s += std::to_string(e - k);
        s += ops[k];
        k = e;
    }
    return s;
}

}  // namespace warpdp

// null2 (docs/hmmer-filters.md §16.2): usage frequencies of the emitting
// states, then for each canonical residue their sum weighted by the match
// emission odds (insert odds are 1), lane by lane in striped order.
#include "core/hmmer/domains/dom_null2.hpp"

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_lanes.hpp"

namespace warpdp {

using namespace dom_lanes;

namespace {

// State usage: per striped position the M and I counts (or expectations),
// and the emissions of N, C and J.
struct Usage {
    std::vector<Lanes> m, i;
    float n = 0.0f, c = 0.0f, j = 0.0f;
};

// Scales the usage to frequencies over Ld residues and turns it into odds
// ratios for every code.
std::vector<float> null2_odds(const FwdProfile& p, const Alphabet& abc, Usage& u, int64_t Ld) {
    const float norm = recip_dbl(static_cast<float>(Ld));
    const Lanes nv = splat(norm);
    for (int q = 0; q < p.Q; ++q) {
        u.m[static_cast<size_t>(q)] = mul(u.m[static_cast<size_t>(q)], nv);
        u.i[static_cast<size_t>(q)] = mul(u.i[static_cast<size_t>(q)], nv);
    }
    u.n = mul(u.n, norm);
    u.c = mul(u.c, norm);
    u.j = mul(u.j, norm);
    const float xfactor = add(add(u.n, u.c), u.j);

    const int K = abc.K();
    std::vector<float> null2(static_cast<size_t>(abc.Kp()), 0.0f);
    for (int x = 0; x < K; ++x) {
        Lanes sv{};
        for (int q = 0; q < p.Q; ++q) {
            sv = add(sv, mul(u.m[static_cast<size_t>(q)], p.e(x, q)));
            sv = add(sv, u.i[static_cast<size_t>(q)]);
        }
        null2[static_cast<size_t>(x)] = add(hsum(sv), xfactor);
    }
    dom_null2_non_canonical(abc, null2);
    return null2;
}

}  // namespace

void dom_null2_non_canonical(const Alphabet& abc, std::span<float> null2) {
    const int K = abc.K(), Kp = abc.Kp();
    // Degenerate codes: Easel's mean of the members' odds, summed in code order.
    for (int x = K + 1; x <= Kp - 3; ++x) {
        float sum = 0.0f;
        int n = 0;
        for (int y = 0; y < K; ++y)
            if (abc.degenerate_has(x, y)) {
                sum = add(sum, null2[static_cast<size_t>(y)]);
                ++n;
            }
        null2[static_cast<size_t>(x)] = div(sum, static_cast<float>(n));
    }
    null2[static_cast<size_t>(K)] = 1.0f;       // gap
    null2[static_cast<size_t>(Kp - 2)] = 1.0f;  // '*'
    null2[static_cast<size_t>(Kp - 1)] = 1.0f;  // '~'
}

std::vector<float> dom_null2_by_expectation(const FwdProfile& p, const Alphabet& abc, const DomMatrix& pp) {
    const uint64_t Ld = pp.L();
    if (Ld == 0 || !pp.full() || pp.M() != p.M) throw InternalError("null2 needs the full posterior matrix of a non-empty envelope");
    Usage u;
    u.m.resize(static_cast<size_t>(p.Q));
    u.i.resize(static_cast<size_t>(p.Q));
    for (int q = 0; q < p.Q; ++q) {
        u.m[static_cast<size_t>(q)] = load(pp.cell(1, q, kDomM));
        u.i[static_cast<size_t>(q)] = load(pp.cell(1, q, kDomI));
    }
    u.n = pp.x(1, kDomXN);
    u.c = pp.x(1, kDomXC);
    u.j = pp.x(1, kDomXJ);
    for (uint64_t i = 2; i <= Ld; ++i) {
        for (int q = 0; q < p.Q; ++q) {
            u.m[static_cast<size_t>(q)] = add(load(pp.cell(i, q, kDomM)), u.m[static_cast<size_t>(q)]);
            u.i[static_cast<size_t>(q)] = add(load(pp.cell(i, q, kDomI)), u.i[static_cast<size_t>(q)]);
        }
        u.n = add(u.n, pp.x(i, kDomXN));
        u.c = add(u.c, pp.x(i, kDomXC));
        u.j = add(u.j, pp.x(i, kDomXJ));
    }
    return null2_odds(p, abc, u, static_cast<int64_t>(Ld));
}

std::vector<float> dom_null2_by_trace(const FwdProfile& p, const Alphabet& abc, const DomTrace& tr, int zstart,
                                      int zend) {
    Usage u;
    u.m.assign(static_cast<size_t>(p.Q), Lanes{});
    u.i.assign(static_cast<size_t>(p.Q), Lanes{});
    int64_t Ld = 0;
    for (int z = zstart; z <= zend; ++z) {
        const DomTraceStep& s = tr.steps[static_cast<size_t>(z)];
        if (s.i == 0) continue;  // emits nothing
        ++Ld;
        if (s.k > 0) {  // M or I: both counted in the match slot of node k
            float& c = u.m[static_cast<size_t>((s.k - 1) % p.Q)][static_cast<size_t>((s.k - 1) / p.Q)];
            c = add(c, 1.0f);
        } else if (s.st == kStN) {
            u.n = add(u.n, 1.0f);
        } else if (s.st == kStC) {
            u.c = add(u.c, 1.0f);
        } else if (s.st == kStJ) {
            u.j = add(u.j, 1.0f);
        }
    }
    return null2_odds(p, abc, u, Ld);
}

}  // namespace warpdp

// Clustering the sampled domains of a region (docs/hmmer-filters.md §16.3).
// Every quotient below is a float quotient of integers compared as HMMER
// compares it (float against a float threshold, or against the double 0.8).
#include "core/hmmer/domains/dom_ensemble.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_stotrace.hpp"

namespace warpdp {

namespace {

float ratio(int64_t num, int64_t den) { return static_cast<float>(num) / static_cast<float>(den); }

// HMMER's linkage rule. The model overlap lacks the +1 the sequence
// overlap has; kept, since it decides links.
bool linked(const DomSegment& a, const DomSegment& b, const DomClusterParams& p) {
    auto len_pick = [&](int64_t la, int64_t lb) { return p.of_smaller ? std::min(la, lb) : std::max(la, lb); };
    int64_t nov = std::min(a.j, b.j) - std::max(a.i, b.i) + 1;
    int64_t n = len_pick(a.j - a.i + 1, b.j - b.i + 1);
    if (ratio(nov, n) < p.min_overlap) return false;
    nov = std::min(a.m, b.m) - std::max(a.k, b.k);
    n = len_pick(a.m - a.k + 1, b.m - b.k + 1);
    if (ratio(nov, n) < p.min_overlap) return false;
    if (std::llabs((a.i - a.k) - (b.i - b.k)) <= p.max_diagdiff) return true;
    return std::llabs((a.j - a.m) - (b.j - b.m)) <= p.max_diagdiff;
}

// Easel's single linkage: a breadth-first walk that takes the unvisited
// vertices from a stack (vertex 0 on top) and scans that stack from its
// top for links, moving its top into the hole a linked vertex leaves. The
// cluster numbers depend on this order.
int single_linkage(const std::vector<DomSegment>& v, const DomClusterParams& p, std::vector<int>& c) {
    const int n = static_cast<int>(v.size());
    std::vector<int> a(static_cast<size_t>(n)), b;
    for (int x = 0; x < n; ++x) a[static_cast<size_t>(x)] = n - x - 1;
    c.assign(static_cast<size_t>(n), 0);
    int na = n, nc = 0;
    while (na > 0) {
        b.push_back(a[static_cast<size_t>(--na)]);
        while (!b.empty()) {
            const int x = b.back();
            b.pop_back();
            c[static_cast<size_t>(x)] = nc;
            for (int t = na - 1; t >= 0; --t) {
                const int w = a[static_cast<size_t>(t)];
                if (linked(v[static_cast<size_t>(x)], v[static_cast<size_t>(w)], p)) {
                    a[static_cast<size_t>(t)] = a[static_cast<size_t>(--na)];
                    b.push_back(w);
                }
            }
        }
        ++nc;
    }
    return nc;
}

// The consensus endpoint: the first value, scanning from `from` towards
// `to`, that at least `threshold` segments share; else the most frequent
// (the lowest such value).
template <typename T>
T endpoint(const std::vector<T>& vals, T lo, T hi, int threshold, bool from_left) {
    std::vector<int> count(static_cast<size_t>(hi - lo + 1), 0);
    for (T x : vals) ++count[static_cast<size_t>(x - lo)];
    if (from_left) {
        for (T x = lo; x <= hi; ++x)
            if (count[static_cast<size_t>(x - lo)] >= threshold) return x;
    } else {
        for (T x = hi; x >= lo; --x)
            if (count[static_cast<size_t>(x - lo)] >= threshold) return x;
    }
    size_t best = 0;
    for (size_t z = 1; z < count.size(); ++z)
        if (count[z] > count[best]) best = z;
    return lo + static_cast<T>(best);
}

}  // namespace

void DomEnsemble::add(int sample, int64_t i, int64_t j, int k, int m) {
    if (sample > nsamples_)
        throw InternalError("DomEnsemble::add: samples out of order");
    if (sample == nsamples_) ++nsamples_;
    segs_.push_back(DomSegment{sample, i, j, k, m});
}

std::vector<DomCluster> DomEnsemble::cluster(const DomClusterParams& p) {
    const int nc = single_linkage(segs_, p, assignment_);
    std::vector<DomCluster> out;
    std::vector<int64_t> is, js;
    std::vector<int> ks, ms;
    for (int c = 0; c < nc; ++c) {
        // samples with a segment in c: segments arrive grouped by sample
        int ninc = 0, last = -1;
        is.clear(), js.clear(), ks.clear(), ms.clear();
        for (size_t h = 0; h < segs_.size(); ++h) {
            if (assignment_[h] != c) continue;
            const DomSegment& s = segs_[h];
            if (s.sample != last) ++ninc;
            last = s.sample;
            is.push_back(s.i), js.push_back(s.j), ks.push_back(s.k), ms.push_back(s.m);
        }
        if (ratio(ninc, nsamples_) < p.min_posterior) continue;
        const int threshold = static_cast<int>(std::ceil(static_cast<float>(ninc) * p.min_endpointp));
        auto lo_hi = [](const auto& v) { return std::minmax_element(v.begin(), v.end()); };
        const auto [imin, imax] = lo_hi(is);
        const auto [jmin, jmax] = lo_hi(js);
        const auto [kmin, kmax] = lo_hi(ks);
        const auto [mmin, mmax] = lo_hi(ms);
        DomCluster d;
        d.i = endpoint(is, *imin, *imax, threshold, true);
        d.k = endpoint(ks, *kmin, *kmax, threshold, true);
        d.j = endpoint(js, *jmin, *jmax, threshold, false);
        d.m = endpoint(ms, *mmin, *mmax, threshold, false);
        // no well-defined domain (e.g. a long biased stretch): dropped
        if (d.i > d.j || d.k > d.m) continue;
        d.prob = ratio(ninc, nsamples_);
        d.id = c;
        out.push_back(d);
    }
    std::stable_sort(out.begin(), out.end(), [](const DomCluster& a, const DomCluster& b) { return a.i < b.i; });
    return out;
}

std::vector<DomCluster> dom_drop_dominated(const std::vector<DomCluster>& cl) {
    std::vector<char> dominated(cl.size(), 0);
    for (size_t d = 0; d < cl.size(); ++d)
        for (size_t d2 = d + 1; d2 < cl.size(); ++d2) {
            const int64_t nov = std::min(cl[d].j, cl[d2].j) - std::max(cl[d].i, cl[d2].i) + 1;
            if (nov == 0) break;
            const int64_t n = std::min(cl[d].j - cl[d].i + 1, cl[d2].j - cl[d2].i + 1);
            if (static_cast<double>(ratio(nov, n)) >= 0.8) {
                if (cl[d].prob > cl[d2].prob) dominated[d2] = 1;
                else dominated[d] = 1;
            }
        }
    std::vector<DomCluster> kept;
    for (size_t d = 0; d < cl.size(); ++d)
        if (!dominated[d]) kept.push_back(cl[d]);
    return kept;
}

void dom_sample_region(EaselRandom& rng, bool reseed, const FwdProfile& prof, const DomSpecialOdds& odds,
                       const DomMatrix& fwd, int64_t ireg, int nsamples, DomEnsemble& ens,
                       const std::function<void(const DomTrace&)>& on_trace) {
    ens.clear();
    if (reseed) rng.reseed(rng.seed());
    DomTrace tr;
    for (int t = 0; t < nsamples; ++t) {
        dom_stochastic_trace(rng, prof, odds, fwd, tr);
        dom_trace_index(tr);
        for (const DomTraceDomain& d : tr.domains)
            ens.add(t, d.sqfrom + ireg - 1, d.sqto + ireg - 1, d.hmmfrom, d.hmmto);
        if (on_trace) on_trace(tr);
    }
}

}  // namespace warpdp

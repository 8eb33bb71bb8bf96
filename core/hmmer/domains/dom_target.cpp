// docs/hmmer-filters.md §16.4: p7_Pipeline after the Forward filter, with
// p7_domaindef_ByPosteriorHeuristics and rescore_isolated_domain, every float
// operation in HMMER's order (float sums, double logs and quotients rounded
// to float where HMMER stores them).
#include "core/hmmer/domains/dom_target.hpp"

#include <cmath>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/background.hpp"
#include "core/hmmer/domains/dom_alidisplay.hpp"
#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/domains/dom_fwdback.hpp"
#include "core/hmmer/domains/dom_null2.hpp"
#include "core/hmmer/domains/dom_optacc.hpp"
#include "core/hmmer/domains/dom_regions.hpp"
#include "core/hmmer/domains/dom_sums.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm.hpp"

namespace warpdp {

const char* dom_outcome_error(DomOutcome o) noexcept {
    switch (o) {
        case DomOutcome::forward_range_error: return "its Forward score is NaN or under- or overflows";
        case DomOutcome::backward_range_error: return "its Backward score is NaN or under- or overflows";
        case DomOutcome::decoding_overflow: return "its domain decoding overflows";
        default: return "";
    }
}

DomKernels dom_reference_kernels() { return {dom_forward, dom_backward, dom_decoding, dom_optimal_accuracy}; }
DomKernels dom_vector_kernels() {
    return {dom_forward_cpu, dom_backward_cpu, dom_decoding_cpu, dom_optimal_accuracy_cpu};
}

namespace {

constexpr double kLog2 = 0.69314718055994529;  // Easel's eslCONST_LOG2
constexpr float kOmega = 1.0f / 256.0f;        // HMMER's prior on the null2 model (bg->omega)

double exp_logsurv(double x, double tau, double lambda) { return x < tau ? 0.0 : -lambda * (x - tau); }

struct Search {
    const DomKernels& k;
    const DomModel& model;
    const DomTarget& target;
    DomWorkspace& ws;
    DomHit& hit;
    DomSpecialOdds uni;
    std::vector<float> n2sc;  // per residue 0..L, log null2 odds (nats)

    // rescore_isolated_domain on residues i..j: DomOutcome::hit with the
    // domain added, no_domain where decoding overflows (HMMER then drops
    // the envelope), or a range error that stops hmmsearch.
    DomOutcome rescore(int64_t i, int64_t j, bool null2_done) {
        const FwdProfile& om = *model.odds;
        const auto sub = target.dsq.subspan(static_cast<size_t>(i - 1), static_cast<size_t>(j - i + 1));
        const float envsc = k.forward(om, uni, sub, ws.fwd, true);
        if (std::isnan(envsc)) return DomOutcome::forward_range_error;
        if (std::isnan(k.backward(om, uni, sub, ws.fwd, ws.bck, true))) return DomOutcome::backward_range_error;
        if (k.decoding(uni, ws.fwd, ws.bck, ws.bck) != DomDecodeStatus::ok) return DomOutcome::no_domain;  // bck: posteriors
        const float oasc = k.optimal_accuracy(om, uni, ws.bck, ws.oa);
        DomTrace tr;
        dom_oa_trace(om, uni, ws.bck, ws.oa, tr, i - 1);
        DomDomain d;
        d.ad = dom_alidisplay(tr, 0, *model.hmm, om, {target.name, target.acc, target.desc, target.dsq});
        if (!null2_done) {
            const std::vector<float> null2 = dom_null2_by_expectation(om, Alphabet::amino(), ws.bck);
            for (int64_t pos = i; pos <= j; ++pos)
                n2sc[static_cast<size_t>(pos)] = std::log(null2[target.dsq[static_cast<size_t>(pos - 1)]]);
        }
        float domcorrection = 0.0f;
        for (int64_t pos = i; pos <= j; ++pos) domcorrection += n2sc[static_cast<size_t>(pos)];
        d.domcorrection = domcorrection;
        d.iali = d.ad.sqfrom;
        d.jali = d.ad.sqto;
        d.ienv = i;
        d.jenv = j;
        d.envsc = envsc;
        d.oasc = oasc;
        hit.domains.push_back(std::move(d));
        return DomOutcome::hit;
    }

    // region_trace_ensemble: sampled traces set null2 on the region and
    // their clusters, minus the dominated ones, are the envelopes.
    // (empty, with `error` set, where the region's Forward stops hmmsearch)
    std::vector<DomCluster> envelopes_of(int64_t i, int64_t j, const DomSpecialOdds& multi, DomOutcome& error) {
        const FwdProfile& om = *model.odds;
        const auto sub = target.dsq.subspan(static_cast<size_t>(i - 1), static_cast<size_t>(j - i + 1));
        if (std::isnan(k.forward(om, multi, sub, ws.fwd, true))) {
            error = DomOutcome::forward_range_error;
            return {};
        }
        for (int64_t pos = i; pos <= j; ++pos) n2sc[static_cast<size_t>(pos)] = 0.0f;
        const DomClusterParams params;
        const auto on_trace = [&](const DomTrace& tr) {
            int64_t pos = 1;
            for (const DomTraceDomain& d : tr.domains) {
                const std::vector<float> null2 = dom_null2_by_trace(om, Alphabet::amino(), tr, d.tfrom, d.tto);
                for (; pos <= d.sqfrom; ++pos) n2sc[static_cast<size_t>(i + pos - 1)] += 1.0f;
                for (; pos <= d.sqto; ++pos)
                    n2sc[static_cast<size_t>(i + pos - 1)] += null2[target.dsq[static_cast<size_t>(i + pos - 2)]];
            }
            for (; pos <= j - i + 1; ++pos) n2sc[static_cast<size_t>(i + pos - 1)] += 1.0f;
        };
        dom_sample_region(ws.rng, true, om, multi, ws.fwd, i, params.nsamples, ws.ensemble, on_trace);
        for (int64_t pos = i; pos <= j; ++pos)
            n2sc[static_cast<size_t>(pos)] =
                std::log(n2sc[static_cast<size_t>(pos)] / static_cast<float>(params.nsamples));
        return dom_drop_dominated(ws.ensemble.cluster(params));
    }
};

}  // namespace

DomOutcome dom_search_target(const DomKernels& k, const DomModel& model, const DomTarget& target,
                             const DomSettings& settings, DomWorkspace& ws, DomHit& hit) {
    const FwdProfile& om = *model.odds;
    const auto L = static_cast<uint64_t>(target.dsq.size());
    const DomSpecialOdds multi = dom_special_odds(L, true);
    hit = DomHit{};
    Search s{k, model, target, ws, hit, dom_special_odds(L, false), std::vector<float>(L + 1, 0.0f)};
    if (ws.rng.seed() != settings.seed) ws.rng.reseed(settings.seed);

    const float fwdsc = k.forward(om, multi, target.dsq, ws.fwd_parser, false);
    if (std::isnan(fwdsc)) return DomOutcome::forward_range_error;
    if (std::isnan(k.backward(om, multi, target.dsq, ws.fwd_parser, ws.bck_parser, false)))
        return DomOutcome::backward_range_error;
    if (dom_domain_decoding(multi, ws.fwd_parser, ws.bck_parser, ws.occupancy) != DomDecodeStatus::ok)
        return DomOutcome::decoding_overflow;
    const DomOccupancy& occ = ws.occupancy;
    hit.nexpected = occ.btot[L];
    for (const DomRegion& r : dom_find_regions(occ.mocc, occ.btot, occ.etot)) {
        ++hit.nregions;
        if (!r.multidomain) {
            ++hit.nenvelopes;
            if (const DomOutcome o = s.rescore(r.i, r.j, false); o != DomOutcome::hit && o != DomOutcome::no_domain)
                return o;
            continue;
        }
        ++hit.nclustered;
        int64_t last_j = 0;
        DomOutcome error = DomOutcome::hit;
        const std::vector<DomCluster> envelopes = s.envelopes_of(r.i, r.j, multi, error);
        if (error != DomOutcome::hit) return error;
        for (const DomCluster& c : envelopes) {
            if (c.i <= last_j) ++hit.noverlaps;
            ++hit.nenvelopes;
            const DomOutcome o = s.rescore(c.i, c.j, true);
            if (o == DomOutcome::hit) last_j = c.j;
            else if (o != DomOutcome::no_domain) return o;
        }
    }
    if (hit.nregions == 0 || hit.nenvelopes == 0 || hit.domains.empty()) return DomOutcome::no_domain;

    // The sequence scores, as p7_Pipeline computes them.
    const float nullsc = null_score(L);
    const double tau = model.hmm->evparam[kFwdTau], lambda = model.hmm->evparam[kFwdLambda];
    const double log_omega = std::log(static_cast<double>(kOmega));
    const float seqbias =
        settings.null2 ? hmmer_flogsum(0.0f, static_cast<float>(log_omega + easel_fsum(s.n2sc))) : 0.0f;
    float pre_score = static_cast<float>((fwdsc - nullsc) / kLog2);
    float seq_score = static_cast<float>((fwdsc - (nullsc + seqbias)) / kLog2);

    // The "reconstruction" score: the domains that count, summed.
    float sum_score = 0.0f, sum_bias = 0.0f;
    int64_t Ld = 0;
    for (const DomDomain& d : hit.domains) {
        if (!(settings.null2 ? d.envsc - d.domcorrection > 0.0f : d.envsc > 0.0f)) continue;
        sum_score += d.envsc;
        Ld += d.jenv - d.ienv + 1;
        if (settings.null2) sum_bias += d.domcorrection;
    }
    if (settings.null2) sum_bias = hmmer_flogsum(0.0f, static_cast<float>(log_omega + sum_bias));
    const auto n = static_cast<int64_t>(L);
    const double per_residue = std::log(static_cast<double>(static_cast<float>(n) / static_cast<float>(n + 3)));
    sum_score = static_cast<float>(static_cast<double>(sum_score) + static_cast<double>(n - Ld) * per_residue);
    const float pre2_score = static_cast<float>((sum_score - nullsc) / kLog2);
    sum_score = static_cast<float>((sum_score - (nullsc + sum_bias)) / kLog2);
    if (Ld > 0 && sum_score > seq_score) {
        seq_score = sum_score;
        pre_score = pre2_score;
    }
    hit.name = target.name;
    hit.acc = target.acc;
    hit.desc = target.desc;
    hit.seqidx = target.seqidx;
    hit.score = seq_score;
    hit.lnP = exp_logsurv(seq_score, tau, lambda);
    hit.pre_score = pre_score;
    hit.pre_lnP = exp_logsurv(pre_score, tau, lambda);
    hit.sum_score = sum_score;
    hit.sum_lnP = exp_logsurv(sum_score, tau, lambda);
    hit.best_domain = 0;
    for (size_t d = 0; d < hit.domains.size(); ++d) {
        DomDomain& dom = hit.domains[d];
        const int64_t Ldom = dom.jenv - dom.ienv + 1;
        const auto bits = static_cast<float>(static_cast<double>(dom.envsc) + static_cast<double>(n - Ldom) * per_residue);
        dom.dombias =
            settings.null2 ? hmmer_flogsum(0.0f, static_cast<float>(log_omega + dom.domcorrection)) : 0.0f;
        dom.bitscore = static_cast<float>((bits - (nullsc + dom.dombias)) / kLog2);
        dom.lnP = exp_logsurv(dom.bitscore, tau, lambda);
        if (dom.bitscore > hit.domains[static_cast<size_t>(hit.best_domain)].bitscore) hit.best_domain = static_cast<int>(d);
    }
    return DomOutcome::hit;
}

}  // namespace warpdp

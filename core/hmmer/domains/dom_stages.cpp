// docs/hmmer-filters.md §16.4: p7_Pipeline after the Forward filter, with
// p7_domaindef_ByPosteriorHeuristics and rescore_isolated_domain, every float
// operation in HMMER's order (float sums, double logs and quotients rounded
// to float where HMMER stores them), cut into the stages of dom_stages.hpp.
#include "core/hmmer/domains/dom_stages.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/alphabet.hpp"
#include "core/hmmer/background.hpp"
#include "core/hmmer/domains/dom_alidisplay.hpp"
#include "core/hmmer/domains/dom_null2.hpp"
#include "core/hmmer/domains/dom_optacc.hpp"
#include "core/hmmer/domains/dom_regions.hpp"
#include "core/hmmer/domains/dom_sums.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm.hpp"

namespace warpdp {

namespace {

constexpr double kLog2 = 0.69314718055994529;  // Easel's eslCONST_LOG2
constexpr float kOmega = 1.0f / 256.0f;        // HMMER's prior on the null2 model (bg->omega)

double exp_logsurv(double x, double tau, double lambda) { return x < tau ? 0.0 : -lambda * (x - tau); }

std::span<const uint8_t> residues(const DomTarget& t, int64_t i, int64_t j) {
    return t.dsq.subspan(static_cast<size_t>(i - 1), static_cast<size_t>(j - i + 1));
}

// region_trace_ensemble on residues i..j: the sampled traces set null2 on
// the region and their clusters, minus the dominated ones, are the
// envelopes. False where the region's Forward stops hmmsearch.
bool plan_region(const DomKernels& k, const DomModel& model, const DomTarget& target, int64_t i, int64_t j,
                 DomPlanWorkspace& ws, DomPlan& plan) {
    const FwdProfile& om = *model.odds;
    const DomSpecialOdds multi = dom_special_odds(target.dsq.size(), true);
    if (std::isnan(k.forward(om, multi, residues(target, i, j), ws.fwd, true))) return false;
    std::vector<float>& n2sc = plan.n2sc;
    for (int64_t pos = i; pos <= j; ++pos) n2sc[static_cast<size_t>(pos)] = 0.0f;
    const DomClusterParams params;
    const auto on_trace = [&](const DomTrace& tr) {
        int64_t pos = 1;
        for (const DomTraceDomain& d : tr.domains) {
            k.null2_by_trace(om, Alphabet::amino(), tr, d.tfrom, d.tto, ws.null2, ws.null2_scratch);
            const std::vector<float>& null2 = ws.null2;
            for (; pos <= d.sqfrom; ++pos) n2sc[static_cast<size_t>(i + pos - 1)] += 1.0f;
            for (; pos <= d.sqto; ++pos)
                n2sc[static_cast<size_t>(i + pos - 1)] += null2[target.dsq[static_cast<size_t>(i + pos - 2)]];
        }
        for (; pos <= j - i + 1; ++pos) n2sc[static_cast<size_t>(i + pos - 1)] += 1.0f;
    };
    dom_sample_region(ws.rng, true, om, multi, ws.fwd, i, params.nsamples, ws.ensemble, on_trace);
    for (int64_t pos = i; pos <= j; ++pos)
        n2sc[static_cast<size_t>(pos)] = std::log(n2sc[static_cast<size_t>(pos)] / static_cast<float>(params.nsamples));
    for (const DomCluster& c : dom_drop_dominated(ws.ensemble.cluster(params)))
        plan.jobs.push_back({0, c.i, c.j, false});  // target set by dom_plan_target
    return true;
}

// rescore_isolated_domain's end, from stage C's result: hit with the domain
// added, no_domain where decoding overflowed (HMMER drops the envelope), or
// the range error that stops hmmsearch.
DomOutcome take_envelope(const DomModel& model, const DomTarget& target, const DomEnvelopeJob& job,
                         const DomEnvelopeOut& e, std::vector<float>& n2sc, DomHit& hit) {
    switch (e.status) {
        case DomEnvelopeStatus::forward_range_error: return DomOutcome::forward_range_error;
        case DomEnvelopeStatus::backward_range_error: return DomOutcome::backward_range_error;
        case DomEnvelopeStatus::decoding_overflow: return DomOutcome::no_domain;
        case DomEnvelopeStatus::ok: break;
    }
    DomDomain d;
    d.ad = dom_alidisplay(e.trace, 0, *model.hmm, *model.odds, {target.name, target.acc, target.desc, target.dsq});
    if (job.null2)
        for (int64_t pos = job.i; pos <= job.j; ++pos)
            n2sc[static_cast<size_t>(pos)] = std::log(e.null2[target.dsq[static_cast<size_t>(pos - 1)]]);
    float domcorrection = 0.0f;
    for (int64_t pos = job.i; pos <= job.j; ++pos) domcorrection += n2sc[static_cast<size_t>(pos)];
    d.domcorrection = domcorrection;
    d.iali = d.ad.sqfrom;
    d.jali = d.ad.sqto;
    d.ienv = job.i;
    d.jenv = job.j;
    d.envsc = e.envsc;
    d.oasc = e.oasc;
    hit.domains.push_back(std::move(d));
    return DomOutcome::hit;
}

// The sequence and domain scores, as p7_Pipeline computes them.
void score_hit(const DomModel& model, const DomTarget& target, const DomSettings& settings, float fwdsc,
               const std::vector<float>& n2sc, DomHit& hit) {
    const auto L = static_cast<uint64_t>(target.dsq.size());
    const float nullsc = null_score(L);
    const double tau = model.hmm->evparam[kFwdTau], lambda = model.hmm->evparam[kFwdLambda];
    const double log_omega = std::log(static_cast<double>(kOmega));
    const float seqbias = settings.null2 ? hmmer_flogsum(0.0f, static_cast<float>(log_omega + easel_fsum(n2sc))) : 0.0f;
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
        const auto bits =
            static_cast<float>(static_cast<double>(dom.envsc) + static_cast<double>(n - Ldom) * per_residue);
        dom.dombias = settings.null2 ? hmmer_flogsum(0.0f, static_cast<float>(log_omega + dom.domcorrection)) : 0.0f;
        dom.bitscore = static_cast<float>((bits - (nullsc + dom.dombias)) / kLog2);
        dom.lnP = exp_logsurv(dom.bitscore, tau, lambda);
        if (dom.bitscore > hit.domains[static_cast<size_t>(hit.best_domain)].bitscore)
            hit.best_domain = static_cast<int>(d);
    }
}

}  // namespace

void dom_run_parsers(const DomKernels& k, const DomModel& model, const DomTarget& target, DomKernelWorkspace& ws,
                     DomParserOut& out) {
    const FwdProfile& om = *model.odds;
    const DomSpecialOdds multi = dom_special_odds(target.dsq.size(), true);
    out.fwdsc = k.forward(om, multi, target.dsq, ws.fwd, false);
    if (std::isnan(out.fwdsc)) return;
    out.bcksc = k.backward(om, multi, target.dsq, ws.fwd, ws.bck, false);
    if (std::isnan(out.bcksc)) return;
    out.bck_own_scales = ws.bck.has_own_scales;
    std::ranges::copy(ws.fwd.specials(), out.fwd_rows.begin());
    std::ranges::copy(ws.bck.specials(), out.bck_rows.begin());
}

void dom_plan_target(const DomKernels& k, const DomModel& model, const DomTarget& target,
                     const DomSettings& settings, const DomParserOut& parsers, uint32_t index, DomPlanWorkspace& ws,
                     DomPlan& plan) {
    const auto L = static_cast<uint64_t>(target.dsq.size());
    plan = DomPlan{};
    plan.fwdsc = parsers.fwdsc;
    if (std::isnan(parsers.fwdsc)) {
        plan.outcome = DomOutcome::forward_range_error;
        return;
    }
    if (std::isnan(parsers.bcksc)) {
        plan.outcome = DomOutcome::backward_range_error;
        return;
    }
    if (dom_domain_decoding(dom_special_odds(L, true), DomSpecialRows{parsers.fwd_rows, true},
                            DomSpecialRows{parsers.bck_rows, parsers.bck_own_scales},
                            ws.occupancy) != DomDecodeStatus::ok) {
        plan.outcome = DomOutcome::decoding_overflow;
        return;
    }
    if (ws.rng.seed() != settings.seed) ws.rng.reseed(settings.seed);
    const DomOccupancy& occ = ws.occupancy;
    plan.nexpected = occ.btot[L];
    plan.n2sc.assign(L + 1, 0.0f);
    for (const DomRegion& r : dom_find_regions(occ.mocc, occ.btot, occ.etot)) {
        DomPlanRegion& region = plan.regions.emplace_back();
        region.multidomain = r.multidomain;
        const size_t before = plan.jobs.size();
        if (!r.multidomain) {
            plan.jobs.push_back({index, r.i, r.j, true});
        } else if (!plan_region(k, model, target, r.i, r.j, ws, plan)) {
            region.forward_error = true;
            break;
        }
        region.njobs = static_cast<uint32_t>(plan.jobs.size() - before);
    }
    for (DomEnvelopeJob& job : plan.jobs) job.target = index;
}

void dom_run_envelope(const DomKernels& k, const DomModel& model, const DomTarget& target,
                      const DomEnvelopeJob& job, DomKernelWorkspace& ws, DomEnvelopeOut& out) {
    const FwdProfile& om = *model.odds;
    const DomSpecialOdds uni = dom_special_odds(target.dsq.size(), false);
    const auto sub = residues(target, job.i, job.j);
    out = DomEnvelopeOut{};
    out.envsc = k.forward(om, uni, sub, ws.fwd, true);
    if (std::isnan(out.envsc)) {
        out.status = DomEnvelopeStatus::forward_range_error;
        return;
    }
    if (std::isnan(k.backward(om, uni, sub, ws.fwd, ws.bck, true))) {
        out.status = DomEnvelopeStatus::backward_range_error;
        return;
    }
    if (k.decoding(uni, ws.fwd, ws.bck, ws.bck) != DomDecodeStatus::ok) {  // bck: posteriors from here
        out.status = DomEnvelopeStatus::decoding_overflow;
        return;
    }
    out.oasc = k.optimal_accuracy(om, uni, ws.bck, ws.oa);
    dom_oa_trace(om, uni, ws.bck, ws.oa, out.trace, job.i - 1);
    if (job.null2) out.null2 = dom_null2_by_expectation(om, Alphabet::amino(), ws.bck);
}

DomOutcome dom_finish_target(const DomModel& model, const DomTarget& target, const DomSettings& settings,
                             DomPlan& plan, std::span<const DomEnvelopeOut> envs, DomHit& hit) {
    hit = DomHit{};
    if (plan.outcome != DomOutcome::hit) return plan.outcome;
    hit.nexpected = plan.nexpected;
    size_t next = 0;
    const auto take = [&] {
        const size_t z = next++;
        return take_envelope(model, target, plan.jobs[z], envs[z], plan.n2sc, hit);
    };
    for (const DomPlanRegion& r : plan.regions) {
        ++hit.nregions;
        if (!r.multidomain) {
            ++hit.nenvelopes;
            if (const DomOutcome o = take(); o != DomOutcome::hit && o != DomOutcome::no_domain) return o;
            continue;
        }
        ++hit.nclustered;
        if (r.forward_error) return DomOutcome::forward_range_error;
        int64_t last_j = 0;
        for (uint32_t c = 0; c < r.njobs; ++c) {
            const DomEnvelopeJob& job = plan.jobs[next];
            if (job.i <= last_j) ++hit.noverlaps;
            ++hit.nenvelopes;
            const DomOutcome o = take();
            if (o == DomOutcome::hit) last_j = job.j;
            else if (o != DomOutcome::no_domain) return o;
        }
    }
    if (hit.nregions == 0 || hit.nenvelopes == 0 || hit.domains.empty()) return DomOutcome::no_domain;
    score_hit(model, target, settings, plan.fwdsc, plan.n2sc, hit);
    return DomOutcome::hit;
}

}  // namespace warpdp

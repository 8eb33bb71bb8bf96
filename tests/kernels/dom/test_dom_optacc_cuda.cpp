// The CUDA optimal-accuracy engine (kernels/dom/dom_optacc_cuda.hpp) against
// the CPU's fill (dom_optimal_accuracy_cpu), traceback (dom_oa_trace) and
// null2 (dom_null2_by_expectation), bit for bit, on fresh random inputs every
// run: models of every stripe shape on both sides of M = 100 (amino, and
// four-letter toy models for DNA's null2), posteriors
// decoded on the CPU from homologs and random targets (unihit and multihit),
// and made-up posteriors of eighths (ties everywhere) on models with missing
// inserts and deletes; many envelopes a call, launches cut small, every
// trace outgrowing its first buffer, posteriors at scattered offsets, and
// calls whose envelopes belong to several models of different sizes; each
// with both fill forms (four threads, a warp per envelope).
// Skips (77) without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_cpu.hpp"
#include "core/hmmer/domains/dom_null2.hpp"
#include "core/hmmer/domains/dom_optacc.hpp"
#include "core/hmmer/profile.hpp"
#include "../../core/hmmer/domains/dom_toy_model.hpp"
#include "cuda_test_support.hpp"
#include "dom_oa_inputs_support.hpp"
#include "dom_test_support.hpp"
#include "fwd_test_support.hpp"
#include "kernels/dom/dom_optacc_cuda.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// An InternalError's message without the source location it starts with.
std::string message(const InternalError& err) {
    const std::string s = err.what();
    const size_t at = s.find("optimal-accuracy traceback:");
    return at == std::string::npos ? s : s.substr(at);
}

// What the CPU makes of an envelope.
struct Want {
    float oasc = 0.0f;
    DomMatrix ox;
    DomTrace tr;
    std::string error;  // dom_oa_trace's InternalError, if it throws
    std::vector<float> null2;
};

Want cpu(const Batch& b, size_t e) {
    Want w;
    w.oasc = dom_optimal_accuracy_cpu(b.fp, b.odds[e], b.pp[e], w.ox);
    try {
        dom_oa_trace(b.fp, b.odds[e], b.pp[e], w.ox, w.tr, b.offset[e]);
    } catch (const InternalError& err) {
        w.error = message(err);
    }
    w.null2 = dom_null2_by_expectation(b.fp, *b.abc, b.pp[e]);
    return w;
}

struct Tally {
    long envelopes = 0, traces = 0, steps = 0, cpu_errors = 0;
    long bad_oasc = 0, bad_ox = 0, bad_trace = 0, bad_null2 = 0;
    long bad() const { return bad_oasc + bad_ox + bad_trace + bad_null2; }
};

std::string step_text(const DomTraceStep& s) {
    std::ostringstream o;
    o << "{st " << static_cast<int>(s.st) << " k " << s.k << " i " << s.i << " pp " << num(s.pp) << "}";
    return o.str();
}

// The first difference between two traces, or "".
std::string trace_diff(const DomTrace& got, const DomTrace& want) {
    if (got.M != want.M || got.L != want.L) return "M/L differ";
    const size_t n = std::min(got.steps.size(), want.steps.size());
    for (size_t z = 0; z < n; ++z) {
        const DomTraceStep& a = got.steps[z];
        const DomTraceStep& b = want.steps[z];
        if (a.st != b.st || a.k != b.k || a.i != b.i || !same_score(a.pp, b.pp))
            return "step " + std::to_string(z) + ": got " + step_text(a) + " want " + step_text(b);
    }
    if (got.steps.size() != want.steps.size())
        return "got " + std::to_string(got.steps.size()) + " steps, want " + std::to_string(want.steps.size());
    return "";
}

// The first cell or special of the OA matrix the GPU returned that differs
// from the CPU's, or "".
std::string ox_diff(const DomOaResults& r, size_t e, const DomMatrix& want) {
    return oa_matrix_diff(r.ox_cells.data() + r.ox_cells_off[e], r.ox_specials.data() + r.ox_specials_off[e], want);
}

// Result e of a call against the CPU's want for envelope k of batch b.
void check_envelope(const DomOaResults& r, size_t e, const std::string& what, const Batch& b, size_t k, const Want& w,
                    Tally& t) {
    const uint64_t L = b.pp[k].L();
    auto report = [&](long& bad, const std::string& msg) {
        if (++bad <= 8)
            MESSAGE("MISMATCH " << what << " M=" << b.fp.M << " envelope " << k << " (result " << e << ") L=" << L
                                << ": " << msg);
    };
    ++t.envelopes;
    if (!same_score(r.oasc[e], w.oasc)) {
        std::ostringstream o;
        o << "oasc got " << num(r.oasc[e]) << " want " << num(w.oasc);
        report(t.bad_oasc, o.str());
    }
    if (!r.ox_cells.empty()) {
        const std::string d = ox_diff(r, e, w.ox);
        if (!d.empty()) report(t.bad_ox, "OA matrix " + d);
    }
    DomTrace got;
    std::string got_error;
    try {
        dom_oa_unpack_trace(r, e, b.fp.M, L, got, b.offset[k]);
    } catch (const InternalError& err) {
        got_error = message(err);
    }
    t.cpu_errors += !w.error.empty();
    t.steps += static_cast<long>(w.tr.steps.size());
    if (got_error != w.error)
        report(t.bad_trace, "traceback error got '" + got_error + "' want '" + w.error + "'");
    else if (w.error.empty()) {
        const std::string d = trace_diff(got, w.tr);
        if (!d.empty()) report(t.bad_trace, "trace " + d);
        ++t.traces;
    }
    const auto g = r.null2_of(e);
    for (size_t x = 0; x < w.null2.size(); ++x)
        if (g.size() != w.null2.size() || !same_score(g[x], w.null2[x])) {
            std::ostringstream o;
            o << "null2 code " << x << ": got " << (x < g.size() ? num(g[x]) : "nothing") << " want " << num(w.null2[x]);
            report(t.bad_null2, o.str());
            break;
        }
}

void compare(DomOaEngine& eng, const std::string& what, const Batch& b, const std::vector<Want>& want, Tally& t) {
    std::vector<const DomMatrix*> ptrs;
    for (const DomMatrix& m : b.pp) ptrs.push_back(&m);
    DomOaResults r;
    eng.run_host(b.fp, *b.abc, ptrs, b.odds, r);
    REQUIRE(r.size() == b.pp.size());
    for (size_t e = 0; e < b.pp.size(); ++e) check_envelope(r, e, what, b, e, want[e], t);
}

// Every batch's envelopes in one call, shuffled together, batch m's of model m.
void compare_mixed(DomOaEngine& eng, const std::string& what, const std::vector<Batch>& bs,
                   const std::vector<std::vector<Want>>& want, Tally& t) {
    std::vector<const FwdProfile*> models;
    std::vector<std::pair<uint32_t, size_t>> order;  // (batch, envelope)
    for (uint32_t m = 0; m < bs.size(); ++m) {
        models.push_back(&bs[m].fp);
        for (size_t k = 0; k < bs[m].pp.size(); ++k) order.emplace_back(m, k);
    }
    std::shuffle(order.begin(), order.end(), rng());
    std::vector<const DomMatrix*> ptrs;
    std::vector<DomSpecialOdds> odds;
    std::vector<uint32_t> model_of;
    for (const auto& [m, k] : order) {
        ptrs.push_back(&bs[m].pp[k]);
        odds.push_back(bs[m].odds[k]);
        model_of.push_back(m);
    }
    DomOaResults r;
    eng.run_host(models, *bs[0].abc, ptrs, odds, model_of, r);
    REQUIRE(r.size() == order.size());
    for (size_t e = 0; e < order.size(); ++e) {
        const auto [m, k] = order[e];
        check_envelope(r, e, what + " mixed", bs[m], k, want[m][k], t);
    }
}

// Each batch in its own call on three engines of the given fill form, and,
// with `mixed`, all of them in one call (one alphabet).
void check_batches(DomOaFillForm form, const std::vector<Batch>& batches, bool mixed) {
    const std::string name = form == DomOaFillForm::warp ? "warp fill " : "four-thread fill ";
    DomOaTestHooks plain_hooks;
    plain_hooks.fill_form = form;
    auto plain = make_dom_oa_cuda_engine_ex(0, plain_hooks);
    DomOaTestHooks keep_hooks = plain_hooks;
    keep_hooks.keep_oa_matrix = true;
    auto keep = make_dom_oa_cuda_engine_ex(0, keep_hooks);
    // ~256 KiB of OA matrices a launch (many launches a call), 3 steps of
    // first traceback buffer (every trace, 7 steps at least, reruns), and
    // the posteriors at scattered offsets of one buffer, NaN between them
    DomOaTestHooks small_hooks = plain_hooks;
    small_hooks.oa_scratch_bytes = 256 << 10;
    small_hooks.trace_steps = 3;
    small_hooks.keep_oa_matrix = true;
    small_hooks.scatter_upload = true;
    auto small = make_dom_oa_cuda_engine_ex(0, small_hooks);
    Tally t;
    std::vector<std::vector<Want>> wants;
    for (const Batch& b : batches) {
        std::vector<Want> want;
        for (size_t e = 0; e < b.pp.size(); ++e) want.push_back(cpu(b, e));
        compare(*plain, name + "default", b, want, t);
        compare(*keep, name + "keep-ox", b, want, t);
        compare(*small, name + "small", b, want, t);
        wants.push_back(std::move(want));
    }
    if (mixed) {
        compare_mixed(*plain, name + "default", batches, wants, t);
        compare_mixed(*keep, name + "keep-ox", batches, wants, t);
        compare_mixed(*small, name + "small", batches, wants, t);
    }
    MESSAGE(name << t.envelopes << " envelope runs compared (" << t.traces << " traces of " << t.steps << " steps, "
                 << t.cpu_errors << " traceback errors); mismatches: oasc " << t.bad_oasc << ", OA matrix " << t.bad_ox
                 << ", trace " << t.bad_trace << ", null2 " << t.bad_null2);
    CHECK(t.bad_oasc == 0);
    CHECK(t.bad_ox == 0);
    CHECK(t.bad_trace == 0);
    CHECK(t.bad_null2 == 0);
    CHECK(t.traces > 0);
}

// Both fill forms.
void check_batches(const std::vector<Batch>& batches, bool mixed = false) {
    for (DomOaFillForm form : {DomOaFillForm::lanes4, DomOaFillForm::warp}) check_batches(form, batches, mixed);
}

}  // namespace

TEST_CASE("CUDA optimal accuracy == CPU on decoded posteriors, every stripe shape") {
    require_gpu();
    seed();
    std::vector<Batch> batches;
    for (int M : {1, 2, 3, 4, 5, 8, 9, 13, 33, 57, 99, 100, 101, 180, 260, 513}) {
        Batch b;
        add_decoded(b, M, M > 200 ? 12 : 20, M > 200 ? 300 : 600);
        batches.push_back(std::move(b));
    }
    check_batches(batches);
}

TEST_CASE("CUDA optimal accuracy == CPU on made-up posteriors: ties, masked transitions") {
    require_gpu();
    seed();
    std::vector<Batch> batches;
    for (int M : {1, 2, 3, 4, 5, 8, 9, 13, 57, 99, 100, 101, 180}) {
        Batch b;
        add_made_up(b, M, 16);
        batches.push_back(std::move(b));
    }
    check_batches(batches);
}

TEST_CASE("CUDA optimal accuracy == CPU with four canonical codes (toy models, DNA's null2)") {
    require_gpu();
    seed();
    std::vector<Batch> batches;
    for (int M : {1, 3, 8, 12, 40, 100, 130}) {
        Batch b;
        b.abc = &Alphabet::dna();
        b.fp = toy_profile(random_toy(M, rng()));
        for (int n = 0; n < 20; ++n) {
            std::vector<uint8_t> dsq(static_cast<size_t>(uniform(1, 300)));
            for (auto& c : dsq) c = static_cast<uint8_t>(uniform(0, kToyK - 1));
            const DomSpecialOdds o = dom_special_odds(dsq.size() + static_cast<size_t>(uniform(0, 50)), uniform(0, 1) == 1);
            DomMatrix f, bk;
            if (std::isnan(dom_forward_cpu(b.fp, o, dsq, f, true)) ||
                std::isnan(dom_backward_cpu(b.fp, o, dsq, f, bk, true)) || dom_decoding_cpu(o, f, bk, bk) != DomDecodeStatus::ok)
                continue;
            b.pp.push_back(std::move(bk));
            b.odds.push_back(o);
            b.offset.push_back(uniform(0, 5000));
        }
        batches.push_back(std::move(b));
    }
    check_batches(batches);
}

TEST_CASE("CUDA optimal accuracy: hundreds of homolog envelopes in one call") {
    require_gpu();
    seed();
    Batch b;
    const int M = uniform(120, 240);
    const Hmm h = random_vit_hmm(M, frand(5.0f, 30.0f));
    b.fp = build_fwd_profile(build_profile(h));
    for (int n = 0; n < 400; ++n) {
        const auto dsq = sample_homolog(h, 40);
        if (dsq.empty()) continue;
        const DomSpecialOdds o = dom_special_odds(dsq.size() + static_cast<size_t>(uniform(0, 500)), false);
        DomMatrix f, bk;
        if (std::isnan(dom_forward_cpu(b.fp, o, dsq, f, true)) || std::isnan(dom_backward_cpu(b.fp, o, dsq, f, bk, true)) ||
            dom_decoding_cpu(o, f, bk, bk) != DomDecodeStatus::ok)
            continue;
        b.pp.push_back(std::move(bk));
        b.odds.push_back(o);
        b.offset.push_back(uniform(0, 100000));
    }
    MESSAGE("M=" << M << ", " << b.pp.size() << " envelopes");
    CHECK(b.pp.size() > 300);
    std::vector<Batch> one;
    one.push_back(std::move(b));
    check_batches(one);
}

TEST_CASE("CUDA optimal accuracy == CPU on one call holding envelopes of several models") {
    require_gpu();
    seed();
    // decoded and made-up posteriors of small and large models, shuffled
    // together: each envelope's fill, trace buffer and null2 in its model's shape
    std::vector<Batch> batches;
    for (int M : {uniform(1, 5), uniform(101, 260), uniform(6, 99), 100}) {
        Batch b;
        add_decoded(b, M, 12, 400);
        batches.push_back(std::move(b));
    }
    for (int M : {uniform(1, 5), uniform(101, 180)}) {
        Batch b;
        add_made_up(b, M, 12);
        batches.push_back(std::move(b));
    }
    check_batches(batches, true);
}

TEST_CASE("CUDA optimal accuracy == CPU on the widest models of the warp fill and wider ones") {
    require_gpu();
    seed();
    // M = 2,500 (Q = 625) takes the warp fill; M = 3,800 (Q = 950) is too
    // wide for its shared memory and takes the four threads in the same call
    std::vector<Batch> batches;
    for (int M : {2500, 3800}) {
        Batch d, m;
        add_decoded(d, M, 2, 60);
        add_made_up(m, M, 3);
        batches.push_back(std::move(d));
        batches.push_back(std::move(m));
    }
    check_batches(batches, true);
}

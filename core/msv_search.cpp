// MSV decisions per target. The engines only deliver xJ; everything after
// (nats, bits, P-values, bias filter) runs here on the host in the exact
// float/double order of hmmsearch, so every device gives the same answer.
#include "core/msv_search.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

#include "core/background.hpp"
#include "core/msv_score.hpp"
#include "core/pvalue.hpp"
#include "core/profile.hpp"

namespace warpdp {

MsvModel prepare_msv_model(Hmm hmm) {
    MsvModel m{std::move(hmm), {}, {}, 0, 0, false};
    const Profile prof = configure_profile(m.hmm);
    m.byte = build_msv_profile(prof);
    m.bias = BiasFilter(m.hmm);
    m.has_stats = m.hmm.has_stats;
    m.mu = static_cast<double>(m.hmm.evparam[0]);
    m.lambda = static_cast<double>(m.hmm.evparam[1]);
    return m;
}

namespace {

// P-value of a score in bits; a model without STATS behaves as hmmsearch's
// unset parameters do: every P-value is 1, nothing passes.
double msv_pvalue(const MsvModel& m, float bits) {
    if (!m.has_stats) return 1.0;
    return gumbel_surv(static_cast<double>(bits), m.mu, m.lambda);
}

// hmmsearch rejects when P > F; P equal to F passes, and so does NaN.
bool passes(double p, double F) { return !(p > F); }

template <class F>
void parallel_for(size_t n, unsigned threads, F&& body) {
    if (threads <= 1 || n < 64) {
        for (size_t i = 0; i < n; ++i) body(i);
        return;
    }
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i; (i = next.fetch_add(1)) < n;) body(i);
    };
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
}

}  // namespace

void msv_decide(const MsvModel& model, const SeqBatch& chunk, std::span<const uint16_t> raw,
                const MsvSearchOptions& opt, std::vector<MsvRow>& rows, MsvModelTally& tally) {
    const size_t first_new = rows.size();
    std::vector<size_t> need_bias;  // indices into rows
    for (size_t t = 0; t < chunk.size(); ++t) {
        MsvRow r;
        r.target = chunk.first_index + t;
        r.length = chunk.length(t);
        if (r.length > 0) {
            r.scored = true;
            const float usc = msv_nats(raw[t], r.length);
            r.msv_bits = score_bits(usc, null_score(r.length));
            r.msv_pvalue = msv_pvalue(model, r.msv_bits);
            r.passed_msv = passes(r.msv_pvalue, opt.F1);
        }
        if (r.passed_msv) {
            ++tally.passed_msv;
            if (opt.bias) need_bias.push_back(rows.size());
            else r.passed = true;
        }
        if (r.passed_msv || opt.all) rows.push_back(r);
    }
    // The bias filter costs a log per residue: only MSV survivors pay it, in parallel.
    parallel_for(need_bias.size(), opt.threads, [&](size_t j) {
        MsvRow& r = rows[need_bias[j]];
        const auto t = static_cast<size_t>(r.target - chunk.first_index);
        const float usc = msv_nats(raw[t], r.length);
        r.bias_scored = true;
        r.bias_bits = score_bits(usc, model.bias.filter_score(chunk.seq(t)));
        r.bias_pvalue = msv_pvalue(model, r.bias_bits);
        r.passed = passes(r.bias_pvalue, opt.F1);
    });
    for (size_t i = first_new; i < rows.size(); ++i) tally.passed_bias += rows[i].passed ? 1 : 0;
    if (!opt.all) {  // survivors only: drop MSV passers the bias filter rejected
        rows.erase(std::remove_if(rows.begin() + static_cast<std::ptrdiff_t>(first_new), rows.end(),
                                  [](const MsvRow& r) { return !r.passed; }),
                   rows.end());
    }
}

}  // namespace warpdp

// The host side of an MSV search: a model prepared once (byte profile, bias
// filter, Gumbel parameters), and the per-chunk decision step that turns the
// engines' raw integers into HMMER's scores, P-values and pass/fail flags
// with the exact float/double tail of hmmsearch (spec §5.4, §7.1, §8.1).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/bias_filter.hpp"
#include "core/hmm.hpp"
#include "core/msv_profile.hpp"
#include "core/seq_batch.hpp"

namespace warpdp {

struct MsvModel {
    Hmm hmm;
    MsvByteProfile byte;
    BiasFilter bias;
    double mu = 0, lambda = 0;  // MSV Gumbel parameters (STATS LOCAL MSV), widened from float
    bool has_stats = false;
};
MsvModel prepare_msv_model(Hmm hmm);

struct MsvSearchOptions {
    double F1 = 0.02;
    bool bias = true;   // --nobias turns the composition filter off
    bool all = false;   // keep a row for every target, not only survivors
    unsigned threads = 1;
};

// One (model, target) outcome. Empty targets are skipped by hmmsearch: they
// never pass and have no scores.
struct MsvRow {
    uint64_t target = 0;  // record number in the database
    uint64_t length = 0;
    bool scored = false;      // false for L = 0
    float msv_bits = 0;       // +inf on overflow
    double msv_pvalue = 1;
    bool bias_scored = false;  // bias filter ran (MSV passed and bias on)
    float bias_bits = 0;
    double bias_pvalue = 1;
    bool passed_msv = false;
    bool passed = false;       // passed MSV and (if on) bias
};

struct MsvModelTally {
    uint64_t passed_msv = 0;
    uint64_t passed_bias = 0;
};

// Decides every target of `chunk` for one model from the engine's raw scores
// and appends the rows to keep (survivors, or all with opt.all).
void msv_decide(const MsvModel& model, const SeqBatch& chunk, std::span<const uint16_t> raw,
                const MsvSearchOptions& opt, std::vector<MsvRow>& rows, MsvModelTally& tally);

}  // namespace warpdp

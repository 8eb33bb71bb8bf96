// The per-chunk step of an MSV search: turns the engines' raw integers for a
// chunk of targets into rows with HMMER's scores, P-values and pass/fail
// flags (through msv_verdict, the one place for that arithmetic), running
// the costly bias filter only on MSV survivors and in parallel.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/msv/msv_pass_floor.hpp"
#include "core/io/seq_batch.hpp"

namespace warpdp {

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
    bool scored = false;       // false for L = 0
    bool bias_scored = false;  // bias filter ran (MSV passed and bias on)
    bool passed_msv = false;
    bool passed = false;       // passed MSV and (if on) bias
    // The scores and P-values (msv_bits is +inf on overflow); its bias fields
    // are the MSV's own unless bias_scored. The Viterbi stage reads filtersc
    // and bias_p from it.
    MsvVerdict v;
};

struct MsvModelTally {
    uint64_t passed_msv = 0;
    uint64_t passed_bias = 0;
};

// Decides every target of `chunk` for one model from the engine's raw scores
// and appends the rows to keep (survivors, or all with opt.all). Without
// opt.all, a floor (made for opt.F1) spares the arithmetic of the targets
// that certainly fail.
void msv_decide(const MsvModel& model, const SeqBatch& chunk, std::span<const uint16_t> raw,
                const MsvSearchOptions& opt, std::vector<MsvRow>& rows, MsvModelTally& tally,
                const MsvPassFloor* floor = nullptr);

}  // namespace warpdp

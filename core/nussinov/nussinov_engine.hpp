// What every gpu-nussinov engine (the scalar reference, the CPU engine, the
// CUDA engine) computes: for each RNA the optimum of the Nussinov recurrence
// and, when asked, the structure that the one traceback rule picks
// (nussinov_traceback.hpp, docs/nussinov.md), so that every engine returns
// the same score and the same dot-bracket string for every input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/base/errors.hpp"

namespace warpdp {

// Base codes: A, C, G, U (T is read as U) are 0..3; any other letter is
// kRnaOther, which never pairs.
inline constexpr uint8_t kRnaA = 0, kRnaC = 1, kRnaG = 2, kRnaU = 3, kRnaOther = 4;

struct NussinovParams {
    int min_loop = 1;  // a pair (i, j) needs j - i - 1 >= min_loop unpaired bases inside
    bool gu = true;    // wobble pairs (G-U, U-G) allowed
    int w_gc = 1, w_au = 1, w_gu = 1;  // pair weights, each >= 0

    // The weight of pairing codes a and b (either order), or -1 when they may not pair.
    int weight(uint8_t a, uint8_t b) const noexcept {
        if (a > b) {
            const uint8_t t = a;
            a = b;
            b = t;
        }
        if (a == kRnaA && b == kRnaU) return w_au;
        if (a == kRnaC && b == kRnaG) return w_gc;
        if (a == kRnaG && b == kRnaU) return gu ? w_gu : -1;
        return -1;
    }
};

struct NussinovFold {
    int64_t score = 0;
    uint64_t pairs = 0;     // base pairs in the structure (0 when not asked for)
    std::string structure;  // dot-bracket, one character a base; empty when not asked for
};

// An engine's refusal of one sequence (its table does not fit, or its score
// may pass 2^31 - 1): `index` is its place in fold()'s seqs, so that the
// caller, who knows the records, can name it.
class NussinovSequenceError : public ResourceError {
public:
    NussinovSequenceError(size_t index, const std::string& what) : ResourceError(what), index_(index) {}
    size_t index() const noexcept { return index_; }

private:
    size_t index_;
};

class NussinovEngine {
public:
    virtual ~NussinovEngine() = default;
    virtual std::string name() const = 0;
    // Folds every sequence (codes 0..4): out[k] for seqs[k]. With
    // with_structure, also the traceback's structure and its pair count.
    // A sequence the engine cannot fold here is a NussinovSequenceError.
    virtual void fold(std::span<const std::span<const uint8_t>> seqs, const NussinovParams& p, bool with_structure,
                      std::span<NussinovFold> out) = 0;
};

// The O(n^3) recurrence and traceback written to be obviously right.
std::unique_ptr<NussinovEngine> make_nussinov_reference_engine();

}  // namespace warpdp

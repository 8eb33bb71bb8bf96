// make_msv_cpu_engine: the CPU MSV engine. Threads pull blocks of targets
// (core/base/parallel.hpp) and write out[t] directly, so the result never
// depends on the thread count or on scheduling. One striped profile is built
// per model and shared read-only; each worker owns one scratch row, reused
// for every target and every model.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/base/parallel.hpp"
#include "core/base/usable_cpus.hpp"
#include "core/hmmer/msv/msv_cpu.hpp"

namespace warpdp {
namespace {

// Residues per work block: large enough that the counter is touched rarely,
// small enough that one long target does not leave the other cores idle
// behind a block of many short ones.
constexpr uint64_t kBlockResidues = 1u << 16;

class CpuEngine final : public MsvEngine {
public:
    CpuEngine(unsigned threads, const MsvCpuVariant& v) : v_(v) {
        require_supported(v);
        threads_ = threads ? threads : usable_cpus();
        scratch_.resize(threads_);
    }

    std::string name() const override {
        return std::string("cpu-") + cpu_isa_name(v_.isa) + "-x" + std::to_string(threads_);
    }

    void load_targets(const SeqBatch& targets) override {
        targets_ = &targets;
        block_start_.assign(1, 0);
        uint64_t acc = 0;
        for (size_t t = 0; t < targets.size(); ++t) {
            acc += targets.length(t) + 1;  // +1: empty targets still cost a call
            if (acc >= kBlockResidues) {
                block_start_.push_back(t + 1);
                acc = 0;
            }
        }
        if (block_start_.back() != targets.size()) block_start_.push_back(targets.size());
    }

    size_t resident_targets() const override { return targets_ ? targets_->size() : 0; }

    void score(const MsvByteProfile& profile, std::span<uint16_t> out) override {
        if (!targets_) throw std::logic_error("MsvEngine::score before load_targets");
        if (out.size() != targets_->size())
            throw std::invalid_argument("MsvEngine::score: out has " + std::to_string(out.size()) +
                                        " slots for " + std::to_string(targets_->size()) + " targets");
        const MsvStripedProfile sp(profile, v_.kernels.width);
        const size_t nblocks = block_start_.size() - 1;
        // One block per hand-out; at most threads_ workers, one scratch each.
        parallel_for_workers(nblocks, threads_, 1, [&](unsigned w, size_t b) {
            for (size_t t = block_start_[b]; t < block_start_[b + 1]; ++t)
                out[t] = v_.kernels.score(profile, sp, targets_->seq(t), scratch_[w], MsvPass::both);
        });
    }

private:
    MsvCpuVariant v_;  // a copy: the caller's need not outlive the engine
    unsigned threads_ = 1;
    std::vector<MsvCpuScratch> scratch_;
    const SeqBatch* targets_ = nullptr;
    std::vector<size_t> block_start_{0};
};

}  // namespace

std::unique_ptr<MsvEngine> make_msv_cpu_engine(unsigned threads, const MsvCpuVariant& v) {
    return std::make_unique<CpuEngine>(threads, v);
}

std::unique_ptr<MsvEngine> make_msv_cpu_engine(unsigned threads) {
    return make_msv_cpu_engine(threads, choose_variant<msv_cpu_variants>());
}

}  // namespace warpdp

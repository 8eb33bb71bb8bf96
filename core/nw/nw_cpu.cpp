// The CPU engine of gpu-nw-dist: pairs sorted by (A, length of B) and dealt
// out in groups of W lanes that share A (nw_lanes_kernel_impl.hpp), run by
// one variant of the table below; pairs the lane kernels cannot take (NDist
// reads with a literal '-', or longer than the 16-bit counts allow) use the
// general forward form (nw_forward.hpp).
#include "core/nw/nw_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/base/parallel.hpp"
#include "core/nw/nw_forward.hpp"

namespace warpdp {

namespace {

constexpr NwCpuVariant kVariants[] = {
#if defined(__x86_64__)
    {"nw_lanes_avx2", CpuIsa::avx2, {nw_lanes::ndist_avx2, nw_lanes::seqdist_avx2}},
#endif
    {"nw_lanes_base", CpuIsa::base, {nw_lanes::ndist_base, nw_lanes::seqdist_base}},
};

}  // namespace

std::span<const NwCpuVariant> nw_cpu_variants() { return kVariants; }

NwCodedReads code_nw_reads(const NwReads& reads, NwMetric metric, const SeqDistTable& table) {
    NwCodedReads c;
    c.metric = metric;
    c.table = table;
    c.offsets = reads.offsets;
    c.codes.resize(reads.letters.size());
    for (size_t k = 0; k < reads.letters.size(); ++k)
        c.codes[k] = metric == NwMetric::ndist ? nw_code::ndist(reads.letters[k]) : nw_code::seqdist(reads.letters[k]);
    c.has_gap.resize(reads.size());
    for (size_t i = 0; i < reads.size(); ++i) c.has_gap[i] = reads.read(i).find('-') != std::string_view::npos;
    return c;
}

namespace {

class NwCpuEngine final : public NwEngine {
public:
    NwCpuEngine(unsigned threads, const NwCpuVariant& v) : threads_(std::max(threads, 1u)), variant_(v) {
        require_supported(v);
    }
    std::string name() const override {
        return std::string("cpu-") + cpu_isa_name(variant_.isa) + "-x" + std::to_string(threads_);
    }
    void load(const NwReads& reads, const NwCodedReads& coded) override {
        reads_ = &reads;
        coded_ = &coded;
    }
    void compute(std::span<const NwPair> pairs, std::span<double> out) override;

private:
    bool lane_eligible(const NwPair& p) const {
        if (coded_->metric == NwMetric::seqdist) return true;
        return !coded_->has_gap[p.a] && !coded_->has_gap[p.b] &&
               coded_->length(p.a) + uint64_t{coded_->length(p.b)} <= nw_lanes::kNdistLaneMaxSum;
    }
    unsigned threads_;
    NwCpuVariant variant_;  // a copy: the caller's need not outlive the engine
    const NwReads* reads_ = nullptr;
    const NwCodedReads* coded_ = nullptr;
};

void NwCpuEngine::compute(std::span<const NwPair> pairs, std::span<double> out) {
    const bool nd = coded_->metric == NwMetric::ndist;
    const int W = nd ? nw_lanes::kNdistLanes : nw_lanes::kSeqdistLanes;
    // Lane groups: same A, B lengths close together so little padding is computed.
    std::vector<uint32_t> lane_pairs, single;
    for (uint32_t k = 0; k < pairs.size(); ++k) (lane_eligible(pairs[k]) ? lane_pairs : single).push_back(k);
    auto before = [&](uint32_t x, uint32_t y) {
        const NwPair &p = pairs[x], &q = pairs[y];
        if (p.a != q.a) return p.a < q.a;
        const uint32_t lp = coded_->length(p.b), lq = coded_->length(q.b);
        return lp != lq ? lp < lq : x < y;
    };
    // The tool hands pairs over in this order already (nw_pair_order.hpp).
    if (!std::is_sorted(lane_pairs.begin(), lane_pairs.end(), before))
        std::sort(lane_pairs.begin(), lane_pairs.end(), before);
    std::vector<std::pair<size_t, size_t>> groups;  // [begin, end) in lane_pairs
    for (size_t s = 0; s < lane_pairs.size();) {
        size_t e = s;
        while (e < lane_pairs.size() && e - s < static_cast<size_t>(W) && pairs[lane_pairs[e]].a == pairs[lane_pairs[s]].a) ++e;
        groups.emplace_back(s, e);
        s = e;
    }
    const size_t tasks = groups.size() + single.size();
    const unsigned workers = parallel_workers(tasks, threads_, 1);
    std::vector<nw_lanes::Scratch> lane_scratch(workers);
    std::vector<NwScratch> scratch(workers);
    std::vector<std::vector<uint8_t>> bbuf(workers);
    parallel_for_workers(tasks, threads_, 1, [&](unsigned w, size_t t) {
        if (t >= groups.size()) {
            const uint32_t k = single[t - groups.size()];
            const auto a = reads_->read(pairs[k].a), b = reads_->read(pairs[k].b);
            const double d = nd ? ndist_forward(a, b, scratch[w]) : seqdist_forward(a, b, coded_->table, scratch[w]);
            out[k] = std::isnan(d) ? nw_canonical_nan() : d;
            return;
        }
        const auto [s, e] = groups[t];
        const size_t n = e - s;
        uint32_t lb[nw_lanes::kNdistLanes];
        uint32_t max_lb = 0;
        for (int l = 0; l < W; ++l) {
            const NwPair& p = pairs[lane_pairs[s + std::min<size_t>(static_cast<size_t>(l), n - 1)]];
            lb[l] = coded_->length(p.b);
            max_lb = std::max(max_lb, lb[l]);
        }
        auto& b = bbuf[w];
        b.assign(size_t{max_lb} * static_cast<size_t>(W), 0);
        for (int l = 0; l < W; ++l) {
            const NwPair& p = pairs[lane_pairs[s + std::min<size_t>(static_cast<size_t>(l), n - 1)]];
            const uint8_t* src = coded_->data(p.b);
            for (uint32_t j = 0; j < lb[l]; ++j) b[size_t{j} * static_cast<size_t>(W) + static_cast<size_t>(l)] = src[j];
        }
        const uint32_t a_id = pairs[lane_pairs[s]].a;
        const nw_lanes::Group g{coded_->data(a_id), coded_->length(a_id), max_lb, b.data(), lb};
        double res[nw_lanes::kNdistLanes];
        if (nd) variant_.kernels.ndist(g, lane_scratch[w], res);
        else variant_.kernels.seqdist(g, coded_->table, lane_scratch[w], res);
        for (size_t l = 0; l < n; ++l) out[lane_pairs[s + l]] = std::isnan(res[l]) ? nw_canonical_nan() : res[l];
    });
}

}  // namespace

std::unique_ptr<NwEngine> make_nw_cpu_engine(unsigned threads, const NwCpuVariant& v) {
    return std::make_unique<NwCpuEngine>(threads, v);
}

std::unique_ptr<NwEngine> make_nw_cpu_engine(unsigned threads) {
    return make_nw_cpu_engine(threads, choose_variant<nw_cpu_variants>());
}

}  // namespace warpdp

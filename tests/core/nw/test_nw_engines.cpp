// gpu-nw-dist's engines against the matrix-and-traceback references, on fresh
// random reads every run: the general forward form, the lane kernels of
// every entry of the variant table (nw_cpu_variants) the CPU runs, and the
// threaded engine on each of them.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "core/nw/nw_cpu.hpp"
#include "core/nw/nw_forward.hpp"
#include "core/nw/nw_reference.hpp"
#include "simd_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using warpdp::test::random_text;
using warpdp::test::uniform;

namespace {

bool same(double x, double y) {
    return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, sizeof x) == 0;
}

// 454-like reads: copies of a template with homopolymer indels and substitutions.
std::string mutate(const std::string& t, const std::string& letters, int edits) {
    std::string s = t;
    for (int e = 0; e < edits && !s.empty(); ++e) {
        const size_t at = static_cast<size_t>(uniform(0, static_cast<int>(s.size()) - 1));
        switch (uniform(0, 2)) {
            case 0: s.insert(at, 1, s[at]); break;  // homopolymer insertion
            case 1: s.erase(at, 1); break;
            default: s[at] = letters[static_cast<size_t>(uniform(0, static_cast<int>(letters.size()) - 1))];
        }
    }
    return s;
}

NwReads random_reads(const std::string& letters, int n, int max_len) {
    NwReads r;
    const std::string base = random_text(letters, static_cast<size_t>(uniform(0, max_len)));
    for (int k = 0; k < n; ++k) {
        const std::string s = uniform(0, 3) == 0 ? random_text(letters, static_cast<size_t>(uniform(0, max_len)))
                                                 : mutate(base, letters, uniform(0, 8));
        r.add("r" + std::to_string(k), s);
    }
    return r;
}

// Every NDist alignment of a and b by exhaustive recursion: the cheapest
// total with NDist's costs (free trailing end gaps, charged leading ones).
double ndist_bruteforce(const std::string& a, const std::string& b, size_t i, size_t j) {
    const size_t la = a.size(), lb = b.size();
    if (i == 0 && j == 0) return 0;
    double best = 1e300;
    if (i > 0 && j > 0) best = std::min(best, ndist_bruteforce(a, b, i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1));
    if (j > 0) best = std::min(best, ndist_bruteforce(a, b, i, j - 1) + (i == la && i > 0 ? 0 : 1.5));
    if (i > 0) best = std::min(best, ndist_bruteforce(a, b, i - 1, j) + (j == lb && j > 0 ? 0 : 1.5));
    return best;
}

}  // namespace

TEST_CASE("the NDist reference finds the NW optimum over all alignments (lengths <= 6)") {
    for (int rep = 0; rep < 400; ++rep) {
        const std::string a = random_text("ACGN", static_cast<size_t>(uniform(0, 6)));
        const std::string b = random_text("ACGN", static_cast<size_t>(uniform(0, 6)));
        double score = -1;
        (void)ndist_reference(a, b, &score);
        INFO("a=" << a << " b=" << b);
        CHECK(score == ndist_bruteforce(a, b, a.size(), b.size()));
    }
}

TEST_CASE("NDist's distance from alignment columns follows calcDistance") {
    CHECK(ndist_columns_distance("ACGT", "ACGT") == 0.0);
    CHECK(ndist_columns_distance("ACGT", "ACTT") == 0.25);
    CHECK(ndist_columns_distance("AC--GT", "ACTTGT") == 1.0 / 5);   // one gap run = one difference
    CHECK(ndist_columns_distance("--ACGT", "TTACGA") == 1.0 / 4);   // leading overhang trimmed
    CHECK(ndist_columns_distance("ACGT--", "ACGTAA") == 0.0);       // trailing overhang trimmed
    CHECK(ndist_columns_distance("ANGT", "ACGT") == 0.0);           // N never differs
    CHECK(ndist_columns_distance("AC-T", "A-GT") == 2.0 / 4);       // runs of different kinds
    CHECK(ndist_columns_distance("AC--", "--GT") == 1.0);           // nothing overlaps
}

TEST_CASE("forward forms equal the references on random reads (N, R, Y, U, '-', empty)") {
    NwScratch s;
    const SeqDistTable flat = parse_seqdist_table("0,10,10,10\n10,0,10,10\n10,10,0,10\n10,10,10,0\n", "flat");
    for (int rep = 0; rep < 3000; ++rep) {
        const int max_len = rep % 3 == 0 ? 6 : 60;
        const std::string base = random_text("ACGT", static_cast<size_t>(uniform(0, max_len)));
        const std::string nd_letters = rep % 5 == 0 ? "ACGTNRYU-" : "ACGTN";
        const std::string a = mutate(base, nd_letters, uniform(0, 6)), b = mutate(base, nd_letters, uniform(0, 6));
        INFO("a=" << a << " b=" << b);
        CHECK(same(ndist_forward(a, b, s), ndist_reference(a, b)));
        const std::string sa = mutate(base, "ACGT", uniform(0, 6)), sb = mutate(base, "ACGT", uniform(0, 6));
        INFO("sa=" << sa << " sb=" << sb);
        CHECK(same(seqdist_forward(sa, sb, tran_dat(), s), seqdist_reference(sa, sb, tran_dat())));
        CHECK(same(seqdist_forward(sa, sb, flat, s), seqdist_reference(sa, sb, flat)));
    }
}

TEST_CASE("the CPU engine equals the references for every variant and thread count") {
    for (NwMetric metric : {NwMetric::ndist, NwMetric::seqdist}) {
        const std::string letters = metric == NwMetric::ndist ? (uniform(0, 1) ? "ACGTN" : "ACGTNRY-") : "ACGT";
        const NwReads reads = random_reads(letters, uniform(20, 45), uniform(1, 120));
        const NwCodedReads coded = code_nw_reads(reads, metric, tran_dat());
        std::vector<NwPair> pairs;
        for (uint32_t i = 0; i < reads.size(); ++i)
            for (uint32_t j = 0; j < i; ++j) pairs.push_back({i, j});
        std::vector<double> want(pairs.size());
        for (size_t k = 0; k < pairs.size(); ++k) {
            const auto a = reads.read(pairs[k].a), b = reads.read(pairs[k].b);
            want[k] = metric == NwMetric::ndist ? ndist_reference(a, b) : seqdist_reference(a, b, tran_dat());
        }
        std::vector<std::unique_ptr<NwEngine>> engines;
        for (unsigned threads : {1u, 3u}) engines.push_back(make_nw_cpu_engine(threads));
        for (const NwCpuVariant& v : test::runnable_variants(nw_cpu_variants()))
            for (unsigned threads : {1u, 3u}) engines.push_back(make_nw_cpu_engine(threads, v));
        for (auto& engine : engines) {
            engine->load(reads, coded);
            std::vector<double> got(pairs.size());
            engine->compute(pairs, got);
            for (size_t k = 0; k < pairs.size(); ++k) {
                INFO(nw_metric_name(metric) << " " << engine->name() << " pair " << pairs[k].a << "," << pairs[k].b
                                            << " a=" << reads.read(pairs[k].a) << " b=" << reads.read(pairs[k].b));
                CHECK(same(got[k], want[k]));
            }
        }
    }
}

TEST_CASE("every variant's lane kernels agree with the general forward form") {
    NwScratch s;
    for (const NwCpuVariant& v : test::runnable_variants(nw_cpu_variants())) {
        const NwCpuKernels& k = v.kernels;
        for (int rep = 0; rep < 40; ++rep) {
            const std::string a = random_text("ACGTN", static_cast<size_t>(uniform(0, 90)));
            std::vector<std::string> bs(nw_lanes::kNdistLanes);
            uint32_t lb[nw_lanes::kNdistLanes], max_lb = 0;
            for (int l = 0; l < nw_lanes::kNdistLanes; ++l) {
                bs[static_cast<size_t>(l)] = mutate(a, "ACGTN", uniform(0, 10));
                if (uniform(0, 9) == 0) bs[static_cast<size_t>(l)].clear();
                lb[l] = static_cast<uint32_t>(bs[static_cast<size_t>(l)].size());
                max_lb = std::max(max_lb, lb[l]);
            }
            for (NwMetric metric : {NwMetric::ndist, NwMetric::seqdist}) {
                const int W = metric == NwMetric::ndist ? nw_lanes::kNdistLanes : nw_lanes::kSeqdistLanes;
                auto code = [&](char c) { return metric == NwMetric::ndist ? nw_code::ndist(c) : nw_code::seqdist(c); };
                std::string a_m = a, lanes_text;
                if (metric == NwMetric::seqdist) std::replace(a_m.begin(), a_m.end(), 'N', 'G');
                std::vector<uint8_t> ac(a_m.size()), b(size_t{max_lb} * static_cast<size_t>(W), 0);
                for (size_t i = 0; i < a_m.size(); ++i) ac[i] = code(a_m[i]);
                std::vector<std::string> bm(bs.begin(), bs.begin() + W);
                for (int l = 0; l < W; ++l) {
                    auto& x = bm[static_cast<size_t>(l)];
                    if (metric == NwMetric::seqdist) std::replace(x.begin(), x.end(), 'N', 'G');
                    for (size_t j = 0; j < x.size(); ++j) b[j * static_cast<size_t>(W) + static_cast<size_t>(l)] = code(x[j]);
                }
                const nw_lanes::Group g{ac.data(), static_cast<uint32_t>(ac.size()), max_lb, b.data(), lb};
                nw_lanes::Scratch ls;
                double out[nw_lanes::kNdistLanes];
                if (metric == NwMetric::ndist) k.ndist(g, ls, out);
                else k.seqdist(g, tran_dat(), ls, out);
                for (int l = 0; l < W; ++l) {
                    const auto& x = bm[static_cast<size_t>(l)];
                    const double want = metric == NwMetric::ndist ? ndist_forward(a_m, x, s)
                                                                  : seqdist_forward(a_m, x, tran_dat(), s);
                    INFO(v.name << " " << nw_metric_name(metric) << " a=" << a_m << " b=" << x);
                    CHECK(same(out[l], want));
                }
            }
        }
    }
}

// gpu-hmmsearch's last stage on several workers (docs/hmmer-filters.md
// §16.10): the texts are the one worker's, whatever the workers, and the
// error is that of the first model that fails, as one worker gives it.
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dom_search_test_support.hpp"
#include "test_support.hpp"
#include "tools/hmmer/hmmsearch_last_stage.hpp"
#include "tools/hmmer/hmmsearch_last_stage_engine.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// Models of tutorial3.hmm, repeated under their own names m0, m1, ..., each
// with the same survivors: targets with homologs of every model.
struct LastStageCase {
    TempDir dir;
    std::vector<Hmm> models;
    LastStageInput in;

    explicit LastStageCase(size_t nmodels) {
        const std::vector<Hmm> base =
            read_all_hmms(std::string(WARPDP_TEST_DATA) + "/../../examples/data/tutorial3.hmm");
        for (size_t i = 0; i < nmodels; ++i) {
            models.push_back(base[i % base.size()]);
            models.back().name = "m" + std::to_string(i);
        }
        static const char kAmino[] = "ACDEFGHIKLMNPQRSTVWY";
        std::string fasta;
        uint64_t targets = 0, residues = 0;
        for (int j = 0; j < 24; ++j) {
            const std::vector<uint8_t> seq = random_target(base[static_cast<size_t>(j) % base.size()]);
            fasta += ">t" + std::to_string(j) + " target " + std::to_string(j) + "\n";
            for (uint8_t c : seq) fasta += kAmino[c];
            fasta += "\n";
            ++targets;
            residues += seq.size();
        }
        in.filters["Z"] = targets;
        in.filters["residues"] = residues;
        in.filters["models"] = nlohmann::json::array();
        for (size_t i = 0; i < nmodels; ++i) {
            dir.write(std::to_string(i + 1) + ".fa", fasta);
            in.filters["models"].push_back(
                {{"passed_msv", targets}, {"passed_bias", targets}, {"passed_vit", targets}, {"passed_fwd", targets}});
        }
        in.survivors_dir = dir.path().string();
        in.models = "models.hmm";
        in.header.hmm_file = "models.hmm";
        in.header.seq_file = "targets.fa";
        in.header.ali_out = in.ali_out = "ali.sto";
        in.header.tbl_out = "t.tbl";
        in.header.dom_out = "d.tbl";
        in.header.pfam_out = "p.tbl";
        in.tail.version = "test";
        in.tail.query_file = "models.hmm";
        in.tail.target_file = "targets.fa";
        in.author = "test";
    }
};

// The CPU engine, failing on the models named: before its search (fast) or
// after it (late).
class FailingEngine final : public DomEngine {
public:
    FailingEngine(std::set<std::string> fast, std::set<std::string> late)
        : inner_(make_dom_cpu_engine(2)), fast_(std::move(fast)), late_(std::move(late)) {}
    std::string name() const override { return inner_->name(); }
    using DomEngine::search;
    void search(std::span<const DomSearchCall> calls, const DomSettings& settings) override {
        for (const DomSearchCall& c : calls) {
            if (fast_.contains(c.model.hmm->name)) throw LastStageStop("fast " + c.model.hmm->name);
            inner_->search(c.model, c.targets, settings, c.out);
            if (late_.contains(c.model.hmm->name)) throw LastStageStop("late " + c.model.hmm->name);
        }
    }

private:
    std::unique_ptr<DomEngine> inner_;
    std::set<std::string> fast_, late_;
};

LastStageEngines cpu_engines(unsigned workers, std::set<std::string> fast = {}, std::set<std::string> late = {}) {
    return {workers, [fast, late] { return std::make_unique<FailingEngine>(fast, late); }};
}

// The main output without its timing lines.
std::string untimed(const std::string& text) {
    std::istringstream lines(text);
    std::string out;
    for (std::string line; std::getline(lines, line);)
        if (!line.starts_with("# CPU time:") && !line.starts_with("# Mc/sec:")) out += line + "\n";
    return out;
}

}  // namespace

TEST_CASE("the texts on several workers are the one worker's, in model order") {
    LastStageCase c(7);
    const LastStageTexts one = run_last_stage(c.in, c.models, cpu_engines(1));
    REQUIRE(one.tbl.find("m6") != std::string::npos);  // (hits in the last model too)
    CHECK(one.ali.find("m0") != std::string::npos);
    CHECK(one.engine.find(" x") == std::string::npos);
    for (unsigned workers : {2u, 3u, 9u}) {
        CAPTURE(workers);
        const LastStageTexts many = run_last_stage(c.in, c.models, cpu_engines(workers));
        CHECK(untimed(many.main) == untimed(one.main));
        CHECK(many.tbl == one.tbl);
        CHECK(many.dom == one.dom);
        CHECK(many.pfam == one.pfam);
        CHECK(many.ali == one.ali);
        // (no more workers than models)
        CHECK(many.engine == one.engine + " x" + std::to_string(std::min(workers, 7u)));
    }
}

TEST_CASE("the error is the first failing model's, whatever fails after it") {
    LastStageCase c(7);
    struct Failure {
        std::set<std::string> fast, late;
        std::string want;
    };
    for (const Failure& f : {Failure{{"m4", "m5", "m6"}, {"m2"}, "late m2"}, Failure{{"m3"}, {"m0"}, "late m0"},
                             Failure{{"m1", "m2"}, {}, "fast m1"}, Failure{{"m6"}, {}, "fast m6"}}) {
        for (unsigned workers : {1u, 2u, 3u}) {
            CAPTURE(workers);
            CAPTURE(f.want);
            CHECK_THROWS_WITH_AS(run_last_stage(c.in, c.models, cpu_engines(workers, f.fast, f.late)),
                                 f.want.c_str(), LastStageStop);
        }
    }
}

TEST_CASE("every worker checks for a stop, and a stop ends the run once all have joined") {
    LastStageCase c(5);
    struct Stop {};
    for (unsigned workers : {1u, 3u}) {
        CAPTURE(workers);
        std::atomic<int> calls{0};
        c.in.stop_check = [&calls] { ++calls; };
        run_last_stage(c.in, c.models, cpu_engines(workers));
        CHECK(calls.load() >= 2 * 5);  // (before each batch and at each file's end)
        calls = 0;
        c.in.stop_check = [&calls] {
            if (++calls > 3) throw Stop{};
        };
        CHECK_THROWS_AS(run_last_stage(c.in, c.models, cpu_engines(workers)), Stop);
    }
}

TEST_CASE("groups of models: consecutive, each about a 1/(2 * workers) share of the work, none empty") {
    const auto groups = [](const std::vector<double>& work, unsigned workers) {
        return last_stage_groups(std::vector<double>(work.size(), 1.0), work, workers);
    };
    // Equal models: two groups a worker.
    CHECK(groups(std::vector<double>(8, 10.0), 1) == std::vector<size_t>{0, 4, 8});
    CHECK(groups(std::vector<double>(8, 10.0), 2) == std::vector<size_t>{0, 2, 4, 6, 8});
    // More workers than models: a model a group.
    CHECK(groups(std::vector<double>(3, 10.0), 4) == std::vector<size_t>{0, 1, 2, 3});
    // A large model closes its group; the small ones after it share one.
    CHECK(groups({1.0, 100.0, 1.0, 1.0, 1.0}, 1) == std::vector<size_t>{0, 2, 5});
    // Models without work join their neighbours; none at all: one group.
    CHECK(groups({0.0, 0.0, 0.0}, 2) == std::vector<size_t>{0, 3});
    CHECK(groups({}, 2) == std::vector<size_t>{0});
    // No group much over kLastStageGroupBytes of survivors, however few the workers.
    const std::vector<double> bytes(1000, kLastStageGroupBytes / 8);
    const std::vector<size_t> g = last_stage_groups(bytes, std::vector<double>(1000, 1.0), 1);
    for (size_t k = 0; k + 1 < g.size(); ++k) CHECK(g[k + 1] - g[k] == 8);
}

TEST_CASE("CPU workers: several only while every model's work stays within one worker's share") {
    // Many equal models: one worker per two threads, at most one per model.
    CHECK(last_stage_cpu_workers(std::vector<double>(360, 1.0), 16) == 8);
    CHECK(last_stage_cpu_workers(std::vector<double>(360, 1.0), 2) == 1);
    CHECK(last_stage_cpu_workers(std::vector<double>(3, 1.0), 16) == 2);  // powers of two: 4 workers for 3 models would not
    CHECK(last_stage_cpu_workers(std::vector<double>(4, 1.0), 16) == 4);
    // One model with half the work: two workers at most; with most of it, one.
    std::vector<double> cells(100, 1.0);
    cells[0] = 99.0;
    CHECK(last_stage_cpu_workers(cells, 16) == 2);
    cells[0] = 1000.0;
    CHECK(last_stage_cpu_workers(cells, 16) == 1);
    CHECK(last_stage_cpu_workers({}, 16) == 1);
    CHECK(last_stage_cpu_workers({0.0, 0.0}, 16) == 2);  // (no work: any count is as good)
}

// Viterbi-filter decisions against Debian's /usr/bin/hmmsearch.
// (1) Viterbi alone (docs/hmmer-filters.md §8.4 (b)): on a copy of each model
// whose MSV mu is 10^6 every target reaches the filter, so for F2 in {1e-3, 1e-2, 1e-4}
// hmmsearch's "Passed Vit filter" count must equal the number of targets
// whose reference score -> bits (filtersc = null score, --nobias) -> P
// (VMU, VLAMBDA) is <= F2, plus the MSV-overflow targets (their MSV P is
// still 0, so they skip the filter and pass); every --tblout hit must be in
// that set. (2) The pipeline's Viterbi stage with default options and
// --F3 1 (and larger F1): bias passers whose bias-corrected MSV P <= F2, or whose Viterbi P
// (filtersc = bias filter score) <= F2. Fresh targets every run from
// tests/oracle/make_targets.sh (homologs, mutants, random, long, odd codes);
// (3) one hmmsearch per target for those nearest the F2 = 1e-3 threshold.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/hmmer/background.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "core/hmmer/vit/vit_model.hpp"
#include "core/hmmer/vit/vit_reference.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

struct Target {
    std::string name;
    std::vector<uint8_t> dsq;
    uint16_t msv_raw = 0;
    uint32_t vit_raw = 0;
};

}  // namespace

TEST_CASE("Viterbi filter decisions equal hmmsearch's (Viterbi alone, and the pipeline stage)") {
    seed();
    TempDir dir;
    const std::vector<ExampleModel> cases = {
        {"fn3", kHmmerTutorial + "fn3.hmm", 30, 20000},
        {"globins4", kHmmerTutorial + "globins4.hmm", 30, 20000},
        {"Pkinase", kHmmerTutorial + "Pkinase.hmm", 30, 20000},
        {"RRM_1", kHmmerSuite + "RRM_1.hmm.gz", 30, 20000},
        {"SMC_N", kHmmerSuite + "SMC_N.hmm.gz", 5, 5000},  // M = 1142
    };
    for (const auto& c : cases) {
        CAPTURE(c.label);
        const auto plain = unpack_model(c, dir.path());
        const auto vitonly = dir.path() / (c.label + ".vitonly.hmm");
        run_command("sed -E 's/^(STATS LOCAL MSV) +[-0-9.]+ +([0-9.]+)/\\1 1000000.0 \\2/' " + plain.string() + " > " +
                    vitonly.string());
        const MsvModel model(read_all_hmms(plain.string()).at(0));
        REQUIRE(model.hmm.has_stats);
        const VitModel vm(model);
        const auto db = dir.path() / "db.fa";
        make_oracle_targets(c, plain, db, uniform(1, 1000000));
        std::vector<Target> targets;
        for (const auto& r : parse_fasta(read_text(db))) {
            Target t{r.name, digitize_amino(r.seq)};
            if (t.dsq.empty()) continue;  // hmmsearch skips L = 0 (it only counts toward Z)
            t.msv_raw = msv_reference(model.bytes, t.dsq);
            t.vit_raw = vit_reference(vm.words, t.dsq);
            targets.push_back(std::move(t));
        }
        long n_overflow = 0;
        for (const auto& t : targets) n_overflow += t.vit_raw == kVitOverflow;

        for (double F2 : {1e-3, 1e-2, 1e-4}) {
            CAPTURE(F2);
            const auto tbl = dir.path() / "b.tbl";
            const auto out = dir.path() / "out.txt";
            std::ostringstream cmd;
            cmd << "hmmsearch --nobias --F1 1 --F2 " << F2 << " --F3 1 -E 1e30 --domE 1e30 --noali --tblout " << tbl
                << " -o " << out << " " << vitonly << " " << db;
            run_command(cmd.str());
            std::set<std::string> ours;
            long vit_pass = 0;
            for (const auto& t : targets) {
                const uint64_t L = t.dsq.size();
                const bool p = vit_verdict(model.hmm, null_score(L), t.vit_raw, L, F2).pass;
                vit_pass += p;
                if (p || t.msv_raw == kMsvOverflow) ours.insert(t.name);
            }
            const std::string text = read_text(out);
            CHECK(passed_count(text, "Vit") == static_cast<long>(ours.size()));
            const auto reported = tbl_names(tbl);
            for (const auto& name : reported) {
                CAPTURE(name);
                CHECK(ours.count(name) == 1);
            }
            MESSAGE(c.label << " Viterbi alone, F2=" << F2 << ": " << targets.size() << " targets, " << vit_pass
                            << " pass VF (" << ours.size() << " with MSV overflows), " << reported.size()
                            << " reported, " << n_overflow << " VF overflows");
        }

        // Per-target oracle (one hmmsearch per target, docs/hmmer-filters.md
        // §8.3) for the targets nearest the F2 = 1e-3 Viterbi threshold.
        std::vector<std::pair<double, size_t>> near;
        for (size_t i = 0; i < targets.size(); ++i) {
            const auto& t = targets[i];
            const double p = vit_verdict(model.hmm, null_score(t.dsq.size()), t.vit_raw, t.dsq.size(), 1e-3).p;
            if (t.msv_raw != kMsvOverflow && p > 0) near.push_back({std::fabs(std::log(p) - std::log(1e-3)), i});
        }
        std::sort(near.begin(), near.end());
        for (size_t j = 0; j < std::min<size_t>(6, near.size()); ++j) {
            const auto& t = targets[near[j].second];
            CAPTURE(t.name);
            const auto one = dir.path() / "one.fa";
            run_command("awk -v n='" + t.name + "' '/^>/{p=(substr($1,2)==n)} p' " + db.string() + " > " + one.string());
            const std::string text = run_command("hmmsearch --nobias --F1 1 --F2 1e-3 --F3 1 --noali -o /dev/stdout " +
                                                 vitonly.string() + " " + one.string());
            const long want = vit_verdict(model.hmm, null_score(t.dsq.size()), t.vit_raw, t.dsq.size(), 1e-3).pass;
            CHECK(passed_count(text, "Vit") == want);
        }

        // F1 = 0.02 is the default; larger F1 sends many more targets to the filter.
        for (const auto& [F1, F2] : std::vector<std::pair<double, double>>{{0.02, 1e-3}, {0.02, 1e-2}, {0.5, 1e-3}, {1.0, 1e-4}}) {
            CAPTURE(F1);
            CAPTURE(F2);
            const auto out = dir.path() / "out.txt";
            std::ostringstream cmd;
            cmd << "hmmsearch --F1 " << F1 << " --F2 " << F2 << " --F3 1 -E 1e30 --domE 1e30 --noali -o " << out << " "
                << plain << " " << db;
            run_command(cmd.str());
            long n_msv = 0, n_bias = 0, n_vit = 0, n_ran = 0;
            for (const auto& t : targets) {
                const uint64_t L = t.dsq.size();
                const MsvVerdict m = msv_verdict(model, t.dsq, t.msv_raw, F1, true);
                n_msv += m.pass_msv;
                n_bias += m.pass_bias;
                VitVerdict v;
                if (vit_filter_needed(m, F2)) {
                    v = vit_verdict(model.hmm, m.filtersc, t.vit_raw, L, F2);
                    ++n_ran;
                }
                n_vit += vit_stage_pass(m, v, F2);
            }
            const std::string text = read_text(out);
            CHECK(passed_count(text, "MSV") == n_msv);
            CHECK(passed_count(text, "bias") == n_bias);
            CHECK(passed_count(text, "Vit") == n_vit);
            MESSAGE(c.label << " pipeline, F1=" << F1 << " F2=" << F2 << ": " << n_msv << " MSV, " << n_bias << " bias, " << n_ran
                            << " ran VF, " << n_vit << " pass the Vit stage");
        }
    }
}

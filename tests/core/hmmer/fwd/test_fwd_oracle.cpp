// Forward-filter decisions against Debian's /usr/bin/hmmsearch. With
// --F1 1 --F2 1 every non-empty target reaches the Forward filter, so
// "Passed Fwd filter" must equal the number of targets whose reference
// Forward score -> bits (against the bias-filter score, or the null score
// with --nobias) -> P (FTAU, FLAMBDA) is <= F3. The thresholds are a fixed
// ladder plus, sharper, thresholds set exactly at our own P-values of targets
// spread over the whole range (printed with 17 digits, so hmmsearch reads
// the same double): a score one ulp off hmmsearch's would move its target
// across its own threshold and change the count. Fresh targets every run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/hmmer/background.hpp"
#include "core/hmmer/fwd/fwd_model.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/fwd/fwd_reference.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

std::string exact(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace

TEST_CASE("Forward-filter decisions equal hmmsearch's at thresholds set at our own P-values") {
    seed();
    TempDir dir;
    const std::vector<ExampleModel> cases = {
        {"fn3", kHmmerTutorial + "fn3.hmm", 12, 8000},          // M = 86, fully serial D->D passes
        {"globins4", kHmmerTutorial + "globins4.hmm", 12, 8000},  // M = 149
        {"Pkinase", kHmmerTutorial + "Pkinase.hmm", 12, 8000},    // M = 260
        {"RRM_1", kHmmerSuite + "RRM_1.hmm.gz", 12, 8000},        // M = 69
        {"SMC_N", kHmmerSuite + "SMC_N.hmm.gz", 3, 3000},         // M = 1142
    };
    for (const auto& c : cases) {
        CAPTURE(c.label);
        const auto plain = unpack_model(c, dir.path());
        const MsvModel model(read_all_hmms(plain.string()).at(0));
        REQUIRE(model.hmm.has_stats);
        const FwdProfile fp = build_fwd_profile(model.prof);
        const auto db = dir.path() / "db.fa";
        make_oracle_targets(c, plain, db, uniform(1, 1000000));
        // P-values with the bias filter (default) and without (--nobias).
        // A target on which HMMER's parser fails (NaN here: all '*', say)
        // stops hmmsearch, so those are checked alone and left out.
        std::vector<double> p_bias, p_null;
        std::vector<FastaRecord> scored, failing;
        for (const auto& r : parse_fasta(read_text(db))) {
            const auto dsq = digitize_amino(r.seq);
            if (dsq.empty()) continue;  // hmmsearch skips L = 0 (it only counts toward Z)
            const float fwd = fwd_reference(fp, dsq);
            if (std::isnan(fwd)) {
                failing.push_back(r);
                continue;
            }
            const MsvVerdict m = msv_verdict(model, dsq, msv_reference(model.bytes, dsq), 1.0, true);
            REQUIRE(m.pass_bias);
            p_bias.push_back(fwd_verdict(model.hmm, m.filtersc, fwd, 1.0).p);
            p_null.push_back(fwd_verdict(model.hmm, null_score(dsq.size()), fwd, 1.0).p);
            scored.push_back(r);
        }
        for (const auto& r : failing) {
            CAPTURE(r.name);
            const auto one = dir.path() / "one.fa";
            std::ofstream(one) << to_fasta({r});
            const std::string said = run_command("hmmsearch --F1 1 --F2 1 --noali -o /dev/null " + plain.string() + " " +
                                                 one.string() + " 2>&1 || echo exit=$?");
            CHECK(said.find("forward score") != std::string::npos);
            CHECK(said.find("exit=") != std::string::npos);
        }
        std::ofstream(db) << to_fasta(scored);
        for (const bool nobias : {false, true}) {
            const auto& ps = nobias ? p_null : p_bias;
            std::vector<double> sorted = ps;
            std::sort(sorted.begin(), sorted.end());
            std::vector<double> thresholds{1e-5, 1e-3, 0.1};
            for (double f : {0.15, 0.3, 0.45, 0.6, 0.75, 0.9}) {  // our P-values, from strong hits to noise
                const double p = sorted[static_cast<size_t>(f * static_cast<double>(sorted.size() - 1))];
                if (p > 0 && p < 1) thresholds.push_back(p);
            }
            for (double F3 : thresholds) {
                CAPTURE(nobias);
                CAPTURE(exact(F3));
                long want = 0;
                for (double p : ps) want += !(p > F3);
                const auto out = dir.path() / "out.txt";
                run_command(std::string("hmmsearch ") + (nobias ? "--nobias " : "") + "--F1 1 --F2 1 --F3 " +
                            exact(F3) + " --noali -o " + out.string() + " " + plain.string() + " " + db.string());
                CHECK(passed_count(read_text(out), "Fwd") == want);
                MESSAGE(c.label << std::string(nobias ? " --nobias" : "") << " F3=" << exact(F3) << ": " << want << " of "
                                << ps.size() << " pass Forward (" << failing.size() << " stop hmmsearch)");
            }
        }
    }
}

// Per-target exactness of the MSV and bias filter decisions against Debian's
// /usr/bin/hmmsearch (docs/hmmer-filters.md §8.4 (a)): fresh targets every run
// (homologs from hmmemit, mutated copies, homologs in random flanks, random
// sequences with lowercase and B J Z O U X * residues), compared through the
// pipeline's pass counts and the reported hit set, then one hmmsearch per
// target for the targets nearest the threshold.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/hmmer/background.hpp"
#include "core/hmmer/bias/bias_filter.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/msv/msv_model.hpp"
#include "core/hmmer/msv/msv_profile.hpp"
#include "core/hmmer/msv/msv_reference.hpp"
#include "core/hmmer/msv/msv_score.hpp"
#include "core/hmmer/profile.hpp"
#include "core/hmmer/pvalue.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

const std::string kCanonical = "ACDEFGHIKLMNPQRSTVWY";

std::string mutate(const std::string& s, double rate) {
    std::string out = s;
    for (auto& c : out)
        if (std::uniform_real_distribution<double>(0, 1)(rng()) < rate) c = kCanonical[static_cast<size_t>(uniform(0, 19))];
    return out;
}

// Random residues, occasionally degenerate or '*'.
std::string random_residues(size_t n, bool exotic) {
    std::string s = random_text(kCanonical, n);
    if (exotic)
        for (auto& c : s)
            if (uniform(0, 49) == 0) c = std::string("BJZOUX*")[static_cast<size_t>(uniform(0, 6))];
    return s;
}

std::string lowercase(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// One model under test: what our reader reads, and a plain copy for hmmsearch.
struct OracleModel {
    std::string label;
    std::string ours;
    std::string plain;
    int n_emit;
    std::vector<double> F1s;
};

// Low-complexity text: a few residues, repeated, for the bias filter.
std::string biased_residues(size_t n) {
    std::string alphabet;
    for (int i = uniform(1, 4); i > 0; --i) alphabet += kCanonical[static_cast<size_t>(uniform(0, 19))];
    return random_text(alphabet + "ACDEFGHIKLMNPQRSTVWY", n / 10) + random_text(alphabet, n - n / 10);
}

std::vector<FastaRecord> make_targets(const std::string& hmm_path, int n_emit) {
    const unsigned s = static_cast<unsigned>(uniform(1, 1000000));
    const auto emitted = parse_fasta(run_command("hmmemit -N " + std::to_string(n_emit) + " --seed " + std::to_string(s) + " " + hmm_path));
    REQUIRE(emitted.size() == static_cast<size_t>(n_emit));
    std::vector<FastaRecord> t;
    auto add = [&](std::string seq) { t.push_back({"t" + std::to_string(t.size()), std::move(seq)}); };
    for (const auto& e : emitted) add(e.seq);
    for (const auto& e : emitted) {
        for (double rate : {0.2, 0.4, 0.6}) {
            std::string m = mutate(e.seq, rate);
            if (uniform(0, 3) == 0) m = lowercase(m);
            if (uniform(0, 3) == 0) m = random_residues(static_cast<size_t>(uniform(0, 5)), true) + m;
            add(m);
        }
    }
    for (int i = 0; i < n_emit / 2; ++i) {  // homologs inside long random flanks
        const auto& e = emitted[static_cast<size_t>(uniform(0, n_emit - 1))];
        add(random_residues(static_cast<size_t>(uniform(0, 1500)), true) + mutate(e.seq, 0.3) +
            random_residues(static_cast<size_t>(uniform(0, 1500)), true));
    }
    for (int i = 0; i < n_emit / 2; ++i) {  // homologs with low-complexity flanks or heavy bias
        const auto& e = emitted[static_cast<size_t>(uniform(0, n_emit - 1))];
        add(biased_residues(static_cast<size_t>(uniform(0, 800))) + mutate(e.seq, 0.1 * uniform(0, 5)) +
            biased_residues(static_cast<size_t>(uniform(0, 800))));
    }
    for (int i = 0; i < 20; ++i) add(biased_residues(static_cast<size_t>(uniform(1, 2000))));
    for (int L : {1, 2, 3, 4, 5, 8, 13, 21, 50, 100, 300, 1000, 2999, 3000}) add(random_residues(static_cast<size_t>(L), true));
    for (int i = 0; i < 60; ++i) {
        std::string r = random_residues(static_cast<size_t>(uniform(1, 3000)), uniform(0, 1) == 0);
        if (uniform(0, 5) == 0) r = lowercase(r);
        add(r);
    }
    return t;
}

}  // namespace

TEST_CASE("MSV and bias decisions equal hmmsearch's, per target") {
    seed();
    TempDir dir;
    std::vector<OracleModel> models;
    // Each run's cost is dominated by hmmsearch's own Forward/Backward on the
    // MSV passers, so the big model gets fewer homologs and one threshold.
    auto add_model = [&](const std::string& label, const std::string& ours, int n_emit = 50,
                         std::vector<double> F1s = {0.02, 0.001, 0.1}) {
        const auto plain = dir.path() / (label + ".plain.hmm");
        run_command("gzip -dcf " + ours + " > " + plain.string());
        models.push_back({label, ours, plain.string(), n_emit, std::move(F1s)});
    };
    add_model("fn3", kHmmerTutorial + "fn3.hmm");
    add_model("globins4", kHmmerTutorial + "globins4.hmm");
    add_model("Pkinase", kHmmerTutorial + "Pkinase.hmm");
    add_model("RRM_1", kHmmerSuite + "RRM_1.hmm.gz");          // 3/e, gzipped
    add_model("SMC_N", kHmmerSuite + "SMC_N.hmm.gz", 8, {0.02});          // M = 1142
    add_model("XYPPX", kHmmerSuite + "XYPPX.hmm");             // M = 5
    {   // legacy 3/a: STATS from VMU/VLAMBDA
        const auto p = dir.write("fn3_3a.hmm", run_command("hmmconvert --outfmt 3/a " + kHmmerTutorial + "fn3.hmm"));
        add_model("fn3_3a", p.string());
    }
    {   // no COMPO line: the bias filter's composition is all zeros
        std::string t = run_command("cat " + kHmmerTutorial + "globins4.hmm");
        const auto at = t.find("  COMPO ");
        t.erase(at, t.find('\n', at) + 1 - at);
        add_model("globins4_nocompo", dir.write("nocompo.hmm", t).string());
    }

    for (const auto& om : models) {
        CAPTURE(om.label);
        const MsvModel model(read_all_hmms(om.ours).at(0));
        REQUIRE(model.hmm.has_stats);
        const auto targets = make_targets(om.plain, om.n_emit);
        const auto db = dir.write("db.fa", to_fasta(targets));
        std::map<std::string, std::vector<uint8_t>> dsqs;
        std::map<std::string, uint16_t> raws;
        for (const auto& t : targets) {
            dsqs[t.name] = digitize_amino(t.seq);
            raws[t.name] = msv_reference(model.bytes, dsqs[t.name]);
        }

        for (double F1 : om.F1s) {
            for (bool with_bias : {false, true}) {
                CAPTURE(F1);
                CAPTURE(with_bias);
                const auto tbl = dir.path() / "a.tbl";
                const auto out = dir.path() / "out.txt";
                std::ostringstream cmd;
                cmd << "hmmsearch " << (with_bias ? "" : "--nobias ") << "--F1 " << F1
                    << " --F2 1 --F3 1 -E 1e30 --domE 1e30 --noali --tblout " << tbl << " -o " << out << " "
                    << om.plain << " " << db;
                run_command(cmd.str());
                std::ifstream o(out);
                const std::string text((std::istreambuf_iterator<char>(o)), std::istreambuf_iterator<char>());
                long n_msv = 0, n_bias = 0;
                std::set<std::string> pass;
                for (const auto& [name, dsq] : dsqs) {
                    const MsvVerdict v = msv_verdict(model, dsq, raws[name], F1, with_bias);
                    n_msv += v.pass_msv;
                    n_bias += v.pass_bias;
                    if (v.pass_bias) pass.insert(name);
                }
                CHECK(passed_count(text, "MSV") == n_msv);
                CHECK(passed_count(text, "bias") == n_bias);
                const auto reported = tbl_names(tbl);
                for (const auto& name : reported) {
                    CAPTURE(name);
                    CHECK(pass.count(name) == 1);
                }
                MESSAGE(om.label << " F1=" << F1 << std::string(with_bias ? " bias" : " nobias") << ": "
                        << targets.size() << " targets, " << n_msv << " pass MSV, " << n_bias << " pass bias, "
                        << reported.size() << " reported");
            }
        }

        // Per-sequence oracle: the targets nearest the F1 = 0.02 threshold
        // (MSV P-value, and bias-corrected P-value), plus tiny and
        // all-nonresidue edge cases; one hmmsearch each.
        std::vector<std::pair<double, std::string>> near_msv, near_bias;
        for (const auto& [name, dsq] : dsqs) {
            const MsvVerdict v = msv_verdict(model, dsq, raws[name], 1.0, true);
            near_msv.push_back({std::fabs(std::log(v.msv_p) - std::log(0.02)), name});
            near_bias.push_back({std::fabs(std::log(v.bias_p) - std::log(0.02)), name});
        }
        std::sort(near_msv.begin(), near_msv.end());
        std::sort(near_bias.begin(), near_bias.end());
        std::set<std::string> chosen;
        for (size_t i = 0; i < 5; ++i) {
            chosen.insert(near_msv[i].second);
            chosen.insert(near_bias[i].second);
        }
        std::vector<FastaRecord> single;
        for (const auto& t : targets) if (chosen.count(t.name)) single.push_back(t);
        single.push_back({"L1", "W"});
        single.push_back({"L1x", "X"});
        single.push_back({"star1", "*"});
        single.push_back({"stars", "*****"});
        for (const auto& t : single) {
            CAPTURE(t.name);
            const auto dsq = digitize_amino(t.seq);
            const MsvVerdict v = msv_verdict(model, dsq, msv_reference(model.bytes, dsq), 0.02, true);
            const auto one = dir.write("one.fa", to_fasta({t}));
            const std::string text = run_command("hmmsearch --F2 1 --F3 1 --noali -o /dev/stdout " + om.plain + " " + one.string());
            CHECK(passed_count(text, "MSV") == long{v.pass_msv});
            CHECK(passed_count(text, "bias") == long{v.pass_bias});
        }
    }
}

TEST_CASE("a model without STATS passes nothing, in hmmsearch and here") {
    TempDir dir;
    std::string t = run_command("cat " + kHmmerTutorial + "fn3.hmm");
    for (const char* tag : {"STATS LOCAL MSV", "STATS LOCAL VITERBI", "STATS LOCAL FORWARD"}) {
        const auto at = t.find(tag);
        t.erase(at, t.find('\n', at) + 1 - at);
    }
    const auto path = dir.write("nostats.hmm", t);
    const MsvModel model(read_all_hmms(path.string()).at(0));
    CHECK_FALSE(model.hmm.has_stats);
    const auto targets = parse_fasta(run_command("hmmemit -N 20 --seed 7 " + kHmmerTutorial + "fn3.hmm"));
    const auto db = dir.write("db.fa", to_fasta(targets));
    const std::string text = run_command("hmmsearch --F2 1 --F3 1 --noali -o /dev/stdout " + path.string() + " " + db.string());
    CHECK(passed_count(text, "MSV") == 0);
    for (const auto& r : targets) {
        const auto dsq = digitize_amino(r.seq);
        CHECK_FALSE(msv_verdict(model, dsq, msv_reference(model.bytes, dsq), 0.02, true).pass_msv);
    }
}

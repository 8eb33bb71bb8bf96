// The parser Forward, the parser Backward and the domain decoding against
// Debian's /usr/bin/hmmsearch: with --max every target reaches domain
// definition, whose first step reads only mocc, btot and etot. The
// expected number of domains (btot[L], --tblout's "exp"), the regions that
// HMMER's thresholds rt1 = 0.25 and rt2 = 0.10 cut out of mocc ("reg") and
// the regions that look multi-domain by rt3 = 0.20 and go to clustering
// ("clu") must equal hmmsearch's for every target it reports; a target it
// does not report must have no region (or only clustered ones, whose
// envelopes may all vanish). Fresh targets every run, with fused pairs of
// homologs for multi-domain regions.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_fwdback.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

struct Regions {
    float nexpected = 0;
    int nregions = 0, nclustered = 0;
};

// p7_domaindef_ByPosteriorHeuristics' region scan, in its float arithmetic.
Regions scan_regions(const DomOccupancy& o, size_t L) {
    constexpr float rt1 = 0.25f, rt2 = 0.10f, rt3 = 0.20f;
    Regions r;
    r.nexpected = o.btot[L];
    size_t i = 0;
    bool have_i = false, triggered = false;
    for (size_t j = 1; j <= L; ++j) {
        if (!triggered) {
            if (o.mocc[j] - (o.btot[j] - o.btot[j - 1]) < rt2 || !have_i) i = j, have_i = true;
            if (o.mocc[j] >= rt1) triggered = true;
        } else if (o.mocc[j] - (o.etot[j] - o.etot[j - 1]) < rt2) {
            ++r.nregions;
            float most = -1.0f;  // is_multidomain_region
            for (size_t z = i; z <= j; ++z) most = std::max(most, std::min(o.etot[z] - o.etot[i - 1], o.btot[j] - o.btot[z - 1]));
            if (most >= rt3) ++r.nclustered;
            have_i = triggered = false;
        }
    }
    return r;
}

std::vector<std::string> fields(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> f;
    for (std::string w; in >> w;) f.push_back(w);
    return f;
}

}  // namespace

TEST_CASE("expected domains, regions and clustered regions equal hmmsearch's --tblout for every target") {
    seed();
    TempDir dir;
    const std::vector<ExampleModel> cases = {
        {"fn3", kHmmerTutorial + "fn3.hmm", 12, 3000},            // M = 86
        {"globins4", kHmmerTutorial + "globins4.hmm", 12, 3000},  // M = 149
        {"RRM_1", kHmmerSuite + "RRM_1.hmm.gz", 12, 3000},        // M = 69
    };
    for (const auto& c : cases) {
        CAPTURE(c.label);
        const auto plain = unpack_model(c, dir.path());
        const Hmm hmm = read_all_hmms(plain.string()).at(0);
        const FwdProfile fp = build_fwd_profile(build_profile(hmm));
        const auto gen = dir.path() / "gen.fa";
        make_oracle_targets(c, plain, gen, uniform(1, 1000000));
        auto recs = parse_fasta(read_text(gen));
        // fused pairs of homologs: regions with two domains
        const auto homologs = parse_fasta(run_command("hmmemit -N 16 --seed " + std::to_string(uniform(1, 1000000)) + " " + plain.string()));
        for (size_t k = 0; k + 1 < homologs.size(); k += 2)
            recs.push_back({"fused" + std::to_string(k), homologs[k].seq + random_text("ACDEFGHIKLMNPQRSTVWY", static_cast<size_t>(uniform(0, 40))) + homologs[k + 1].seq});

        // Ours; targets on which HMMER stops (parser range errors) are left out.
        std::map<std::string, Regions> ours;
        std::vector<FastaRecord> kept;
        int dropped = 0;
        for (const auto& r : recs) {
            const auto dsq = digitize_amino(r.seq);
            if (dsq.empty()) continue;
            const DomSpecialOdds odds = dom_special_odds(dsq.size(), true);
            DomMatrix fwd, bck;
            DomOccupancy occ;
            if (std::isnan(dom_forward(fp, odds, dsq, fwd, false)) || std::isnan(dom_backward(fp, odds, dsq, fwd, bck, false)) ||
                dom_domain_decoding(odds, fwd, bck, occ) != DomDecodeStatus::ok) {
                ++dropped;
                continue;
            }
            ours[r.name] = scan_regions(occ, dsq.size());
            kept.push_back(r);
        }
        const auto db = dir.path() / "db.fa";
        { std::ofstream(db) << to_fasta(kept); }
        const auto tbl = dir.path() / "hits.tbl";
        run_command("hmmsearch --max -E 1e30 --cpu 1 --noali -o /dev/null --tblout " + tbl.string() + " " + plain.string() + " " + db.string());

        int reported = 0, with_regions = 0, clustered = 0;
        std::map<std::string, bool> seen;
        std::ifstream in(tbl);
        for (std::string line; std::getline(in, line);) {
            if (line.empty() || line[0] == '#') continue;
            const auto f = fields(line);
            REQUIRE(f.size() >= 18);
            CAPTURE(f[0]);
            REQUIRE(ours.count(f[0]) == 1);
            const Regions& r = ours[f[0]];
            char exp[32];
            std::snprintf(exp, sizeof exp, "%.1f", r.nexpected);
            CHECK(f[10] == exp);
            CHECK(f[11] == std::to_string(r.nregions));
            CHECK(f[12] == std::to_string(r.nclustered));
            seen[f[0]] = true;
            ++reported;
            clustered += r.nclustered > 0;
        }
        for (const auto& [name, r] : ours) {
            if (seen.count(name)) continue;
            CAPTURE(name);
            CHECK((r.nregions == 0 || r.nclustered > 0));
            with_regions += r.nregions > 0;
        }
        MESSAGE(c.label << ": " << ours.size() << " targets, " << reported << " reported by hmmsearch (" << clustered
                        << " with clustered regions), " << with_regions << " unreported with clustered regions, " << dropped
                        << " left out for HMMER's range errors");
        CHECK(reported > 10);
        CHECK(clustered > 0);
    }
}

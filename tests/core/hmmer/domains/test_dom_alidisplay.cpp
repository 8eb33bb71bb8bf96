// Alignment display (docs/hmmer-filters.md §16.5): hand-built traces give
// the lines HMMER's rules give, and the alignments hmmsearch prints are
// rebuilt exactly from the traces they imply.
#include <doctest/doctest.h>

#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/hmmer/domains/dom_alidisplay.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/profile.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

DomTraceStep step(DomState st, int k = 0, int64_t i = 0, float pp = 0.0f) { return {st, k, i, pp}; }

std::vector<uint8_t> digitize(const Alphabet& abc, const std::string& text) {
    std::vector<uint8_t> d;
    for (char c : text) d.push_back(static_cast<uint8_t>(abc.digitize(static_cast<unsigned char>(c))));
    return d;
}

float odds(const FwdProfile& fp, int k, int x) { return fp.e(x, (k - 1) % fp.Q)[(k - 1) / fp.Q]; }

}  // namespace

TEST_CASE("posterior characters: tenths from p + 0.05 in double, truncated; '*' from 1 on") {
    CHECK(dom_pp_char(0.0f) == '0');
    CHECK(dom_pp_char(0.0499f) == '0');
    CHECK(dom_pp_char(0.05f) == '1');   // 0.05f lies just above 0.05
    CHECK(dom_pp_char(0.15f) == '2');   // and 0.15f just above 0.15
    CHECK(dom_pp_char(0.35f) == '3');   // but 0.35f just below 0.35
    CHECK(dom_pp_char(0.5f) == '5');
    CHECK(dom_pp_char(0.95f) == '9');   // 0.95f is below 0.95: not '*'
    CHECK(dom_pp_char(0.9500001f) == '*');
    CHECK(dom_pp_char(1.0f) == '*');
}

TEST_CASE("a hand-built domain: consensus and CS above, identities, '+' for odds above 1, inserts in lower case, deletions") {
    const Hmm fn3 = read_all_hmms(kHmmerTutorial + "fn3.hmm").at(0);
    const FwdProfile fp = build_fwd_profile(build_profile(fn3));
    const Alphabet& abc = Alphabet::amino();
    // Residue 2 is node 3's consensus; residue 4 is no consensus but scores
    // above 0 at node 4; residue 5 scores below 0 at node 6.
    const int cons3 = abc.digitize(static_cast<unsigned char>(fn3.consensus[3]));
    int plus4 = -1, minus6 = -1;
    for (int x = 0; x < 20; ++x) {
        if (plus4 < 0 && x != abc.digitize(static_cast<unsigned char>(fn3.consensus[4])) && odds(fp, 4, x) > 1.0f) plus4 = x;
        if (minus6 < 0 && x != abc.digitize(static_cast<unsigned char>(fn3.consensus[6])) && odds(fp, 6, x) < 1.0f) minus6 = x;
    }
    REQUIRE(plus4 >= 0);
    REQUIRE(minus6 >= 0);
    const std::vector<uint8_t> dsq = {0, static_cast<uint8_t>(cons3), 5, static_cast<uint8_t>(plus4), static_cast<uint8_t>(minus6), 0};
    DomTrace tr;
    tr.M = fn3.M;
    tr.L = 6;
    tr.steps = {step(kStS), step(kStN), step(kStN, 0, 1, 0.9f), step(kStB),
                step(kStM, 3, 2, 0.96f), step(kStI, 3, 3, 0.0f), step(kStM, 4, 4, 0.55f), step(kStD, 5),
                step(kStM, 6, 5, 0.3f), step(kStE), step(kStC), step(kStC, 0, 6, 1.0f), step(kStT)};
    const DomAliDisplay ad = dom_alidisplay(tr, 0, fn3, fp, {"target", "ACC1", "a target", dsq});

    const auto sym = [&](int x) { return abc.symbol(x); };
    CHECK(ad.model == std::string{fn3.consensus[3], '.', fn3.consensus[4], fn3.consensus[5], fn3.consensus[6]});
    CHECK(ad.mline == std::string{fn3.consensus[3], ' ', '+', ' ', ' '});
    CHECK(ad.aseq == std::string{sym(cons3), 'g', sym(plus4), '-', sym(minus6)});  // code 5 is G
    CHECK(ad.ppline == "*06.3");
    CHECK(ad.csline == std::string{fn3.cs[3], '.', fn3.cs[4], fn3.cs[5], fn3.cs[6]});
    CHECK(ad.rfline.empty());
    CHECK(ad.mmline.empty());
    CHECK(ad.hmmfrom == 3);
    CHECK(ad.hmmto == 6);
    CHECK(ad.sqfrom == 2);
    CHECK(ad.sqto == 5);
    CHECK(ad.M == 86);
    CHECK(ad.L == 6);
    CHECK(ad.hmmname == "fn3");
    CHECK(ad.hmmacc == "PF00041.13");
    CHECK(ad.hmmdesc == "Fibronectin type III domain");
    CHECK(ad.sqname == "target");
    CHECK(ad.sqacc == "ACC1");
    CHECK(ad.sqdesc == "a target");
}

TEST_CASE("the domain to show: the which-th B of an unindexed trace, or the index; it starts and ends at an M") {
    const Hmm fn3 = read_all_hmms(kHmmerTutorial + "fn3.hmm").at(0);
    const FwdProfile fp = build_fwd_profile(build_profile(fn3));
    const std::vector<uint8_t> dsq(8, 3);
    DomTrace tr;
    tr.M = fn3.M;
    tr.L = 8;
    // Two domains; the second begins and ends with deletions, which the display leaves out.
    tr.steps = {step(kStS), step(kStN), step(kStB), step(kStM, 1, 1, 1.0f), step(kStM, 2, 2, 1.0f), step(kStE),
                step(kStJ), step(kStJ, 0, 3, 1.0f), step(kStB), step(kStM, 10, 4, 1.0f), step(kStD, 11),
                step(kStM, 12, 5, 1.0f), step(kStD, 13), step(kStE), step(kStC), step(kStC, 0, 6, 1.0f),
                step(kStC, 0, 7, 1.0f), step(kStC, 0, 8, 1.0f), step(kStT)};
    const DomAliTarget t{"t", "", "", dsq};
    const DomAliDisplay first = dom_alidisplay(tr, 0, fn3, fp, t);
    CHECK(first.hmmfrom == 1);
    CHECK(first.hmmto == 2);
    CHECK(first.aseq == "EE");
    const DomAliDisplay second = dom_alidisplay(tr, 1, fn3, fp, t);
    CHECK(second.hmmfrom == 10);
    CHECK(second.hmmto == 12);
    CHECK(second.sqfrom == 4);
    CHECK(second.sqto == 5);
    CHECK(second.aseq == "E-E");
    CHECK(second.ppline == "*.*");
    tr.domains = {{2, 5, 1, 2, 1, 2}, {8, 13, 4, 5, 10, 12}};
    CHECK(dom_alidisplay(tr, 1, fn3, fp, t).model == second.model);
    tr.domains.clear();
    CHECK_THROWS_AS((void)dom_alidisplay(tr, 2, fn3, fp, t), InternalError);

    Hmm no_cons = fn3;
    no_cons.consensus.clear();
    CHECK_THROWS_AS((void)dom_alidisplay(tr, 0, no_cons, fp, t), InternalError);
}

namespace {

// One alignment block of hmmsearch's output (--notextw: one line each).
struct Block {
    std::string rf, cs, model, mline, aseq, pp;
    int hmmfrom = 0, hmmto = 0;
    int64_t sqfrom = 0, sqto = 0;
    std::string target;
};

// The blocks of every "== domain" of `out`, in order.
std::vector<Block> parse_blocks(const std::string& out) {
    std::vector<Block> blocks;
    std::istringstream in(out);
    std::string line, target;
    std::vector<std::string> lines;
    auto flush = [&] {
        if (lines.empty()) return;
        Block b;
        size_t at = 0;
        auto annotation = [&](const std::string& tag, std::string& dst) {
            if (at < lines.size() && lines[at].size() > 3 && lines[at].compare(lines[at].size() - 3, 3, " " + tag.substr(0, 2)) == 0) {
                dst = lines[at];
                ++at;
            }
        };
        std::string rf, cs;
        annotation("RF", rf);
        annotation("CS", cs);
        REQUIRE(at + 3 < lines.size());
        // model line: name, from, aligned text, to
        const std::string& ml = lines[at];
        std::istringstream f(ml);
        std::string name;
        f >> name >> b.hmmfrom >> b.model >> b.hmmto;
        const size_t col = ml.find(b.model, ml.find(name) + name.size() + 1 + std::to_string(b.hmmfrom).size());
        const size_t w = b.model.size();
        auto cut = [&](const std::string& s) { return (s + std::string(col + w, ' ')).substr(col, w); };
        b.mline = cut(lines[at + 1]);
        std::istringstream g(lines[at + 2]);
        g >> b.target >> b.sqfrom >> b.aseq >> b.sqto;
        b.pp = cut(lines[at + 3]);
        if (!rf.empty()) b.rf = cut(rf);
        if (!cs.empty()) b.cs = cut(cs);
        blocks.push_back(b);
        lines.clear();
    };
    bool in_block = false;
    while (std::getline(in, line)) {
        if (line.find("  == domain ") == 0) {
            flush();
            in_block = true;
            continue;
        }
        if (!in_block) continue;
        if (line.empty() || line.find(">>") == 0 || line.find("Internal pipeline") == 0) {
            flush();
            in_block = false;
            continue;
        }
        lines.push_back(line);
    }
    flush();
    return blocks;
}

// The trace an alignment block implies (what p7_alidisplay_Backconvert
// recovers): '.' in the model line is an insert, '-' in the target line a
// deletion, anything else a match; posteriors decoded from the PP line.
DomTrace trace_of(const Block& b, int M, int64_t L) {
    DomTrace tr;
    tr.M = M;
    tr.L = L;
    tr.steps = {step(kStS), step(kStN), step(kStB)};
    int k = b.hmmfrom;
    int64_t i = b.sqfrom;
    for (size_t c = 0; c < b.model.size(); ++c) {
        const char p = b.pp[c];
        const float pp = p == '*' ? 1.0f : p == '0' ? 0.01f : p == '.' ? 0.0f : static_cast<float>(p - '0') / 10.0f;
        if (b.model[c] == '.') tr.steps.push_back(step(kStI, k - 1, i++, pp));
        else if (b.aseq[c] == '-') tr.steps.push_back(step(kStD, k++));
        else tr.steps.push_back(step(kStM, k++, i++, pp));
    }
    for (DomState s : {kStE, kStC, kStT}) tr.steps.push_back(step(s));
    return tr;
}

// The residues of a UniProt text record: the lines between SQ and //.
std::string uniprot_sequence(const std::string& text) {
    std::istringstream in(text.substr(text.find("\nSQ ") + 1));
    std::string line, seq;
    std::getline(in, line);
    while (std::getline(in, line) && line.rfind("//", 0) != 0)
        for (char c : line)
            if (std::isalpha(static_cast<unsigned char>(c))) seq += c;
    return seq + "\n";
}

}  // namespace

TEST_CASE("hmmsearch's alignment blocks are rebuilt from the traces they imply") {
    struct Case {
        std::string model, targets;
    };
    // 7LESS_DROME is a UniProt record; MADE1 (a DNA model with an RF line)
    // searches sequences hmmemit samples from it.
    TempDir dir;
    const std::string made1 = dir.write("made1.fa", run_command("hmmemit -N 6 --seed 3 " + kHmmerTutorial + "MADE1.hmm")).string();
    const std::string sevenless = dir.write("7less.fa", ">7LESS_DROME\n" + uniprot_sequence(slurp(kHmmerTutorial + "7LESS_DROME"))).string();
    const std::vector<Case> cases = {{"fn3.hmm", sevenless},
                                     {"Pkinase.hmm", sevenless},
                                     {"globins4.hmm", kHmmerTutorial + "globins45.fa"},
                                     {"MADE1.hmm", made1}};
    int checked = 0;
    for (const auto& c : cases) {
        CAPTURE(c.model);
        const Hmm hmm = read_all_hmms(kHmmerTutorial + c.model).at(0);
        const FwdProfile fp = build_fwd_profile(build_profile(hmm));
        const Alphabet& abc = Alphabet::of(hmm.alph);
        const std::string out = run_command("hmmsearch --notextw " + kHmmerTutorial + c.model + " " + c.targets);
        const auto targets = parse_fasta(slurp(c.targets));
        const auto blocks = parse_blocks(out);
        REQUIRE(!blocks.empty());
        for (const Block& b : blocks) {
            CAPTURE(b.target);
            CAPTURE(b.sqfrom);
            const FastaRecord* rec = nullptr;
            for (const auto& t : targets)
                if (t.name == b.target) rec = &t;
            REQUIRE(rec != nullptr);
            const std::vector<uint8_t> dsq = digitize(abc, rec->seq);
            const DomTrace tr = trace_of(b, hmm.M, static_cast<int64_t>(dsq.size()));
            const DomAliDisplay ad = dom_alidisplay(tr, 0, hmm, fp, {rec->name, "", "", dsq});
            CHECK(ad.model == b.model);
            CHECK(ad.mline == b.mline);
            CHECK(ad.aseq == b.aseq);
            CHECK(ad.ppline == b.pp);
            CHECK(ad.rfline == b.rf);
            CHECK(ad.csline == b.cs);
            CHECK(ad.hmmfrom == b.hmmfrom);
            CHECK(ad.hmmto == b.hmmto);
            CHECK(ad.sqfrom == b.sqfrom);
            CHECK(ad.sqto == b.sqto);
            ++checked;
        }
    }
    MESSAGE("alignment blocks rebuilt: " << checked);
    CHECK(checked >= 20);
}

// hmmsearch's five outputs rebuilt by warpdp's thresholds and writers, byte
// for byte, by round trip: Debian's hmmsearch runs; its --tblout,
// --domtblout and main output (--notextw, alignments) are read back into
// DomHit lists (tests/support/hmmsearch_outputs_parse.hpp says how the
// digits it does not print are chosen); the lists go, reversed, through
// finish_query() and the writers with the same options; the five files must
// equal the ones a second hmmsearch run (the options under test) wrote.
// Lines left out of the comparison, and only these: the main output's banner
// (the lines before its first "# - - -" rule, naming the program), "# CPU time:" and "# Mc/sec:"
// (timings); the tables' "# Program:", "# Version:", "# Option settings:"
// (the command) and "# Date:"; the alignment's "#=GF AU" (the program).
// Every run gives -Z: without it hmmsearch keeps hits that are reportable
// only against the targets read so far, which no output shows but which
// widen name columns (docs/hmmer-filters.md §9.2). Skips (77) without hmmsearch.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/hmmer/hmm_reader.hpp"
#include "core/hmmer/report/hit_list.hpp"
#include "hmmer_test_support.hpp"
#include "hmmsearch_outputs_parse.hpp"
#include "test_support.hpp"
#include "tools/hmmer/hmmsearch_alignment_output.hpp"
#include "tools/hmmer/hmmsearch_domtblout.hpp"
#include "tools/hmmer/hmmsearch_main_output.hpp"
#include "tools/hmmer/hmmsearch_pfamtblout.hpp"
#include "tools/hmmer/hmmsearch_report_options.hpp"
#include "tools/hmmer/hmmsearch_report_text.hpp"
#include "tools/hmmer/hmmsearch_tblout.hpp"

using namespace warpdp;
using namespace warpdp::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string x; in >> x;) w.push_back(x);
    return w;
}

bool starts(const std::string& l, const char* p) { return l.rfind(p, 0) == 0; }

// The text less the lines that name the program, the command or a time.
std::string comparable(const std::string& text, bool main_output) {
    std::string out;
    const std::vector<std::string> lines = split_lines(text);
    size_t first = 0;
    if (main_output)
        while (first < lines.size() && !starts(lines[first], "# - - -")) ++first;
    for (size_t i = first; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        if (starts(l, "# CPU time:") || starts(l, "# Mc/sec:") || starts(l, "# Program:") || starts(l, "# Version:") ||
            starts(l, "# Option settings:") || starts(l, "# Date:") || starts(l, "#=GF AU "))
            continue;
        out += l + "\n";
    }
    return out;
}

// Checks equality; on a difference shows the first lines of the diff.
void same(const TempDir& dir, const char* what, const std::string& ours, const std::string& theirs) {
    CAPTURE(what);
    if (ours == theirs) {
        CHECK(ours == theirs);
        return;
    }
    const auto a = dir.write("ours.txt", ours), b = dir.write("theirs.txt", theirs);
    std::string diff;
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen(("diff " + a.string() + " " + b.string() + " | head -30").c_str(), "r"), pclose);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p.get())) > 0) diff.append(buf, n);
    FAIL_CHECK(what << " differs from hmmsearch's (< ours, > hmmsearch's):\n" << diff);
}

// The GA, TC and NC lines of each model in `path`, where the reader left
// them unset (the reader does not fill them yet).
void with_cutoffs(std::vector<Hmm>& hmms, const std::string& path) {
    int q = -1;
    for (const std::string& l : split_lines(read_text(path))) {
        if (starts(l, "NAME ")) ++q;
        if (q < 0 || q >= static_cast<int>(hmms.size())) continue;
        Hmm& h = hmms[static_cast<size_t>(q)];
        const std::vector<std::string> w = words(l);
        if (w.size() < 3) continue;
        Hmm::Cutoff* c = w[0] == "GA" ? &h.ga : w[0] == "TC" ? &h.tc : w[0] == "NC" ? &h.nc : nullptr;
        if (c && !c->set) *c = {true, std::stof(w[1]), std::stof(w[2].substr(0, w[2].find(';')))};
    }
}

struct Db {
    fs::path path;
    long n = 0;
};

Db make_db(const TempDir& dir, const std::string& name, const std::string& command) {
    Db db{dir.path() / name, 0};
    run_command(command + " > " + db.path.string());
    db.n = std::stol(run_command("grep -c '^>' " + db.path.string()));
    return db;
}

// One round trip: the first run (read back) has `source` thresholds, the
// second `thresholds` and `format`. They differ where the second run
// includes domains that it does not report (-A shows them, no other output
// does): the first run reports them.
void round_trip(const TempDir& dir, const std::string& models, const Db& db, const std::string& thresholds,
                const std::string& format, const std::string& source) {
    CAPTURE(source);
    CAPTURE(models);
    CAPTURE(thresholds);
    CAPTURE(format);
    const fs::path d = dir.path();
    const std::string Z = "-Z " + std::to_string(db.n) + " ";
    const std::string src = d / "src";
    run_command("hmmsearch " + Z + source + " --notextw -o " + src + ".out --tblout " + src + ".tbl --domtblout " +
                src + ".dom --pfamtblout " + src + ".pfam " + models + " " + db.path.string());
    const std::string t = (d / "t").string();
    const std::string outs = "-o " + t + ".out -A " + t + ".sto --tblout " + t + ".tbl --domtblout " + t +
                             ".dom --pfamtblout " + t + ".pfam ";
    const std::string options = Z + thresholds + " " + format + " " + outs;
    run_command("hmmsearch " + options + models + " " + db.path.string());

    std::vector<Hmm> hmms = read_all_hmms(models);
    with_cutoffs(hmms, models);
    const ReportOptions o = read_report_options(words(options));
    const auto parsed = parse_hmmsearch_run(hmms, static_cast<double>(db.n), read_text(src + ".out"),
                                            read_text(src + ".tbl"), read_text(src + ".dom"), read_text(src + ".pfam"));
    MainOutputHeader head;
    head.banner_lines = {"warpdp (the writers' test)"};
    head.hmm_file = models;
    head.seq_file = db.path.string();
    head.main_out = t + ".out";
    head.ali_out = t + ".sto";
    head.tbl_out = t + ".tbl";
    head.dom_out = t + ".dom";
    head.pfam_out = t + ".pfam";
    TableTail tail;
    tail.query_file = models;
    tail.target_file = db.path.string();
    tail.current_dir = fs::current_path().string();

    std::string main = main_output_header(head, o), tbl, dom, pfam, sto;
    for (size_t q = 0; q < hmms.size(); ++q) {
        std::vector<DomHit> hits = parsed[q].hits;
        std::reverse(hits.begin(), hits.end());  // the writers must sort them
        const bool by_E = !o.incT && o.cutoff == ModelCutoff::none;
        for (DomHit& h : hits) h.sortkey = by_E ? -h.lnP : static_cast<double>(h.score);
        const QueryReport r = finish_query(hmms[q], std::move(hits), o, parsed[q].stats);
        main += main_output_query(r, o, std::nullopt, head.ali_out);
        tbl += tblout_query(r, q == 0);
        dom += domtblout_query(r, q == 0);
        pfam += pfamtblout_query(r);
        sto += stockholm_alignment(r, o, "gpu-hmmsearch (warpdp)");
    }
    main += main_output_end();
    tbl += table_tail(tail);
    dom += table_tail(tail);
    pfam += table_tail(tail);

    same(dir, "main output", comparable(main, true), comparable(read_text(t + ".out"), true));
    same(dir, "--tblout", comparable(tbl, false), comparable(read_text(t + ".tbl"), false));
    same(dir, "--domtblout", comparable(dom, false), comparable(read_text(t + ".dom"), false));
    same(dir, "--pfamtblout", comparable(pfam, false), comparable(read_text(t + ".pfam"), false));
    same(dir, "-A", comparable(sto, false), comparable(read_text(t + ".sto"), false));
}

void round_trip(const TempDir& dir, const std::string& models, const Db& db, const std::string& thresholds,
                const std::string& format) {
    round_trip(dir, models, db, thresholds, format, thresholds);
}

}  // namespace

TEST_CASE("hmmsearch's five outputs are rebuilt byte for byte from its hits") {
    if (std::system("command -v hmmsearch > /dev/null 2>&1") != 0) {
        MESSAGE("hmmsearch is not installed: skipping (exit 77)");
        std::exit(77);
    }
    TempDir dir;
    const std::string data = WARPDP_TEST_DATA;
    const std::string three = data + "/../../examples/data/tutorial3.hmm";  // globins4, fn3, Pkinase
    const std::string fn3 = data + "/fn3.hmm";
    // The example targets less the "odd" records (their gap characters stop
    // hmmsearch's -A), and HMMER's tutorial sequences: 7LESS_DROME has many
    // fn3 domains, globins45 many globins.
    const Db examples = make_db(dir, "examples.fa",
                                "gzip -dc " + data + "/../../examples/data/targets.fa.gz | awk '/^>/{keep = $0 !~ /^>odd/} keep'");
    // 7LESS_DROME is a UniProt record: its ID and SQ lines as FASTA.
    const std::string seven_less = "awk '/^ID/{print \">\" $2 \" sevenless receptor\"} /^SQ/{s = 1; next} /^\\/\\//{s = 0} s{gsub(/ /, \"\"); print}' " +
                                   kHmmerTutorial + "7LESS_DROME";
    const Db tutorial = make_db(dir, "tutorial.fa",
                                "(awk 1 " + kHmmerTutorial + "globins45.fa " + kHmmerTutorial + "HBB_HUMAN; " + seven_less + ")");

    SUBCASE("defaults, three models") { round_trip(dir, three, examples, "", ""); }
    SUBCASE("--acc") { round_trip(dir, three, examples, "", "--acc"); }
    SUBCASE("--noali") { round_trip(dir, three, tutorial, "", "--noali"); }
    SUBCASE("--textw 121 (hmmsearch refuses less than 120)") { round_trip(dir, three, tutorial, "", "--textw 121"); }
    SUBCASE("--notextw") { round_trip(dir, three, examples, "", "--notextw"); }
    SUBCASE("-E and --domE") { round_trip(dir, three, examples, "-E 1e-5 --domE 1e-3", "", "-E 1e-5 --domE 1e-2"); }
    SUBCASE("inclusion thresholds") { round_trip(dir, three, tutorial, "--incE 1e-20 --incdomE 1e-3", "--acc"); }
    SUBCASE("score thresholds (between printed scores: the scores read back carry one decimal)") { round_trip(dir, three, examples, "-T 20.05 --domT 10.05 --incT 30.05 --incdomT 15.05", ""); }
    SUBCASE("--cut_ga, multi-domain target") { round_trip(dir, fn3, tutorial, "--cut_ga", ""); }
    SUBCASE("--domZ, options in the header") {
        round_trip(dir, three, tutorial, "--domZ 5 --nonull2 --nobias --seed 7 --F1 0.05", "--textw 150");
    }
    SUBCASE("nothing reported") { round_trip(dir, fn3, examples, "-E 1e-300", ""); }
}

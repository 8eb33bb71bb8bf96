// Helpers for tests that use Debian's HMMER as an oracle or its example
// models as fixtures: paths of the installed examples, running a command
// and capturing its output, reading hmmsearch's pipeline counts and --tblout
// hits, FASTA text in and out, digitising amino text.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"

namespace warpdp::test {

inline const std::string kHmmerTutorial = "/usr/share/doc/hmmer/examples/tutorial/";
inline const std::string kHmmerSuite = "/usr/share/doc/hmmer/examples/testsuite/";

// Runs `cmd` through the shell; returns its stdout, throws on a non-zero exit.
inline std::string run_command(const std::string& cmd) {
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
    if (!p) throw std::runtime_error("popen failed: " + cmd);
    std::string out;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p.get())) > 0) out.append(buf, n);
    const int rc = pclose(p.release());
    if (rc != 0) throw std::runtime_error("command failed (" + std::to_string(rc) + "): " + cmd);
    return out;
}

// The count on hmmsearch's "Passed <what> filter:" line (what = MSV, bias,
// Vit, Fwd); throws when `out` has no such line.
inline long passed_count(const std::string& out, const std::string& what) {
    const std::string label = "Passed " + what + " filter:";
    const auto at = out.find(label);
    if (at == std::string::npos) throw std::runtime_error("hmmsearch output has no '" + label + "' line");
    std::istringstream in(out.substr(at + label.size()));
    long n = -1;
    in >> n;
    return n;
}

// The target names of the hits in an hmmsearch --tblout file.
inline std::set<std::string> tbl_names(const std::filesystem::path& p) {
    std::set<std::string> names;
    std::ifstream in(p);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        names.insert(line.substr(0, line.find(' ')));
    }
    return names;
}

struct FastaRecord {
    std::string name;
    std::string seq;
};

inline std::vector<FastaRecord> parse_fasta(const std::string& text) {
    std::vector<FastaRecord> recs;
    size_t i = 0;
    while (i < text.size()) {
        size_t e = text.find('\n', i);
        if (e == std::string::npos) e = text.size();
        const std::string line = text.substr(i, e - i);
        i = e + 1;
        if (line.empty()) continue;
        if (line[0] == '>') {
            recs.push_back({line.substr(1, line.find_first_of(" \t") - 1), ""});
        } else if (!recs.empty()) {
            for (char c : line) if (!std::isspace(static_cast<unsigned char>(c))) recs.back().seq += c;
        }
    }
    return recs;
}

inline std::string to_fasta(const std::vector<FastaRecord>& recs) {
    std::string s;
    for (const auto& r : recs) {
        s += ">" + r.name + "\n";
        for (size_t i = 0; i < r.seq.size(); i += 60) s += r.seq.substr(i, 60) + "\n";
    }
    return s;
}

// Amino text to codes; every character must be legal.
inline std::vector<uint8_t> digitize_amino(const std::string& text) {
    std::vector<uint8_t> d;
    for (char c : text) {
        const int8_t code = Alphabet::amino().digitize(static_cast<unsigned char>(c));
        if (code == Alphabet::kIgnored) continue;
        if (code < 0) throw std::runtime_error(std::string("illegal residue ") + c);
        d.push_back(static_cast<uint8_t>(code));
    }
    return d;
}

// A whole file as text (hmmsearch's outputs).
inline std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A model of HMMER's examples for an oracle test: the number of hmmemit
// homologs per kind and the longest random target tests/oracle/make_targets.sh
// writes for it.
struct ExampleModel {
    std::string label, path;
    int n_per_model, maxlen;
};

// The model as plain text in dir/<label>.hmm (the examples are partly gzipped).
inline std::filesystem::path unpack_model(const ExampleModel& c, const std::filesystem::path& dir) {
    const auto plain = dir / (c.label + ".hmm");
    run_command("gzip -dcf " + c.path + " > " + plain.string());
    return plain;
}

// Fresh targets for the model (make_targets.sh with a seed from the test's generator).
inline void make_oracle_targets(const ExampleModel& c, const std::filesystem::path& model, const std::filesystem::path& db,
                                int seed) {
    const std::string script = std::string(WARPDP_TEST_DATA) + "/../oracle/make_targets.sh";
    run_command("bash " + script + " " + std::to_string(seed) + " " + std::to_string(c.n_per_model) + " " +
                std::to_string(c.maxlen) + " " + model.string() + " > " + db.string());
}

}  // namespace warpdp::test

// make_amplicon_reads: writes synthetic 454-like amplicon reads as FASTA, for
// gpu-nw-dist's oracle tests and benchmarks. A few random "species" templates
// (ACGT, homopolymer-rich as 454 runs are) are copied with the errors 454 reads
// carry: homopolymer runs lengthened or shortened by one, substitutions, and
// optionally the ambiguity letters N and R; each read is a prefix of its copy
// with a normally distributed length. Records can be wrapped over several lines
// and written in lower case. The output depends only on the options: the random
// numbers come from std::mt19937_64 with our own uniform/normal transforms (the
// std:: distributions differ between standard libraries).
//   make_amplicon_reads [--n N] [--length MEAN] [--sd SD] [--seed S]
//                       [--species K] [--wrap COL] [--hp RATE] [--subst RATE]
//                       [--ambig] [--lower] > reads.fa
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct Options {
    long n = 100;           // reads
    double length = 380.0;  // mean read length
    double sd = 40.0;       // its standard deviation
    unsigned long long seed = 1;
    int species = 4;        // templates
    long wrap = 60;         // letters per line; 0 = one line per record
    double hp = 0.03;       // per homopolymer run: probability of +-1
    double subst = 0.004;   // per base: substitution probability
    bool ambig = false;     // also write N (~0.5%) and R (~0.3%)
    bool lower = false;     // lower-case letters
};

class Random {
public:
    explicit Random(unsigned long long seed) : rng_(seed) {}
    double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }  // [0, 1)
    long below(long n) { return static_cast<long>(uniform() * static_cast<double>(n)); }
    double normal() {  // Box-Muller, one value per call
        const double u1 = 1.0 - uniform(), u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

private:
    std::mt19937_64 rng_;
};

const char kBases[] = "ACGT";

// A template as homopolymer runs: lengths 1.. with a geometric tail (454 runs).
std::string make_template(Random& r, long length) {
    std::string t;
    char prev = 0;
    while (static_cast<long>(t.size()) < length) {
        char c;
        do c = kBases[r.below(4)]; while (c == prev);
        long run = 1;
        while (run < 8 && r.uniform() < 0.3) ++run;
        t.append(static_cast<size_t>(run), c);
        prev = c;
    }
    t.resize(static_cast<size_t>(length));
    return t;
}

// One noisy copy: each homopolymer run may gain or lose one base; each base may
// be substituted, or (with --ambig) replaced by N or R.
std::string make_copy(Random& r, const std::string& t, const Options& o) {
    std::string s;
    for (size_t i = 0; i < t.size();) {
        size_t j = i;
        while (j < t.size() && t[j] == t[i]) ++j;
        long run = static_cast<long>(j - i);
        if (r.uniform() < o.hp) run += (r.uniform() < 0.5 && run > 1) ? -1 : 1;
        for (long k = 0; k < run; ++k) {
            char c = t[i];
            const double u = r.uniform();
            if (u < o.subst) {
                do c = kBases[r.below(4)]; while (c == t[i]);
            } else if (o.ambig && u < o.subst + 0.005) {
                c = 'N';
            } else if (o.ambig && u < o.subst + 0.008) {
                c = 'R';
            }
            s += c;
        }
        i = j;
    }
    return s;
}

bool parse(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--ambig") o.ambig = true;
        else if (a == "--lower") o.lower = true;
        else if (!has_value) return false;
        else if (a == "--n") o.n = std::atol(argv[++i]);
        else if (a == "--length") o.length = std::atof(argv[++i]);
        else if (a == "--sd") o.sd = std::atof(argv[++i]);
        else if (a == "--seed") o.seed = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--species") o.species = std::atoi(argv[++i]);
        else if (a == "--wrap") o.wrap = std::atol(argv[++i]);
        else if (a == "--hp") o.hp = std::atof(argv[++i]);
        else if (a == "--subst") o.subst = std::atof(argv[++i]);
        else return false;
    }
    return o.n >= 0 && o.length >= 1 && o.sd >= 0 && o.species >= 1 && o.wrap >= 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr,
                     "usage: make_amplicon_reads [--n N] [--length MEAN] [--sd SD] [--seed S] [--species K]\n"
                     "                           [--wrap COL] [--hp RATE] [--subst RATE] [--ambig] [--lower]\n");
        return 1;
    }
    Random r(o.seed);
    const long template_length = std::lround(o.length + 4.0 * o.sd) + 8;
    std::vector<std::string> templates;
    for (int k = 0; k < o.species; ++k) templates.push_back(make_template(r, template_length));
    std::string out;
    for (long i = 0; i < o.n; ++i) {
        const int sp = static_cast<int>(r.below(o.species));
        std::string s = make_copy(r, templates[static_cast<size_t>(sp)], o);
        const long want = std::max(1L, std::lround(o.length + o.sd * r.normal()));
        s.resize(std::min(s.size(), static_cast<size_t>(want)));
        if (o.lower)
            for (char& c : s) c = static_cast<char>(c - 'A' + 'a');
        out = ">r" + std::to_string(i) + " species=" + std::to_string(sp) + "\n";
        const size_t w = o.wrap > 0 ? static_cast<size_t>(o.wrap) : s.size();
        for (size_t p = 0; p < s.size(); p += w) out += s.substr(p, w) + "\n";
        std::fputs(out.c_str(), stdout);
    }
    return std::fflush(stdout) == 0 ? 0 : 2;
}

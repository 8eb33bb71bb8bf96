// make_hmmer_db: writes a synthetic protein database for the hmmsearch
// benchmarks and oracle tests: random proteins of Swiss-Prot composition
// whose lengths are lognormal (median 350) with a wide tail of long ones,
// and, for every model named in a FASTA of domain samples (hmmemit's output,
// records "<model>-sample<k>"), a share of targets (--density, default 0.1%
// per model) that carry that model's samples spliced into a random protein:
// one domain, a repeat (2 to --repeat-max samples of the model, short random
// linkers between them) or a fused pair (a sample of this model and one of
// another). --edge adds records at given lengths (the length limits): a
// random one each, and one with domains at its very start and end.
// The output depends only on the options and the samples: the random numbers
// come from std::mt19937_64 with our own transforms (std:: distributions
// differ between standard libraries). Descriptions say what each target
// holds. bench/make-hmmer-db.sh makes the samples with hmmemit.
//   make_hmmer_db --n N [--seed S] [--domains samples.fa] [--density D]
//                 [--multi F] [--repeat-max K] [--median L] [--sigma S]
//                 [--tail F] [--max-length L] [--edge L1,L2,...] > db.fa
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Options {
    long n = 100000;               // records, homologs included (edge records come on top)
    unsigned long long seed = 1;
    std::string domains;           // FASTA of domain samples
    double density = 0.001;        // share of the records per model that carry its domains
    double multi = 0.3;            // share of those with several domains (half repeats, half fused)
    int repeat_max = 4;            // copies in a repeat: 2..repeat_max
    double median = 350.0;         // lognormal length: median and sigma of its log
    double sigma = 0.55;
    double tail = 0.005;           // share of lengths drawn log-uniformly from 1,000 to max_length
    long max_length = 40000;       // no background protein is longer (Swiss-Prot's longest is ~35,000)
    std::vector<long> edge;        // extra records at these lengths
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

// Swiss-Prot's residue frequencies (its release statistics, rounded),
// as cumulative sums for sampling.
const char kResidues[] = "ACDEFGHIKLMNPQRSTVWY";
const double kFreq[20] = {.0825, .0138, .0546, .0672, .0386, .0707, .0227, .0591, .0580, .0965,
                          .0241, .0406, .0474, .0393, .0553, .0665, .0536, .0686, .0110, .0292};

class Residues {
public:
    Residues() {
        double total = 0;
        for (double f : kFreq) total += f;
        double sum = 0;
        for (int k = 0; k < 20; ++k) cumulative_[k] = (sum += kFreq[k]) / total;
    }
    std::string draw(Random& r, long length) const {
        std::string s(static_cast<size_t>(length), 'A');
        for (char& c : s) {
            const double u = r.uniform();
            int k = 0;
            while (k < 19 && u >= cumulative_[k]) ++k;
            c = kResidues[k];
        }
        return s;
    }

private:
    double cumulative_[20];
};

long background_length(Random& r, const Options& o) {
    double L;
    if (r.uniform() < o.tail)
        L = std::exp(std::log(1000.0) + r.uniform() * (std::log(static_cast<double>(o.max_length)) - std::log(1000.0)));
    else
        L = std::exp(std::log(o.median) + o.sigma * r.normal());
    return std::clamp(std::lround(L), 1L, o.max_length);
}

struct Family {
    std::string name;
    std::vector<std::string> samples;
    size_t next = 0;
    const std::string& take() {  // cycles when more are needed than were given
        const std::string& s = samples[next];
        next = (next + 1) % samples.size();
        return s;
    }
};

// The families of a FASTA of samples, in the order of their first record.
std::vector<Family> read_families(const std::string& path, Random& r) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::vector<Family> families;
    std::map<std::string, size_t> index;
    std::string line;
    Family* current = nullptr;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] == '>') {
            std::string name = line.substr(1, line.find_first_of(" \t") - 1);
            if (const size_t cut = name.rfind("-sample"); cut != std::string::npos && cut > 0) name.resize(cut);
            auto [it, fresh] = index.emplace(name, families.size());
            if (fresh) families.push_back(Family{name, {}, 0});
            current = &families[it->second];
            current->samples.emplace_back();
        } else if (current) {
            for (char c : line)
                if (c != ' ' && c != '\t') current->samples.back() += c;
        }
    }
    for (Family& f : families) {  // a fixed, seeded order: hmmemit's kinds of samples mixed
        for (size_t i = f.samples.size(); i > 1; --i) std::swap(f.samples[i - 1], f.samples[r.below(static_cast<long>(i))]);
        f.samples.erase(std::remove(f.samples.begin(), f.samples.end(), std::string()), f.samples.end());
    }
    families.erase(std::remove_if(families.begin(), families.end(), [](const Family& f) { return f.samples.empty(); }),
                   families.end());
    return families;
}

// A random protein with the domains inserted at random points, in order,
// each joined to the next by a linker of 5-40 residues (a repeat's spacing).
std::string splice(Random& r, const Residues& res, const Options& o, const std::vector<const std::string*>& doms) {
    std::string bg = res.draw(r, background_length(r, o));
    std::string block;
    for (size_t i = 0; i < doms.size(); ++i) {
        if (i) block += res.draw(r, 5 + r.below(36));
        block += *doms[i];
    }
    const size_t at = static_cast<size_t>(r.below(static_cast<long>(bg.size()) + 1));
    return bg.substr(0, at) + block + bg.substr(at);
}

void write_record(std::FILE* out, const std::string& name, const std::string& desc, const std::string& s) {
    std::fprintf(out, ">%s %s\n", name.c_str(), desc.c_str());
    for (size_t k = 0; k < s.size(); k += 60) {
        std::fwrite(s.data() + k, 1, std::min<size_t>(60, s.size() - k), out);
        std::fputc('\n', out);
    }
    if (s.empty()) std::fputc('\n', out);
}

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "make_hmmer_db: %s\n"
                 "usage: make_hmmer_db --n N [--seed S] [--domains samples.fa] [--density D] [--multi F]\n"
                 "                     [--repeat-max K] [--median L] [--sigma S] [--tail F] [--max-length L]\n"
                 "                     [--edge L1,L2,...] > db.fa\n",
                 why);
    std::exit(1);
}

double number(const char* opt, const char* text) {
    char* end = nullptr;
    const double v = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(v >= 0)) usage((std::string(opt) + ": expected a number >= 0").c_str());
    return v;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) usage(("missing value after " + a).c_str());
        const char* v = argv[++i];
        if (a == "--n") o.n = std::lround(number("--n", v));
        else if (a == "--seed") o.seed = std::strtoull(v, nullptr, 10);
        else if (a == "--domains") o.domains = v;
        else if (a == "--density") o.density = number("--density", v);
        else if (a == "--multi") o.multi = number("--multi", v);
        else if (a == "--repeat-max") o.repeat_max = std::max(2, static_cast<int>(number("--repeat-max", v)));
        else if (a == "--median") o.median = std::max(1.0, number("--median", v));
        else if (a == "--sigma") o.sigma = number("--sigma", v);
        else if (a == "--tail") o.tail = number("--tail", v);
        else if (a == "--max-length") o.max_length = std::max(1000L, std::lround(number("--max-length", v)));
        else if (a == "--edge") {
            for (const char* p = v; *p;) {
                char* end = nullptr;
                const long L = std::strtol(p, &end, 10);
                if (end == p || L < 1) usage("--edge: expected lengths >= 1, comma separated");
                o.edge.push_back(L);
                p = *end == ',' ? end + 1 : end;
                if (*end != ',' && *end != '\0') usage("--edge: expected lengths >= 1, comma separated");
            }
        } else usage(("unknown option " + a).c_str());
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    Random r(o.seed);
    const Residues res;
    std::vector<Family> families;
    try {
        if (!o.domains.empty()) families = read_families(o.domains, r);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_hmmer_db: %s\n", e.what());
        return 2;
    }
    // Which record carries which family's domains: a seeded shuffle of the
    // record numbers, the first ones going to the families in turn.
    const long per_family = families.empty() ? 0 : std::max(1L, std::lround(o.density * static_cast<double>(o.n)));
    if (per_family * static_cast<long>(families.size()) > o.n) usage("--density too high for --n and the families");
    std::vector<long> order(static_cast<size_t>(o.n));
    for (long i = 0; i < o.n; ++i) order[static_cast<size_t>(i)] = i;
    for (long i = 0; i < per_family * static_cast<long>(families.size()); ++i)
        std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(i + r.below(o.n - i))]);
    std::vector<int> family_of(static_cast<size_t>(o.n), -1);
    for (long i = 0; i < per_family * static_cast<long>(families.size()); ++i)
        family_of[static_cast<size_t>(order[static_cast<size_t>(i)])] = static_cast<int>(i % static_cast<long>(families.size()));
    std::vector<long>().swap(order);

    for (long i = 0; i < o.n; ++i) {
        const std::string name = "seq" + std::to_string(i + 1);
        const int f = family_of[static_cast<size_t>(i)];
        if (f < 0) {
            write_record(stdout, name, "random", res.draw(r, background_length(r, o)));
            continue;
        }
        Family& fam = families[static_cast<size_t>(f)];
        std::vector<const std::string*> doms;
        std::string desc;
        const double u = r.uniform();
        if (u < o.multi / 2) {
            const long copies = 2 + r.below(o.repeat_max - 1);
            for (long k = 0; k < copies; ++k) doms.push_back(&fam.take());
            desc = fam.name + " repeat x" + std::to_string(copies);
        } else if (u < o.multi && families.size() > 1) {
            long g = r.below(static_cast<long>(families.size()) - 1);
            if (g >= f) ++g;
            Family& other = families[static_cast<size_t>(g)];
            const bool first = r.uniform() < 0.5;
            doms = {&(first ? fam : other).take(), &(first ? other : fam).take()};
            desc = (first ? fam.name + "+" + other.name : other.name + "+" + fam.name) + " fused";
        } else {
            doms.push_back(&fam.take());
            desc = fam.name + " domain";
        }
        write_record(stdout, name, desc, splice(r, res, o, doms));
    }
    // Records at given lengths: random, and (with samples) domains flush
    // with both ends and random residues between them.
    size_t turn = 0;
    for (long L : o.edge) {
        write_record(stdout, "edge_rnd_L" + std::to_string(L), "random", res.draw(r, L));
        if (families.empty()) continue;
        Family& a = families[turn++ % families.size()];
        Family& b = families[turn++ % families.size()];
        const std::string& da = a.take();
        const std::string& db = b.take();
        if (static_cast<long>(da.size() + db.size()) > L) continue;
        const std::string s = da + res.draw(r, L - static_cast<long>(da.size() + db.size())) + db;
        write_record(stdout, "edge_dom_L" + std::to_string(L), a.name + "..." + b.name + " at the ends", s);
    }
    return std::fflush(stdout) == 0 ? 0 : 3;
}

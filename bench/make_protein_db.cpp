// make_protein_db: writes a synthetic protein FASTA for the benchmarks:
// N random sequences with lognormal lengths (median ~350, Swiss-Prot residue
// composition), with the records of an optional FASTA file (e.g. hmmemit
// homologs) interleaved evenly, so the filters see realistic survivors.
// The homologs are shuffled first: hmmemit writes each model's homologs
// together, and in that order the members of one family would sit in one
// stretch of the database (the last models' all in its last part), unlike in
// a real database, where a family's members are spread over the whole file.
// "grouped" keeps the input order (a worst case for a pipeline that searches
// survivors while the filters run).
// --swissprot-lengths draws lengths as wide as Swiss-Prot's instead: a
// lognormal of median 273 and sigma 0.63, which gives Swiss-Prot's mean
// (about 333) and 99th percentile (about 1,180); a million records reach
// about 6,000 (the longest of Swiss-Prot, titin's 35,213, is the cap).
//   make_protein_db [--swissprot-lengths] N SEED [homologs.fa [grouped]] > db.fa
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    const bool swissprot = argc > 1 && std::string(argv[1]) == "--swissprot-lengths";
    if (swissprot) {
        --argc;
        ++argv;
    }
    if (argc < 3) {
        std::fprintf(stderr, "usage: make_protein_db [--swissprot-lengths] N SEED [homologs.fa [grouped]] > db.fa\n");
        return 1;
    }
    const long n = std::atol(argv[1]);
    std::mt19937_64 rng(std::strtoull(argv[2], nullptr, 10));
    std::vector<std::string> homologs;
    if (argc > 3) {
        std::ifstream in(argv[3]);
        if (!in) {
            std::fprintf(stderr, "make_protein_db: cannot open %s\n", argv[3]);
            return 2;
        }
        std::string line;
        while (std::getline(in, line)) {
            if (!line.empty() && line[0] == '>') homologs.emplace_back();
            if (!homologs.empty()) homologs.back() += line + "\n";
        }
    }
    if (argc <= 4 || std::string(argv[4]) != "grouped") {
        // A generator of its own: the random sequences stay those of SEED.
        std::mt19937_64 order(std::strtoull(argv[2], nullptr, 10) ^ 0x5eed5eedULL);
        std::shuffle(homologs.begin(), homologs.end(), order);
    }
    static const char aa[] = "ACDEFGHIKLMNPQRSTVWY";
    const double freq[20] = {.0787945, .0151600, .0535222, .0668298, .0397062, .0695071, .0229198,
                             .0590092, .0594422, .0963728, .0237718, .0414386, .0482904, .0395639,
                             .0540978, .0683364, .0540687, .0673417, .0114135, .0304133};
    std::discrete_distribution<int> residue(freq, freq + 20);
    std::lognormal_distribution<double> length(swissprot ? std::log(273.0) : std::log(350.0), swissprot ? 0.63 : 0.55);
    const long longest = swissprot ? 35213 : 40000;
    const long every = homologs.empty() ? 0 : std::max(1L, n / static_cast<long>(homologs.size()));
    size_t next_homolog = 0;
    std::string seq;
    for (long i = 0; i < n; ++i) {
        if (every && i % every == 0 && next_homolog < homologs.size())
            std::fputs(homologs[next_homolog++].c_str(), stdout);
        const long L = std::max(1L, std::min(longest, std::lround(length(rng))));
        seq.clear();
        for (long j = 0; j < L; ++j) {
            seq += aa[residue(rng)];
            if ((j + 1) % 60 == 0 || j + 1 == L) seq += '\n';
        }
        std::printf(">rnd%ld\n", i);
        std::fputs(seq.c_str(), stdout);
    }
    while (next_homolog < homologs.size()) std::fputs(homologs[next_homolog++].c_str(), stdout);
    return 0;
}

// Easel's fast generator and its FChoose, checked draw for draw against an
// Easel build: Debian's hmmemit seeds the same generator as hmmsearch's
// pipeline (esl_randomness_CreateFast with --seed) and, without -p, samples
// each sequence from the core model with one FChoose per state and one per
// residue. Replaying that walk with EaselRandom must give its sequences.
#include <doctest/doctest.h>

#include <cstdlib>
#include <span>
#include <string>

#include "core/base/easel_random.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "hmmer_test_support.hpp"

using namespace warpdp;
using namespace warpdp::test;

namespace {

// A core-model walk from B to E (HMMER's p7_CoreEmit), residues as letters.
std::string core_emit(EaselRandom& r, const Hmm& h, const std::string& letters) {
    enum { B, M, I, D, E } st = B;
    int k = 0;
    std::string seq;
    auto row = [&](const std::vector<float>& v, int node) {
        return std::span<const float>(v).subspan(static_cast<size_t>(node) * static_cast<size_t>(h.K), static_cast<size_t>(h.K));
    };
    while (st != E) {
        const auto& t = h.t[static_cast<size_t>(k)];
        if (st == B || st == M) {
            const int c = easel_fchoose(r, std::span<const float>(&t[kTMM], 3));
            st = c == 0 ? M : c == 1 ? I : D;
        } else if (st == I) {
            st = easel_fchoose(r, std::span<const float>(&t[kTIM], 2)) == 0 ? M : I;
        } else {
            st = easel_fchoose(r, std::span<const float>(&t[kTDM], 2)) == 0 ? M : D;
        }
        if (st == M || st == D) ++k;
        if (k == h.M + 1) {
            REQUIRE(st == M);
            st = E;
        }
        if (st == M) seq += letters[static_cast<size_t>(easel_fchoose(r, row(h.mat, k)))];
        if (st == I) seq += letters[static_cast<size_t>(easel_fchoose(r, row(h.ins, k)))];
    }
    return seq;
}

}  // namespace

TEST_CASE("hmmemit's sequences are replayed exactly by EaselRandom's fast kind and easel_fchoose") {
    if (std::system("command -v hmmemit > /dev/null 2>&1") != 0) {
        MESSAGE("hmmemit not on the PATH: skipped");
        return;
    }
    struct Model { std::string file, letters; };
    for (const Model& m : {Model{"fn3.hmm", "ACDEFGHIKLMNPQRSTVWY"}, Model{"3box-dna.hmm", "ACGT"}}) {
        const std::string path = std::string(WARPDP_TEST_DATA) + "/" + m.file;
        const Hmm h = read_all_hmms(path).at(0);
        for (uint32_t seed : {1u, 7u, 42u, 123456u}) {
            const auto recs = parse_fasta(run_command("hmmemit -N 25 --seed " + std::to_string(seed) + " " + path));
            REQUIRE(recs.size() == 25);
            EaselRandom r(EaselRandom::Kind::fast, seed);
            for (const auto& rec : recs) CHECK_MESSAGE(core_emit(r, h, m.letters) == rec.seq, m.file << " seed " << seed);
        }
    }
}

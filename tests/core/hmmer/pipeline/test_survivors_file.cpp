// The survivors' FASTA and its spreading into hmmsearch blocks: the records
// are those of the plain file in the same order, and Easel's block reader
// (1,000 records, or fewer once 1 MiB of residues is read) sees exactly one
// run per block, runs of about equal work.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/pipeline/survivors_file.hpp"
#include "test_support.hpp"

using namespace warpdp;

namespace {

// Which records Easel's sqascii_ReadBlock puts in each block: it reads while
// the block has fewer than 1,000 records and fewer than 1 MiB residues.
std::vector<size_t> easel_block_sizes(const std::vector<uint64_t>& lengths) {
    std::vector<size_t> sizes;
    for (size_t i = 0; i < lengths.size();) {
        size_t k = 0;
        uint64_t res = 0;
        while (i < lengths.size() && k < kHmmsearchBlockRecords && res < kHmmsearchBlockResidues) {
            res += lengths[i++];
            ++k;
        }
        sizes.push_back(k);
    }
    return sizes;
}

struct Survivors {
    std::vector<uint64_t> residues;
    std::vector<double> work;
};

Survivors random_survivors(size_t n, uint64_t max_len) {
    auto& g = test::rng();
    Survivors s;
    for (size_t i = 0; i < n; ++i) {
        s.residues.push_back(1 + g() % max_len);
        // Mostly light, a few heavy ones (homologs), some clustered.
        const bool heavy = g() % 20 == 0 || (i > n / 3 && i < n / 3 + n / 50);
        s.work.push_back(static_cast<double>(s.residues.back()) * (heavy ? 10 : 1));
    }
    return s;
}

// The record lengths of the spread layout (fillers have length 0), and which
// run each record belongs to (fillers: the run they top up).
std::vector<uint64_t> spread_layout(const Survivors& s, const std::vector<size_t>& starts,
                                    std::vector<size_t>& run_of) {
    std::vector<uint64_t> lengths;
    run_of.clear();
    for (size_t r = 0; r < starts.size(); ++r) {
        const size_t a = starts[r], b = r + 1 < starts.size() ? starts[r + 1] : s.residues.size();
        uint64_t res = 0;
        for (size_t i = a; i < b; ++i) {
            lengths.push_back(s.residues[i]);
            run_of.push_back(r);
            res += s.residues[i];
        }
        if (b == s.residues.size()) break;
        for (size_t k = spread_fillers(b - a, res); k > 0; --k) {
            lengths.push_back(0);
            run_of.push_back(r);
        }
    }
    return lengths;
}

}  // namespace

TEST_CASE("spread_runs: every block hmmsearch reads is exactly one run, and the runs share the work") {
    for (int trial = 0; trial < 200; ++trial) {
        auto& g = test::rng();
        const size_t n = g() % 6000;
        const uint64_t max_len = trial % 4 == 0 ? 40000 : 900;  // long ones hit the 1 MiB limit
        const size_t runs = 1 + g() % 300;
        const Survivors s = random_survivors(n, max_len);
        const auto starts = spread_runs(s.residues, s.work, runs);
        CAPTURE(n);
        CAPTURE(runs);
        if (n == 0) {
            CHECK(starts.empty());
            continue;
        }
        REQUIRE(starts.front() == 0);
        CHECK(std::is_sorted(starts.begin(), starts.end()));
        CHECK(std::adjacent_find(starts.begin(), starts.end()) == starts.end());
        CHECK(starts.back() < n);

        std::vector<size_t> run_of;
        const auto lengths = spread_layout(s, starts, run_of);
        const auto blocks = easel_block_sizes(lengths);
        REQUIRE(blocks.size() == starts.size());
        for (size_t b = 0, at = 0; b < blocks.size(); at += blocks[b], ++b) {
            CHECK(run_of[at] == b);
            CHECK(run_of[at + blocks[b] - 1] == b);
        }

        double total = 0, biggest = 0;
        for (double w : s.work) {
            total += w;
            biggest = std::max(biggest, w);
        }
        if (n < runs * kHmmsearchBlockRecords) {
            // A run holds at most one equal share of the work plus one survivor.
            for (size_t r = 0; r < starts.size(); ++r) {
                const size_t b = r + 1 < starts.size() ? starts[r + 1] : n;
                double w = 0;
                for (size_t i = starts[r]; i < b; ++i) w += s.work[i];
                CHECK(w <= total / static_cast<double>(runs) + biggest + 1e-6 * total);
            }
            CHECK(starts.size() <= runs + n * max_len / kHmmsearchBlockResidues + 1);
        } else {
            // Enough survivors for hmmsearch's own blocks: nothing to top up.
            for (size_t r = 0; r + 1 < starts.size(); ++r) {
                uint64_t res = 0;
                for (size_t i = starts[r]; i < starts[r + 1]; ++i) res += s.residues[i];
                CHECK(spread_fillers(starts[r + 1] - starts[r], res) == 0);
            }
        }
    }
}

TEST_CASE("spread_runs: no work known spreads by count; one run is the whole file") {
    const std::vector<uint64_t> res(100, 10);
    const std::vector<double> none(100, 0.0);
    const auto starts = spread_runs(res, none, 10);
    REQUIRE(starts.size() == 10);
    for (size_t r = 0; r < 10; ++r) CHECK(starts[r] == 10 * r);
    CHECK(spread_runs(res, none, 1) == std::vector<size_t>{0});
    CHECK(spread_runs(res, none, 0) == std::vector<size_t>{0});
}

TEST_CASE("SurvivorsFile: the spread file is the plain file with empty records between runs") {
    test::TempDir dir;
    auto& g = test::rng();
    const auto& abc = Alphabet::amino();
    SeqBatch b;
    const size_t n = 500 + g() % 1500;
    for (size_t i = 0; i < n; ++i) {
        const size_t len = g() % 3 == 0 ? g() % 5 : g() % 700;  // empty ones too
        for (size_t k = 0; k < len; ++k) b.residues.push_back(static_cast<uint8_t>(g() % (abc.K() + 1)));
        b.close_record("t" + std::to_string(i), i % 2 ? "desc " + std::to_string(i) : "");
    }
    const auto plain = dir.path() / "plain.fa", spread = dir.path() / "spread.fa";
    {
        OutputFile plain_out(plain.string()), spread_out(spread.string());
        SurvivorsFile p(plain_out, SurvivorsLayout{}), s(spread_out, SurvivorsLayout{64, false});
        for (size_t t = 0; t < n; ++t) {
            if (g() % 2) continue;
            const std::vector<SurvivorsFile::ModelWork> w{{static_cast<uint32_t>(g() % 3), 1.0 + g() % 1000}};
            p.add(b, t, w);
            s.add(b, t, w);
        }
        p.finish(n);
        s.finish(n);
        plain_out.commit();
        spread_out.commit();
    }
    std::ifstream pin(plain), sin(spread);
    std::stringstream plain_text, kept;
    plain_text << pin.rdbuf();
    const std::string filler = std::string(">") + kSpreadFillerName;
    size_t fillers = 0;
    for (std::string line; std::getline(sin, line);) {
        if (line == filler) {
            ++fillers;
            continue;
        }
        kept << line << '\n';
    }
    CHECK(kept.str() == plain_text.str());
    CHECK(fillers > 0);
    // Residues as hmmsearch writes them: gaps as '.', 60 a line.
    std::string rec;
    format_fasta_record(b, 0, rec);
    CHECK(rec.front() == '>');
    CHECK(rec.find('-') == std::string::npos);
}

TEST_CASE("SurvivorsFile: no survivors make an empty file, spread or not") {
    test::TempDir dir;
    for (size_t runs : {0, 16}) {
        const auto path = dir.path() / ("empty" + std::to_string(runs) + ".fa");
        OutputFile out(path.string());
        SurvivorsFile s(out, SurvivorsLayout{runs, false});
        s.finish(0);
        out.commit();
        CHECK(std::filesystem::exists(path));
        CHECK(std::filesystem::file_size(path) == 0);
    }
}

TEST_CASE("ModelSurvivorStreams: each model's survivors in order, every chunk's runs whole blocks, "
          "an empty record when a model has none") {
    test::TempDir dir;
    auto& g = test::rng();
    const auto& abc = Alphabet::amino();
    const size_t models = 3;
    std::vector<std::string> want(models);
    {
        ModelSurvivorStreams streams(dir.path().string(), models, SurvivorsLayout{5, false});
        for (int chunk = 0; chunk < 4; ++chunk) {
            SeqBatch b;
            const size_t n = 1 + g() % 300;
            for (size_t i = 0; i < n; ++i) {
                const size_t len = 1 + g() % 500;
                for (size_t k = 0; k < len; ++k) b.residues.push_back(static_cast<uint8_t>(g() % abc.K()));
                b.close_record("c" + std::to_string(chunk) + "t" + std::to_string(i), "");
            }
            for (size_t m = 0; m + 1 < models; ++m) {  // the last model never gets a survivor
                std::vector<uint32_t> targets;
                std::vector<double> work;
                for (uint32_t t = 0; t < n; ++t)
                    if (g() % 3 == 0) {
                        targets.push_back(t);
                        work.push_back(1.0 + g() % 100);
                        std::string rec;
                        format_fasta_record(b, t, rec);
                        want[m] += rec;
                    }
                streams.add(m, b, targets, work);
            }
        }
        streams.commit(0);
    }
    const std::string filler = std::string(">") + kSpreadFillerName;
    for (size_t m = 0; m < models; ++m) {
        std::ifstream in(dir.path() / (std::to_string(m + 1) + ".fa"));
        std::string kept, line;
        size_t records = 0, fillers = 0;
        while (std::getline(in, line)) {
            if (line[0] == '>') ++records;
            if (line == filler) {
                ++fillers;
                continue;
            }
            kept += line + "\n";
        }
        CAPTURE(m);
        CHECK(kept == want[m]);
        if (m + 1 < models) {
            CHECK(records % kHmmsearchBlockRecords == 0);  // every run, the last too, is a whole block
        } else {
            CHECK(records == 1);
            CHECK(fillers == 1);
        }
    }
}

namespace {
// Each record of the file, its name or "" for a place filler, in order.
std::vector<std::string> record_names(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::vector<std::string> names;
    const std::string filler = std::string(">") + kPlaceFillerName;
    for (std::string line; std::getline(in, line);)
        if (line[0] == '>') names.push_back(line == filler ? "" : line.substr(1, line.find(' ') - 1));
    return names;
}
}  // namespace

TEST_CASE("in place: every survivor at its database record, an empty record for every other, up to the end") {
    test::TempDir dir;
    auto& g = test::rng();
    const auto& abc = Alphabet::amino();
    const size_t models = 2;
    uint64_t first = 0;
    std::vector<std::vector<std::string>> want_model(models);  // per database record: the survivor's name or ""
    std::vector<std::string> want_union;
    {
        OutputFile all((dir.path() / "all.fa").string());
        SurvivorsFile file(all, SurvivorsLayout{0, true});
        ModelSurvivorStreams streams(dir.path().string(), models, SurvivorsLayout{0, true});
        for (int chunk = 0; chunk < 5; ++chunk) {
            SeqBatch b;
            b.first_index = first;
            const size_t n = g() % 200;  // a chunk may hold nothing the filters keep
            for (size_t i = 0; i < n; ++i) {
                const size_t len = 1 + g() % 300;
                for (size_t k = 0; k < len; ++k) b.residues.push_back(static_cast<uint8_t>(g() % abc.K()));
                b.close_record("c" + std::to_string(chunk) + "t" + std::to_string(i), "");
            }
            std::vector<std::vector<uint32_t>> targets(models);
            for (uint32_t t = 0; t < n; ++t) {
                bool any = false;
                for (size_t m = 0; m < models; ++m) {
                    const bool kept = m == 0 && g() % 4 == 0;  // the second model keeps nothing
                    if (kept) targets[m].push_back(t);
                    want_model[m].push_back(kept ? b.names[t] : "");
                    any = any || kept;
                }
                if (any) file.add(b, t, std::vector<SurvivorsFile::ModelWork>{{0, 1.0}});
                want_union.push_back(any ? b.names[t] : "");
            }
            for (size_t m = 0; m < models; ++m)
                streams.add(m, b, targets[m], std::vector<double>(targets[m].size(), 1.0));
            first += n;
        }
        // Records after the last chunk's survivors: the database ends later.
        for (size_t m = 0; m < models; ++m) want_model[m].resize(first + 7, "");
        want_union.resize(first + 7, "");
        file.finish(first + 7);
        all.commit();
        streams.commit(first + 7);
    }
    CHECK(record_names(dir.path() / "all.fa") == want_union);
    for (size_t m = 0; m < models; ++m) {
        CAPTURE(m);
        CHECK(record_names(dir.path() / (std::to_string(m + 1) + ".fa")) == want_model[m]);
    }
}

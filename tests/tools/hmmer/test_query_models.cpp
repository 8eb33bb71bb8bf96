// gpu-hmmsearch's query models: read by the HMM reader, each one's text cut
// into a file of its own that hmmsearch reads as the same model.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <zlib.h>

#include "core/base/errors.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "test_support.hpp"
#include "tools/hmmer/query_models.hpp"

using namespace warpdp;

namespace {
std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}
const std::string kFn3 = slurp(std::string(WARPDP_TEST_DATA) + "/fn3.hmm");
const std::string kDna = slurp(std::string(WARPDP_TEST_DATA) + "/3box-dna.hmm");

// fn3 renamed, its GA line dropped when `ga` is false.
std::string renamed(const std::string& name, bool ga) {
    std::istringstream in(kFn3);
    std::string line, out;
    while (std::getline(in, line)) {
        if (line.rfind("NAME", 0) == 0) line = "NAME  " + name;
        if (!ga && line.rfind("GA ", 0) == 0) continue;
        out += line + "\n";
    }
    return out;
}
}  // namespace

TEST_CASE("each model's text goes to a file of its own, which reads as that model") {
    test::TempDir dir;
    const std::string text = "# a comment before the first model\n\n" + renamed("one", true) + "# between\n" +
                             renamed("two", false);
    const auto path = dir.write("m.hmm", text).string();
    const auto models = split_query_models(path, path, dir.path().string(), "GA");
    REQUIRE(models.size() == 2);
    CHECK(models[0].name == "one");
    CHECK(models[1].name == "two");
    CHECK(models[0].length == 86);
    CHECK(models[0].has_cutoff);
    CHECK_FALSE(models[1].has_cutoff);
    CHECK(models[0].file == dir.path().string() + "/model.1.hmm");
    // The lines after a model's "//" stay with it; those before the first model go nowhere.
    CHECK(slurp(models[0].file) == renamed("one", true) + "# between\n");
    CHECK(slurp(models[1].file) == renamed("two", false));
    for (const auto& m : models) {
        const auto one = read_all_hmms(m.file);
        REQUIRE(one.size() == 1);
        CHECK(one[0].name == m.name);
    }
    CHECK(split_query_models(path, path, dir.path().string(), "")[1].has_cutoff);
}

TEST_CASE("gzip model files are cut as their text; the alphabet comes from the reader") {
    test::TempDir dir;
    const auto path = (dir.path() / "d.hmm.gz").string();
    gzFile gz = gzopen(path.c_str(), "wb");
    gzwrite(gz, kDna.data(), static_cast<unsigned>(kDna.size()));
    gzclose(gz);
    CHECK(is_hmmer3_text(path));
    const auto models = split_query_models(path, path, dir.path().string(), "");
    REQUIRE(models.size() == 1);
    CHECK(models[0].alph == AlphabetKind::dna);
    CHECK(slurp(models[0].file) == kDna);
}

TEST_CASE("only HMMER3 text is taken; a malformed file is refused naming the user's file and line") {
    test::TempDir dir;
    CHECK_FALSE(is_hmmer3_text(dir.write("e.hmm", "").string()));
    CHECK_FALSE(is_hmmer3_text(dir.write("h2.hmm", "HMMER2.0  [2.3.2]\n").string()));
    CHECK_FALSE(is_hmmer3_text((dir.path() / "missing.hmm").string()));
    const auto bad = dir.write("bad.hmm", kFn3 + "garbage\n").string();
    CHECK(is_hmmer3_text(bad));
    CHECK_THROWS_WITH_AS(split_query_models(bad, "-", dir.path().string(), ""),
                         "-:286: expected the 'HMMER3/<a..f>' line of the next model, found 'garbage'", InputError);
}

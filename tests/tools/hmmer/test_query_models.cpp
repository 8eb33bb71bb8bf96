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
using warpdp::test::slurp;
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
    CHECK(model_file_kind(path, path) == ModelFileKind::hmmer3_text);
    const auto models = split_query_models(path, path, dir.path().string(), "");
    REQUIRE(models.size() == 1);
    CHECK(models[0].alph == AlphabetKind::dna);
    CHECK(slurp(models[0].file) == kDna);
}

TEST_CASE("HMMER3 text is the filters'; HMMER2 text and pressed binaries are hmmsearch's") {
    test::TempDir dir;
    auto kind = [&](const std::string& name, const std::string& text) {
        const auto path = dir.write(name, text).string();
        return model_file_kind(path, path);
    };
    CHECK(kind("f.hmm", kFn3) == ModelFileKind::hmmer3_text);
    CHECK(kind("h2.hmm", "HMMER2.0  [2.3.2]\nNAME  x\n") == ModelFileKind::other_hmmer);
    CHECK(kind("blank.hmm", "\n\n" + kFn3) == ModelFileKind::other_hmmer);  // (hmmsearch's reader to judge)
    CHECK(kind("p.h3m", std::string("\xba\xed\xed\xe8\x8a\xdf\x01\x00", 8)) == ModelFileKind::other_hmmer);
    CHECK(kind("swapped.h3m", std::string("\xe8\xed\xed\xba\x00\x01", 6)) == ModelFileKind::other_hmmer);
    // hmmsearch opens PATH.h3m in place of a missing PATH.
    dir.write("pressed.hmm.h3m", std::string("\xba\xed\xed\xe8", 4));
    const auto pressed = (dir.path() / "pressed.hmm").string();
    CHECK(model_file_kind(pressed, pressed) == ModelFileKind::other_hmmer);
}

TEST_CASE("a file that is no model file at all is refused naming the user's file") {
    test::TempDir dir;
    auto refusal = [&](const std::string& path) {
        try {
            model_file_kind(path, "shown.hmm");
        } catch (const InputError& e) {
            CHECK(e.file() == "shown.hmm");
            return e.message();
        }
        return std::string("(taken)");
    };
    CHECK(refusal((dir.path() / "missing.hmm").string()) == "cannot open: No such file or directory");
    CHECK(refusal(dir.write("e.hmm", "").string()) == "empty model file");
    CHECK(refusal(dir.write("b.hmm", "\n \n").string()) == "empty model file (blank lines only)");
    CHECK(refusal(dir.write("g.hmm", ">seq\nACDEF\n").string()) ==
          "not a HMMER model file: it starts with '>seq', not a format line such as 'HMMER3/f'");
    CHECK(refusal(dir.write("bin.hmm", std::string("\x01\x02 z", 4)).string()).find("'?" "?'") != std::string::npos);
}

TEST_CASE("a malformed HMMER3 file is refused naming the user's file and line") {
    test::TempDir dir;
    const auto bad = dir.write("bad.hmm", kFn3 + "garbage\n").string();
    CHECK(model_file_kind(bad, bad) == ModelFileKind::hmmer3_text);
    CHECK_THROWS_WITH_AS(split_query_models(bad, "-", dir.path().string(), ""),
                         "-:286: expected the 'HMMER3/<a..f>' line of the next model, found 'garbage'", InputError);
}

TEST_CASE("read whole, the models give the QueryModels the cut gives, without files") {
    test::TempDir dir;
    const auto path = dir.write("m.hmm", renamed("one", true) + renamed("two", false)).string();
    for (const std::string cutoff : {"GA", "TC", ""}) {
        CAPTURE(cutoff);
        std::vector<QueryModel> whole;
        const auto hmms = read_query_hmms(path, path, cutoff, whole);
        const auto cut = split_query_models(path, path, dir.path().string(), cutoff);
        REQUIRE(hmms.size() == 2);
        REQUIRE(whole.size() == cut.size());
        for (size_t i = 0; i < cut.size(); ++i) {
            CHECK(whole[i].name == cut[i].name);
            CHECK(whole[i].length == cut[i].length);
            CHECK(whole[i].alph == cut[i].alph);
            CHECK(whole[i].has_cutoff == cut[i].has_cutoff);
            CHECK(whole[i].file.empty());
        }
    }
    const auto bad = dir.write("bad.hmm", kFn3 + "garbage\n").string();
    std::vector<QueryModel> none;
    CHECK_THROWS_WITH_AS(read_query_hmms(bad, "-", "", none),
                         "-:286: expected the 'HMMER3/<a..f>' line of the next model, found 'garbage'", InputError);
}

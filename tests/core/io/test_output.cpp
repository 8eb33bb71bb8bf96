// Writers: TSV and JSONL formatting and escaping; atomic -o output.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <sys/stat.h>
#include <zlib.h>

#include "core/base/errors.hpp"
#include "core/io/async_output.hpp"
#include "core/io/output_file.hpp"
#include "core/io/record_writer.hpp"
#include "test_support.hpp"

using namespace warpdp;

namespace {
using warpdp::test::slurp;
size_t files_in(const std::filesystem::path& dir) {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
    return n;
}
const std::vector<std::string> kCols{"name", "count", "score", "pvalue", "extra"};
const std::vector<Value> kRow{std::string("sp|P1|a\tb\\c\nd\0e", 15), int64_t{-42}, fixed(1.5, 6), general(1.25e-7, 6), Absent{}};
}  // namespace

TEST_CASE("TSV: '#' header, tab-separated, escaped text, '-' for absent values") {
    test::TempDir dir;
    const auto path = dir.path() / "out.tsv";
    {
        OutputFile out(path.string());
        RecordWriter w(out, Format::tsv, kCols);
        w.write_header();
        w.write(kRow);
        out.commit();
    }
    CHECK(slurp(path) == "#name\tcount\tscore\tpvalue\textra\n"
                         "sp|P1|a\\tb\\\\c\\nd\\0e\t-42\t1.500000\t1.25e-07\t-\n");
}

TEST_CASE("JSONL: one object per row, same names, numbers as numbers, null for absent") {
    test::TempDir dir;
    const auto path = dir.path() / "out.jsonl";
    {
        OutputFile out(path.string());
        RecordWriter w(out, Format::jsonl, kCols);
        w.write_header();  // no header in JSONL
        w.write(kRow);
        w.write({std::string("\"q\""), int64_t{0}, fixed(INFINITY, 6), general(0.0, 6), std::string("\xff")});
        out.commit();
    }
    CHECK(slurp(path) ==
          "{\"name\":\"sp|P1|a\\tb\\\\c\\nd\\u0000e\",\"count\":-42,\"score\":1.500000,\"pvalue\":1.25e-07,\"extra\":null}\n"
          "{\"name\":\"\\\"q\\\"\",\"count\":0,\"score\":\"inf\",\"pvalue\":0,\"extra\":\"\xef\xbf\xbd\"}\n");
}

TEST_CASE("a row with the wrong number of values is a bug, not output") {
    test::TempDir dir;
    OutputFile out((dir.path() / "x").string());
    RecordWriter w(out, Format::tsv, kCols);
    CHECK_THROWS_AS(w.write({int64_t{1}}), InternalError);
}

TEST_CASE("atomic -o: nothing appears before commit, nothing is left after a failure") {
    test::TempDir dir;
    const auto path = dir.path() / "result.tsv";
    std::ofstream(path) << "old content\n";
    try {
        OutputFile out(path.string());
        out.write("half-written\n");
        CHECK(slurp(path) == "old content\n");  // target untouched while writing
        throw std::runtime_error("tool failed");
    } catch (const std::runtime_error&) {
    }
    CHECK(slurp(path) == "old content\n");
    CHECK(files_in(dir.path()) == 1);  // the temporary is gone

    {
        OutputFile out(path.string());
        out.write("new\n");
        out.commit();
    }
    CHECK(slurp(path) == "new\n");
    CHECK(files_in(dir.path()) == 1);
}

TEST_CASE("an output file in a missing directory is a resource error") {
    test::TempDir dir;
    CHECK_THROWS_AS(OutputFile((dir.path() / "no/such/dir/out.tsv").string()), ResourceError);
}

TEST_CASE("atomic -o through a symlink: the link stays, the file it names is replaced, old content kept on failure") {
    test::TempDir dir;
    std::filesystem::create_directory(dir.path() / "real");
    const auto file = dir.path() / "real" / "precious.tsv";
    const auto link = dir.path() / "link.tsv";
    std::ofstream(file) << "precious\n";
    std::filesystem::create_symlink("real/precious.tsv", link);  // relative: from the link's folder
    {
        OutputFile out(link.string());
        CHECK(out.target() == (dir.path() / "real/precious.tsv").string());
        out.write("half-written\n");
        CHECK(slurp(file) == "precious\n");
    }  // abandoned: the tool failed
    CHECK(slurp(file) == "precious\n");
    CHECK(std::filesystem::is_symlink(link));
    CHECK(files_in(dir.path() / "real") == 1);
    {
        OutputFile out(link.string());
        out.write("new\n");
        out.commit();
    }
    CHECK(std::filesystem::is_symlink(link));
    CHECK(slurp(file) == "new\n");
    CHECK(files_in(dir.path() / "real") == 1);

    // A link to a file not yet there makes that file; a loop is refused.
    std::filesystem::create_symlink("fresh.tsv", dir.path() / "dangling");
    {
        OutputFile out((dir.path() / "dangling").string());
        out.write("x\n");
        out.commit();
    }
    CHECK(slurp(dir.path() / "fresh.tsv") == "x\n");
    std::filesystem::create_symlink("loop2", dir.path() / "loop1");
    std::filesystem::create_symlink("loop1", dir.path() / "loop2");
    CHECK_THROWS_AS(OutputFile((dir.path() / "loop1").string()), ResourceError);
}

TEST_CASE("atomic -o: a new file's mode follows the umask; a replaced file keeps its mode") {
    test::TempDir dir;
    const auto mode_of = [](const std::filesystem::path& p) {
        struct stat st {};
        REQUIRE(::stat(p.c_str(), &st) == 0);
        return static_cast<unsigned>(st.st_mode & 07777);
    };
    const mode_t old_mask = ::umask(077);
    CHECK(new_file_mode() == 0600u);
    {
        OutputFile out((dir.path() / "private.tsv").string());
        out.commit();
    }
    ::umask(022);
    CHECK(new_file_mode() == 0644u);
    {
        OutputFile out((dir.path() / "shared.tsv").string());
        out.commit();
    }
    ::umask(old_mask);
    CHECK(mode_of(dir.path() / "private.tsv") == 0600u);
    CHECK(mode_of(dir.path() / "shared.tsv") == 0644u);

    ::chmod((dir.path() / "shared.tsv").c_str(), 0640);
    {
        OutputFile out((dir.path() / "shared.tsv").string());
        out.write("again\n");
        out.commit();
    }
    CHECK(mode_of(dir.path() / "shared.tsv") == 0640u);
}

TEST_CASE("atomic -o: a directory, or a file we may not write, is refused when the output is made") {
    test::TempDir dir;
    CHECK_THROWS_AS(OutputFile(dir.path().string()), ResourceError);
    if (::geteuid() != 0) {  // (root may write anything)
        const auto ro = dir.path() / "read-only.tsv";
        std::ofstream(ro) << "keep\n";
        ::chmod(ro.c_str(), 0444);
        CHECK_THROWS_AS(OutputFile(ro.string()), ResourceError);
        CHECK(slurp(ro) == "keep\n");
    }
    CHECK(files_in(dir.path()) <= 1);
}

TEST_CASE("an output named *.gz is written compressed (BGZF: gzip that zcat reads), atomically as any other") {
    test::TempDir dir;
    const auto path = dir.path() / "rows.tsv.gz";
    std::string want;
    {
        OutputFile out(path.string());
        for (int i = 0; i < 100000; ++i) {
            const std::string line = "row\t" + std::to_string(i) + "\n";
            out.write(line);
            want += line;
        }
        CHECK(!std::filesystem::exists(path));
        out.commit();
    }
    const std::string packed = slurp(path);
    REQUIRE(packed.size() > 2);
    CHECK(static_cast<unsigned char>(packed[0]) == 0x1f);
    CHECK(static_cast<unsigned char>(packed[1]) == 0x8b);
    CHECK(packed.size() < want.size() / 4);
    gzFile in = gzopen(path.c_str(), "rb");
    REQUIRE(in != nullptr);
    std::string got(want.size() + 16, '\0');
    const int n = gzread(in, got.data(), static_cast<unsigned>(got.size()));
    gzclose(in);
    got.resize(static_cast<size_t>(std::max(n, 0)));
    CHECK(got == want);
    CHECK(files_in(dir.path()) == 1);
}

TEST_CASE("number formatting: fixed decimals, %g digits, non-finite words") {
    CHECK(fixed(-0.5, 6).text == "-0.500000");
    CHECK(fixed(INFINITY, 6).text == "inf");
    CHECK(fixed(-INFINITY, 2).text == "-inf");
    CHECK(fixed(NAN, 6).text == "nan");
    CHECK(general(0.02, 6).text == "0.02");
    CHECK(general(1.0, 6).text == "1");
    CHECK(general(3.14159265e-300, 6).text == "3.14159e-300");
}

TEST_CASE("AsyncOutputFile: the texts in order, whole at commit; a FIFO is written as its reader reads") {
    test::TempDir dir;
    const auto path = dir.path() / "async.txt";
    std::string want;
    {
        AsyncOutputFile out(path.string());
        for (int i = 0; i < 2000; ++i) {
            const std::string line = "line " + std::to_string(i) + "\n";
            out.write(line);
            want += line;
        }
        out.commit();
    }
    CHECK(slurp(path) == want);
    CHECK(files_in(dir.path()) == 1);

    // A reader that starts late and reads slowly holds nothing up but itself.
    const auto fifo = dir.path() / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    AsyncOutputFile out(fifo.string());
    for (int i = 0; i < 1000; ++i) out.write(std::string(1000, static_cast<char>('a' + i % 26)) + "\n");
    std::string got;
    std::thread reader([&] { got = slurp(fifo); });
    out.commit();
    reader.join();
    CHECK(got.size() == 1000u * 1001u);
    CHECK(got.substr(0, 3) == "aaa");
    CHECK(got.substr(got.size() - 4) == "lll\n");
}

TEST_CASE("AsyncOutputFile: a FIFO's reader gets each text before commit") {
    test::TempDir dir;
    const auto fifo = dir.path() / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    AsyncOutputFile out(fifo.string());
    // The reader reads one short line and says so; only then is the file
    // committed. A text held in a buffer until commit would never come, so
    // the wait has a deadline: then commit to release the reader, and fail.
    std::promise<std::string> first_line;
    auto got_first = first_line.get_future();
    std::string rest;
    std::thread reader([&] {
        std::ifstream in(fifo);
        std::string line;
        std::getline(in, line);
        first_line.set_value(line);
        rest.assign(std::istreambuf_iterator<char>(in), {});
    });
    out.write("first\n");
    const bool before_commit = got_first.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
    out.write("second\n");
    out.commit();
    reader.join();
    CHECK(before_commit);
    CHECK(got_first.get() == "first");
    CHECK(rest == "second\n");
}

TEST_CASE("AsyncOutputFile: a failure on its thread comes back from commit") {
    test::TempDir dir;
    AsyncOutputFile out((dir.path() / "missing" / "x.txt").string());
    out.write("text\n");
    CHECK_THROWS_AS(out.commit(), ResourceError);
}

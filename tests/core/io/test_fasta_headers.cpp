// FASTA records counted by their '>' lines, plain or gzip.
#include <doctest/doctest.h>

#include <string>

#include <zlib.h>

#include "core/io/fasta_headers.hpp"
#include "test_support.hpp"

using namespace warpdp;

TEST_CASE("lines that start with '>' are counted, across reads, plain and gzip") {
    test::TempDir dir;
    std::string text;
    for (int i = 0; i < 100000; ++i) text += ">r" + std::to_string(i) + " d>x\nACDE>F\n\n";
    const auto plain = dir.write("db.fa", text).string();
    int calls = 0;
    CHECK(count_fasta_headers(plain, [&] { ++calls; }) == 100000);
    CHECK(calls > 1);
    CHECK(starts_with_fasta_header(plain));
    const auto gz = (dir.path() / "db.fa.gz").string();
    gzFile f = gzopen(gz.c_str(), "wb");
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
    CHECK(count_fasta_headers(gz) == 100000);
    CHECK(starts_with_fasta_header(gz));
    CHECK(count_fasta_headers(dir.write("one.fa", ">a").string()) == 1);
    CHECK(count_fasta_headers(dir.write("none.fa", "").string()) == 0);
    CHECK_FALSE(starts_with_fasta_header(dir.write("blank.fa", "\n>a\n").string()));
    CHECK_FALSE(starts_with_fasta_header((dir.path() / "missing.fa").string()));
}

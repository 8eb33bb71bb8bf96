// Input whose first byte is gzip's first magic byte, 0x1f, but is not gzip:
// "truncated gzip file" only when that byte is the whole input; otherwise
// "not FASTA or FASTQ", however the bytes arrive. fuzz_seq_reader found the
// message depending on where a read ended (a small read block, or the end
// of a gzip member).
#include <doctest/doctest.h>

#include <string>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/io/seq_reader.hpp"
#include "hmmer_test_support.hpp"
#include "test_support.hpp"

using namespace warpdp;

namespace {

std::string error_of(const std::string& path, size_t read_block_bytes) {
    SeqReaderOptions opt;
    opt.read_block_bytes = read_block_bytes;
    opt.prefetch = false;
    try {
        SeqReader reader(path, Alphabet::amino(), opt);
        SeqBatch batch;
        while (reader.next(batch)) {
        }
    } catch (const InputError& e) {
        return e.message();
    }
    return "no error";
}

}  // namespace

TEST_CASE("0x1f then more bytes is not FASTA, read in blocks of any size") {
    test::TempDir dir;
    const auto path = dir.write("x.fa", std::string("\x1f" ">s\nACDE\n")).string();
    for (size_t block : {size_t{1}, size_t{2}, size_t{4096}}) {
        CAPTURE(block);
        CHECK(error_of(path, block).starts_with("not FASTA or FASTQ"));
    }
}

TEST_CASE("0x1f then more bytes, from two gzip members split after it, is not FASTA") {
    test::TempDir dir;
    const auto path = (dir.path() / "x.fa.gz").string();
    test::run_command("printf '\\037' | gzip -c > " + path + " && printf '>s\\nACDE\\n' | gzip -c >> " + path);
    CHECK(error_of(path, 4096).starts_with("not FASTA or FASTQ"));
}

TEST_CASE("0x1f alone is a gzip file cut after its first byte") {
    test::TempDir dir;
    const auto path = dir.write("cut.gz", std::string("\x1f")).string();
    CHECK(error_of(path, 1) == "truncated gzip file (it ends within its first bytes)");
    CHECK(error_of(path, 4096) == "truncated gzip file (it ends within its first bytes)");
}

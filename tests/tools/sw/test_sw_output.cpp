// gpu-sw's outputs (docs/sw.md §8): BLAST's tabular number texts at every
// boundary of its rules, and an m8 row and TSV/JSONL rows field by field.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/io/output_file.hpp"
#include "test_support.hpp"
#include "tools/sw/sw_output.hpp"

using namespace warpdp;

TEST_CASE("BLAST's E-value texts") {
    CHECK(blast_evalue_text(0) == "0.0");
    CHECK(blast_evalue_text(9.9e-181) == "0.0");
    CHECK(blast_evalue_text(1e-180) == "1.00e-180");
    CHECK(blast_evalue_text(4.567e-50) == "4.57e-50");
    CHECK(blast_evalue_text(0.00089) == "8.90e-04");
    CHECK(blast_evalue_text(0.0009) == "0.001");
    CHECK(blast_evalue_text(0.0534) == "0.053");
    CHECK(blast_evalue_text(0.1) == "0.10");
    CHECK(blast_evalue_text(0.996) == "1.00");
    CHECK(blast_evalue_text(1.02) == "1.0");
    CHECK(blast_evalue_text(9.96) == "10.0");
    CHECK(blast_evalue_text(10) == "10");
    CHECK(blast_evalue_text(123.6) == "124");
}

TEST_CASE("BLAST's bit score and identity texts") {
    CHECK(blast_bits_text(9.46) == " 9.5");  // "%4.1f": a leading space below 10
    CHECK(blast_bits_text(25.7153) == "25.7");
    CHECK(blast_bits_text(99.9) == "99.9");
    CHECK(blast_bits_text(99.95) == " 99");  // above 99.9: the whole part, "%3ld"
    CHECK(blast_bits_text(100.97) == "100");
    CHECK(blast_bits_text(99998.9) == "99998");
    CHECK(blast_bits_text(99999.9) == "1.000e+05");
    CHECK(blast_bits_text(100000.5) == "1.000e+05");
    CHECK(blast_pident_text(15, 20) == "75.000");
    CHECK(blast_pident_text(2, 3) == "66.667");
    CHECK(blast_pident_text(0, 0) == "0.000");
}

namespace {

std::string written(SwFormat f, bool with_alignment, bool cigar, const SwHitRow& row) {
    warpdp::test::TempDir dir;
    const std::string path = (dir.path() / "out").string();
    {
        OutputFile out(path);
        SwWriter w(out, f, with_alignment, cigar);
        w.header();
        w.write(row);
        out.commit();
    }
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("rows field by field") {
    const std::string q = "q1", t = "sp|P1|X";
    SwAlignment a{58, 0, 15, 0, 20, "MMMMMMDDDDDMMMMMMMMM"};
    SwHitRow row;
    row.query = &q;
    row.target = &t;
    row.qlen = 15;
    row.tlen = 20;
    row.score = 58;
    row.bits = 25.7142;
    row.evalue = 1.1196e-05;
    row.alignment = &a;
    row.counts = {20, 15, 0, 5, 1};
    // m8: qseqid sseqid pident length mismatch gapopen qstart qend sstart send evalue bitscore
    CHECK(written(SwFormat::m8, true, false, row) == "q1\tsp|P1|X\t75.000\t20\t0\t1\t1\t15\t1\t20\t1.12e-05\t25.7\n");
    CHECK(written(SwFormat::m8, true, true, row) == "q1\tsp|P1|X\t75.000\t20\t0\t1\t1\t15\t1\t20\t1.12e-05\t25.7\t6M5D9M\n");
    CHECK(written(SwFormat::tsv, true, false, row) ==
          "#query\ttarget\tscore\tbits\tevalue\tqstart\tqend\ttstart\ttend\tqlen\ttlen\tpident\tlength\tmismatch\tgapopen\n"
          "q1\tsp|P1|X\t58\t25.7\t1.12e-05\t1\t15\t1\t20\t15\t20\t75.000\t20\t0\t1\n");
    CHECK(written(SwFormat::jsonl, true, true, row) ==
          "{\"query\":\"q1\",\"target\":\"sp|P1|X\",\"score\":58,\"bits\":25.7,\"evalue\":1.12e-05,\"qstart\":1,"
          "\"qend\":15,\"tstart\":1,\"tend\":20,\"qlen\":15,\"tlen\":20,\"pident\":75.000,\"length\":20,"
          "\"mismatch\":0,\"gapopen\":1,\"cigar\":\"6M5D9M\"}\n");
    row.alignment = nullptr;
    row.bits.reset();
    row.evalue.reset();
    CHECK(written(SwFormat::tsv, false, false, row) ==
          "#query\ttarget\tscore\tbits\tevalue\tqlen\ttlen\nq1\tsp|P1|X\t58\t-\t-\t15\t20\n");
    CHECK(written(SwFormat::jsonl, false, false, row) ==
          "{\"query\":\"q1\",\"target\":\"sp|P1|X\",\"score\":58,\"bits\":null,\"evalue\":null,\"qlen\":15,\"tlen\":20}\n");
}

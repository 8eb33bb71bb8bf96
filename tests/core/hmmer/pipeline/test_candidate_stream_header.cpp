// A TSV candidate stream whose header names a column twice (found by
// fuzz_candidate_stream: the rows' fields were counted against the distinct
// names, and a repeated name's later index pointed past them) is refused at
// the header.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "core/base/errors.hpp"
#include "core/hmmer/pipeline/candidate_stream.hpp"
#include "test_support.hpp"

using namespace warpdp;

TEST_CASE("a header that names a column twice is refused at its line") {
    test::TempDir dir;
    const auto path = (dir.path() / "c.tsv").string();
    std::ofstream(path, std::ios::binary)
        << "#model\tmodel_acc\ttarget\ttarget_len\tmsv_bits\tmsv_pvalue\tbias_bits\tbias_pvalue\tpassed\tmodel\n"
        << "m\t-\tt\t7\t1.5\t0.001\t1.5\t0.001\t1\tm\n";
    CHECK_THROWS_WITH_AS((void)read_candidates(path), doctest::Contains(":1: header names the column \"model\" twice"),
                         InputError);
}

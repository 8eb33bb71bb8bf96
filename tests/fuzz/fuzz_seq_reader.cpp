// libFuzzer harness for SeqReader: arbitrary bytes (plain, or gzip/bgzip
// when the fuzzer finds the magic) must either read as records or raise an
// InputError; anything else (a crash, a sanitizer report, another
// exception type, a broken batch invariant, a difference between one
// parsing thread and several, or between the bytes and their gzip or bgzip)
// is a finding. The bytes reach htslib through a memfd, so the real
// open/read path is exercised without touching the disk.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/io/seq_reader.hpp"
#include "fuzz_support.hpp"

using warpdp::fuzz::require;

namespace {

// Everything a read yields: the batches' contents, then the error's text.
std::string read_all(const std::string& path, const warpdp::Alphabet& abc, const warpdp::SeqReaderOptions& opt) {
    std::string seen;
    try {
        warpdp::SeqReader reader(path, abc, opt);
        warpdp::SeqBatch batch;
        uint64_t expected_first = 0;
        while (reader.next(batch)) {
            require(!batch.empty() && batch.size() <= opt.batch_records);
            require(batch.first_index == expected_first);
            require(batch.offsets.size() == batch.size() + 1 &&
                    batch.offsets.back() == batch.residues.size());
            seen += "batch\n";
            for (size_t i = 0; i < batch.size(); ++i) {
                require(!batch.names[i].empty() && batch.length(i) <= opt.max_record_residues);
                for (uint8_t x : batch.seq(i)) require(x < abc.Kp());
                seen += batch.names[i] + " " + batch.descs[i] + " ";
                seen.append(batch.seq(i).begin(), batch.seq(i).end());
                seen += "\n";
            }
            require(batch.size() == 1 || batch.total_residues() <= opt.batch_residues);
            expected_first += batch.size();
        }
        require(reader.records_read() == expected_first);
    } catch (const warpdp::InputError& e) {
        // Bad input, reported properly: the expected outcome for most inputs.
        seen += std::string("error: ") + e.what();
    }
    return seen;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = warpdp::fuzz::input_path(data, size);

    // Vary the knobs from the input's size so one corpus covers them all.
    warpdp::SeqReaderOptions opt;
    opt.batch_residues = size % 11;
    opt.batch_records = 1 + size % 4;
    opt.prefetch = (size & 1) != 0;
    opt.max_record_residues = 64 + size % 200;
    opt.read_block_bytes = size % 5 == 0 ? 4096 : 1 + size % 37;
    const auto& abc = (size % 3 == 0) ? warpdp::Alphabet::dna() : warpdp::Alphabet::amino();
    const std::string one = read_all(path, abc, opt);
    // FASTA cut into blocks for several threads reads exactly the same.
    opt.parse_threads = 3;
    opt.parse_block_bytes = 1 + size % 23;
    warpdp::fuzz::require_equal(one, read_all(path, abc, opt));
    // The same text compressed, as gzip (ISA-L) or bgzip (htslib), in two
    // members cut somewhere inside: read exactly the same, errors included.
    if (const auto packed = warpdp::fuzz::compressed_input_path(data, size))
        warpdp::fuzz::require_equal(one, read_all(*packed, abc, opt));
    return 0;
}

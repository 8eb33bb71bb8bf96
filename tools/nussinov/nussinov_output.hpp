// gpu-nussinov's application pieces (docs/nussinov.md §8-§9): the --weights
// syntax and the three output formats (TSV, JSON Lines, RNAfold's layout).
#pragma once

#include <optional>
#include <string>

#include "core/io/output_file.hpp"
#include "core/io/record_writer.hpp"
#include "core/nussinov/nussinov_engine.hpp"

namespace warpdp {

// Largest pair weight --weights takes (docs/nussinov.md §5).
inline constexpr int kNussinovMaxWeight = 10000;

// Sets p's weights from "GC=3,AU=2,GU=1": any of the three types (either
// order of the letters, any case, T for U) in any order, each once, whole
// numbers 0..kNussinovMaxWeight; types not named keep their weight. Throws
// UsageError naming the item at fault.
void parse_nussinov_weights(const std::string& spec, NussinovParams& p);

enum class NussinovFormat { tsv, jsonl, vienna };
NussinovFormat parse_nussinov_format(const std::string& name);  // throws UsageError

// Writes one result a sequence, in the order given.
class NussinovWriter {
public:
    NussinovWriter(OutputFile& out, NussinovFormat format, bool with_structure);
    void header();  // TSV's header line; nothing for the others
    // `letters`: the sequence as RNAfold prints it (vienna only).
    void write(const std::string& name, const std::string& desc, const std::string& letters, uint64_t length,
               const NussinovFold& f);

private:
    OutputFile& out_;
    NussinovFormat format_;
    bool with_structure_;
    std::optional<RecordWriter> records_;
    std::string line_;
};

}  // namespace warpdp

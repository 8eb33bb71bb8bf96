// gpu-nussinov's stage of the run skeleton: a batch of records from the
// reader, as engine codes, folded by the run's engines; the counts the
// summary reports. Letters other than A, C, G, U and T never pair
// (docs/nussinov.md §2).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/io/seq_batch.hpp"
#include "core/nussinov/nussinov_engine.hpp"
#include "tools/common/tool_engines.hpp"
#include "tools/nussinov/nussinov_output.hpp"

namespace warpdp {

class Progress;
class SeqReader;

using NussinovEngines = ToolEngines<std::unique_ptr<NussinovEngine>>;

// One folded record, ready for NussinovWriter.
struct NussinovResult {
    std::string name, desc;
    std::string letters;  // as RNAfold prints them (vienna only), else empty
    uint64_t length = 0;
    NussinovFold fold;
};

struct NussinovTally {
    uint64_t sequences = 0, bases = 0;
    uint64_t other = 0;         // letters that never pair
    std::string first_other;    // the first record holding one
    double steps = 0;           // recurrence steps, (n^3 - n) / 6 a sequence
    double engine_seconds = 0;
    std::string engine;         // the engines' names, "a+b" when the CPU took some work
};

// The CPU engine's memory plan for one record (docs/nussinov.md §7): throws
// ResourceError naming the record when its table exceeds `budget` bytes.
void check_nussinov_cpu_memory(const std::string& name, uint64_t n, const NussinovParams& p, uint64_t budget);

// The run summary: --stats's JSON and the line on stderr.
nlohmann::ordered_json nussinov_stats(const NussinovTally& t, const NussinovParams& p, bool with_structure,
                                      const std::string& device, double seconds);
std::string nussinov_summary_line(const NussinovTally& t, const std::string& device, double seconds);

// The warning for letters that never pair, naming `path` and the first
// record holding one; empty when there are none.
std::string nussinov_other_letters_warning(const NussinovTally& t, const std::string& path);

class NussinovStage {
public:
    // abc: the reader's alphabet (for RNAfold's letters); vienna: keep them.
    NussinovStage(const NussinovParams& params, bool with_structure, bool vienna, uint64_t cpu_budget);
    // Folds every record of `batch` (its residues become engine codes);
    // results in batch order.
    std::vector<NussinovResult> run(SeqBatch& batch, const class Alphabet& abc, NussinovEngines& engines);
    const NussinovTally& tally() const noexcept { return tally_; }

private:
    NussinovParams params_;
    bool with_structure_, vienna_;
    uint64_t cpu_budget_;
    NussinovTally tally_;
};

// gpu-nussinov's pass over its input: every batch of `reader` folded and
// written, the header before the first result; each batch flushed to `out`
// (its results are final: a pipe's reader takes them now). strict: the
// reader's errors say that --strict limits the letters.
void run_nussinov_stage(SeqReader& reader, const Alphabet& abc, bool strict, NussinovStage& stage,
                        NussinovEngines& engines, NussinovWriter& writer, OutputFile& out, Progress& progress);

}  // namespace warpdp

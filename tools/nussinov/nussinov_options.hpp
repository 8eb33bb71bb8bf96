// gpu-nussinov's options as its main reads them, their checks, and the
// folding parameters and output format they give.
#pragma once

#include <cstdint>
#include <string>

#include "core/nussinov/nussinov_engine.hpp"
#include "tools/common/cli.hpp"
#include "tools/nussinov/nussinov_output.hpp"

namespace warpdp {

struct NussinovArgs {
    std::string in, weights, stats;
    int64_t min_loop = 1;
    bool no_structure = false, no_gu = false, strict = false;
};

// gpu-nussinov's own options, positional argument and formats, bound to `a`.
void add_nussinov_options(Cli& cli, NussinovArgs& a);

struct NussinovSettings {
    NussinovParams params;
    NussinovFormat format = NussinovFormat::tsv;
};

// What `cli` parsed into `a`, checked (UsageError: a value out of range,
// options that do not go together, an output on the input).
NussinovSettings check_nussinov_options(const Cli& cli, const NussinovArgs& a);

}  // namespace warpdp

// gpu-hmmsearch's set-up (tools/gpu_hmmsearch.cpp): its help text, its
// settings from the environment, and the check that no output replaces an
// input or another output.
#pragma once

#include <string>

#include "tools/hmmer/filtered_hmmsearch.hpp"
#include "tools/hmmer/hmmsearch_options.hpp"

namespace warpdp {

// gpu-hmmsearch --help.
extern const char* const kGpuHmmsearchHelp;

// The hmmsearch program: $HMMSEARCH, else "hmmsearch" (looked up in PATH).
std::string hmmsearch_program();

// The settings the environment gives (WARPDP_DEVICE, WARPDP_THREADS,
// HMMSEARCH, ...: kGpuHmmsearchHelp lists them), the filters' path (the
// gpu-viterbi beside this executable) left empty. Throws UsageError for a
// malformed value.
FilteredHmmsearchSettings hmmsearch_settings_from_environment();

// The directory of this executable: gpu-viterbi is built beside it.
std::string own_directory();

// An output on an input or on another output would replace it (plain
// hmmsearch truncates the very database it then reads): refused before any
// work. Existing devices and FIFOs are written in place, and may be shared.
void refuse_clobbering(const HmmsearchCommand& c);

}  // namespace warpdp

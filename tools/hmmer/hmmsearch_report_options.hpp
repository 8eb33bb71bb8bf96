// hmmsearch's reporting and output options (ReportOptions) from its command
// line, as read_hmmsearch_command() made it plain.
#pragma once

#include <string>
#include <vector>

#include "core/hmmer/report/report_options.hpp"

namespace warpdp {

// `options`: HmmsearchCommand::options (plain spellings, each value after its
// option). Options that change no report are skipped, and so is one spelled
// as its default (Easel's rule). Throws UsageError for a number hmmsearch
// refuses (last_stage_refusal() leaves those to hmmsearch).
ReportOptions read_report_options(const std::vector<std::string>& options);

}  // namespace warpdp

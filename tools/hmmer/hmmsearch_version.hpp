// Which hmmsearch gpu-hmmsearch runs, for its --version: the program's path
// as the PATH resolves it, and the HMMER version its help banner names.
#pragma once

#include <string>

namespace warpdp {

// "hmmsearch: /usr/bin/hmmsearch (HMMER 3.3.2 (Nov 2020))", or a line saying
// it was not found or did not answer.
std::string hmmsearch_version_line(const std::string& program);

}  // namespace warpdp

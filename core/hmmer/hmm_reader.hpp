// Reader for HMMER3 ASCII save files (formats 3/a..3/f), plain or gzipped,
// from a path or "-" for stdin. One file may hold many models; they must all
// share the first model's format version. Malformed input throws InputError
// naming the file and line, and so does a model whose local entry scores
// would not be numbers (see check_entry_scores).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/hmmer/hmm.hpp"

namespace warpdp {

// The largest LENG accepted; larger values are treated as a corrupt file.
inline constexpr int kMaxHmmLength = 100000;

class HmmReader {
public:
    explicit HmmReader(const std::string& path);  // "-" reads stdin
    ~HmmReader();
    HmmReader(const HmmReader&) = delete;
    HmmReader& operator=(const HmmReader&) = delete;

    // Reads the next model into `out`; false at the end of the file. A file
    // with no model at all throws ("no HMM found").
    [[nodiscard]] bool next(Hmm& out);

    const std::string& path() const noexcept { return path_; }

private:
    class LineSource;
    void check_entry_scores(const Hmm& h, const std::vector<uint64_t>& transition_line) const;
    std::string path_;
    std::unique_ptr<LineSource> src_;
    char version_ = 0;  // fixed by the first model
    AlphabetKind alph_ = AlphabetKind::amino;
    uint64_t models_read_ = 0;
};

// Every model of a file, in order.
std::vector<Hmm> read_all_hmms(const std::string& path);

}  // namespace warpdp

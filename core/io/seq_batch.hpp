// A batch of digitised sequences laid out for one host-to-device copy:
// residues of all records back to back, with offsets[i]..offsets[i+1]
// delimiting record i. Names and descriptions stay on the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace warpdp {

// Puts `name` and `desc` at position n of names / descs, which may hold
// strings from an earlier use: those are swapped out into name / desc (so
// their buffers are written over next time instead of freed and allocated
// again), or the vectors grow by one. Readers fill batches this way.
inline void put_strings(std::vector<std::string>& names, std::vector<std::string>& descs, size_t n,
                        std::string& name, std::string& desc) {
    if (n < names.size()) {
        names[n].swap(name);
        descs[n].swap(desc);
    } else {
        names.push_back(std::move(name));
        descs.push_back(std::move(desc));
    }
}

struct SeqBatch {
    uint64_t first_index = 0;          // 0-based record number of record 0 in its file
    std::vector<std::string> names;
    std::vector<std::string> descs;
    std::vector<uint8_t> residues;     // digitised codes (see Alphabet)
    std::vector<uint64_t> offsets{0};  // size() + 1 entries

    size_t size() const noexcept { return names.size(); }
    bool empty() const noexcept { return names.empty(); }
    uint64_t length(size_t i) const noexcept { return offsets[i + 1] - offsets[i]; }
    std::span<const uint8_t> seq(size_t i) const noexcept {
        return {residues.data() + offsets[i], static_cast<size_t>(length(i))};
    }
    uint64_t total_residues() const noexcept { return offsets.back(); }

    void clear() {
        names.clear();
        descs.clear();
        residues.clear();
        offsets.assign(1, 0);
    }
    // Appends one record whose residues were already pushed onto `residues`.
    void close_record(std::string name, std::string desc) {
        names.push_back(std::move(name));
        descs.push_back(std::move(desc));
        offsets.push_back(residues.size());
    }
};

// A batch of the residues of records `which` of `b`, in that order, without
// names: what an engine scores when only some records of a chunk take a stage.
inline SeqBatch gather(const SeqBatch& b, std::span<const uint32_t> which) {
    SeqBatch g;
    uint64_t total = 0;
    for (uint32_t t : which) total += b.length(t);
    g.residues.reserve(total);
    g.names.reserve(which.size());
    g.descs.reserve(which.size());
    g.offsets.reserve(which.size() + 1);
    for (uint32_t t : which) {
        const auto s = b.seq(t);
        g.residues.insert(g.residues.end(), s.begin(), s.end());
        g.close_record({}, {});
    }
    return g;
}

}  // namespace warpdp

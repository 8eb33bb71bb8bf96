// Row ranges of the strict lower triangle: --rows A:B and --tile K/N (tiles
// balanced by cell count).
#include "core/nw/nw_rows.hpp"

#include <charconv>

#include "core/base/errors.hpp"

namespace warpdp {

namespace {
bool parse_u64(const std::string& s, uint64_t& v) {
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, v);
    return ec == std::errc() && p == end;
}
}  // namespace

RowRange parse_rows_syntax(const std::string& spec) {
    const size_t colon = spec.find(':');
    if (colon == std::string::npos)
        throw UsageError("--rows must be A:B (0-based, half-open), not \"" + spec + "\"");
    const std::string a = spec.substr(0, colon), b = spec.substr(colon + 1);
    RowRange r{0, UINT64_MAX};
    if ((!a.empty() && !parse_u64(a, r.begin)) || (!b.empty() && !parse_u64(b, r.end)))
        throw UsageError("--rows must be A:B with whole numbers, not \"" + spec + "\"");
    if (r.begin > r.end) throw UsageError("--rows " + spec + " has A > B");
    return r;
}

RowRange parse_rows(const std::string& spec, uint64_t n) {
    RowRange r = parse_rows_syntax(spec);
    if (r.end == UINT64_MAX) r.end = n;
    if (r.begin > r.end || r.end > n)
        throw UsageError("--rows " + spec + " is outside 0:" + std::to_string(n) + " or has A > B");
    return r;
}

RowRange tile_rows(uint64_t k, uint64_t tiles, const std::vector<uint32_t>& lengths) {
    const uint64_t n = lengths.size();
    // cum[i] = cells of rows [0, i)
    std::vector<unsigned __int128> cum(n + 1, 0);
    unsigned __int128 prefix = 0;  // sum of lengths of rows < i
    for (uint64_t i = 0; i < n; ++i) {
        cum[i + 1] = cum[i] + prefix * lengths[i];
        prefix += lengths[i];
    }
    const unsigned __int128 total = cum[n];
    auto boundary = [&](uint64_t t) -> uint64_t {
        if (t == 0) return 0;
        if (t == tiles) return n;
        uint64_t lo = 0, hi = n;  // smallest r with cum[r] * tiles >= t * total
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo) / 2;
            if (cum[mid] * tiles >= total * t) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    };
    return {boundary(k - 1), boundary(k)};
}

RowRange parse_tile(const std::string& spec, const std::vector<uint32_t>& lengths) {
    const size_t slash = spec.find('/');
    uint64_t k = 0, tiles = 0;
    if (slash == std::string::npos || !parse_u64(spec.substr(0, slash), k) ||
        !parse_u64(spec.substr(slash + 1), tiles))
        throw UsageError("--tile must be K/N (K = 1..N), not \"" + spec + "\"");
    if (tiles == 0 || k == 0 || k > tiles)
        throw UsageError("--tile " + spec + ": K must be between 1 and N");
    return tile_rows(k, tiles, lengths);
}

uint64_t pairs_in(const RowRange& r) {
    // the sum of i over [begin, end); a * (a - 1) is 0 for a == 0 in unsigned arithmetic too
    const uint64_t a = r.begin, b = r.end;
    if (b <= a) return 0;
    return (b * (b - 1) - a * (a - 1)) / 2;
}

uint64_t cells_in(const RowRange& r, const std::vector<uint32_t>& lengths) {
    uint64_t prefix = 0, cells = 0;
    for (uint64_t i = 0; i < r.end; ++i) {
        if (i >= r.begin) cells += prefix * lengths[i];
        prefix += lengths[i];
    }
    return cells;
}

}  // namespace warpdp

// The distance matrix formats of gpu-nw-dist (ndist, tsv, jsonl, phylip,
// binary), one writer per format.
#include "tools/nw/nw_matrix_writer.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

#include "core/base/errors.hpp"
#include "core/io/record_writer.hpp"

namespace warpdp {

NwFormat parse_nw_format(const std::string& name) {
    if (name == "ndist") return NwFormat::ndist;
    if (name == "tsv") return NwFormat::tsv;
    if (name == "jsonl") return NwFormat::jsonl;
    if (name == "phylip") return NwFormat::phylip;
    if (name == "binary") return NwFormat::binary;
    throw UsageError("unknown --format '" + name + "' (ndist, tsv, jsonl, phylip or binary)");
}

bool nw_format_is_sparse_capable(NwFormat f) noexcept { return f == NwFormat::tsv || f == NwFormat::jsonl; }

void append_sci8(std::string& s, double v) {
    if (std::isnan(v)) {
        s += std::signbit(v) ? "-nan" : "nan";
        return;
    }
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 8);
    s.append(buf, r.ptr);
}


void check_nw_writer_options(const NwWriterOptions& opt) {
    if (opt.max_dist && !(*opt.max_dist >= 0)) throw UsageError("--max-dist must be >= 0");
    if (opt.max_dist && !nw_format_is_sparse_capable(opt.format))
        throw UsageError("--max-dist needs --format tsv or jsonl (the other formats are whole matrices)");
}

NwMatrixWriter::NwMatrixWriter(OutputFile& out, const NwReads& reads, NwWriterOptions opt)
    : out_(out), reads_(reads), opt_(std::move(opt)) {
    check_nw_writer_options(opt_);
    if (opt_.format == NwFormat::jsonl)
        for (const auto& id : reads_.ids) json_ids_.push_back(json_string(id));  // once per id, not per pair
}

void NwMatrixWriter::header() {
    const uint64_t n = reads_.size();
    switch (opt_.format) {
        case NwFormat::ndist:
            buf_ += std::to_string(n) + "\n";
            if (opt_.ids)
                for (const auto& id : reads_.ids) buf_ += id + "\n";
            break;
        case NwFormat::phylip: buf_ += std::to_string(n) + "\n"; break;
        case NwFormat::tsv: buf_ += "#id_i\tid_j\tdistance\n"; break;
        case NwFormat::jsonl: break;
        case NwFormat::binary: {
            char h[24] = {'W', 'D', 'P', 'N', 'W', 'D', '1', '\0'};
            const uint32_t version = 1, metric = opt_.metric == NwMetric::ndist ? 0 : 1;
            std::memcpy(h + 8, &version, 4);  // little-endian hosts only (x86-64, aarch64)
            std::memcpy(h + 12, &metric, 4);
            std::memcpy(h + 16, &n, 8);
            buf_.append(h, sizeof h);
            break;
        }
    }
    flush();
}

void NwMatrixWriter::rows(uint64_t first, uint64_t count, std::span<const double> values) {
    size_t k = 0;
    for (uint64_t i = first; i < first + count; ++i) {
        if (opt_.format == NwFormat::phylip) buf_ += escape_tsv(reads_.ids[i]);
        for (uint64_t j = 0; j < i; ++j, ++k) {
            const double d = values[k];
            switch (opt_.format) {
                case NwFormat::ndist:
                    append_sci8(buf_, d);
                    buf_ += '\n';
                    break;
                case NwFormat::phylip:
                    buf_ += ' ';
                    append_sci8(buf_, d);
                    break;
                case NwFormat::binary: buf_.append(reinterpret_cast<const char*>(&d), sizeof d); break;
                case NwFormat::tsv:
                case NwFormat::jsonl:
                    if (opt_.max_dist && !(d <= *opt_.max_dist)) continue;
                    if (opt_.format == NwFormat::tsv) {
                        buf_ += escape_tsv(reads_.ids[i]);
                        buf_ += '\t';
                        buf_ += escape_tsv(reads_.ids[j]);
                        buf_ += '\t';
                        append_sci8(buf_, d);
                        buf_ += '\n';
                    } else {
                        buf_ += "{\"id_i\":";
                        buf_ += json_ids_[i];
                        buf_ += ",\"id_j\":";
                        buf_ += json_ids_[j];
                        buf_ += ",\"distance\":";
                        // JSON has no inf or NaN: such a distance is the string tsv prints
                        if (!std::isfinite(d)) buf_ += '"';
                        append_sci8(buf_, d);
                        if (!std::isfinite(d)) buf_ += '"';
                        buf_ += "}\n";
                    }
                    break;
            }
            ++written_;
            if (buf_.size() > (1u << 22)) flush();
        }
        if (opt_.format == NwFormat::phylip) buf_ += '\n';
    }
    flush();
}

void NwMatrixWriter::flush() {
    out_.write(buf_);
    buf_.clear();
}

}  // namespace warpdp

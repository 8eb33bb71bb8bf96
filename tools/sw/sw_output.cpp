// gpu-sw's three output formats (sw_output.hpp). The m8 numbers follow
// BLAST's tabular formatter rule for rule, so that a row's text is what
// BLAST would print for the same values.
#include "tools/sw/sw_output.hpp"

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "core/base/errors.hpp"

namespace warpdp {

SwFormat parse_sw_format(const std::string& name) {
    if (name == "tsv") return SwFormat::tsv;
    if (name == "jsonl") return SwFormat::jsonl;
    if (name == "m8") return SwFormat::m8;
    throw UsageError("unknown --format '" + name + "' (expected tsv, jsonl, m8)");
}

std::string blast_evalue_text(double e) {
    char b[64];
    if (e < 1.0e-180) std::snprintf(b, sizeof b, "0.0");
    else if (e < 0.0009) std::snprintf(b, sizeof b, "%.2e", e);
    else if (e < 0.1) std::snprintf(b, sizeof b, "%4.3f", e);
    else if (e < 1.0) std::snprintf(b, sizeof b, "%3.2f", e);
    else if (e < 10.0) std::snprintf(b, sizeof b, "%2.1f", e);
    else std::snprintf(b, sizeof b, "%2.0f", e);
    return b;
}

std::string blast_bits_text(double bits) {
    char b[64];
    if (bits > 99999) std::snprintf(b, sizeof b, "%5.3e", bits);
    else if (bits > 99.9) std::snprintf(b, sizeof b, "%3ld", static_cast<long>(bits));
    else std::snprintf(b, sizeof b, "%4.1f", bits);
    return b;
}

namespace {
double percent_identity(uint64_t identities, uint64_t length) {
    return length > 0 ? static_cast<double>(identities) / static_cast<double>(length) * 100 : 0.0;
}
}  // namespace

std::string blast_pident_text(uint64_t identities, uint64_t length) {
    char b[64];
    std::snprintf(b, sizeof b, "%.3f", percent_identity(identities, length));
    return b;
}

SwWriter::SwWriter(OutputFile& out, SwFormat format, bool with_alignment, bool cigar)
    : out_(out), format_(format), with_alignment_(with_alignment), cigar_(cigar) {
    if (format == SwFormat::m8) return;
    std::vector<std::string> cols{"query", "target", "score", "bits", "evalue"};
    if (with_alignment) cols.insert(cols.end(), {"qstart", "qend", "tstart", "tend"});
    cols.insert(cols.end(), {"qlen", "tlen"});
    if (with_alignment) cols.insert(cols.end(), {"pident", "length", "mismatch", "gapopen"});
    if (cigar) cols.push_back("cigar");
    records_.emplace(out, format == SwFormat::tsv ? Format::tsv : Format::jsonl, cols);
}

void SwWriter::header() {
    if (records_) records_->write_header();
}

void SwWriter::write(const SwHitRow& h) {
    const SwAlignment* a = h.alignment;
    if (with_alignment_ && !a) throw InternalError("a hit row without its alignment");
    if (format_ == SwFormat::m8) {
        if (!a || !h.bits || !h.evalue) throw InternalError("m8 needs alignments, bit scores and E-values");
        const auto u = [](uint64_t v) { return std::to_string(v); };
        line_ = *h.query;
        for (const std::string& f :
             {*h.target, blast_pident_text(h.counts.identities, h.counts.length), u(h.counts.length),
              u(h.counts.mismatches), u(h.counts.gap_opens), u(a->qbegin + 1), u(a->qend), u(a->tbegin + 1),
              u(a->tend), blast_evalue_text(*h.evalue), blast_bits_text(*h.bits)}) {
            line_ += '\t';
            line_ += f;
        }
        if (cigar_) {
            line_ += '\t';
            line_ += sw_cigar(a->ops);
        }
        line_ += '\n';
        out_.write(line_);
        return;
    }
    std::vector<Value> row{*h.query, *h.target, h.score};
    row.emplace_back(h.bits ? Value(fixed(*h.bits, 1)) : Value(Absent{}));
    row.emplace_back(h.evalue ? Value(general(*h.evalue, 3)) : Value(Absent{}));
    if (with_alignment_) {
        row.emplace_back(static_cast<int64_t>(a->qbegin + 1));
        row.emplace_back(static_cast<int64_t>(a->qend));
        row.emplace_back(static_cast<int64_t>(a->tbegin + 1));
        row.emplace_back(static_cast<int64_t>(a->tend));
    }
    row.emplace_back(static_cast<int64_t>(h.qlen));
    row.emplace_back(static_cast<int64_t>(h.tlen));
    if (with_alignment_) {
        row.emplace_back(fixed(percent_identity(h.counts.identities, h.counts.length), 3));
        row.emplace_back(static_cast<int64_t>(h.counts.length));
        row.emplace_back(static_cast<int64_t>(h.counts.mismatches));
        row.emplace_back(static_cast<int64_t>(h.counts.gap_opens));
    }
    if (cigar_) row.emplace_back(sw_cigar(a->ops));
    records_->write(row);
}

}  // namespace warpdp

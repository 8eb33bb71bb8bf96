// HMMER3 ASCII save-file parser (docs/hmmer-filters.md §1). ByteSource reads
// plain, gzip and bgzip input alike, as for the sequence readers. The parser is strict
// about structure (node numbers, field counts, the closing "//") because a
// silently misread model would make every downstream filter decision wrong
// without any visible symptom.
#include "core/hmmer/hmm_reader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/base/errors.hpp"
#include "core/hmmer/profile.hpp"
#include "core/io/byte_source.hpp"

namespace warpdp {

// Buffered line reader over a ByteSource; tracks 1-based line numbers.
class HmmReader::LineSource {
public:
    explicit LineSource(const std::string& path) : src_(path) { buf_.resize(1 << 16); }

    // Next physical line without its terminator (and without a trailing CR).
    bool getline(std::string& line, const std::string& path) {
        line.clear();
        for (;;) {
            if (pos_ == end_) {
                if (eof_) {
                    if (line.empty() && !partial_) return false;
                    partial_ = false;
                    ++lineno_;
                    return true;
                }
                const std::ptrdiff_t n = src_.read(buf_.data(), buf_.size());
                if (n < 0) throw InputError(path, lineno_ + 1, src_.failure_reason());
                if (n == 0) {
                    eof_ = true;
                    continue;
                }
                pos_ = 0;
                end_ = static_cast<size_t>(n);
            }
            const char* start = buf_.data() + pos_;
            const void* nl = std::memchr(start, '\n', end_ - pos_);
            if (!nl) {
                line.append(start, end_ - pos_);
                partial_ = true;
                pos_ = end_;
                continue;
            }
            const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - start);
            line.append(start, len);
            pos_ += len + 1;
            partial_ = false;
            ++lineno_;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return true;
        }
    }
    uint64_t lineno() const noexcept { return lineno_; }

private:
    ByteSource src_;
    std::vector<char> buf_;
    size_t pos_ = 0, end_ = 0;
    bool eof_ = false, partial_ = false;
    uint64_t lineno_ = 0;
};

namespace {

// One significant line: its tokens (a token starting with '#' ends the line)
// and where it came from. Tokens are split where Easel's file parser splits
// them, at ' ', '\t' and '\r' only: a vertical tab or form feed is part of
// a token there (atof stops at it, so hmmsearch reads "0\v00529" as 0), and
// splitting at it would read other numbers than hmmsearch does; here such a
// token is refused as not a number.
struct Line {
    std::string raw;
    std::vector<std::string_view> tok;
    uint64_t no = 0;
};

bool is_delimiter(char c) { return c == ' ' || c == '\t' || c == '\r'; }

void tokenize(Line& ln) {
    ln.tok.clear();
    const std::string_view s(ln.raw);
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_delimiter(s[i])) ++i;
        if (i >= s.size() || s[i] == '#') break;
        const size_t j = i;
        while (i < s.size() && !is_delimiter(s[i])) ++i;
        ln.tok.push_back(s.substr(j, i - j));
    }
}

InputError input_error(const std::string& file, uint64_t line, const std::string& msg) {
    return InputError(file, line, msg);
}

// A token as messages show it; control bytes (a token can hold \v or \f)
// written as \xNN so that the terminal shows them.
std::string quoted(std::string_view s) {
    std::string q = "'";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f) {
            q += c;
            continue;
        }
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", u);
        q += hex;
    }
    return q + "'";
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y)); });
}

// Per-node annotation columns after the K match emissions.
int annotation_columns(char v) { return v == 'f' ? 5 : v == 'e' ? 4 : 3; }

// HMMER's consensus of a model built from an alignment (p7_hmm_SetConsensus):
// per node the most probable residue (the first of equals), upper case where
// its probability reaches 0.5 (amino) or 0.9 (DNA, RNA), else lower case.
std::string derived_consensus(const Hmm& h) {
    const Alphabet& abc = Alphabet::of(h.alph);
    const float threshold = h.alph == AlphabetKind::amino ? 0.5f : 0.9f;
    std::string cons(static_cast<size_t>(h.M) + 1, ' ');
    for (int k = 1; k <= h.M; ++k) {
        int best = 0;
        for (int x = 1; x < h.K; ++x)
            if (h.match(k, x) > h.match(k, best)) best = x;
        const auto sym = static_cast<unsigned char>(abc.symbol(best));
        cons[static_cast<size_t>(k)] = static_cast<char>(h.match(k, best) >= threshold ? std::toupper(sym) : std::tolower(sym));
    }
    return cons;
}

}  // namespace

// A model whose local entry scores B->M_k hmmsearch would compute as NaN
// (or +inf) is refused, naming the transition line of the node at fault.
// Only rows whose m->m + m->i exceed 1 (or round to more) can push HMMER's
// match occupancy above 1, and from there below 0 or to infinity; the entry
// scores are log(occ[k] / Z). A model whose occupancy stays finite and
// non-negative is read as it is, even if its rows do not sum to 1: hmmsearch
// scores it with finite numbers, and so must we, bit for bit. Refused
// (docs/hmmer-filters.md §4.1) rather than handled because hmmsearch
// 3.3.2 gives no result to match: it reads such a file, casts the NaN into
// its Viterbi filter's 16-bit profile (undefined in C), and stops the whole
// search ("forward score is NaN") at the first target that reaches its
// Forward filter.
void HmmReader::check_entry_scores(const Hmm& h, const std::vector<uint64_t>& transition_line) const {
    const std::vector<float> occ = match_occupancy(h);
    const int bad = first_bad_entry_score(local_entry_scores(occ));
    if (bad == 0) return;
    const size_t M = occ.size() - 1;
    // The node whose transitions first took the occupancy above 1, and the
    // first occupancy below 0 or not finite that followed.
    size_t j = 0;
    while (j < M && !(occ[j + 1] > 1.0f)) ++j;
    size_t k = j + 1;
    while (k <= M && occ[k] >= 0.0f && std::isfinite(occ[k])) ++k;
    auto num = [](float x) {
        char b[32];
        std::snprintf(b, sizeof b, "%.9g", static_cast<double>(x));
        return std::string(b);
    };
    std::string why;
    if (j == M) {
        // Never above 1: only Z = 0 makes a NaN then, no match state reachable.
        j = 0;
        why = "no match state can be entered (every node's match occupancy is 0)";
    } else {
        why = "the match occupancy rises above 1 after node " + std::to_string(j) +
              " (whose m->m + m->i sum to " + num(h.t[j][kTMM] + h.t[j][kTMI]) + ")";
        if (k <= M) why += " and is " + num(occ[k]) + " at node " + std::to_string(k);
    }
    throw input_error(path_, transition_line[j],
                      why + ", so the local entry score of node " + std::to_string(bad) +
                          " is not a number; hmmsearch cannot search with this model either");
}

HmmReader::HmmReader(const std::string& path) : path_(path), src_(std::make_unique<LineSource>(path)) {}
HmmReader::~HmmReader() = default;

bool HmmReader::next(Hmm& out) {
    Line ln;
    auto fail = [&](const std::string& msg) -> InputError { return input_error(path_, ln.no, msg); };
    // Next non-blank, non-comment line; false at end of input.
    auto get = [&]() {
        while (src_->getline(ln.raw, path_)) {
            ln.no = src_->lineno();
            tokenize(ln);
            if (!ln.tok.empty()) return true;
        }
        ln.no = src_->lineno();
        ln.tok.clear();
        return false;
    };
    auto need = [&](const char* what) {
        if (!get()) throw fail(std::string("truncated model: end of file while expecting ") + what + " (missing '//'?)");
    };
    // Numbers as HMMER reads them (atoi/atof), a leading '+' included, and
    // the leading \v or \f that atoi/atof skip (the only white space a token
    // can hold), but whole: a token with anything after its number is refused.
    const auto unsigned_part = [](std::string_view t) {
        t.remove_prefix(std::min(t.size(), t.find_first_not_of("\v\f")));
        return t.size() > 1 && t[0] == '+' && t[1] != '-' && t[1] != '+' ? t.substr(1) : t;
    };
    auto parse_int = [&](std::string_view t, const char* what) {
        int v = 0;
        const std::string_view u = unsigned_part(t);
        const auto r = std::from_chars(u.data(), u.data() + u.size(), v);
        if (r.ec != std::errc() || r.ptr != u.data() + u.size())
            throw fail(std::string("non-numeric ") + what + " " + quoted(t));
        return v;
    };
    auto parse_real = [&](std::string_view t, const char* what) {
        double v = 0;
        const std::string_view u = unsigned_part(t);
        const auto r = std::from_chars(u.data(), u.data() + u.size(), v);
        if (r.ec != std::errc() || r.ptr != u.data() + u.size() || !std::isfinite(v))
            throw fail(std::string("non-numeric ") + what + " " + quoted(t));
        return v;
    };
    // A -ln(p) field: '*' is p = 0; otherwise p = expf(f32(-atof(token))).
    auto prob = [&](std::string_view t, const char* what) -> float {
        if (t[0] == '*') return 0.0f;
        const double f = parse_real(t, what);
        // hmmsearch reads it and scores NaN or garbage; -0.00000 (p = 1 as
        // written) is not below 0
        if (f < 0) throw fail(std::string(what) + " " + quoted(t) + " is below 0: a -ln(p) field, so p > 1");
        const float neg = static_cast<float>(-f);
        return std::exp(neg);  // float overload: expf, as HMMER does
    };
    // HMMER reads the fields it expects and ignores the rest of the line.
    auto expect_fields = [&](size_t n, const char* what) {
        if (ln.tok.size() < n)
            throw fail(std::string(what) + ": expected " + std::to_string(n) + " fields, found " + std::to_string(ln.tok.size()));
    };

    if (!get()) {
        if (models_read_ == 0) throw input_error(path_, 0, "no HMM found (empty file)");
        return false;
    }
    const std::string_view fmt = ln.tok[0];
    if (fmt.size() != 8 || fmt.substr(0, 7) != "HMMER3/" || fmt[7] < 'a' || fmt[7] > 'f')
        throw fail(models_read_ == 0 ? "not a HMMER3 save file: expected a 'HMMER3/<a..f>' format line, found " + quoted(fmt)
                                     : "expected the 'HMMER3/<a..f>' line of the next model, found " + quoted(fmt));
    const char v = fmt[7];
    if (version_ == 0) version_ = v;
    if (v != version_)
        throw fail(std::string("mixed format versions in one file: HMMER3/") + v + " after HMMER3/" + version_);

    Hmm h;
    h.format_version = v;
    bool have_name = false, have_leng = false, have_alph = false;
    bool has_rf = false, has_mm = false, has_cons = false, has_cs = false;
    std::array<Line, 3> cutoff_lines;  // GA, TC, NC lines (the last of each)
    int stats_seen = 0;  // bit per STATS line kind
    for (;;) {
        if (!get()) throw fail("truncated model: end of file before the 'HMM' line");
        const std::string_view tag = ln.tok[0];
        if (tag == "HMM") break;
        if (tag == "//" || (tag.size() == 8 && tag.substr(0, 7) == "HMMER3/"))
            throw fail("model header ends without an 'HMM' line");
        if (tag == "NAME") {
            if (ln.tok.size() < 2) throw fail("NAME without a value");
            h.name = std::string(ln.tok[1]);
            have_name = true;
        } else if (tag == "ACC") {
            if (ln.tok.size() < 2) throw fail("ACC without a value");
            h.acc = std::string(ln.tok[1]);
        } else if (tag == "DESC") {
            const size_t at = static_cast<size_t>(ln.tok.size() > 1 ? ln.tok[1].data() - ln.raw.data() : ln.raw.size());
            h.desc = ln.raw.substr(at);
            // Easel skips all leading white space of free text, \v and \f too.
            h.desc.erase(0, std::min(h.desc.size(), h.desc.find_first_not_of(" \t\v\f\r")));
            while (!h.desc.empty() && std::isspace(static_cast<unsigned char>(h.desc.back()))) h.desc.pop_back();
        } else if (tag == "LENG") {
            if (ln.tok.size() < 2) throw fail("LENG without a value");
            h.M = parse_int(ln.tok[1], "LENG");
            if (h.M <= 0) throw fail("LENG must be positive, found " + quoted(ln.tok[1]));
            if (h.M > kMaxHmmLength)
                throw fail("absurd LENG " + std::to_string(h.M) + " (more than " + std::to_string(kMaxHmmLength) + " nodes)");
            have_leng = true;
        } else if (tag == "ALPH") {
            if (ln.tok.size() < 2) throw fail("ALPH without a value");
            const std::string_view a = ln.tok[1];
            if (iequals(a, "amino")) h.alph = AlphabetKind::amino;
            else if (iequals(a, "DNA")) h.alph = AlphabetKind::dna;
            else if (iequals(a, "RNA")) h.alph = AlphabetKind::rna;
            else throw fail("unknown alphabet " + quoted(a) + " (expected amino, DNA or RNA)");
            have_alph = true;
        } else if (tag == "STATS") {
            // (HMMER compares these keywords without regard to case.)
            if (ln.tok.size() < 3 || !iequals(ln.tok[1], "LOCAL")) throw fail("malformed STATS line");
            std::string kind(ln.tok[2]);
            for (char& c : kind) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            if (v == 'a') {
                // Legacy 3/a: one value per line; MSV and Viterbi share mu, all lambdas equal.
                expect_fields(4, "STATS line");
                const float x = static_cast<float>(parse_real(ln.tok[3], "STATS value"));
                if (kind == "VLAMBDA" && !(x > 0)) throw fail("STATS lambda " + quoted(ln.tok[3]) + " is not above 0");
                if (kind == "VLAMBDA") { h.evparam[kMsvLambda] = h.evparam[kVitLambda] = h.evparam[kFwdLambda] = x; stats_seen |= 1; }
                else if (kind == "VMU") { h.evparam[kMsvMu] = h.evparam[kVitMu] = x; stats_seen |= 2; }
                else if (kind == "FTAU") { h.evparam[kFwdTau] = x; stats_seen |= 4; }
                else throw fail("unknown STATS line " + quoted(ln.tok[2]));
            } else {
                expect_fields(5, "STATS line");
                const float a = static_cast<float>(parse_real(ln.tok[3], "STATS value"));
                const float b = static_cast<float>(parse_real(ln.tok[4], "STATS value"));
                if (!(b > 0)) throw fail("STATS lambda " + quoted(ln.tok[4]) + " is not above 0");
                if (kind == "MSV") { h.evparam[kMsvMu] = a; h.evparam[kMsvLambda] = b; stats_seen |= 1; }
                else if (kind == "VITERBI") { h.evparam[kVitMu] = a; h.evparam[kVitLambda] = b; stats_seen |= 2; }
                else if (kind == "FORWARD") { h.evparam[kFwdTau] = a; h.evparam[kFwdLambda] = b; stats_seen |= 4; }
                else throw fail("unknown STATS line " + quoted(ln.tok[2]));
            }
        } else if (tag == "RF" || tag == "MM" || tag == "CONS" || tag == "CS" || tag == "MAP") {
            // Flags of the per-node annotation columns (docs/hmmer-filters.md §1.4).
            if (ln.tok.size() < 2) throw fail(std::string(tag) + " without a yes/no value");
            bool yes = iequals(ln.tok[1], "yes");
            if (!yes && !iequals(ln.tok[1], "no"))
                throw fail(std::string(tag) + " header line must say yes or no, not " + quoted(ln.tok[1]));
            if (tag == "RF") has_rf = yes;
            else if (tag == "MM") has_mm = yes;
            else if (tag == "CONS") has_cons = yes;
            else if (tag == "CS") has_cs = yes;
        } else if (tag == "GA" || tag == "TC" || tag == "NC") {
            // Read once the alphabet is known, which decides how many values count.
            Line& keep = cutoff_lines[tag == "GA" ? 0 : tag == "TC" ? 1 : 2];
            keep.raw = ln.raw;  // its tokens are made again from this copy
            keep.no = ln.no;
        }
        // Every other tag is bookkeeping no stage uses.
    }
    if (!have_name) throw fail("model has no NAME line");
    if (!have_leng) throw fail("model has no LENG line");
    if (!have_alph) throw fail("model has no ALPH line");
    if (stats_seen != 0 && stats_seen != 7)
        throw fail("STATS lines only partially present (need all three of " +
                   std::string(v == 'a' ? "VLAMBDA, VMU, FTAU" : "MSV, VITERBI, FORWARD") + ")");
    h.has_stats = stats_seen == 7;
    if (models_read_ == 0) alph_ = h.alph;
    else if (h.alph != alph_) throw fail("all models in one file must share one alphabet");

    // Cutoffs (§1.4): per sequence and per domain; nucleic models give one
    // value for both. (This reuses `ln`, whose header line is done with.)
    for (size_t n = 0; n < cutoff_lines.size(); ++n) {
        if (cutoff_lines[n].no == 0) continue;
        ln.raw = cutoff_lines[n].raw;
        ln.no = cutoff_lines[n].no;
        tokenize(ln);
        const bool nucleic = h.alph != AlphabetKind::amino;
        const std::string what = std::string(ln.tok[0]) + " line";
        expect_fields(nucleic ? 2 : 3, what.c_str());
        Hmm::Cutoff& cut = n == 0 ? h.ga : n == 1 ? h.tc : h.nc;
        cut.seq = static_cast<float>(parse_real(ln.tok[1], "cutoff"));
        cut.dom = nucleic ? cut.seq : static_cast<float>(parse_real(ln.tok[2], "cutoff"));
        cut.set = true;
    }

    const Alphabet& abc = Alphabet::of(h.alph);
    const int K = abc.K();
    const int M = h.M;
    h.K = K;
    const size_t Ku = static_cast<size_t>(K);
    h.t.assign(static_cast<size_t>(M) + 1, {});
    h.mat.assign((static_cast<size_t>(M) + 1) * Ku, 0.0f);
    h.ins.assign((static_cast<size_t>(M) + 1) * Ku, 0.0f);
    h.compo.assign(Ku, 0.0f);
    h.mat[0] = 1.0f;

    auto read_probs = [&](float* dst, size_t first, size_t n, const char* what) {
        for (size_t i = 0; i < n; ++i) dst[i] = prob(ln.tok[first + i], what);
    };
    std::vector<uint64_t> transition_line(static_cast<size_t>(M) + 1, 0);  // for the occupancy check
    auto read_transitions = [&](int k) {
        need("a transition line");
        transition_line[static_cast<size_t>(k)] = ln.no;
        expect_fields(kNumTransitions, ("node " + std::to_string(k) + " transition line").c_str());
        read_probs(h.t[static_cast<size_t>(k)].data(), 0, kNumTransitions, "transition");
    };
    auto read_inserts = [&](int k) {
        need("an insert emission line");
        expect_fields(Ku, ("node " + std::to_string(k) + " insert emission line").c_str());
        read_probs(h.ins.data() + static_cast<size_t>(k) * Ku, 0, Ku, "insert emission");
    };

    need("the transition-label line after 'HMM'");  // m->m m->i ...: ignored
    need("the COMPO or node-0 line");
    if (ln.tok[0] == "COMPO") {
        expect_fields(Ku + 1, "COMPO line");
        read_probs(h.compo.data(), 1, Ku, "COMPO value");
        h.has_compo = true;
        need("the node-0 insert emission line");
    }
    expect_fields(Ku, "node 0 insert emission line");
    read_probs(h.ins.data(), 0, Ku, "insert emission");
    read_transitions(0);

    const size_t match_fields = 1 + Ku + static_cast<size_t>(annotation_columns(v));
    // Annotation lines: index 0 is a blank, as in HMMER; empty when absent.
    const auto annotation = [&](bool on) { return on ? std::string(static_cast<size_t>(M) + 1, ' ') : std::string(); };
    h.rf = annotation(has_rf);
    h.mm = annotation(has_mm && v == 'f');
    h.cs = annotation(has_cs);
    h.consensus = annotation(has_cons && v >= 'e');
    for (int k = 1; k <= M; ++k) {
        need(("node " + std::to_string(k)).c_str());
        if (ln.tok[0] == "//")
            throw fail("LENG is " + std::to_string(M) + " but the model ends after " + std::to_string(k - 1) + " nodes");
        const int node = parse_int(ln.tok[0], "node number");
        if (node != k) throw fail("wrong node number: expected " + std::to_string(k) + ", found " + std::to_string(node));
        expect_fields(match_fields, ("node " + std::to_string(k) + " match emission line").c_str());
        read_probs(h.mat.data() + static_cast<size_t>(k) * Ku, 1, Ku, "match emission");
        // MAP, [CONS], RF, [MM], CS: each the first character of its field,
        // kept only where the header flag says yes (§1.4).
        size_t col = 2 + Ku;  // after MAP, which no stage reads
        const auto take = [&](bool on, std::string& line) {
            if (on) line[static_cast<size_t>(k)] = ln.tok[col][0];
            ++col;
        };
        if (v >= 'e') take(has_cons, h.consensus);
        take(has_rf, h.rf);
        if (v == 'f') take(has_mm, h.mm);
        take(has_cs, h.cs);
        read_inserts(k);
        read_transitions(k);
    }
    if (!get()) throw fail("truncated model: end of file before the closing '//'");
    if (ln.tok[0] != "//") {
        int node = 0;
        const auto r = std::from_chars(ln.tok[0].data(), ln.tok[0].data() + ln.tok[0].size(), node);
        if (r.ec == std::errc() && node == M + 1)
            throw fail("LENG is " + std::to_string(M) + " but the model has more nodes");
        throw fail("expected '//' after node " + std::to_string(M) + ", found " + quoted(ln.tok[0]));
    }
    // Formats before 3/e have no consensus column: HMMER derives it.
    if (v < 'e') h.consensus = derived_consensus(h);
    check_entry_scores(h, transition_line);
    ++models_read_;
    out = std::move(h);
    return true;
}

std::vector<Hmm> read_all_hmms(const std::string& path) {
    HmmReader r(path);
    std::vector<Hmm> all;
    Hmm h;
    while (r.next(h)) all.push_back(std::move(h));
    return all;
}

}  // namespace warpdp

#include "tools/hmmer/hmmsearch_alignment_output.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "core/base/errors.hpp"
#include "tools/hmmer/hmmsearch_report_text.hpp"

namespace warpdp {

namespace {

// Easel's amino reading of display characters: '-', '.' and '_' are gaps;
// '*' (not a residue) and '~' (missing) are neither gap nor residue.
bool is_gap(char c) { return c == '-' || c == '.' || c == '_'; }
bool is_residue(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// A posterior-probability character back to the probability it stands for,
// and a probability to its character (HMMER's coarse coding).
float decode_pp(char c) {
    if (c == '0') return 0.01f;
    if (c == '*') return 1.0f;
    if (c == '.') return 0.0f;
    return static_cast<float>(c - '0') / 10.0f;
}
char encode_pp(float p) {
    return p + 0.05 >= 1.0 ? '*' : static_cast<char>(static_cast<char>((p + 0.05) * 10.0) + '0');
}

enum class State { M, D, I };

// One included domain as a subsequence and its path through the model.
struct Row {
    std::string name, acc, desc;
    std::vector<State> st;
    std::vector<int> k;
    std::vector<char> res;  // the residue of each M or I step, else 0
    std::vector<float> pp;
};

Row back_convert(const DomAliDisplay& ad) {
    Row r;
    int k = ad.hmmfrom - 1;
    for (size_t a = 0; a < ad.model.size(); ++a) {
        State s = State::I;
        if (!is_gap(ad.model[a])) {
            ++k;
            s = is_gap(ad.aseq[a]) ? State::D : State::M;
        }
        r.st.push_back(s);
        r.k.push_back(k);
        r.res.push_back(s == State::D ? 0 : ad.aseq[a]);
        r.pp.push_back(ad.ppline.empty() ? 0.0f : decode_pp(ad.ppline[a]));
    }
    if (k != ad.hmmto) throw InternalError("alignment display of " + ad.sqname + " does not end at its hmmto");
    r.name = ad.sqname + "/" + std::to_string(ad.sqfrom) + "-" + std::to_string(ad.sqto);
    r.desc = "[subseq from] " + (ad.sqdesc.empty() ? ad.sqname : ad.sqdesc);
    r.acc = ad.sqacc;
    return r;
}

struct Msa {
    std::vector<std::string> aseq, pp;
    std::string rf, pp_cons;
};

// Every consensus column is shown; insertions after node k take as many
// columns as the longest one, their residues split half left, half right
// (all right before node 1).
Msa build_msa(const std::vector<Row>& rows, int M, bool have_pp) {
    std::vector<int> inscount(static_cast<size_t>(M) + 1, 0);
    for (const Row& r : rows) {
        std::vector<int> n(static_cast<size_t>(M) + 1, 0);
        for (size_t z = 0; z < r.st.size(); ++z)
            if (r.st[z] == State::I) ++n[static_cast<size_t>(r.k[z])];
        for (int k = 0; k <= M; ++k) inscount[static_cast<size_t>(k)] = std::max(inscount[static_cast<size_t>(k)], n[static_cast<size_t>(k)]);
    }
    std::vector<int> matmap(static_cast<size_t>(M) + 1, 0);  // 1-based column of node k
    int alen = inscount[0];
    for (int k = 1; k <= M; ++k) {
        matmap[static_cast<size_t>(k)] = alen + 1;
        alen += 1 + inscount[static_cast<size_t>(k)];
    }
    const size_t L = static_cast<size_t>(alen);
    Msa m;
    m.rf.assign(L, '.');
    for (int k = 1; k <= M; ++k) m.rf[static_cast<size_t>(matmap[static_cast<size_t>(k)] - 1)] = 'x';
    std::vector<double> totp(L, 0.0);
    std::vector<int> nmatch(L, 0);
    for (const Row& r : rows) {
        std::string a(L, '.');
        for (int k = 1; k <= M; ++k) a[static_cast<size_t>(matmap[static_cast<size_t>(k)] - 1)] = '-';
        std::string p(L, '.');
        size_t apos = 0;
        for (size_t z = 0; z < r.st.size(); ++z) {
            const size_t col = static_cast<size_t>(matmap[static_cast<size_t>(r.k[z])]);  // one past the match column
            switch (r.st[z]) {
                case State::M:
                    a[col - 1] = static_cast<char>(std::toupper(static_cast<unsigned char>(r.res[z])));
                    p[col - 1] = encode_pp(r.pp[z]);
                    totp[col - 1] += r.pp[z];
                    ++nmatch[col - 1];
                    apos = col;
                    break;
                case State::D:
                    a[col - 1] = '-';
                    apos = col;
                    break;
                case State::I:
                    a[apos] = static_cast<char>(std::tolower(static_cast<unsigned char>(r.res[z])));
                    p[apos] = encode_pp(r.pp[z]);
                    ++apos;
                    break;
            }
        }
        // Rejustify each insertion wider than one column.
        for (int k = 0; k < M; ++k) {
            if (inscount[static_cast<size_t>(k)] <= 1) continue;
            const int lo = matmap[static_cast<size_t>(k)];          // first insert column, 0-based
            const int hi = matmap[static_cast<size_t>(k) + 1] - 1;  // the next match column, 0-based
            int nins = 0;
            for (int c = lo; c < hi; ++c) nins += is_residue(a[static_cast<size_t>(c)]) ? 1 : 0;
            nins = k == 0 ? 0 : nins / 2;
            int opos = hi - 1, npos = hi - 1;
            while (opos >= lo + nins) {
                if (is_gap(a[static_cast<size_t>(opos)])) {
                    --opos;
                    continue;
                }
                a[static_cast<size_t>(npos)] = a[static_cast<size_t>(opos)];
                p[static_cast<size_t>(npos)] = p[static_cast<size_t>(opos)];
                --npos;
                --opos;
            }
            for (; npos >= lo + nins; --npos) a[static_cast<size_t>(npos)] = p[static_cast<size_t>(npos)] = '.';
        }
        m.aseq.push_back(a);
        m.pp.push_back(p);
    }
    if (have_pp) {
        m.pp_cons.assign(L, '.');
        for (size_t c = 0; c < L; ++c)
            if (nmatch[c] > 0) m.pp_cons[c] = encode_pp(static_cast<float>(totp[c] / static_cast<double>(nmatch[c])));
    } else {
        m.pp.clear();
    }
    return m;
}

}  // namespace

std::string stockholm_alignment(const QueryReport& q, const ReportOptions& o, const std::string& author) {
    std::vector<Row> rows;
    bool have_pp = false;
    for (const DomHit& h : q.hits)
        if (h.flags & kHitIncluded)
            for (const DomDomain& d : h.domains)
                if (d.is_included) {
                    rows.push_back(back_convert(d.ad));
                    have_pp = have_pp || !d.ad.ppline.empty();
                }
    if (rows.empty()) return {};
    const Hmm& hmm = *q.hmm;
    const Msa m = build_msa(rows, hmm.M, have_pp);
    const size_t alen = m.rf.size();
    const size_t cpl = o.line_width() > 0 ? 200 : alen;

    // Names must be unique in Stockholm: if not, each gets its index as a prefix.
    std::set<std::string> seen;
    bool unique = true;
    size_t maxname = 0;
    for (const Row& r : rows) {
        unique = seen.insert(r.name).second && unique;
        maxname = std::max(maxname, r.name.size());
    }
    int uniqw = 0;
    if (!unique) {
        for (size_t n = rows.size(); n; n /= 10) ++uniqw;
        ++uniqw;  // the '|'
    }
    const int nw = static_cast<int>(maxname);
    int margin = uniqw + nw + 1;
    margin = std::max(margin, (have_pp ? 7 : 2) + 6);             // #=GC PP_cons, RF
    if (have_pp) margin = std::max(margin, uniqw + nw + 2 + 7);  // #=GR <name> PP
    auto label = [&](size_t i) {
        std::string s;
        if (!unique) appendf(s, "%0*d|", uniqw - 1, static_cast<int>(i));
        return s;
    };

    std::string s = "# STOCKHOLM 1.0\n";
    if (!unique) s += "# WARNING: seq names have been made unique by adding a prefix of \"<seq#>|\"\n";
    appendf(s, "#=GF %-2s %s\n", "ID", hmm.name.c_str());
    if (!hmm.acc.empty()) appendf(s, "#=GF %-2s %s\n", "AC", hmm.acc.c_str());
    if (!hmm.desc.empty()) appendf(s, "#=GF %-2s %s\n", "DE", hmm.desc.c_str());
    appendf(s, "#=GF %-2s %s\n", "AU", author.c_str());
    s += "\n";
    if (std::any_of(rows.begin(), rows.end(), [](const Row& r) { return !r.acc.empty(); })) {
        for (size_t i = 0; i < rows.size(); ++i)
            if (!rows[i].acc.empty())
                appendf(s, "#=GS %s%-*s AC %s\n", label(i).c_str(), nw, rows[i].name.c_str(), rows[i].acc.c_str());
        s += "\n";
    }
    for (size_t i = 0; i < rows.size(); ++i)
        appendf(s, "#=GS %s%-*s DE %s\n", label(i).c_str(), nw, rows[i].name.c_str(), rows[i].desc.c_str());
    s += "\n";
    for (size_t pos = 0; pos < alen; pos += cpl) {
        if (pos > 0) s += "\n";
        const size_t n = std::min(cpl, alen - pos);
        for (size_t i = 0; i < rows.size(); ++i) {
            appendf(s, "%s%-*s %s\n", label(i).c_str(), margin - uniqw - 1, rows[i].name.c_str(), m.aseq[i].substr(pos, n).c_str());
            if (have_pp)
                appendf(s, "#=GR %s%-*s %-*s %s\n", label(i).c_str(), nw, rows[i].name.c_str(), margin - nw - uniqw - 7, "PP",
                        m.pp[i].substr(pos, n).c_str());
        }
        if (have_pp) appendf(s, "#=GC %-*s %s\n", margin - 6, "PP_cons", m.pp_cons.substr(pos, n).c_str());
        appendf(s, "#=GC %-*s %s\n", margin - 6, "RF", m.rf.substr(pos, n).c_str());
    }
    s += "//\n";
    return s;
}

}  // namespace warpdp

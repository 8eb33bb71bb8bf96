// Alignment display (docs/hmmer-filters.md §16.5).
#include "core/hmmer/domains/dom_alidisplay.hpp"

#include <cctype>
#include <string>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"

namespace warpdp {

char dom_pp_char(float p) {
    const double v = static_cast<double>(p) + 0.05;
    return v >= 1.0 ? '*' : static_cast<char>(static_cast<char>(v * 10.0) + '0');
}

DomAliDisplay dom_alidisplay(const DomTrace& tr, int which, const Hmm& hmm, const FwdProfile& fp,
                             const DomAliTarget& target) {
    const auto& st = tr.steps;
    const auto n = static_cast<int>(st.size());
    if (hmm.consensus.size() != static_cast<size_t>(hmm.M) + 1)
        throw InternalError("alignment display: model " + hmm.name + " has no consensus line");
    // The domain runs from its first M to its last M: through the index
    // when the trace has one, else from the which-th B to the E after it.
    int z1 = 0, z2 = 0;
    if (!tr.domains.empty()) {
        z1 = tr.domains.at(static_cast<size_t>(which)).tfrom;
        z2 = tr.domains.at(static_cast<size_t>(which)).tto;
    } else {
        for (int left = which; z1 < n; ++z1)
            if (st[static_cast<size_t>(z1)].st == kStB && left-- == 0) break;
        for (z2 = z1; z2 < n && st[static_cast<size_t>(z2)].st != kStE; ++z2) {}
        if (z2 == n) --z2;
    }
    while (z1 < n && st[static_cast<size_t>(z1)].st != kStM) ++z1;
    while (z2 >= 0 && st[static_cast<size_t>(z2)].st != kStM) --z2;
    if (z1 >= n || z2 < z1) throw InternalError("alignment display: domain " + std::to_string(which) + " has no match state");

    const Alphabet& abc = Alphabet::of(hmm.alph);
    const int Q = fp.Q;
    DomAliDisplay ad;
    ad.hmmname = hmm.name;
    ad.hmmacc = hmm.acc;
    ad.hmmdesc = hmm.desc;
    ad.sqname = target.name;
    ad.sqacc = target.acc;
    ad.sqdesc = target.desc;
    ad.hmmfrom = st[static_cast<size_t>(z1)].k;
    ad.hmmto = st[static_cast<size_t>(z2)].k;
    ad.M = hmm.M;
    ad.sqfrom = st[static_cast<size_t>(z1)].i;
    ad.sqto = st[static_cast<size_t>(z2)].i;
    ad.L = static_cast<int64_t>(target.dsq.size());
    // HMMER 3.3.2 builds no MM line (its code for one is disabled).
    for (int z = z1; z <= z2; ++z) {
        const DomTraceStep& s = st[static_cast<size_t>(z)];
        const auto k = static_cast<size_t>(s.k);
        if (!hmm.rf.empty()) ad.rfline += s.st == kStI ? '.' : hmm.rf[k];
        if (!hmm.cs.empty()) ad.csline += s.st == kStI ? '.' : hmm.cs[k];
        ad.ppline += s.st == kStD ? '.' : dom_pp_char(s.pp);
        if (s.st == kStD) {
            ad.model += hmm.consensus[k];
            ad.mline += ' ';
            ad.aseq += '-';
            continue;
        }
        if (s.st != kStM && s.st != kStI) throw InternalError("alignment display: a state other than M, D, I inside a domain");
        const int x = target.dsq[static_cast<size_t>(s.i - 1)];
        const auto sym = static_cast<unsigned char>(abc.symbol(x));
        if (s.st == kStI) {
            ad.model += '.';
            ad.mline += ' ';
            ad.aseq += static_cast<char>(std::tolower(sym));
            continue;
        }
        // An identity shows the consensus letter (in its case); otherwise
        // '+' where the match odds exceed 1, i.e. a positive score.
        const char cons = hmm.consensus[k];
        const int cons_code = cons == '-' ? abc.gap_code() : abc.digitize(static_cast<unsigned char>(cons));
        const float odds = fp.e(x, (s.k - 1) % Q)[(s.k - 1) / Q];
        ad.model += cons;
        ad.mline += x == cons_code ? cons : odds > 1.0f ? '+' : ' ';
        ad.aseq += static_cast<char>(std::toupper(sym));
    }
    return ad;
}

}  // namespace warpdp

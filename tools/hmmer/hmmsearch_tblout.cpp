#include "tools/hmmer/hmmsearch_tblout.hpp"

#include <algorithm>
#include <cmath>

#include "core/hmmer/pvalue.hpp"
#include "tools/hmmer/hmmsearch_report_text.hpp"

namespace warpdp {

std::string tblout_query(const QueryReport& q, bool show_header) {
    const Hmm& hmm = *q.hmm;
    const int qnamew = std::max(20, static_cast<int>(hmm.name.size()));
    const int tnamew = std::max(20, max_name_length(q.hits));
    const int qaccw = std::max(10, static_cast<int>(hmm.acc.size()));
    const int taccw = std::max(10, max_acc_length(q.hits));
    std::string s;
    if (show_header) {
        appendf(s, "#%*s %22s %22s %33s\n", tnamew + qnamew + taccw + qaccw + 2, "", "--- full sequence ----",
                "--- best 1 domain ----", "--- domain number estimation ----");
        appendf(s, "#%-*s %-*s %-*s %-*s %9s %6s %5s %9s %6s %5s %5s %3s %3s %3s %3s %3s %3s %3s %s\n", tnamew - 1,
                " target name", taccw, "accession", qnamew, "query name", qaccw, "accession", "  E-value", " score",
                " bias", "  E-value", " score", " bias", "exp", "reg", "clu", " ov", "env", "dom", "rep", "inc",
                "description of target");
        appendf(s, "#%*s %*s %*s %*s %9s %6s %5s %9s %6s %5s %5s %3s %3s %3s %3s %3s %3s %3s %s\n", tnamew - 1,
                "-------------------", taccw, "----------", qnamew, "--------------------", qaccw, "----------",
                "---------", "------", "-----", "---------", "------", "-----", "---", "---", "---", "---", "---",
                "---", "---", "---", "---------------------");
    }
    const char* qacc = hmm.acc.empty() ? "-" : hmm.acc.c_str();
    for (const DomHit& h : q.hits) {
        if (!(h.flags & kHitReported)) continue;
        const DomDomain& best = h.domains[static_cast<size_t>(h.best_domain)];
        appendf(s, "%-*s %-*s %-*s %-*s %9.2g %6.1f %5.1f %9.2g %6.1f %5.1f %5.1f %3d %3d %3d %3d %3d %3d %3d %s\n",
                tnamew, h.name.c_str(), taccw, h.acc.empty() ? "-" : h.acc.c_str(), qnamew, hmm.name.c_str(), qaccw,
                qacc, hmmer_evalue(h.lnP, q.thresholds.Z), h.score, h.pre_score - h.score,
                hmmer_evalue(best.lnP, q.thresholds.Z), best.bitscore, nats_to_bits(best.dombias), h.nexpected,
                h.nregions, h.nclustered, h.noverlaps, h.nenvelopes, static_cast<int>(h.domains.size()), h.nreported,
                h.nincluded, h.desc.empty() ? "-" : h.desc.c_str());
    }
    return s;
}

}  // namespace warpdp

#include "tools/hmmer/hmmsearch_domtblout.hpp"

#include <algorithm>
#include <cmath>

#include "core/hmmer/pvalue.hpp"
#include "tools/hmmer/hmmsearch_report_text.hpp"

namespace warpdp {

std::string domtblout_query(const QueryReport& q, bool show_header) {
    const Hmm& hmm = *q.hmm;
    const int qnamew = std::max(20, static_cast<int>(hmm.name.size()));
    const int tnamew = std::max(20, max_name_length(q.hits));
    const int qaccw = std::max(10, static_cast<int>(hmm.acc.size()));
    const int taccw = std::max(10, max_acc_length(q.hits));
    std::string s;
    if (show_header) {
        appendf(s, "#%*s %22s %40s %11s %11s %11s\n", tnamew + qnamew - 1 + 15 + taccw + qaccw, "",
                "--- full sequence ---", "-------------- this domain -------------", "hmm coord", "ali coord",
                "env coord");
        appendf(s,
                "#%-*s %-*s %5s %-*s %-*s %5s %9s %6s %5s %3s %3s %9s %9s %6s %5s %5s %5s %5s %5s %5s %5s %4s %s\n",
                tnamew - 1, " target name", taccw, "accession", "tlen", qnamew, "query name", qaccw, "accession",
                "qlen", "E-value", "score", "bias", "#", "of", "c-Evalue", "i-Evalue", "score", "bias", "from", "to",
                "from", "to", "from", "to", "acc", "description of target");
        appendf(s, "#%*s %*s %5s %*s %*s %5s %9s %6s %5s %3s %3s %9s %9s %6s %5s %5s %5s %5s %5s %5s %5s %4s %s\n",
                tnamew - 1, "-------------------", taccw, "----------", "-----", qnamew, "--------------------",
                qaccw, "----------", "-----", "---------", "------", "-----", "---", "---", "---------", "---------",
                "------", "-----", "-----", "-----", "-----", "-----", "-----", "-----", "----",
                "---------------------");
    }
    const char* qacc = hmm.acc.empty() ? "-" : hmm.acc.c_str();
    for (const DomHit& h : q.hits) {
        if (!(h.flags & kHitReported)) continue;
        int nd = 0;
        for (const DomDomain& d : h.domains) {
            if (!d.is_reported) continue;
            const DomAliDisplay& ad = d.ad;
            appendf(s,
                    "%-*s %-*s %5d %-*s %-*s %5d %9.2g %6.1f %5.1f %3d %3d %9.2g %9.2g %6.1f %5.1f %5d %5d %5ld %5ld "
                    "%5ld %5ld %4.2f %s\n",
                    tnamew, h.name.c_str(), taccw, h.acc.empty() ? "-" : h.acc.c_str(), static_cast<int>(ad.L), qnamew,
                    hmm.name.c_str(), qaccw, qacc, ad.M, hmmer_evalue(h.lnP, q.thresholds.Z), h.score,
                    h.pre_score - h.score, ++nd, h.nreported, hmmer_evalue(d.lnP, q.thresholds.domZ),
                    hmmer_evalue(d.lnP, q.thresholds.Z), d.bitscore, nats_to_bits(d.dombias), ad.hmmfrom, ad.hmmto,
                    static_cast<long>(ad.sqfrom), static_cast<long>(ad.sqto), static_cast<long>(d.ienv),
                    static_cast<long>(d.jenv),
                    d.oasc / (1.0 + std::fabs(static_cast<double>(static_cast<float>(d.jenv - d.ienv)))),
                    h.desc.empty() ? "-" : h.desc.c_str());
        }
    }
    return s;
}

}  // namespace warpdp

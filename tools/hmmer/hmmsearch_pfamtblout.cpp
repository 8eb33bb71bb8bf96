#include "tools/hmmer/hmmsearch_pfamtblout.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/hmmer/pvalue.hpp"
#include "core/hmmer/report/hit_list.hpp"
#include "tools/hmmer/hmmsearch_report_text.hpp"

namespace warpdp {

namespace {

struct DomainRow {
    const DomHit* hit;
    const DomDomain* dom;
    int number;      // the domain's place among its target's reported domains
    double sortkey;
};

}  // namespace

std::string pfamtblout_query(const QueryReport& q) {
    const int tnamew = std::max(20, max_name_length(q.hits));
    std::string s = "# Sequence scores\n# ---------------\n#\n";
    appendf(s, "# %-*s %6s %9s %3s %5s %5s    %s\n", tnamew - 1, "name", " bits", "  E-value", "n", "exp", " bias",
            "description");
    appendf(s, "# %*s %6s %9s %3s %5s %5s    %s\n", tnamew - 1, "-------------------", "------", "---------", "---",
            "-----", "-----", "---------------------");
    std::vector<DomainRow> rows;
    for (const DomHit& h : q.hits) {
        if (!(h.flags & kHitReported)) continue;
        appendf(s, "%-*s  %6.1f %9.2g %3d %5.1f %5.1f    %s\n", tnamew, h.name.c_str(), h.score,
                hmmer_evalue(h.lnP, q.thresholds.Z), static_cast<int>(h.domains.size()), h.nexpected,
                h.pre_score - h.score, h.desc.empty() ? "-" : h.desc.c_str());
        int nd = 0;
        for (const DomDomain& d : h.domains)
            if (d.is_reported)
                rows.push_back({&h, &d, ++nd, q.thresholds.inc_by_E ? -d.lnP : static_cast<double>(d.bitscore)});
    }
    s += "\n";
    // hmmsearch's order: sortkey, then name, then the alignments (hit_list.hpp).
    std::stable_sort(rows.begin(), rows.end(), [](const DomainRow& a, const DomainRow& b) {
        if (a.sortkey != b.sortkey) return a.sortkey > b.sortkey;
        const int c = std::strcmp(a.hit->name.c_str(), b.hit->name.c_str());
        if (c != 0) return c < 0;
        return hmmer_alignment_order(a.dom->iali, a.dom->jali, b.dom->iali, b.dom->jali) < 0;
    });
    s += "# Domain scores\n# -------------\n#\n";
    appendf(s, "# %-*s %6s %9s %5s %5s %6s %6s %6s %6s %6s %6s     %s\n", tnamew - 1, " name", "bits", "E-value", "hit",
            "bias", "env-st", "env-en", "ali-st", "ali-en", "hmm-st", "hmm-en", "description");
    appendf(s, "# %*s %6s %9s %5s %5s %6s %6s %6s %6s %6s %6s      %s\n", tnamew - 1, "-------------------", "------",
            "---------", "-----", "-----", "------", "------", "------", "------", "------", "------",
            "---------------------");
    for (const DomainRow& r : rows) {
        const DomDomain& d = *r.dom;
        appendf(s, "%-*s  %6.1f %9.2g %5d %5.1f %6ld %6ld %6ld %6ld %6d %6d     %s\n", tnamew, r.hit->name.c_str(),
                d.bitscore, hmmer_evalue(d.lnP, q.thresholds.Z), r.number, nats_to_bits(d.dombias),
                static_cast<long>(d.ienv), static_cast<long>(d.jenv), static_cast<long>(d.ad.sqfrom),
                static_cast<long>(d.ad.sqto), d.ad.hmmfrom, d.ad.hmmto, r.hit->desc.empty() ? "-" : r.hit->desc.c_str());
    }
    return s;
}

}  // namespace warpdp

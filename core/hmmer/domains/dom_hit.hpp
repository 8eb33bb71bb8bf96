// What the post-filter stages produce for one target: its domains with
// their alignment displays, and the sequence-level scores (HMMER's
// P7_ALIDISPLAY, P7_DOMAIN and P7_HIT; docs/hmmer-filters.md §16.5). The
// writers of hmmsearch's five outputs read only these.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpdp {

// An alignment of one domain as the outputs show it. Optional lines are
// empty when absent; all present lines have the same length.
struct DomAliDisplay {
    std::string rfline, mmline, csline;  // from the model's RF / MM / CS annotation
    std::string model;   // model consensus, '.' at insert columns
    std::string mline;   // identities, '+' for positive scores, ' ' otherwise
    std::string aseq;    // target residues, '-' at deletions
    std::string ppline;  // posterior probability per column: '0'..'9', '*', '.' at deletions
    std::string hmmname, hmmacc, hmmdesc;
    int hmmfrom = 0, hmmto = 0, M = 0;
    std::string sqname, sqacc, sqdesc;
    int64_t sqfrom = 0, sqto = 0, L = 0;
};

struct DomDomain {
    int64_t ienv = 0, jenv = 0;   // envelope, 1-based inclusive
    int64_t iali = 0, jali = 0;   // alignment
    float envsc = 0;          // Forward score of the envelope, nats, before null2
    float domcorrection = 0;  // null2 score of the envelope, nats
    float dombias = 0;        // logsum(0, log(omega) + domcorrection), nats
    float oasc = 0;           // expected number of correctly aligned residues
    float bitscore = 0;       // bits, null2-corrected, as if the only domain
    double lnP = 0;           // log P-value of bitscore
    bool is_reported = false;
    bool is_included = false;
    DomAliDisplay ad;
};

enum DomHitFlags : uint32_t { kHitReported = 1u, kHitIncluded = 2u, kHitDuplicate = 4u };

struct DomHit {
    std::string name, acc, desc;   // the target's
    double sortkey = 0;            // larger sorts first
    float score = 0, pre_score = 0, sum_score = 0;  // bits
    double lnP = 0, pre_lnP = 0, sum_lnP = 0;
    float nexpected = 0;
    int nregions = 0, nclustered = 0, noverlaps = 0, nenvelopes = 0;
    uint32_t flags = 0;
    int nreported = 0, nincluded = 0;
    int best_domain = 0;
    int64_t seqidx = 0;            // order of the target in the database
    std::vector<DomDomain> domains;
};

}  // namespace warpdp

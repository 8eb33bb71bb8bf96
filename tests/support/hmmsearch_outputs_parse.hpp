// Reads hmmsearch's outputs back into the writers' input (DomHit lists and
// pipeline counts per query), for the round-trip tests of the writers.
//
// Precision: hmmsearch prints E-values with two digits and scores with one
// decimal, so the values rebuilt here are chosen inside the interval each
// printed value stands for: a sequence's P-value inside its E-value's interval
// (divided by Z); a domain's inside both its i-Evalue's (over Z) and its
// c-Evalue's (over domZ) intervals. Targets whose printed E-values (or, when
// they sort by score, scores) are equal are spread inside that interval in
// hmmsearch's order: the digits hmmsearch does not print are taken from its
// order. Every value printed again from these prints as hmmsearch printed
// it, as long as Z and domZ are the run's own.
//
// Domains that are not reported appear only as counts (tblout's "dom" and
// "rep"): they are rebuilt as domains no threshold passes (P = inf, score
// -inf), except the best domain, whose values tblout prints.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/hmmer/domains/dom_hit.hpp"
#include "core/hmmer/hmm.hpp"
#include "core/hmmer/report/pipeline_stats.hpp"

namespace warpdp::test {

inline std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

// The first n whitespace-separated fields of a table line, then the rest
// (the description, spaces kept) as field n.
inline std::vector<std::string> table_fields(const std::string& line, size_t n) {
    std::vector<std::string> f;
    size_t i = 0;
    while (f.size() < n) {
        while (i < line.size() && line[i] == ' ') ++i;
        const size_t j = line.find(' ', i);
        f.push_back(line.substr(i, j == std::string::npos ? std::string::npos : j - i));
        i = j == std::string::npos ? line.size() : j;
    }
    while (i < line.size() && line[i] == ' ') ++i;
    f.push_back(line.substr(std::min(i, line.size())));
    return f;
}

// The interval of values that %.2g prints as `text`.
struct Interval {
    double lo, hi;
};
inline Interval g2_interval(const std::string& text) {
    const double v = std::strtod(text.c_str(), nullptr);
    if (v == 0) return {0, 0};
    const double e = std::floor(std::log10(v));
    const double up = 0.5 * std::pow(10.0, e - 1);
    // Just below a power of ten the printed step is ten times finer.
    const bool power = std::fabs(v / std::pow(10.0, e) - 1) < 1e-9;
    return {v - (power ? up / 10 : up), v + up};
}

struct ParsedQuery {
    std::string name;
    std::vector<DomHit> hits;  // in hmmsearch's order
    PipelineStats stats;
};

namespace detail {

struct DomRow {
    std::vector<std::string> f;
};

inline double parse_d(const std::string& s) { return std::strtod(s.c_str(), nullptr); }
inline long parse_l(const std::string& s) { return std::strtol(s.c_str(), nullptr, 10); }

// Spreads the members of each run of equal keys (in order) over their
// interval, best first: returns a position 0 < t < 1 per item (larger t =
// later in the order).
inline std::vector<double> spread(const std::vector<std::string>& keys) {
    std::vector<double> t(keys.size());
    for (size_t i = 0; i < keys.size();) {
        size_t j = i;
        while (j < keys.size() && keys[j] == keys[i]) ++j;
        for (size_t k = i; k < j; ++k) t[k] = static_cast<double>(k - i + 1) / static_cast<double>(j - i + 1);
        i = j;
    }
    return t;
}

// Reported domains whose printed values are equal, spread over the
// intervals those stand for in the pfam table's order (its domain sort).
inline void spread_domains(std::vector<DomHit>& hits, const std::map<std::pair<std::string, long>, size_t>& rank,
                           double Z, double domZ) {
    struct Ref {
        DomDomain* d;
        size_t rank;
    };
    std::vector<Ref> refs;
    for (DomHit& h : hits) {
        long nd = 0;
        for (DomDomain& d : h.domains)
            if (d.is_reported) {
                const auto it = rank.find({h.name, ++nd});
                if (it != rank.end()) refs.push_back({&d, it->second});
            }
    }
    std::sort(refs.begin(), refs.end(), [](const Ref& a, const Ref& b) { return a.rank < b.rank; });
    std::map<std::string, std::vector<DomDomain*>> by_E, by_score;
    char key[64];
    for (const Ref& r : refs) {
        std::snprintf(key, sizeof key, "%.2g|%.2g", std::exp(r.d->lnP) * Z, std::exp(r.d->lnP) * domZ);
        by_E[key].push_back(r.d);
        std::snprintf(key, sizeof key, "%.1f", r.d->bitscore);
        by_score[key].push_back(r.d);
    }
    for (auto& [k, ds] : by_E) {
        if (ds.size() < 2 || std::exp(ds[0]->lnP) == 0) continue;
        // All of them sit at the middle of one interval; spread them around it
        // by a thousandth of its width, best (smallest P) first.
        const double mid = std::exp(ds[0]->lnP);
        for (size_t i = 0; i < ds.size(); ++i)
            ds[i]->lnP = std::log(mid * (1 + 1e-3 * (static_cast<double>(i) - static_cast<double>(ds.size()) / 2)));
    }
    for (auto& [k, ds] : by_score)
        for (size_t i = 0; ds.size() > 1 && i < ds.size(); ++i)
            ds[i]->bitscore += static_cast<float>(0.001 * (static_cast<double>(ds.size()) / 2 - static_cast<double>(i)));
}

}  // namespace detail

// One query's alignment displays, from a main output made with --notextw and
// alignments: target name -> its reported domains' displays, in order.
inline std::map<std::string, std::vector<DomAliDisplay>> parse_alignments(const std::vector<std::string>& lines,
                                                                          size_t from, size_t to) {
    std::map<std::string, std::vector<DomAliDisplay>> out;
    std::string target;
    for (size_t i = from; i < to; ++i) {
        const std::string& l = lines[i];
        if (l.rfind(">> ", 0) == 0) {
            target = l.substr(3, l.find(' ', 3) - 3);
            continue;
        }
        if (l.rfind("  == domain ", 0) != 0) continue;
        DomAliDisplay ad;
        std::vector<std::string> block;
        for (++i; i < to && !lines[i].empty(); ++i) block.push_back(lines[i]);
        // The model line is the first that does not end in a tag.
        size_t m = 0;
        auto tagged = [](const std::string& s, const char* tag) {
            return s.size() > 3 && s.compare(s.size() - 3, 3, std::string(" ") + tag) == 0;
        };
        while (m < block.size() && (tagged(block[m], "CS") || tagged(block[m], "RF") || tagged(block[m], "MM"))) ++m;
        std::istringstream ml(block.at(m));
        std::string name, model;
        long k1 = 0, k2 = 0;
        ml >> name >> k1 >> model >> k2;
        const size_t col = block[m].find(" " + model + " ", block[m].find(std::to_string(k1))) + 1;
        const size_t N = model.size();
        auto piece = [&](const std::string& s) { return s.substr(col, N); };
        for (size_t b = 0; b < m; ++b) {
            if (tagged(block[b], "CS")) ad.csline = piece(block[b]);
            if (tagged(block[b], "RF")) ad.rfline = piece(block[b]);
            if (tagged(block[b], "MM")) ad.mmline = piece(block[b]);
        }
        ad.model = model;
        ad.mline = piece(block.at(m + 1));
        ad.aseq = piece(block.at(m + 2));
        if (m + 3 < block.size()) ad.ppline = piece(block[m + 3]);
        out[target].push_back(ad);
        --i;
    }
    return out;
}

// hmmsearch's outputs of one run (main output with --notextw and alignments,
// --tblout, --domtblout, --pfamtblout) back into one ParsedQuery per model of
// `hmms`. Z: the run's -Z. The pfam table's domain section gives the order of
// domains whose printed values are equal.
inline std::vector<ParsedQuery> parse_hmmsearch_run(const std::vector<Hmm>& hmms, double Z, const std::string& main,
                                                    const std::string& tbl, const std::string& domtbl,
                                                    const std::string& pfamtbl) {
    using namespace detail;
    std::vector<ParsedQuery> out;
    const std::vector<std::string> lines = split_lines(main);
    // Query sections of the main output.
    std::vector<size_t> starts;
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].rfind("Query:", 0) == 0) starts.push_back(i);
    const std::vector<std::string> tlines = split_lines(tbl), dlines = split_lines(domtbl);
    for (size_t q = 0; q < hmms.size(); ++q) {
        const Hmm& hmm = hmms[q];
        ParsedQuery pq;
        pq.name = hmm.name;
        const size_t from = starts.at(q), to = q + 1 < starts.size() ? starts[q + 1] : lines.size();
        double domZ = 0;
        for (size_t i = from; i < to; ++i) {
            const std::string& l = lines[i];
            auto after = [&](const char* label) { return table_fields(l.substr(std::string(label).size()), 1)[0]; };
            if (l.rfind("Target sequences:", 0) == 0) {
                pq.stats.nseqs = parse_l(after("Target sequences:"));
                pq.stats.nres = parse_l(l.substr(l.find('(') + 1));
            }
            if (l.rfind("Passed MSV filter:", 0) == 0) pq.stats.n_past_msv = parse_l(after("Passed MSV filter:"));
            if (l.rfind("Passed bias filter:", 0) == 0) pq.stats.n_past_bias = parse_l(after("Passed bias filter:"));
            if (l.rfind("Passed Vit filter:", 0) == 0) pq.stats.n_past_vit = parse_l(after("Passed Vit filter:"));
            if (l.rfind("Passed Fwd filter:", 0) == 0) pq.stats.n_past_fwd = parse_l(after("Passed Fwd filter:"));
            if (l.rfind("Domain search space  (domZ):", 0) == 0) domZ = parse_d(after("Domain search space  (domZ):"));
        }
        pq.stats.nnodes = hmm.M;
        const auto alis = parse_alignments(lines, from, to);

        std::vector<std::vector<std::string>> trows;
        for (const std::string& l : tlines)
            if (!l.empty() && l[0] != '#') {
                auto f = table_fields(l, 18);
                if (f[2] == hmm.name) trows.push_back(f);
            }
        std::map<std::string, std::vector<std::vector<std::string>>> drows;
        for (const std::string& l : dlines)
            if (!l.empty() && l[0] != '#') {
                auto f = table_fields(l, 22);
                if (f[3] == hmm.name) drows[f[0]].push_back(f);
            }
        // Each reported domain's place in the pfam table's domain section.
        std::map<std::pair<std::string, long>, size_t> pfam_rank;
        {
            const std::vector<std::string> plines = split_lines(pfamtbl);
            size_t section = 0, rank = 0;
            bool domains = false;
            for (const std::string& l : plines) {
                if (l == "# Sequence scores") ++section, domains = false;
                if (l == "# Domain scores") domains = true;
                if (section != q + 1 || !domains || l.empty() || l[0] == '#') continue;
                const auto f = table_fields(l, 4);
                pfam_rank[{f[0], parse_l(f[3])}] = rank++;
            }
        }
        std::vector<std::string> ekeys;
        for (const auto& f : trows) ekeys.push_back(f[4]);
        const std::vector<double> et = spread(ekeys);
        std::vector<std::string> skeys;
        for (const auto& f : trows) skeys.push_back(f[5]);
        const std::vector<double> st = spread(skeys);
        for (size_t r = 0; r < trows.size(); ++r) {
            const auto& f = trows[r];
            DomHit h;
            h.name = f[0];
            h.acc = f[1] == "-" ? "" : f[1];
            h.desc = f[18] == "-" ? "" : f[18];
            const Interval ei = g2_interval(f[4]);
            h.lnP = ei.hi == 0 ? -800.0 - 0.001 * static_cast<double>(trows.size() - r)
                               : std::log((ei.lo + (ei.hi - ei.lo) * et[r]) / Z);
            h.score = static_cast<float>(parse_d(f[5]) + 0.04 - 0.08 * st[r]);
            h.pre_score = h.score + static_cast<float>(parse_d(f[6]));
            h.nexpected = static_cast<float>(parse_d(f[10]));
            h.nregions = static_cast<int>(parse_l(f[11]));
            h.nclustered = static_cast<int>(parse_l(f[12]));
            h.noverlaps = static_cast<int>(parse_l(f[13]));
            h.nenvelopes = static_cast<int>(parse_l(f[14]));
            const int ndom = static_cast<int>(parse_l(f[15]));
            const auto& ads = alis.count(h.name) ? alis.at(h.name) : std::vector<DomAliDisplay>{};
            const auto& rows = drows[h.name];
            h.best_domain = -1;
            for (size_t d = 0; d < rows.size(); ++d) {
                const auto& g = rows[d];
                DomDomain dom;
                dom.is_reported = true;  // (a mark for spread_domains; threshold_hits() decides)
                dom.ad = d < ads.size() ? ads[d] : DomAliDisplay{};
                dom.ad.L = parse_l(g[2]);
                dom.ad.M = static_cast<int>(parse_l(g[5]));
                const Interval ci = g2_interval(g[11]), ii = g2_interval(g[12]);
                double lo = ii.lo / Z, hi = ii.hi / Z;
                if (domZ > 0 && ci.hi > 0) lo = std::max(lo, ci.lo / domZ), hi = std::min(hi, ci.hi / domZ);
                dom.lnP = hi == 0 ? -800.0 : std::log((lo + hi) / 2);
                dom.bitscore = static_cast<float>(parse_d(g[13]));
                dom.dombias = static_cast<float>(parse_d(g[14]) / 1.44269504088896340736);
                dom.ad.hmmfrom = static_cast<int>(parse_l(g[15]));
                dom.ad.hmmto = static_cast<int>(parse_l(g[16]));
                dom.iali = dom.ad.sqfrom = parse_l(g[17]);
                dom.jali = dom.ad.sqto = parse_l(g[18]);
                dom.ienv = parse_l(g[19]);
                dom.jenv = parse_l(g[20]);
                dom.oasc = static_cast<float>(parse_d(g[21]) * (1.0 + static_cast<double>(dom.jenv - dom.ienv)));
                dom.ad.hmmname = hmm.name;
                dom.ad.hmmacc = hmm.acc;
                dom.ad.hmmdesc = hmm.desc;
                dom.ad.sqname = h.name;
                dom.ad.sqacc = h.acc;
                dom.ad.sqdesc = h.desc;
                if (h.best_domain < 0 && g[13] == f[8] && g[12] == f[7]) h.best_domain = static_cast<int>(d);
                h.domains.push_back(dom);
            }
            // Domains that were not reported.
            while (static_cast<int>(h.domains.size()) < ndom) {
                DomDomain dom;
                dom.lnP = std::numeric_limits<double>::infinity();
                dom.bitscore = -std::numeric_limits<float>::infinity();
                if (h.best_domain < 0) {
                    const Interval bi = g2_interval(f[7]);
                    dom.lnP = bi.hi == 0 ? -800.0 : std::log((bi.lo + bi.hi) / 2 / Z);
                    dom.bitscore = static_cast<float>(parse_d(f[8]));
                    dom.dombias = static_cast<float>(parse_d(f[9]) / 1.44269504088896340736);
                    h.best_domain = static_cast<int>(h.domains.size());
                }
                dom.iali = dom.jali = -1 - static_cast<int64_t>(h.domains.size());  // never equal to another's
                h.domains.push_back(dom);
            }
            if (h.best_domain < 0) h.best_domain = 0;
            h.sortkey = -h.lnP;
            pq.hits.push_back(std::move(h));
        }
        spread_domains(pq.hits, pfam_rank, Z, domZ);
        out.push_back(std::move(pq));
    }
    return out;
}

}  // namespace warpdp::test

#include "tools/hmmer/hmmsearch_main_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/hmmer/pvalue.hpp"
#include "tools/hmmer/hmmsearch_report_text.hpp"

namespace warpdp {

namespace {

constexpr const char* kRule = "# - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -\n";

void option_lines(std::string& s, const MainOutputHeader& h, const ReportOptions& o) {
    auto path = [&](const std::string& v, const char* label) {
        if (!v.empty()) appendf(s, "# %-32s %s\n", label, v.c_str());
    };
    path(h.main_out, "output directed to file:");
    path(h.ali_out, "MSA of all hits saved to file:");
    path(h.tbl_out, "per-seq hits tabular output:");
    path(h.dom_out, "per-dom hits tabular output:");
    path(h.pfam_out, "pfam-style tabular hit output:");
    if (o.acc) s += "# prefer accessions over names:    yes\n";
    if (o.noali) s += "# show alignments in output:       no\n";
    if (o.notextw) s += "# max ASCII text line length:      unlimited\n";
    if (o.textw) appendf(s, "# max ASCII text line length:      %d\n", *o.textw);
    auto real = [&](const std::optional<double>& v, const char* label, const char* rel) {
        if (v) appendf(s, "# %-32s %s %g\n", label, rel, *v);
    };
    real(o.E, "sequence reporting threshold:", "E-value <=");
    real(o.T, "sequence reporting threshold:", "score >=");
    real(o.domE, "domain reporting threshold:", "E-value <=");
    real(o.domT, "domain reporting threshold:", "score >=");
    real(o.incE, "sequence inclusion threshold:", "E-value <=");
    real(o.incT, "sequence inclusion threshold:", "score >=");
    real(o.incdomE, "domain inclusion threshold:", "E-value <=");
    real(o.incdomT, "domain inclusion threshold:", "score >=");
    if (o.cutoff == ModelCutoff::ga) s += "# model-specific thresholding:     GA cutoffs\n";
    if (o.cutoff == ModelCutoff::nc) s += "# model-specific thresholding:     NC cutoffs\n";
    if (o.cutoff == ModelCutoff::tc) s += "# model-specific thresholding:     TC cutoffs\n";
    if (o.max) s += "# Max sensitivity mode:            on [all heuristic filters off]\n";
    // (These three labels are narrower than the rest in hmmsearch too.)
    if (o.F1) appendf(s, "# MSV filter P threshold:       <= %g\n", *o.F1);
    if (o.F2) appendf(s, "# Vit filter P threshold:       <= %g\n", *o.F2);
    if (o.F3) appendf(s, "# Fwd filter P threshold:       <= %g\n", *o.F3);
    if (o.nobias) s += "# biased composition HMM filter:   off\n";
    if (o.nonull2) s += "# null2 bias corrections:          off\n";
    if (o.Z) appendf(s, "# sequence search space set to:    %.0f\n", *o.Z);
    if (o.domZ) appendf(s, "# domain search space set to:      %.0f\n", *o.domZ);
    if (o.seed) {
        if (*o.seed == 0) s += "# random number seed:              one-time arbitrary\n";
        else appendf(s, "# random number seed set to:       %d\n", *o.seed);
    }
    if (h.tformat) appendf(s, "# targ <seqfile> format asserted:  %s\n", h.tformat->c_str());
    if (h.cpu) appendf(s, "# number of worker threads:        %d\n", *h.cpu);
}

const std::string& shown_name(const DomHit& h, bool acc) { return acc && !h.acc.empty() ? h.acc : h.name; }

void targets_table(std::string& s, const QueryReport& q, const ReportOptions& o) {
    const int textw = o.line_width();
    const int namew = std::max(8, o.acc ? max_shown_length(q.hits) : max_name_length(q.hits));
    const int descw = textw > 0 ? std::max(32, textw - namew - 61) : 0;
    s += "Scores for complete sequences (score includes all domains):\n";
    appendf(s, "  %22s  %22s  %8s\n", " --- full sequence ---", " --- best 1 domain ---", "-#dom-");
    appendf(s, "  %9s %6s %5s  %9s %6s %5s  %5s %2s  %-*s %s\n", "E-value", " score", " bias", "E-value", " score",
            " bias", "  exp", "N", namew, "Sequence", "Description");
    appendf(s, "  %9s %6s %5s  %9s %6s %5s  %5s %2s  %-*s %s\n", "-------", "------", "-----", "-------", "------",
            "-----", " ----", "--", namew, "--------", "-----------");
    bool threshold_line = false;
    for (const DomHit& h : q.hits) {
        if (!(h.flags & kHitReported)) continue;
        if (!(h.flags & kHitIncluded) && !threshold_line) {
            s += "  ------ inclusion threshold ------\n";
            threshold_line = true;
        }
        const DomDomain& best = h.domains[static_cast<size_t>(h.best_domain)];
        appendf(s, "%c %9.2g %6.1f %5.1f  %9.2g %6.1f %5.1f  %5.1f %2d  %-*s ", ' ', hmmer_evalue(h.lnP, q.thresholds.Z),
                h.score, h.pre_score - h.score, hmmer_evalue(best.lnP, q.thresholds.Z), best.bitscore,
                nats_to_bits(best.dombias), h.nexpected, h.nreported, namew, shown_name(h, o.acc).c_str());
        if (textw > 0) appendf(s, " %-.*s\n", descw, h.desc.c_str());
        else appendf(s, " %s\n", h.desc.c_str());
    }
    if (q.counts.nreported == 0) s += "\n   [No hits detected that satisfy reporting thresholds]\n";
}

int digits(int64_t v) {
    char buf[32];
    return std::snprintf(buf, sizeof buf, "%ld", static_cast<long>(v));
}

// One domain's alignment, in blocks as wide as the line width allows (at
// least 40 columns), or one block with --notextw.
void alignment(std::string& s, const DomAliDisplay& ad, bool acc, int linewidth) {
    const std::string& hmmname = acc && !ad.hmmacc.empty() ? ad.hmmacc : ad.hmmname;
    const std::string& seqname = acc && !ad.sqacc.empty() ? ad.sqacc : ad.sqname;
    const int N = static_cast<int>(ad.model.size());
    const int namew = static_cast<int>(std::max(hmmname.size(), seqname.size()));
    const int coordw = std::max(std::max(digits(ad.hmmfrom), digits(ad.hmmto)), std::max(digits(ad.sqfrom), digits(ad.sqto)));
    int aliw = linewidth > 0 ? linewidth - namew - 2 * coordw - 5 : N;
    if (aliw < N && aliw < 40) aliw = 40;
    const int margin = namew + coordw + 1;
    auto annotation = [&](const std::string& line, int pos, const char* tag) {
        if (!line.empty()) appendf(s, "  %*s %s %s\n", margin, "", line.substr(static_cast<size_t>(pos), static_cast<size_t>(aliw)).c_str(), tag);
    };
    long i1 = static_cast<long>(ad.sqfrom);
    int k1 = ad.hmmfrom;
    for (int pos = 0; pos < N; pos += aliw) {
        if (pos > 0) s += "\n";
        int ni = 0, nk = 0;
        for (int z = pos; z < pos + aliw && z < N; ++z) {
            if (ad.model[static_cast<size_t>(z)] != '.') ++nk;
            if (ad.aseq[static_cast<size_t>(z)] != '-') ++ni;
        }
        const int k2 = k1 + nk - 1;
        const long i2 = i1 + ni - 1;
        const auto piece = [&](const std::string& line) {
            return line.substr(static_cast<size_t>(pos), static_cast<size_t>(aliw));
        };
        annotation(ad.csline, pos, "CS");
        annotation(ad.rfline, pos, "RF");
        annotation(ad.mmline, pos, "MM");
        appendf(s, "  %*s %*d %s %-*d\n", namew, hmmname.c_str(), coordw, k1, piece(ad.model).c_str(), coordw, k2);
        appendf(s, "  %*s %s\n", margin, " ", piece(ad.mline).c_str());
        if (ni > 0)
            appendf(s, "  %*s %*ld %s %-*ld\n", namew, seqname.c_str(), coordw, i1, piece(ad.aseq).c_str(), coordw, i2);
        else
            appendf(s, "  %*s %*s %s %*s\n", namew, seqname.c_str(), coordw, "-", piece(ad.aseq).c_str(), coordw, "-");
        annotation(ad.ppline, pos, "PP");
        k1 += nk;
        i1 += ni;
    }
}

void domain_annotation(std::string& s, const QueryReport& q, const ReportOptions& o) {
    const int textw = o.line_width();
    const bool show_ali = !o.noali;
    appendf(s, "Domain annotation for each sequence%s:\n", show_ali ? " (and alignments)" : "");
    for (const DomHit& h : q.hits) {
        if (!(h.flags & kHitReported)) continue;
        const std::string& name = shown_name(h, o.acc);
        if (textw > 0) {
            const int descw = std::max(32, textw - static_cast<int>(name.size()) - 5);
            appendf(s, ">> %s  %-.*s\n", name.c_str(), descw, h.desc.c_str());
        } else {
            appendf(s, ">> %s  %s\n", name.c_str(), h.desc.c_str());
        }
        if (h.nreported == 0) {
            s += "   [No individual domains that satisfy reporting thresholds (although complete target did)]\n\n";
            continue;
        }
        appendf(s, " %3s   %6s %5s %9s %9s %7s %7s %2s %7s %7s %2s %7s %7s %2s %4s\n", "#", "score", "bias", "c-Evalue",
                "i-Evalue", "hmmfrom", "hmm to", "  ", "alifrom", "ali to", "  ", "envfrom", "env to", "  ", "acc");
        appendf(s, " %3s   %6s %5s %9s %9s %7s %7s %2s %7s %7s %2s %7s %7s %2s %4s\n", "---", "------", "-----",
                "---------", "---------", "-------", "-------", "  ", "-------", "-------", "  ", "-------", "-------",
                "  ", "----");
        int nd = 0;
        for (const DomDomain& d : h.domains) {
            if (!d.is_reported) continue;
            const DomAliDisplay& ad = d.ad;
            appendf(s, " %3d %c %6.1f %5.1f %9.2g %9.2g %7d %7d %c%c", ++nd, d.is_included ? '!' : '?', d.bitscore,
                    nats_to_bits(d.dombias), hmmer_evalue(d.lnP, q.thresholds.domZ), hmmer_evalue(d.lnP, q.thresholds.Z),
                    ad.hmmfrom, ad.hmmto, ad.hmmfrom == 1 ? '[' : '.', ad.hmmto == ad.M ? ']' : '.');
            appendf(s, " %7ld %7ld %c%c", static_cast<long>(ad.sqfrom), static_cast<long>(ad.sqto),
                    ad.sqfrom == 1 ? '[' : '.', ad.sqto == ad.L ? ']' : '.');
            appendf(s, " %7ld %7ld %c%c", static_cast<long>(d.ienv), static_cast<long>(d.jenv), d.ienv == 1 ? '[' : '.',
                    d.jenv == ad.L ? ']' : '.');
            appendf(s, " %4.2f\n", d.oasc / (1.0 + std::fabs(static_cast<double>(static_cast<float>(d.jenv - d.ienv)))));
        }
        if (!show_ali) {
            s += "\n";
            continue;
        }
        s += "\n  Alignments for each domain:\n";
        nd = 0;
        for (const DomDomain& d : h.domains) {
            if (!d.is_reported) continue;
            appendf(s, "  == domain %d", ++nd);
            appendf(s, "  score: %.1f bits", d.bitscore);
            appendf(s, ";  conditional E-value: %.2g\n", hmmer_evalue(d.lnP, q.thresholds.domZ));
            alignment(s, d.ad, o.acc, textw);
            s += "\n";
        }
    }
    if (q.counts.nreported == 0) s += "\n   [No targets detected that satisfy reporting thresholds]\n";
}

std::string clock_text(double sec) {
    const int h = static_cast<int>(sec / 3600.);
    const int m = static_cast<int>(sec / 60.) - h * 60;
    const int sx = static_cast<int>(sec) - h * 3600 - m * 60;
    const int hs = static_cast<int>(sec * 100.) - h * 360000 - m * 6000 - sx * 100;
    std::string s;
    appendf(s, "%02d:%02d:%02d.%02d", h, m, sx, hs);
    return s;
}

void statistics(std::string& s, const QueryReport& q, const ReportOptions& o, const std::optional<SearchTimes>& times) {
    const PipelineStats& p = q.stats;
    const FilterThresholds f = filter_thresholds(o);
    const double ntargets = static_cast<double>(p.nseqs);
    s += "Internal pipeline statistics summary:\n";
    s += "-------------------------------------\n";
    appendf(s, "Query model(s):              %15ld  (%ld nodes)\n", static_cast<long>(p.nmodels), static_cast<long>(p.nnodes));
    appendf(s, "Target sequences:            %15ld  (%ld residues searched)\n", static_cast<long>(p.nseqs),
            static_cast<long>(p.nres));
    auto passed = [&](const char* label, int64_t n, double F) {
        appendf(s, "%-29s%15ld  (%.6g); expected %.1f (%.6g)\n", label, static_cast<long>(n),
                static_cast<double>(n) / ntargets, F * ntargets, F);
    };
    passed("Passed MSV filter:", p.n_past_msv, f.F1);
    passed("Passed bias filter:", p.n_past_bias, f.F1);
    passed("Passed Vit filter:", p.n_past_vit, f.F2);
    passed("Passed Fwd filter:", p.n_past_fwd, f.F3);
    appendf(s, "Initial search space (Z):    %15.0f  %s\n", q.thresholds.Z,
            q.thresholds.Z_from_option ? "[as set by --Z on cmdline]" : "[actual number of targets]");
    appendf(s, "Domain search space  (domZ): %15.0f  %s\n", q.thresholds.domZ,
            q.thresholds.domZ_from_option ? "[as set by --domZ on cmdline]" : "[number of targets reported over threshold]");
    if (times) {
        appendf(s, "# CPU time: %.2fu %.2fs %s ", times->user, times->sys, clock_text(times->user + times->sys).c_str());
        appendf(s, "Elapsed: %s\n", clock_text(times->elapsed).c_str());
        appendf(s, "# Mc/sec: %.2f\n", static_cast<double>(p.nres) * static_cast<double>(p.nnodes) / (times->elapsed * 1.0e6));
    }
}

}  // namespace

std::string main_output_header(const MainOutputHeader& h, const ReportOptions& o) {
    std::string s;
    appendf(s, "# %s :: search profile(s) against a sequence database\n", h.program.c_str());
    for (const std::string& line : h.banner_lines) appendf(s, "# %s\n", line.c_str());
    s += kRule;
    appendf(s, "# query HMM file:                  %s\n", h.hmm_file.c_str());
    appendf(s, "# target sequence database:        %s\n", h.seq_file.c_str());
    option_lines(s, h, o);
    s += kRule;
    s += "\n";
    return s;
}

std::string main_output_query(const QueryReport& q, const ReportOptions& o, const std::optional<SearchTimes>& times,
                              const std::string& ali_out) {
    const Hmm& hmm = *q.hmm;
    std::string s;
    appendf(s, "Query:       %s  [M=%d]\n", hmm.name.c_str(), hmm.M);
    if (!hmm.acc.empty()) appendf(s, "Accession:   %s\n", hmm.acc.c_str());
    if (!hmm.desc.empty()) appendf(s, "Description: %s\n", hmm.desc.c_str());
    targets_table(s, q, o);
    s += "\n\n";
    domain_annotation(s, q, o);
    s += "\n\n";
    statistics(s, q, o, times);
    s += "//\n";
    if (!ali_out.empty()) {
        int n = 0;
        for (const DomHit& h : q.hits)
            if (h.flags & kHitIncluded)
                for (const DomDomain& d : h.domains) n += d.is_included ? 1 : 0;
        if (n > 0) appendf(s, "# Alignment of %d hits satisfying inclusion thresholds saved to: %s\n", n, ali_out.c_str());
        else s += "# No hits satisfy inclusion thresholds; no alignment saved\n";
    }
    return s;
}

}  // namespace warpdp

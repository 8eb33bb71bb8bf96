// gpu-hmmsearch's set-up: help, environment, clobbering.
#include "tools/hmmer/hmmsearch_setup.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <utility>

#include <sys/stat.h>
#include <unistd.h>

#include "core/base/errors.hpp"
#include "core/io/distinct_paths.hpp"

namespace warpdp {

namespace {

// The value of an environment variable; `otherwise` when unset or empty.
std::string env_or(const char* name, const std::string& otherwise) {
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : otherwise;
}

// WARPDP_FINAL_NICE: an adjustment as nice(1) -n takes it, default 10.
int final_niceness() {
    const std::string text = env_or("WARPDP_FINAL_NICE", "10");
    const bool sign = text[0] == '-' || text[0] == '+';
    const std::string digits = sign ? text.substr(1) : text;
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        throw UsageError("WARPDP_FINAL_NICE " + text + ": expected an integer");
    const int v = static_cast<int>(std::min<uint64_t>(whole_number("WARPDP_FINAL_NICE", digits), 40));  // (40 levels)
    return text[0] == '-' ? -v : v;
}

}  // namespace

std::string own_directory() {
    std::string path(4096, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
    if (n <= 0) throw ResourceError(std::string("cannot find the gpu-hmmsearch executable: ") + std::strerror(errno));
    path.resize(static_cast<size_t>(n));
    return path.substr(0, path.rfind('/'));
}

const char* const kGpuHmmsearchHelp =
    "Usage: gpu-hmmsearch [hmmsearch options] MODELS.hmm TARGETS.fa\n"
    "       gpu-hmmsearch --help | --version | -h\n"
    "\n"
    "hmmsearch with its MSV, bias, Viterbi and Forward filters run by gpu-viterbi (on a GPU\n"
    "when one is visible, else on the CPU) and the stages after them (domain definition,\n"
    "null2, alignments, thresholds, the five outputs) run by warpdp itself, as HMMER 3.3.2\n"
    "computes them: the outputs equal plain hmmsearch's byte for byte but for the banner,\n"
    "the tables' program, version, command and date lines, and the timings. It takes\n"
    "hmmsearch's command line (-h shows hmmsearch's options). The targets are a FASTA file\n"
    "(plain or gzip). Outputs (-o, --tblout, --domtblout, -A, --pfamtblout) appear whole once\n"
    "the search has succeeded, or not at all.\n"
    "\n"
    "Covered (no hmmsearch needed): -o -A --tblout --domtblout --pfamtblout --acc --noali\n"
    "--notextw --textw -E -T --domE --domT --incE --incT --incdomE --incdomT --cut_ga --cut_nc\n"
    "--cut_tc -Z --domZ --seed (but 0) --nobias --nonull2 --F1 --F2 --F3 --cpu, on HMMER3 amino\n"
    "models. Anything else (--max, --seed 0, --restrictdb_n, --restrictdb_stkey, --ssifile,\n"
    "values hmmsearch refuses, HMMER2, hmmpress'd and DNA/RNA models) runs through hmmsearch,\n"
    "with one warning saying why: on the survivors, or plain hmmsearch where nothing can be\n"
    "filtered.\n"
    "\n"
    "--cpu N bounds the threads of the whole search, as it does hmmsearch's: the filters take\n"
    "at most N, then the last stage N (and where hmmsearch runs it, its runs share N worker\n"
    "threads, none beside the filters; --cpu 0 runs one serial hmmsearch at a time). Without\n"
    "--cpu, every stage takes all the cores this process may use.\n"
    "\n"
    "Environment:\n"
    "  WARPDP_DEVICE       the filters' and the last stage's --device (auto, cpu, cuda, cuda:0,1; default auto)\n"
    "  WARPDP_THREADS      the filters' threads (default: all cores; at most --cpu's N)\n"
    "  HMMSEARCH           the hmmsearch program (default: hmmsearch, looked up in PATH)\n"
    "  WARPDP_LAST_STAGE   warpdp (default) or hmmsearch: who runs the stages after the filters\n"
    "  WARPDP_TIMES=1      the stages' wall times on stderr\n"
    "  WARPDP_TRACE=1      a timeline of events on stderr\n"
    "  WARPDP_FORWARD=0    leave the Forward filter to hmmsearch\n"
    "  WARPDP_SPREAD       runs per model (gpu-viterbi --spread)\n"
    "  WARPDP_FINAL_JOBS   concurrent final hmmsearch runs (default: one per model, at most\n"
    "                      one per core, or per thread of --cpu; never more than --cpu's N)\n"
    "  WARPDP_FINAL_NICE   niceness added to final runs that search beside the filters (10)\n"
    "  TMPDIR              where the scratch directory goes (default /tmp)\n"
    "\n"
    "Exit codes: 0 success, 1 usage, 2 bad input, 3 resources (an output that cannot be\n"
    "written, ...), 4 internal error (also: hmmsearch killed by a signal); hmmsearch's own\n"
    "refusals exit as hmmsearch does.\n";

std::string hmmsearch_program() { return env_or("HMMSEARCH", "hmmsearch"); }

FilteredHmmsearchSettings hmmsearch_settings_from_environment() {
    FilteredHmmsearchSettings settings;
    settings.hmmsearch = hmmsearch_program();
    if (const std::string v = env_or("WARPDP_FINAL_JOBS", ""); !v.empty())
        settings.final_jobs = whole_number("WARPDP_FINAL_JOBS", v);
    settings.spread = env_or("WARPDP_SPREAD", "");
    if (!settings.spread.empty()) whole_number("WARPDP_SPREAD", settings.spread);
    settings.threads = env_or("WARPDP_THREADS", "0");
    whole_number("WARPDP_THREADS", settings.threads);
    settings.final_niceness = final_niceness();
    settings.device = env_or("WARPDP_DEVICE", "auto");
    settings.forward = env_or("WARPDP_FORWARD", "1") == "1";
    settings.times = !env_or("WARPDP_TIMES", "").empty();
    const std::string last = env_or("WARPDP_LAST_STAGE", "warpdp");
    if (last != "warpdp" && last != "hmmsearch")
        throw UsageError("WARPDP_LAST_STAGE must be warpdp or hmmsearch, not " + last);
    settings.own_last_stage = last == "warpdp";
    return settings;
}

void refuse_clobbering(const HmmsearchCommand& c) {
    const std::pair<const char*, const std::string*> outs[] = {{"-o", &c.main_out},
                                                               {"--tblout", &c.tbl_out},
                                                               {"--domtblout", &c.dom_out},
                                                               {"-A", &c.ali_out},
                                                               {"--pfamtblout", &c.pfam_out}};
    for (size_t i = 0; i < std::size(outs); ++i) {
        const std::string& o = *outs[i].second;
        struct stat st {};
        if (o.empty() || o == "-" || (::stat(o.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) continue;
        for (const std::string* in : {&c.models, &c.targets})
            if (*in != "-" && same_file(o, *in))
                throw UsageError(std::string(outs[i].first) + " " + o + " is an input: writing it would replace it");
        for (size_t j = 0; j < i; ++j)
            if (!outs[j].second->empty() && same_file(o, *outs[j].second))
                throw UsageError(std::string(outs[j].first) + " and " + outs[i].first + " both name " + o +
                                 ": one output would replace the other");
    }
}


}  // namespace warpdp

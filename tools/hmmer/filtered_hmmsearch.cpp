// run_filtered_hmmsearch: the search's stages, its child processes and
// their failures.
#include "tools/hmmer/filtered_hmmsearch.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/base/trace.hpp"
#include "core/hmmer/domains/dom_engine.hpp"
#include "core/hmmer/hmm_reader.hpp"
#include "core/io/fasta_headers.hpp"
#include "core/io/output_file.hpp"
#include "tools/common/child_process.hpp"
#include "tools/common/stop_signal_watch.hpp"
#include "tools/common/temp_dir.hpp"
#include "tools/common/tool_main.hpp"
#include "tools/hmmer/hmmsearch_last_stage.hpp"
#include "tools/hmmer/hmmsearch_last_stage_engine.hpp"
#include "tools/hmmer/hmmsearch_options.hpp"
#include "tools/hmmer/hmmsearch_stitch.hpp"
#include "tools/hmmer/hmmsearch_report_options.hpp"
#include "tools/hmmer/hmmsearch_threads.hpp"
#include "tools/hmmer/query_models.hpp"
#include "warpdp_build_config.hpp"

namespace warpdp {

namespace {

constexpr const char* kTool = "gpu-hmmsearch";

// hmmsearch is exact to the byte only without -Z: it keeps a hit when its
// E-value is reportable against the number of targets read *so far* (with
// threads: by the worker that read it), and sizes its name columns over
// every kept hit, reported or not; with -Z every hit is judged against the
// whole database, so a long-named weak hit early in the file is not kept and
// a column is narrower. So the survivors go in place (gpu-viterbi
// --in-place: each at its record number, an empty record for every other
// target) to a run without -Z, which reads the records as the plain run
// reads them: serial runs (--cpu 0 or 1) count as the plain run counts, and
// threaded runs are dealt the same blocks of records (1,000 each), whatever
// the number of threads: a database of one block is exact. Which worker
// takes which block of several depends on timing and on the number of
// threads, in plain hmmsearch too, so there a threaded run is exact only as
// often as plain hmmsearch repeats itself; and reading the empty records
// costs a threaded run 15-25% on a million targets (docs/benchmarks.md). So
// threaded runs on a database file over this size take -Z and all the
// cores' speed; on smaller ones the empty records cost a few milliseconds.
constexpr uint64_t kInPlaceBytes = uint64_t{64} << 20;

// The cores this process may run on (as nproc counts them).
uint64_t available_cores() {
    cpu_set_t set;
    if (::sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<uint64_t>(std::max(1, CPU_COUNT(&set)));
    return std::max<long>(1, ::sysconf(_SC_NPROCESSORS_ONLN));
}

double seconds_now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool is_regular(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

// The first two lines of a file that are not empty, joined by a blank.
std::string first_lines(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line, lines;
    for (int kept = 0; kept < 2 && std::getline(in, line);) {
        if (line.empty()) continue;
        lines += (kept++ ? " " : "") + line;
    }
    return lines;
}

// Why a hmmsearch run failed: the first two lines of what it printed (its
// first: "Error: ..." or "Fatal exception (source file ..., line ...):"
// then the reason), else the signal that ended it.
std::string failure_reason(const std::string& output, const ExitStatus& status) {
    if (std::string why = first_lines(output); !why.empty()) return why;
    if (status.signal != 0)
        return "killed by signal " + std::to_string(status.signal) + " (" + signal_name(status.signal) + ")";
    return "no message";
}

// The exit code a child's failure passes on: its own, or 4 (internal) for a
// child a signal ended.
int passed_on(const ExitStatus& status) {
    const int rc = status.shell_code();
    return rc < 128 ? rc : static_cast<int>(ExitCode::internal);
}

// A descriptor that closes itself.
struct OwnedFd {
    int fd = -1;
    ~OwnedFd() {
        if (fd >= 0) ::close(fd);
    }
};

// One search: its scratch directory, its children (declared after the
// directory, so that they are gone before it is removed) and its stages.
class Search {
public:
    Search(const HmmsearchCommand& command, const FilteredHmmsearchSettings& settings, const StopSignalWatch& watch)
        : cmd_(command), settings_(settings), watch_(watch), tmp_("gpu-hmmsearch") {}

    // The children go first: all are told to stop at once, then each
    // destructor waits for its own.
    ~Search() {
        for (auto& [i, run] : runs_) run->terminate();
        if (check_) check_->terminate();
        if (filters_) filters_->terminate();
    }

    int run();

private:
    void copy_models();
    void plain_hmmsearch(const std::string& why);
    void run_whole(std::vector<std::string> argv, const std::vector<std::string>& options, const std::string& models,
                   const std::string& targets, const std::string& stdin_path);
    void deliver_whole() const;
    std::vector<std::string> filters_command() const;
    int run_streamed();
    int run_after_filters();
    int run_own_last_stage(const std::vector<Hmm>& hmms);
    void start_options_check();
    void check_options(bool wait);
    void launch_run(size_t model, const std::string& targets, int niceness);
    void reap(bool filters_too);
    void filters_ended();
    nlohmann::json stats() const;
    void refuse_overlong(const nlohmann::json& stats) const;
    void deliver() const;
    std::string model_file(size_t model, const char* ext) const {
        return tmp_.file("model." + std::to_string(model) + "." + ext);
    }

    const HmmsearchCommand& cmd_;
    const FilteredHmmsearchSettings& settings_;
    const StopSignalWatch& watch_;
    TempDir tmp_;  // declared before the children: they are gone before it is removed
    std::string hmm_;  // the models as read: cmd_.models, or a copy of what can be read once
    std::vector<QueryModel> models_;
    std::vector<size_t> order_;  // model numbers (from 1), longest model first
    uint64_t cores_ = 1;
    std::optional<HmmsearchThreads> threads_;  // the filters', the runs' and how many at once
    std::map<size_t, uint64_t> run_threads_;   // each final run's share, by model number
    bool in_place_ = false;
    bool max_ = false;  // --max: the filters pass everything
    std::vector<std::string> options_;  // cmd_.options, with --cpu
    std::vector<std::string> zopt_;     // -Z and the number of targets, or nothing
    double t_start_ = 0, t_filters_ = -1;
    std::unique_ptr<ChildProcess> filters_;
    std::unique_ptr<ChildProcess> check_;                  // hmmsearch's check of the options
    std::map<size_t, std::unique_ptr<ChildProcess>> runs_;  // the final runs still going, by model number
    // run_whole()'s scratch outputs, and the names they show that the user's replace
    OutputFiles whole_;
    std::vector<std::pair<std::string, std::string>> whole_renames_;
};

int Search::run() {
    // Stdin, a FIFO, <(...): read once, and the models are read more than once.
    if (cmd_.models == "-" || (exists(cmd_.models) && !is_regular(cmd_.models))) {
        copy_models();
        hmm_ = tmp_.file("query.hmm");
    } else {
        hmm_ = cmd_.models;
    }
    // hmmsearch also reads HMMER2 text and hmmpress'd binary models, which
    // the filters do not: those get plain hmmsearch, with its results. A
    // file that is no model at all is refused here, for plain hmmsearch too.
    const ModelFileKind kind = model_file_kind(hmm_, cmd_.models);
    // --max is every filter at P = 1 and no bias filter: warpdp's last stage
    // then meets every target. The options that pick targets by their place
    // in the database go to plain hmmsearch.
    const bool only_max = cmd_.plain_only && std::find(cmd_.options.begin(), cmd_.options.end(), "--max") != cmd_.options.end() &&
                          last_stage_refusal(cmd_.options).empty();
    if (cmd_.plain_only && !(only_max && settings_.own_last_stage)) {
        plain_hmmsearch(settings_.own_last_stage ? "--restrictdb_n, --restrictdb_stkey and --ssifile are not covered" : "");
        return 0;
    }
    max_ = cmd_.plain_only;
    if (kind != ModelFileKind::hmmer3_text) {
        plain_hmmsearch(cmd_.models + " is not a HMMER3 text model file (HMMER2 or hmmpress'd binary?)");
        return 0;
    }
    // warpdp's own last stage reads the models whole and needs no model's
    // text alone; hmmsearch's runs get a file a model.
    const std::string refused = settings_.own_last_stage ? last_stage_refusal(cmd_.options) : "";
    const bool own = settings_.own_last_stage && refused.empty();
    std::vector<Hmm> hmms;
    if (own) hmms = read_query_hmms(hmm_, cmd_.models, cmd_.cutoff, models_);
    else models_ = split_query_models(hmm_, cmd_.models, tmp_.path(), cmd_.cutoff);
    if (models_.empty()) throw InternalError("no model in " + cmd_.models);
    // The filters score amino models against protein targets; hmmsearch also
    // searches DNA or RNA targets with nucleotide models: those get plain
    // hmmsearch too.
    for (const QueryModel& m : models_)
        if (m.alph != AlphabetKind::amino) {
            plain_hmmsearch(cmd_.models + " holds " + std::string(Alphabet::of(m.alph).name()) +
                            " models, and the filters score amino models only");
            return 0;
        }
    // hmmsearch stops at the first model without the bit thresholds that
    // --cut_ga/--cut_tc/--cut_nc ask for, after the results of the models
    // before it; here the outputs appear whole or not at all, so that model
    // is named before any work.
    for (const QueryModel& m : models_)
        if (!m.has_cutoff) throw UsageError(cmd_.cutoff + " bit thresholds unavailable on model " + m.name);
    for (size_t i = 1; i <= models_.size(); ++i) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](size_t a, size_t b) { return models_[a - 1].length > models_[b - 1].length; });

    // Threads change what hmmsearch prints only in the weak hits it keeps
    // unseen, which size its name columns: without --cpu, every core.
    cores_ = std::max<uint64_t>(1, cmd_.cpu.empty() ? available_cores() : cmd_.cpu_threads);
    options_ = cmd_.options;
    if (cmd_.cpu.empty()) {
        options_.push_back("--cpu");
        options_.push_back(std::to_string(cores_));
    }
    // hmmsearch's --cpu bounds every thread of the search (docs/hmmer-filters.md §9.4).
    threads_.emplace(cmd_.cpu.empty() ? std::nullopt : std::optional<uint64_t>(cmd_.cpu_threads), available_cores(),
                     models_.size(), settings_.final_jobs, settings_.threads);
    t_start_ = seconds_now();
    struct stat st {};
    const uint64_t db_bytes = ::stat(cmd_.targets.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
    in_place_ = (!cmd_.cpu.empty() && cmd_.cpu_threads <= 1) || db_bytes <= kInPlaceBytes;

    // With several models that each have a run of their own from the start,
    // the runs search while the filters still run: gpu-viterbi writes each
    // model's survivors, chunk by chunk, into a FIFO that model's hmmsearch
    // reads. -Z must then be known before: the records are counted here, and
    // gpu-viterbi's count must agree (so only for FASTA). For one model the
    // runs' competition for the cores made the filters slower
    // (docs/benchmarks.md), so one model takes the other path; and under
    // --cpu nothing runs beside the filters.
    if (own) refuse_models_without_consensus(hmms);
    else if (settings_.own_last_stage) warn(kTool, refused + ": hmmsearch runs the stages after the filters");
    const bool streamed = cmd_.splittable && !threads_->capped() && models_.size() >= 2 &&
                          models_.size() <= threads_->jobs() && starts_with_fasta_header(cmd_.targets);
    const int rc = own ? run_own_last_stage(hmms) : streamed ? run_streamed() : run_after_filters();
    trace_event("wrapper-end");
    if (settings_.times) {
        const double end = seconds_now();
        std::fprintf(stderr, "%s: filters done after %.3f s, all done after %.3f s\n", kTool,
                     (t_filters_ < 0 ? t_start_ : t_filters_) - t_start_, end - t_start_);
    }
    return rc;
}

// The filters write each model's survivors in place (so that record
// numbers are hmmsearch's count of targets read); warpdp's last stage
// searches them and writes the five outputs (docs/hmmer-filters.md §16.7).
int Search::run_own_last_stage(const std::vector<Hmm>& hmms) {
    in_place_ = true;
    const std::string dir = tmp_.file("survivors");
    if (::mkdir(dir.c_str(), 0700) != 0) throw ResourceError("cannot make " + dir + ": " + std::strerror(errno));
    std::vector<std::string> argv = filters_command();
    argv.insert(argv.end(), {"--model-survivors", dir});
    SpawnOptions quiet;
    quiet.stdout_path = "/dev/null";
    filters_ = std::make_unique<ChildProcess>(argv, quiet);
    const ExitStatus& status = filters_->wait(watch_);
    if (!status.ok()) {
        const int rc = status.shell_code();
        throw ChildFailure("the filters failed (gpu-viterbi exit status " + std::to_string(rc) + ")",
                           rc > 0 && rc < 128 ? rc : static_cast<int>(ExitCode::internal));
    }
    t_filters_ = seconds_now();
    trace_event("filters-out");
    LastStageInput in;
    in.filters = stats();
    refuse_overlong(in.filters);
    in.models = hmm_;
    in.survivors_dir = dir;
    in.report = read_report_options(cmd_.options);
    in.header.banner_lines = {std::string("warpdp ") + WARPDP_VERSION + ": HMMER 3.3.2's search, filters on GPU or CPU",
                              "Copyright (C) the warpdp authors.", "Freely distributed under the MIT license."};
    in.header.hmm_file = cmd_.models;
    in.header.seq_file = cmd_.targets;
    in.header.main_out = cmd_.main_out;
    in.header.ali_out = cmd_.ali_out;
    in.header.tbl_out = cmd_.tbl_out;
    in.header.dom_out = cmd_.dom_out;
    in.header.pfam_out = cmd_.pfam_out;
    for (size_t i = 0; i + 1 < cmd_.options.size(); ++i)
        if (cmd_.options[i] == "--tformat") in.header.tformat = cmd_.options[i + 1];
    if (!cmd_.cpu.empty() && !spelled_as_default(*find_hmmsearch_option("--cpu"), cmd_.cpu))
        in.header.cpu = static_cast<int>(cmd_.cpu_threads);
    in.tail.version = std::string("warpdp ") + WARPDP_VERSION;
    in.tail.query_file = cmd_.models;
    in.tail.target_file = cmd_.targets;
    in.tail.option_settings = kTool;
    for (const std::string& a : cmd_.options) in.tail.option_settings += " " + a;
    in.tail.option_settings += " " + cmd_.models + " " + cmd_.targets;
    if (char* cwd = ::getcwd(nullptr, 0)) {
        in.tail.current_dir = cwd;
        std::free(cwd);
    }
    const std::time_t now = std::time(nullptr);
    char date[64] = {};
    ::ctime_r(&now, date);
    in.tail.date = date;
    if (!in.tail.date.empty() && in.tail.date.back() == '\n') in.tail.date.pop_back();
    in.ali_out = cmd_.ali_out;
    in.author = std::string(kTool) + " (warpdp " + WARPDP_VERSION + ")";
    in.start_seconds = t_start_;
    in.stop_check = [this] { watch_.throw_if_stopped(); };
    // (the filters have ended: the search takes the whole thread budget)
    const LastStageEngines engines = make_last_stage_engines(
        kTool, settings_.device, static_cast<unsigned>(threads_->budget()), last_stage_cells(in, hmms));
    const double t_last = seconds_now();
    const LastStageTexts texts = run_last_stage(in, hmms, engines);
    if (settings_.times) {
        // (the stages' seconds are summed over the workers' engines)
        const DomStageSeconds& s = texts.seconds;
        std::fprintf(stderr,
                     "%s: last stage on %s, %.3f s: parsers %.3f s, planning %.3f s, envelopes %.3f s "
                     "(alignment %.3f s), finish %.3f s\n",
                     kTool, texts.engine.c_str(), seconds_now() - t_last, s.parsers, s.planning, s.envelopes,
                     s.alignment, s.finish);
    }
    filters_->release();
    std::vector<PendingOutput> outputs{{cmd_.main_out, [&](OutputFile& f) { f.write(texts.main); }}};
    const std::pair<const std::string*, const std::string*> more[] = {
        {&cmd_.tbl_out, &texts.tbl}, {&cmd_.dom_out, &texts.dom}, {&cmd_.ali_out, &texts.ali}, {&cmd_.pfam_out, &texts.pfam}};
    for (const auto& [user, text] : more)
        if (!user->empty()) outputs.push_back({*user, [text](OutputFile& f) { f.write(*text); }});
    watch_.throw_if_stopped();  // (a stopped run changes no output)
    deliver_outputs(outputs);
    return 0;
}

void Search::copy_models() {
    const std::string& from = cmd_.models;
    auto fail = [&]() { return InputError(from, 0, std::string("cannot read the models: ") + std::strerror(errno)); };
    auto cannot_copy = [&]() {
        return ResourceError("cannot write " + tmp_.file("query.hmm") + ": " + std::strerror(errno));
    };
    OwnedFd in;
    if (from == "-") {
        in.fd = ::fcntl(0, F_DUPFD_CLOEXEC, 0);
    } else {
        // (a FIFO's open waits for its writer; a stop signal interrupts it,
        // and one that came before the open is seen before it)
        watch_.throw_if_stopped();
        while ((in.fd = ::open(from.c_str(), O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR) watch_.throw_if_stopped();
    }
    if (in.fd < 0) throw fail();
    std::ofstream out(tmp_.file("query.hmm"), std::ios::binary);
    std::vector<char> buf(1 << 16);
    for (;;) {
        pollfd fds[2] = {{watch_.wake_fd(), POLLIN, 0}, {in.fd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR) throw fail();
        watch_.drain();
        watch_.throw_if_stopped();
        if (fds[1].revents == 0) continue;
        const ssize_t n = ::read(in.fd, buf.data(), buf.size());
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            throw fail();
        }
        if (!out.write(buf.data(), n)) throw cannot_copy();
    }
    if (!out.flush()) throw cannot_copy();
}

void Search::plain_hmmsearch(const std::string& why) {
    if (!why.empty()) warn(kTool, why + ": running plain hmmsearch");
    // (the models from stdin go there again)
    const bool from_stdin = cmd_.models == "-";
    run_whole({settings_.hmmsearch}, cmd_.options, from_stdin ? "-" : hmm_, cmd_.targets, from_stdin ? hmm_ : "");
    deliver_whole();
}

// One hmmsearch over all the models (`argv` and `options` before the files),
// writing every output the user asked for to a scratch file of its own, its
// main output too (its stdout, without -o); its complaints go to another.
// A failure throws ChildFailure with hmmsearch's message and exit code (4
// for a run a signal ended: docs/hmmer-filters.md §9.4), before any output
// of the user's has changed; deliver_whole() then delivers them.
void Search::run_whole(std::vector<std::string> argv, const std::vector<std::string>& options,
                       const std::string& models, const std::string& targets, const std::string& stdin_path) {
    const std::pair<const std::string*, std::string*> outs[] = {{&cmd_.main_out, &whole_.main},
                                                                {&cmd_.tbl_out, &whole_.tbl},
                                                                {&cmd_.dom_out, &whole_.dom},
                                                                {&cmd_.ali_out, &whole_.ali},
                                                                {&cmd_.pfam_out, &whole_.pfam}};
    const std::string main = tmp_.file("whole.main"), err = tmp_.file("whole.err");
    int n = 0;
    for (const auto& [user, scratch] : outs) {
        ++n;
        if (user->empty()) continue;
        *scratch = n == 1 ? main : tmp_.file("whole." + std::to_string(n));
        whole_renames_.emplace_back(*scratch, *user);
    }
    if (models != cmd_.models) whole_renames_.emplace_back(models, cmd_.models);
    if (targets != cmd_.targets) whole_renames_.emplace_back(targets, cmd_.targets);
    const std::vector<std::string> opts = with_output_files(options, whole_);
    argv.insert(argv.end(), opts.begin(), opts.end());
    argv.insert(argv.end(), {models, targets});
    SpawnOptions o;
    o.stdin_path = stdin_path;
    if (whole_.main.empty()) {
        o.stdout_path = main;
        o.stderr_path = err;
    } else {
        o.stdout_path = err;
        o.stderr_to_stdout = true;
    }
    ChildProcess run(argv, o);
    const ExitStatus status = run.wait(watch_);
    if (!status.ok()) {
        std::string why = first_lines(err);
        if (why.empty() && whole_.main.empty()) {  // (a refused command line is printed to stdout)
            const std::string out = first_lines(main);
            if (!out.empty() && out[0] != '#') why = out;
        }
        if (why.empty()) why = failure_reason(err, status);
        throw ChildFailure("hmmsearch failed (exit status " + std::to_string(status.shell_code()) + "): " + why,
                           passed_on(status));
    }
    // What it said beside a success (warnings) is passed on.
    std::ifstream said(err, std::ios::binary);
    std::cerr << said.rdbuf();
    std::cerr.clear();  // (an empty file sets failbit)
    if (whole_.main.empty()) whole_.main = main;  // (stdout's content, for delivery)
}

void Search::deliver_whole() const {
    auto copy = [this](const std::string& scratch) {
        return [this, scratch](OutputFile& f) { copy_renamed(scratch, whole_renames_, f); };
    };
    std::vector<PendingOutput> outputs{{cmd_.main_out, copy(whole_.main)}};
    const std::pair<const std::string*, const std::string*> more[] = {{&cmd_.tbl_out, &whole_.tbl},
                                                                      {&cmd_.dom_out, &whole_.dom},
                                                                      {&cmd_.ali_out, &whole_.ali},
                                                                      {&cmd_.pfam_out, &whole_.pfam}};
    for (const auto& [user, scratch] : more)
        if (!user->empty()) outputs.push_back({*user, copy(*scratch)});
    deliver_outputs(outputs);
}

// The MSV, bias, Viterbi and Forward filters in one process (the decisions
// of `gpu-msv | gpu-viterbi --candidates - --forward`, with one database
// read): hmmsearch then meets only the Forward passers, and its work is
// their Backward and domain stages. hmmsearch hands its threads blocks of
// 1,000 records, so a few hundred survivors would keep one thread busy:
// --spread cuts each model's survivors into runs of equal expected work, two
// per thread, topped up with empty records
// (core/hmmer/pipeline/survivors_file.hpp says why hmmsearch's output cannot
// change; fewer runs leave threads idle, more cost more in reading empty
// records than they gain: docs/benchmarks.md).
std::vector<std::string> Search::filters_command() const {
    const std::string one = "1";
    std::vector<std::string> a{settings_.filters, "--hmm", hmm_, "--db", cmd_.targets, "--msv", "--F1", max_ ? one : cmd_.F1};
    if (cmd_.nobias || max_) a.push_back("--nobias");
    a.insert(a.end(), {"--F2", max_ ? one : cmd_.F2});
    if (settings_.forward) a.insert(a.end(), {"--forward", "--F3", max_ ? one : cmd_.F3});
    if (in_place_) a.push_back("--in-place");
    else
        a.insert(a.end(),
                 {"--spread", settings_.spread.empty() ? std::to_string(2 * threads_->widest()) : settings_.spread});
    a.insert(a.end(), {"--stats", tmp_.file("vit.json"), "--device", settings_.device, "--threads", threads_->filters(),
                       "--quiet"});
    return a;
}

int Search::run_streamed() {
    const std::string fifos = tmp_.file("s");
    if (::mkdir(fifos.c_str(), 0700) != 0) throw ResourceError("cannot make " + fifos + ": " + std::strerror(errno));
    for (size_t i = 1; i <= models_.size(); ++i) {
        const std::string fifo = fifos + "/" + std::to_string(i) + ".fa";
        if (::mkfifo(fifo.c_str(), 0600) != 0) throw ResourceError("cannot make " + fifo + ": " + std::strerror(errno));
    }
    std::vector<std::string> argv = filters_command();
    argv.insert(argv.end(), {"--model-survivors", fifos});
    SpawnOptions quiet;
    quiet.stdout_path = "/dev/null";
    filters_ = std::make_unique<ChildProcess>(argv, quiet);
    start_options_check();
    bool counted = false;
    uint64_t Z = 0;
    if (!cmd_.has_Z && !in_place_) {
        Z = count_fasta_headers(cmd_.targets, [&] {
            watch_.throw_if_stopped();
            check_options(false);
        });
        zopt_ = {"-Z", std::to_string(Z)};
        counted = true;
    }
    check_options(true);
    if (counted && Z == 0) {  // nothing to search: gpu-viterbi says why
        reap(true);
        throw ChildFailure("no sequences in " + cmd_.targets, static_cast<int>(ExitCode::input));
    }
    // The filters come first: the runs take the cores they leave idle.
    for (size_t i : order_) launch_run(i, fifos + "/" + std::to_string(i) + ".fa", settings_.final_niceness);
    reap(true);
    const nlohmann::json s = stats();
    refuse_overlong(s);
    if (counted) {
        const std::string reported = s.contains("Z") ? s["Z"].dump() : "";
        if (reported != std::to_string(Z))
            throw ChildFailure("the database holds " + reported + " records for gpu-viterbi but " + std::to_string(Z) +
                                   " lines start with '>'",
                               static_cast<int>(ExitCode::internal));
    }
    deliver();
    return 0;
}

// The survivors of all models in one file, then the final search.
// gpu-viterbi closes its stdout as soon as its files are complete, before it
// frees its engines: the search starts at that end of file.
int Search::run_after_filters() {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) throw ResourceError(std::string("cannot make a pipe: ") + std::strerror(errno));
    OwnedFd out{ends[0]};
    ::fcntl(out.fd, F_SETFL, ::fcntl(out.fd, F_GETFL) | O_NONBLOCK);
    // Under --cpu the options' check (one serial run) goes first, alone:
    // beside the filters it would be a thread more than --cpu.
    if (threads_->capped()) {
        start_options_check();
        check_options(true);
    }
    std::vector<std::string> argv = filters_command();
    const std::string targets = tmp_.file("targets.fa");
    argv.insert(argv.end(), {"--survivors", targets});
    SpawnOptions to_pipe;
    to_pipe.stdout_fd = ends[1];
    try {
        filters_ = std::make_unique<ChildProcess>(argv, to_pipe);
    } catch (...) {
        ::close(ends[1]);
        throw;
    }
    ::close(ends[1]);  // gpu-viterbi's is now the only write end: its close is the end of file
    if (!threads_->capped()) start_options_check();
    std::vector<char> sink(1 << 16);
    for (bool open = true; open;) {
        std::vector<ChildProcess*> check;
        if (check_) check.push_back(check_.get());
        wait_for_any(watch_, check, out.fd);
        check_options(false);
        for (;;) {  // (gpu-viterbi's rows, which nobody reads)
            const ssize_t n = ::read(out.fd, sink.data(), sink.size());
            if (n > 0) continue;
            if (n == 0) open = false;
            else if (errno == EINTR) continue;
            else if (errno != EAGAIN)
                throw ResourceError(std::string("cannot read gpu-viterbi's output: ") + std::strerror(errno));
            break;
        }
    }
    check_options(true);
    struct stat st {};
    if (::stat(tmp_.file("vit.json").c_str(), &st) != 0 || st.st_size == 0) {
        const ExitStatus& status = filters_->wait(watch_);
        const int rc = status.shell_code();
        throw ChildFailure("the filters failed (gpu-viterbi exit status " + std::to_string(rc) + ")",
                           rc > 0 && rc < 128 ? rc : static_cast<int>(ExitCode::internal));
    }
    filters_->renice(19);  // its teardown must not slow hmmsearch down
    t_filters_ = seconds_now();
    trace_event("filters-out");
    const nlohmann::json s = stats();
    if (!s.contains("Z") || !s["Z"].is_number_unsigned())
        throw ChildFailure("gpu-viterbi did not report the database size", static_cast<int>(ExitCode::internal));
    refuse_overlong(s);
    if (!cmd_.has_Z && !in_place_) zopt_ = {"-Z", s["Z"].dump()};
    // hmmsearch refuses an empty file, and skips empty targets.
    if (::stat(targets.c_str(), &st) == 0 && st.st_size == 0) {
        std::ofstream empty(targets, std::ios::binary);
        empty << ">warpdp-empty\n";
        if (!empty.flush()) throw ResourceError("cannot write " + targets);
    }
    if (!cmd_.splittable) {
        std::vector<std::string> front{settings_.hmmsearch};
        front.insert(front.end(), zopt_.begin(), zopt_.end());
        run_whole(front, options_, hmm_, targets, "");
        reap(true);
        deliver_whole();
        return 0;
    }
    for (size_t i : order_) {
        launch_run(i, targets, 0);
        if (runs_.size() >= threads_->jobs()) reap(false);
    }
    while (!runs_.empty()) reap(false);
    deliver();
    // Nor is the end of gpu-viterbi's teardown waited for: it commits its
    // survivors and --stats before it closes its stdout, and writes --stats
    // only when it succeeds, so its work here is done.
    filters_->release();
    return 0;
}

// hmmsearch checks its options before it reads a target, and refuses some
// values only there (-E 0, --textw 50, ...): a run on the first model and
// one empty target checks them beside the filters, and one it refuses stops
// the filters instead of failing the first final run after the whole filter
// stage.
void Search::start_options_check() {
    const std::string targets = tmp_.file("preflight.fa");
    {
        std::ofstream f(targets, std::ios::binary);
        f << ">warpdp-preflight\n";
        if (!f.flush()) throw ResourceError("cannot write " + targets);
    }
    std::vector<std::string> argv{settings_.hmmsearch};
    const std::vector<std::string> options = options_check_options(cmd_);
    argv.insert(argv.end(), options.begin(), options.end());
    argv.insert(argv.end(), {"--cpu", "0", "-o", "/dev/null", models_.front().file, targets});
    SpawnOptions to_file;
    to_file.stdout_path = tmp_.file("preflight.err");
    to_file.stderr_to_stdout = true;
    check_ = std::make_unique<ChildProcess>(argv, to_file);
}

// Once the check has ended (wait: once it ends): a refusal ends the run with
// hmmsearch's message, and the destructors stop the filters.
void Search::check_options(bool wait) {
    if (!check_) return;
    if (wait) check_->wait(watch_);
    else if (!check_->poll()) return;
    const ExitStatus status = check_->status();
    check_.reset();
    if (status.ok()) return;
    const std::string why = failure_reason(tmp_.file("preflight.err"), status);
    const int rc = status.shell_code();
    if (rc > 128)
        throw ChildFailure("hmmsearch failed (exit status " + std::to_string(rc) + ") checking the options: " + why,
                           static_cast<int>(ExitCode::internal));
    throw ChildFailure("hmmsearch refuses the options: " + why, rc);
}

// The final search runs one hmmsearch per model, concurrently, longest models
// first: each query's results are independent of the others' (Z is fixed by
// -Z, domZ is per query), and one run over all models would search them one
// after another, each ending with a tail in which a few threads work.
void Search::launch_run(size_t model, const std::string& targets, int niceness) {
    std::vector<std::string> argv{settings_.hmmsearch};
    argv.insert(argv.end(), zopt_.begin(), zopt_.end());
    argv.insert(argv.end(), cmd_.per_model_options.begin(), cmd_.per_model_options.end());
    const uint64_t threads = threads_->take();
    argv.insert(argv.end(), {"--cpu", threads_->cpu_option(threads)});
    argv.insert(argv.end(), {"-o", model_file(model, "out")});
    if (!cmd_.tbl_out.empty()) argv.insert(argv.end(), {"--tblout", model_file(model, "tbl")});
    if (!cmd_.dom_out.empty()) argv.insert(argv.end(), {"--domtblout", model_file(model, "dom")});
    argv.insert(argv.end(), {models_[model - 1].file, targets});
    SpawnOptions options;
    // (with -o, hmmsearch's stdout carries only its complaints)
    options.stdout_path = model_file(model, "err");
    options.stderr_to_stdout = true;
    options.niceness = niceness;
    try {
        runs_[model] = std::make_unique<ChildProcess>(argv, options);
    } catch (...) {
        threads_->give(threads);
        throw;
    }
    run_threads_[model] = threads;
    trace_event("final-start", model);
}

// Waits for the next end among the final runs (and the filters, when
// filters_too); the first failure ends the search.
void Search::reap(bool filters_too) {
    for (;;) {
        std::vector<ChildProcess*> live;
        if (filters_too && filters_) live.push_back(filters_.get());
        for (auto& [i, run] : runs_) live.push_back(run.get());
        if (live.empty()) return;
        wait_for_any(watch_, live);
        if (filters_too && filters_ && filters_->finished()) filters_ended();
        for (auto it = runs_.begin(); it != runs_.end();) {
            if (!it->second->finished()) {
                ++it;
                continue;
            }
            const size_t model = it->first;
            const ExitStatus status = it->second->status();
            it = runs_.erase(it);
            threads_->give(run_threads_[model]);
            run_threads_.erase(model);
            trace_event("final-end", model);
            if (!status.ok())
                throw ChildFailure("hmmsearch failed (exit status " + std::to_string(status.shell_code()) +
                                       ") on model " + std::to_string(model) + " of " + cmd_.models + ": " +
                                       failure_reason(model_file(model, "err"), status),
                                   passed_on(status));
        }
        if (!filters_too) return;
    }
}

void Search::filters_ended() {
    const ExitStatus status = filters_->status();
    filters_.reset();
    trace_event("gpu-viterbi-end");
    if (t_filters_ < 0) t_filters_ = seconds_now();
    if (!status.ok())
        throw ChildFailure("the filters failed (gpu-viterbi exit status " + std::to_string(status.shell_code()) + ")",
                           passed_on(status));
}

// gpu-viterbi's --stats; an empty object if it cannot be read.
nlohmann::json Search::stats() const {
    std::ifstream in(tmp_.file("vit.json"), std::ios::binary);
    nlohmann::json s = nlohmann::json::parse(in, nullptr, false);
    return s.is_object() ? s : nlohmann::json::object();
}

// hmmsearch stops at the first target over 100,000 residues, whatever its
// score; the filters score it, and a final run only meets it if it survives.
void Search::refuse_overlong(const nlohmann::json& s) const {
    if (!s.contains("targets_over_100k") || !s["targets_over_100k"].is_number_unsigned()) return;
    const uint64_t n = s["targets_over_100k"].get<uint64_t>();
    if (n == 0) return;
    throw ChildFailure(cmd_.targets + " holds " + std::to_string(n) +
                           " target(s) longer than 100,000 residues, which hmmsearch refuses (\"Target sequence "
                           "length > 100K, over comparison pipeline limit\")",
                       static_cast<int>(ExitCode::input));
}

void Search::deliver() const {
    RunOutputs runs;
    for (size_t i = 1; i <= models_.size(); ++i) {
        runs.main.push_back(model_file(i, "out"));
        if (!cmd_.tbl_out.empty()) runs.tbl.push_back(model_file(i, "tbl"));
        if (!cmd_.dom_out.empty()) runs.dom.push_back(model_file(i, "dom"));
    }
    deliver_stitched_outputs(runs, {cmd_.models, cmd_.targets, cmd_.main_out, cmd_.tbl_out, cmd_.dom_out});
}

}  // namespace

int run_filtered_hmmsearch(const HmmsearchCommand& command, const FilteredHmmsearchSettings& settings,
                           const StopSignalWatch& watch) {
    return Search(command, settings, watch).run();
}

}  // namespace warpdp

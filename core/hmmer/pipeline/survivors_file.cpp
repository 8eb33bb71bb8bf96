// SurvivorsFile: the survivors' FASTA, spread into hmmsearch blocks on request.
#include "core/hmmer/pipeline/survivors_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/io/async_output.hpp"

namespace warpdp {

double hmmsearch_work(uint64_t L, int M, double p) {
    const double cells = static_cast<double>(L) * M;
    return p <= 1e-5 ? 10 * cells : cells;
}

std::vector<size_t> spread_runs(std::span<const uint64_t> residues, std::span<const double> work, size_t runs) {
    if (residues.size() != work.size()) throw InternalError("spread_runs: residues and work differ in size");
    const size_t n = residues.size();
    std::vector<size_t> starts;
    if (n == 0) return starts;
    starts.push_back(0);
    const bool by_work = runs > 1 && n < runs * kHmmsearchBlockRecords;
    double total = 0;
    for (double w : work) total += w;
    const bool counted = !(total > 0);  // no work known: every survivor weighs the same
    if (counted) total = static_cast<double>(n);
    const double share = by_work ? total / static_cast<double>(runs) : 0;
    double done = 0;
    size_t next_mark = 1;  // the run ends once `done` reaches next_mark x share
    size_t records = 0;
    uint64_t res = 0;
    for (size_t i = 0; i + 1 < n; ++i) {
        ++records;
        res += residues[i];
        done += counted ? 1.0 : work[i];
        bool cut = records == kHmmsearchBlockRecords || res >= kHmmsearchBlockResidues;
        if (share > 0 && next_mark < runs && done >= static_cast<double>(next_mark) * share) {
            cut = true;
            // One heavy survivor may pass several marks: one run ends here.
            while (next_mark < runs && done >= static_cast<double>(next_mark) * share) ++next_mark;
        }
        if (cut) {
            starts.push_back(i + 1);
            records = 0;
            res = 0;
        }
    }
    return starts;
}

size_t spread_fillers(size_t records, uint64_t residues) {
    if (records >= kHmmsearchBlockRecords || residues >= kHmmsearchBlockResidues) return 0;
    return kHmmsearchBlockRecords - records;
}

void format_fasta_record(const SeqBatch& b, size_t t, std::string& text) {
    const auto& abc = Alphabet::amino();
    text.clear();
    text += '>';
    text += b.names[t];
    if (!b.descs[t].empty()) {
        text += ' ';
        text += b.descs[t];
    }
    text += '\n';
    const auto seq = b.seq(t);
    for (size_t i = 0; i < seq.size(); ++i) {
        text += seq[i] == abc.gap_code() ? '.' : abc.symbol(seq[i]);
        if ((i + 1) % 60 == 0 || i + 1 == seq.size()) text += '\n';
    }
    if (seq.empty()) text += '\n';
}

namespace {

// Appends k empty records to text.
void append_fillers(std::string& text, size_t k) {
    for (; k > 0; --k) {
        text += '>';
        text += kSpreadFillerName;
        text += '\n';
    }
}

// An anonymous scratch file (unlinked at once), beside `near` when that
// directory takes one (the output's file system has room for the output),
// else in $TMPDIR or /tmp.
std::FILE* open_spill(const std::string& near) {
    std::vector<std::string> dirs;
    if (!near.empty() && near != "-") {
        const auto parent = std::filesystem::path(near).parent_path();
        dirs.push_back(parent.empty() ? "." : parent.string());
    }
    if (const char* t = std::getenv("TMPDIR"); t && *t) dirs.emplace_back(t);
    dirs.emplace_back("/tmp");
    int err = 0;
    for (const auto& d : dirs) {
        std::string name = d + "/.warpdp-survivors.XXXXXX";
        const int fd = ::mkstemp(name.data());
        if (fd < 0) {
            err = errno;
            continue;
        }
        ::unlink(name.c_str());
        if (std::FILE* f = ::fdopen(fd, "w+")) return f;
        err = errno;
        ::close(fd);
    }
    throw ResourceError(near + ": cannot create a scratch file for the survivors: " + std::strerror(err));
}

// In place: appends to text the empty records that stand for the database
// records from `next_place` up to `place`, which becomes the next place.
void fill_up_to(std::string& text, uint64_t& next_place, uint64_t place) {
    if (place < next_place) throw InternalError("survivors in place: a record number goes back");
    static const std::string one = std::string(">") + kPlaceFillerName + "\n";
    for (; next_place < place; ++next_place) text += one;
}

}  // namespace

SurvivorsFile::SurvivorsFile(OutputFile& out, SurvivorsLayout layout)
    : out_(out), runs_(layout.in_place ? 0 : layout.spread_runs), in_place_(layout.in_place) {
    if (runs_ > 0) spill_ = open_spill(out_.path());
}

SurvivorsFile::~SurvivorsFile() {
    if (spill_) std::fclose(spill_);
}

void SurvivorsFile::add(const SeqBatch& b, size_t t, std::span<const ModelWork> work) {
    if (in_place_) {
        record_.clear();
        fill_up_to(record_, next_place_, b.first_index + t);
        out_.write(record_);
        ++next_place_;  // (the survivor's own)
    }
    format_fasta_record(b, t, record_);
    if (!spill_) {
        out_.write(record_);
        return;
    }
    if (std::fwrite(record_.data(), 1, record_.size(), spill_) != record_.size())
        throw ResourceError(out_.path() + ": cannot write the survivors' scratch file: " + std::strerror(errno));
    starts_.push_back(starts_.back() + record_.size());
    residues_.push_back(b.length(t));
    work_.insert(work_.end(), work.begin(), work.end());
    work_first_.push_back(static_cast<uint32_t>(work_.size()));
}

void SurvivorsFile::finish(uint64_t records) {
    if (in_place_) {
        record_.clear();
        fill_up_to(record_, next_place_, records);
        out_.write(record_);
    }
    if (spill_) {
        // Each model's work counts in proportion to its own total, so that
        // every model's survivors, not only the longest model's, are spread
        // over many blocks (hmmsearch searches the models one after another).
        std::vector<double> model_total;
        for (const auto& w : work_) {
            if (w.model >= model_total.size()) model_total.resize(w.model + 1, 0.0);
            model_total[w.model] += w.work;
        }
        const size_t n = residues_.size();
        std::vector<double> weight(n, 0.0);
        for (size_t i = 0; i < n; ++i)
            for (uint32_t k = work_first_[i]; k < work_first_[i + 1]; ++k)
                if (model_total[work_[k].model] > 0) weight[i] += work_[k].work / model_total[work_[k].model];
        const size_t models = static_cast<size_t>(std::count_if(model_total.begin(), model_total.end(),
                                                               [](double w) { return w > 0; }));
        std::vector<size_t> run = spread_runs(residues_, weight, runs_ * std::max<size_t>(models, 1));
        run.push_back(n);
        if (std::fflush(spill_) != 0 || std::fseek(spill_, 0, SEEK_SET) != 0)
            throw ResourceError(out_.path() + ": cannot read back the survivors' scratch file: " + std::strerror(errno));
        std::string buf, fill;
        for (size_t r = 0; r + 1 < run.size(); ++r) {
            const size_t a = run[r], b = run[r + 1];
            buf.resize(starts_[b] - starts_[a]);
            if (std::fread(buf.data(), 1, buf.size(), spill_) != buf.size())
                throw ResourceError(out_.path() + ": cannot read back the survivors' scratch file");
            out_.write(buf);
            if (b == n) break;  // the last run ends the file: nothing to top up
            uint64_t res = 0;
            for (size_t i = a; i < b; ++i) res += residues_[i];
            fill.clear();
            append_fillers(fill, spread_fillers(b - a, res));
            out_.write(fill);
        }
    }
}

struct ModelSurvivorStreams::Stream {
    explicit Stream(std::string path) : out(std::move(path)) {}
    AsyncOutputFile out;
    bool any = false;
    uint64_t next_place = 0;  // in place: the database record the output has reached
};

ModelSurvivorStreams::ModelSurvivorStreams(const std::string& dir, size_t models, SurvivorsLayout layout)
    : layout_(layout) {
    if (layout_.in_place) layout_.spread_runs = 0;
    for (size_t i = 0; i < models; ++i)
        streams_.push_back(std::make_unique<Stream>(dir + "/" + std::to_string(i + 1) + ".fa"));
}

ModelSurvivorStreams::~ModelSurvivorStreams() = default;

void ModelSurvivorStreams::add(size_t model, const SeqBatch& b, std::span<const uint32_t> targets,
                               std::span<const double> work) {
    if (targets.empty()) return;
    Stream& s = *streams_.at(model);
    std::vector<uint64_t> residues(targets.size());
    for (size_t i = 0; i < targets.size(); ++i) residues[i] = b.length(targets[i]);
    const size_t runs = layout_.spread_runs;
    std::vector<size_t> run = runs > 0 ? spread_runs(residues, work, runs) : std::vector<size_t>{0};
    run.push_back(targets.size());
    std::string text, record;
    for (size_t r = 0; r + 1 < run.size(); ++r) {
        uint64_t res = 0;
        for (size_t i = run[r]; i < run[r + 1]; ++i) {
            if (layout_.in_place) {
                fill_up_to(text, s.next_place, b.first_index + targets[i]);
                ++s.next_place;  // (the survivor's own)
            }
            format_fasta_record(b, targets[i], record);
            text += record;
            res += residues[i];
        }
        if (runs > 0) append_fillers(text, spread_fillers(run[r + 1] - run[r], res));
    }
    s.out.write(std::move(text));
    s.any = true;
}

void ModelSurvivorStreams::commit(uint64_t records) {
    for (auto& s : streams_) {
        std::string rest;
        if (layout_.in_place) fill_up_to(rest, s->next_place, records);
        if (rest.empty() && !s->any) append_fillers(rest, 1);
        if (!rest.empty()) s->out.write(std::move(rest));
        s->out.commit();
    }
}

}  // namespace warpdp

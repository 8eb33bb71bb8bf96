// Throughput of the sequence input layer: read + digitise of a protein FASTA
// (generated: 60-column lines, lognormal lengths with mean ~350, like
// UniProt) by a single consumer thread, with prefetch off and on, and parsed
// by every core, plain and gzip-compressed. Usage:
//   bench_reader [FASTA] [--mb N (generated size, default 1024)] [--gz-mb N (default 128, 0 = skip)]
//   bench_reader --generate PATH [--mb N]      (only writes the FASTA)
// The file is read once before timing so that the page cache, not the disk,
// is measured. CPU seconds are printed next to wall seconds because the
// machines we share are often loaded; "per CPU-s" is the one-core rate.
#include <zlib.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/base/errors.hpp"
#include "core/io/seq_reader.hpp"

namespace fs = std::filesystem;

namespace {

// Writes about `bytes` of FASTA; returns the number of records.
uint64_t generate(const fs::path& path, uint64_t bytes) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path.string());
    std::mt19937_64 rng(42);
    std::lognormal_distribution<double> len(std::log(300.0), 0.55);  // mean ~349
    static const char kAmino[] = "ACDEFGHIKLMNPQRSTVWY";
    std::string buf;
    uint64_t written = 0, records = 0;
    uint64_t x = 0x9E3779B97F4A7C15ull;  // xorshift: std::uniform per residue is the bottleneck
    while (written < bytes) {
        const auto L = static_cast<uint64_t>(std::max(1.0, std::round(len(rng))));
        buf += ">sp|B" + std::to_string(records) + "|BENCH_" + std::to_string(records) +
               " benchmark protein OS=Synthetic OX=0\n";
        for (uint64_t i = 0; i < L; ++i) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf += kAmino[(x >> 32) % 20];
            if (i % 60 == 59 || i + 1 == L) buf += '\n';
        }
        ++records;
        if (buf.size() > (8u << 20)) {
            out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
            written += buf.size();
            buf.clear();
        }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    return records;
}

void gzip_prefix(const fs::path& in, const fs::path& out, uint64_t bytes) {
    std::ifstream src(in, std::ios::binary);
    gzFile gz = gzopen(out.c_str(), "wb1");
    if (gz == nullptr) throw std::runtime_error("cannot write " + out.string());
    std::vector<char> buf(1 << 20);
    uint64_t done = 0;
    while (done < bytes && src.read(buf.data(), static_cast<std::streamsize>(buf.size())).gcount() > 0) {
        const auto n = static_cast<unsigned>(src.gcount());
        if (gzwrite(gz, buf.data(), n) != static_cast<int>(n)) throw std::runtime_error("gzwrite failed");
        done += n;
    }
    gzclose(gz);
    // The cut mid-record is fine: only the last record is shortened.
}

void warm(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::vector<char> buf(1 << 20);
    while (f.read(buf.data(), static_cast<std::streamsize>(buf.size())).gcount() > 0) {}
}

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Result {
    double seconds, cpu;
    uint64_t records, residues, bytes;
};

struct Mode {
    bool prefetch;
    unsigned threads;  // parsing threads
};

Result run(const std::string& path, Mode mode) {
    warpdp::SeqReaderOptions opt;
    opt.prefetch = mode.prefetch;
    opt.parse_threads = mode.threads;
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds();
    warpdp::SeqReader reader(path, warpdp::Alphabet::amino(), opt);
    warpdp::SeqBatch batch;
    uint64_t residues = 0;
    while (reader.next(batch)) residues += batch.total_residues();
    const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
    return {dt.count(), cpu_seconds() - c0, reader.records_read(), residues, reader.bytes_read()};
}

void report(const char* input, Mode mode, uint64_t file_bytes, const Result& r) {
    const double text = static_cast<double>(r.bytes);
    std::printf("%-6s %-8s %7u %8.3f %8.3f %10.2f %10.2f %13.2f %11.2f %12.1f\n", input, mode.prefetch ? "on" : "off",
                mode.threads, r.seconds, r.cpu,
                static_cast<double>(file_bytes) / r.seconds / 1e9, text / r.seconds / 1e9, text / r.cpu / 1e9,
                static_cast<double>(r.records) / r.seconds / 1e6,
                static_cast<double>(r.residues) / r.seconds / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::string path, generate_only;
        uint64_t mb = 1024, gz_mb = 128;
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            if (a == "--mb" && i + 1 < argc) mb = std::strtoull(argv[++i], nullptr, 10);
            else if (a == "--gz-mb" && i + 1 < argc) gz_mb = std::strtoull(argv[++i], nullptr, 10);
            else if (a == "--generate" && i + 1 < argc) generate_only = argv[++i];
            else path = a;
        }
        if (!generate_only.empty()) {
            std::printf("%llu records\n", static_cast<unsigned long long>(generate(generate_only, mb << 20)));
            return 0;
        }
        const fs::path dir = fs::temp_directory_path() / ("warpdp-bench-reader-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        struct Cleanup {
            fs::path d;
            ~Cleanup() { std::error_code ec; fs::remove_all(d, ec); }
        } cleanup{dir};
        if (path.empty()) {
            path = (dir / "bench.fa").string();
            const auto t0 = std::chrono::steady_clock::now();
            const uint64_t n = generate(path, mb << 20);
            const std::chrono::duration<double> dt = std::chrono::steady_clock::now() - t0;
            std::printf("# generated %s: %llu records, %llu bytes in %.1f s\n", path.c_str(),
                        static_cast<unsigned long long>(n),
                        static_cast<unsigned long long>(fs::file_size(path)), dt.count());
        }
        const uint64_t plain_bytes = fs::file_size(path);
        warm(path);
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const Mode modes[] = {{false, 1}, {true, 1}, {true, cores}};
        std::printf("# input prefetch threads   wall-s    cpu-s  file GB/s  text GB/s  text GB/cpu-s  Mrecords/s  Mresidues/s\n");
        for (const Mode& m : modes) report("plain", m, plain_bytes, run(path, m));
        if (gz_mb > 0) {
            const fs::path gz = dir / "bench.fa.gz";
            gzip_prefix(path, gz, gz_mb << 20);
            warm(gz);
            const uint64_t gz_bytes = fs::file_size(gz);
            for (const Mode& m : modes) report("gzip", m, gz_bytes, run(gz.string(), m));
        }
        return 0;
    } catch (const warpdp::Error& e) {
        std::fprintf(stderr, "bench_reader: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_reader: %s\n", e.what());
        return 3;
    }
}

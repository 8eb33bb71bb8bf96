// Helpers shared by the unit tests: one seeded random source per test binary
// (the seed is printed as "# seed = N" and replayed with WARPDP_TEST_SEED=N),
// random sequences, temporary files.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

namespace warpdp::test {

// A file's whole content, bytes as they are.
inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline uint64_t seed() {
    static const uint64_t s = [] {
        uint64_t v;
        if (const char* env = std::getenv("WARPDP_TEST_SEED"); env && *env) {
            v = std::strtoull(env, nullptr, 10);
        } else {
            v = std::random_device{}();
            v = (v << 32) ^ std::random_device{}();
        }
        std::printf("# seed = %llu (replay with WARPDP_TEST_SEED=%llu)\n",
                    static_cast<unsigned long long>(v), static_cast<unsigned long long>(v));
        std::fflush(stdout);
        return v;
    }();
    return s;
}

// One generator per binary, seeded once; tests draw from it in a fixed order
// so a replayed seed reproduces every input.
inline std::mt19937_64& rng() {
    static std::mt19937_64 g(seed());
    return g;
}

inline int uniform(int lo, int hi) {  // inclusive bounds
    return std::uniform_int_distribution<int>(lo, hi)(rng());
}

// A random string over `letters`.
inline std::string random_text(const std::string& letters, size_t n) {
    std::string s(n, ' ');
    for (auto& c : s) c = letters[static_cast<size_t>(uniform(0, static_cast<int>(letters.size()) - 1))];
    return s;
}

// A scratch directory removed when the object dies.
class TempDir {
public:
    TempDir() {
        auto base = std::filesystem::temp_directory_path();
        for (int i = 0;; ++i) {
            path_ = base / ("warpdp-test-" + std::to_string(seed() % 100000) + "-" +
                            std::to_string(getpid()) + "-" + std::to_string(i));
            if (std::filesystem::create_directory(path_)) break;
        }
    }
    ~TempDir() { std::error_code ec; std::filesystem::remove_all(path_, ec); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path write(const std::string& name, const std::string& content) const {
        auto p = path_ / name;
        std::ofstream(p, std::ios::binary) << content;
        return p;
    }
private:
    std::filesystem::path path_;
};

}  // namespace warpdp::test

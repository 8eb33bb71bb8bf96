// Runs a libFuzzer harness without libFuzzer: each file named, and each file
// in each folder named, goes once through LLVMFuzzerTestOneInput. The
// ordinary build replays every corpus so (tests/CMakeLists.txt): the
// harnesses keep compiling with the project's own compiler, and the
// regression inputs in the corpora run on every `make test`, fuzzing or not.
// A harness reports a finding by aborting, as under libFuzzer.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void replay(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", p.c_str());
        std::exit(2);
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "%s\n", p.c_str());  // the culprit's name, should the harness abort
    (void)LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE_OR_FOLDER...\n", argv[0]);
        return 2;
    }
    size_t n = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg = argv[i];
        if (!std::filesystem::is_directory(arg)) {
            replay(arg);
            ++n;
            continue;
        }
        std::vector<std::filesystem::path> files;
        for (const auto& e : std::filesystem::directory_iterator(arg))
            if (e.is_regular_file()) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) replay(f);
        n += files.size();
    }
    if (n == 0) {
        std::fprintf(stderr, "no inputs: an empty corpus replays nothing\n");
        return 1;
    }
    std::fprintf(stderr, "%zu inputs replayed\n", n);
    return 0;
}

// What every CUDA test shares: they skip (ctest SKIP_RETURN_CODE 77) where
// no GPU is visible, so a machine without one still passes the suite.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "kernels/common/gpus.hpp"

namespace warpdp::test {

inline void require_gpu() {
    if (list_gpus().empty()) {
        std::printf("no CUDA GPU visible: skipping the CUDA tests (exit 77)\n");
        std::fflush(stdout);
        std::exit(77);
    }
}

}  // namespace warpdp::test

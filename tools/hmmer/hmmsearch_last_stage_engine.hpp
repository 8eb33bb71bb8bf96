// The engine of gpu-hmmsearch's own last stage for its --device
// (docs/hmmer-filters.md §16.10): the CPU engine, or the staged engine with
// the CUDA batch kernels. Under --device auto, a CUDA start that fails, or
// a call the GPU cannot hold, runs on the CPU with one warning; under
// --device cuda each is the error. The hits are the same on every device.
#pragma once

#include <memory>
#include <string>

#include "core/hmmer/domains/dom_engine.hpp"

namespace warpdp {

std::unique_ptr<DomEngine> make_last_stage_engine(const std::string& tool, const std::string& device,
                                                  unsigned threads);

}  // namespace warpdp

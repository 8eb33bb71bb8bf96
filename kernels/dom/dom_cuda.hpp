// The CUDA forms of the post-filter Forward, Backward and posterior decoding
// (docs/hmmer-filters.md §16.8): many jobs of one or several models per call, each equal
// bit for bit to dom_forward_cpu, dom_backward_cpu and (full jobs)
// dom_decoding_cpu in place. A full job's posterior matrix stays in device
// memory, in DomMatrix's layout, for the kernels that follow it. No CUDA
// types; the factory refuses in a build without CUDA (dom_cuda_absent.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "core/hmmer/domains/dom_decoding.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// A parser job (full = false) keeps per row only the specials and scale
// factors, as the whole-target Forward and Backward do; a full job (an
// envelope or region) keeps every row, and is decoded into posteriors.
struct DomCudaJob {
    std::span<const uint8_t> dsq;  // length >= 1; must outlive the run() call
    DomSpecialOdds odds;
    bool full = false;
    uint32_t model = 0;  // index into the models of the engine's set_models()
};

struct DomCudaResult {
    float fwd_score = 0.0f;  // what dom_forward_cpu returns
    float bck_score = 0.0f;  // what dom_backward_cpu returns (computed even where fwd_score is NaN)
    DomDecodeStatus decoding = DomDecodeStatus::ok;  // full jobs: what dom_decoding_cpu returns
};

// A matrix in device memory, in DomMatrix's layout: rows 0..L of
// row_floats() cells (cell s of stripe position q, lane z, at
// (q * kDomCells + s) * kFwdLanes + z), then (L + 1) * kDomSpecials specials.
struct DomDeviceMatrix {
    float* cells = nullptr;     // device pointer
    float* specials = nullptr;  // device pointer, cells + (L + 1) * row_floats()
    uint64_t offset = 0;        // floats from DomCudaEngine::arena() to cells
    int M = 0, Q = 0;
    uint64_t L = 0;
    size_t row_floats() const noexcept { return static_cast<size_t>(Q) * kDomCells * kFwdLanes; }
    size_t floats() const noexcept { return (static_cast<size_t>(L) + 1) * (row_floats() + kDomSpecials); }
};

class DomCudaEngine {
public:
    virtual ~DomCudaEngine() = default;
    virtual int device() const noexcept = 0;
    // Uploads the models' odds; every later run() uses them, job j those of
    // models[jobs[j].model]. The profiles may go once the call returns.
    virtual void set_models(std::span<const FwdProfile* const> models) = 0;
    // One model, for jobs of model 0.
    void set_model(const FwdProfile& fp) {
        const FwdProfile* const one[1] = {&fp};
        set_models(one);
    }
    // Runs every job, out[j] for jobs[j], in batches whose matrices fit the
    // device's free memory (or the engine's test budget). After each batch,
    // on_batch(first, count) is called with jobs [first, first + count)
    // resident: their posterior() and forward() matrices are valid until the
    // next batch starts, so the last batch's stay valid after run() returns.
    // ResourceError where one job alone does not fit.
    using OnBatch = std::function<void(size_t first, size_t count)>;
    virtual void run(std::span<const DomCudaJob> jobs, std::span<DomCudaResult> out, const OnBatch& on_batch = {}) = 0;

    // Any job of the last run(): its Forward and Backward specials, scale
    // factors, totscale and has_own_scales, in parser matrices (cells not
    // filled), as dom_domain_decoding reads them.
    virtual void specials(size_t j, DomMatrix& fwd, DomMatrix& bck) const = 0;

    // Full jobs of the resident batch, each in its model's shape.
    // posterior(j): the decoded matrix (the Backward matrix decoded in
    // place, as the search decodes it: its scale column is Backward's). forward(j): the Forward matrix's cells,
    // then room for specials that this engine leaves unwritten (the Forward
    // specials are in specials()): free for a later kernel to overwrite with
    // a matrix of the same shape (the optimal-accuracy fill's, say).
    virtual DomDeviceMatrix posterior(size_t j) const = 0;
    virtual DomDeviceMatrix forward(size_t j) const = 0;
    // Copies of those into host matrices (for tests, or a host that needs
    // them), with totscale and has_own_scales as the CPU forms leave them.
    virtual void copy_posterior(size_t j, DomMatrix& pp) const = 0;
    virtual void copy_forward(size_t j, DomMatrix& fwd) const = 0;
    // Base of the device memory the offsets count from.
    virtual float* arena() const noexcept = 0;
    // The cudaStream_t the engine works on, as a plain pointer: work that
    // on_batch queues on it runs before the next batch overwrites the
    // matrices; work on any other stream must be finished when on_batch
    // returns.
    virtual void* stream() const noexcept = 0;
};

// Which kernel runs the jobs: four threads a job, or a warp a job
// (docs/hmmer-filters.md §16.8; jobs of models too wide for the warp
// form's shared memory take the four threads in the same batch). Both give
// the same bits.
enum class DomCudaForm { lanes4, warp };

// An engine on one device. budget_bytes > 0 caps the device memory of one
// batch (tests use it to make many batches); 0 takes the free memory less
// kernels/common/device_memory.hpp's reserve. Throws ResourceError in a
// build without CUDA or when CUDA is unavailable.
std::unique_ptr<DomCudaEngine> make_dom_cuda_engine(int device, uint64_t budget_bytes = 0,
                                                    DomCudaForm form = DomCudaForm::warp);

}  // namespace warpdp

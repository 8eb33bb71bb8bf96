// The CUDA optimal-accuracy stage of the post-filter search
// (docs/hmmer-filters.md §16.9): for many envelopes' posterior matrices at
// once, of one model or several, the optimal-accuracy fill
// (dom_optimal_accuracy_cpu), its traceback (dom_oa_trace) and null2 by
// expectation (dom_null2_by_expectation), each equal to the CPU's bit for
// bit. No CUDA types; a build without CUDA gets a
// factory that refuses (dom_optacc_cuda_absent.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/base/alphabet.hpp"
#include "core/hmmer/domains/dom_matrix.hpp"
#include "core/hmmer/domains/dom_specials.hpp"
#include "core/hmmer/domains/dom_trace.hpp"
#include "core/hmmer/fwd/fwd_profile.hpp"

namespace warpdp {

// One envelope's posterior matrix in device memory, laid out as a full
// DomMatrix of its model's profile: rows 0..L of Q * kDomCells * kFwdLanes
// floats from `cells`, rows 0..L of kDomSpecials floats from `specials`.
// Offsets need no alignment beyond a float's.
struct DomOaEnvelope {
    uint64_t cells = 0;     // floats from DomOaPosteriors::cells to row 0's cells
    uint64_t specials = 0;  // floats from DomOaPosteriors::specials to row 0's specials
    uint64_t L = 0;         // residues, >= 1
    DomSpecialOdds odds;    // what the envelope was decoded with (hmmsearch: unihit)
    uint32_t model = 0;     // index into the call's models
};

// Posterior matrices already on the engine's device (the CUDA decoding's
// output). They must be complete when the call starts (their producer's
// stream synchronized); the engine only reads them.
struct DomOaPosteriors {
    const float* cells = nullptr;     // device pointer
    const float* specials = nullptr;  // device pointer
    std::span<const DomOaEnvelope> envelopes;
};

// Results of one call, envelope e at index e of the call's envelopes.
struct DomOaResults {
    std::vector<float> oasc;  // the fill's score (dom_optimal_accuracy_cpu's return)
    // The traceback as the kernel built it, from T back to S: per step the
    // state in the low 4 bits and the node k above them, and the posterior
    // probability it records; envelope e's steps are
    // [step_off[e], step_off[e + 1]). dom_oa_unpack_trace turns them into
    // dom_oa_trace's DomTrace.
    std::vector<uint64_t> step_off;
    std::vector<uint32_t> steps;
    std::vector<float> step_pp;
    std::vector<uint8_t> trace_error;  // DomOaTraceError (no steps unless kOaOk)
    int Kp = 0;
    std::vector<float> null2;  // envelope e's Kp odds from e * Kp (dom_null2_by_expectation's)
    // Only from an engine made with keep_oa_matrix (tests): each envelope's
    // OA matrix in the posteriors' layout, cells and specials from its offsets.
    std::vector<float> ox_cells, ox_specials;
    std::vector<uint64_t> ox_cells_off, ox_specials_off;

    size_t size() const noexcept { return oasc.size(); }
    std::span<const float> null2_of(size_t e) const {
        return {null2.data() + e * static_cast<size_t>(Kp), static_cast<size_t>(Kp)};
    }
};

// Where HMMER's traceback would fail (dom_oa_trace's InternalErrors):
// DomOaResults::trace_error.
enum DomOaTraceError : uint8_t {
    kOaOk = 0,
    kOaBadM,
    kOaBadD,
    kOaBadI,
    kOaBadC,
    kOaBadJ,
    kOaBadE,
    kOaBogus,
};

// The message dom_oa_trace throws (as InternalError) for a trace_error code.
std::string dom_oa_trace_error_text(uint8_t code);

// Envelope e's trace as dom_oa_trace(fp, odds, pp, ox, tr, i_offset) leaves
// it (tr cleared first; M the profile's, L the envelope's). Throws
// InternalError with dom_oa_trace's message where the kernel found the
// traceback invalid. (Without CUDA there are no results: both refuse.)
void dom_oa_unpack_trace(const DomOaResults& r, size_t e, int M, uint64_t L, DomTrace& tr, int64_t i_offset = 0);

// One call at a time per engine (its buffers are reused from call to call).
class DomOaEngine {
public:
    virtual ~DomOaEngine() = default;
    // Envelopes whose posteriors are in device memory, envelope e of model
    // models[e.model] (all of alphabet abc). The call returns when every
    // result is on the host.
    virtual void run(std::span<const FwdProfile* const> models, const Alphabet& abc, const DomOaPosteriors& pp,
                     DomOaResults& out) = 0;
    // Posterior matrices on the host (full, L >= 1, in the shape of their
    // model: models[model_of[e]], or models[0] where model_of is empty),
    // uploaded first: for tests, and as a fallback where the decoding ran
    // on the CPU. odds[e] belongs to pp[e].
    virtual void run_host(std::span<const FwdProfile* const> models, const Alphabet& abc,
                          std::span<const DomMatrix* const> pp, std::span<const DomSpecialOdds> odds,
                          std::span<const uint32_t> model_of, DomOaResults& out) = 0;

    // One model's envelopes (model 0).
    void run(const FwdProfile& fp, const Alphabet& abc, const DomOaPosteriors& pp, DomOaResults& out) {
        const FwdProfile* const one[1] = {&fp};
        run(one, abc, pp, out);
    }
    void run_host(const FwdProfile& fp, const Alphabet& abc, std::span<const DomMatrix* const> pp,
                  std::span<const DomSpecialOdds> odds, DomOaResults& out) {
        const FwdProfile* const one[1] = {&fp};
        run_host(one, abc, pp, odds, {}, out);
    }
};

// The engine on one device. scratch_bytes > 0: at most this much of OA
// matrices a launch (the default 1 GiB where 0; a call's envelopes beyond
// it take further launches). Throws ResourceError in a build without CUDA
// or when CUDA is unavailable.
std::unique_ptr<DomOaEngine> make_dom_oa_cuda_engine(int device, uint64_t scratch_bytes = 0);

// Which kernel fills the OA matrices: four threads per envelope, or a warp
// per envelope (docs/hmmer-filters.md §16.9; envelopes of models too wide
// for its shared memory still take the four threads).
enum class DomOaFillForm { lanes4, warp };

// Test and benchmark hooks (a build without CUDA refuses, as above).
struct DomOaTestHooks {
    DomOaFillForm fill_form = DomOaFillForm::warp;
    uint64_t oa_scratch_bytes = 0;  // > 0: at most this much of OA matrices per launch
    uint32_t trace_steps = 0;       // > 0: first traceback buffers of this many steps (long traces rerun)
    bool keep_oa_matrix = false;    // return the OA matrices
    // run_host places the matrices in one device buffer, last envelope
    // first, specials before cells, NaN between them: run() must follow
    // the offsets wherever they point.
    bool scatter_upload = false;
};
std::unique_ptr<DomOaEngine> make_dom_oa_cuda_engine_ex(int device, const DomOaTestHooks& hooks);

}  // namespace warpdp

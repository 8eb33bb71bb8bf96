// Error-to-exit-code mapping shared by every tool.
#include "tools/common/tool_main.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <system_error>

#include <htslib/hts_log.h>

#include "core/base/errors.hpp"
#include "core/base/trace.hpp"
#include "core/io/output_file.hpp"
#include "tools/common/engine_start.hpp"
#include "tools/common/stop_signal_watch.hpp"

namespace warpdp {

namespace {
int report(const std::string& tool, const std::string& what, ExitCode code) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", tool.c_str(), what.c_str());
    return static_cast<int>(code);
}

int run_body(const std::string& tool, int argc, char** argv, const std::function<int(int, char**)>& body) {
    try {
        return body(argc, argv);
    } catch (const StopSignal& stop) {
        // The body has stopped its children and removed its temporaries
        // (tools/common/stop_signal_watch.hpp): end as the signal would have.
        std::fflush(nullptr);
        std::signal(stop.signal, SIG_DFL);
        ::raise(stop.signal);
        return 128 + stop.signal;  // (only if the signal is blocked)
    } catch (const BrokenPipe&) {
        return 0;  // the reader has all it wanted (`| head`): end quietly
    } catch (const InternalError& e) {
        return report(tool, std::string("internal error: ") + e.what(), e.exit_code());
    } catch (const Error& e) {
        return report(tool, e.what(), e.exit_code());
    } catch (const std::bad_alloc&) {
        return report(tool, "out of memory", ExitCode::resource);
    } catch (const std::system_error& e) {
        // A thread, memory or file the system would not give (ulimit -u, -v, -n).
        const auto& cat = e.code().category();
        if ((cat == std::generic_category() || cat == std::system_category()) && is_resource_errno(e.code().value()))
            return report(tool, std::string("out of system resources (threads, memory or open files: see ulimit): ") +
                                    e.what(), ExitCode::resource);
        return report(tool, std::string("internal error: ") + e.what(), ExitCode::internal);
    } catch (const std::exception& e) {
        return report(tool, std::string("internal error: ") + e.what(), ExitCode::internal);
    }
}
}  // namespace

void warn(const std::string& tool, const std::string& message) {
    std::fprintf(stderr, "%s: warning: %s\n", tool.c_str(), message.c_str());
}

int run_tool(const std::string& tool, int argc, char** argv,
             const std::function<int(int, char**)>& body) {
    ignore_sigpipe();
    remove_temporaries_on_stop_signals();
    allow_abandoned_starts();
    // Our InputErrors already name file and line; htslib's own "[E::...]"
    // lines would only add noise to the one-line message.
    hts_set_log_level(HTS_LOG_OFF);
    const int rc = run_body(tool, argc, argv, body);
    trace_event("body-returned");
    // The body's outputs are complete (committed, or removed by their
    // destructors) and nothing is left to clean up at exit: end without
    // waiting for a GPU start still running or for the CUDA runtime's and
    // driver's teardown (about 0.1 s after a GPU run, docs/benchmarks.md's
    // timeline). A sanitizer build ends normally, so its exit checks run.
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    std::fflush(nullptr);
    std::_Exit(rc);
#else
    if (starts_still_running()) {
        std::fflush(nullptr);
        std::_Exit(rc);
    }
    return rc;
#endif
}

}  // namespace warpdp
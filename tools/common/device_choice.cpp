// --device resolution and the hiding of unused GPUs.
#include "tools/common/device_choice.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "core/base/errors.hpp"
#include "kernels/common/gpus.hpp"

namespace warpdp {

namespace {
// The indices of "cuda:LIST" (spec with its "cuda:" prefix), in order; on
// the first item that is not a GPU index, `bad` is that item.
struct GpuList {
    std::vector<int> indices;
    std::optional<std::string> bad;
};
GpuList parse_gpu_list(std::string_view spec) {
    GpuList g;
    std::string_view list = spec.substr(5);
    while (!list.empty()) {
        const auto comma = list.find(',');
        const auto item = list.substr(0, comma);
        int idx = -1;
        const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), idx);
        if (ec != std::errc() || p != item.data() + item.size() || idx < 0) {
            g.bad = std::string(item);
            return g;
        }
        g.indices.push_back(idx);
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return g;
}
}  // namespace

std::string DeviceChoice::describe() const {
    if (!cuda) return "cpu";
    std::string s = "cuda:";
    for (size_t i = 0; i < gpus.size(); ++i) s += (i ? "," : "") + std::to_string(gpus[i]);
    return s;
}

DeviceChoice resolve_device(const std::string& spec) {
    if (spec == "cpu") return {};
    if (spec == "auto") {
        if (!built_with_cuda()) return {};
        const auto gpus = list_gpus();
        if (gpus.empty()) return {};
        DeviceChoice d{true, {}};
        for (const auto& g : gpus) d.gpus.push_back(g.index);
        return d;
    }
    if (spec != "cuda" && spec.rfind("cuda:", 0) != 0)
        throw UsageError("unknown --device '" + spec + "' (expected auto, cpu, cuda or cuda:0,1,...)");
    if (!built_with_cuda()) throw ResourceError("--device " + spec + ": built without CUDA support");
    const auto gpus = list_gpus();
    if (gpus.empty()) throw ResourceError("--device " + spec + ": no CUDA GPU is visible");
    DeviceChoice d{true, {}};
    if (spec == "cuda") {
        for (const auto& g : gpus) d.gpus.push_back(g.index);
        return d;
    }
    const GpuList asked = parse_gpu_list(spec);
    if (asked.bad) throw UsageError("--device " + spec + ": '" + *asked.bad + "' is not a GPU index");
    for (const int idx : asked.indices) {
        if (idx >= static_cast<int>(gpus.size()))
            throw ResourceError("--device " + spec + ": GPU " + std::to_string(idx) + " is not visible (" +
                                std::to_string(gpus.size()) + " visible)");
        d.gpus.push_back(idx);
    }
    if (d.gpus.empty()) throw UsageError("--device " + spec + ": no GPU index given");
    return d;
}

void hide_unused_gpus(const std::string& device_spec, double one_gpu_seconds) {
    size_t keep = 0;
    if (device_spec == "auto") {
        if (!(one_gpu_seconds < kAllGpusFromSeconds)) return;
        keep = 1;
    } else if (device_spec.rfind("cuda:", 0) == 0) {
        const GpuList asked = parse_gpu_list(device_spec);
        if (asked.bad || asked.indices.empty()) return;  // resolve_device says why
        for (const int idx : asked.indices) keep = std::max(keep, static_cast<size_t>(idx) + 1);
    } else {
        return;
    }
    std::vector<std::string> visible;
    if (const char* cvd = std::getenv("CUDA_VISIBLE_DEVICES")) {
        std::string_view rest(cvd);
        while (!rest.empty()) {
            const auto comma = rest.find(',');
            visible.emplace_back(rest.substr(0, comma));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
        if (visible.size() <= keep) return;
    } else {
        for (size_t i = 0; i < keep; ++i) visible.push_back(std::to_string(i));
    }
    std::string value;
    for (size_t i = 0; i < keep; ++i) value += (i ? "," : "") + visible[i];
    setenv("CUDA_VISIBLE_DEVICES", value.c_str(), 1);
}

}  // namespace warpdp

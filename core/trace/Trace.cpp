#include "trace/Trace.h"

#include <algorithm>

namespace strata::trace {

std::string_view eventKindName(EventKind kind) {
    switch (kind) {
    case EventKind::Transfer: return "transfer";
    case EventKind::Compute: return "compute";
    case EventKind::Wait: return "wait";
    case EventKind::Barrier: return "barrier";
    }
    return "?";
}

std::string_view sourceName(Source source) { return source == Source::Emulated ? "emulated" : "measured"; }

std::string_view counterKindName(Counter::Kind kind) {
    return kind == Counter::Kind::PathBandwidth ? "path_bandwidth" : "sram_bytes";
}

std::string counterName(const Counter& counter, const std::vector<TracePath>& paths) {
    if (counter.kind == Counter::Kind::SramBytes) return "core " + std::to_string(counter.index) + " SRAM bytes";
    const std::string path = counter.index < paths.size() ? paths[counter.index].name : "path " + std::to_string(counter.index);
    return path + " GB/s";
}

std::int64_t Trace::endPs() const {
    std::int64_t end = 0;
    for (const Event& e : events) end = std::max(end, e.endPs);
    return end;
}

} // namespace strata::trace

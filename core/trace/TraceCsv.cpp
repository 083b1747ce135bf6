#include "trace/TraceCsv.h"

#include <fmt/format.h>

namespace strata::trace {
namespace {

// RFC 4180: quote a field holding a comma, quote or line break; double the quotes.
std::string csvField(std::string_view text) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace

void writeTraceCsv(const Trace& trace, std::ostream& out) {
    fmt::memory_buffer buffer;
    auto o = std::back_inserter(buffer);
    fmt::format_to(o, "id,core,kind,path,start_ns,end_ns,duration_ns,cycles,bytes,block,op,tile,link,source\n");
    for (const Event& e : trace.events) {
        fmt::format_to(o, "{},{},{},{},{},{},{},", e.id, e.core, eventKindName(e.kind), csvField(trace.pathName(e)),
                       double(e.startPs) / 1e3, double(e.endPs) / 1e3, double(e.durationPs()) / 1e3);
        if (trace.clockHz > 0) fmt::format_to(o, "{}", trace.cycles(e.durationPs()));
        fmt::format_to(o, ",{},{},{},{},{},{}\n", e.bytes, e.block, csvField(trace.opName(e)), e.tile, e.link,
                       sourceName(e.source));
        if (buffer.size() > (1u << 20)) {
            out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
            buffer.clear();
        }
    }
    out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

} // namespace strata::trace

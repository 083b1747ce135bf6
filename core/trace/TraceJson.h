#pragma once
// Strata's trace file: Chrome trace-event JSON (docs/TRACE_FORMAT.md) that Perfetto and
// chrome://tracing open as they are, and that loads back into the same Trace, event for event.
//
// Layout: a top-level "strata" object (schema version, source, target, clock, model, paths, op
// names, counters) and "traceEvents": per core a process with a "stream" thread (computes,
// waits, barriers) and one thread per path lane (its transfers; lanes keep in-flight transfers
// from overlapping on one thread), named by "M" metadata events; "X" complete events carry
// Strata's fields in args; counters are "C" events. Times: ts/dur in microseconds as the format
// wants, and exact start_ns/end_ns in args; picoseconds survive both (traces up to an hour).

#include "base/Expected.h"
#include "trace/Trace.h"
#include "trace/TraceLimits.h"

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace strata::trace {

// Files larger than this are refused before reading (about 5 million events).
inline constexpr std::uint64_t kMaxTraceFileBytes = 2ull << 30;

void writeTraceJson(const Trace& trace, std::ostream& out);
std::string traceToJson(const Trace& trace);
// Writes `trace` to `path`; a diagnostic when the file cannot be written.
std::vector<Diagnostic> saveTraceFile(const Trace& trace, const std::string& path);

struct LoadedTrace {
    Trace trace;
    std::vector<Diagnostic> warnings; // e.g. events of phases Strata does not read, ignored
};

// Reads a trace back. Every problem is an error naming the file and the field path
// ("traceEvents[12].args.kind"); reading stops after kMaxTraceErrors of them. A text with more
// than `maxEvents` trace events (of any phase) is refused before any is read. When the "strata"
// header comes before "traceEvents" (as Strata writes it), each event is read as the parser
// completes it and then dropped, so memory stays near the text plus the events.
Expected<LoadedTrace> parseTraceJson(std::string_view text, const std::string& file,
                                     std::size_t maxEvents = kMaxTraceEvents);
Expected<LoadedTrace> loadTraceFile(const std::string& path);

inline constexpr std::size_t kMaxTraceErrors = 20;

} // namespace strata::trace

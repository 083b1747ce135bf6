#pragma once
// Reading a trace from CSV (docs/TRACE_FORMAT.md, "Importing measurements"): what
// `emulate --csv` writes, or what a user's own tool writes for measurements taken on real
// hardware. A header row names the columns (any order); `# key: value` lines before it give the
// trace's header fields (source, target, clock_hz, cores, model, model_hash, main_memory).

#include "base/Expected.h"
#include "trace/Trace.h"
#include "trace/TraceLimits.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace strata::trace {

struct LoadedCsvTrace {
    Trace trace;
    std::vector<std::size_t> lines;   // per event, the 1-based line of its row (for diagnostics)
    std::vector<Diagnostic> warnings; // unknown columns, ignored
};

// Required columns: id, core, kind, start_ns and end_ns or duration_ns; path for transfers.
// Optional: bytes, block, op, tile, link, source (cycles is derived and ignored). Every problem
// is an error naming the file and "line N" (a row with too few columns at the end of the file is
// reported as truncated); reading stops after kMaxCsvErrors.
// A text with more lines than `maxEvents` plus its header is refused before any row is read.
Expected<LoadedCsvTrace> parseTraceCsv(std::string_view text, const std::string& file,
                                       std::size_t maxEvents = kMaxTraceEvents);
Expected<LoadedCsvTrace> loadTraceCsvFile(const std::string& path);

inline constexpr std::size_t kMaxCsvErrors = 20;

} // namespace strata::trace

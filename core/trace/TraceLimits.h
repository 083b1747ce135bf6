#pragma once
// What a trace reader accepts at most (docs/TRACE_FORMAT.md, "Size limits").

#include <cstddef>

namespace strata::trace {

// The readers refuse a file with more events than this before reading them: ten million events
// are about 480 MB in memory (Event is 48 bytes).
inline constexpr std::size_t kMaxTraceEvents = 10'000'000;

} // namespace strata::trace

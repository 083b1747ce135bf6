#pragma once
// The timeline of one run of a compiled program, emulated or measured (docs/TRACE_FORMAT.md).
// One event per instruction: what ran, on which core and path, from when to when. Times are
// integer picoseconds from the start of the run: exact, totally ordered, and they survive the
// Chrome trace's microsecond timestamps unchanged (see TraceJson.h). Events are kept compact
// (names live in tables, events hold indices) so ten million of them fit in memory.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace strata::trace {

inline constexpr int kTraceSchemaVersion = 1;
inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint16_t kNoPath = std::numeric_limits<std::uint16_t>::max();

enum class EventKind : std::uint8_t { Transfer, Compute, Wait, Barrier };
enum class Source : std::uint8_t { Emulated, Measured };

std::string_view eventKindName(EventKind kind); // "transfer", "compute", "wait", "barrier"
std::string_view sourceName(Source source);     // "emulated", "measured"

struct Event {
    std::int64_t startPs = 0;
    std::int64_t endPs = 0;
    std::uint64_t bytes = 0;        // transfers: bytes moved; computes: working-memory operand bytes
    std::uint32_t id = 0;           // the instruction's stable id (compiler::InstrId)
    std::uint32_t core = 0;
    std::int32_t block = -1;        // schedule block id; -1 for barriers
    std::uint32_t op = kNone;       // index into Trace::ops
    std::int32_t tile = -1;
    std::int32_t link = -1;         // wait: id of the transfer waited on; barrier: its number
    std::uint16_t path = kNoPath;   // transfers: index into Trace::paths
    EventKind kind = EventKind::Compute;
    Source source = Source::Emulated;

    std::int64_t durationPs() const { return endPs - startPs; }
    bool operator==(const Event&) const = default;
};
static_assert(sizeof(Event) <= 64, "events must stay compact: ten million of them in memory");

struct TracePath {
    std::string name;               // the target's path name: "mvp", "load"
    std::string from;               // memory space names
    std::string to;
    bool operator==(const TracePath&) const = default;
};

struct CounterSample {
    std::int64_t timePs = 0;
    double value = 0;               // holds from timePs until the next sample
    bool operator==(const CounterSample&) const = default;
};

// A quantity over time: bandwidth in use on a path (GB/s, summed over its transfers) or the
// working memory a core's current block holds (bytes).
struct Counter {
    enum class Kind : std::uint8_t { PathBandwidth, SramBytes } kind = Kind::PathBandwidth;
    std::uint32_t index = 0;        // path index or core
    std::vector<CounterSample> samples;
    bool operator==(const Counter&) const = default;
};
std::string_view counterKindName(Counter::Kind kind); // "path_bandwidth", "sram_bytes"
std::string counterName(const Counter& counter, const std::vector<TracePath>& paths); // "mvp GB/s", "core 3 SRAM bytes"

struct Trace {
    int schemaVersion = kTraceSchemaVersion;
    Source source = Source::Emulated;
    std::string target;             // target name
    double clockHz = 0;             // 0 when the run has no known clock (no cycle figures)
    int cores = 1;
    std::string modelName;
    std::string modelHash;          // ir/GraphHash.h content hash of the model compiled
    std::string mainMemory;         // transfers to or from it count as DRAM bytes
    std::vector<TracePath> paths;
    std::vector<std::string> ops;   // op names; Event::op indexes this
    std::vector<Event> events;
    std::vector<Counter> counters;

    std::string_view opName(const Event& e) const { return e.op < ops.size() ? std::string_view(ops[e.op]) : ""; }
    std::string_view pathName(const Event& e) const {
        return e.path < paths.size() ? std::string_view(paths[e.path].name) : "";
    }
    // Cycles of `ps` at the trace's clock; 0 without one.
    double cycles(std::int64_t ps) const { return clockHz > 0 ? double(ps) * clockHz * 1e-12 : 0; }
    std::int64_t endPs() const;     // the latest event end, 0 for an empty trace

    bool operator==(const Trace&) const = default;
};

} // namespace strata::trace

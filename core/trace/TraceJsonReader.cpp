// Reading a trace back from its Chrome trace-event JSON, with a diagnostic for every problem.

#include "base/JsonReader.h"
#include "base/SafeFiles.h"
#include "trace/TraceJson.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <unordered_map>

namespace strata::trace {
namespace {

constexpr std::string_view kEventKinds = "transfer, compute, wait, barrier";

std::optional<EventKind> parseKind(std::string_view text) {
    for (EventKind k : {EventKind::Transfer, EventKind::Compute, EventKind::Wait, EventKind::Barrier})
        if (eventKindName(k) == text) return k;
    return std::nullopt;
}

std::optional<Source> parseSource(std::string_view text) {
    if (text == "emulated") return Source::Emulated;
    if (text == "measured") return Source::Measured;
    return std::nullopt;
}

// Time fields are doubles in the file; picoseconds in memory. Values beyond int64 picoseconds
// (about 106 days) are refused rather than wrapped.
std::optional<std::int64_t> toPicoseconds(double value, double scale) {
    const double ps = std::round(value * scale);
    if (!std::isfinite(ps) || std::fabs(ps) > 9.0e18) return std::nullopt;
    return static_cast<std::int64_t>(ps);
}

// How many trace events `text` can hold at most: one per "ph" key (a "ph" inside a string only
// makes the bound looser).
std::size_t eventBound(std::string_view text) {
    std::size_t count = 0;
    for (std::size_t at = text.find("\"ph\""); at != std::string_view::npos;
         at = text.find("\"ph\"", at + 4))
        ++count;
    return count;
}

class TraceReader {
  public:
    explicit TraceReader(std::string file) : m_file(std::move(file)) {}

    // The parser's filter (json::ParseFilter): reads the header as soon as "strata" is complete,
    // then each element of the top-level "traceEvents" array as it completes, and drops it.
    // Events before the header stay in the document and read() takes them.
    bool onParsed(int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        if (depth == 1) {
            if (event == Event::key)
                m_rootKey = parsed.get<std::string>();
            else if (event == Event::object_end && m_rootKey == "strata" && !m_headerRead) {
                readHeader(json::FieldReader(parsed, "strata", m_file, m_diagnostics));
                m_headerRead = true;
                m_headerErrors = hasErrors(m_diagnostics);
            } else if (event == Event::array_start)
                m_inEvents = m_rootKey == "traceEvents";
            else if (event == Event::array_end)
                m_inEvents = false;
            return true;
        }
        const bool element =
            depth == 2 && m_inEvents &&
            (event == Event::object_end || event == Event::array_end || event == Event::value);
        if (!element || !m_headerRead)
            return true;
        // After a header error nothing of the events is read (as when reading the document).
        if (!m_headerErrors && errorCount() < kMaxTraceErrors)
            readEvent(json::FieldReader(parsed, "traceEvents[" + std::to_string(m_streamed) + "]",
                                        m_file, m_diagnostics));
        ++m_streamed;
        return false;
    }

    // After parsing: what onParsed did not read.
    Expected<LoadedTrace> read(const nlohmann::json& document) {
        json::FieldReader root(document, "", m_file, m_diagnostics);
        if (!root.isObject()) return finish();
        if (!root.has("strata")) {
            root.error("", "not a Strata trace: no 'strata' object (see docs/TRACE_FORMAT.md)");
            return finish();
        }
        if (!m_headerRead) {
            readHeader(root.object("strata"));
            m_headerErrors = hasErrors(m_diagnostics);
        }
        const nlohmann::json* events = root.array("traceEvents");
        if (m_headerErrors || !events) return finish();
        for (std::size_t i = 0; i < events->size() && errorCount() < kMaxTraceErrors; ++i)
            readEvent(root.element(*events, i, "traceEvents"));
        if (errorCount() >= kMaxTraceErrors)
            m_diagnostics.push_back(note("stopped reading after " + std::to_string(kMaxTraceErrors) + " errors", {.file = m_file}));
        for (const auto& [phase, count] : m_ignoredPhases)
            m_diagnostics.push_back(warning(std::to_string(count) + " event(s) of phase '" + phase +
                                                "' ignored (Strata reads X, C and M events)",
                                            {.file = m_file, .field = "traceEvents"}));
        if (m_maxCore >= 0 && m_trace.cores <= m_maxCore) m_trace.cores = m_maxCore + 1;
        return finish();
    }

  private:
    std::size_t errorCount() const {
        std::size_t n = 0;
        for (const Diagnostic& d : m_diagnostics) n += d.severity == Severity::Error;
        return n;
    }

    Expected<LoadedTrace> finish() {
        if (hasErrors(m_diagnostics)) return std::move(m_diagnostics);
        return LoadedTrace{std::move(m_trace), std::move(m_diagnostics)};
    }

    void readHeader(json::FieldReader header) {
        if (!header.isObject()) return;
        if (auto version = header.integer("schema_version")) {
            if (*version > kTraceSchemaVersion)
                header.error("schema_version", "written by a newer Strata (trace schema " + std::to_string(*version) +
                                                   ", this build reads " + std::to_string(kTraceSchemaVersion) + ")");
            else if (*version < 1)
                header.error("schema_version", "must be at least 1");
            else
                m_trace.schemaVersion = static_cast<int>(*version);
        }
        if (auto source = header.string("source")) {
            if (auto s = parseSource(*source))
                m_trace.source = *s;
            else
                header.error("source", "unknown source '" + *source + "' (emulated, measured)");
        }
        m_trace.target = header.stringOr("target", "");
        m_trace.clockHz = header.numberOr("clock_hz", 0);
        if (m_trace.clockHz < 0) header.error("clock_hz", "must not be negative");
        const std::int64_t cores = header.integerOr("cores", 1);
        if (cores < 1 || cores > (1 << 20))
            header.error("cores", "must be within 1..1048576");
        else
            m_trace.cores = static_cast<int>(cores);
        m_trace.mainMemory = header.stringOr("main_memory", "");
        if (header.has("model")) {
            json::FieldReader model = header.object("model");
            m_trace.modelName = model.stringOr("name", "");
            m_trace.modelHash = model.stringOr("hash", "");
        }
        if (const nlohmann::json* paths = header.optionalArray("paths")) {
            for (std::size_t i = 0; i < paths->size(); ++i) {
                json::FieldReader p = header.element(*paths, i, "paths");
                auto name = p.string("name");
                if (!name) continue;
                if (m_pathIndex.count(*name)) {
                    p.error("name", "path '" + *name + "' listed twice");
                    continue;
                }
                addPath({*name, p.stringOr("from", ""), p.stringOr("to", "")});
            }
        }
        if (const nlohmann::json* ops = header.optionalArray("ops")) {
            for (std::size_t i = 0; i < ops->size(); ++i) {
                const nlohmann::json& op = (*ops)[i];
                if (!op.is_string()) {
                    m_diagnostics.push_back(error("expected a string, got " + json::describeType(op),
                                                  {.file = m_file, .field = header.fieldPath("ops") + "[" + std::to_string(i) + "]"}));
                    continue;
                }
                m_trace.ops.push_back(op.get<std::string>());
                m_opIndex.emplace(m_trace.ops.back(), static_cast<std::uint32_t>(m_trace.ops.size() - 1));
            }
        }
        if (const nlohmann::json* counters = header.optionalArray("counters")) {
            for (std::size_t i = 0; i < counters->size(); ++i) {
                json::FieldReader c = header.element(*counters, i, "counters");
                auto name = c.string("name");
                auto kind = c.string("kind");
                auto index = c.integer("index");
                if (!name || !kind || !index) continue;
                Counter counter;
                if (*kind == "path_bandwidth")
                    counter.kind = Counter::Kind::PathBandwidth;
                else if (*kind == "sram_bytes")
                    counter.kind = Counter::Kind::SramBytes;
                else {
                    c.error("kind", "unknown counter kind '" + *kind + "' (path_bandwidth, sram_bytes)");
                    continue;
                }
                if (*index < 0 || *index > std::numeric_limits<std::uint32_t>::max()) {
                    c.error("index", "out of range");
                    continue;
                }
                counter.index = static_cast<std::uint32_t>(*index);
                m_counterIndex[*name] = m_trace.counters.size();
                m_trace.counters.push_back(counter);
            }
        }
    }

    std::uint16_t addPath(TracePath path) {
        const auto index = static_cast<std::uint16_t>(m_trace.paths.size());
        m_pathIndex.emplace(path.name, index);
        m_trace.paths.push_back(std::move(path));
        return index;
    }

    void readEvent(json::FieldReader e) {
        if (!e.isObject()) return;
        auto phase = e.string("ph");
        if (!phase) return;
        if (*phase == "M") return;
        if (*phase == "C") return readCounterSample(e);
        if (*phase != "X") {
            ++m_ignoredPhases[*phase];
            return;
        }
        json::FieldReader args = e.object("args");
        if (!args.isObject()) return;
        Event event;
        event.source = m_trace.source;
        auto id = args.integer("id");
        auto kind = args.string("kind");
        auto core = args.integer("core");
        if (id && (*id < 0 || *id > std::numeric_limits<std::uint32_t>::max())) args.error("id", "must be within 0..4294967295");
        if (core && (*core < 0 || *core >= (1 << 20))) args.error("core", "must be within 0..1048575");
        std::optional<EventKind> parsedKind;
        if (kind && !(parsedKind = parseKind(*kind))) args.error("kind", "unknown kind '" + *kind + "' (" + std::string(kEventKinds) + ")");
        if (!id || !core || !parsedKind || *id < 0 || *core < 0) return;
        event.id = static_cast<std::uint32_t>(*id);
        event.core = static_cast<std::uint32_t>(*core);
        event.kind = *parsedKind;
        if (!readTimes(e, args, event)) return;

        if (event.kind == EventKind::Transfer) {
            auto path = args.string("path");
            if (!path) return;
            auto found = m_pathIndex.find(*path);
            if (found != m_pathIndex.end())
                event.path = found->second;
            else if (m_trace.paths.size() + 1 >= kNoPath)
                return args.error("path", "too many paths");
            else
                event.path = addPath({*path, "", ""});
        }
        const std::int64_t bytes = args.integerOr("bytes", 0);
        if (bytes < 0) return args.error("bytes", "must not be negative");
        event.bytes = static_cast<std::uint64_t>(bytes);
        event.block = narrow(args, "block");
        event.tile = narrow(args, "tile");
        event.link = narrow(args, "link");
        if (args.has("op")) {
            auto op = args.string("op");
            if (!op) return;
            auto [it, fresh] = m_opIndex.emplace(*op, static_cast<std::uint32_t>(m_trace.ops.size()));
            if (fresh) m_trace.ops.push_back(*op);
            event.op = it->second;
        }
        if (args.has("source")) {
            auto source = args.string("source");
            if (!source) return;
            auto parsed = parseSource(*source);
            if (!parsed) return args.error("source", "unknown source '" + *source + "' (emulated, measured)");
            event.source = *parsed;
        }
        m_maxCore = std::max<std::int64_t>(m_maxCore, event.core);
        m_trace.events.push_back(event);
    }

    // Optional int32 fields default to -1.
    std::int32_t narrow(json::FieldReader& args, std::string_view key) {
        const std::int64_t value = args.integerOr(key, -1);
        if (value < -1 || value > std::numeric_limits<std::int32_t>::max()) {
            args.error(key, "must be within -1..2147483647");
            return -1;
        }
        return static_cast<std::int32_t>(value);
    }

    // start_ns/end_ns when present (exact), else Chrome's ts/dur in microseconds.
    bool readTimes(json::FieldReader& e, json::FieldReader& args, Event& event) {
        std::optional<std::int64_t> start, end;
        if (args.has("start_ns") || args.has("end_ns")) {
            auto s = args.number("start_ns");
            auto f = args.number("end_ns");
            if (!s || !f) return false;
            start = toPicoseconds(*s, 1e3);
            end = toPicoseconds(*f, 1e3);
            if (!start || !end) {
                args.error("start_ns", "time out of range");
                return false;
            }
        } else {
            auto ts = e.number("ts");
            auto dur = e.number("dur");
            if (!ts || !dur) return false;
            if (*dur < 0) {
                e.error("dur", "must not be negative");
                return false;
            }
            start = toPicoseconds(*ts, 1e6);
            auto length = toPicoseconds(*dur, 1e6);
            if (!start || !length) {
                e.error("ts", "time out of range");
                return false;
            }
            end = *start + *length;
        }
        if (*end < *start) {
            args.error("end_ns", "the event ends before it starts");
            return false;
        }
        event.startPs = *start;
        event.endPs = *end;
        return true;
    }

    void readCounterSample(json::FieldReader& e) {
        auto name = e.string("name");
        auto ts = e.number("ts");
        json::FieldReader args = e.object("args");
        if (!name || !ts || !args.isObject()) return;
        auto found = m_counterIndex.find(*name);
        if (found == m_counterIndex.end()) {
            ++m_ignoredPhases["C (counter not listed in strata.counters)"];
            return;
        }
        auto value = args.number("value");
        auto time = toPicoseconds(*ts, 1e6);
        if (!value) return;
        if (!time) return e.error("ts", "time out of range");
        m_trace.counters[found->second].samples.push_back({*time, *value});
    }

    std::string m_file;
    std::string m_rootKey; // the last key of the document's object
    bool m_headerRead = false;
    bool m_headerErrors = false; // the header had errors: the events are not read
    bool m_inEvents = false; // inside the top-level "traceEvents" array
    std::size_t m_streamed = 0;
    std::vector<Diagnostic> m_diagnostics;
    Trace m_trace;
    std::unordered_map<std::string, std::uint16_t> m_pathIndex;
    std::unordered_map<std::string, std::uint32_t> m_opIndex;
    std::unordered_map<std::string, std::size_t> m_counterIndex;
    std::map<std::string, std::size_t> m_ignoredPhases;
    std::int64_t m_maxCore = -1;
};

} // namespace

Expected<LoadedTrace> parseTraceJson(std::string_view text, const std::string& file,
                                     std::size_t maxEvents) {
    if (const std::size_t bound = eventBound(text); bound > maxEvents)
        return error("too many events for a trace (up to " + std::to_string(bound) + ", at most " +
                         std::to_string(maxEvents) + "; docs/TRACE_FORMAT.md)",
                     {.file = file});
    TraceReader reader(file);
    auto document = json::parseDocument(
        text, file, [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
            return reader.onParsed(depth, event, parsed);
        });
    if (!document) return document.takeDiagnostics();
    return reader.read(*document);
}

Expected<LoadedTrace> loadTraceFile(const std::string& path) {
    if (auto refused = checkReadableFile(path, "trace"))
        return *refused;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return error("cannot read the file: " + ec.message(), {.file = path});
    if (size > kMaxTraceFileBytes)
        return error("file too large for a trace (" + std::to_string(size) + " bytes, at most " +
                         std::to_string(kMaxTraceFileBytes) + ")",
                     {.file = path});
    std::ifstream in(path, std::ios::binary);
    std::string text(size, '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(size))) return error("cannot read the file", {.file = path});
    return parseTraceJson(text, path);
}

} // namespace strata::trace

// Writing the Chrome trace-event JSON. Written as text (not through a JSON DOM) so a trace of
// millions of events streams out in chunks.

#include "base/SafeFiles.h"
#include "trace/TraceJson.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace strata::trace {
namespace {

std::string jsonString(std::string_view text) { return nlohmann::json(std::string(text)).dump(); }

// Microseconds, as Chrome's ts and dur want them; shortest round-trip decimal.
double micros(std::int64_t ps) { return double(ps) / 1e6; }
double nanos(std::int64_t ps) { return double(ps) / 1e3; }

// Where each event is drawn: one process per core (pid = core + 1), its stream thread and one
// thread per (path, lane); thread ids are unique over the whole trace.
struct Tracks {
    std::vector<int> tidOfEvent;
    struct Thread {
        int pid;
        int tid;
        std::string name;
    };
    std::vector<Thread> threads;
};

Tracks assignTracks(const Trace& trace) {
    Tracks tracks;
    const auto& events = trace.events;
    tracks.tidOfEvent.assign(events.size(), 0);
    std::uint32_t cores = static_cast<std::uint32_t>(std::max(trace.cores, 1));
    for (const Event& e : events) cores = std::max(cores, e.core + 1);

    // Transfers per (core, path), by start: a transfer takes the first lane free by its start.
    std::map<std::pair<std::uint32_t, std::uint16_t>, std::vector<std::uint32_t>> transfers;
    for (std::uint32_t i = 0; i < events.size(); ++i)
        if (events[i].kind == EventKind::Transfer) transfers[{events[i].core, events[i].path}].push_back(i);

    int nextTid = 1;
    std::vector<int> streamTid(cores);
    for (std::uint32_t c = 0; c < cores; ++c) {
        streamTid[c] = nextTid++;
        tracks.threads.push_back({static_cast<int>(c) + 1, streamTid[c], "stream"});
        for (auto it = transfers.lower_bound({c, 0}); it != transfers.end() && it->first.first == c; ++it) {
            auto& list = it->second;
            std::sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) {
                return std::tie(events[a].startPs, events[a].id) < std::tie(events[b].startPs, events[b].id);
            });
            std::vector<std::int64_t> laneEnd;
            std::vector<int> laneTid;
            const std::string path = it->first.second < trace.paths.size() ? trace.paths[it->first.second].name : "path";
            for (std::uint32_t i : list) {
                std::size_t lane = 0;
                while (lane < laneEnd.size() && laneEnd[lane] > events[i].startPs) ++lane;
                if (lane == laneEnd.size()) {
                    laneEnd.push_back(0);
                    laneTid.push_back(nextTid++);
                    tracks.threads.push_back({static_cast<int>(c) + 1, laneTid.back(), fmt::format("{} #{}", path, lane)});
                }
                laneEnd[lane] = events[i].endPs;
                tracks.tidOfEvent[i] = laneTid[lane];
            }
        }
    }
    for (std::uint32_t i = 0; i < events.size(); ++i)
        if (events[i].kind != EventKind::Transfer) tracks.tidOfEvent[i] = streamTid[events[i].core];
    return tracks;
}

std::string eventName(const Trace& trace, const Event& e) {
    switch (e.kind) {
    case EventKind::Transfer: return fmt::format("{} {}", trace.pathName(e), trace.opName(e));
    case EventKind::Compute: return std::string(trace.opName(e));
    case EventKind::Wait: return "wait";
    case EventKind::Barrier: return fmt::format("barrier {}", e.link);
    }
    return "?";
}

void writeHeader(const Trace& trace, fmt::memory_buffer& out) {
    auto o = std::back_inserter(out);
    fmt::format_to(o, "{{\"displayTimeUnit\":\"ns\",\n\"strata\":{{\"schema_version\":{},\"source\":\"{}\",", trace.schemaVersion,
                   sourceName(trace.source));
    fmt::format_to(o, "\"target\":{},\"clock_hz\":{},\"cores\":{},\"main_memory\":{},", jsonString(trace.target), trace.clockHz,
                   trace.cores, jsonString(trace.mainMemory));
    fmt::format_to(o, "\"model\":{{\"name\":{},\"hash\":{}}},\n\"paths\":[", jsonString(trace.modelName), jsonString(trace.modelHash));
    for (std::size_t p = 0; p < trace.paths.size(); ++p)
        fmt::format_to(o, "{}{{\"name\":{},\"from\":{},\"to\":{}}}", p ? "," : "", jsonString(trace.paths[p].name),
                       jsonString(trace.paths[p].from), jsonString(trace.paths[p].to));
    fmt::format_to(o, "],\n\"ops\":[");
    for (std::size_t i = 0; i < trace.ops.size(); ++i) fmt::format_to(o, "{}{}", i ? "," : "", jsonString(trace.ops[i]));
    fmt::format_to(o, "],\n\"counters\":[");
    for (std::size_t i = 0; i < trace.counters.size(); ++i) {
        const Counter& c = trace.counters[i];
        fmt::format_to(o, "{}{{\"name\":{},\"kind\":\"{}\",\"index\":{}}}", i ? "," : "", jsonString(counterName(c, trace.paths)),
                       counterKindName(c.kind), c.index);
    }
    fmt::format_to(o, "]}},\n\"traceEvents\":[\n");
}

} // namespace

void writeTraceJson(const Trace& trace, std::ostream& out) {
    fmt::memory_buffer buffer;
    auto flush = [&](bool force) {
        if (force || buffer.size() > (1u << 20)) {
            out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
            buffer.clear();
        }
    };
    auto o = std::back_inserter(buffer);
    writeHeader(trace, buffer);

    const Tracks tracks = assignTracks(trace);
    bool first = true;
    auto separator = [&] {
        const char* s = first ? "" : ",\n";
        first = false;
        return s;
    };
    std::uint32_t cores = 0;
    for (const auto& t : tracks.threads) cores = std::max(cores, static_cast<std::uint32_t>(t.pid));
    for (std::uint32_t pid = 1; pid <= cores; ++pid) {
        fmt::format_to(o, "{}{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{},\"tid\":0,\"args\":{{\"name\":\"core {}\"}}}}",
                       separator(), pid, pid - 1);
        fmt::format_to(o, ",\n{{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":{},\"tid\":0,\"args\":{{\"sort_index\":{}}}}}",
                       pid, pid);
    }
    const int pathsPid = static_cast<int>(cores) + 1;
    fmt::format_to(o, "{}{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{},\"tid\":0,\"args\":{{\"name\":\"paths\"}}}}",
                   separator(), pathsPid);
    for (const auto& t : tracks.threads) {
        fmt::format_to(o, ",\n{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":{}}}}}", t.pid,
                       t.tid, jsonString(t.name));
        fmt::format_to(o, ",\n{{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":{},\"tid\":{},\"args\":{{\"sort_index\":{}}}}}",
                       t.pid, t.tid, t.tid);
    }

    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& e = trace.events[i];
        fmt::format_to(o, ",\n{{\"name\":{},\"cat\":\"{}\",\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"args\":{{",
                       jsonString(eventName(trace, e)), eventKindName(e.kind), e.core + 1, tracks.tidOfEvent[i], micros(e.startPs),
                       micros(e.durationPs()));
        fmt::format_to(o, "\"id\":{},\"kind\":\"{}\",\"core\":{}", e.id, eventKindName(e.kind), e.core);
        if (e.path != kNoPath) fmt::format_to(o, ",\"path\":{}", jsonString(trace.pathName(e)));
        fmt::format_to(o, ",\"bytes\":{},\"block\":{}", e.bytes, e.block);
        if (e.op != kNone) fmt::format_to(o, ",\"op\":{}", jsonString(trace.opName(e)));
        fmt::format_to(o, ",\"tile\":{},\"link\":{},\"source\":\"{}\",\"start_ns\":{},\"end_ns\":{}", e.tile, e.link,
                       sourceName(e.source), nanos(e.startPs), nanos(e.endPs));
        if (trace.clockHz > 0) fmt::format_to(o, ",\"cycles\":{}", trace.cycles(e.durationPs()));
        fmt::format_to(o, "}}}}");
        flush(false);
    }
    for (const Counter& c : trace.counters) {
        const std::string name = jsonString(counterName(c, trace.paths));
        const int pid = c.kind == Counter::Kind::SramBytes ? static_cast<int>(c.index) + 1 : pathsPid;
        for (const CounterSample& s : c.samples)
            fmt::format_to(o, ",\n{{\"name\":{},\"ph\":\"C\",\"pid\":{},\"ts\":{},\"args\":{{\"value\":{}}}}}", name, pid,
                           micros(s.timePs), s.value);
        flush(false);
    }
    fmt::format_to(o, "\n]}}\n");
    flush(true);
}

std::string traceToJson(const Trace& trace) {
    std::ostringstream out;
    writeTraceJson(trace, out);
    return out.str();
}

std::vector<Diagnostic> saveTraceFile(const Trace& trace, const std::string& path) {
    if (auto failed =
            writeFileAtomically(path, [&](std::ostream& out) { writeTraceJson(trace, out); }))
        return {*failed};
    return {};
}

} // namespace strata::trace

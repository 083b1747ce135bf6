// The trace file: lossless round trip, Perfetto's view of it (tracks), and CSV.

#include "trace/TraceCsv.h"
#include "trace/TraceJson.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

namespace strata::trace {
namespace {

// Two cores, two paths, awkward numbers: times that are not whole nanoseconds, a name that
// needs escaping, a measured event, counters.
Trace handTrace() {
    Trace t;
    t.source = Source::Emulated;
    t.target = "tiny \"test\"";
    t.clockHz = 1.3e9;
    t.cores = 2;
    t.modelName = "model/ü";
    t.modelHash = "abc123";
    t.mainMemory = "DRAM";
    t.paths = {{"load", "DRAM", "SRAM"}, {"store", "SRAM", "DRAM"}};
    t.ops = {"conv,1", "relu"};
    auto event = [](std::uint32_t id, std::uint32_t core, EventKind kind, std::int64_t start, std::int64_t end) {
        Event e;
        e.id = id;
        e.core = core;
        e.kind = kind;
        e.startPs = start;
        e.endPs = end;
        return e;
    };
    Event load = event(0, 0, EventKind::Transfer, 0, 123457);
    load.path = 0;
    load.bytes = 1600;
    load.block = 0;
    load.op = 0;
    load.tile = 5;
    Event second = event(1, 0, EventKind::Transfer, 1, 99999999999);
    second.path = 0;
    second.bytes = 1ull << 40;
    second.block = 0;
    Event wait = event(2, 0, EventKind::Wait, 3, 123457);
    wait.link = 0;
    wait.block = 0;
    Event compute = event(3, 1, EventKind::Compute, 7, 3600000000001); // an hour in: still exact
    compute.op = 1;
    compute.block = 2;
    compute.bytes = 4096;
    compute.source = Source::Measured;
    Event barrier = event(4, 1, EventKind::Barrier, 3600000000001, 3600000000002);
    barrier.link = 0;
    Event store = event(5, 1, EventKind::Transfer, 10, 20);
    store.path = 1;
    t.events = {load, second, wait, compute, barrier, store};
    t.counters = {{Counter::Kind::PathBandwidth, 0, {{0, 0}, {100001, 16.5}, {123457, 0}}},
                  {Counter::Kind::SramBytes, 1, {{0, 0}, {7, 65536}}}};
    return t;
}

TEST(TraceJson, RoundTripIsLossless) {
    const Trace original = handTrace();
    auto loaded = parseTraceJson(traceToJson(original), "hand.json");
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    EXPECT_TRUE(loaded->warnings.empty());
    EXPECT_EQ(loaded->trace.events, original.events);
    EXPECT_EQ(loaded->trace.counters, original.counters);
    EXPECT_TRUE(loaded->trace == original);
}

TEST(TraceJson, IsAChromeTraceWithOneTrackPerCoreAndPathLane) {
    const auto doc = nlohmann::json::parse(traceToJson(handTrace()));
    ASSERT_TRUE(doc.contains("traceEvents"));
    std::set<std::string> processes, threads;
    std::set<std::pair<int, int>> namedThreads;
    std::size_t complete = 0, counters = 0;
    for (const auto& e : doc["traceEvents"]) {
        ASSERT_TRUE(e.contains("ph") && e.contains("pid"));
        const std::string ph = e["ph"];
        if (ph == "M" && e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
        if (ph == "M" && e["name"] == "thread_name") {
            threads.insert(std::to_string(e["pid"].get<int>()) + ":" + e["args"]["name"].get<std::string>());
            namedThreads.insert({e["pid"].get<int>(), e["tid"].get<int>()});
        }
        if (ph == "X") {
            ++complete;
            // The documented fields of a complete event, numbers where the format wants them.
            EXPECT_TRUE(e["name"].is_string());
            EXPECT_TRUE(e["ts"].is_number() && e["dur"].is_number() && e["tid"].is_number());
            EXPECT_GE(e["dur"].get<double>(), 0);
            EXPECT_TRUE(namedThreads.count({e["pid"].get<int>(), e["tid"].get<int>()})) << e.dump();
        }
        if (ph == "C") {
            ++counters;
            EXPECT_TRUE(e["args"]["value"].is_number());
        }
    }
    EXPECT_EQ(complete, 6u);
    EXPECT_EQ(counters, 5u);
    EXPECT_EQ(processes, (std::set<std::string>{"core 0", "core 1", "paths"}));
    // Core 0's two loads overlap, so they take two lanes.
    EXPECT_EQ(threads, (std::set<std::string>{"1:stream", "1:load #0", "1:load #1", "2:stream", "2:store #0"}));
    EXPECT_EQ(doc["strata"]["schema_version"], kTraceSchemaVersion);
    EXPECT_EQ(doc["strata"]["source"], "emulated");
    EXPECT_EQ(doc["displayTimeUnit"], "ns");
}

TEST(TraceJson, ForeignTraceWithOnlyTsAndDurLoads) {
    // What a user with a real accelerator writes: the header, and per event Chrome's own times.
    const char* text = R"({"strata": {"schema_version": 1, "source": "measured", "target": "mine"},
        "traceEvents": [
          {"ph": "X", "name": "x", "pid": 1, "tid": 1, "ts": 1.5, "dur": 2.25,
           "args": {"id": 7, "kind": "transfer", "core": 3, "path": "dma", "bytes": 64}},
          {"ph": "B", "name": "ignored", "pid": 1, "tid": 1, "ts": 0}
        ]})";
    auto loaded = parseTraceJson(text, "mine.json");
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    const Trace& t = loaded->trace;
    ASSERT_EQ(t.events.size(), 1u);
    EXPECT_EQ(t.events[0].startPs, 1500000);
    EXPECT_EQ(t.events[0].endPs, 3750000);
    EXPECT_EQ(t.events[0].source, Source::Measured);
    EXPECT_EQ(t.pathName(t.events[0]), "dma");
    EXPECT_EQ(t.cores, 4);
    ASSERT_EQ(loaded->warnings.size(), 1u);
    EXPECT_NE(loaded->warnings[0].message.find("phase 'B'"), std::string::npos);
}

TEST(TraceJson, TheDocumentedMinimalExampleLoads) {
    // docs/TRACE_FORMAT.md, "Example": keep the two in step.
    const char* text = R"({
  "strata": {"schema_version": 1, "source": "measured", "target": "my-npu", "clock_hz": 1.2e9,
             "paths": [{"name": "dma_in", "from": "HBM", "to": "SRAM"}]},
  "traceEvents": [
    {"ph": "X", "name": "load x", "pid": 1, "tid": 2, "ts": 0.0, "dur": 1.25,
     "args": {"id": 0, "kind": "transfer", "core": 0, "path": "dma_in", "bytes": 65536, "block": 0}},
    {"ph": "X", "name": "wait", "pid": 1, "tid": 1, "ts": 0.002, "dur": 1.3,
     "args": {"id": 1, "kind": "wait", "core": 0, "block": 0, "link": 0}}
  ]
})";
    auto loaded = parseTraceJson(text, "example.json");
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    const Trace& t = loaded->trace;
    ASSERT_EQ(t.events.size(), 2u);
    EXPECT_EQ(t.events[0].endPs, 1250000);
    EXPECT_EQ(t.events[1].startPs, 2000);
    EXPECT_EQ(t.events[1].link, 0);
    EXPECT_EQ(t.paths[0].from, "HBM");
    EXPECT_EQ(t.source, Source::Measured);
}

TEST(TraceCsv, OneRowPerEventWithQuotedNames) {
    std::ostringstream out;
    writeTraceCsv(handTrace(), out);
    std::istringstream in(out.str());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    ASSERT_EQ(lines.size(), 7u);
    EXPECT_EQ(lines[0], "id,core,kind,path,start_ns,end_ns,duration_ns,cycles,bytes,block,op,tile,link,source");
    EXPECT_EQ(lines[1].substr(0, 30), "0,0,transfer,load,0,123.457,12");
    EXPECT_NE(lines[1].find(",\"conv,1\","), std::string::npos) << lines[1];
    EXPECT_NE(lines[4].find(",measured"), std::string::npos);
}

} // namespace
} // namespace strata::trace

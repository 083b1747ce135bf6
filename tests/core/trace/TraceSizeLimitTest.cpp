// Large traces (docs/TRACE_FORMAT.md, "Size limits"): a file with more events than the limit is
// refused with a figure before its events are read, in JSON and CSV; a JSON trace read event by
// event (header first, as Strata writes it) gives the same trace and the same diagnostics as one
// read as a whole document (events first).

#include "trace/TraceCsvReader.h"
#include "trace/TraceJson.h"

#include <gtest/gtest.h>
#include <cstdint>
#include <string>

namespace strata::trace {
namespace {

constexpr std::size_t kEvents = 20'000;

std::string header() {
    return R"("strata": {"schema_version": 1, "source": "measured", "cores": 2,)"
           R"( "paths": [{"name": "dma_in", "from": "HBM", "to": "SRAM"}]})";
}

// `count` events alternating transfer and compute on two cores; event `badAt` (if any) has an unknown kind.
std::string events(std::size_t count, std::size_t badAt = SIZE_MAX) {
    std::string out = R"("traceEvents": [)";
    for (std::size_t i = 0; i < count; ++i) {
        const std::string id = std::to_string(i);
        const std::string core = std::to_string(i % 2);
        const std::string ts = std::to_string(i * 2);
        const char* kind = i == badAt ? "bogus" : i % 2 == 0 ? "transfer" : "compute";
        out += (i ? ",\n" : "\n");
        out += R"({"ph": "X", "ts": )" + ts + R"(, "dur": 1.5, "args": {"id": )" + id +
               R"(, "kind": ")" + kind + R"(", "core": )" + core;
        out += i % 2 == 0 ? R"(, "path": "dma_in", "bytes": 4096)"
                          : R"(, "op": "conv", "bytes": 8192)";
        out += "}}";
    }
    return out + "]";
}

std::string headerFirst(const std::string& body) {
    return "{" + header() + ",\n" + body + "}";
}
std::string eventsFirst(const std::string& body) {
    return "{" + body + ",\n" + header() + "}";
}

TEST(TraceSizeLimit, AJsonTraceOverTheEventLimitIsRefusedWithItsFigure) {
    auto loaded = parseTraceJson(headerFirst(events(kEvents)), "big.json", kEvents / 2);
    ASSERT_FALSE(loaded.ok());
    ASSERT_EQ(loaded.diagnostics().size(), 1u);
    const std::string& message = loaded.diagnostics().front().message;
    EXPECT_NE(message.find("too many events"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(kEvents)), std::string::npos) << message;
    EXPECT_NE(message.find("at most " + std::to_string(kEvents / 2)), std::string::npos) << message;
    EXPECT_EQ(loaded.diagnostics().front().where.file, "big.json");
}

TEST(TraceSizeLimit, AJsonTraceWithinTheLimitLoadsEveryEvent) {
    auto loaded = parseTraceJson(headerFirst(events(kEvents)), "big.json", kEvents);
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    EXPECT_EQ(loaded->trace.events.size(), kEvents);
    EXPECT_EQ(loaded->trace.events.back().id, kEvents - 1);
}

TEST(TraceSizeLimit, ReadingEventByEventGivesWhatTheWholeDocumentGives) {
    auto streamed = parseTraceJson(headerFirst(events(kEvents)), "t.json");
    auto whole = parseTraceJson(eventsFirst(events(kEvents)), "t.json");
    ASSERT_TRUE(streamed.ok());
    ASSERT_TRUE(whole.ok());
    EXPECT_EQ(streamed->trace, whole->trace);
}

TEST(TraceSizeLimit, AnErrorDeepInAStreamedTraceNamesItsEvent) {
    const std::size_t bad = kEvents - 3;
    for (const std::string& text :
         {headerFirst(events(kEvents, bad)), eventsFirst(events(kEvents, bad))}) {
        auto loaded = parseTraceJson(text, "t.json");
        ASSERT_FALSE(loaded.ok());
        const Diagnostic& d = loaded.diagnostics().front();
        EXPECT_EQ(d.where.field, "traceEvents[" + std::to_string(bad) + "].args.kind");
        EXPECT_NE(d.message.find("bogus"), std::string::npos) << d.message;
    }
}

TEST(TraceSizeLimit, ACsvTraceOverTheEventLimitIsRefusedWithItsFigure) {
    std::string text = "# source: measured\nid,core,kind,start_ns,end_ns,path,bytes\n";
    for (std::size_t i = 0; i < kEvents; ++i)
        text += std::to_string(i) + ",0,compute," + std::to_string(i * 10) + "," +
                std::to_string(i * 10 + 5) + ",,64\n";
    auto refused = parseTraceCsv(text, "big.csv", kEvents / 2);
    ASSERT_FALSE(refused.ok());
    const std::string& message = refused.diagnostics().front().message;
    EXPECT_NE(message.find("too many rows"), std::string::npos) << message;
    EXPECT_NE(message.find("at most " + std::to_string(kEvents / 2)), std::string::npos) << message;

    auto loaded = parseTraceCsv(text, "big.csv", kEvents);
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    EXPECT_EQ(loaded->trace.events.size(), kEvents);
}

} // namespace
} // namespace strata::trace

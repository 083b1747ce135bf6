// Validating imported traces: unknown ids, negative durations, overlapping stream events, ids
// timed twice, kinds and cores that disagree with the program, truncated files.

#include "trace/TraceValidate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace strata::trace {
namespace {

// A file with `text` in a folder of its own, removed at the end of the test.
class TempFile {
  public:
    TempFile(const std::string& name, const std::string& text)
        : m_dir(std::filesystem::temp_directory_path() / ("strata-validate-" + std::to_string(::getpid()) + "-" + name)) {
        std::filesystem::create_directories(m_dir);
        std::ofstream(m_dir / name, std::ios::binary) << text;
        m_path = (m_dir / name).string();
    }
    ~TempFile() { std::filesystem::remove_all(m_dir); }
    const std::string& path() const { return m_path; }

  private:
    std::filesystem::path m_dir;
    std::string m_path;
};

Event event(std::uint32_t id, EventKind kind, std::uint32_t core, std::int64_t startNs, std::int64_t endNs,
            std::uint16_t path = kNoPath) {
    Event e;
    e.id = id;
    e.kind = kind;
    e.core = core;
    e.startPs = startNs * 1000;
    e.endPs = endNs * 1000;
    e.path = path;
    e.source = Source::Measured;
    return e;
}

// A program of five instructions: a load and its wait, a compute on core 0; a compute on core 1.
Trace programTrace() {
    Trace t;
    t.cores = 2;
    t.paths = {{"load", "dram", "sram"}};
    t.events = {event(0, EventKind::Transfer, 0, 0, 100, 0), event(1, EventKind::Wait, 0, 1, 100),
                event(2, EventKind::Compute, 0, 100, 300), event(3, EventKind::Compute, 1, 0, 250),
                event(4, EventKind::Barrier, 1, 250, 300)};
    return t;
}

std::vector<std::string> messages(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    for (const Diagnostic& d : diagnostics) out.push_back(d.message);
    return out;
}

TEST(TraceValidate, ACorrectTraceHasNoDiagnostics) {
    const Trace t = programTrace();
    const auto program = instructionsOf(t);
    EXPECT_TRUE(validateTrace(t, {.program = &program}).empty());
}

TEST(TraceValidate, UnknownId) {
    const auto program = instructionsOf(programTrace());
    Trace t = programTrace();
    t.events.push_back(event(99, EventKind::Compute, 1, 300, 400));
    EXPECT_EQ(messages(validateTrace(t, {.program = &program})),
              std::vector<std::string>{"event i000099: unknown id: the program has no instruction i000099 (5 instructions)"});
}

TEST(TraceValidate, NegativeDuration) {
    Trace t = programTrace();
    t.events[3].endPs = -5000;
    EXPECT_EQ(messages(validateTrace(t)),
              std::vector<std::string>{"event i000003: negative duration (ends at -5 ns, before its start at 0 ns)"});
}

TEST(TraceValidate, OverlappingEventsOnOneStream) {
    Trace t = programTrace();
    t.events[2].startPs = 50000; // the compute starts while core 0 still waits (1..100 ns)
    EXPECT_EQ(messages(validateTrace(t)),
              std::vector<std::string>{"event i000002 (compute, 50 ns..300 ns) overlaps event i000001 (wait, 1 ns..100 ns) "
                                       "on core 0's stream"});
}

TEST(TraceValidate, TransfersMayOverlapTheStream) {
    Trace t = programTrace();
    t.events.push_back(event(5, EventKind::Transfer, 1, 10, 200, 0));
    EXPECT_TRUE(validateTrace(t).empty());
}

TEST(TraceValidate, OverlapNamesTheCsvLine) {
    Trace t = programTrace();
    t.events[4].startPs = 200000;
    const std::vector<std::size_t> lines{2, 3, 4, 5, 6};
    const auto d = validateTrace(t, {.lines = &lines, .file = "m.csv"});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].toString(), "error: m.csv: event i000004 (line 6) (barrier, 200 ns..300 ns) overlaps event i000003 "
                               "(line 5) (compute, 0 ns..250 ns) on core 1's stream");
}

TEST(TraceValidate, IdTimedTwice) {
    Trace t = programTrace();
    t.events.push_back(event(3, EventKind::Compute, 1, 400, 500));
    EXPECT_EQ(messages(validateTrace(t)), std::vector<std::string>{"event i000003: id timed twice (first by event i000003)"});
}

TEST(TraceValidate, KindCoreOrPathDisagreeWithTheProgram) {
    const auto program = instructionsOf(programTrace());
    Trace t = programTrace();
    t.events[3].core = 0;
    t.events[3].startPs = 300000;
    t.events[3].endPs = 400000;
    t.paths.push_back({"store", "sram", "dram"});
    t.events[0].path = 1;
    EXPECT_EQ(messages(validateTrace(t, {.program = &program})),
              (std::vector<std::string>{"event i000000: moves on path 'store', but the program's transfer uses 'load'",
                                        "event i000003: is a compute on core 0 in the trace, but the program's i000003 is a "
                                        "compute on core 1"}));
}

TEST(TraceValidate, MissingInstructionsAreAWarning) {
    const auto program = instructionsOf(programTrace());
    Trace t = programTrace();
    t.events.erase(t.events.begin() + 1);
    const auto d = validateTrace(t, {.program = &program});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Severity::Warning);
    EXPECT_EQ(d[0].message, "1 of the program's 5 instructions have no event (the first: i000001)");
}

TEST(TraceValidate, StopsAfterTwentyErrors) {
    Trace t;
    for (std::uint32_t i = 0; i < 40; ++i) t.events.push_back(event(i, EventKind::Compute, 0, 10, 5));
    const auto d = validateTrace(t);
    ASSERT_EQ(d.size(), kMaxValidateErrors + 1);
    EXPECT_EQ(d.back().message, "stopped checking after 20 errors");
}

TEST(TraceImport, ExampleFilesLoadAndValidate) {
    for (const char* name : {"measured_example.csv", "measured_example.json"}) {
        auto loaded = importTrace(std::string(STRATA_TRACE_DATA) + "/" + name);
        ASSERT_TRUE(loaded.ok()) << name << ": " << loaded.diagnostics().front().toString();
        EXPECT_EQ(loaded->trace.events.size(), 10u) << name;
        EXPECT_EQ(loaded->trace.source, Source::Measured) << name;
    }
}

TEST(TraceImport, TruncatedJsonNamesTheOffset) {
    TempFile file("truncated.json", R"({"strata": {"schema_version": 1, "source": "measured"}, "traceEvents": [{"ph": "X", "ts")");
    auto loaded = importTrace(file.path());
    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(loaded.diagnostics().front().where.offset.has_value());
    EXPECT_NE(loaded.diagnostics().front().message.find("unexpected end of input"), std::string::npos)
        << loaded.diagnostics().front().message;
}

TEST(TraceImport, CsvValidationNamesTheLine) {
    TempFile file("overlap.csv", "id,core,kind,start_ns,end_ns\n0,0,compute,0,100\n1,0,wait,50,60\n");
    auto loaded = importTrace(file.path());
    ASSERT_FALSE(loaded.ok());
    EXPECT_NE(loaded.diagnostics().front().message.find("event i000001 (line 3) (wait, 50 ns..60 ns) overlaps event i000000 (line 2)"),
              std::string::npos)
        << loaded.diagnostics().front().message;
}

TEST(TraceImport, UnknownIdAgainstTheProgram) {
    const auto program = instructionsOf(programTrace());
    TempFile file("m.csv", "id,core,kind,start_ns,end_ns\n3,1,compute,0,100\n17,1,compute,100,200\n");
    auto loaded = importTrace(file.path(), &program);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.diagnostics().front().message,
              "event i000017 (line 3): unknown id: the program has no instruction i000017 (5 instructions)");
}

TEST(TraceImport, MissingFile) {
    auto loaded = importTrace("/nonexistent/trace.csv");
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.diagnostics().front().message, "no such file");
}

} // namespace
} // namespace strata::trace

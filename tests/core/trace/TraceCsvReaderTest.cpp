// Reading traces from CSV: what `emulate --csv` writes reads back, the documented import example
// loads, and every malformed file gets an error naming its line.

#include "trace/TraceCsv.h"
#include "trace/TraceCsvReader.h"

#include <gtest/gtest.h>

#include <sstream>

namespace strata::trace {
namespace {

constexpr std::string_view kHeader = "id,core,kind,path,start_ns,end_ns,bytes,block,op\n";

std::string firstError(const std::string& text) {
    auto loaded = parseTraceCsv(text, "bad.csv");
    if (loaded.ok()) return "(loaded)";
    for (const Diagnostic& d : loaded.diagnostics())
        if (d.severity == Severity::Error) return d.where.field + ": " + d.message;
    return "(no error)";
}

Trace smallTrace() {
    Trace t;
    t.source = Source::Measured;
    t.cores = 2;
    t.paths = {{"load", "", ""}};
    t.ops = {"conv, \"quoted\""};
    t.events.push_back({0, 1500, 4096, 0, 0, 0, 0, 3, -1, 0, EventKind::Transfer, Source::Measured});
    t.events.push_back({1500, 2750, 0, 1, 1, 0, 0, -1, 0, kNoPath, EventKind::Wait, Source::Measured});
    t.events.push_back({2750, 9001, 512, 2, 1, 0, 0, 3, -1, kNoPath, EventKind::Compute, Source::Measured});
    return t;
}

TEST(TraceCsvReader, ReadsWhatTheWriterWrites) {
    const Trace t = smallTrace();
    std::ostringstream out;
    writeTraceCsv(t, out);
    auto loaded = parseTraceCsv(out.str(), "t.csv");
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    const Trace& r = loaded->trace;
    EXPECT_EQ(r.source, Source::Measured);
    EXPECT_EQ(r.cores, 2);
    EXPECT_EQ(r.events, t.events);
    EXPECT_EQ(r.paths, t.paths);
    EXPECT_EQ(r.ops, t.ops);
    EXPECT_EQ(loaded->lines, (std::vector<std::size_t>{2, 3, 4}));
}

TEST(TraceCsvReader, ExampleFileLoadsWithItsHeaderComments) {
    auto loaded = loadTraceCsvFile(std::string(STRATA_TRACE_DATA) + "/measured_example.csv");
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    EXPECT_EQ(loaded->trace.target, "my-npu");
    EXPECT_EQ(loaded->trace.clockHz, 1.2e9);
    EXPECT_EQ(loaded->trace.source, Source::Measured);
    EXPECT_EQ(loaded->trace.cores, 2);
    ASSERT_EQ(loaded->trace.events.size(), 10u);
    EXPECT_EQ(loaded->trace.events[1].endPs, 1400000);
    EXPECT_EQ(loaded->trace.pathName(loaded->trace.events[6]), "dma_out");
    EXPECT_EQ(loaded->lines.front(), 8u);
}

TEST(TraceCsvReader, DurationInsteadOfEndAndColumnsInAnyOrder) {
    auto loaded = parseTraceCsv("kind,core,id,duration_ns,start_ns\ncompute,0,7,2.5,10\n", "t.csv");
    ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().front().toString();
    EXPECT_EQ(loaded->trace.events.at(0).id, 7u);
    EXPECT_EQ(loaded->trace.events[0].startPs, 10000);
    EXPECT_EQ(loaded->trace.events[0].endPs, 12500);
}

TEST(TraceCsvReader, UnknownColumnIsAWarning) {
    auto loaded = parseTraceCsv("id,core,kind,start_ns,end_ns,temperature\n0,0,compute,0,1,40\n", "t.csv");
    ASSERT_TRUE(loaded.ok());
    ASSERT_EQ(loaded->warnings.size(), 1u);
    EXPECT_EQ(loaded->warnings[0].message, "unknown column 'temperature' ignored");
}

TEST(TraceCsvReader, EmptyAndBinaryFiles) {
    EXPECT_EQ(firstError(""), ": empty file: expected a CSV header row");
    EXPECT_EQ(firstError(std::string("id\0", 3)), ": not a CSV file: contains NUL bytes");
    EXPECT_EQ(firstError("# only a comment\n"), "line 1: no header row: expected column names such as id,core,kind,path,start_ns,end_ns");
}

TEST(TraceCsvReader, HeaderWithoutRequiredColumns) {
    EXPECT_EQ(firstError("a,b,c\n1,2,3\n"), "line 1: header has no column 'id' (is this a Strata trace CSV?)");
    EXPECT_EQ(firstError("id,core,kind,start_ns\n"), "line 1: header needs a column 'end_ns' or 'duration_ns'");
    EXPECT_EQ(firstError("id,id,core,kind,start_ns,end_ns\n"), "line 1: column 'id' appears twice in the header");
}

TEST(TraceCsvReader, NegativeDuration) {
    EXPECT_EQ(firstError(std::string(kHeader) + "0,0,compute,,50,20,0,0,x\n"),
              "line 2, column 'end_ns': negative duration: the event ends (20 ns) before it starts (50 ns)");
    EXPECT_EQ(firstError("id,core,kind,start_ns,duration_ns\n0,0,compute,5,-3\n"),
              "line 2, column 'duration_ns': negative duration -3 ns");
}

TEST(TraceCsvReader, TruncatedFile) {
    EXPECT_EQ(firstError(std::string(kHeader) + "0,0,compute,,0,20,0,0,x\n1,0,comp"),
              "line 3: truncated row: 3 of 9 columns, and the file ends here");
    EXPECT_EQ(firstError(std::string(kHeader) + "0,0,compute,,0,20,0,0,\"conv"),
              "line 2: the file ends inside a quoted field (truncated?)");
}

TEST(TraceCsvReader, WrongColumnCountInTheMiddle) {
    EXPECT_EQ(firstError(std::string(kHeader) + "0,0,compute\n1,0,compute,,0,20,0,0,x\n"), "line 2: expected 9 columns, got 3");
}

TEST(TraceCsvReader, BadValuesNameLineAndColumn) {
    EXPECT_EQ(firstError(std::string(kHeader) + "zero,0,compute,,0,20,0,0,x\n"),
              "line 2, column 'id': expected an integer, got 'zero'");
    EXPECT_EQ(firstError(std::string(kHeader) + "0,-1,compute,,0,20,0,0,x\n"),
              "line 2, column 'core': must be within 0..1048575, got -1");
    EXPECT_EQ(firstError(std::string(kHeader) + "0,0,copy,,0,20,0,0,x\n"),
              "line 2, column 'kind': unknown kind 'copy' (transfer, compute, wait, barrier)");
    EXPECT_EQ(firstError(std::string(kHeader) + "0,0,compute,,soon,20,0,0,x\n"),
              "line 2, column 'start_ns': expected a time in ns, got 'soon'");
    EXPECT_EQ(firstError(std::string(kHeader) + "0,0,transfer,,0,20,0,0,x\n"), "line 2, column 'path': a transfer needs its path");
    EXPECT_EQ(firstError(std::string(kHeader) + "0,0,compute,,0,20,-5,0,x\n"),
              "line 2, column 'bytes': must be within 0..9223372036854775807, got -5");
    EXPECT_EQ(firstError("# clock_hz: fast\n" + std::string(kHeader)),
              "line 1: clock_hz: expected a non-negative number, got 'fast'");
}

TEST(TraceCsvReader, StopsAfterTwentyErrors) {
    std::string text(kHeader);
    for (int i = 0; i < 50; ++i) text += "x,0,compute,,0,1,0,0,a\n";
    auto loaded = parseTraceCsv(text, "bad.csv");
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.diagnostics().size(), kMaxCsvErrors + 1);
    EXPECT_EQ(loaded.diagnostics().back().message, "stopped reading after 20 errors");
}

} // namespace
} // namespace strata::trace

// Malformed trace files: each gets a clear error naming the field, never a crash.

#include "trace/TraceJson.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace strata::trace {
namespace {

// Joins pieces (GCC 12 warns falsely on chains of std::string operator+, bug 105329).
std::string cat(std::initializer_list<std::string_view> pieces) {
    std::string out;
    for (std::string_view p : pieces) out.append(p);
    return out;
}

constexpr std::string_view kHeader = R"("strata": {"schema_version": 1, "source": "emulated"})";

// A trace whose traceEvents are `events`.
std::string withEvents(std::string_view events) { return cat({"{", kHeader, R"(, "traceEvents": [)", events, "]}"}); }

// A trace with one event whose args are `args` (and whose other fields are `fields`).
std::string withEvent(std::string_view args, std::string_view fields = R"("ph": "X", "ts": 0, "dur": 1)") {
    return withEvents(cat({"{", fields, R"(, "args": {)", args, "}}"}));
}

constexpr std::string_view kGoodArgs = R"("id": 1, "kind": "compute", "core": 0)";
std::string goodArgsAnd(std::string_view more) { return cat({kGoodArgs, more}); }

// The first error's text, with its field.
std::string firstError(const std::string& text) {
    auto loaded = parseTraceJson(text, "bad.json");
    if (loaded.ok()) return "(loaded)";
    const Diagnostic& d = loaded.diagnostics().front();
    return d.where.field + ": " + d.message;
}

TEST(TraceBadInput, NotJson) {
    auto loaded = parseTraceJson("{\"traceEvents\": [", "bad.json");
    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(loaded.diagnostics().front().where.offset.has_value());
    EXPECT_EQ(firstError(""), ": empty file: expected a JSON document");
}

TEST(TraceBadInput, NotAnObject) { EXPECT_NE(firstError("[1, 2]").find("object"), std::string::npos); }

TEST(TraceBadInput, NoStrataHeader) {
    EXPECT_NE(firstError(R"({"traceEvents": []})").find("not a Strata trace"), std::string::npos);
}

TEST(TraceBadInput, MissingTraceEvents) {
    EXPECT_EQ(firstError(cat({"{", kHeader, "}"})), "traceEvents: missing required field");
}

TEST(TraceBadInput, TraceEventsNotAnArray) {
    EXPECT_NE(firstError(cat({"{", kHeader, R"(, "traceEvents": {}})"})).find("traceEvents: expected an array"), std::string::npos);
}

TEST(TraceBadInput, NewerSchema) {
    EXPECT_NE(firstError(R"({"strata": {"schema_version": 9, "source": "emulated"}, "traceEvents": []})")
                  .find("written by a newer Strata (trace schema 9"),
              std::string::npos);
}

TEST(TraceBadInput, UnknownSource) {
    EXPECT_EQ(firstError(R"({"strata": {"schema_version": 1, "source": "guessed"}, "traceEvents": []})"),
              "strata.source: unknown source 'guessed' (emulated, measured)");
}

TEST(TraceBadInput, BadFieldTypes) {
    EXPECT_NE(firstError(withEvent(R"("id": "one", "kind": "compute", "core": 0)")).find("traceEvents[0].args.id: expected"),
              std::string::npos);
    EXPECT_NE(firstError(withEvent(R"("id": 1, "kind": 3, "core": 0)")).find("traceEvents[0].args.kind: expected a string"),
              std::string::npos);
    EXPECT_NE(firstError(withEvent(kGoodArgs, R"("ph": "X", "ts": "0", "dur": 1)")).find("traceEvents[0].ts: expected"),
              std::string::npos);
    EXPECT_NE(firstError(withEvent(R"("id": 1.5, "kind": "compute", "core": 0)")).find("traceEvents[0].args.id"),
              std::string::npos);
}

TEST(TraceBadInput, MissingArgs) {
    EXPECT_EQ(firstError(withEvents(R"({"ph": "X", "ts": 0, "dur": 1})")),
              "traceEvents[0].args: missing required field");
    EXPECT_EQ(firstError(withEvent(R"("id": 1, "kind": "compute")")), "traceEvents[0].args.core: missing required field");
}

TEST(TraceBadInput, UnknownKind) {
    EXPECT_EQ(firstError(withEvent(R"("id": 1, "kind": "dma", "core": 0)")),
              "traceEvents[0].args.kind: unknown kind 'dma' (transfer, compute, wait, barrier)");
}

TEST(TraceBadInput, EndBeforeStart) {
    EXPECT_EQ(firstError(withEvent(goodArgsAnd(R"(, "start_ns": 10, "end_ns": 5)"))),
              "traceEvents[0].args.end_ns: the event ends before it starts");
    EXPECT_EQ(firstError(withEvent(kGoodArgs, R"("ph": "X", "ts": 0, "dur": -1)")), "traceEvents[0].dur: must not be negative");
}

TEST(TraceBadInput, TransferWithoutPath) {
    EXPECT_EQ(firstError(withEvent(R"("id": 1, "kind": "transfer", "core": 0)")), "traceEvents[0].args.path: missing required field");
}

TEST(TraceBadInput, NegativeCoreAndBytes) {
    EXPECT_NE(firstError(withEvent(R"("id": 1, "kind": "compute", "core": -2)")).find("args.core: must be within"), std::string::npos);
    EXPECT_EQ(firstError(withEvent(goodArgsAnd(R"(, "bytes": -5)"))), "traceEvents[0].args.bytes: must not be negative");
}

TEST(TraceBadInput, EventNotAnObject) {
    EXPECT_NE(firstError(withEvents("42")).find("traceEvents[0]"), std::string::npos);
}

TEST(TraceBadInput, StopsAfterTwentyErrors) {
    std::string events;
    for (int i = 0; i < 100; ++i) events.append(i ? "," : "").append(R"({"ph": "X", "ts": 0, "dur": 1, "args": {}})");
    auto loaded = parseTraceJson(withEvents(events), "bad.json");
    ASSERT_FALSE(loaded.ok());
    EXPECT_LE(loaded.diagnostics().size(), kMaxTraceErrors + 3);
    EXPECT_NE(loaded.diagnostics().back().message.find("stopped reading"), std::string::npos);
}

TEST(TraceBadInput, Files) {
    EXPECT_FALSE(loadTraceFile("/nonexistent/trace.json").ok());
    EXPECT_NE(loadTraceFile(std::filesystem::temp_directory_path().string()).diagnostics().front().message.find("directory"),
              std::string::npos);
    const auto path = std::filesystem::temp_directory_path() / "strata-truncated-trace.json";
    std::ofstream(path) << withEvent(kGoodArgs).substr(0, 40);
    auto loaded = loadTraceFile(path.string());
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.diagnostics().front().where.file, path.string());
    std::filesystem::remove(path);
}

} // namespace
} // namespace strata::trace

// strata::json: documents, and typed field access with field-path diagnostics.

#include "base/JsonReader.h"

#include "support/TestModels.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace strata::test {
namespace {

using strata::json::FieldReader;
using Json = nlohmann::json;

TEST(JsonDocument, ParsesValidText) {
    auto document = strata::json::parseDocument(R"({"a": [1, 2.5, "x"]})", "ok.json");
    ASSERT_TRUE(document.ok());
    EXPECT_EQ((*document)["a"][1], 2.5);
}

TEST(JsonDocument, RejectsBadText) {
    auto empty = strata::json::parseDocument("", "f.json");
    ASSERT_FALSE(empty.ok());
    EXPECT_TRUE(mentions(empty.diagnostics(), "empty file"));

    auto blank = strata::json::parseDocument(" \n\t", "f.json");
    ASSERT_FALSE(blank.ok());
    EXPECT_TRUE(mentions(blank.diagnostics(), "only whitespace"));

    auto nul = strata::json::parseDocument(std::string("{\"a\": 1}\0\0", 10), "f.json");
    ASSERT_FALSE(nul.ok());
    EXPECT_TRUE(mentions(nul.diagnostics(), "contains a NUL byte"));
    EXPECT_EQ(nul.diagnostics()[0].where.offset, 8u);

    auto malformed = strata::json::parseDocument(R"({"a" 1})", "f.json");
    ASSERT_FALSE(malformed.ok());
    EXPECT_TRUE(mentions(malformed.diagnostics(), "malformed JSON"));
    EXPECT_EQ(malformed.diagnostics()[0].where.offset, 5u);

    auto nan = strata::json::parseDocument(R"({"a": NaN})", "f.json");
    ASSERT_FALSE(nan.ok());
    EXPECT_TRUE(mentions(nan.diagnostics(), "malformed JSON"));

    auto huge = strata::json::parseDocument(R"({"a": [1, -1e400]})", "f.json");
    ASSERT_FALSE(huge.ok());
    EXPECT_TRUE(mentions(huge.diagnostics(), "number out of range"));
    EXPECT_EQ(huge.diagnostics()[0].where.offset, 10u);
}

TEST(JsonDocument, RefusesOversizedFiles) {
    TempDir dir;
    const auto path = dir.write("big.json", "{}");
    std::filesystem::resize_file(path,
                                 strata::json::kMaxDocumentBytes + 1); // sparse, costs no disk
    auto document = strata::json::readDocument(path.string());
    ASSERT_FALSE(document.ok());
    EXPECT_TRUE(mentions(document.diagnostics(), "file too large"));
    EXPECT_TRUE(mentions(document.diagnostics(), "the limit is 64 MiB"));
}

TEST(JsonDocument, ReadsAFile) {
    TempDir dir;
    const auto path = dir.write("ok.json", R"({"x": true})");
    auto document = strata::json::readDocument(path.string());
    ASSERT_TRUE(document.ok()) << joined(document.diagnostics());
    EXPECT_EQ((*document)["x"], true);
}

TEST(FieldReader, TypedAccessAndMessages) {
    const Json doc = Json::parse(R"({"s": "text", "n": 2.5, "i": 7, "big": 3.2e10, "b": false,
                                      "neg": -4, "frac": 1.5, "huge": 1e30, "u": 18446744073709551615})");
    std::vector<Diagnostic> sink;
    FieldReader reader(doc, "", "f.json", sink);
    EXPECT_TRUE(reader.isObject());
    EXPECT_EQ(reader.string("s"), "text");
    EXPECT_EQ(reader.number("n"), 2.5);
    EXPECT_EQ(reader.number("i"), 7.0);
    EXPECT_EQ(reader.integer("i"), 7);
    EXPECT_EQ(reader.integer("big"), 32000000000); // a whole float is an integer
    EXPECT_EQ(reader.integer("neg"), -4);
    EXPECT_EQ(reader.boolean("b"), false);
    EXPECT_TRUE(sink.empty()) << joined(sink);

    EXPECT_FALSE(reader.integer("frac"));
    EXPECT_FALSE(reader.integer("huge"));
    EXPECT_FALSE(reader.integer("u"));
    EXPECT_FALSE(reader.number("s"));
    EXPECT_FALSE(reader.string("missing"));
    ASSERT_EQ(sink.size(), 5u) << joined(sink);
    EXPECT_EQ(sink[0].message, "expected an integer, got 1.5");
    EXPECT_EQ(sink[1].message, "too large for a 64-bit integer");
    EXPECT_EQ(sink[2].message, "too large for a 64-bit integer");
    EXPECT_EQ(sink[3].message, "expected a number, got a string");
    EXPECT_EQ(sink[4].message, "missing required field");
    EXPECT_EQ(sink[4].where.field, "missing");
    EXPECT_EQ(sink[4].where.file, "f.json");
}

TEST(FieldReader, NumbersMustBeFinite) {
    Json doc;
    doc["x"] = std::numeric_limits<double>::infinity(); // only a document built in code has one
    std::vector<Diagnostic> sink;
    FieldReader reader(doc, "", "f.json", sink);
    EXPECT_FALSE(reader.number("x"));
    ASSERT_EQ(sink.size(), 1u);
    EXPECT_EQ(sink[0].message, "must be finite");
}

TEST(FieldReader, OptionalFields) {
    const Json doc = Json::parse(R"({"s": 1, "n": "x", "a": {}})");
    std::vector<Diagnostic> sink;
    FieldReader reader(doc, "", "f.json", sink);
    EXPECT_EQ(reader.stringOr("absent", "fallback"), "fallback");
    EXPECT_EQ(reader.numberOr("absent", 3), 3);
    EXPECT_EQ(reader.integerOr("absent", 4), 4);
    EXPECT_EQ(reader.booleanOr("absent", true), true);
    EXPECT_EQ(reader.optionalArray("absent"), nullptr);
    EXPECT_TRUE(sink.empty());

    EXPECT_EQ(reader.stringOr("s", "fallback"), "fallback"); // wrong type: fallback and an error
    EXPECT_EQ(reader.numberOr("n", 1), 1);
    EXPECT_EQ(reader.optionalArray("a"), nullptr);
    ASSERT_EQ(sink.size(), 3u);
    EXPECT_EQ(sink[0].message, "expected a string, got a number");
    EXPECT_EQ(sink[1].message, "expected a number, got a string");
    EXPECT_EQ(sink[2].message, "expected an array, got an object");
}

TEST(FieldReader, NestedPaths) {
    const Json doc =
        Json::parse(R"({"paths": [{"from": "a"}, 3, {"from": 1}], "compute": {"x": {}}})");
    std::vector<Diagnostic> sink;
    FieldReader root(doc, "", "f.json", sink);
    const Json* paths = root.array("paths");
    ASSERT_NE(paths, nullptr);
    FieldReader first = root.element(*paths, 0, "paths");
    EXPECT_EQ(first.path(), "paths[0]");
    EXPECT_EQ(first.fieldPath("from"), "paths[0].from");
    EXPECT_EQ(first.string("from"), "a");

    FieldReader second = root.element(*paths, 1, "paths");
    EXPECT_FALSE(second.isObject());
    EXPECT_FALSE(second.string("from")); // quiet after "expected an object"

    FieldReader third = root.element(*paths, 2, "paths");
    EXPECT_FALSE(third.string("from"));

    FieldReader nested = root.object("compute").object("x");
    EXPECT_EQ(nested.fieldPath("y"), "compute.x.y");
    FieldReader missing = root.object("topology");
    EXPECT_FALSE(missing.isObject());
    EXPECT_FALSE(missing.integer("groups")); // quiet: "topology" is already reported missing

    ASSERT_EQ(sink.size(), 3u) << joined(sink);
    EXPECT_EQ(sink[0].where.field, "paths[1]");
    EXPECT_EQ(sink[0].message, "expected an object, got a number");
    EXPECT_EQ(sink[1].where.field, "paths[2].from");
    EXPECT_EQ(sink[2].where.field, "topology");
    EXPECT_EQ(sink[2].message, "missing required field");
    EXPECT_EQ(sink[1].toString(),
              "error: f.json: field 'paths[2].from': expected a string, got a number");
}

TEST(FieldReader, UnknownKeysWarnWithSuggestions) {
    const Json doc = Json::parse(R"({"clock_hz": 1, "clok_hz": 2, "zzz": 3})");
    std::vector<Diagnostic> sink;
    FieldReader reader(doc, "", "f.json", sink);
    reader.warnUnknownKeys({"clock_hz", "name"});
    ASSERT_EQ(sink.size(), 2u);
    EXPECT_EQ(sink[0].severity, Severity::Warning);
    EXPECT_EQ(sink[0].where.field, "clok_hz");
    EXPECT_EQ(sink[0].message, "unknown field, ignored (did you mean 'clock_hz'?)");
    EXPECT_EQ(sink[1].message, "unknown field, ignored");
}

} // namespace
} // namespace strata::test

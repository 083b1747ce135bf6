#pragma once
// Reading JSON input files (targets, schedules) with diagnostics that name the file, the byte
// offset of a syntax error, and the field path of a bad value ("paths[2].source").
//
// parseDocument/readDocument turn text into a document or say why not; FieldReader gives typed
// access to one object and records a diagnostic for every missing or ill-typed field, so a
// loader can read a whole file and report all of its problems at once.

#include "base/Expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata::json {

// Files larger than this are refused before reading: no description Strata reads is near it.
inline constexpr std::uint64_t kMaxDocumentBytes = 64ull << 20;

// Parses JSON text. Fails on empty text, binary text (NUL bytes), malformed or truncated text
// (Location.offset is the byte offset), and numbers outside double's range (1e999), which
// nlohmann would otherwise turn into infinity. `file` only labels the diagnostics.
Expected<nlohmann::json> parseDocument(std::string_view text, const std::string& file);

// Sees each value as the parser completes it (nlohmann's parser callback: depth, the root at 0;
// the event; the value) and returns false to drop it from the document. A reader of a large
// document (a trace's events) takes each element as it comes and drops it, so the whole
// document is never held as a tree.
using ParseFilter = std::function<bool(int depth, nlohmann::json::parse_event_t event,
                                       nlohmann::json& parsed)>;
Expected<nlohmann::json> parseDocument(std::string_view text, const std::string& file,
                                       const ParseFilter& filter);

// Reads `path` and parses it. A missing file, a directory, an unreadable file or one larger
// than kMaxDocumentBytes each gives its own error.
Expected<nlohmann::json> readDocument(const std::string& path);

// "a string", "an object", "null": how a value's type reads in a message.
std::string describeType(const nlohmann::json& value);

// Typed access to the fields of one JSON object. Required accessors record an error and return
// nothing when the field is missing or ill-typed; the *Or accessors return the fallback when the
// field is absent but still record an error when it has the wrong type. A reader over a value
// that is not an object records that once, and then stays quiet (no cascade of "missing field").
class FieldReader {
  public:
    // `path` is the field path of `object` ("" for the document root, "paths[2]" for an element).
    FieldReader(const nlohmann::json& object, std::string path, std::string file,
                std::vector<Diagnostic>& sink);

    bool isObject() const { return m_valid; }

    std::optional<std::string> string(std::string_view key);
    std::optional<double> number(std::string_view key);        // finite
    std::optional<std::int64_t> integer(std::string_view key); // integral, fits int64
    std::optional<bool> boolean(std::string_view key);

    std::string stringOr(std::string_view key, std::string fallback);
    double numberOr(std::string_view key, double fallback);
    std::int64_t integerOr(std::string_view key, std::int64_t fallback);
    bool booleanOr(std::string_view key, bool fallback);

    const nlohmann::json* array(std::string_view key);         // required; nullptr + error
    const nlohmann::json* optionalArray(std::string_view key); // nullptr if absent
    FieldReader object(std::string_view key);                  // required nested object
    // A reader over `array[index]`, which must be an object; its path is "arrayKey[index]".
    FieldReader element(const nlohmann::json& array, std::size_t index, std::string_view arrayKey);

    bool has(std::string_view key) const;
    std::string fieldPath(std::string_view key) const;
    // Records an error at fieldPath(key); an empty key points at this object itself.
    void error(std::string_view key, std::string message);
    void warning(std::string_view key, std::string message);
    // One warning per key not in `known`, with a suggestion when it looks like a typo.
    void warnUnknownKeys(std::initializer_list<std::string_view> known);
    void warnUnknownKeys(std::span<const std::string_view> known);

    const std::string& path() const { return m_path; }
    const std::string& file() const { return m_file; }

  private:
    struct Quiet {};
    FieldReader(Quiet, std::string path, std::string file, std::vector<Diagnostic>& sink);

    // The value of a present field, or nullptr when absent (an error if `required`).
    const nlohmann::json* find(std::string_view key, bool required);
    void wrongType(std::string_view key, std::string_view expected, const nlohmann::json& got);
    std::optional<double> toNumber(std::string_view key, const nlohmann::json& value);
    std::optional<std::int64_t> toInteger(std::string_view key, const nlohmann::json& value);

    const nlohmann::json* m_object;
    std::string m_path;
    std::string m_file;
    std::vector<Diagnostic>* m_sink;
    bool m_valid = false;
};

} // namespace strata::json

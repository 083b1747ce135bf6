#include "base/JsonReader.h"

#include "base/Excerpt.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_set>
#include <utility>

namespace strata::json {

namespace {

// nlohmann's parse_error text starts with "[json.exception.parse_error.101] "; users need
// only what follows.
std::string withoutExceptionTag(const char* what) {
    std::string_view text = what;
    if (text.starts_with("[json.exception.")) {
        if (auto close = text.find("] "); close != std::string_view::npos)
            text.remove_prefix(close + 2);
    }
    return std::string(text);
}

// nlohmann parses 1e999 as infinity, which would then pass as a number; find the first one.
// Iterative, so a deeply nested document cannot overflow the stack.
std::optional<std::string> firstNonFinite(const nlohmann::json& root) {
    std::vector<std::pair<const nlohmann::json*, std::string>> pending{{&root, ""}};
    while (!pending.empty()) {
        auto [value, path] = std::move(pending.back());
        pending.pop_back();
        if (value->is_number_float() && !std::isfinite(value->get<double>())) return path;
        if (value->is_object()) {
            for (auto it = value->begin(); it != value->end(); ++it)
                pending.emplace_back(&*it, path.empty() ? it.key() : path + "." + it.key());
        } else if (value->is_array()) {
            for (std::size_t i = 0; i < value->size(); ++i)
                pending.emplace_back(&(*value)[i], path + "[" + std::to_string(i) + "]");
        }
    }
    return std::nullopt;
}

// Edit distance, for "did you mean" on unknown keys.
std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

Expected<nlohmann::json> parseDocument(std::string_view text, const std::string& file) {
    return parseDocument(text, file, ParseFilter{});
}

Expected<nlohmann::json> parseDocument(std::string_view text, const std::string& file,
                                       const ParseFilter& filter) {
    if (text.empty()) return error("empty file: expected a JSON document", {.file = file});
    if (text.front() == '\0')
        return error("not a JSON file: starts with NUL bytes", {.file = file, .offset = 0});
    if (auto nul = text.find('\0'); nul != std::string_view::npos)
        return error("not a JSON file: contains a NUL byte", {.file = file, .offset = nul});
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return error("empty file: only whitespace, expected a JSON document", {.file = file});

    nlohmann::json document;
    // nlohmann keeps the last of duplicated keys silently; a file saying two things is refused.
    std::vector<std::unordered_set<std::string>> openObjects;
    std::optional<std::string> duplicate;
    auto noteKeys = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        if (event == Event::object_start)
            openObjects.emplace_back();
        else if (event == Event::object_end && !openObjects.empty())
            openObjects.pop_back();
        else if (event == Event::key && !openObjects.empty() && !duplicate &&
                 !openObjects.back().insert(parsed.get<std::string>()).second)
            duplicate = parsed.get<std::string>();
        return !filter || filter(depth, event, parsed);
    };
    try {
        document = nlohmann::json::parse(text.begin(), text.end(), noteKeys);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte counts characters read, so the offending byte is the one before it.
        const std::uint64_t offset =
            std::min<std::uint64_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
        const bool truncated = e.byte > text.size();
        return error(std::string(truncated ? "truncated JSON: " : "malformed JSON: ") +
                         withoutExceptionTag(e.what()),
                     {.file = file, .offset = offset});
    } catch (const nlohmann::json::out_of_range& e) {
        // "number overflow parsing '1e999'": nlohmann gives no position, so find the literal.
        Location where{.file = file};
        std::string_view what = e.what();
        if (auto open = what.find('\''); open != std::string_view::npos) {
            std::string_view literal = what.substr(open + 1);
            literal = literal.substr(0, literal.find('\''));
            if (auto at = text.find(literal); at != std::string_view::npos) where.offset = at;
        }
        return error("number out of range (must be finite): " + withoutExceptionTag(e.what()),
                     where);
    } catch (const nlohmann::json::exception& e) {
        return error("malformed JSON: " + withoutExceptionTag(e.what()), {.file = file});
    }
    if (duplicate)
        return error("duplicate key '" + excerpt(*duplicate) + "' in an object", {.file = file});
    if (auto path = firstNonFinite(document))
        return error("number out of range (must be finite)", {.file = file, .field = *path});
    return document;
}

Expected<nlohmann::json> readDocument(const std::string& path) {
    namespace fs = std::filesystem;
    const Location where{.file = path};
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found) return error("file not found", where);
    if (ec) return error("cannot access file: " + ec.message(), where);
    if (fs::is_directory(status)) return error("is a directory, not a JSON file", where);
    if (!fs::is_regular_file(status)) return error("not a regular file", where);

    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) return error("cannot read file size: " + ec.message(), where);
    if (size > kMaxDocumentBytes)
        return error("file too large: " + std::to_string(size) + " bytes, the limit is " +
                         std::to_string(kMaxDocumentBytes >> 20) + " MiB",
                     where);

    std::ifstream in(path, std::ios::binary);
    if (!in) return error(std::string("cannot open file: ") + std::strerror(errno), where);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad()) return error(std::string("cannot read file: ") + std::strerror(errno), where);
    return parseDocument(bytes.str(), path);
}

std::string describeType(const nlohmann::json& value) {
    switch (value.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return "a number";
    case nlohmann::json::value_t::binary: return "binary data";
    case nlohmann::json::value_t::discarded: return "nothing";
    }
    return "an unknown value";
}

FieldReader::FieldReader(const nlohmann::json& object, std::string path, std::string file,
                         std::vector<Diagnostic>& sink)
    : m_object(&object), m_path(std::move(path)), m_file(std::move(file)), m_sink(&sink),
      m_valid(object.is_object()) {
    if (!m_valid) error("", "expected an object, got " + describeType(object));
}

FieldReader::FieldReader(Quiet, std::string path, std::string file, std::vector<Diagnostic>& sink)
    : m_object(nullptr), m_path(std::move(path)), m_file(std::move(file)), m_sink(&sink) {}

bool FieldReader::has(std::string_view key) const {
    return m_valid && m_object->contains(std::string(key));
}

std::string FieldReader::fieldPath(std::string_view key) const {
    if (key.empty()) return m_path;
    if (m_path.empty()) return std::string(key);
    return m_path + "." + std::string(key);
}

void FieldReader::error(std::string_view key, std::string message) {
    m_sink->push_back(strata::error(std::move(message), {.file = m_file, .field = fieldPath(key)}));
}

void FieldReader::warning(std::string_view key, std::string message) {
    m_sink->push_back(
        strata::warning(std::move(message), {.file = m_file, .field = fieldPath(key)}));
}

const nlohmann::json* FieldReader::find(std::string_view key, bool required) {
    if (!m_valid) return nullptr;
    auto it = m_object->find(std::string(key));
    if (it != m_object->end()) return &*it;
    if (required) error(key, "missing required field");
    return nullptr;
}

void FieldReader::wrongType(std::string_view key, std::string_view expected,
                            const nlohmann::json& got) {
    error(key, "expected " + std::string(expected) + ", got " + describeType(got));
}

std::optional<double> FieldReader::toNumber(std::string_view key, const nlohmann::json& value) {
    if (!value.is_number()) {
        wrongType(key, "a number", value);
        return std::nullopt;
    }
    const double number = value.get<double>();
    if (!std::isfinite(number)) {
        error(key, "must be finite");
        return std::nullopt;
    }
    return number;
}

std::optional<std::int64_t> FieldReader::toInteger(std::string_view key,
                                                   const nlohmann::json& value) {
    if (value.is_number_integer() && !value.is_number_unsigned()) return value.get<std::int64_t>();
    if (value.is_number_unsigned()) {
        const auto unsignedValue = value.get<std::uint64_t>();
        if (unsignedValue > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            error(key, "too large for a 64-bit integer");
            return std::nullopt;
        }
        return static_cast<std::int64_t>(unsignedValue);
    }
    // 3.2e10 is a convenient way to write a byte count; accept floats that are whole numbers.
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (!std::isfinite(number)) {
            error(key, "must be finite");
            return std::nullopt;
        }
        if (std::trunc(number) != number) {
            error(key, "expected an integer, got " + value.dump());
            return std::nullopt;
        }
        // 2^63 is exactly representable; anything at or beyond it does not fit.
        if (number >= 9223372036854775808.0 || number < -9223372036854775808.0) {
            error(key,
                  std::string(number < 0 ? "too small" : "too large") + " for a 64-bit integer");
            return std::nullopt;
        }
        return static_cast<std::int64_t>(number);
    }
    wrongType(key, "an integer", value);
    return std::nullopt;
}

std::optional<std::string> FieldReader::string(std::string_view key) {
    const nlohmann::json* value = find(key, true);
    if (!value) return std::nullopt;
    if (!value->is_string()) {
        wrongType(key, "a string", *value);
        return std::nullopt;
    }
    return value->get<std::string>();
}

std::optional<double> FieldReader::number(std::string_view key) {
    const nlohmann::json* value = find(key, true);
    return value ? toNumber(key, *value) : std::nullopt;
}

std::optional<std::int64_t> FieldReader::integer(std::string_view key) {
    const nlohmann::json* value = find(key, true);
    return value ? toInteger(key, *value) : std::nullopt;
}

std::optional<bool> FieldReader::boolean(std::string_view key) {
    const nlohmann::json* value = find(key, true);
    if (!value) return std::nullopt;
    if (!value->is_boolean()) {
        wrongType(key, "a boolean", *value);
        return std::nullopt;
    }
    return value->get<bool>();
}

std::string FieldReader::stringOr(std::string_view key, std::string fallback) {
    if (!find(key, false)) return fallback;
    return string(key).value_or(std::move(fallback));
}

double FieldReader::numberOr(std::string_view key, double fallback) {
    if (!find(key, false)) return fallback;
    return number(key).value_or(fallback);
}

std::int64_t FieldReader::integerOr(std::string_view key, std::int64_t fallback) {
    if (!find(key, false)) return fallback;
    return integer(key).value_or(fallback);
}

bool FieldReader::booleanOr(std::string_view key, bool fallback) {
    if (!find(key, false)) return fallback;
    return boolean(key).value_or(fallback);
}

const nlohmann::json* FieldReader::array(std::string_view key) {
    const nlohmann::json* value = find(key, true);
    if (!value) return nullptr;
    if (!value->is_array()) {
        wrongType(key, "an array", *value);
        return nullptr;
    }
    return value;
}

const nlohmann::json* FieldReader::optionalArray(std::string_view key) {
    if (!find(key, false)) return nullptr;
    return array(key);
}

FieldReader FieldReader::object(std::string_view key) {
    const nlohmann::json* value = find(key, true);
    if (!value) return FieldReader(Quiet{}, fieldPath(key), m_file, *m_sink);
    return FieldReader(*value, fieldPath(key), m_file, *m_sink);
}

FieldReader FieldReader::element(const nlohmann::json& array, std::size_t index,
                                 std::string_view arrayKey) {
    std::string path = fieldPath(arrayKey) + "[" + std::to_string(index) + "]";
    if (!array.is_array() || index >= array.size())
        return FieldReader(Quiet{}, std::move(path), m_file, *m_sink);
    return FieldReader(array[index], std::move(path), m_file, *m_sink);
}

void FieldReader::warnUnknownKeys(std::initializer_list<std::string_view> known) {
    warnUnknownKeys(std::span<const std::string_view>(known.begin(), known.size()));
}

void FieldReader::warnUnknownKeys(std::span<const std::string_view> known) {
    if (!m_valid) return;
    for (auto it = m_object->begin(); it != m_object->end(); ++it) {
        const std::string& key = it.key();
        if (std::find(known.begin(), known.end(), key) != known.end()) continue;
        std::string message = "unknown field, ignored";
        // Suggest the closest known key when the difference looks like a typo.
        std::string_view closest;
        std::size_t best = std::numeric_limits<std::size_t>::max();
        for (std::string_view candidate : known) {
            const std::size_t distance = editDistance(key, candidate);
            if (distance < best) {
                best = distance;
                closest = candidate;
            }
        }
        if (!closest.empty() && best <= std::max<std::size_t>(2, closest.size() / 4))
            message += " (did you mean '" + std::string(closest) + "'?)";
        warning(key, std::move(message));
    }
}

} // namespace strata::json

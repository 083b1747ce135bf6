// Reading a trace from CSV, with a diagnostic naming the line of every problem.

#include "trace/TraceCsvReader.h"

#include "base/SafeFiles.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <unordered_map>

namespace strata::trace {
namespace {

struct Row {
    std::vector<std::string> fields;
    std::size_t line = 0;      // 1-based line the row starts on
    bool complete = true;      // ended with a line break (false: the file ends inside the row)
    bool openQuote = false;    // the file ends inside a quoted field
};

// RFC 4180 rows: fields separated by commas, quoted fields may hold commas, doubled quotes and
// line breaks. Comment lines (starting with '#') before the header are returned as one field.
class CsvScanner {
  public:
    explicit CsvScanner(std::string_view text) : m_text(text) {}

    bool next(Row& row) {
        if (m_at >= m_text.size()) return false;
        row = Row{};
        row.line = m_line;
        std::string field;
        bool quoted = false;
        while (m_at < m_text.size()) {
            const char c = m_text[m_at++];
            if (quoted) {
                if (c == '"' && m_at < m_text.size() && m_text[m_at] == '"') {
                    field += '"';
                    ++m_at;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    if (c == '\n') ++m_line;
                    field += c;
                }
            } else if (c == '"' && field.empty()) {
                quoted = true;
            } else if (c == ',') {
                row.fields.push_back(std::move(field));
                field.clear();
            } else if (c == '\n') {
                ++m_line;
                row.fields.push_back(std::move(field));
                return true;
            } else if (c != '\r') {
                field += c;
            }
        }
        row.fields.push_back(std::move(field));
        row.complete = false;
        row.openQuote = quoted;
        return true;
    }

  private:
    std::string_view m_text;
    std::size_t m_at = 0;
    std::size_t m_line = 1;
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

std::optional<double> parseNumber(std::string_view text) {
    text = trim(text);
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

std::optional<std::int64_t> parseInteger(std::string_view text) {
    text = trim(text);
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

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

constexpr std::string_view kKnownColumns[] = {"id",    "core", "kind", "path", "start_ns", "end_ns", "duration_ns",
                                              "cycles", "bytes", "block", "op", "tile", "link", "source"};

class CsvTraceReader {
  public:
    CsvTraceReader(std::string_view text, std::string file) : m_scanner(text), m_file(std::move(file)) {}

    Expected<LoadedCsvTrace> read() {
        m_result.trace.source = Source::Measured; // an imported file holds measurements unless it says otherwise
        Row row;
        bool header = false;
        while (!header && m_scanner.next(row)) {
            if (isBlank(row)) continue;
            if (trim(row.fields.front()).starts_with("#")) {
                readComment(row);
                continue;
            }
            header = readHeader(row);
            if (!header) return finish();
        }
        if (!header) {
            fail(row.line, "no header row: expected column names such as id,core,kind,path,start_ns,end_ns");
            return finish();
        }
        while (errorCount() < kMaxCsvErrors && m_scanner.next(row))
            if (!isBlank(row)) readRow(row);
        if (errorCount() >= kMaxCsvErrors)
            m_diagnostics.push_back(note("stopped reading after " + std::to_string(kMaxCsvErrors) + " errors", {.file = m_file}));
        int maxCore = -1;
        for (const Event& e : m_result.trace.events) maxCore = std::max(maxCore, static_cast<int>(e.core));
        if (m_result.trace.cores <= maxCore) m_result.trace.cores = maxCore + 1;
        return finish();
    }

  private:
    static bool isBlank(const Row& row) { return row.fields.size() == 1 && trim(row.fields[0]).empty(); }

    std::size_t errorCount() const {
        std::size_t n = 0;
        for (const Diagnostic& d : m_diagnostics) n += d.severity == Severity::Error;
        return n;
    }

    void fail(std::size_t line, std::string message, std::string column = {}) {
        std::string where = "line " + std::to_string(line);
        if (!column.empty()) where += ", column '" + column + "'";
        m_diagnostics.push_back(error(std::move(message), {.file = m_file, .field = where}));
    }

    Expected<LoadedCsvTrace> finish() {
        if (hasErrors(m_diagnostics)) return std::move(m_diagnostics);
        m_result.warnings = std::move(m_diagnostics);
        return std::move(m_result);
    }

    // "# key: value" before the header sets a header field; other comments are ignored.
    void readComment(const Row& row) {
        std::string text;
        for (std::size_t i = 0; i < row.fields.size(); ++i) text += (i ? "," : "") + row.fields[i];
        std::string_view body = trim(std::string_view(text).substr(text.find('#') + 1));
        const auto colon = body.find(':');
        if (colon == std::string_view::npos) return;
        const std::string_view key = trim(body.substr(0, colon));
        const std::string value(trim(body.substr(colon + 1)));
        Trace& t = m_result.trace;
        if (key == "source") {
            if (auto s = parseSource(value)) {
                t.source = *s;
                m_headerSource = true;
            } else {
                fail(row.line, "unknown source '" + value + "' (emulated, measured)");
            }
        } else if (key == "target") {
            t.target = value;
        } else if (key == "model") {
            t.modelName = value;
        } else if (key == "model_hash") {
            t.modelHash = value;
        } else if (key == "main_memory") {
            t.mainMemory = value;
        } else if (key == "clock_hz") {
            auto hz = parseNumber(value);
            if (!hz || *hz < 0)
                fail(row.line, "clock_hz: expected a non-negative number, got '" + value + "'");
            else
                t.clockHz = *hz;
        } else if (key == "cores") {
            auto cores = parseInteger(value);
            if (!cores || *cores < 1 || *cores > (1 << 20))
                fail(row.line, "cores: expected an integer within 1..1048576, got '" + value + "'");
            else
                t.cores = static_cast<int>(*cores);
        }
    }

    bool readHeader(const Row& row) {
        for (std::size_t i = 0; i < row.fields.size(); ++i) {
            const std::string name(trim(row.fields[i]));
            if (m_columns.count(name)) {
                fail(row.line, "column '" + name + "' appears twice in the header");
                continue;
            }
            m_columns.emplace(name, i);
            bool known = false;
            for (std::string_view k : kKnownColumns) known = known || k == name;
            if (!known)
                m_diagnostics.push_back(warning("unknown column '" + name + "' ignored",
                                                {.file = m_file, .field = "line " + std::to_string(row.line)}));
        }
        m_width = row.fields.size();
        for (std::string_view required : {"id", "core", "kind", "start_ns"})
            if (!m_columns.count(std::string(required)))
                fail(row.line, "header has no column '" + std::string(required) + "' (is this a Strata trace CSV?)");
        if (!m_columns.count("end_ns") && !m_columns.count("duration_ns"))
            fail(row.line, "header needs a column 'end_ns' or 'duration_ns'");
        return !hasErrors(m_diagnostics);
    }

    const std::string* field(const Row& row, std::string_view column) const {
        auto found = m_columns.find(std::string(column));
        if (found == m_columns.end() || found->second >= row.fields.size()) return nullptr;
        return &row.fields[found->second];
    }

    // An integer column: nullopt (and an error when required or malformed) if not usable.
    std::optional<std::int64_t> integer(const Row& row, std::string_view column, bool required, std::int64_t low,
                                        std::int64_t high, bool& ok) {
        const std::string* text = field(row, column);
        if (!text || trim(*text).empty()) {
            if (required) fail(row.line, "missing value", std::string(column));
            ok = ok && !required;
            return std::nullopt;
        }
        auto value = parseInteger(*text);
        if (!value) {
            fail(row.line, "expected an integer, got '" + *text + "'", std::string(column));
        } else if (*value < low || *value > high) {
            fail(row.line, "must be within " + std::to_string(low) + ".." + std::to_string(high) + ", got " + *text,
                 std::string(column));
            value.reset();
        }
        ok = ok && value.has_value();
        return value;
    }

    std::optional<std::int64_t> nanoseconds(const Row& row, std::string_view column, bool& ok) {
        const std::string* text = field(row, column);
        if (!text || trim(*text).empty()) return std::nullopt;
        auto value = parseNumber(*text);
        const double ps = value ? std::round(*value * 1e3) : 0;
        if (!value || std::fabs(ps) > 9.0e18) {
            fail(row.line, "expected a time in ns, got '" + *text + "'", std::string(column));
            ok = false;
            return std::nullopt;
        }
        return static_cast<std::int64_t>(ps);
    }

    void readRow(const Row& row) {
        if (row.openQuote) return fail(row.line, "the file ends inside a quoted field (truncated?)");
        if (row.fields.size() != m_width) {
            if (!row.complete && row.fields.size() < m_width)
                return fail(row.line, "truncated row: " + std::to_string(row.fields.size()) + " of " +
                                          std::to_string(m_width) + " columns, and the file ends here");
            return fail(row.line, "expected " + std::to_string(m_width) + " columns, got " + std::to_string(row.fields.size()));
        }
        Trace& t = m_result.trace;
        Event e;
        e.source = t.source;
        bool ok = true;
        auto id = integer(row, "id", true, 0, std::numeric_limits<std::uint32_t>::max(), ok);
        auto core = integer(row, "core", true, 0, (1 << 20) - 1, ok);
        std::optional<EventKind> kind;
        if (const std::string* k = field(row, "kind"); k && !(kind = parseKind(trim(*k)))) {
            fail(row.line, "unknown kind '" + *k + "' (transfer, compute, wait, barrier)", "kind");
            ok = false;
        }
        auto start = nanoseconds(row, "start_ns", ok);
        auto end = nanoseconds(row, "end_ns", ok);
        auto duration = nanoseconds(row, "duration_ns", ok);
        if (ok && !start) {
            fail(row.line, "missing value", "start_ns");
            ok = false;
        }
        if (ok && !end && !duration) {
            fail(row.line, "needs end_ns or duration_ns");
            ok = false;
        }
        if (ok && duration && *duration < 0) return fail(row.line, "negative duration " + *field(row, "duration_ns") + " ns", "duration_ns");
        if (ok && end && *end < *start)
            return fail(row.line, "negative duration: the event ends (" + *field(row, "end_ns") + " ns) before it starts (" +
                                      *field(row, "start_ns") + " ns)", "end_ns");
        if (ok && end && duration && std::llabs(*end - *start - *duration) > 1000)
            return fail(row.line, "duration_ns disagrees with end_ns - start_ns", "duration_ns");
        auto bytes = integer(row, "bytes", false, 0, std::numeric_limits<std::int64_t>::max(), ok);
        auto block = integer(row, "block", false, -1, std::numeric_limits<std::int32_t>::max(), ok);
        auto tile = integer(row, "tile", false, -1, std::numeric_limits<std::int32_t>::max(), ok);
        auto link = integer(row, "link", false, -1, std::numeric_limits<std::int32_t>::max(), ok);
        if (!ok) return;
        e.id = static_cast<std::uint32_t>(*id);
        e.core = static_cast<std::uint32_t>(*core);
        e.kind = *kind;
        e.startPs = *start;
        e.endPs = end ? *end : *start + *duration;
        e.bytes = static_cast<std::uint64_t>(bytes.value_or(0));
        e.block = static_cast<std::int32_t>(block.value_or(-1));
        e.tile = static_cast<std::int32_t>(tile.value_or(-1));
        e.link = static_cast<std::int32_t>(link.value_or(-1));

        const std::string* path = field(row, "path");
        const std::string pathName = path ? std::string(trim(*path)) : std::string();
        if (e.kind == EventKind::Transfer) {
            if (pathName.empty()) return fail(row.line, "a transfer needs its path", "path");
            auto [it, fresh] = m_pathIndex.emplace(pathName, static_cast<std::uint16_t>(t.paths.size()));
            if (fresh) {
                if (t.paths.size() + 1 >= kNoPath) return fail(row.line, "too many paths", "path");
                t.paths.push_back({pathName, "", ""});
            }
            e.path = it->second;
        }
        if (const std::string* op = field(row, "op"); op && !op->empty()) {
            auto [it, fresh] = m_opIndex.emplace(*op, static_cast<std::uint32_t>(t.ops.size()));
            if (fresh) t.ops.push_back(*op);
            e.op = it->second;
        }
        if (const std::string* source = field(row, "source"); source && !trim(*source).empty()) {
            auto parsed = parseSource(trim(*source));
            if (!parsed) return fail(row.line, "unknown source '" + *source + "' (emulated, measured)", "source");
            e.source = *parsed;
            // A file without a "# source:" line takes its rows' source (emulate --csv writes none).
            if (!m_headerSource && t.events.empty()) t.source = *parsed;
        }
        t.events.push_back(e);
        m_result.lines.push_back(row.line);
    }

    CsvScanner m_scanner;
    std::string m_file;
    std::vector<Diagnostic> m_diagnostics;
    LoadedCsvTrace m_result;
    std::unordered_map<std::string, std::size_t> m_columns;
    std::size_t m_width = 0;
    bool m_headerSource = false;
    std::unordered_map<std::string, std::uint16_t> m_pathIndex;
    std::unordered_map<std::string, std::uint32_t> m_opIndex;
};

// How many event rows `text` can hold at most: its lines but '#' comments and the header row.
std::size_t rowBound(std::string_view text) {
    std::size_t lines = 0;
    std::size_t comments = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        ++lines;
        comments += text[start] == '#';
        start = end + 1;
    }
    return lines - comments > 0 ? lines - comments - 1 : 0;
}

} // namespace

Expected<LoadedCsvTrace> parseTraceCsv(std::string_view text, const std::string& file,
                                       std::size_t maxEvents) {
    if (text.empty()) return error("empty file: expected a CSV header row", {.file = file});
    if (text.find('\0') != std::string_view::npos) return error("not a CSV file: contains NUL bytes", {.file = file});
    // Every event is a row of its own: more rows than that is refused before any is read.
    if (const std::size_t rows = rowBound(text); rows > maxEvents)
        return error("too many rows for a trace (up to " + std::to_string(rows) + ", at most " +
                         std::to_string(maxEvents) + " events; docs/TRACE_FORMAT.md)",
                     {.file = file});
    return CsvTraceReader(text, file).read();
}

Expected<LoadedCsvTrace> loadTraceCsvFile(const std::string& path) {
    if (auto refused = checkReadableFile(path, "trace"))
        return *refused;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return error("cannot read the file: " + ec.message(), {.file = path});
    if (size > (2ull << 30)) return error("file too large for a trace (" + std::to_string(size) + " bytes)", {.file = path});
    std::ifstream in(path, std::ios::binary);
    std::string text(size, '\0');
    if (!in.read(text.data(), static_cast<std::streamsize>(size))) return error("cannot read the file", {.file = path});
    return parseTraceCsv(text, path);
}

} // namespace strata::trace

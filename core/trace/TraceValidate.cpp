#include "trace/TraceValidate.h"

#include "trace/TraceCsvReader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace strata::trace {
namespace {

std::string timeText(std::int64_t ps) { return fmt::format("{} ns", double(ps) / 1e3); }

class Validator {
  public:
    Validator(const Trace& trace, const ValidateOptions& options) : m_trace(trace), m_options(options) {}

    std::vector<Diagnostic> run() {
        checkTimesAndIds();
        if (m_options.program) checkAgainstProgram();
        checkStreams();
        if (m_errors >= kMaxValidateErrors)
            m_out.push_back(note("stopped checking after " + std::to_string(kMaxValidateErrors) + " errors",
                                 {.file = m_options.file}));
        return std::move(m_out);
    }

  private:
    bool full() const { return m_errors >= kMaxValidateErrors; }

    // "event i000012 (line 14)": how a message names the event at `index`.
    std::string name(std::size_t index) const {
        std::string out = "event " + instructionName(m_trace.events[index].id);
        if (m_options.lines && index < m_options.lines->size()) out += " (line " + std::to_string((*m_options.lines)[index]) + ")";
        return out;
    }

    void fail(std::string message) {
        if (full()) return;
        ++m_errors;
        m_out.push_back(error(std::move(message), {.file = m_options.file}));
    }

    void checkTimesAndIds() {
        std::unordered_map<std::uint32_t, std::size_t> seen;
        for (std::size_t i = 0; i < m_trace.events.size() && !full(); ++i) {
            const Event& e = m_trace.events[i];
            if (e.endPs < e.startPs)
                fail(name(i) + ": negative duration (ends at " + timeText(e.endPs) + ", before its start at " +
                     timeText(e.startPs) + ")");
            auto [it, fresh] = seen.emplace(e.id, i);
            if (!fresh) fail(name(i) + ": id timed twice (first by " + name(it->second) + ")");
        }
    }

    void checkAgainstProgram() {
        const std::vector<InstructionRef>& program = *m_options.program;
        std::unordered_map<std::uint32_t, const InstructionRef*> byId;
        for (const InstructionRef& in : program) byId.emplace(in.id, &in);
        std::size_t timed = 0;
        for (std::size_t i = 0; i < m_trace.events.size() && !full(); ++i) {
            const Event& e = m_trace.events[i];
            auto found = byId.find(e.id);
            if (found == byId.end()) {
                fail(name(i) + ": unknown id: the program has no instruction " + instructionName(e.id) + " (" +
                     std::to_string(program.size()) + " instructions)");
                continue;
            }
            ++timed;
            const InstructionRef& in = *found->second;
            if (in.kind != e.kind || in.core != e.core)
                fail(fmt::format("{}: is a {} on core {} in the trace, but the program's {} is a {} on core {}", name(i),
                                 eventKindName(e.kind), e.core, instructionName(in.id), eventKindName(in.kind), in.core));
            else if (e.kind == EventKind::Transfer && m_trace.pathName(e) != in.path)
                fail(fmt::format("{}: moves on path '{}', but the program's transfer uses '{}'", name(i), m_trace.pathName(e),
                                 in.path));
        }
        if (!full() && timed < program.size()) {
            std::unordered_map<std::uint32_t, bool> present;
            for (const Event& e : m_trace.events) present[e.id] = true;
            auto missing = std::find_if(program.begin(), program.end(), [&](const InstructionRef& in) { return !present.count(in.id); });
            m_out.push_back(warning(fmt::format("{} of the program's {} instructions have no event (the first: {})",
                                                program.size() - timed, program.size(),
                                                missing != program.end() ? instructionName(missing->id) : "?"),
                                    {.file = m_options.file}));
        }
    }

    // A core's stream runs one compute, wait or barrier at a time.
    void checkStreams() {
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < m_trace.events.size(); ++i)
            if (m_trace.events[i].kind != EventKind::Transfer) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const Event& x = m_trace.events[a];
            const Event& y = m_trace.events[b];
            return x.core != y.core ? x.core < y.core : x.startPs < y.startPs;
        });
        std::size_t previous = order.size();
        for (std::size_t i : order) {
            if (full()) return;
            const Event& e = m_trace.events[i];
            if (previous != order.size()) {
                const Event& p = m_trace.events[previous];
                if (p.core == e.core && e.startPs < p.endPs) {
                    fail(fmt::format("{} ({}, {}..{}) overlaps {} ({}, {}..{}) on core {}'s stream", name(i),
                                     eventKindName(e.kind), timeText(e.startPs), timeText(e.endPs), name(previous),
                                     eventKindName(p.kind), timeText(p.startPs), timeText(p.endPs), e.core));
                    if (e.endPs <= p.endPs) continue; // keep the one reaching further
                }
            }
            previous = i;
        }
    }

    const Trace& m_trace;
    const ValidateOptions& m_options;
    std::vector<Diagnostic> m_out;
    std::size_t m_errors = 0;
};

bool endsWith(const std::string& text, std::string_view suffix) {
    if (text.size() < suffix.size()) return false;
    for (std::size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[text.size() - suffix.size() + i])) != suffix[i]) return false;
    return true;
}

} // namespace

std::string instructionName(std::uint32_t id) { return fmt::format("i{:06}", id); }

std::vector<InstructionRef> instructionsOf(const Trace& complete) {
    std::vector<InstructionRef> out;
    out.reserve(complete.events.size());
    for (const Event& e : complete.events)
        out.push_back({e.id, e.kind, e.core, e.kind == EventKind::Transfer ? std::string(complete.pathName(e)) : std::string()});
    return out;
}

std::vector<Diagnostic> validateTrace(const Trace& trace, const ValidateOptions& options) {
    return Validator(trace, options).run();
}

Expected<LoadedTrace> importTrace(const std::string& path, const std::vector<InstructionRef>* program) {
    LoadedTrace loaded;
    std::vector<std::size_t> lines;
    if (endsWith(path, ".csv")) {
        auto csv = loadTraceCsvFile(path);
        if (!csv) return csv.takeDiagnostics();
        loaded.trace = std::move(csv->trace);
        loaded.warnings = std::move(csv->warnings);
        lines = std::move(csv->lines);
    } else {
        auto json = loadTraceFile(path);
        if (!json) return json.takeDiagnostics();
        loaded = std::move(*json);
    }
    ValidateOptions options{program, lines.empty() ? nullptr : &lines, path};
    std::vector<Diagnostic> problems = validateTrace(loaded.trace, options);
    if (hasErrors(problems)) return problems;
    loaded.warnings.insert(loaded.warnings.end(), problems.begin(), problems.end());
    return loaded;
}

} // namespace strata::trace

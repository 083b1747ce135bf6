#include "base/Diagnostic.h"

#include "base/Excerpt.h"

#include <algorithm>

namespace strata {

const char* severityName(Severity severity) {
    switch (severity) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "error";
}

std::string Diagnostic::toString() const {
    std::string out = severityName(severity);
    out += ": ";
    if (!where.file.empty()) {
        out += where.file;
        if (where.offset) out += ":" + std::to_string(*where.offset);
        out += ": ";
    }
    if (!where.field.empty()) out += "field '" + where.field + "': ";
    if (!where.block.empty()) out += "block '" + where.block + "': ";
    if (!where.node.empty()) out += "node '" + where.node + "': ";
    if (!where.value.empty()) out += "value '" + where.value + "': ";
    out += message;
    return out;
}

namespace {

// Keeps a diagnostic one readable line even when a caller quoted a huge value whole.
void cut(std::string& text) {
    if (text.size() > kMaxDiagnosticText)
        text = excerpt(text, kMaxDiagnosticText);
}

} // namespace

static Diagnostic make(Severity severity, std::string message, Location where) {
    cut(message);
    for (std::string* field : {&where.file, &where.node, &where.value, &where.block, &where.field})
        cut(*field);
    return Diagnostic{severity, std::move(message), std::move(where)};
}

Diagnostic error(std::string message, Location where) {
    return make(Severity::Error, std::move(message), std::move(where));
}
Diagnostic warning(std::string message, Location where) {
    return make(Severity::Warning, std::move(message), std::move(where));
}
Diagnostic note(std::string message, Location where) {
    return make(Severity::Note, std::move(message), std::move(where));
}

bool hasErrors(const std::vector<Diagnostic>& diagnostics) {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

} // namespace strata

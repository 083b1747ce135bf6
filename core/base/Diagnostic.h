#pragma once
// A diagnostic says what went wrong with user input, where, and why. Bad input is expected
// and reported this way; broken internal invariants are bugs and use assert instead.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata {

enum class Severity { Note, Warning, Error };

// Where a diagnostic points. Every field is optional; fill what is known.
struct Location {
    std::string file;
    std::optional<std::uint64_t> offset; // byte offset in `file`
    std::string node;                    // ONNX node / Strata op name
    std::string value;                   // tensor / value name
    std::string block;                   // fusion block id
    std::string field;                   // JSON field path in `file`, e.g. "paths[2].source"
};

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string message;
    Location where;

    // "error: model.onnx: node 'conv1': <message>"
    std::string toString() const;
};

Diagnostic error(std::string message, Location where = {});
Diagnostic warning(std::string message, Location where = {});
Diagnostic note(std::string message, Location where = {});

bool hasErrors(const std::vector<Diagnostic>& diagnostics);
const char* severityName(Severity severity);

} // namespace strata

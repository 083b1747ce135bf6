#pragma once
// Quoting user-supplied values in diagnostics: a bad value may be megabytes long or binary, and a
// diagnostic must stay one readable line. At most kExcerptBytes of a value are quoted, control
// and non-ASCII bytes shown as '?', with the full length said when it was cut.

#include <cstddef>
#include <string>
#include <string_view>

namespace strata {

inline constexpr std::size_t kExcerptBytes = 80;

// "abc" -> abc; a 100 MB string -> its first 80 bytes + "... (104857600 bytes)".
std::string excerpt(std::string_view value, std::size_t limit = kExcerptBytes);

// Longest message and location field a Diagnostic keeps (make() cuts longer ones), a last
// guard against a message that quotes a whole value.
inline constexpr std::size_t kMaxDiagnosticText = 1024;

} // namespace strata

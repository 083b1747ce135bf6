#pragma once
// The strata-layout helper's protocol: the GUI writes a LayoutRequest as JSON to the helper's
// stdin and reads the layout (or the diagnostics explaining why there is none) as JSON from
// its stdout.
//
// Why a child process: layoutWithDot() cannot be interrupted, its time grows steeply with the
// graph, and Graphviz may abort() or exit() on inputs it cannot handle. In a helper process the
// GUI can kill a layout that runs too long or is no longer wanted, and a Graphviz crash costs
// a diagnostic instead of the user's session. The request carries sizes, not fonts or the
// model, so the helper stays small (core/layout plus nlohmann_json) and starts in milliseconds;
// JSON keeps the pipe debuggable (`strata-layout < request.json`).
//
// Everything read back from the helper is untrusted: decodeLayout checks it against the
// request it answers, so a truncated or garbled reply is a diagnostic, never an out-of-range
// index in the view.

#include "base/Expected.h"
#include "layout/GraphLayout.h"
#include "layout/LayoutRequest.h"

#include <string>
#include <string_view>

namespace strata::layout {

inline constexpr int kProtocolVersion = 1;

std::string encodeRequest(const LayoutRequest& request);
// Parses and validates a request (validateRequest); diagnostics name the bad field.
Expected<LayoutRequest> decodeRequest(std::string_view text);

// The helper's reply: the layout, or the diagnostics of a failed layout.
std::string encodeLayout(const Expected<GraphLayout>& layout);
// Parses a reply to `request`. Fails with the helper's own diagnostics when it reported a
// failure, and with a diagnostic of its own when the reply is malformed, truncated, of another
// protocol version, or does not match `request` (other nodes or edges, bad curves,
// non-finite coordinates).
Expected<GraphLayout> decodeLayout(std::string_view text, const LayoutRequest& request);

} // namespace strata::layout

#pragma once
// Layout with Graphviz `dot` through libgvc, in this process. The only code in Strata that
// includes Graphviz.
//
// Graphviz keeps global state (error handler, symbol tables) and is not reentrant, so every
// call is serialised by one mutex. A call cannot be interrupted and Graphviz may abort on
// inputs it cannot handle: the GUI therefore runs it in the strata-layout helper process, which
// it can kill on timeout or cancel (see LayoutProtocol.h); tests and the CLI call it directly.

#include "base/Expected.h"
#include "layout/GraphLayout.h"
#include "layout/LayoutRequest.h"

namespace strata::layout {

// Lays out `request` top to bottom: every node keeps its size, clusters enclose their nodes
// and keep the requested label room at their top-left, edges run from their tail's box to
// their head's box. Deterministic: the same request gives the same layout. Fails with a
// diagnostic when the request is invalid (validateRequest) or Graphviz reports an error.
Expected<GraphLayout> layoutWithDot(const LayoutRequest& request);

} // namespace strata::layout

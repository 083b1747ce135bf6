#pragma once
// The schedule document's current model, target and schedule as a CompileRequest, and whether a
// request (a running job's, or a result's on screen) is still of them. What the Compile,
// Emulate, Run on Host and Export controllers all ask before starting and before showing.

#include "jobs/CompileJob.h"

namespace strata::gui {

class ScheduleDocument;

// Graph, target or schedule is null when the document has none yet; isComplete() says.
CompileRequest currentRequest(const ScheduleDocument& document);
bool isComplete(const CompileRequest& request);

// Same graph, schedule and target objects as the document holds now (an undo back to that
// schedule counts, since the document hands the same shared schedule back).
bool isCurrentRequest(const CompileRequest& request, const ScheduleDocument& document);

} // namespace strata::gui

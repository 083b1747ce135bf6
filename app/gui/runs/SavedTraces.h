#pragma once
// A project's saved run (docs/PROJECTS.md): the emulated and measured traces of a Run on Host,
// written beside the project file (NAME.strata.traces/emulated.json, measured.json; Chrome trace
// JSON, each file replaced atomically) and referenced from it with the fingerprint of the
// schedule they ran, and read back when the project opens.

#include "base/Diagnostic.h"
#include "project/Project.h"
#include "runs/MeasuredRun.h"
#include "trace/Trace.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace strata::ir {
struct Graph;
}
namespace strata::schedule {
struct Schedule;
}

namespace strata::gui {

// A short stable digest of the schedule document (its JSON), to tell whether a saved run is of
// the schedule the project has now.
std::string scheduleFingerprint(const schedule::Schedule& schedule, const ir::Graph& graph);

struct WrittenTraces {
    std::vector<project::TraceRef> refs; // emulated, then measured; empty when writing failed
    std::vector<Diagnostic> problems;
};

// Writes `run`'s two traces as saved run number `index` (project::savedTraceFile, in
// project::savedTracesDir(projectFile)). `scheduleJson` is the schedule document the run was of,
// `scheduleHash` its fingerprint.
WrittenTraces writeRunTraces(const MeasuredRun& run, const std::string& scheduleHash,
                             const std::string& scheduleJson, int index,
                             const QString& projectFile);

struct ReadTraces {
    std::optional<trace::Trace> emulated;
    std::optional<trace::Trace> measured;
    std::string scheduleHash;         // of the measured reference (the pair's)
    std::vector<Diagnostic> problems; // a missing or malformed file: errors naming it
    QStringList loadedPaths;          // the files that loaded, for the Timeline when stale
};

// Loads and validates (trace::importTrace) each referenced file; a file that fails is reported,
// never fatal. Runs off the UI thread.
ReadTraces readSavedTraces(const std::vector<project::TraceRef>& refs);

} // namespace strata::gui

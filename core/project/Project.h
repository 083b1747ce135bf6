#pragma once
// A Strata project (docs/PROJECTS.md): what the desktop app needs to come back to a session.
// The model by path and content hash, the target (a preset name or a target file), the
// strategy, the edited schedule (a schedule document, core/schedule/ScheduleJson.h), what the
// window showed, and the traces saved for it. Plain data; the loader checks types and the
// schema version, never the files the project points at (the app does, when it opens them).

#include "base/Expected.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::project {

inline constexpr int kProjectSchemaVersion = 1;

struct ViewState {
    std::string tab = "graph"; // the central tab: "graph", "program", "pipeline", "ops", ...
    double zoom = 0;           // the graph view's scale; 0: fit to the window
    int selectedBlock = -1;    // -1: none
    std::string selectedOp;    // op name; empty: none
    bool operator==(const ViewState&) const = default;
};

struct TraceRef {
    std::string path;   // a trace file (docs/TRACE_FORMAT.md), absolute in memory
    std::string source; // "emulated" or "measured"
    std::string label;  // what the user called it; may be empty
    // What the run was of: the app's fingerprint of the schedule document it ran (empty: not
    // known). The app shows a saved run as the schedule's own only while this still matches.
    std::string scheduleHash;
    // Which saved run the trace belongs to (a run's prediction and measurement share it):
    // 0, 1, ... in the order the runs were made. Files written before runs were kept have one.
    int run = 0;
    // The schedule document (ScheduleJson.h) the run was of, so an older run still says what it
    // ran after the schedule was edited; empty: not saved. The same for every trace of a run.
    std::string scheduleJson;
    bool operator==(const TraceRef&) const = default;
};

struct Project {
    std::string modelPath; // absolute in memory; written relative to the project's folder
    std::string modelHash; // ir/GraphHash.h content hash of the model when saved
    std::string target;    // a preset name or a target file's absolute path
    std::string strategy;  // the strategy that made the starting schedule
    // The schedule document as saved (ScheduleJson.h's format), resolved against the model by
    // schedule::parseSchedule once it is loaded; empty: none saved.
    std::string scheduleJson;
    ViewState view;
    // Every saved run's traces, grouped by TraceRef::run (written as "runs", docs/PROJECTS.md).
    std::vector<TraceRef> traces;
    bool operator==(const Project&) const = default;
};

// The project file's text. Paths inside `projectDir` (the folder the file goes to) are written
// relative to it, so a project folder can be moved as a whole.
std::string projectToJson(const Project& project, const std::string& projectDir);

// Errors for malformed, truncated, binary (zero-filled) or empty text, a newer schema, a
// document that is not a project, and ill-typed fields, each naming the file and the field.
// Relative paths are resolved against the folder of `file`.
Expected<Project> parseProject(std::string_view text, const std::string& file);
Expected<Project> loadProjectFile(const std::string& path);

// The folder the app saves a project's traces in, beside the project file:
// "/p/session.strata" -> "/p/session.strata.traces".
std::string savedTracesDir(const std::string& projectFile);
// The file of one trace of saved run `run` in that folder: "run-003-measured.json".
std::string savedTraceFile(const std::string& projectFile, int run, const std::string& source);

// How many runs `traces` holds: one more than the largest TraceRef::run (0 when empty).
int runCount(const std::vector<TraceRef>& traces);
// The traces of each run, by run number (a run with none stays an empty entry), each in the
// order of `traces`.
std::vector<std::vector<TraceRef>> tracesByRun(const std::vector<TraceRef>& traces);

} // namespace strata::project

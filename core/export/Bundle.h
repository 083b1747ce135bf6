#pragma once
// An export bundle (docs/EXPORT.md): what Strata knows about one compile of one model, written
// into one folder to share, diff or open elsewhere: the assembly, the program as JSON, the
// generated C++ with its weights, the schedule, the emulated and measured timelines (Strata's
// Chrome-trace JSON, which Perfetto opens, and CSV), a manifest and a Markdown report. Plots are
// drawn by the views (Qt) into the same folder beforehand and listed by the caller.

#include "base/Expected.h"
#include "compiler/Program.h"
#include "ir/Graph.h"
#include "schedule/Schedule.h"
#include "target/Target.h"
#include "trace/Trace.h"

#include <filesystem>
#include <string>
#include <vector>

namespace strata::exporting {

inline constexpr int kBundleSchemaVersion = 1;

struct BundleInput {
    const ir::Graph* graph = nullptr;
    const target::Target* target = nullptr;
    const schedule::Schedule* schedule = nullptr;
    const compiler::Program* program = nullptr;
    const trace::Trace* emulated = nullptr;   // optional
    const trace::Trace* measured = nullptr;   // optional
    std::vector<std::string> plots;           // image files already in the folder, for the report
};

struct BundleFile {
    std::string name;                         // relative to the bundle folder
    std::string what;                         // one line for the manifest and the report
};

struct Bundle {
    std::vector<BundleFile> files;            // in writing order; the report and manifest last
    std::vector<Diagnostic> notes;            // what was left out and why (e.g. no C++ for an op)
};

// Writes the bundle whole (export/StagedFolder.h): into a staging folder beside `dir`, which
// then takes `dir`'s place, so a previous bundle there is replaced as a whole or, on failure,
// kept; the plots already drawn into `dir` move along. A `dir` holding anything but a previous
// bundle or those plots is refused. Errors: missing inputs, a folder or file that cannot be
// written. What cannot be exported for this model (the C++ emitter refusing an op) is
// a note, and the rest is still written.
Expected<Bundle> writeBundle(const BundleInput& input, const std::filesystem::path& dir);

} // namespace strata::exporting

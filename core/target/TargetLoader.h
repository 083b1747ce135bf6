#pragma once
// Loading targets: JSON text or a file in the format of docs/TARGETS.md, or a preset embedded in
// the binary. Every function reads the whole description and reports all of its errors, each
// naming the field path; unknown keys are warnings, not errors.

#include "base/Expected.h"
#include "target/Presets.h"
#include "target/Target.h"

#include <string>
#include <string_view>
#include <vector>

namespace strata::target {

// Parses a target description. `displayName` labels diagnostics and becomes Target::source.
// A `"detect_host": true` description is completed from probeHost() (HostProbe.h). Warnings
// (unknown keys) go to `warnings` when given; on failure they are among the diagnostics.
Expected<Target> parseTarget(std::string_view json, const std::string& displayName,
                             std::vector<Diagnostic>* warnings = nullptr);

// Reads and parses a target file; Target::source is `path`.
Expected<Target> loadTargetFile(const std::string& path,
                                std::vector<Diagnostic>* warnings = nullptr);

struct ResolveOptions {
    // When set and the file exists, "host" resolves to it instead of the embedded preset
    // (`strata-cli calibrate` writes host.calibrated.json; CalibratedHost.h has the default
    // place). A file that exists but does not load is an error naming it, not a fall back.
    std::string calibratedHostFile;
};

// A preset name ("mncore2", "mlu100", "host"), "host-uncalibrated" (the host preset whatever
// calibratedHostFile says), or a path to a .json file. Target::source is "preset:<name>" or the
// path. An unknown name fails with the list of presets.
Expected<Target> resolveTarget(std::string_view presetOrPath, const ResolveOptions& options = {},
                               std::vector<Diagnostic>* warnings = nullptr);

} // namespace strata::target

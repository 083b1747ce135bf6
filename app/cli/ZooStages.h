#pragma once
// One model through everything Strata does with it, as the `zoo` command reports it: import ->
// schedule (per-op, rules, fuse-max) on each target -> compile -> emulate -> host run with the
// outputs checked against the reference (fuse-max and rules). Each target/strategy case goes on
// until a stage fails for it; the row keeps the first failure (earliest stage, first case).

#include <map>
#include <string>
#include <vector>

namespace strata::cli {

struct ZooStage {
    std::string name; // "import", "schedule", "compile", "emulate", "run"
    double ms = 0;    // wall time over every target and strategy of the stage
};

struct ZooRow {
    std::string model; // the file's stem
    std::string path;
    int ops = 0;
    std::vector<std::pair<std::string, int>> opTypes; // sorted by type
    std::vector<ZooStage> stages;                     // those that ran, in order
    std::string failedStage;                          // empty when every stage passed
    std::string failedCase; // "mlu100 fuse-max", "host rules", ... (empty for import)
    std::string diagnostic; // the first error of the failing stage
    std::map<std::string, int> failedCases; // per stage: how many cases failed there
    double emulatedHostNs = 0;              // host, rules: the emulator's total ...
    double measuredHostNs = 0;              // ... and the measured run's (0 when not reached)

    bool ok() const { return failedStage.empty(); }
};

// The targets and strategies every model goes through.
const std::vector<std::string>& zooTargets();       // mncore2, mlu100, host
const std::vector<std::string>& zooStrategies();    // per-op, rules, fuse-max
const std::vector<std::string>& zooRunStrategies(); // fuse-max, rules

ZooRow runZooModel(const std::string& path);

} // namespace strata::cli

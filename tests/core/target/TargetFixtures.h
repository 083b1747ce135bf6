#pragma once
// A small valid target description to mutate in tests, parsing one expected to fail, and a check
// for one diagnostic.

#include "base/Diagnostic.h"
#include "support/TestModels.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace strata::test {

// Two groups of two cores; a DRAM per chip, an SRAM per core, one shared bus.
inline nlohmann::json smallTarget() {
    return nlohmann::json::parse(R"({
      "strata_target": 1,
      "name": "small",
      "description": "test machine",
      "clock_hz": 1e9,
      "topology": {"groups": 2, "cores_per_group": 2},
      "compute": {
        "working_memory": "sram",
        "main_memory": "dram",
        "throughput_per_cycle": {"conv": 64, "matmul": 64, "elementwise": 16, "normalization": 8,
          "pooling": 16, "reduction": 16, "softmax": 4, "data_movement": 16, "other": 1},
        "overhead_cycles": {"compute": 1, "transfer_issue": 1, "wait": 1, "barrier": 10}
      },
      "memories": [
        {"name": "dram", "kind": "dram", "scope": "chip", "capacity_bytes": 1073741824},
        {"name": "sram", "kind": "sram", "scope": "core", "capacity_bytes": 65536, "note": "n"}
      ],
      "resources": [{"name": "bus", "scope": "chip", "bytes_per_cycle": 32}],
      "paths": [
        {"name": "load", "from": "dram", "to": "sram", "bytes_per_cycle": 16,
         "latency_cycles": 100, "max_in_flight": 2, "resources": ["bus"]},
        {"name": "store", "from": "sram", "to": "dram", "bytes_per_cycle": 16,
         "latency_cycles": 100, "max_in_flight": 2, "resources": ["bus"]}
      ]
    })");
}

// The diagnostics at `field` whose message contains `text`.
inline std::vector<Diagnostic> diagnosticsAt(const std::vector<Diagnostic>& diagnostics,
                                             const std::string& field, const std::string& text) {
    std::vector<Diagnostic> found;
    for (const Diagnostic& d : diagnostics)
        if (d.where.field == field && d.message.find(text) != std::string::npos) found.push_back(d);
    return found;
}

// Success when exactly one error at `field` (in `file`) mentions `text`.
inline ::testing::AssertionResult reportsError(const std::vector<Diagnostic>& diagnostics,
                                               const std::string& field, const std::string& text,
                                               const std::string& file = "bad.json") {
    const auto found = diagnosticsAt(diagnostics, field, text);
    if (found.size() == 1 && found[0].severity == Severity::Error && found[0].where.file == file)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "expected one error at field '" << field << "' mentioning \"" << text << "\" in "
           << file << ", got:\n"
           << joined(diagnostics);
}

// Parses `text` as "bad.json", expecting failure; returns the diagnostics.
inline std::vector<Diagnostic> rejected(const std::string& text) {
    auto target = target::parseTarget(text, "bad.json");
    EXPECT_FALSE(target.ok()) << "accepted:\n" << text;
    return target.ok() ? std::vector<Diagnostic>{} : target.diagnostics();
}
inline std::vector<Diagnostic> rejected(const nlohmann::json& document) { return rejected(document.dump(2)); }

} // namespace strata::test

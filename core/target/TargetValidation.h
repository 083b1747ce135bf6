#pragma once
// The semantic rules a target must satisfy, whether it was loaded from JSON or built in code:
// positive and plausible figures, unique names, paths that name existing memories and
// resources, a core-scoped SRAM working memory and a DRAM main memory that paths connect.

#include "base/Diagnostic.h"
#include "target/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata::target {

// Beyond these a figure is a typo (a missing unit prefix, an extra zero), not a machine.
inline constexpr double kMinClockHz = 1e6;
inline constexpr double kMaxClockHz = 100e9;
inline constexpr std::uint64_t kMaxCapacityBytes = 1ull << 50; // 1 PiB
inline constexpr double kMaxBytesPerCycle = 1e6;
// Below these a figure makes every transfer or compute take longer than any run (1e-308 bytes
// per cycle would round transfers to "never completes"): a typo, not a slow machine.
inline constexpr double kMinBytesPerCycle = 1e-6;
inline constexpr double kMinThroughputPerCycle = 1e-6;
inline constexpr double kMaxLatencyCycles = 1e9;
inline constexpr int kMaxInFlight = 4096;
inline constexpr int kMaxCores = 65536;
inline constexpr double kMaxThroughputPerCycle = 1e9;
inline constexpr double kMaxOverheadCycles = 1e9;
// Per-unit costs of convolutions (compute.overhead_cycles.conv_output, depthwise_row).
inline constexpr double kMaxUnitCycles = 1e6;
// Output channels per vector: 16 floats for AVX-512, 64 bytes wider still on some accelerators;
// thousands are a typo.
inline constexpr int kMaxChannelGranule = 1024;

// Every violated rule as an error whose Location.field is the JSON field path of the offending
// value ("paths[2].from") and whose Location.file is `file`. Empty when the target is valid.
std::vector<Diagnostic> validateTarget(const Target& target, const std::string& file);

} // namespace strata::target

#pragma once
// How much slower a path's transfers move while the other core moves bytes on some path
// (target::TransferPath::concurrentSlowdown), from calibration's contention programs: the same
// transfers on one core alone and on two cores at once.

#include "calibrate/Fit.h"
#include "target/Target.h"

#include <vector>

namespace strata::calibrate {

// Sizes from this many bytes judge the factor: their bytes' term carries the slowdown, where a
// page's time is mostly latency the factor does not touch.
inline constexpr double kConcurrentSlowdownMinBytes = 65536;
// Factors below this are the noise of two runs of the same program, not a slowdown.
inline constexpr double kConcurrentSlowdownMin = 1.05;

// The factor S by which the bytes' part of `path`'s transfers slows down, read against the path's
// own figures as the emulator prices them alone (latency, rows, ramp and spill: fixed F, bytes
// part T): each sample's contended time is its measured slowdown r times the emulated time
// alone, so F + S x T = r x (F + T). S is the median over the samples of
// kConcurrentSlowdownMinBytes and up; 1 when there are none or S < kConcurrentSlowdownMin.
double fitConcurrentSlowdown(const std::vector<SlowdownSample>& samples,
                             const target::TransferPath& path);

} // namespace strata::calibrate

#pragma once
// The compute figures a calibration writes into the host target (each fitted class's throughput,
// the per-unit and per-byte costs; the compute overhead and the gap are the caller's), and the
// names the fitted classes are reported by.

#include "calibrate/Fit.h"
#include "target/Target.h"

#include <cstddef>
#include <string>

namespace strata::calibrate {

void writeComputeFigures(const ComputeFit& fit, target::Target& target);

// A fitted class's name: its op class's (ir::opClassName), or "depthwise_conv",
// "pointwise_conv", "transcendental", ... for the classes fitted apart (Fit.h).
std::string computeClassName(std::size_t fitClass);

} // namespace strata::calibrate

#pragma once
// The host target with a calibration's fitted figures written in (docs/CALIBRATION.md): each
// path's latency, row overhead, bandwidth, ramp and spill, its figures per kind of read, the
// shared bus, the compute classes and overheads, and the stamp of this machine and time that
// `host` checks before using it.

#include "calibrate/Calibrate.h"
#include "target/Target.h"

#include <cstdint>

namespace strata::calibrate {

// `host` with `report`'s figures. The gap measured between a stream's instructions is added to
// every fixed cost that precedes one (the emulator starts the next instruction at completion).
// Warm weight figures are written only when a last-level cache was probed (`lastLevelBytes`).
target::Target calibratedTarget(const target::Target& host, const CalibrationReport& report,
                                std::uint64_t lastLevelBytes);

} // namespace strata::calibrate

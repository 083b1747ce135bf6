#pragma once
// The figures of warm weight reads (paths[].warm_weight_reads): a model whose weights fit the
// last-level cache starts each weight read there, but streams its MiB-sized weight tiles no
// faster than a model whose weights do not (2026-11-27: with the cold figures, such reads of
// GPT-2, EfficientNet-B0, ShuffleNetV2 and MobileNetV3-Small at one core came out 0.89-1.31 of
// measured on a quiet machine; the warm chains' own bandwidth, 15-18 B/cycle against 8-10 cold,
// predicted them 1.5-2x too fast on a loaded one). So the warm figures keep the cold bandwidth and
// ramp and fit the latency alone, from the warm reads whose bytes take less than the cold latency
// (latency-bound).

#include "calibrate/Fit.h"

#include <vector>

namespace strata::calibrate {

// Latency = the median over the latency-bound shapes (bytes / cold bandwidth < cold latency) of
// each shape's median cycles less its bytes and rows at the cold figures, at least 0; bandwidth,
// ramp and spill the cold fit's. samples 0 (nothing written) when fewer than
// kMinLatencyShapes shapes are latency-bound.
inline constexpr std::size_t kMinLatencyShapes = 3;
TransferFit fitWarmWeightLatency(const std::vector<TransferSample>& samples,
                                 const TransferFit& cold);

} // namespace strata::calibrate

#pragma once
// Spellings shared by the target loader, writer and validator (docs/TARGETS.md), so the three
// cannot drift apart.

#include "target/Target.h"

#include <array>
#include <optional>
#include <string_view>

namespace strata::target::format {

inline constexpr std::string_view kVersionKey = "strata_target";
// A calibrated host's stamp: {"cpu_model", "cores", "calibrated_at", "speed_checks": [{"cores",
// "ns"}]} (target::CalibrationStamp).
inline constexpr std::string_view kCalibrationKey = "calibration";

// compute.throughput_per_cycle keys, in ir::OpClass order.
inline constexpr std::array<std::string_view, 9> kThroughputKeys = {
    "conv",      "matmul",  "elementwise",   "normalization", "pooling",
    "reduction", "softmax", "data_movement", "other"};
// Optional compute.throughput_per_cycle key: depthwise convolutions (default: `conv`).
inline constexpr std::string_view kDepthwiseConvKey = "depthwise_conv";
// Optional compute.throughput_per_cycle key: pointwise (1x1) convolutions (default: `conv`).
inline constexpr std::string_view kPointwiseConvKey = "pointwise_conv";
// Optional compute.throughput_per_cycle key: transcendental elementwise ops (default: `elementwise`).
inline constexpr std::string_view kTranscendentalKey = "transcendental";
// Optional compute.throughput_per_cycle key: layer normalizations (default: `normalization`).
inline constexpr std::string_view kLayerNormKey = "layer_norm";
// Optional compute.throughput_per_cycle keys: Resize (default: `elementwise`) and Gather
// (default: `data_movement`).
inline constexpr std::string_view kResizeKey = "resize";
inline constexpr std::string_view kGatherKey = "gather";
// Optional compute.throughput_per_cycle key: global pools, per input element read (default:
// `pooling`, per element read).
inline constexpr std::string_view kGlobalPoolKey = "global_pool";
// Optional compute.throughput_per_cycle key: ops copying contiguous runs (default:
// `data_movement`).
inline constexpr std::string_view kCopyKey = "copy";
// Optional compute.throughput_per_cycle key: grouped convolutions (default: `conv`).
inline constexpr std::string_view kGroupedConvKey = "grouped_conv";
// Optional compute.throughput_per_cycle key: Sigmoid (default: `transcendental`).
inline constexpr std::string_view kSigmoidKey = "sigmoid";
inline constexpr std::array<std::string_view, 19> kThroughputKeysWithOptional = {
    "conv",        "matmul",          "elementwise",     "normalization",
    "pooling",     "reduction",       "softmax",         "data_movement",
    "other",       kDepthwiseConvKey, kPointwiseConvKey, kTranscendentalKey,
    kLayerNormKey, kResizeKey,        kGatherKey,        kGlobalPoolKey,
    kCopyKey,      kGroupedConvKey,   kSigmoidKey};

// Optional compute.overhead_cycles keys: per-unit costs of convolutions (default 0).
inline constexpr std::string_view kConvOutputKey = "conv_output";
inline constexpr std::string_view kDepthwiseRowKey = "depthwise_row";
inline constexpr std::string_view kGroupedConvElementKey = "grouped_conv_element";
// What calibrations before 2026-11-29 wrote instead (a cost per im2col row of the kernel grouped
// convolutions ran on then): read only to say it is obsolete.
inline constexpr std::string_view kRetiredGroupedConvRowKey = "grouped_conv_row";
// Optional compute.overhead_cycles key: a reduction's cost per output element (default 0).
inline constexpr std::string_view kReductionOutputKey = "reduction_output";
inline constexpr std::string_view kWeightByteKey = "weight_byte";
// Optional compute.overhead_cycles key: a batched matrix product's cost per matrix pair.
inline constexpr std::string_view kMatMulProductKey = "matmul_product";
// Optional compute.overhead_cycles key: a Resize's cost per output row.
inline constexpr std::string_view kResizeRowKey = "resize_row";
// Optional compute.overhead_cycles key: a box-moving op's cost per contiguous run it copies.
inline constexpr std::string_view kCopyRunKey = "copy_run";
// Optional compute.overhead_cycles keys: per weight byte beyond the private cache (default 0).
inline constexpr std::string_view kConvFarWeightByteKey = "conv_far_weight_byte";
inline constexpr std::string_view kMatmulFarWeightByteKey = "matmul_far_weight_byte";
// Optional compute.overhead_cycles key: per byte of a reorder's boxes beyond the private cache.
inline constexpr std::string_view kReorderFarByteKey = "reorder_far_byte";
// Optional compute key: a core's private cache in bytes (Target::privateCacheBytes, default 0).
inline constexpr std::string_view kPrivateCacheBytesKey = "private_cache_bytes";

// Optional compute key: the work factor of a block on one core of several
// (Target::oneCoreWorkFactor, default 1).
inline constexpr std::string_view kOneCoreWorkFactorKey = "one_core_work_factor";

// Optional compute key: the last core's expected lateness at a barrier (Target::joinSkew), an
// object {"coefficient": c, "exponent": e}: c * work^e cycles for a block of `work` cycles.
inline constexpr std::string_view kJoinSkewKey = "join_skew";

// Optional compute key: output channels per vector (Target::channelGranule, default 1).
inline constexpr std::string_view kChannelGranuleKey = "channel_granule";

static_assert(kThroughputKeys.size() == static_cast<std::size_t>(ir::OpClass::Other) + 1,
              "one throughput key per op class");

inline std::optional<MemoryKind> parseMemoryKind(std::string_view text) {
    if (text == "dram") return MemoryKind::Dram;
    if (text == "sram") return MemoryKind::Sram;
    return std::nullopt;
}

inline std::optional<Scope> parseScope(std::string_view text) {
    if (text == "chip") return Scope::Chip;
    if (text == "group") return Scope::Group;
    if (text == "core") return Scope::Core;
    return std::nullopt;
}

} // namespace strata::target::format

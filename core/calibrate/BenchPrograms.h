#pragma once
// The programs calibration runs on the host (docs/CALIBRATION.md): transfers of one size on one
// path issued by several cores at once, barriers alone, and one small single-op model per op
// class for the compute throughputs.

#include "base/Expected.h"
#include "compiler/Program.h"
#include "ir/Graph.h"
#include "target/Target.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace strata::calibrate {

// The tile of the instructions that only prepare a measurement (transferProgram's priming).
inline constexpr std::int64_t kPrimingTile = -2;

// Cores 0..cores-1 each issue `count` transfers of `bytes` on `path`, every one waited on before
// the next is issued, at distinct main-memory offsets, to or from their own working-memory
// instance; main-memory regions are at least 1 MiB apart. `runBytes` > 0 makes the main-memory
// side a strided box shaped like a tile's gather: rows of that many bytes two rows apart, 8 rows
// per plane, planes at least 16 KiB apart (whole rows: transferBoxBytes of `bytes` move); 0 is
// one contiguous run.
// The transfers are preceded by the same regions moved the other way by the next core, then a
// barrier of all cores (tile kPrimingTile; not to be measured): reads find pages another core
// wrote, writes find lines in another core's cache, as a model's transfers mostly do.
// With Priming::OwnCore the measuring core itself moves each region the other way just before
// its transfer instead, so the transfer finds the bytes in its own cache (the rows a model's
// tiles re-read: target::TransferPath::residentRowOverheadCycles).
// Errors: an unknown path, a size larger than a memory it touches, more cores than the target has.
enum class Priming { OtherCore, OwnCore };
Expected<compiler::Program> transferProgram(const target::Target& target, const std::string& path,
                                            std::uint64_t bytes, int cores, int count,
                                            std::uint64_t runBytes = 0,
                                            Priming priming = Priming::OtherCore);

// The same with each core on its own path: core c issues its transfers on paths[c] (paths.size()
// cores), each primed as above. Two cores on different paths measure what one core's transfers
// lose to the other core's traffic of another kind (a store while the other core loads).
Expected<compiler::Program> transferProgramOn(const target::Target& target,
                                              const std::vector<std::string>& paths,
                                              std::uint64_t bytes, int count,
                                              std::uint64_t runBytes = 0,
                                              Priming priming = Priming::OtherCore);

// The row lengths the transfer programs copy besides contiguous boxes (0 first), on `path`:
// whole cache lines for reads, a tile's short rows for writes into main memory.
std::span<const std::uint64_t> transferRunBytes(const target::TransferPath& path,
                                                const std::string& mainMemory);

// The bytes one of transferProgram's transfers moves: `bytes`, or for a strided box the whole
// planes of rows of `runBytes` that fit in it.
std::uint64_t transferBoxBytes(std::uint64_t bytes, std::uint64_t runBytes);

// The main-memory bytes one of transferProgram's transfers spans (its box, gaps included).
std::uint64_t transferSpanBytes(std::uint64_t bytes, std::uint64_t runBytes);

// The sizes the transfer programs measure: 64 B, `step` times larger each, up to `limit` (the
// capacity of the memories a path touches). The limit itself is always the largest, and
// replaces a step size within 2x of it: 16 MiB next to an 18 MiB limit would add programs as
// long as the largest's and no new regime. None when the limit is under 64 B.
std::vector<std::uint64_t> transferSizes(std::uint64_t limit, std::uint64_t step);

// Every core reaches `count` barriers and does nothing else.
compiler::Program barrierProgram(const target::Target& target, int count);

// A graph of one op (plus its inputs) per op class, at a scale: 1 small, 2 larger. Classes:
// conv (dense 3x3, pointwise 1x1 and depthwise 3x3, as CNNs mix them, at channels 32 x scale on
// images of 112 / scale; pointwise ones of 256 x scale channels and depthwise ones on 14 x 14
// besides, which tell the per-unit costs apart; a strided 1x1 shortcut, as ResNets have),
// matmul, elementwise (Add and Relu, and an Add of
// 16 elements whose time is almost all overhead), transcendental (Erf, Sigmoid), pooling,
// normalization (batch and layer norm), softmax (over attention scores), reduction, data_movement;
// and thin convolutions and matrix products, with few output positions per weight, which tell
// the cost per weight byte read (overhead_cycles.weight_byte) from the MAC rates.
std::vector<std::shared_ptr<const ir::Graph>> opClassGraphs(int scale);

// Model-like programs for the kinds of read (target::ReadKind), run as models run (`rules`):
//  - weights read as a model's are (paths[].weight_reads): chains of layers on small activations,
//    a CNN's convolutions (3x3 and 1x1, 256..1024 channels on 7 x 7, then a MobileNet's 1x1 and
//    depthwise ones of 64..256 channels, whose weights are small) and a transformer's matrix
//    products (64 tokens, widths 512..2048), each with its bias. Their weights, about 28 MiB in
//    all, are far more than a core's cache holds, so every repeat reads them from where a model's
//    come from (the shared cache or DRAM), in the compiler's own weight tiles;
//  - activations a core stored itself an op ago (paths[].cached_reads): chains of elementwise
//    ops on [128, width] activations, widths 128..16384 (each core's tiles of 32 KiB .. 4 MiB:
//    past a core's L2, where a cached read runs at under half its rate within it), each op its
//    own block, the cores splitting the rows alike from op to op.
std::vector<std::shared_ptr<const ir::Graph>> readKindGraphs();

// Small reads of rows the other core stored (paths[].shared_reads, emulator/SharedReads.h): the
// chains above read such rows of 12 KiB and more only, and under 4 KiB a read of another core's
// lines pays its latency several times over. A chain of 1x1 convolutions with biases on 4 x 4
// planes, 8 -> 16 -> 32 -> 64 -> 128 -> 64 -> 32 -> 16 -> 8 channels: each layer's cores split its
// output channels and read all of the layer before, 512 B .. 8 KiB.
std::vector<std::shared_ptr<const ir::Graph>> sharedReadGraphs();

// Cached reads and stores at reuse distances up to MiBs (paths[].cached_reads.by_reuse_distance,
// ReuseDistanceFit.h), as a model's skip connections make them: chains of 3x3 convolutions
// (64 channels on 28 x 28, 32 on 56 x 56), each layer adding the output of the layer 1, 2, 4, 8
// or 16 layers back, so its read of that output finds lines the core moved that much traffic
// ago, and the planner's reused buffers give its stores the same spread.
std::vector<std::shared_ptr<const ir::Graph>> reuseDistanceGraphs();

// Layout reorders past a core's private cache (overhead_cycles.reorder_far_byte, ReorderFit.h):
// 3x3 convolutions of 16 -> 64 channels on 128 x 128 and 192 x 192 planes whose outputs are graph
// outputs, so each core's channels-last output box (2 and 4.5 MiB) is reordered to row-major
// before its store: boxes of 4 and 9 MiB read and written.
std::vector<std::shared_ptr<const ir::Graph>> reorderGraphs();

// A small model's weights, read warm (paths[].warm_weight_reads): a MobileNet's inverted
// residuals (1x1 and depthwise 3x3 convolutions of 16..960 channels on 14 x 14, each with its
// bias) and a transformer's feed-forward pair (64 tokens, 384 -> width -> 384, with biases, a
// scalar scale and a per-feature shift): weight reads of 4 B .. MiBs, each chain's weights about
// a quarter of `lastLevelBytes` (at least 2 MiB): more than the cores' L2s hold, well within the
// last-level cache, so the measured run finds them where the warm-up run left them, as a model
// whose weights fit that cache finds its own run after run.
std::vector<std::shared_ptr<const ir::Graph>> warmWeightGraphs(std::uint64_t lastLevelBytes);

// Thin work whose weights are several times a core's private cache (`privateCacheBytes`, the
// probed L2), for the compute fit's cost per weight byte beyond it
// (overhead_cycles.conv_far_weight_byte, matmul_far_weight_byte): a chain of 3x3 convolutions on
// 4 x 4 planes, each with about 8 private caches of weights (two cores splitting one still hold
// four each), enough of them to total 1.5 `lastLevelBytes` (so each run finds their packed
// copies out of the shared cache, as a large model does), and a classifier's matrix-vector
// product with as many weights. None without a probed private cache.
inline constexpr const char* kFarMatMulName = "calibrate-matmul-far"; // the second of them
std::vector<std::shared_ptr<const ir::Graph>> farWeightGraphs(std::uint64_t privateCacheBytes,
                                                              std::uint64_t lastLevelBytes);

// Whether a graph of opClassGraphs is there for its computes alone (the transcendental ops, the
// pointwise convolutions of many channels, the strided 1x1, the depthwise ones on small planes,
// layer norm): its transfers, large warm copies of one activation,
// do not join the paths' samples, which stay those of the op classes above.
bool computesOnly(const ir::Graph& graph);

// Whether an op of opClassGraphs is there only so the tensor it reads lives channels-last in main
// memory, as a model's does (a global pool after a depthwise block's projection: it reads either
// layout, where a graph output stays row-major): calibration keeps no compute sample of it.
bool layoutSink(const ir::Op& op);

} // namespace strata::calibrate

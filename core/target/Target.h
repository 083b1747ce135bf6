#pragma once
// A target: the machine a program is compiled for, emulated on and (for `host`) run on. Plain
// data loaded from a versioned JSON description (docs/TARGETS.md); TargetLoader validates it.
//
// Topology is groups x cores per group. A memory space or shared resource has one instance per
// chip, per group or per core (its scope). A transfer issued by a core in group g uses the
// group-g instance of group-scoped memories and resources; a broadcast path uses all of them.

#include "ir/OpClass.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::target {

inline constexpr int kTargetSchemaVersion = 1;

enum class MemoryKind : std::uint8_t { Dram, Sram };
enum class Scope : std::uint8_t { Chip, Group, Core };

std::string_view memoryKindName(MemoryKind kind); // "dram", "sram"
std::string_view scopeName(Scope scope);           // "chip", "group", "core"

struct MemorySpace {
    std::string name;                  // "DRAM", "PDM", "L2BM", "scratch"
    MemoryKind kind = MemoryKind::Dram;
    Scope scope = Scope::Chip;
    std::uint64_t capacityBytes = 0;   // of one instance
    std::string note;                  // source of the figure, or "assumption: ..."

    bool operator==(const MemorySpace&) const = default;
};

// Something concurrent transfers compete for (a DRAM port, a bus). Transfers that occupy the
// same instance share its bandwidth; their latency parts may overlap.
struct SharedResource {
    std::string name;
    Scope scope = Scope::Chip;
    double bytesPerCycle = 0;          // of one instance
    std::string note;

    bool operator==(const SharedResource&) const = default;
};

// What a transfer out of main memory reads, as far as a CPU's caches tell its speed apart: a weight
// (a graph initializer or constant), last read a whole inference ago and so farther out (the
// shared cache or DRAM); bytes the issuing core itself stored recently enough that they are still
// in its cache (emulator::classifyReads); anything else. A path can give the first two their own
// figures (docs/TARGETS.md); one latency and bandwidth cannot fit all three (docs/CALIBRATION.md).
// And what a store into main memory writes: lines the issuing core moved recently enough that they
// are still in its cache (CachedWrite: the write hits, no line is fetched first) or anything else
// (Other: each line is read in from farther out before it is written). And a read of rows that
// cores stored a block before, another core among them (Shared: in that core's cache or the
// shared one; emulator/SharedReads.h).
enum class ReadKind : std::uint8_t { Other, Weight, Cached, CachedWrite, Shared };
inline constexpr std::size_t kReadKinds = 5;
// The kinds a path can give figures of their own (all but Other).
inline constexpr std::array<ReadKind, 4> kOwnFigureKinds = {
    ReadKind::Weight, ReadKind::Cached, ReadKind::CachedWrite, ReadKind::Shared};

// The start of a stream out of main memory, which runs slower than the rest: its first lines are
// misses the hardware prefetcher has not yet caught up with (docs/ACCURACY.md, "Two-segment
// transfer cost"). The first `bytes` of a transfer move at `bytesPerCycle`, the rest at the
// path's bandwidth; so a transfer's time is concave in its size. bytes == 0: no ramp (every byte
// at the bandwidth). Optional in the format.
//
// And its end beyond the core's private cache, which runs slower too: a transfer larger than
// the L2 evicts its own first lines from it as it copies (with a 17 MiB host scratch, loads of
// 1-4 MiB ran at 13-17 B/ns against 30-37 B/ns up to 1 MiB; docs/ACCURACY.md, "Transfers larger
// than the core's cache"). Bytes past `spillBytes` move at `spillBytesPerCycle`, so the time of
// a transfer spanning all three segments is concave then convex. spillBytes == 0: no spill.
struct Ramp {
    double bytes = 0;
    double bytesPerCycle = 0; // at most the bandwidth it ramps up to
    double spillBytes = 0;
    double spillBytesPerCycle = 0; // at most the bandwidth

    bool operator==(const Ramp&) const = default;
};

// Cycles a transfer of `bytes` spends beyond `bytes / bytesPerCycle` in its ramp: its first
// min(bytes, ramp.bytes) at the ramp's rate instead of the bandwidth, and its bytes past
// ramp.spillBytes at the spill's rate; 0 without either.
double rampExtraCycles(const Ramp& ramp, double bandwidthBytesPerCycle, double bytes);

// The rate of a cached read or store whose lines the issuing core last moved `bytes` of its
// traffic ago: the farther back, the more of them its private cache has given back to the shared
// one, and that one to memory (docs/EMULATOR.md, "Reuse distance").
struct DistanceRate {
    double bytes = 0;
    double bytesPerCycle = 0;

    bool operator==(const DistanceRate&) const = default;
};

// A path's latency and bandwidth for one ReadKind. Optional in the format.
struct ReadFigures {
    double bytesPerCycle = 0;
    double latencyCycles = 0;
    Ramp ramp;
    // Cached reads and stores only: their rate by reuse distance, by ascending distance; empty:
    // every one at bytesPerCycle (within the private cache) or the spill's rate (past it).
    std::vector<DistanceRate> byReuseDistance;

    bool operator==(const ReadFigures&) const = default;
};

// Cycles a transfer of `bytes` whose lines its core last moved `distance` bytes ago spends beyond
// its figures' bandwidth: every byte up to the spill's start at the rate `figures.byReuseDistance`
// gives that distance (per-byte time interpolated linearly in log2 of the distance between its
// points; the first point's rate below it, the last's past it), no faster than the bandwidth. 0
// without points.
double reuseDistanceExtraCycles(const ReadFigures& figures, double bytes, double distance);

struct TransferPath {
    std::string name;                  // "mvp", "mvb", "load", "store"
    std::string source;                // memory space names
    std::string destination;
    double bytesPerCycle = 0;          // one transfer on its own, after its latency
    double latencyCycles = 0;          // issue to first byte plus completion
    int maxInFlight = 1;               // per issuing core
    std::vector<std::string> resources;// shared resources occupied while transferring
    bool broadcast = false;            // reads every source instance, writes every destination one
    std::string note;
    // The issuing core itself moves the bytes (a CPU's memcpy, no DMA engine): its stream can
    // issue nothing else until the transfer completes. After `note` so older brace-initialised
    // paths stay valid.
    bool issuerBusy = false;
    // Cost of each contiguous row of a strided transfer (a tile with halos is a box of short
    // rows; a CPU pays per row on top of the bytes), on top of latency + bytes / bandwidth. 0:
    // rows cost nothing extra. Optional in the format.
    double rowOverheadCycles = 0;
    // Transfers reading a weight, or bytes still in the issuing core's cache, use these instead of
    // bytesPerCycle and latencyCycles; absent: they are read like any other.
    std::optional<ReadFigures> weightReads;
    std::optional<ReadFigures> cachedReads;
    // Stores into lines the issuing core still has in its cache (ReadKind::CachedWrite) use these
    // instead; absent: they are written like any other.
    std::optional<ReadFigures> cachedWrites;
    // Reads of rows cores stored a block before, another core among them (ReadKind::Shared) use
    // these instead; absent: they are read like any other.
    std::optional<ReadFigures> sharedReads;
    // Weight reads of a model whose weights total at most warmWeightBytes (they fit the
    // last-level cache, so each run finds them there from the last one) use these instead of
    // weightReads (emulator/WeightRegime.h); absent: every weight read uses weightReads.
    std::optional<ReadFigures> warmWeightReads;
    double warmWeightBytes = 0;
    // Cost of each row of a read out of main memory whose bytes the issuing core itself moved
    // recently (still in its cache: emulator/ResidentRows.h), instead of rowOverheadCycles: a
    // row another core or memory must supply starts with a miss no prefetcher foresees, one
    // already in the core's cache does not. Absent: every row costs rowOverheadCycles.
    std::optional<double> residentRowOverheadCycles;
    // The ramp of reads of any other kind (ReadFigures::ramp for weights and cached reads).
    Ramp ramp;
    // While another core moves bytes on the named path, this path's transfers (every kind of
    // read) move at their bytes per cycle / the factor (emulator::concurrentSlowdown): two cores'
    // copies slow each other down without a shared bandwidth to show for it (docs/EMULATOR.md).
    // Absent or empty: no slowdown. Factors >= 1.
    std::map<std::string, double> concurrentSlowdown;

    const std::optional<ReadFigures>& figuresOf(ReadKind kind) const {
        static const std::optional<ReadFigures> kNone;
        return kind == ReadKind::Weight        ? weightReads
               : kind == ReadKind::Cached      ? cachedReads
               : kind == ReadKind::CachedWrite ? cachedWrites
               : kind == ReadKind::Shared      ? sharedReads
                                               : kNone;
    }
    double bytesPerCycleFor(ReadKind kind) const {
        const auto& own = figuresOf(kind);
        return own ? own->bytesPerCycle : bytesPerCycle;
    }
    double latencyCyclesFor(ReadKind kind) const {
        const auto& own = figuresOf(kind);
        return own ? own->latencyCycles : latencyCycles;
    }
    const Ramp& rampFor(ReadKind kind) const {
        const auto& own = figuresOf(kind);
        return own ? own->ramp : ramp;
    }
    // What a transfer of `bytes` costs before its bytes share the path's bandwidth: the latency
    // and the ramp's extra time (the ramp is latency-bound, not a share of a resource).
    double fixedCyclesFor(ReadKind kind, double bytes) const {
        return latencyCyclesFor(kind) +
               rampExtraCycles(rampFor(kind), bytesPerCycleFor(kind), bytes);
    }

    bool operator==(const TransferPath&) const = default;
};

// Per-core throughput of one op class, in that class's unit per cycle: multiply-accumulates for
// Conv and MatMul, input elements read for Reduction, output elements for everything else
// (docs/TARGETS.md).
struct ComputeThroughput {
    std::array<double, 9> perCycle{}; // indexed by ir::OpClass
    // MACs per cycle of a depthwise convolution (group == input channels > 1), which a CPU or
    // an accelerator runs at a very different rate than a dense one. 0: the `conv` figure.
    double depthwiseConvPerCycle = 0;
    // MACs per cycle of a pointwise convolution (1x1 window, stride 1, one group): a plain matrix
    // product on a CPU, where a wider window first gathers its input (im2col). 0: the `conv` figure.
    double pointwiseConvPerCycle = 0;
    // Output elements per cycle of an elementwise op that evaluates a transcendental function per
    // element (Erf, Exp, Tanh, Sigmoid...: a libm call on a CPU, tens of times an Add's cost).
    // 0: the `elementwise` figure.
    double transcendentalPerCycle = 0;
    // Output elements per cycle of a Sigmoid (and of a SiLU's sigmoid): on a CPU a vectorised
    // kernel of its own, ~4x an Erf's rate (Eigen's), so one transcendental figure over both
    // put EfficientNet-B0's 2.5x too slow and transformers' GELUs 1.6x too fast.
    // 0: the `transcendental` figure.
    double sigmoidPerCycle = 0;
    // Output elements per cycle of a layer normalization (LayerNormalization), which takes a
    // group's mean and variance before it scales: several passes where an inference batch-norm is
    // one multiply-add per element. 0: the `normalization` figure.
    double layerNormPerCycle = 0;
    // Output elements per cycle of a Resize (an index computation and a gather per output element,
    // several reads per element when it interpolates). 0: the `elementwise` figure.
    double resizePerCycle = 0;
    // Output elements per cycle of a Gather (a row copy per index: lookups, a token's embedding).
    // 0: the `data_movement` figure.
    double gatherPerCycle = 0;
    // Input elements read per cycle of a global pool (GlobalAveragePool, GlobalMaxPool: one
    // streaming pass over whole planes, far cheaper per element than a general reduction's, far
    // dearer per output than a windowed pool's). 0: the `pooling` figure, per element read.
    double globalPoolPerCycle = 0;
    // Output elements per cycle of an op that copies whole contiguous runs (Concat, Split, Slice,
    // Reshape, Flatten, Squeeze, Unsqueeze, Identity: a memcpy per row on a CPU), where a
    // Transpose gathers element by element. 0: the `data_movement` figure.
    double copyPerCycle = 0;
    // MACs per cycle of a grouped convolution (1 < group < input channels: ResNeXt's and RegNetX's
    // 3x3 convolutions over groups of 4-64 channels), a small matrix product per group on a CPU.
    // 0: the `conv` figure.
    double groupedConvPerCycle = 0;
    double of(ir::OpClass opClass) const { return perCycle[static_cast<std::size_t>(opClass)]; }
    double& of(ir::OpClass opClass) { return perCycle[static_cast<std::size_t>(opClass)]; }
    double depthwiseConv() const { return depthwiseConvPerCycle > 0 ? depthwiseConvPerCycle : of(ir::OpClass::Conv); }
    double pointwiseConv() const { return pointwiseConvPerCycle > 0 ? pointwiseConvPerCycle : of(ir::OpClass::Conv); }
    double transcendental() const { return transcendentalPerCycle > 0 ? transcendentalPerCycle : of(ir::OpClass::Elementwise); }
    double sigmoid() const { return sigmoidPerCycle > 0 ? sigmoidPerCycle : transcendental(); }
    double layerNorm() const { return layerNormPerCycle > 0 ? layerNormPerCycle : of(ir::OpClass::Normalization); }
    double resize() const {
        return resizePerCycle > 0 ? resizePerCycle : of(ir::OpClass::Elementwise);
    }
    double gather() const {
        return gatherPerCycle > 0 ? gatherPerCycle : of(ir::OpClass::DataMovement);
    }
    double globalPool() const {
        return globalPoolPerCycle > 0 ? globalPoolPerCycle : of(ir::OpClass::Pooling);
    }
    double copy() const { return copyPerCycle > 0 ? copyPerCycle : of(ir::OpClass::DataMovement); }
    double groupedConv() const {
        return groupedConvPerCycle > 0 ? groupedConvPerCycle : of(ir::OpClass::Conv);
    }

    bool operator==(const ComputeThroughput&) const = default;
};

// Fixed costs in cycles, charged per instruction by the emulator.
struct Overheads {
    double computeCycles = 0;          // per compute instruction, on top of its throughput part
    double transferIssueCycles = 0;    // stream time to issue an asynchronous transfer
    double waitCycles = 0;             // a wait on an already-complete tag
    double barrierCycles = 0;          // synchronising the cores of a barrier
    // Per-unit costs of convolutions beyond their MACs (0: none; optional in the format). A CPU's
    // matrix product writes each output element on top of its K multiply-adds, so convolutions
    // with few MACs per output (few input channels) run slower per MAC; a depthwise loop pays per
    // output row, so small planes run slower per MAC.
    double convOutputCycles = 0;       // per output element of a dense or pointwise convolution
    double depthwiseRowCycles = 0;     // per output row (one channel, one output line) of a depthwise one
    // Per element of a grouped convolution's input and output planes: the host runs it on
    // oneDNN's grouped kernel, which reorders its row-major boxes into a channel-blocked layout
    // and back, so a strided one (four input elements per output plane element) pays more per MAC.
    double groupedConvElementCycles = 0;
    // Per output element of a reduction on top of its input elements: a global average pool reads
    // 49 elements per output, a transformer's mean over a row 768, and the first pays its
    // per-output set-up over far fewer reads.
    double reductionOutputCycles = 0;
    // Per matrix pair of a batched MatMul or Einsum (an attention's products): the host makes one
    // sgemm call per pair, and on small matrices the call, not the MACs, carries much of the time.
    double matmulProductCycles = 0;
    // Per output row of a Resize (its last dim): the host's kernel works out the input rows and
    // weights each output row sums before it runs along the row.
    double resizeRowCycles = 0;
    // Per contiguous run an op that moves boxes copies (Concat, Reshape, Slice, Split, a Transpose
    // keeping the last dim: emulator::copyRuns): the host copies each run with one memcpy or row
    // of vector moves, so rows of 16 floats cost several times a whole plane's per byte.
    double copyRunCycles = 0;
    // Per byte of constant operands (weights) a convolution or matrix product reads: a tile with
    // few output positions per weight (a classifier's matrix-vector product, a convolution tile of
    // 2 x 2 outputs) streams its weights through the cache at a few bytes per cycle, so its time
    // follows its weight bytes, not its MACs (docs/ACCURACY.md, "Compute").
    double weightByteCycles = 0;
    // Per weight byte a dense (not pointwise) convolution or a matrix product reads beyond the
    // core's private cache (Target::privateCacheBytes), on top of weightByteCycles: its first
    // cache-worth is near, the rest comes from the shared cache or DRAM (docs/EMULATOR.md).
    double convFarWeightByteCycles = 0;
    double matmulFarWeightByteCycles = 0;
    // Per byte a layout reorder's boxes (read and written) take beyond the core's private cache,
    // on top of its data-movement work: a box that fits is rewritten in that cache, a larger one
    // goes through the shared cache (docs/EMULATOR.md, "Reorders past the private cache").
    double reorderFarByteCycles = 0;

    bool operator==(const Overheads&) const = default;
};

// How much later than the average working core the last one reaches a barrier, in cycles, for a
// block whose cores worked `work` cycles since the previous barrier: coefficient * work^exponent.
// Cores given equal work do not finish together (calibrate/JoinSkew.h). coefficient 0: none.
struct JoinSkew {
    double coefficient = 0;
    double exponent = 1;

    double cycles(double work) const {
        return coefficient > 0 && work > 0 ? coefficient * std::pow(work, exponent) : 0;
    }
    bool operator==(const JoinSkew&) const = default;
};

// A speed check's time (calibrate/MachineSpeed.h) per core count it ran on, ns.
using SpeedCheckTimes = std::map<int, double>;

// Which machine a calibrated host target was measured on, and when (docs/CALIBRATION.md): a
// calibration made on another CPU model or core count is not used, an old one is offered again.
struct CalibrationStamp {
    std::string cpuModel;     // /proc/cpuinfo "model name" (HostFacts::cpuModel)
    int cores = 0;            // online CPUs when measured
    std::string calibratedAt; // UTC, "2026-11-26T06:14:35Z"
    // The speed check's times when calibrated; empty in calibrations made before it existed.
    SpeedCheckTimes speedChecks;

    bool operator==(const CalibrationStamp&) const = default;
};

struct Target {
    int schemaVersion = kTargetSchemaVersion;
    std::string name;                  // "mncore2", "mlu100", "host"
    std::string description;
    std::string source;                // file path, or "preset:<name>"
    double clockHz = 0;
    int groups = 1;
    int coresPerGroup = 1;
    ComputeThroughput throughput;
    Overheads overheads;
    std::string workingMemory;         // core-scoped SRAM space compute operands live in
    std::string mainMemory;            // DRAM space tensors live in between blocks
    // Output channels a convolution or matrix product computes together (one vector of its
    // compute unit: 16 floats with AVX-512, 8 with AVX2). A tile with fewer, or a count that is
    // not a multiple, costs as if rounded up, so the tiler keeps whole vectors of output channels
    // and the emulator charges the padded lanes (docs/TARGETS.md). 1: every channel on its own.
    int channelGranule = 1;
    // Bytes of a core's private cache (the host's per-core L2, probed): a compute's weight bytes
    // beyond it pay the overhead_cycles.*_far_weight_byte figures. 0: unknown, none pay them.
    std::uint64_t privateCacheBytes = 0;
    // The work part of a compute (its cycles beyond overhead_cycles.compute) in a block that runs
    // on one core while the target has more is multiplied by this: the throughputs describe
    // computes with every core busy (how calibration measures them, as most blocks run), and a
    // core alone runs faster (a shared last-level cache and memory to itself). 1: no difference.
    double oneCoreWorkFactor = 1;
    // The expected lateness of the last core at a barrier of cores that all worked (JoinSkew).
    JoinSkew joinSkew;
    std::vector<MemorySpace> memories;
    std::vector<SharedResource> resources;
    std::vector<TransferPath> paths;
    bool calibrated = false;           // figures measured on this machine (host only)
    std::optional<CalibrationStamp> calibration; // where and when; absent in older calibrated files

    int cores() const { return groups * coresPerGroup; }
    int maxMp() const { return cores(); }
    int instancesOf(Scope scope) const; // 1, groups, or cores

    const MemorySpace* findMemory(std::string_view memoryName) const;
    const SharedResource* findResource(std::string_view resourceName) const;
    const TransferPath* findPath(std::string_view pathName) const;
    // The first non-broadcast path from `from` to `to`, if any.
    const TransferPath* pathBetween(std::string_view from, std::string_view to) const;

    // Capacity of one core's working memory: what a block's tile working set must fit in.
    std::uint64_t workingMemoryBytes() const;
    double nanosecondsPerCycle() const { return 1e9 / clockHz; }

    // Field by field, `source` included (a test of write-then-load sets it first).
    bool operator==(const Target&) const = default;
};

} // namespace strata::target

#include "target/TargetValidation.h"

#include "target/TargetFormat.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace strata::target {

namespace {

std::string formatNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::string indexed(std::string_view key, std::size_t index) {
    return std::string(key) + "[" + std::to_string(index) + "]";
}

template <class T> std::string nameList(const std::vector<T>& items) {
    if (items.empty()) return "none defined";
    std::string out;
    for (const T& item : items) out += (out.empty() ? "" : ", ") + item.name;
    return out;
}

class Checker {
  public:
    Checker(const std::string& file, std::vector<Diagnostic>& out) : m_file(file), m_out(out) {}

    void fail(std::string field, std::string message) {
        m_out.push_back(error(std::move(message), {.file = m_file, .field = std::move(field)}));
    }

    // A bandwidth or rate: finite, > 0 and within [`min`, `max`].
    void positive(const std::string& field, double value, double min, double max,
                  std::string_view what) {
        if (!std::isfinite(value)) return fail(field, "must be finite");
        if (value <= 0) return fail(field, "must be positive, got " + formatNumber(value));
        if (value < min)
            return fail(field, "implausible " + std::string(what) + " " + formatNumber(value) +
                                   ": less than " + formatNumber(min));
        if (value > max)
            fail(field, "implausible " + std::string(what) + " " + formatNumber(value) +
                            ": more than " + formatNumber(max));
    }

    // A latency or overhead: finite, >= 0 and at most `max`.
    void nonNegative(const std::string& field, double value, double max, std::string_view what) {
        if (!std::isfinite(value)) return fail(field, "must be finite");
        if (value < 0) return fail(field, "must not be negative, got " + formatNumber(value));
        if (value > max)
            fail(field, "implausible " + std::string(what) + " " + formatNumber(value) +
                            ": more than " + formatNumber(max));
    }

    void count(const std::string& field, std::int64_t value, std::int64_t max,
               std::string_view what) {
        if (value < 1) return fail(field, "must be at least 1, got " + std::to_string(value));
        if (value > max)
            fail(field, "implausible " + std::string(what) + " " + std::to_string(value) +
                            ": more than " + std::to_string(max));
    }

    // Names must be non-empty and unique within their list.
    template <class T>
    void uniqueNames(const std::vector<T>& items, std::string_view key, std::string_view what) {
        std::map<std::string, std::size_t> firstIndex;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const std::string field = indexed(key, i) + ".name";
            if (items[i].name.empty()) {
                fail(field, "must not be empty");
                continue;
            }
            auto [it, inserted] = firstIndex.emplace(items[i].name, i);
            if (!inserted)
                fail(field, "duplicate " + std::string(what) + " name '" + items[i].name +
                                "' (also " + indexed(key, it->second) + ")");
        }
    }

  private:
    const std::string& m_file;
    std::vector<Diagnostic>& m_out;
};

void checkMachine(const Target& target, Checker& check) {
    if (!std::isfinite(target.clockHz)) {
        check.fail("clock_hz", "must be finite");
    } else if (target.clockHz <= 0) {
        check.fail("clock_hz", "must be positive, got " + formatNumber(target.clockHz));
    } else if (target.clockHz < kMinClockHz || target.clockHz > kMaxClockHz) {
        check.fail("clock_hz", "implausible clock " + formatNumber(target.clockHz) +
                                   " Hz: expected 1 MHz to 100 GHz");
    }
    check.count("topology.groups", target.groups, kMaxCores, "group count");
    check.count("topology.cores_per_group", target.coresPerGroup, kMaxCores, "core count");
    const std::int64_t cores = std::int64_t{target.groups} * target.coresPerGroup;
    if (target.groups >= 1 && target.coresPerGroup >= 1 && cores > kMaxCores)
        check.fail("topology", "implausible core count " + std::to_string(cores) +
                                   " (groups x cores_per_group): more than " +
                                   std::to_string(kMaxCores));

    for (std::size_t i = 0; i < format::kThroughputKeys.size(); ++i)
        check.positive("compute.throughput_per_cycle." + std::string(format::kThroughputKeys[i]),
                       target.throughput.perCycle[i], kMinThroughputPerCycle,
                       kMaxThroughputPerCycle, "throughput");
    if (target.throughput.depthwiseConvPerCycle != 0) // optional: 0 means "as conv"
        check.positive("compute.throughput_per_cycle." + std::string(format::kDepthwiseConvKey),
                       target.throughput.depthwiseConvPerCycle, kMinThroughputPerCycle,
                       kMaxThroughputPerCycle, "throughput");
    if (target.throughput.pointwiseConvPerCycle != 0) // optional: 0 means "as conv"
        check.positive("compute.throughput_per_cycle." + std::string(format::kPointwiseConvKey),
                       target.throughput.pointwiseConvPerCycle, kMinThroughputPerCycle,
                       kMaxThroughputPerCycle, "throughput");
    if (target.throughput.transcendentalPerCycle != 0) // optional: 0 means "as elementwise"
        check.positive("compute.throughput_per_cycle." + std::string(format::kTranscendentalKey),
                       target.throughput.transcendentalPerCycle, kMinThroughputPerCycle,
                       kMaxThroughputPerCycle, "throughput");
    if (target.throughput.layerNormPerCycle != 0) // optional: 0 means "as normalization"
        check.positive("compute.throughput_per_cycle." + std::string(format::kLayerNormKey),
                       target.throughput.layerNormPerCycle, kMinThroughputPerCycle,
                       kMaxThroughputPerCycle, "throughput");
    for (const auto& [key, figure] :
         {std::pair{format::kResizeKey, target.throughput.resizePerCycle},
          std::pair{format::kGatherKey, target.throughput.gatherPerCycle},
          std::pair{format::kGlobalPoolKey, target.throughput.globalPoolPerCycle},
          std::pair{format::kCopyKey, target.throughput.copyPerCycle},
          std::pair{format::kGroupedConvKey, target.throughput.groupedConvPerCycle},
          std::pair{format::kSigmoidKey, target.throughput.sigmoidPerCycle}})
        if (figure != 0) // optional: 0 means "as the op's class"
            check.positive("compute.throughput_per_cycle." + std::string(key), figure,
                           kMinThroughputPerCycle, kMaxThroughputPerCycle, "throughput");
    check.count("compute." + std::string(format::kChannelGranuleKey), target.channelGranule,
                kMaxChannelGranule, "channel granule");
    // A core alone at most 4x faster or slower than with the others busy.
    check.positive("compute." + std::string(format::kOneCoreWorkFactorKey),
                   target.oneCoreWorkFactor, 0.25, 4.0, "work factor");
    // A lateness that grows at most as fast as the block and at least as its fourth root.
    const std::string skew = "compute." + std::string(format::kJoinSkewKey);
    check.nonNegative(skew + ".coefficient", target.joinSkew.coefficient, 1e3, "coefficient");
    check.positive(skew + ".exponent", target.joinSkew.exponent, 0.25, 1.0, "exponent");
    const Overheads& o = target.overheads;
    check.nonNegative("compute.overhead_cycles.compute", o.computeCycles, kMaxOverheadCycles,
                      "overhead");
    check.nonNegative("compute.overhead_cycles.transfer_issue", o.transferIssueCycles,
                      kMaxOverheadCycles, "overhead");
    check.nonNegative("compute.overhead_cycles.wait", o.waitCycles, kMaxOverheadCycles, "overhead");
    check.nonNegative("compute.overhead_cycles.barrier", o.barrierCycles, kMaxOverheadCycles,
                      "overhead");
    // Optional per-unit costs (0 when absent): thousands of cycles per output element are a typo.
    check.nonNegative("compute.overhead_cycles." + std::string(format::kConvOutputKey), o.convOutputCycles,
                      kMaxUnitCycles, "per-output cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kDepthwiseRowKey), o.depthwiseRowCycles,
                      kMaxUnitCycles, "per-row cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kGroupedConvElementKey),
                      o.groupedConvElementCycles, kMaxUnitCycles, "per-element cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kReductionOutputKey),
                      o.reductionOutputCycles, kMaxUnitCycles, "per-output cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kWeightByteKey),
                      o.weightByteCycles, kMaxUnitCycles, "per-byte cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kMatMulProductKey),
                      o.matmulProductCycles, kMaxUnitCycles, "per-product cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kResizeRowKey),
                      o.resizeRowCycles, kMaxUnitCycles, "per-row cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kCopyRunKey),
                      o.copyRunCycles, kMaxUnitCycles, "per-run cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kConvFarWeightByteKey),
                      o.convFarWeightByteCycles, kMaxUnitCycles, "per-byte cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kMatmulFarWeightByteKey),
                      o.matmulFarWeightByteCycles, kMaxUnitCycles, "per-byte cost");
    check.nonNegative("compute.overhead_cycles." + std::string(format::kReorderFarByteKey),
                      o.reorderFarByteCycles, kMaxUnitCycles, "per-byte cost");
}

void checkMemories(const Target& target, Checker& check) {
    if (target.memories.empty()) check.fail("memories", "at least one memory space is required");
    check.uniqueNames(target.memories, "memories", "memory");
    for (std::size_t i = 0; i < target.memories.size(); ++i) {
        const std::string field = indexed("memories", i) + ".capacity_bytes";
        const std::uint64_t capacity = target.memories[i].capacityBytes;
        if (capacity == 0)
            check.fail(field, "must be positive, got 0");
        else if (capacity > kMaxCapacityBytes)
            check.fail(field, "implausible capacity " + std::to_string(capacity) +
                                  " bytes: more than 1 PiB");
    }

    if (!target.workingMemory.empty()) {
        const std::string field = "compute.working_memory";
        if (const MemorySpace* memory = target.findMemory(target.workingMemory)) {
            if (memory->kind != MemoryKind::Sram)
                check.fail(field, "working memory '" + memory->name +
                                      "' must be an SRAM, it is a " +
                                      std::string(memoryKindName(memory->kind)));
            if (memory->scope != Scope::Core)
                check.fail(field, "working memory '" + memory->name +
                                      "' must be core-scoped, it is " +
                                      std::string(scopeName(memory->scope)) + "-scoped");
        } else {
            check.fail(field, "unknown memory space '" + target.workingMemory +
                                  "' (memories: " + nameList(target.memories) + ")");
        }
    }
    if (!target.mainMemory.empty()) {
        const std::string field = "compute.main_memory";
        if (const MemorySpace* memory = target.findMemory(target.mainMemory)) {
            if (memory->kind != MemoryKind::Dram)
                check.fail(field, "main memory '" + memory->name + "' must be a DRAM, it is an " +
                                      std::string(memoryKindName(memory->kind)));
        } else {
            check.fail(field, "unknown memory space '" + target.mainMemory +
                                  "' (memories: " + nameList(target.memories) + ")");
        }
    }
}

void checkResources(const Target& target, Checker& check) {
    check.uniqueNames(target.resources, "resources", "resource");
    for (std::size_t i = 0; i < target.resources.size(); ++i)
        check.positive(indexed("resources", i) + ".bytes_per_cycle",
                       target.resources[i].bytesPerCycle, kMinBytesPerCycle, kMaxBytesPerCycle,
                       "bandwidth");
}

enum class End { From, To };

void checkPathEnd(const Target& target, const TransferPath& path, End end, const std::string& field,
                  Checker& check) {
    const std::string& memoryName = end == End::From ? path.source : path.destination;
    if (memoryName.empty()) return check.fail(field, "must not be empty");
    const MemorySpace* memory = target.findMemory(memoryName);
    if (!memory)
        return check.fail(field, "unknown memory space '" + memoryName +
                                     "' (memories: " + nameList(target.memories) + ")");
    // A broadcast writes every destination instance; a chip-scoped space has only one.
    if (path.broadcast && end == End::To && memory->scope == Scope::Chip)
        check.fail(field, "a broadcast path writes every instance of its destination, but '" +
                              memoryName + "' is chip-scoped (one instance)");
}

// A ramp (Ramp): none (both 0), or some bytes at a rate no faster than the bandwidth it ramps
// up to (a ramp faster than the bandwidth would make a transfer's time convex in its size).
// A spill likewise: none, or bytes past the ramp's end at a rate no faster than the bandwidth.
void checkSpill(const std::string& field, const Ramp& ramp, double bandwidth, Checker& check) {
    if (ramp.spillBytes == 0 && ramp.spillBytesPerCycle == 0)
        return;
    check.positive(field + "spill_bytes", ramp.spillBytes, 1, 1e15, "spill");
    check.positive(field + "spill_bytes_per_cycle", ramp.spillBytesPerCycle, kMinBytesPerCycle,
                   kMaxBytesPerCycle, "spill rate");
    if (ramp.spillBytesPerCycle > bandwidth && bandwidth > 0)
        check.fail(field + "spill_bytes_per_cycle",
                   "a spill must be no faster than the bandwidth before it (" +
                       formatNumber(bandwidth) + "), got " + formatNumber(ramp.spillBytesPerCycle));
    if (ramp.spillBytes < ramp.bytes)
        check.fail(field + "spill_bytes", "a spill starts after the ramp ends (" +
                                              formatNumber(ramp.bytes) + " bytes), got " +
                                              formatNumber(ramp.spillBytes));
}

void checkRamp(const std::string& field, const Ramp& ramp, double bandwidth, Checker& check) {
    checkSpill(field, ramp, bandwidth, check);
    if (ramp.bytes == 0 && ramp.bytesPerCycle == 0)
        return;
    check.nonNegative(field + "ramp_bytes", ramp.bytes, 1e15, "ramp");
    check.positive(field + "ramp_bytes_per_cycle", ramp.bytesPerCycle, kMinBytesPerCycle,
                   kMaxBytesPerCycle, "ramp rate");
    if (ramp.bytesPerCycle > bandwidth && bandwidth > 0)
        check.fail(field + "ramp_bytes_per_cycle",
                   "a ramp must be no faster than the bandwidth it ramps up to (" +
                       formatNumber(bandwidth) + "), got " + formatNumber(ramp.bytesPerCycle));
}

// Rates by reuse distance (cached reads and stores only): positive distances in ascending order,
// each rate positive and no faster than the kind's bandwidth (lines farther back never move
// faster than those in the core's private cache).
void checkReuseDistance(const std::string& field, std::string_view key, const ReadFigures& figures,
                        Checker& check) {
    const std::vector<DistanceRate>& points = figures.byReuseDistance;
    if (points.empty())
        return;
    if (key != "cached_reads" && key != "cached_writes")
        return check.fail(field, "only cached_reads and cached_writes have rates by distance");
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string at = field + "[" + std::to_string(i) + "]";
        check.positive(at + ".bytes", points[i].bytes, 1, 1e15, "distance");
        check.positive(at + ".bytes_per_cycle", points[i].bytesPerCycle, kMinBytesPerCycle,
                       kMaxBytesPerCycle, "rate");
        if (i > 0 && !(points[i].bytes > points[i - 1].bytes))
            check.fail(at + ".bytes", "distances must ascend, got " +
                                          formatNumber(points[i].bytes) + " after " +
                                          formatNumber(points[i - 1].bytes));
        if (points[i].bytesPerCycle > figures.bytesPerCycle * (1 + 1e-9))
            check.fail(at + ".bytes_per_cycle",
                       "no faster than the bandwidth within the core's cache (" +
                           formatNumber(figures.bytesPerCycle) + "), got " +
                           formatNumber(points[i].bytesPerCycle));
    }
}

void checkPaths(const Target& target, Checker& check) {
    if (target.paths.empty()) check.fail("paths", "at least one transfer path is required");
    check.uniqueNames(target.paths, "paths", "path");
    for (std::size_t i = 0; i < target.paths.size(); ++i) {
        const TransferPath& path = target.paths[i];
        const std::string base = indexed("paths", i);
        checkPathEnd(target, path, End::From, base + ".from", check);
        checkPathEnd(target, path, End::To, base + ".to", check);
        check.positive(base + ".bytes_per_cycle", path.bytesPerCycle, kMinBytesPerCycle,
                       kMaxBytesPerCycle, "bandwidth");
        check.nonNegative(base + ".latency_cycles", path.latencyCycles, kMaxLatencyCycles,
                          "latency");
        check.nonNegative(base + ".row_overhead_cycles", path.rowOverheadCycles, kMaxLatencyCycles,
                          "row overhead");
        if (path.residentRowOverheadCycles)
            check.nonNegative(base + ".resident_row_overhead_cycles",
                              *path.residentRowOverheadCycles, kMaxLatencyCycles, "row overhead");
        checkRamp(base + ".", path.ramp, path.bytesPerCycle, check);
        for (const auto& [other, factor] : path.concurrentSlowdown) {
            const std::string field = base + ".concurrent_slowdown." + other;
            if (!target.findPath(other))
                check.fail(field, "names no path '" + other + "'");
            else if (!(factor >= 1 && factor <= 100))
                check.fail(field, "must be between 1 and 100, got " + formatNumber(factor));
        }
        for (const auto& [key, figures] : {std::pair{"weight_reads", &path.weightReads},
                                           std::pair{"cached_reads", &path.cachedReads},
                                           std::pair{"cached_writes", &path.cachedWrites},
                                           std::pair{"shared_reads", &path.sharedReads},
                                           std::pair{"warm_weight_reads", &path.warmWeightReads}}) {
            if (!*figures) continue;
            const std::string field = base + "." + key;
            check.positive(field + ".bytes_per_cycle", (*figures)->bytesPerCycle, kMinBytesPerCycle,
                           kMaxBytesPerCycle, "bandwidth");
            check.nonNegative(field + ".latency_cycles", (*figures)->latencyCycles, kMaxLatencyCycles, "latency");
            checkRamp(field + ".", (*figures)->ramp, (*figures)->bytesPerCycle, check);
            checkReuseDistance(field + ".by_reuse_distance", key, **figures, check);
            // Weights and stored activations live in main memory: only a path reading it reads
            // them, and only one writing it writes into cached lines of it.
            const bool writes = std::string_view(key) == "cached_writes";
            const std::string& end = writes ? path.destination : path.source;
            const MemorySpace* memory = target.findMemory(end);
            if (memory && memory->kind != MemoryKind::Dram)
                check.fail(field, std::string("only a path ") + (writes ? "writing" : "reading") +
                                      " main memory has " + key + ", but '" + end + "' is " +
                                      std::string(memoryKindName(memory->kind)));
        }
        // Warm weight figures stand in for weight_reads on models whose weights fit: both needed.
        if (path.warmWeightReads) {
            check.positive(base + ".warm_weight_bytes", path.warmWeightBytes, 1, 1e18,
                           "weight bytes");
            if (!path.weightReads)
                check.fail(base + ".warm_weight_reads",
                           "needs weight_reads (the figures of weights that do not fit)");
        }
        check.count(base + ".max_in_flight", path.maxInFlight, kMaxInFlight, "transfers in flight");
        for (std::size_t j = 0; j < path.resources.size(); ++j) {
            const std::string& name = path.resources[j];
            const std::string field = base + "." + indexed("resources", j);
            if (!target.findResource(name))
                check.fail(field, "unknown resource '" + name +
                                      "' (resources: " + nameList(target.resources) + ")");
            for (std::size_t k = 0; k < j; ++k)
                if (path.resources[k] == name)
                    check.fail(field, "resource '" + name + "' listed twice");
        }
    }
    // Tiles are loaded into working memory and results stored back: both directions must exist.
    // Only between a valid pair: a bad working or main memory is already reported.
    const MemorySpace* main = target.findMemory(target.mainMemory);
    const MemorySpace* working = target.findMemory(target.workingMemory);
    if (main && working && main->kind == MemoryKind::Dram && working->kind == MemoryKind::Sram &&
        working->scope == Scope::Core) {
        if (!target.pathBetween(main->name, working->name))
            check.fail("paths", "no non-broadcast path from main memory '" + main->name +
                                    "' to working memory '" + working->name + "'");
        if (!target.pathBetween(working->name, main->name))
            check.fail("paths", "no non-broadcast path from working memory '" + working->name +
                                    "' to main memory '" + main->name + "'");
    }
}

} // namespace

std::vector<Diagnostic> validateTarget(const Target& target, const std::string& file) {
    std::vector<Diagnostic> out;
    Checker check(file, out);
    if (target.name.empty()) check.fail("name", "must not be empty");
    checkMachine(target, check);
    checkMemories(target, check);
    checkResources(target, check);
    checkPaths(target, check);
    return out;
}

} // namespace strata::target

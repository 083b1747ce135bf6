#include "target/TargetWriter.h"

#include "target/TargetFormat.h"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

namespace strata::target {

namespace {

// ordered_json keeps the keys in the order docs/TARGETS.md describes them.
using Json = nlohmann::ordered_json;

// Whole figures are written without ".0" (8, not 8.0); both read back as the same double.
Json number(double value) {
    constexpr double kExactIntegers = 9007199254740992.0; // 2^53
    if (std::trunc(value) == value && std::fabs(value) < kExactIntegers)
        return static_cast<std::int64_t>(value);
    return value;
}

void putNote(Json& object, const std::string& note) {
    if (!note.empty()) object["note"] = note;
}

Json memoryJson(const MemorySpace& memory) {
    Json out;
    out["name"] = memory.name;
    out["kind"] = std::string(memoryKindName(memory.kind));
    out["scope"] = std::string(scopeName(memory.scope));
    out["capacity_bytes"] = memory.capacityBytes;
    putNote(out, memory.note);
    return out;
}

Json resourceJson(const SharedResource& resource) {
    Json out;
    out["name"] = resource.name;
    out["scope"] = std::string(scopeName(resource.scope));
    out["bytes_per_cycle"] = number(resource.bytesPerCycle);
    putNote(out, resource.note);
    return out;
}

void putRamp(Json& out, const Ramp& ramp) {
    if (ramp.bytes != 0 || ramp.bytesPerCycle != 0) {
        out["ramp_bytes"] = number(ramp.bytes);
        out["ramp_bytes_per_cycle"] = number(ramp.bytesPerCycle);
    }
    if (ramp.spillBytes != 0 || ramp.spillBytesPerCycle != 0) {
        out["spill_bytes"] = number(ramp.spillBytes);
        out["spill_bytes_per_cycle"] = number(ramp.spillBytesPerCycle);
    }
}

Json pathJson(const TransferPath& path) {
    Json out;
    out["name"] = path.name;
    out["from"] = path.source;
    out["to"] = path.destination;
    out["bytes_per_cycle"] = number(path.bytesPerCycle);
    out["latency_cycles"] = number(path.latencyCycles);
    out["max_in_flight"] = path.maxInFlight;
    out["resources"] = path.resources;
    if (path.broadcast) out["broadcast"] = true;
    if (path.issuerBusy) out["issuer_busy"] = true;
    if (path.rowOverheadCycles != 0) out["row_overhead_cycles"] = number(path.rowOverheadCycles);
    for (const auto& [key, figures] : {std::pair{"weight_reads", &path.weightReads},
                                       std::pair{"cached_reads", &path.cachedReads},
                                       std::pair{"cached_writes", &path.cachedWrites},
                                       std::pair{"shared_reads", &path.sharedReads},
                                       std::pair{"warm_weight_reads", &path.warmWeightReads}})
        if (*figures) {
            out[key] = {{"bytes_per_cycle", number((*figures)->bytesPerCycle)},
                        {"latency_cycles", number((*figures)->latencyCycles)}};
            putRamp(out[key], (*figures)->ramp);
            for (const DistanceRate& point : (*figures)->byReuseDistance)
                out[key]["by_reuse_distance"].push_back(
                    {{"bytes", number(point.bytes)},
                     {"bytes_per_cycle", number(point.bytesPerCycle)}});
        }
    if (path.warmWeightReads)
        out["warm_weight_bytes"] = number(path.warmWeightBytes);
    if (path.residentRowOverheadCycles)
        out["resident_row_overhead_cycles"] = number(*path.residentRowOverheadCycles);
    putRamp(out, path.ramp);
    for (const auto& [other, factor] : path.concurrentSlowdown)
        out["concurrent_slowdown"].push_back({{"other", other}, {"factor", number(factor)}});
    putNote(out, path.note);
    return out;
}

} // namespace

std::string targetToJson(const Target& target) {
    Json out;
    out[std::string(format::kVersionKey)] = kTargetSchemaVersion;
    out["name"] = target.name;
    out["description"] = target.description;
    out["clock_hz"] = number(target.clockHz);
    out["topology"] = {{"groups", target.groups}, {"cores_per_group", target.coresPerGroup}};

    Json throughput = Json::object();
    for (std::size_t i = 0; i < format::kThroughputKeys.size(); ++i)
        throughput[std::string(format::kThroughputKeys[i])] = number(target.throughput.perCycle[i]);
    if (target.throughput.depthwiseConvPerCycle != 0)
        throughput[std::string(format::kDepthwiseConvKey)] = number(target.throughput.depthwiseConvPerCycle);
    if (target.throughput.pointwiseConvPerCycle != 0)
        throughput[std::string(format::kPointwiseConvKey)] = number(target.throughput.pointwiseConvPerCycle);
    if (target.throughput.transcendentalPerCycle != 0)
        throughput[std::string(format::kTranscendentalKey)] = number(target.throughput.transcendentalPerCycle);
    if (target.throughput.sigmoidPerCycle != 0)
        throughput[std::string(format::kSigmoidKey)] = number(target.throughput.sigmoidPerCycle);
    if (target.throughput.layerNormPerCycle != 0)
        throughput[std::string(format::kLayerNormKey)] = number(target.throughput.layerNormPerCycle);
    if (target.throughput.resizePerCycle != 0)
        throughput[std::string(format::kResizeKey)] = number(target.throughput.resizePerCycle);
    if (target.throughput.gatherPerCycle != 0)
        throughput[std::string(format::kGatherKey)] = number(target.throughput.gatherPerCycle);
    if (target.throughput.globalPoolPerCycle != 0)
        throughput[std::string(format::kGlobalPoolKey)] =
            number(target.throughput.globalPoolPerCycle);
    if (target.throughput.copyPerCycle != 0)
        throughput[std::string(format::kCopyKey)] = number(target.throughput.copyPerCycle);
    if (target.throughput.groupedConvPerCycle != 0)
        throughput[std::string(format::kGroupedConvKey)] =
            number(target.throughput.groupedConvPerCycle);
    const Overheads& o = target.overheads;
    out["compute"] = {
        {"working_memory", target.workingMemory},
        {"main_memory", target.mainMemory},
        {"throughput_per_cycle", throughput},
        {"overhead_cycles",
         {{"compute", number(o.computeCycles)},
          {"transfer_issue", number(o.transferIssueCycles)},
          {"wait", number(o.waitCycles)},
          {"barrier", number(o.barrierCycles)}}},
    };
    if (target.channelGranule != 1)
        out["compute"][std::string(format::kChannelGranuleKey)] = target.channelGranule;
    if (target.privateCacheBytes != 0)
        out["compute"][std::string(format::kPrivateCacheBytesKey)] = target.privateCacheBytes;
    if (target.oneCoreWorkFactor != 1)
        out["compute"][std::string(format::kOneCoreWorkFactorKey)] =
            number(target.oneCoreWorkFactor);
    if (target.joinSkew.coefficient > 0)
        out["compute"][std::string(format::kJoinSkewKey)] = {
            {"coefficient", number(target.joinSkew.coefficient)},
            {"exponent", number(target.joinSkew.exponent)}};
    // The per-unit costs only when set, so targets without them are written as before.
    if (o.convOutputCycles != 0) out["compute"]["overhead_cycles"][std::string(format::kConvOutputKey)] = number(o.convOutputCycles);
    if (o.depthwiseRowCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kDepthwiseRowKey)] = number(o.depthwiseRowCycles);
    if (o.groupedConvElementCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kGroupedConvElementKey)] =
            number(o.groupedConvElementCycles);
    if (o.reductionOutputCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kReductionOutputKey)] =
            number(o.reductionOutputCycles);
    if (o.weightByteCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kWeightByteKey)] =
            number(o.weightByteCycles);
    if (o.matmulProductCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kMatMulProductKey)] =
            number(o.matmulProductCycles);
    if (o.resizeRowCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kResizeRowKey)] =
            number(o.resizeRowCycles);
    if (o.copyRunCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kCopyRunKey)] =
            number(o.copyRunCycles);
    if (o.convFarWeightByteCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kConvFarWeightByteKey)] =
            number(o.convFarWeightByteCycles);
    if (o.matmulFarWeightByteCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kMatmulFarWeightByteKey)] =
            number(o.matmulFarWeightByteCycles);
    if (o.reorderFarByteCycles != 0)
        out["compute"]["overhead_cycles"][std::string(format::kReorderFarByteKey)] =
            number(o.reorderFarByteCycles);

    out["memories"] = Json::array();
    for (const MemorySpace& memory : target.memories) out["memories"].push_back(memoryJson(memory));
    out["resources"] = Json::array();
    for (const SharedResource& resource : target.resources)
        out["resources"].push_back(resourceJson(resource));
    out["paths"] = Json::array();
    for (const TransferPath& path : target.paths) out["paths"].push_back(pathJson(path));
    out["calibrated"] = target.calibrated;
    if (const auto& stamp = target.calibration) {
        Json& j = out[std::string(format::kCalibrationKey)];
        j = {{"cpu_model", stamp->cpuModel},
             {"cores", stamp->cores},
             {"calibrated_at", stamp->calibratedAt}};
        for (const auto& [cores, ns] : stamp->speedChecks)
            j["speed_checks"].push_back({{"cores", cores}, {"ns", ns}});
    }
    return out.dump(2) + "\n";
}

} // namespace strata::target

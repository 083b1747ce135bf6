#include "target/TargetLoader.h"

#include "base/JsonReader.h"
#include "target/CalibratedHost.h"
#include "target/HostProbe.h"
#include "target/TargetFormat.h"
#include "target/TargetValidation.h"

#include <algorithm>
#include <filesystem>
#include <limits>

namespace strata::target {

namespace {

using json::FieldReader;

// Counts are stored as int; anything outside int's range is reported here, the plausible range
// by validateTarget.
int readInt(FieldReader& reader, std::string_view key, int fallback) {
    auto value = reader.integer(key);
    if (!value) return fallback;
    if (*value < std::numeric_limits<int>::min() || *value > std::numeric_limits<int>::max()) {
        reader.error(key, "out of range, got " + std::to_string(*value));
        return fallback;
    }
    return static_cast<int>(*value);
}

template <class T, class Parse>
T readEnum(FieldReader& reader, std::string_view key, T fallback, Parse parse,
           std::string_view choices) {
    auto text = reader.string(key);
    if (!text) return fallback;
    if (auto value = parse(*text)) return *value;
    reader.error(key, "expected " + std::string(choices) + ", got \"" + *text + "\"");
    return fallback;
}

void readTopology(FieldReader topology, Target& target) {
    target.groups = readInt(topology, "groups", 0);
    target.coresPerGroup = readInt(topology, "cores_per_group", 0);
    topology.warnUnknownKeys({"groups", "cores_per_group"});
}

CalibrationStamp readCalibrationStamp(FieldReader stamp) {
    CalibrationStamp out;
    out.cpuModel = stamp.stringOr("cpu_model", "");
    out.cores = static_cast<int>(stamp.integerOr("cores", 0));
    out.calibratedAt = stamp.stringOr("calibrated_at", "");
    if (const nlohmann::json* checks = stamp.optionalArray("speed_checks"))
        for (std::size_t i = 0; i < checks->size(); ++i) {
            FieldReader check = stamp.element(*checks, i, "speed_checks");
            const std::optional<std::int64_t> cores = check.integer("cores");
            const std::optional<double> ns = check.number("ns");
            check.warnUnknownKeys({"cores", "ns"});
            if (!cores || !ns)
                continue;
            if (*cores < 1 || *cores > 4096)
                check.error("cores",
                            "expected a core count from 1 to 4096, got " + std::to_string(*cores));
            else if (*ns <= 0)
                check.error("ns", "expected a time above 0 ns");
            else
                out.speedChecks[static_cast<int>(*cores)] = *ns;
        }
    stamp.warnUnknownKeys({"cpu_model", "cores", "calibrated_at", "speed_checks"});
    return out;
}

void readCompute(FieldReader compute, Target& target) {
    target.workingMemory = compute.string("working_memory").value_or("");
    target.mainMemory = compute.string("main_memory").value_or("");

    FieldReader throughput = compute.object("throughput_per_cycle");
    for (std::size_t i = 0; i < format::kThroughputKeys.size(); ++i)
        target.throughput.perCycle[i] = throughput.number(format::kThroughputKeys[i]).value_or(0);
    // Optional; present, they must be real figures (0 is how the struct says "absent").
    const std::pair<std::string_view, double*> optional[] = {
        {format::kDepthwiseConvKey, &target.throughput.depthwiseConvPerCycle},
        {format::kPointwiseConvKey, &target.throughput.pointwiseConvPerCycle},
        {format::kTranscendentalKey, &target.throughput.transcendentalPerCycle},
        {format::kLayerNormKey, &target.throughput.layerNormPerCycle},
        {format::kResizeKey, &target.throughput.resizePerCycle},
        {format::kGatherKey, &target.throughput.gatherPerCycle},
        {format::kGlobalPoolKey, &target.throughput.globalPoolPerCycle},
        {format::kCopyKey, &target.throughput.copyPerCycle},
        {format::kGroupedConvKey, &target.throughput.groupedConvPerCycle},
        {format::kSigmoidKey, &target.throughput.sigmoidPerCycle}};
    for (const auto& [key, field] : optional)
        if (auto figure = throughput.has(key) ? throughput.number(key) : std::nullopt) {
            if (*figure > 0)
                *field = *figure;
            else
                throughput.error(key,
                                 key == format::kTranscendentalKey
                                     ? "must be positive (omit it to use elementwise's figure)"
                                 : key == format::kLayerNormKey
                                     ? "must be positive (omit it to use normalization's figure)"
                                 : key == format::kResizeKey
                                     ? "must be positive (omit it to use elementwise's figure)"
                                 : key == format::kGatherKey || key == format::kCopyKey
                                     ? "must be positive (omit it to use data_movement's figure)"
                                 : key == format::kGlobalPoolKey
                                     ? "must be positive (omit it to use pooling's figure)"
                                 : key == format::kSigmoidKey
                                     ? "must be positive (omit it to use transcendental's figure)"
                                     : "must be positive (omit it to use conv's figure)");
        }
    throughput.warnUnknownKeys(format::kThroughputKeysWithOptional);

    FieldReader overheads = compute.object("overhead_cycles");
    target.overheads.computeCycles = overheads.number("compute").value_or(0);
    target.overheads.transferIssueCycles = overheads.number("transfer_issue").value_or(0);
    target.overheads.waitCycles = overheads.number("wait").value_or(0);
    target.overheads.barrierCycles = overheads.number("barrier").value_or(0);
    // Optional per-unit costs; validation rejects negative ones.
    if (overheads.has(format::kConvOutputKey))
        target.overheads.convOutputCycles = overheads.number(format::kConvOutputKey).value_or(0);
    if (overheads.has(format::kDepthwiseRowKey))
        target.overheads.depthwiseRowCycles = overheads.number(format::kDepthwiseRowKey).value_or(0);
    if (overheads.has(format::kGroupedConvElementKey))
        target.overheads.groupedConvElementCycles =
            overheads.number(format::kGroupedConvElementKey).value_or(0);
    if (overheads.has(format::kReductionOutputKey))
        target.overheads.reductionOutputCycles =
            overheads.number(format::kReductionOutputKey).value_or(0);
    if (overheads.has(format::kWeightByteKey))
        target.overheads.weightByteCycles = overheads.number(format::kWeightByteKey).value_or(0);
    if (overheads.has(format::kMatMulProductKey))
        target.overheads.matmulProductCycles =
            overheads.number(format::kMatMulProductKey).value_or(0);
    if (overheads.has(format::kResizeRowKey))
        target.overheads.resizeRowCycles = overheads.number(format::kResizeRowKey).value_or(0);
    target.overheads.copyRunCycles = overheads.numberOr(format::kCopyRunKey, 0);
    target.overheads.convFarWeightByteCycles = overheads.numberOr(format::kConvFarWeightByteKey, 0);
    target.overheads.matmulFarWeightByteCycles =
        overheads.numberOr(format::kMatmulFarWeightByteKey, 0);
    target.overheads.reorderFarByteCycles = overheads.numberOr(format::kReorderFarByteKey, 0);
    // A calibration of the kernel grouped convolutions ran on before: its grouped_conv figure
    // misprices today's (a one-op model of groups of 8 channels: 78% fast).
    if (overheads.has(format::kRetiredGroupedConvRowKey))
        overheads.warning(format::kRetiredGroupedConvRowKey,
                          "made by an earlier Strata, whose grouped convolutions ran another "
                          "kernel: ignored, and their figure is stale; calibrate again "
                          "(strata-cli calibrate, or Build > Calibrate Host in the app)");
    overheads.warnUnknownKeys({"compute", "transfer_issue", "wait", "barrier",
                               format::kConvOutputKey, format::kDepthwiseRowKey,
                               format::kGroupedConvElementKey, format::kRetiredGroupedConvRowKey,
                               format::kReductionOutputKey, format::kWeightByteKey,
                               format::kMatMulProductKey, format::kResizeRowKey,
                               format::kCopyRunKey, format::kConvFarWeightByteKey,
                               format::kMatmulFarWeightByteKey, format::kReorderFarByteKey});

    if (compute.has(format::kChannelGranuleKey)) // optional; validation bounds it
        target.channelGranule = readInt(compute, format::kChannelGranuleKey, 1);
    target.privateCacheBytes =
        std::uint64_t(std::max(0.0, compute.numberOr(format::kPrivateCacheBytesKey, 0)));
    target.oneCoreWorkFactor = compute.numberOr(format::kOneCoreWorkFactorKey, 1);
    if (compute.has(format::kJoinSkewKey)) { // optional; validation bounds it
        FieldReader skew = compute.object(format::kJoinSkewKey);
        target.joinSkew.coefficient = skew.number("coefficient").value_or(0);
        target.joinSkew.exponent = skew.number("exponent").value_or(1);
        skew.warnUnknownKeys({"coefficient", "exponent"});
    }
    compute.warnUnknownKeys({"working_memory", "main_memory", "throughput_per_cycle",
                             "overhead_cycles", format::kChannelGranuleKey,
                             format::kPrivateCacheBytesKey, format::kOneCoreWorkFactorKey,
                             format::kJoinSkewKey});
}

void readMemories(FieldReader& root, Target& target) {
    const nlohmann::json* items = root.array("memories");
    if (!items) return;
    for (std::size_t i = 0; i < items->size(); ++i) {
        FieldReader item = root.element(*items, i, "memories");
        MemorySpace memory;
        memory.name = item.string("name").value_or("");
        memory.kind = readEnum(item, "kind", MemoryKind::Dram, format::parseMemoryKind,
                               "\"dram\" or \"sram\"");
        memory.scope = readEnum(item, "scope", Scope::Chip, format::parseScope,
                                "\"chip\", \"group\" or \"core\"");
        if (auto capacity = item.integer("capacity_bytes")) {
            if (*capacity <= 0)
                item.error("capacity_bytes", "must be positive, got " + std::to_string(*capacity));
            else
                memory.capacityBytes = static_cast<std::uint64_t>(*capacity);
        }
        memory.note = item.stringOr("note", "");
        item.warnUnknownKeys({"name", "kind", "scope", "capacity_bytes", "note"});
        target.memories.push_back(std::move(memory));
    }
}

void readResources(FieldReader& root, Target& target) {
    const nlohmann::json* items = root.array("resources");
    if (!items) return;
    for (std::size_t i = 0; i < items->size(); ++i) {
        FieldReader item = root.element(*items, i, "resources");
        SharedResource resource;
        resource.name = item.string("name").value_or("");
        resource.scope = readEnum(item, "scope", Scope::Chip, format::parseScope,
                                  "\"chip\", \"group\" or \"core\"");
        resource.bytesPerCycle = item.number("bytes_per_cycle").value_or(0);
        resource.note = item.stringOr("note", "");
        item.warnUnknownKeys({"name", "scope", "bytes_per_cycle", "note"});
        target.resources.push_back(std::move(resource));
    }
}

// A path's or read kind's optional ramp ("ramp_bytes", "ramp_bytes_per_cycle"; absent: none)
// and spill ("spill_bytes", "spill_bytes_per_cycle"; absent: none).
Ramp readRamp(FieldReader& item) {
    return {item.numberOr("ramp_bytes", 0), item.numberOr("ramp_bytes_per_cycle", 0),
            item.numberOr("spill_bytes", 0), item.numberOr("spill_bytes_per_cycle", 0)};
}

// A path's optional figures for one kind of read ({"bytes_per_cycle", "latency_cycles"}).
std::optional<ReadFigures> readFigures(FieldReader& path, std::string_view key) {
    if (!path.has(key)) return std::nullopt;
    FieldReader figures = path.object(key);
    if (!figures.isObject()) return std::nullopt;
    ReadFigures out{figures.number("bytes_per_cycle").value_or(0),
                    figures.number("latency_cycles").value_or(0),
                    readRamp(figures),
                    {}};
    if (const nlohmann::json* points =
            figures.has("by_reuse_distance") ? figures.array("by_reuse_distance") : nullptr)
        for (std::size_t i = 0; i < points->size(); ++i) {
            FieldReader point = figures.element(*points, i, "by_reuse_distance");
            out.byReuseDistance.push_back(
                {point.number("bytes").value_or(0), point.number("bytes_per_cycle").value_or(0)});
            point.warnUnknownKeys({"bytes", "bytes_per_cycle"});
        }
    figures.warnUnknownKeys({"bytes_per_cycle", "latency_cycles", "ramp_bytes",
                             "ramp_bytes_per_cycle", "spill_bytes", "spill_bytes_per_cycle",
                             "by_reuse_distance"});
    return out;
}

void readPaths(FieldReader& root, Target& target) {
    const nlohmann::json* items = root.array("paths");
    if (!items) return;
    for (std::size_t i = 0; i < items->size(); ++i) {
        FieldReader item = root.element(*items, i, "paths");
        TransferPath path;
        path.name = item.string("name").value_or("");
        path.source = item.string("from").value_or("");
        path.destination = item.string("to").value_or("");
        path.bytesPerCycle = item.number("bytes_per_cycle").value_or(0);
        path.latencyCycles = item.number("latency_cycles").value_or(0);
        path.maxInFlight = readInt(item, "max_in_flight", 1);
        if (const nlohmann::json* names = item.array("resources")) {
            for (std::size_t j = 0; j < names->size(); ++j) {
                const nlohmann::json& name = (*names)[j];
                if (name.is_string())
                    path.resources.push_back(name.get<std::string>());
                else
                    item.error("resources[" + std::to_string(j) + "]",
                               "expected a string, got " + json::describeType(name));
            }
        }
        path.broadcast = item.booleanOr("broadcast", false);
        path.issuerBusy = item.booleanOr("issuer_busy", false);
        path.rowOverheadCycles = item.numberOr("row_overhead_cycles", 0);
        path.weightReads = readFigures(item, "weight_reads");
        path.cachedReads = readFigures(item, "cached_reads");
        path.cachedWrites = readFigures(item, "cached_writes");
        path.sharedReads = readFigures(item, "shared_reads");
        path.warmWeightReads = readFigures(item, "warm_weight_reads");
        path.warmWeightBytes = item.numberOr("warm_weight_bytes", 0);
        if (item.has("resident_row_overhead_cycles"))
            path.residentRowOverheadCycles = item.numberOr("resident_row_overhead_cycles", 0);
        path.ramp = readRamp(item);
        if (const nlohmann::json* slowdowns = item.optionalArray("concurrent_slowdown"))
            for (std::size_t j = 0; j < slowdowns->size(); ++j) {
                FieldReader slowdown = item.element(*slowdowns, j, "concurrent_slowdown");
                path.concurrentSlowdown[slowdown.string("other").value_or("")] =
                    slowdown.number("factor").value_or(1);
                slowdown.warnUnknownKeys({"other", "factor"});
            }
        path.note = item.stringOr("note", "");
        item.warnUnknownKeys({"name",
                              "from",
                              "to",
                              "bytes_per_cycle",
                              "latency_cycles",
                              "max_in_flight",
                              "resources",
                              "broadcast",
                              "issuer_busy",
                              "row_overhead_cycles",
                              "weight_reads",
                              "cached_reads",
                              "cached_writes",
                              "shared_reads",
                              "warm_weight_reads",
                              "warm_weight_bytes",
                              "resident_row_overhead_cycles",
                              "ramp_bytes",
                              "ramp_bytes_per_cycle",
                              "spill_bytes",
                              "spill_bytes_per_cycle",
                              "concurrent_slowdown",
                              "note"});
        target.paths.push_back(std::move(path));
    }
}

// True when `field` is `reported` or lies inside it ("paths[1].from" inside "paths[1]").
bool within(const std::string& field, const std::string& reported) {
    if (!field.starts_with(reported)) return false;
    return field.size() == reported.size() || field[reported.size()] == '.' ||
           field[reported.size()] == '[';
}

// Adds validateTarget's errors, except those about a field the reader already reported: a
// missing clock_hz reads as 0, and "must be positive" would only repeat "missing".
void addSemanticErrors(const Target& target, const std::string& file,
                       std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> reported;
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error) reported.push_back(d.where.field);
    for (Diagnostic& d : validateTarget(target, file)) {
        const bool repeat =
            std::any_of(reported.begin(), reported.end(),
                        [&](const std::string& r) { return within(d.where.field, r); });
        if (!repeat) diagnostics.push_back(std::move(d));
    }
}

Expected<Target> targetFromDocument(const nlohmann::json& document, const std::string& file,
                                    std::vector<Diagnostic>* warnings) {
    std::vector<Diagnostic> diagnostics;
    FieldReader root(document, "", file, diagnostics);
    if (!root.isObject()) return diagnostics;

    // The version comes first: a newer schema may mean anything by the other fields.
    const std::string versionKey(format::kVersionKey);
    if (!root.has(versionKey)) {
        root.error(versionKey, "missing required field (a Strata target file starts with \"" +
                                   versionKey + "\": " + std::to_string(kTargetSchemaVersion) +
                                   ")");
        return diagnostics;
    }
    auto version = root.integer(versionKey);
    if (!version) return diagnostics;
    if (*version != kTargetSchemaVersion) {
        const std::string versions = "target schema " + std::to_string(*version) +
                                     ", this build reads " + std::to_string(kTargetSchemaVersion);
        root.error(versionKey, *version > kTargetSchemaVersion
                                   ? "written by a newer Strata (" + versions + ")"
                                   : "unsupported version (" + versions + ")");
        return diagnostics;
    }

    Target target;
    target.schemaVersion = static_cast<int>(*version);
    target.source = file;
    target.name = root.string("name").value_or("");
    target.description = root.stringOr("description", "");
    target.clockHz = root.number("clock_hz").value_or(0);
    readTopology(root.object("topology"), target);
    readCompute(root.object("compute"), target);
    readMemories(root, target);
    readResources(root, target);
    readPaths(root, target);
    target.calibrated = root.booleanOr("calibrated", false);
    if (root.has(format::kCalibrationKey))
        target.calibration = readCalibrationStamp(root.object(format::kCalibrationKey));
    const bool detectHost = root.booleanOr("detect_host", false);
    root.warnUnknownKeys({format::kVersionKey, "name", "description", "clock_hz", "topology",
                          "compute", "memories", "resources", "paths", "calibrated",
                          format::kCalibrationKey, "detect_host"});

    addSemanticErrors(target, file, diagnostics);
    if (hasErrors(diagnostics)) return diagnostics;

    if (detectHost) applyHostFacts(target, probeHost());
    if (warnings) warnings->insert(warnings->end(), diagnostics.begin(), diagnostics.end());
    return target;
}

} // namespace

Expected<Target> parseTarget(std::string_view json, const std::string& displayName,
                             std::vector<Diagnostic>* warnings) {
    auto document = json::parseDocument(json, displayName);
    if (!document) return document.takeDiagnostics();
    return targetFromDocument(*document, displayName, warnings);
}

Expected<Target> loadTargetFile(const std::string& path, std::vector<Diagnostic>* warnings) {
    auto document = json::readDocument(path);
    if (!document) return document.takeDiagnostics();
    return targetFromDocument(*document, path, warnings);
}

Expected<Target> resolveTarget(std::string_view presetOrPath, const ResolveOptions& options,
                               std::vector<Diagnostic>* warnings) {
    const std::string name(presetOrPath);
    if (name == "host-uncalibrated") return parseTarget(*presetJson("host"), "preset:host", warnings);
    if (name == "host" && !options.calibratedHostFile.empty()) {
        HostCalibration calibration =
            inspectHostCalibration(options.calibratedHostFile, probeHost());
        switch (calibration.state) {
        case CalibrationState::Current:
        case CalibrationState::Stale:
            if (warnings) {
                warnings->insert(warnings->end(), calibration.problems.begin(),
                                 calibration.problems.end());
                if (calibration.state == CalibrationState::Stale)
                    warnings->push_back(warning("the calibrated host target " + calibration.file +
                                                    " may be stale: " + calibration.why +
                                                    "; run `strata-cli calibrate` to refresh it",
                                                {.file = calibration.file}));
            }
            return std::move(*calibration.target);
        case CalibrationState::OtherMachine:
            // Another machine's figures would mislead more than the placeholders do.
            if (warnings)
                warnings->push_back(warning(
                    "the calibrated host target " + calibration.file + " is not used: it was " +
                        calibration.why + "; run `strata-cli calibrate` to measure this machine",
                    {.file = calibration.file}));
            break;
        case CalibrationState::Unreadable: {
            // A broken calibrated file is an error, not a silent fall back to the preset: the user
            // asked for this machine's figures and would get placeholders without knowing.
            std::vector<Diagnostic> diagnostics = std::move(calibration.problems);
            diagnostics.push_back(
                error("the calibrated host target " + calibration.file +
                          " is not valid (above): run `strata-cli calibrate` again, delete it, "
                          "or use --target host-uncalibrated",
                      {.file = calibration.file}));
            return diagnostics;
        }
        case CalibrationState::Missing:
            break;
        }
    }
    if (auto text = presetJson(name)) return parseTarget(*text, "preset:" + name, warnings);

    // Not a preset: a path, if it looks like one or names an existing file.
    const bool looksLikePath = name.ends_with(".json") || name.find('/') != std::string::npos;
    if (looksLikePath || std::filesystem::exists(name)) return loadTargetFile(name, warnings);

    std::string presets;
    for (const std::string& preset : presetNames())
        presets += (presets.empty() ? "" : ", ") + preset;
    return error("unknown target '" + name + "': not a preset (" + presets +
                 ") and not a .json file path");
}

} // namespace strata::target

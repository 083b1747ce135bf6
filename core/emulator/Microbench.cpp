#include "emulator/Microbench.h"

#include "emulator/Contention.h"
#include "emulator/Emulator.h"

#include <algorithm>

namespace strata::emulator {
namespace {

// `bytes` bytes at `offset`, the k-th of consecutive buffers wrapped inside the memory.
compiler::Access access(const target::MemorySpace* memory, const std::string& name, std::size_t k, std::uint64_t bytes) {
    compiler::Access a;
    a.memory = name;
    const std::uint64_t room = memory && memory->capacityBytes > bytes ? memory->capacityBytes - bytes + 1 : 1;
    a.offset = (k * bytes) % room;
    a.shape = {static_cast<std::int64_t>(bytes)};
    return a;
}

// Bytes per second of `program` as emulated; 0 when it does not run.
Expected<double> throughputGBps(const compiler::Program& program, const target::Target& target) {
    static const ir::Graph kNoModel;
    EmulateOptions options;
    options.counters = false;
    auto trace = emulate(program, target, kNoModel, options);
    if (!trace) return trace.takeDiagnostics();
    const std::int64_t ps = trace->endPs();
    return ps > 0 ? double(program.transferredBytes()) * 1e3 / double(ps) : 0.0; // bytes/ns = GB/s
}

// What `inFlight` transfers of one kind reach together once latency no longer matters.
double limitGBps(const target::Target& target, const target::TransferPath& path, int inFlight) {
    Contention contention(target);
    BandwidthSharing sharing(contention.capacities());
    const auto index = static_cast<std::size_t>(&path - target.paths.data());
    const int concurrent = std::min(inFlight, path.maxInFlight);
    std::vector<FlowDemand> flows(static_cast<std::size_t>(concurrent), FlowDemand{path.bytesPerCycle, contention.route(index, 0)});
    std::vector<double> rates(flows.size());
    sharing.share(flows, rates);
    double total = 0;
    for (double r : rates) total += r;
    return total * target.clockHz / 1e9;
}

} // namespace

Expected<compiler::Program> microbenchProgram(const target::Target& target, const std::vector<std::string>& kinds,
                                              std::uint64_t bytes, int inFlight, int transfersPerKind) {
    std::vector<Diagnostic> problems;
    std::vector<const target::TransferPath*> paths;
    std::string available;
    for (const auto& p : target.paths) available += (available.empty() ? "" : ", ") + p.name;
    if (kinds.empty()) problems.push_back(error("no transfer kinds given (paths of '" + target.name + "': " + available + ")"));
    for (const std::string& kind : kinds) {
        const target::TransferPath* path = target.findPath(kind);
        if (!path) {
            problems.push_back(error("target '" + target.name + "' has no path '" + kind + "' (" + available + ")"));
            continue;
        }
        const target::MemorySpace* to = target.findMemory(path->destination);
        if (to && bytes > to->capacityBytes)
            problems.push_back(error("a " + std::to_string(bytes) + "-byte transfer does not fit '" + to->name + "' (" +
                                     std::to_string(to->capacityBytes) + " bytes)"));
        paths.push_back(path);
    }
    if (bytes == 0) problems.push_back(error("transfer size must be at least one byte"));
    if (inFlight < 1) problems.push_back(error("in-flight count must be at least 1"));
    if (transfersPerKind < 1) problems.push_back(error("transfers per kind must be at least 1"));
    if (!problems.empty()) return problems;

    compiler::Program program;
    program.modelName = "microbench";
    program.targetName = target.name;
    program.mainMemory = target.mainMemory;
    program.workingMemory = target.workingMemory;
    program.cores = target.cores();
    program.streams.assign(static_cast<std::size_t>(program.cores), {});
    program.blocks.push_back({0, {}, 1, {0}, 0});
    auto append = [&](decltype(compiler::Instruction::body) body, std::int64_t tile) {
        compiler::Instruction in;
        in.id = static_cast<compiler::InstrId>(program.instructions.size());
        in.core = 0;
        in.from = {0, {}, tile};
        in.body = std::move(body);
        program.streams[0].push_back(in.id);
        program.instructions.push_back(std::move(in));
    };
    const std::size_t total = paths.size() * static_cast<std::size_t>(transfersPerKind);
    for (std::size_t k = 0; k < total; ++k) {
        const int tag = static_cast<int>(k % static_cast<std::size_t>(inFlight));
        if (k >= static_cast<std::size_t>(inFlight)) append(compiler::Wait{tag}, static_cast<std::int64_t>(k));
        const target::TransferPath& path = *paths[k % paths.size()];
        compiler::Transfer t;
        t.path = path.name;
        t.source = access(target.findMemory(path.source), path.source, k, bytes);
        t.destination = access(target.findMemory(path.destination), path.destination, k, bytes);
        t.bytes = bytes;
        t.tag = tag;
        append(std::move(t), static_cast<std::int64_t>(k));
    }
    for (std::size_t k = total > static_cast<std::size_t>(inFlight) ? total - static_cast<std::size_t>(inFlight) : 0; k < total; ++k)
        append(compiler::Wait{static_cast<int>(k % static_cast<std::size_t>(inFlight))}, static_cast<std::int64_t>(k));
    return program;
}

Expected<MicrobenchResult> runMicrobench(const target::Target& target, const MicrobenchSpec& spec) {
    if (spec.sizes.empty()) return error("no transfer sizes given");
    if (spec.wordBytes == 0) return error("word size must be at least one byte");
    MicrobenchResult result;
    result.kinds = spec.kinds;
    for (const std::uint64_t words : spec.sizes) {
        MicrobenchRow row;
        row.words = words;
        row.bytes = words * spec.wordBytes;
        auto mixed = microbenchProgram(target, spec.kinds, row.bytes, spec.inFlight, spec.transfersPerKind);
        if (!mixed) return mixed.takeDiagnostics();
        auto mixedRate = throughputGBps(*mixed, target);
        if (!mixedRate) return mixedRate.takeDiagnostics();
        row.mixedGBps = *mixedRate;
        double inverseSum = 0;
        for (const std::string& kind : spec.kinds) {
            auto alone = microbenchProgram(target, {kind}, row.bytes, spec.inFlight, spec.transfersPerKind);
            if (!alone) return alone.takeDiagnostics();
            auto rate = throughputGBps(*alone, target);
            if (!rate) return rate.takeDiagnostics();
            row.aloneGBps.push_back(*rate);
            inverseSum += *rate > 0 ? 1 / *rate : 0;
        }
        row.idealGBps = inverseSum > 0 ? double(spec.kinds.size()) / inverseSum : 0;
        result.rows.push_back(std::move(row));
    }
    for (const std::string& kind : spec.kinds)
        result.limitGBps.push_back(limitGBps(target, *target.findPath(kind), spec.inFlight));
    return result;
}

} // namespace strata::emulator

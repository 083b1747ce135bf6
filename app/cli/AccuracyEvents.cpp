#include "AccuracyEvents.h"

#include "emulator/RecentRegions.h"
#include "emulator/TransferRows.h"
#include "trace/ConcurrentTransfers.h"

#include <algorithm>
#include <deque>
#include <fmt/format.h>
#include <numeric>

namespace strata::cli {
namespace {

// What a load read last: written by no transfer the trace shows (a model input, a weight),
// by the loading core, by another core, or partly by each.
enum class Writer { None, Own, Other, Both };

const char* writerName(Writer w) {
    switch (w) {
    case Writer::Own:
        return "own";
    case Writer::Other:
        return "other";
    case Writer::Both:
        return "both";
    case Writer::None:
        break;
    }
    return "none";
}

struct Stored {
    std::uint32_t value;
    const tiling::Region* region;
    std::uint64_t movedAfter; // the storing core's moved bytes just after the store
    std::uint32_t core;
};

// The bytes of a core's working memory: how much later traffic a core moves before what it
// moved earlier is taken as gone from its caches.
std::uint64_t workingCapacity(const target::Target& target) {
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    return working ? working->capacityBytes : 0;
}

// Calls `f(id, transfer, core)` for the program's transfers in the order the emulator started
// them (events naming no transfer of the program skipped).
template <class F>
void forEachTransferByStart(const compiler::Program& program, const trace::Trace& emulated, F f) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < emulated.events.size(); ++i)
        if (emulated.events[i].kind == trace::EventKind::Transfer)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return emulated.events[a].startPs < emulated.events[b].startPs;
    });
    const auto cores = static_cast<std::uint32_t>(std::max(program.cores, 1));
    for (std::size_t i : order) {
        const std::uint32_t id = emulated.events[i].id;
        if (id >= program.instructions.size())
            continue;
        const auto* t = std::get_if<compiler::Transfer>(&program.instructions[id].body);
        const auto core = static_cast<std::uint32_t>(program.instructions[id].core);
        if (t && core < cores)
            f(id, *t, core);
    }
}

// Per transfer instruction: who wrote what it reads while that core's later traffic stayed
// under its working memory (the emulator's reuse-distance rule, CachedReads.h, over all cores
// in the emulated order of starts).
std::vector<Writer> writersOf(const compiler::Program& program, const target::Target& target,
                              const trace::Trace& emulated) {
    std::vector<Writer> out(program.instructions.size(), Writer::None);
    const std::uint64_t capacity = workingCapacity(target);
    std::vector<std::uint64_t> moved(std::size_t(std::max(program.cores, 1)), 0);
    std::deque<Stored> recent;
    forEachTransferByStart(
        program, emulated,
        [&](std::uint32_t id, const compiler::Transfer& transfer, std::uint32_t core) {
            const compiler::Transfer* t = &transfer;
            std::erase_if(recent,
                          [&](const Stored& s) { return moved[s.core] - s.movedAfter > capacity; });
            if (t->source.memory == target.mainMemory && t->value.valid()) {
                std::int64_t own = 0, other = 0;
                for (const Stored& s : recent)
                    if (s.value == t->value.index)
                        (s.core == core ? own : other) +=
                            emulator::overlapElements(*s.region, t->region);
                out[id] = own > 0 && other > 0 ? Writer::Both
                          : own > 0            ? Writer::Own
                          : other > 0          ? Writer::Other
                                               : Writer::None;
            }
            moved[core] += t->bytes;
            if (t->destination.memory == target.mainMemory && t->value.valid())
                recent.push_back({t->value.index, &t->region, moved[core], core});
        });
    return out;
}

struct Touched {
    std::uint64_t begin, end, movedAfter;
    std::uint32_t core;
};

// Per transfer: the shares of its main-memory span that its own core, and other cores, moved
// (loaded or stored) while that core's later traffic stayed under `capacity` bytes: by address,
// so a store into lines the core just read counts, whatever tensor they held.
std::vector<std::pair<double, double>> residentShares(const compiler::Program& program,
                                                      const target::Target& target,
                                                      const trace::Trace& emulated,
                                                      std::uint64_t capacity) {
    std::vector<std::pair<double, double>> out(program.instructions.size(), {0, 0});
    std::vector<std::uint64_t> moved(std::size_t(std::max(program.cores, 1)), 0);
    std::deque<Touched> recent;
    forEachTransferByStart(
        program, emulated,
        [&](std::uint32_t id, const compiler::Transfer& transfer, std::uint32_t core) {
            const compiler::Transfer* t = &transfer;
            const bool load = t->source.memory == target.mainMemory;
            if (!load && t->destination.memory != target.mainMemory)
                return;
            std::erase_if(
                recent, [&](const Touched& s) { return moved[s.core] - s.movedAfter > capacity; });
            const auto [begin, end] = emulator::transferSpan(*t, load);
            double own = 0, other = 0;
            for (const Touched& s : recent) {
                const std::uint64_t lo = std::max(begin, s.begin), hi = std::min(end, s.end);
                if (hi > lo)
                    (s.core == core ? own : other) += double(hi - lo);
            }
            if (end > begin)
                out[id] = {std::min(1.0, own / double(end - begin)),
                           std::min(1.0, other / double(end - begin))};
            moved[core] += t->bytes;
            recent.push_back({begin, end, moved[core], core});
        });
    return out;
}

// Per transfer: how many bytes its own core moved since it last moved (loaded or stored) any of
// its main-memory span, while that stayed under `capacity` bytes of its traffic; -1 when it did
// not (the reuse distance the emulator prices cached transfers by past the private cache,
// CachedReads.h, here by address in the emulated order).
std::vector<double> reuseDistances(const compiler::Program& program, const target::Target& target,
                                   const trace::Trace& emulated, std::uint64_t capacity) {
    std::vector<double> out(program.instructions.size(), -1);
    std::vector<std::uint64_t> moved(std::size_t(std::max(program.cores, 1)), 0);
    std::deque<Touched> recent;
    forEachTransferByStart(
        program, emulated, [&](std::uint32_t id, const compiler::Transfer& t, std::uint32_t core) {
            const bool load = t.source.memory == target.mainMemory;
            if (!load && t.destination.memory != target.mainMemory)
                return;
            std::erase_if(
                recent, [&](const Touched& s) { return moved[s.core] - s.movedAfter > capacity; });
            const auto [begin, end] = emulator::transferSpan(t, load);
            for (const Touched& s : recent)
                if (s.core == core && std::min(end, s.end) > std::max(begin, s.begin))
                    out[id] = double(moved[core] - s.movedAfter); // the latest overlap wins
            moved[core] += t.bytes;
            recent.push_back({begin, end, moved[core], core});
        });
    return out;
}

// A compute's op, MACs, bytes read (activations, weights: constants), bytes written, output tile
// ("1x64x14x14") and the layout of its first input (0 row-major, -1 channels-last, b blocked).
// A convolution's window, and whether it adds to its output (an input-channel slice). Empty
// columns for a transfer, or without the graph.
void writeComputeFeatures(std::ostream& out, const compiler::Instruction& in,
                          const ir::Graph* graph) {
    const auto* c = std::get_if<compiler::Compute>(&in.body);
    if (!c || !graph) {
        out << ",,,,,,,,,";
        return;
    }
    auto bytesOf = [&](const compiler::Operand& o) {
        return o.value.valid() && o.value.index < graph->values.size()
                   ? tiling::regionBytes(o.region, graph->value(o.value).dtype)
                   : std::uint64_t(0);
    };
    std::uint64_t activation = 0, weight = 0, output = 0;
    for (const compiler::Operand& o : c->inputs)
        (o.value.valid() && o.value.index < graph->values.size() && graph->value(o.value).isConstant
             ? weight
             : activation) += bytesOf(o);
    for (const compiler::Operand& o : c->outputs)
        output += bytesOf(o);
    std::string tile;
    if (!c->outputs.empty())
        for (const tiling::Interval& d : c->outputs.front().region)
            tile += (tile.empty() ? "" : "x") + std::to_string(d.size());
    const int layout = c->inputs.empty() ? 0 : c->inputs.front().channelBlock;
    // A convolution's window: kernel, strides, dilations and groups ("3x3/s1/d2/g1").
    std::string window;
    if (in.from.op.valid() && in.from.op.index < graph->ops.size())
        if (const ir::Op& op = graph->op(in.from.op); op.type == "Conv") {
            auto joined = [](const std::vector<std::int64_t>& v) {
                std::string s;
                for (std::int64_t x : v)
                    s += (s.empty() ? "" : "x") + std::to_string(x);
                return s.empty() ? std::string("1") : s;
            };
            window = fmt::format("{}/s{}/d{}/g{}", joined(op.attrInts("kernel_shape")),
                                 joined(op.attrInts("strides")), joined(op.attrInts("dilations")),
                                 op.attrInt("group", 1));
        }
    out << fmt::format("{},{:.0f},{},{},{},{},{},{},{},{}", c->opType, c->flops / 2, activation,
                       weight, output, tile, layout, c->epilogue.size(), window,
                       c->accumulate ? 1 : 0);
}

} // namespace

void writeEventsHeader(std::ostream& out) {
    out << "model,strategy,mp,id,core,block,kind,label,bytes,rows,run_bytes,lines,writer,"
           "concurrent,resident_own,resident_other,emulated_ns,measured_ns,op_type,macs,"
           "activation_bytes,weight_bytes,output_bytes,output_tile,layout,epilogue,window,"
           "accumulate,private_own,private_other,reuse_bytes\n";
}

void writeEventsCsv(std::ostream& out, const EventsContext& context,
                    const compiler::Program& program, const target::Target& target,
                    const trace::Trace& emulated, const trace::AccuracyReport& report,
                    const trace::EventLabels& labels) {
    const std::vector<Writer> writers = writersOf(program, target, emulated);
    const std::vector<double> concurrent = trace::concurrentTransferShares(emulated);
    const std::uint64_t working = workingCapacity(target);
    const std::vector<std::pair<double, double>> resident =
        residentShares(program, target, emulated, working);
    const std::vector<double> reuse = reuseDistances(program, target, emulated, working);
    // The same within a private cache's worth of traffic: lines likely still in that core's L2.
    const std::vector<std::pair<double, double>> cached = residentShares(
        program, target, emulated, target.privateCacheBytes ? target.privateCacheBytes : working);
    for (const trace::EventAccuracy& a : report.events) {
        const trace::Event& e = emulated.events[a.event];
        if (e.id >= program.instructions.size())
            continue;
        const compiler::Instruction& in = program.instructions[e.id];
        const std::string label = e.id < labels.size() ? labels[e.id] : std::string();
        std::string kind = "compute";
        std::uint64_t rows = 0, runBytes = 0, lines = 0;
        if (const auto* t = std::get_if<compiler::Transfer>(&in.body)) {
            const bool load = t->source.memory == target.mainMemory;
            kind = load ? "load" : "store";
            rows = emulator::transferRows(*t);
            runBytes = rows > 0 ? t->bytes / rows : 0;
            lines = emulator::transferLines(*t, load);
        }
        out << fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},",
            context.model, context.strategy, context.mp, e.id, e.core, e.block, kind, label,
            e.bytes, rows, runBytes, lines, kind == "load" ? writerName(writers[e.id]) : "",
            concurrent[a.event], resident[e.id].first, resident[e.id].second, a.emulatedPs / 1e3,
            a.measuredPs / 1e3);
        writeComputeFeatures(out, in, context.graph);
        if (kind == "compute")
            out << ",,,\n";
        else
            out << fmt::format(",{:.3f},{:.3f},{:.0f}\n", cached[e.id].first, cached[e.id].second,
                               reuse[e.id]);
    }
}

} // namespace strata::cli

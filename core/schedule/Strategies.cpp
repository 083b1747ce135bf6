#include "schedule/Strategies.h"

#include "schedule/BlockOrder.h"
#include "tiling/BlockTiling.h"

#include <algorithm>
#include <optional>

namespace strata::schedule {

std::string_view strategyName(Strategy strategy) {
    switch (strategy) {
    case Strategy::PerOp: return "per-op";
    case Strategy::Rules: return "rules";
    case Strategy::FuseMax: return "fuse-max";
    }
    return "per-op";
}

std::optional<Strategy> parseStrategy(std::string_view name) {
    for (Strategy s : {Strategy::PerOp, Strategy::Rules, Strategy::FuseMax})
        if (strategyName(s) == name) return s;
    return std::nullopt;
}

namespace {

using OpGroup = std::vector<ir::OpId>;

struct Knobs {
    int mp = 1;
    int buffering = 2;
    std::uint64_t capacity = 0;
    std::int64_t channelGranule = 1; // the target's output channels per vector
};

// The block's buffering: the requested one if some tile fits with it, else single buffering.
int fittingBuffering(const tiling::BlockTiler& tiler, const Knobs& knobs) {
    if (knobs.buffering > 1 && tiler.chooseGrid(knobs.capacity, knobs.buffering, knobs.mp)) return knobs.buffering;
    return 1;
}

std::vector<OpGroup> perOp(const ir::Graph& graph) {
    std::vector<OpGroup> groups;
    for (std::uint32_t i = 0; i < graph.ops.size(); ++i) groups.push_back({ir::OpId(i)});
    return groups;
}

bool isEpilogue(const ir::Op& op) {
    return op.opClass == ir::OpClass::Elementwise || op.type == "BatchNormalization";
}

// The Mul of x * sigmoid(x) when `x`'s only readers are a Sigmoid read by that Mul alone and
// the Mul (compiler/EpilogueRule.h's SiLU, which the compiler fuses as one epilogue step).
std::optional<ir::OpId> siluMul(const ir::Graph& graph, ir::ValueId x) {
    const ir::Value& v = graph.value(x);
    if (v.consumers.size() != 2)
        return std::nullopt;
    for (int k = 0; k < 2; ++k) {
        const ir::Op& sigmoid = graph.op(v.consumers[static_cast<std::size_t>(k)]);
        const ir::OpId mul = v.consumers[static_cast<std::size_t>(1 - k)];
        if (sigmoid.type != "Sigmoid" || sigmoid.outputs.size() != 1 || graph.op(mul).type != "Mul")
            continue;
        const ir::Value& s = graph.value(sigmoid.outputs[0]);
        const bool graphOutput = std::find(graph.outputs.begin(), graph.outputs.end(),
                                           sigmoid.outputs[0]) != graph.outputs.end();
        if (s.consumers.size() == 1 && s.consumers[0] == mul && !graphOutput)
            return mul;
    }
    return std::nullopt;
}

std::vector<OpGroup> rules(const ir::Graph& graph) {
    std::vector<bool> taken(graph.ops.size(), false);
    std::vector<OpGroup> groups;
    for (std::uint32_t i = 0; i < graph.ops.size(); ++i) {
        if (taken[i]) continue;
        OpGroup group{ir::OpId(i)};
        taken[i] = true;
        const ir::Op& head = graph.ops[i];
        if (head.opClass == ir::OpClass::Conv || head.opClass == ir::OpClass::MatMul) {
            // Follow the chain while each result feeds exactly one epilogue op and nothing else.
            ir::OpId current(i);
            for (;;) {
                const ir::Op& op = graph.op(current);
                if (op.outputs.size() != 1 || !op.outputs[0].valid()) break;
                ir::ValueId out = op.outputs[0];
                const ir::Value& v = graph.value(out);
                bool isGraphOutput = std::find(graph.outputs.begin(), graph.outputs.end(), out) != graph.outputs.end();
                if (isGraphOutput)
                    break;
                // SiLU, x * sigmoid(x): the Sigmoid and the Mul both join (one fused step).
                if (auto mul = siluMul(graph, out); mul && !taken[mul->index]) {
                    const ir::OpId sigmoid =
                        v.consumers[0] == *mul ? v.consumers[1] : v.consumers[0];
                    if (taken[sigmoid.index])
                        break;
                    group.insert(group.end(), {sigmoid, *mul});
                    taken[sigmoid.index] = taken[mul->index] = true;
                    current = *mul;
                    continue;
                }
                if (v.consumers.size() != 1)
                    break;
                ir::OpId next = v.consumers[0];
                if (taken[next.index] || !isEpilogue(graph.op(next))) break;
                group.push_back(next);
                taken[next.index] = true;
                current = next;
            }
        }
        groups.push_back(std::move(group));
    }
    return groups;
}

// Cost of a candidate block with its best grid; nullopt when no tile fits.
std::optional<tiling::BlockCost> bestCost(const ir::Graph& graph, const OpGroup& ops, const Knobs& knobs) {
    tiling::BlockTiler tiler(graph, ops, knobs.channelGranule);
    if (knobs.buffering > 1)
        if (auto cost = tiler.chooseAndEvaluate(knobs.capacity, knobs.buffering, knobs.mp)) return cost;
    return tiler.chooseAndEvaluate(knobs.capacity, 1, knobs.mp);
}

std::vector<OpGroup> fuseMax(const ir::Graph& graph, const Knobs& knobs, const StrategyOptions& options) {
    std::vector<OpGroup> groups;
    OpGroup current;
    std::uint64_t currentDram = 0;
    bool currentSliced = false; // computed in input-channel slices (tiling/BlockTiling.h)
    // DRAM traffic, and weights that tiles read again to recompute a whole op (an excite step's
    // matrix-vector product in every row tile: it costs its weights' bytes, not its FLOPs).
    auto dramOf = [](const tiling::BlockCost& c) {
        return c.dramReadBytes + c.dramWriteBytes + c.repeatedWeightBytes;
    };
    auto sliced = [](const std::optional<tiling::BlockCost>& c) { return c && c->grid.sliceChannels > 0; };
    auto partial = [](const std::optional<tiling::BlockCost>& c) { return c && c->partialVectors; };
    bool currentPartial = false; // its channels cut below whole vectors
    // Tiles of a grid; a fusion must leave as many as the cores while the block had that many.
    auto tiles = [](const std::optional<tiling::BlockCost>& c) {
        return c ? c->grid.tileCount() : std::int64_t{0};
    };
    std::int64_t currentTiles = 0;
    for (std::uint32_t i = 0; i < graph.ops.size(); ++i) {
        ir::OpId op(i);
        auto alone = bestCost(graph, {op}, knobs);
        std::uint64_t aloneDram = alone ? dramOf(*alone) : 0;
        if (!current.empty() && static_cast<int>(current.size()) < options.maxBlockOps && alone) {
            OpGroup candidate = current;
            candidate.push_back(op);
            auto cost = bestCost(graph, candidate, knobs);
            // A fusion that only fits in slices, or in tiles of partial vectors of channels, is
            // not taken where the blocks apart need none (DeepLabV3's ASPP branches fused ran
            // 1-channel tiles of 960-channel convolutions 3x slower than apart); nor one that
            // leaves a core idle: a squeeze-excite's pooled [1, 8, 1, 1] anchor fused into
            // RegNetY's stem block is one tile, and the other core waited 1.6 ms at its barrier.
            if (cost && cost->recomputeRatio() <= options.maxRecompute &&
                tiles(cost) >= std::min<std::int64_t>(knobs.mp, currentTiles) &&
                cost->elementRecomputeRatio() <= options.maxElementRecompute &&
                dramOf(*cost) <= currentDram + aloneDram &&
                (!sliced(cost) || currentSliced || sliced(alone)) &&
                (!partial(cost) || currentPartial || partial(alone))) {
                current = std::move(candidate);
                currentDram = dramOf(*cost);
                currentSliced = sliced(cost);
                currentPartial = partial(cost);
                currentTiles = tiles(cost);
                continue;
            }
        }
        if (!current.empty()) groups.push_back(std::move(current));
        current = {op};
        currentDram = aloneDram;
        currentSliced = sliced(alone);
        currentPartial = partial(alone);
        currentTiles = tiles(alone);
    }
    if (!current.empty()) groups.push_back(std::move(current));
    return groups;
}

} // namespace

Schedule makeSchedule(const ir::Graph& graph, const target::Target& target, Strategy strategy,
                      const StrategyOptions& options) {
    Knobs knobs;
    knobs.mp = options.mp > 0 ? std::min(options.mp, target.maxMp()) : target.maxMp();
    knobs.buffering = std::clamp(options.buffering, 1, 2);
    knobs.capacity = target.workingMemoryBytes();
    knobs.channelGranule = target.channelGranule;

    std::vector<OpGroup> groups;
    switch (strategy) {
    case Strategy::PerOp: groups = perOp(graph); break;
    case Strategy::Rules: groups = rules(graph); break;
    case Strategy::FuseMax: groups = fuseMax(graph, knobs, options); break;
    }

    Schedule schedule;
    schedule.modelName = graph.name;
    schedule.modelHash = graph.contentHash;
    schedule.targetName = target.name;
    schedule.strategy = std::string(strategyName(strategy));
    for (OpGroup& ops : groups) {
        std::sort(ops.begin(), ops.end());
        Block block;
        block.id = static_cast<int>(schedule.blocks.size());
        block.mp = knobs.mp;
        block.buffering =
            fittingBuffering(tiling::BlockTiler(graph, ops, knobs.channelGranule), knobs);
        block.ops = std::move(ops);
        schedule.blocks.push_back(std::move(block));
    }
    orderBlocks(schedule, graph); // the groups are convex, so an order always exists
    // Ids follow the execution order of a fresh schedule.
    for (std::size_t b = 0; b < schedule.blocks.size(); ++b) schedule.blocks[b].id = static_cast<int>(b);
    return schedule;
}

} // namespace strata::schedule

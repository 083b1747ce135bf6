#pragma once
// Starting schedules. Each yields blocks in a valid order with knobs set; the user edits from
// there.
//  - per-op:   one op per block.
//  - rules:    a Conv/MatMul/Gemm with its elementwise and batch-norm epilogue (the chain of
//              single-consumer elementwise ops after it), as TensorRT's fusion rules do; every
//              other op alone.
//  - fuse-max: Paleozoic's "fuse all, max MP", made safe: grow each block along the graph's
//              topological order while its working set still fits the target's working memory,
//              halo recompute stays under a bound, and fusing does not add DRAM traffic.

#include "schedule/Schedule.h"
#include "target/Target.h"

#include <optional>
#include <string_view>

namespace strata::schedule {

enum class Strategy { PerOp, Rules, FuseMax };

std::string_view strategyName(Strategy strategy); // "per-op", "rules", "fuse-max"
std::optional<Strategy> parseStrategy(std::string_view name);

struct StrategyOptions {
    int mp = 0;                  // cores per block; 0 = the target's maximum
    int buffering = 2;           // blocks that do not fit double-buffered fall back to 1
    int maxBlockOps = 48;        // fuse-max: ops per block at most (bounds code size and search)
    double maxRecompute = 0.25;  // fuse-max: halo recompute at most this fraction of the FLOPs
    // fuse-max: and at most this fraction of the output elements (tiling::BlockCost::elements)
    double maxElementRecompute = 1.0;
};

Schedule makeSchedule(const ir::Graph& graph, const target::Target& target, Strategy strategy,
                      const StrategyOptions& options = {});

} // namespace strata::schedule

#pragma once
// A schedule: the model's ops partitioned into fusion blocks, each with its knobs (Paleozoic's
// fusion scheme and MP). Plain data, apart from the algorithm (Halide); validate() checks it
// against a graph and a target, the edits in Edits.h change it, ScheduleJson.h stores it.

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata::schedule {

inline constexpr int kScheduleSchemaVersion = 1;

// Output tile extents per dimension of the block's anchor output, or automatic (the largest
// tile that fits the working memory with at least mp tiles; see tiling/BlockTiling.h).
struct TileSpec {
    std::optional<ir::Shape> extents; // nullopt: auto
    bool isAuto() const { return !extents.has_value(); }
    bool operator==(const TileSpec&) const = default;
};

std::string tileToString(const TileSpec& tile); // "auto" or "1x16x8x8"

struct Block {
    int id = 0;                       // stable across edits elsewhere; shown as "B<id>"
    std::vector<ir::OpId> ops;        // sorted in the graph's topological order
    int mp = 1;                       // cores used
    TileSpec tile;
    int buffering = 1;                // 1 or 2 (double buffering)
    bool operator==(const Block&) const = default;
};

struct Schedule {
    std::string modelName;
    std::string modelHash;            // ir::Graph::contentHash of the model it was made for
    std::string targetName;
    std::string strategy;             // what made it: "per-op", "rules", "fuse-max", "edited", ...
    std::vector<Block> blocks;        // in execution order
    bool operator==(const Schedule&) const = default;

    const Block* findBlock(int id) const;
    Block* findBlock(int id);
    int nextBlockId() const;          // one above the largest id
};

std::string blockName(int id); // "B3"

// Which block holds each op (indexed by op), or -1. An op listed twice maps to its last block.
std::vector<int> blockIndexOfOps(const Schedule& schedule, const ir::Graph& graph);

} // namespace strata::schedule

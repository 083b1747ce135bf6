#pragma once
// Where each value of one tile sits in its working-memory slot: the tile's loads (block inputs
// that are not resident) and the values its ops compute, packed by lifetime, first fit, largest
// first — the same packing schedule analysis assumed (tiling/SlotPacking.h), except that room
// for fused epilogues may make a slot larger.

#include "ir/Graph.h"
#include "tiling/BlockTiling.h"

#include <cstdint>
#include <vector>

namespace strata::compiler {

struct TileLayout {
    struct Placed {
        std::uint32_t value = 0;   // value index
        std::uint64_t offset = 0;  // into the slot
        tiling::Region held;       // the part of the value the slot holds
    };
    std::vector<Placed> placed;    // sorted by value index
    std::uint64_t extent = 0;      // the slot bytes this tile needs

    const Placed* find(std::uint32_t value) const;
};

// `roomBytes`: how far the slot may grow so that fused epilogues (passes/FuseEpilogues.h) can
// write in place: an epilogue op's output is kept apart from what its compute reads where the
// slot stays within max(its plain extent, roomBytes).
TileLayout layoutTile(const ir::Graph& graph, const tiling::TilePlan& tile, const std::vector<ir::ValueId>& resident,
                      std::uint64_t roomBytes = 0);

} // namespace strata::compiler

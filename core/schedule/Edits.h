#pragma once
// Editing a schedule: pure functions returning a new schedule, or a diagnostic saying why the
// edit cannot be made (nothing changes then). The GUI's drags and undo stack call these, then
// validate() the result against the target to refuse edits that do not fit.
//
// Blocks are named by their stable id. Edits that change a block's ops reset its tile to auto
// (its anchor output may have changed) and keep the block order topological.

#include "base/Expected.h"
#include "schedule/Schedule.h"

namespace strata::schedule {

using EditResult = Expected<Schedule>;

// One block with the ops of both, in the place of the earlier one, with its knobs (mp and
// buffering the larger of the two). Refused when the union is not convex.
EditResult mergeBlocks(const Schedule& schedule, const ir::Graph& graph, int blockA, int blockB);

// `at` and the block's ops after it (in topological order) become a new block right after.
// Refused when `at` is not in the block or is its first op.
EditResult splitBlock(const Schedule& schedule, const ir::Graph& graph, int blockId, ir::OpId at);

// Moves `op` into `toBlock`, which must hold one of its producers or consumers. The source
// block disappears when `op` was its only op. Refused when either block would not be convex.
EditResult moveOp(const Schedule& schedule, const ir::Graph& graph, ir::OpId op, int toBlock);

EditResult setMp(const Schedule& schedule, int blockId, int mp);                   // mp >= 1
EditResult setTile(const Schedule& schedule, const ir::Graph& graph, int blockId, TileSpec tile);
EditResult setBuffering(const Schedule& schedule, int blockId, int buffering);     // 1 or 2

} // namespace strata::schedule

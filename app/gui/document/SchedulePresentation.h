#pragma once
// How a checked schedule revision shows outside its table: the partition and badges the graph
// draws, and the one-line total in the status bar. Pure functions of the snapshot.

#include "views/graph/BlockBadge.h"
#include "views/schedule/ScheduleSnapshot.h"

#include <QString>
#include <vector>

namespace strata::gui {

// The block id of every op (by OpId), -1 for ops in no block; empty without a schedule.
std::vector<int> partitionOf(const views::schedule::ScheduleSnapshot& snapshot);

// One badge per block: id, mp, DRAM bytes when analysed, and whether the check found an error
// in it.
std::vector<views::graph::BlockBadge> badgesOf(const views::schedule::ScheduleSnapshot& snapshot);

// "mncore2 · fuse-max · 6 blocks · DRAM 1.15 MiB · valid" (rich text: the verdict coloured).
QString totalsText(const views::schedule::ScheduleSnapshot& snapshot, const QString& targetKey,
                   const QString& strategy);

} // namespace strata::gui

#pragma once
// What the Inspector dock lists for a selected op or block, as plain rows of text grouped in
// sections: built from immutable core results (the graph, a schedule snapshot) so a test can
// read them without a widget.

#include "ir/Graph.h"

#include <QString>
#include <vector>

namespace strata::views::schedule {
class ScheduleTableModel;
}

namespace strata::views::inspector {

struct Property {
    QString name;
    QString value;
    QString toolTip; // the full text where the value may be elided; empty: the value itself
};

struct Section {
    QString title;
    std::vector<Property> properties;
};

// An op: its identity (name, type, domain, class), attributes, inputs and outputs with shape,
// dtype and size (constant inputs marked as weights) and its cost (FLOPs, bytes, parameters).
// `op` must be an op of `graph`.
std::vector<Section> opSections(const ir::Graph& graph, ir::OpId op);

// Block `blockId` of the schedule `model` shows: its knobs, tile and grid, SRAM peak against the
// working memory and its buffer slots, DRAM traffic, FLOPs, intensity and recompute, the
// predicted and measured times as the table shows them, and its ops (type and name). Empty when
// the model has no such block.
std::vector<Section> blockSections(const schedule::ScheduleTableModel& model, int blockId);

} // namespace strata::views::inspector

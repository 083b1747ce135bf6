#pragma once
// What a layout node says and how big it is. The layout reserves room for the label's text and
// the graph view paints the same lines in the same box, so both read sizes from one TextMetrics
// that the caller fills with its fonts' metrics (or leaves at fixed character widths: tests and
// the CLI have no fonts).

#include "layout/GraphLayout.h"
#include "layout/LayoutInput.h"

#include <functional>
#include <string>
#include <string_view>

namespace strata::layout {

enum class TextRole : std::uint8_t {
    Title, // the bold first line
    Body,  // the other lines
};

struct TextMetrics {
    // Width in points of one line of text. When unset, every character (UTF-8 code point) is
    // charWidth (Body) or titleCharWidth (Title) wide.
    std::function<double(std::string_view text, TextRole role)> measure;
    double charWidth = 6.6;
    double titleCharWidth = 7.4;
    double lineHeight = 15; // per line, both roles
    double paddingX = 10;   // left and right of the text
    double paddingY = 6;    // above and below the lines
    double minWidth = 96;   // boxes are at least this wide...
    double maxWidth = 240;  // ...and at most this wide: longer lines are elided when painted
    // Room a cluster (expanded block) keeps above its nodes for the block's badge.
    double clusterLabelWidth = 180;
    double clusterLabelHeight = 22;

    double textWidth(std::string_view text, TextRole role) const;
};

// Up to three lines; empty lines are not drawn and take no room.
//   op:       type (title), name, output shape(s)
//   block:    "Block 7" or "Ops 120–239" (chunks), op count, most common op types
//   input:    "input" (title), value name, shape
//   output:   "output" (title), value name, shape
struct NodeLabel {
    std::string title;
    std::string name;
    std::string detail;

    int lineCount() const;
};

// The label of `ref` as buildLayoutRequest sizes it. `ref` must name an op, value or block of
// `graph` and `input` (the caller's layout says which).
NodeLabel nodeLabel(const ir::Graph& graph, const LayoutInput& input, NodeRef ref);

struct Size {
    double width = 0;
    double height = 0;
};

// The box that fits `label`: lines stacked at metrics.lineHeight with the padding around them,
// width clamped to [minWidth, maxWidth], both rounded up to whole points.
Size nodeSize(const NodeLabel& label, const TextMetrics& metrics);

} // namespace strata::layout

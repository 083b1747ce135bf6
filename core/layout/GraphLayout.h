#pragma once
// The result of laying out a graph: plain data, no Graphviz and no Qt. Coordinates are in
// points (1/72 inch; one scene unit in the graph view at 100 %), with x to the right and y
// pointing down, origin at the top-left corner of `bounds`.

#include "base/Diagnostic.h"
#include "ir/Graph.h"

#include <compare>
#include <cstdint>
#include <optional>
#include <vector>

namespace strata::layout {

struct Point {
    double x = 0;
    double y = 0;
    friend bool operator==(const Point&, const Point&) = default;
};

// Axis-aligned box: (x, y) is the top-left corner.
struct Rect {
    double x = 0;
    double y = 0;
    double width = 0;
    double height = 0;

    double right() const { return x + width; }
    double bottom() const { return y + height; }
    Point centre() const { return {x + width / 2, y + height / 2}; }
    // Whether `p` lies in the box grown by `tolerance` on every side.
    bool contains(Point p, double tolerance = 0) const;
    // Whether `other` lies in the box grown by `tolerance` on every side.
    bool contains(const Rect& other, double tolerance = 0) const;
    // Whether the interiors overlap (touching edges do not count).
    bool overlaps(const Rect& other) const;
    friend bool operator==(const Rect&, const Rect&) = default;
};

// What a layout node stands for.
enum class NodeKind : std::uint8_t {
    Op,     // id: an ir::OpId index
    Block,  // id: a block index of the partition, collapsed into one node
    Input,  // id: an ir::ValueId index, a graph input
    Output, // id: an ir::ValueId index, a graph output
};

std::string_view nodeKindName(NodeKind kind);

struct NodeRef {
    NodeKind kind = NodeKind::Op;
    std::uint32_t id = 0;

    static NodeRef op(ir::OpId op) { return {NodeKind::Op, op.index}; }
    static NodeRef block(int block) { return {NodeKind::Block, static_cast<std::uint32_t>(block)}; }
    friend auto operator<=>(const NodeRef&, const NodeRef&) = default;
};

struct NodeBox {
    NodeRef ref;
    Rect box;
    int cluster = -1; // the expanded block whose cluster holds this node, or -1
};

struct EdgeRoute {
    std::uint32_t from = 0;       // index into GraphLayout::nodes (the tail)
    std::uint32_t to = 0;         // index into GraphLayout::nodes (the head: the arrow points here)
    ir::ValueId value;            // the tensor the edge carries (the first one when merged)
    std::uint32_t valueCount = 1; // tensors merged into this edge (between collapsed blocks)
    // A piecewise cubic Bézier curve: p0, then (c1, c2, p) per segment, so 3k+1 points. It
    // starts on the tail's box and ends on the head's box.
    std::vector<Point> points;
};

struct ClusterBox {
    int block = -1;
    Rect box;
    Rect label; // room reserved at the top-left of `box` for the block's badge
};

struct GraphLayout {
    Rect bounds;                      // encloses every node, edge and cluster
    std::vector<NodeBox> nodes;       // in the order of the request's nodes
    std::vector<EdgeRoute> edges;     // in the order of the request's edges
    std::vector<ClusterBox> clusters; // in the order of the request's clusters
    std::vector<Diagnostic> warnings; // what Graphviz complained about without failing

    // Index of the node for `ref`, if it is in the layout. Linear: build a map for many calls.
    std::optional<std::size_t> findNode(NodeRef ref) const;
};

} // namespace strata::layout

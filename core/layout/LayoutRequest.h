#pragma once
// The graph handed to Graphviz: boxes of known size, edges between them, clusters. Plain data
// that crosses the process boundary to the strata-layout helper as JSON (LayoutProtocol.h),
// so the helper needs neither the model nor the caller's fonts.

#include "layout/GraphLayout.h"
#include "layout/LayoutInput.h"
#include "layout/NodeLabel.h"

#include <vector>

namespace strata::layout {

struct LayoutRequest {
    struct Node {
        NodeRef ref;
        double width = 0;  // points
        double height = 0; // points
        int cluster = -1;  // block of the cluster holding the node, or -1
    };
    struct Edge {
        std::uint32_t from = 0; // index into nodes
        std::uint32_t to = 0;   // index into nodes
        ir::ValueId value;
        std::uint32_t valueCount = 1;
    };
    struct Cluster {
        int block = -1;
        double labelWidth = 0; // room for the badge, points
        double labelHeight = 0;
    };

    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<Cluster> clusters; // ascending block
    double nodeSep = 20;           // points between boxes of one rank
    double rankSep = 30;           // points between ranks
};

// Turns `graph` under `input` into a request: one node per graph input, per op outside a
// collapsed block, per collapsed block, per graph output (in that order, ops in graph order);
// one edge per (tail, head, value), edges between collapsed blocks merged per (tail, head)
// with their valueCount; constants (weights) are not drawn. Fails with a diagnostic when
// `input` is invalid (validateInput) or the request would exceed `limits`; an empty graph
// gives an empty request.
Expected<LayoutRequest> buildLayoutRequest(const ir::Graph& graph, const LayoutInput& input,
                                           const TextMetrics& metrics,
                                           const LayoutLimits& limits = {});

// Structural checks on a request from outside (the helper reads one from a pipe): sizes are
// finite and positive, edge ends name nodes, clusters are distinct, nodes name known clusters.
std::vector<Diagnostic> validateRequest(const LayoutRequest& request);

} // namespace strata::layout

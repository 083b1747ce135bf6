#pragma once
// The scene of the graph view: one item per layout node, edge and cluster, made from an
// immutable graph and its layout. Knows which node stands for an op (its own, or its
// collapsed block's), who feeds whom (for keyboard navigation), and which ops match a search.

#include "ir/Graph.h"
#include "layout/GraphLayout.h"
#include "layout/LayoutInput.h"
#include "views/graph/BlockBadge.h"
#include "views/graph/GraphStyle.h"

#include <QGraphicsScene>
#include <QStringList>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace strata::views::graph {

class BoundaryHandleItem;
class ClusterItem;
class EdgeItem;
class NodeItem;

class GraphScene : public QGraphicsScene {
    Q_OBJECT

  public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    const GraphStyle& graphStyle() const { return m_style; }
    // Takes effect with the next showLayout().
    void setGraphStyle(GraphStyle style);

    // Replaces the items with those of `layout`, which was computed for `graph` under `input`
    // (layout node refs must name ops, values and blocks of them).
    void showLayout(std::shared_ptr<const ir::Graph> graph,
                    std::shared_ptr<const layout::GraphLayout> layout, layout::LayoutInput input);
    void clearLayout();
    bool hasLayout() const { return m_layout != nullptr; }

    // Badges of blocks (clusters and collapsed nodes); blocks without one show their id.
    void setBadges(std::vector<BlockBadge> badges);
    // "Block 7 · mp 4 · 1.23 ms · DRAM 2.5 MiB", or the op range of a chunk.
    QString badgeText(int block) const;
    const BlockBadge* findBadge(int block) const;
    // The heat overlay: a colour per block id (blocks without one keep their own colour);
    // empty turns it off. Kept across layouts, like the badges.
    void setHeat(std::unordered_map<int, QColor> colors);
    const std::unordered_map<int, QColor>& heat() const { return m_heat; }

    // The schedule block the op is drawn in (-1: none, or the blocks are overview chunks).
    int blockOfOp(ir::OpId op) const;
    // The block whose cluster or collapsed node holds `scenePos`, or -1 (chunks: always -1).
    int blockAt(QPointF scenePos) const;

    const ir::Graph* graph() const { return m_graph.get(); }
    const layout::GraphLayout* graphLayout() const { return m_layout.get(); }
    const layout::LayoutInput& input() const { return m_input; }

    std::size_t nodeCount() const { return m_nodes.size(); }
    NodeItem* node(std::size_t index) const { return m_nodes[index]; }
    std::size_t edgeCount() const { return m_edges.size(); }
    EdgeItem* edge(std::size_t index) const { return m_edges[index]; }
    std::size_t clusterCount() const { return m_clusters.size(); }
    ClusterItem* cluster(std::size_t index) const { return m_clusters[index]; }

    // The node an op is drawn in: its own, or its collapsed block's; null if none.
    NodeItem* nodeForOp(ir::OpId op) const;
    NodeItem* nodeForBlock(int block) const;
    ClusterItem* clusterForBlock(int block) const;
    // Boundary handles: one per edge from an op in one block to an op in another.
    std::size_t handleCount() const { return m_handles.size(); }
    BoundaryHandleItem* handle(std::size_t index) const { return m_handles[index]; }
    BoundaryHandleItem* handleBetween(ir::OpId producer, ir::OpId consumer) const;
    // The one selected node, or null (nothing or a cluster selected).
    NodeItem* selectedNode() const;

    // Nodes with an edge into / out of `node`, in edge order.
    std::vector<std::size_t> predecessors(std::size_t node) const;
    std::vector<std::size_t> successors(std::size_t node) const;

    // Ops whose name or type contains `text` (case-insensitive), in graph order.
    std::vector<ir::OpId> findOps(const QString& text) const;
    // Marks the nodes of `ops` as search hits (and unmarks the rest).
    void markSearchHits(const std::vector<ir::OpId>& ops);

    // The layout's bounds with a margin, for the scene rect and fit-to-view.
    QRectF graphRect() const;

  private:
    // "mp 4", "1.23 ms", "DRAM 2.5 MiB": what a badge adds to the block's name.
    static QStringList badgeDetails(const BlockBadge& badge);
    // Slides every cluster's badge along its row off the edges entering the block.
    void placeBadges();
    // Puts every boundary handle on its edge where it covers no badge and no node (badges
    // grow with their text, so this runs again after setBadges).
    void placeHandles();
    // How much of badges and nodes (area) a handle with scene bounds `rect` would cover.
    qreal coveredText(const QRectF& rect) const;
    void onSelectionChanged();
    QString nodeToolTip(std::size_t index) const;
    QString edgeToolTip(std::size_t index) const;

    GraphStyle m_style;
    std::shared_ptr<const ir::Graph> m_graph;
    std::shared_ptr<const layout::GraphLayout> m_layout;
    layout::LayoutInput m_input;
    std::vector<BlockBadge> m_badges;
    std::unordered_map<int, QColor> m_heat;

    std::vector<NodeItem*> m_nodes;       // by layout node index
    std::vector<EdgeItem*> m_edges;       // by layout edge index
    std::vector<ClusterItem*> m_clusters; // by layout cluster index
    std::vector<BoundaryHandleItem*> m_handles;
    std::vector<std::uint32_t> m_handleEdges;              // handle -> the edge it sits on
    std::vector<std::uint32_t> m_nodeOfOp;                 // op index -> node index
    std::vector<std::vector<std::uint32_t>> m_edgesOfNode; // node -> incident edges
    std::vector<std::uint32_t> m_highlighted;              // edges lit for the selection
    std::vector<std::uint32_t> m_searchHits;               // nodes marked by the search
};

// "812 µs", "1.23 ms", "2.5 s".
QString formatSeconds(double seconds);

} // namespace strata::views::graph

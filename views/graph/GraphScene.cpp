#include "views/graph/GraphScene.h"

#include "layout/NodeLabel.h"
#include "views/Format.h"
#include "views/OpClassStyle.h"
#include "views/graph/BadgePlacement.h"
#include "views/graph/GraphItems.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

namespace strata::views::graph {

namespace {

constexpr std::uint32_t kNoNode = UINT32_MAX;
constexpr qreal kSceneMargin = 40;

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

QString escaped(const std::string& text) {
    return fromStd(text).toHtmlEscaped();
}

QString valueSummary(const ir::Value& value) {
    QStringList parts{formatShape(value.shape), fromStd(std::string(ir::dtypeName(value.dtype)))};
    if (value.bytes() > 0)
        parts << formatBytes(value.bytes());
    return parts.join(QStringLiteral(" \u00b7 "));
}

} // namespace

QString formatSeconds(double seconds) {
    if (!std::isfinite(seconds))
        return QStringLiteral("n/a");
    const double s = std::fabs(seconds);
    auto number = [](double v) { return QString::number(v, 'f', v < 10 ? 2 : v < 100 ? 1 : 0); };
    if (s < 1e-3)
        return number(seconds * 1e6) + QStringLiteral(" \u00b5s");
    if (s < 1)
        return number(seconds * 1e3) + QStringLiteral(" ms");
    return number(seconds) + QStringLiteral(" s");
}

GraphScene::GraphScene(QObject* parent) : QGraphicsScene(parent), m_style(GraphStyle::standard()) {
    // The scene is rebuilt, never edited item by item: a BSP index pays off for hit tests and
    // exposure over thousands of static items.
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

GraphScene::~GraphScene() {
    // Items first: their destructors may notify the scene, whose members must still be alive.
    // Nobody hears about it: a selection shrinking item by item would reach views (and the
    // window that owns them) halfway through their destruction.
    blockSignals(true);
    clear();
}

void GraphScene::setGraphStyle(GraphStyle style) {
    m_style = std::move(style);
}

void GraphScene::clearLayout() {
    const QSignalBlocker blocker(this);
    clear();
    m_nodes.clear();
    m_edges.clear();
    m_clusters.clear();
    m_handles.clear();
    m_handleEdges.clear();
    m_nodeOfOp.clear();
    m_edgesOfNode.clear();
    m_highlighted.clear();
    m_searchHits.clear();
    m_layout.reset();
    m_graph.reset();
    m_input = {};
    setSceneRect(QRectF());
    emit selectionChanged();
}

void GraphScene::showLayout(std::shared_ptr<const ir::Graph> graph,
                            std::shared_ptr<const layout::GraphLayout> layout,
                            layout::LayoutInput input) {
    clearLayout();
    if (!graph || !layout)
        return;
    m_graph = std::move(graph);
    m_layout = std::move(layout);
    m_input = std::move(input);
    const ir::Graph& g = *m_graph;
    const layout::GraphLayout& lay = *m_layout;

    m_nodeOfOp.assign(g.ops.size(), kNoNode);
    m_nodes.reserve(lay.nodes.size());
    for (std::size_t i = 0; i < lay.nodes.size(); ++i) {
        const layout::NodeBox& box = lay.nodes[i];
        const layout::NodeLabel label = layout::nodeLabel(g, m_input, box.ref);
        NodeContent content{box.ref.kind,          fromStd(label.title), fromStd(label.name),
                            fromStd(label.detail), m_style.edge,         {}};
        switch (box.ref.kind) {
        case layout::NodeKind::Op:
            if (box.ref.id < g.ops.size()) {
                content.accent = opClassColor(g.ops[box.ref.id].opClass);
                m_nodeOfOp[box.ref.id] = static_cast<std::uint32_t>(i);
            }
            break;
        case layout::NodeKind::Block: {
            const int block = static_cast<int>(box.ref.id);
            content.accent = blockColor(block);
            for (std::size_t op = 0; op < m_input.blockOfOp.size() && op < g.ops.size(); ++op)
                if (m_input.blockOfOp[op] == block)
                    m_nodeOfOp[op] = static_cast<std::uint32_t>(i);
            break;
        }
        case layout::NodeKind::Input:
        case layout::NodeKind::Output:
            content.accent = m_style.edge;
            break;
        }
        auto* item = new NodeItem(i, box, content, &m_style);
        addItem(item);
        m_nodes.push_back(item);
    }

    m_edgesOfNode.assign(m_nodes.size(), {});
    m_edges.reserve(lay.edges.size());
    for (std::size_t i = 0; i < lay.edges.size(); ++i) {
        const layout::EdgeRoute& route = lay.edges[i];
        auto* item = new EdgeItem(i, route.points, &m_style);
        addItem(item);
        m_edges.push_back(item);
        if (route.from < m_nodes.size() && route.to < m_nodes.size()) {
            m_edgesOfNode[route.from].push_back(static_cast<std::uint32_t>(i));
            m_edgesOfNode[route.to].push_back(static_cast<std::uint32_t>(i));
        }
    }

    for (const layout::ClusterBox& box : lay.clusters) {
        auto* item = new ClusterItem(box, &m_style);
        addItem(item);
        m_clusters.push_back(item);
    }

    // A handle where an edge leaves one block for another (not between overview chunks).
    if (!m_input.blocksAreChunks)
        for (std::size_t i = 0; i < lay.edges.size(); ++i) {
            const layout::EdgeRoute& route = lay.edges[i];
            if (route.from >= m_nodes.size() || route.to >= m_nodes.size())
                continue;
            const layout::NodeRef from = m_nodes[route.from]->ref();
            const layout::NodeRef to = m_nodes[route.to]->ref();
            if (from.kind != layout::NodeKind::Op || to.kind != layout::NodeKind::Op)
                continue;
            const int a = blockOfOp(ir::OpId(from.id));
            const int b = blockOfOp(ir::OpId(to.id));
            if (a < 0 || b < 0 || a == b)
                continue;
            auto* handle =
                new BoundaryHandleItem(ir::OpId(from.id), ir::OpId(to.id),
                                       m_edges[i]->path().pointAtPercent(0.5), blockColor(a));
            addItem(handle);
            m_handles.push_back(handle);
            m_handleEdges.push_back(static_cast<std::uint32_t>(i));
        }

    // Tooltips and badges once the adjacency exists.
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        m_nodes[i]->setToolTip(nodeToolTip(i));
    for (std::size_t i = 0; i < m_edges.size(); ++i)
        m_edges[i]->setToolTip(edgeToolTip(i));
    setBadges(m_badges);
    setHeat(m_heat);
    setSceneRect(graphRect());
}

void GraphScene::setHeat(std::unordered_map<int, QColor> colors) {
    m_heat = std::move(colors);
    for (ClusterItem* cluster : m_clusters) {
        const auto it = m_heat.find(cluster->block());
        cluster->setHeat(it == m_heat.end() || m_input.blocksAreChunks
                             ? std::nullopt
                             : std::optional<QColor>(it->second));
    }
}

QRectF GraphScene::graphRect() const {
    if (!m_layout)
        return {};
    const layout::Rect& b = m_layout->bounds;
    return QRectF(b.x, b.y, b.width, b.height)
        .adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin);
}

void GraphScene::setBadges(std::vector<BlockBadge> badges) {
    m_badges = std::move(badges);
    for (ClusterItem* cluster : m_clusters) {
        const BlockBadge* badge = findBadge(cluster->block());
        cluster->setBadge(badgeText(cluster->block()), badge && badge->invalid);
        cluster->setToolTip(
            tr("<b>%1</b>%2<br>Double-click the badge to collapse the block into one node.")
                .arg(badgeText(cluster->block()).toHtmlEscaped(),
                     badge && badge->invalid ? tr("<br><b style='color:#c62828'>The schedule "
                                                  "check found an error in this block.</b>")
                                             : QString()));
    }
    for (NodeItem* node : m_nodes) {
        if (node->ref().kind != layout::NodeKind::Block || m_input.blocksAreChunks)
            continue;
        const BlockBadge* badge = findBadge(static_cast<int>(node->ref().id));
        node->setBadge(badge ? badgeDetails(*badge).join(QStringLiteral(" \u00b7 ")) : QString(),
                       badge && badge->invalid);
    }
    placeBadges();
    placeHandles();
}

void GraphScene::placeBadges() {
    constexpr qreal kClearance = 3; // room between an edge and a badge's text
    constexpr qreal kGapMargin = 2; // room between a badge and an edge stopping at it
    std::vector<QRectF> placed;     // the pills placed so far
    std::unordered_map<EdgeItem*, std::vector<QRectF>> gaps;
    for (ClusterItem* cluster : m_clusters) {
        const QRectF home = cluster->badgeHome();
        const QRectF box = cluster->box();
        const QRectF row(std::min(home.left(), box.left()) - home.width(), home.top(),
                         box.width() + 3 * home.width(), home.height());
        std::vector<std::pair<EdgeItem*, Span>> crossing;
        std::vector<Span> spans;
        std::vector<QRectF> obstacles;
        for (QGraphicsItem* item : items(row, Qt::IntersectsItemBoundingRect)) {
            if (auto* edge = qgraphicsitem_cast<EdgeItem*>(item)) {
                for (const Span& span :
                     spansInBand(edge->path(), home.top(), home.bottom(), kClearance)) {
                    crossing.emplace_back(edge, span);
                    spans.push_back(span);
                }
            } else if (const auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
                obstacles.push_back(node->sceneBox());
            }
        }
        for (const QRectF& pill : placed)
            if (pill.intersects(row))
                obstacles.push_back(pill);
        BadgeSpot spot = placeBadge(home, box, spans, obstacles);
        if (spot.blockers > 0 && !m_input.blocksAreChunks) {
            // No free spot for the whole text: the block's name alone (the tooltip keeps the
            // rest), if it finds a better one.
            const QString full = cluster->badgeText();
            const bool invalid = cluster->isBadgeInvalid();
            cluster->setBadge(tr("Block %1").arg(cluster->block()), invalid);
            const BadgeSpot compact = placeBadge(cluster->badgeHome(), box, spans, obstacles);
            if (compact.blockers < spot.blockers)
                spot = compact;
            else
                cluster->setBadge(full, invalid);
        }
        cluster->moveBadge(spot.left);
        placed.push_back(cluster->badgeRect());
        // No free spot: the edges still crossing the text stop short of the badge.
        const QRectF text = badgeTextRect(cluster->badgeRect());
        const QRectF gap =
            cluster->badgeRect().adjusted(-kGapMargin, -kGapMargin, kGapMargin, kGapMargin);
        for (const auto& [edge, span] : crossing)
            if (span.right > text.left() && span.left < text.right() &&
                (gaps[edge].empty() || gaps[edge].back() != gap))
                gaps[edge].push_back(gap);
    }
    for (EdgeItem* edge : m_edges) {
        const auto it = gaps.find(edge);
        edge->setGaps(it == gaps.end() ? std::vector<QRectF>{} : std::move(it->second));
    }
}

qreal GraphScene::coveredText(const QRectF& rect) const {
    auto area = [](const QRectF& r) { return r.isValid() ? r.width() * r.height() : 0.0; };
    qreal covered = 0;
    for (QGraphicsItem* item : items(rect, Qt::IntersectsItemBoundingRect)) {
        if (const auto* node = qgraphicsitem_cast<NodeItem*>(item))
            covered += area(node->sceneBox().intersected(rect));
        else if (const auto* cluster = qgraphicsitem_cast<ClusterItem*>(item))
            covered += area(cluster->badgeRect().intersected(rect));
    }
    return covered;
}

void GraphScene::placeHandles() {
    // From the edge's middle outwards: the first spot that covers nothing. An edge crosses the
    // label row of the block it enters, so the free stretch may be short; with none at all,
    // the spot that covers the least.
    constexpr int kSteps = 48;
    constexpr qreal kClearance = 1;
    for (std::size_t h = 0; h < m_handles.size(); ++h) {
        BoundaryHandleItem* handle = m_handles[h];
        const QPainterPath& path = m_edges[m_handleEdges[h]]->path();
        const QRectF bounds =
            handle->boundingRect().adjusted(-kClearance, -kClearance, kClearance, kClearance);
        QPointF best = path.pointAtPercent(0.5);
        qreal bestCovered = std::numeric_limits<qreal>::max();
        for (int k = 0; k <= kSteps && bestCovered > 0; ++k) {
            const int offset = (k + 1) / 2 * (k % 2 ? 1 : -1);
            const qreal t = 0.5 + offset * (0.5 / (kSteps / 2 + 1));
            const QPointF candidate = path.pointAtPercent(t);
            const qreal covered = coveredText(bounds.translated(candidate));
            if (covered < bestCovered) {
                best = candidate;
                bestCovered = covered;
            }
        }
        handle->setPos(best);
    }
}

BoundaryHandleItem* GraphScene::handleBetween(ir::OpId producer, ir::OpId consumer) const {
    for (BoundaryHandleItem* handle : m_handles)
        if (handle->producer() == producer && handle->consumer() == consumer)
            return handle;
    return nullptr;
}

const BlockBadge* GraphScene::findBadge(int block) const {
    const auto it = std::find_if(m_badges.begin(), m_badges.end(),
                                 [&](const BlockBadge& b) { return b.block == block; });
    return it == m_badges.end() ? nullptr : &*it;
}

QStringList GraphScene::badgeDetails(const BlockBadge& badge) {
    QStringList parts;
    if (badge.mp > 0)
        parts << tr("mp %1").arg(badge.mp);
    if (badge.predictedSeconds)
        parts << formatSeconds(*badge.predictedSeconds);
    if (badge.dramBytes)
        parts << tr("DRAM %1").arg(formatBytes(*badge.dramBytes));
    return parts;
}

QString GraphScene::badgeText(int block) const {
    if (m_input.blocksAreChunks && m_graph) {
        const layout::NodeLabel label =
            layout::nodeLabel(*m_graph, m_input, layout::NodeRef::block(block));
        return fromStd(label.title);
    }
    QStringList parts{tr("Block %1").arg(block)};
    if (const BlockBadge* badge = findBadge(block))
        parts << badgeDetails(*badge);
    return parts.join(QStringLiteral(" \u00b7 "));
}

int GraphScene::blockOfOp(ir::OpId op) const {
    if (!op.valid() || op.index >= m_input.blockOfOp.size() || m_input.blocksAreChunks)
        return -1;
    return m_input.blockOfOp[op.index];
}

int GraphScene::blockAt(QPointF scenePos) const {
    if (m_input.blocksAreChunks)
        return -1;
    for (NodeItem* node : m_nodes)
        if (node->ref().kind == layout::NodeKind::Block && node->sceneBox().contains(scenePos))
            return static_cast<int>(node->ref().id);
    // Clusters do not nest: the first whose region holds the point.
    for (ClusterItem* cluster : m_clusters)
        if (cluster->box().contains(scenePos))
            return cluster->block();
    return -1;
}

NodeItem* GraphScene::nodeForOp(ir::OpId op) const {
    if (!op.valid() || op.index >= m_nodeOfOp.size() || m_nodeOfOp[op.index] == kNoNode)
        return nullptr;
    return m_nodes[m_nodeOfOp[op.index]];
}

NodeItem* GraphScene::nodeForBlock(int block) const {
    for (NodeItem* node : m_nodes)
        if (node->ref() == layout::NodeRef::block(block))
            return node;
    return nullptr;
}

ClusterItem* GraphScene::clusterForBlock(int block) const {
    for (ClusterItem* cluster : m_clusters)
        if (cluster->block() == block)
            return cluster;
    return nullptr;
}

NodeItem* GraphScene::selectedNode() const {
    const QList<QGraphicsItem*> selected = selectedItems();
    if (selected.size() != 1)
        return nullptr;
    return qgraphicsitem_cast<NodeItem*>(selected.front());
}

std::vector<std::size_t> GraphScene::predecessors(std::size_t node) const {
    std::vector<std::size_t> out;
    if (!m_layout || node >= m_edgesOfNode.size())
        return out;
    for (std::uint32_t e : m_edgesOfNode[node])
        if (m_layout->edges[e].to == node)
            out.push_back(m_layout->edges[e].from);
    return out;
}

std::vector<std::size_t> GraphScene::successors(std::size_t node) const {
    std::vector<std::size_t> out;
    if (!m_layout || node >= m_edgesOfNode.size())
        return out;
    for (std::uint32_t e : m_edgesOfNode[node])
        if (m_layout->edges[e].from == node)
            out.push_back(m_layout->edges[e].to);
    return out;
}

std::vector<ir::OpId> GraphScene::findOps(const QString& text) const {
    std::vector<ir::OpId> out;
    const QString needle = text.trimmed();
    if (!m_graph || needle.isEmpty())
        return out;
    for (std::size_t i = 0; i < m_graph->ops.size(); ++i) {
        const ir::Op& op = m_graph->ops[i];
        if (fromStd(op.name).contains(needle, Qt::CaseInsensitive) ||
            fromStd(op.type).contains(needle, Qt::CaseInsensitive))
            out.push_back(ir::OpId(static_cast<std::uint32_t>(i)));
    }
    return out;
}

void GraphScene::markSearchHits(const std::vector<ir::OpId>& ops) {
    for (std::uint32_t node : m_searchHits)
        m_nodes[node]->setSearchHit(false);
    m_searchHits.clear();
    for (ir::OpId op : ops) {
        if (NodeItem* node = nodeForOp(op)) {
            node->setSearchHit(true);
            m_searchHits.push_back(static_cast<std::uint32_t>(node->nodeIndex()));
        }
    }
}

void GraphScene::onSelectionChanged() {
    for (std::uint32_t e : m_highlighted)
        m_edges[e]->setHighlighted(false);
    m_highlighted.clear();
    for (QGraphicsItem* item : selectedItems()) {
        auto* node = qgraphicsitem_cast<NodeItem*>(item);
        if (!node || node->nodeIndex() >= m_edgesOfNode.size())
            continue;
        for (std::uint32_t e : m_edgesOfNode[node->nodeIndex()]) {
            m_edges[e]->setHighlighted(true);
            m_highlighted.push_back(e);
        }
    }
}

QString GraphScene::nodeToolTip(std::size_t index) const {
    const layout::NodeRef ref = m_nodes[index]->ref();
    const ir::Graph& g = *m_graph;
    switch (ref.kind) {
    case layout::NodeKind::Op: {
        if (ref.id >= g.ops.size())
            return {};
        const ir::Op& op = g.ops[ref.id];
        QString tip = QStringLiteral("<b>%1</b> %2").arg(escaped(op.type), escaped(op.name));
        for (ir::ValueId out : op.outputs)
            if (out.valid() && out.index < g.values.size())
                tip += QStringLiteral("<br>\u2192 %1: %2")
                           .arg(escaped(g.value(out).name), valueSummary(g.value(out)));
        tip += QStringLiteral("<br>%1 \u00b7 read %2 \u00b7 write %3")
                   .arg(formatFlops(op.cost.flops), formatBytes(op.cost.bytesRead),
                        formatBytes(op.cost.bytesWritten));
        return tip;
    }
    case layout::NodeKind::Block: {
        const layout::NodeLabel label = layout::nodeLabel(g, m_input, ref);
        return tr("<b>%1</b> \u00b7 %2<br>%3<br>Double-click to expand.")
            .arg(escaped(label.title), escaped(label.name), escaped(label.detail));
    }
    case layout::NodeKind::Input:
    case layout::NodeKind::Output: {
        if (ref.id >= g.values.size())
            return {};
        return QStringLiteral("<b>%1</b> %2<br>%3")
            .arg(ref.kind == layout::NodeKind::Input ? tr("Input") : tr("Output"),
                 escaped(g.values[ref.id].name), valueSummary(g.values[ref.id]));
    }
    }
    return {};
}

QString GraphScene::edgeToolTip(std::size_t index) const {
    const layout::EdgeRoute& route = m_layout->edges[index];
    const ir::Graph& g = *m_graph;
    if (!route.value.valid() || route.value.index >= g.values.size() ||
        route.from >= m_nodes.size() || route.to >= m_nodes.size())
        return {};
    const ir::Value& value = g.value(route.value);
    QString tip = QStringLiteral("<b>%1</b><br>%2").arg(escaped(value.name), valueSummary(value));
    if (route.valueCount > 1)
        tip += route.valueCount == 2 ? tr("<br>and 1 more tensor")
                                     : tr("<br>and %1 more tensors").arg(route.valueCount - 1);
    auto nodeName = [&](std::uint32_t node) {
        const layout::NodeLabel label = layout::nodeLabel(g, m_input, m_nodes[node]->ref());
        return escaped(label.name.empty() ? label.title : label.name);
    };
    tip += QStringLiteral("<br><span style='color:#5f6670'>%1 \u2192 %2</span>")
               .arg(nodeName(route.from), nodeName(route.to));
    return tip;
}

} // namespace strata::views::graph

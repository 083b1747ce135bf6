#pragma once
// The Graph tab: the graph view of the open model, laid out in the background by a
// LayoutRunner. Owns what is drawn: the partition into blocks (from the schedule, once there
// is one), which blocks are collapsed, and the block badges. A big model first shows its
// overview; double-clicking a collapsed node expands it, double-clicking a block's badge
// collapses it again.

#include "jobs/LayoutRunner.h"
#include "views/graph/BlockBadge.h"

#include <QWidget>
#include <memory>
#include <vector>

namespace strata::views::graph {
class GraphView;
}

namespace strata::gui {

class Activity;
class GraphTab : public QWidget {
    Q_OBJECT

  public:
    explicit GraphTab(QWidget* parent = nullptr);
    ~GraphTab() override;

    // Shows `graph` (null: none), laid out in the background; drops the partition and cancels
    // a layout still running for the previous graph.
    void setGraph(std::shared_ptr<const ir::Graph> graph);
    // Draws `blockOfOp` (one block per op, -1 for none; empty: no blocks) as clusters, with
    // `badges`, and lays the graph out again, keeping the view where it is and the collapsed
    // blocks that still exist collapsed; the same partition only gets the new badges. A
    // partition that does not fit the graph is refused with a diagnostic and the current
    // drawing stays.
    void setPartition(std::vector<int> blockOfOp, std::vector<views::graph::BlockBadge> badges);
    // New badge data for the blocks shown; no new layout.
    void setBadges(std::vector<views::graph::BlockBadge> badges);

    void expandBlock(int block);
    void collapseBlock(int block);
    void cancelLayout();

    bool isLayingOut() const;
    views::graph::GraphView* view() const { return m_view; }
    LayoutRunner* runner() const { return m_runner; }
    // What the shown layout was computed for.
    const layout::LayoutInput& shownInput() const { return m_shown; }

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  signals:
    // After every layout attempt of the current graph.
    void layoutFinished(bool ok);

  private:
    // Lays out `input`; keeps the current drawing (with a busy note) when `keepShown`.
    void relayout(layout::LayoutInput input, bool allowOverview, bool keepShown);
    void onLayoutFinished(const LayoutOutcome& outcome);

    LayoutRunner* m_runner = nullptr;
    views::graph::GraphView* m_view = nullptr;
    std::shared_ptr<const ir::Graph> m_graph;
    layout::LayoutInput m_partition; // blocks from the schedule, none collapsed
    layout::LayoutInput m_shown;     // what the view shows
    std::vector<views::graph::BlockBadge> m_badges;
    int m_focusBlock = -1;   // centre on it after an expand
    bool m_keepView = false; // the next layout replaces one of the same graph: keep the view
    Activity* m_activity = nullptr;
};

} // namespace strata::gui

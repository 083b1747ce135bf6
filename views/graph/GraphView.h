#pragma once
// The graph view: a search bar and zoom controls over the graph canvas, or a message (with a
// busy indicator) while there is no layout to show. It shows layouts it is given and says
// what the user picked; computing layouts is the caller's job (off the UI thread).
//
// Keys on the canvas: wheel or +/- zoom, drag or arrows pan, F fits, 0 is 100 %, Up/Down move
// the selection to a producer/consumer, Left/Right to a neighbour, "/" searches, Enter or a
// double-click expands a collapsed block, a double-click on a block's badge collapses it.

#include "ir/Graph.h"
#include "layout/GraphLayout.h"
#include "layout/LayoutInput.h"
#include "layout/NodeLabel.h"
#include "views/graph/BlockBadge.h"
#include "views/graph/HeatScale.h"

#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QStackedWidget;
class QToolButton;

namespace strata::views::graph {

class GraphCanvas;
class GraphScene;
class HeatLegend;

class GraphView : public QWidget {
    Q_OBJECT

  public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // Shows `layout` of `graph` under `input` (the partition it was computed for) and frames
    // its start, or, with `keepView` and a graph on screen, keeps the zoom and centre (a new
    // layout of the same graph after an edit). A selected op stays selected when it is in the
    // new layout.
    void showGraphLayout(std::shared_ptr<const ir::Graph> graph,
                         std::shared_ptr<const layout::GraphLayout> layout,
                         layout::LayoutInput input, bool keepView = false);
    // Replaces the graph with a message, e.g. while the first layout runs or after it failed.
    void showMessage(const QString& text, bool busy = false);
    // A note in the corner while the shown graph is being re-laid out; empty hides it.
    void setBusy(const QString& text);
    void clear();

    void setBadges(std::vector<BlockBadge> badges);

    // The heat overlay, chosen in the toolbar's combo (heatModeChanged() asks the owner for
    // values). `values` per block id are coloured from 0 (palest) to the largest (darkest);
    // `format` writes the legend's ends. No values: the legend shows `note` instead.
    HeatMode heatMode() const;
    void setHeat(const std::unordered_map<int, double>& values, QString (*format)(double),
                 const QString& note = {});
    // A mode that cannot be chosen yet (e.g. prediction error before a measured run) is greyed
    // out with `reason` as its tooltip; choosing it is refused.
    void setHeatModeAvailable(HeatMode mode, bool available, const QString& reason = {});
    QComboBox* heatCombo() const { return m_heatCombo; }
    HeatLegend* heatLegend() const { return m_heatLegend; }

    // Metrics for layout requests: what this view's fonts need. Safe to use in a worker.
    layout::TextMetrics textMetrics() const;

    GraphScene* scene() const { return m_scene; }
    GraphCanvas* canvas() const { return m_canvas; }
    QLineEdit* searchField() const { return m_search; }
    bool isShowingGraph() const;
    QString message() const;
    std::optional<ir::OpId> selectedOp() const;
    // Every selected op node (Ctrl+click selects several), in graph order.
    std::vector<ir::OpId> selectedOps() const;
    // Selected block clusters and collapsed block nodes (not the blocks of selected ops),
    // ascending; none when the blocks are overview chunks.
    std::vector<int> selectedBlocks() const;
    void setAnimated(bool animated);
    // Which blocks take an op dragged onto them (see GraphCanvas::setDropCheck).
    void setDropCheck(std::function<QString(ir::OpId op, int block)> check);

  public slots:
    // Selects the op's node (or its collapsed block's) and centres on it. Emits opSelected
    // when the selection changes.
    void selectOp(strata::ir::OpId op);
    // Centres on a block's node (collapsed) or cluster (expanded).
    void centreOnBlock(int block);
    // Selects a block's node or cluster alone and centres on it; emits blockSelected.
    void selectBlock(int block);
    void fitToView();
    void zoomIn();
    void zoomOut();
    // Select and centre the next / previous search match.
    void findNext();
    void findPrevious();

  signals:
    void opSelected(strata::ir::OpId op);
    void blockSelected(int block);
    void expandBlockRequested(int block);
    void collapseBlockRequested(int block);
    // Any change of the selection (several items may be selected).
    void selectionChanged();
    // Something for the status bar: why Fit did not fit the whole graph, why a block refuses
    // the op dragged onto it.
    void statusMessage(const QString& text);
    // The user chose another heat overlay.
    void heatModeChanged(strata::views::graph::HeatMode mode);
    // Editing requests from the canvas (see GraphCanvas); the view edits nothing itself.
    void opDropRequested(strata::ir::OpId op, int block);
    // A block boundary (on the edge producer -> consumer) dragged onto op `to`.
    void boundaryDragRequested(strata::ir::OpId producer, strata::ir::OpId consumer,
                               strata::ir::OpId to);
    void opContextMenuRequested(strata::ir::OpId op, QPoint globalPos);
    void blockContextMenuRequested(int block, QPoint globalPos);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    QWidget* createToolBar();
    QWidget* createMessagePage();
    void onSelectionChanged();
    // opSelected / blockSelected when one op or block is selected and it is a new one.
    void emitSingleSelection();
    void updateSearch();
    void showMatch(int index);
    void updateZoomLabel(double zoom);
    void placeBusyNote();
    void placeHeatLegend();

    GraphScene* m_scene = nullptr;
    GraphCanvas* m_canvas = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QProgressBar* m_messageBusy = nullptr;
    QLabel* m_busyNote = nullptr;
    QLineEdit* m_search = nullptr;
    QLabel* m_matchLabel = nullptr;
    QLabel* m_zoomLabel = nullptr;
    QLabel* m_sizeLabel = nullptr;
    QComboBox* m_heatCombo = nullptr;
    HeatLegend* m_heatLegend = nullptr;

    std::vector<ir::OpId> m_matches;
    int m_matchIndex = -1;
    std::optional<ir::OpId> m_lastOp; // last op announced through opSelected
    std::optional<int> m_lastBlock;   // last block announced through blockSelected
};

} // namespace strata::views::graph

#pragma once
// The Compare tab's widget: two runs picked from a list (A and B), their totals and the
// difference, the per-block deltas (DeltaChart) and the two timelines on one time axis
// (timeline::TimelineView, runs paired lane by lane). The runs and what to compare come from the
// app (app/gui/CompareTab); the view computes nothing but layout.

#include "trace/AccuracyReport.h"
#include "trace/RunDelta.h"
#include "trace/Trace.h"

#include <QStringList>
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QToolBar;

namespace strata::views::timeline {
class TimelineView;
}

namespace strata::views::compare {

class BlockSplitModel;
class DeltaChart;

class CompareView : public QWidget {
    Q_OBJECT

  public:
    explicit CompareView(QWidget* parent = nullptr);

    // The runs to pick from, in list order. The picks stay on the same indices when they still
    // exist; -1 otherwise.
    void setRunNames(const QStringList& names);
    // Picks runs `a` and `b` (indices into the names); emits selectionChanged() once.
    void select(int a, int b);
    int runA() const;
    int runB() const;

    struct Comparison {
        trace::RunDelta delta;
        std::shared_ptr<const trace::Trace> a;
        std::shared_ptr<const trace::Trace> b;
        std::string nameA;
        std::string nameB;
        bool sameProgram = false; // events matched by instruction id; else lanes just stacked
        // Per block, A's compute / transfer / wait against B's and the error of A's block time
        // (trace::accuracyReport with A as the prediction, B as the measurement); empty when the
        // runs are not of one program.
        std::vector<trace::BlockAccuracy> blocks;
    };
    // Shows the comparison of the picked runs.
    void showComparison(Comparison comparison);
    // No comparison: `message` in place of the chart, totals and timelines cleared.
    void showMessage(const QString& message);

    // Buttons beside the pickers (Pin Run, Import Trace…).
    void addToolAction(QAction* action);

    DeltaChart* chart() const { return m_chart; }
    // "Worst predicted": the per-block split, worst error first; a click selects the block.
    QTableView* blockTable() const { return m_blockTable; }
    BlockSplitModel* blockModel() const { return m_blockModel; }
    timeline::TimelineView* timelineView() const { return m_timeline; }
    QComboBox* comboA() const { return m_a; }
    QComboBox* comboB() const { return m_b; }
    // The totals line as shown ("A 1.20 ms · B 1.00 ms · B − A −200 µs (−16.7 %)").
    QString totalsText() const;
    const Comparison* comparison() const { return m_shown ? &m_comparison : nullptr; }

  signals:
    void selectionChanged(int a, int b);
    // A row of the worst-predicted table was clicked: select `block` in the graph and schedule.
    void blockActivated(int block);

  private:
    void emitSelection();
    void showTotals();

    QComboBox* m_a = nullptr;
    QComboBox* m_b = nullptr;
    QToolBar* m_tools = nullptr;
    QLabel* m_totalA = nullptr;
    QLabel* m_totalB = nullptr;
    QLabel* m_totalDelta = nullptr;
    QLabel* m_blocksNote = nullptr;
    QSplitter* m_splitter = nullptr;
    DeltaChart* m_chart = nullptr;
    BlockSplitModel* m_blockModel = nullptr;
    QSortFilterProxyModel* m_blockProxy = nullptr;
    QTableView* m_blockTable = nullptr;
    timeline::TimelineView* m_timeline = nullptr;
    Comparison m_comparison;
    bool m_shown = false;
    bool m_selecting = false;
};

} // namespace strata::views::compare

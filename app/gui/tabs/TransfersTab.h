#pragma once
// The Transfers tab (docs/TRANSFERS.md): where the emulator is wrong about transfers. Seed 004's
// throughput-vs-size figure from the schedule's own transfers (predicted, and measured once the
// user ran on host) or from the microbenchmark (Run Microbench: emulated, and measured on the
// host target, in the background); the predicted-vs-measured duration scatter, the error
// histogram and the per-block errors of the last run on host. Selecting scatter points selects
// their instruction (and op in the graph); a block bar selects the block. The numbers are
// computed off the UI thread (core/analysis); a newer run drops an older one's result.

#include "analysis/EventGroups.h"
#include "analysis/TransferStats.h"
#include "emulator/Microbench.h"
#include "jobs/JobRunner.h"
#include "runs/EmulationRun.h"
#include "runs/MeasuredRun.h"

#include <QVector>
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QToolButton;

namespace strata::target {
struct Target;
}
namespace strata::views::graph {
class GraphView;
}
namespace strata::views::program {
class ProgramView;
}
namespace strata::views::transfers {
class BlockErrorBars;
class DurationScatter;
class ErrorHistogram;
class ThroughputPlot;
} // namespace strata::views::transfers

namespace strata::gui {

class Activity;
class RevisionBanner;
class Selection;

class ScheduleDocument;

// What the tab draws of one (prediction, measurement) pair, computed in the background.
struct TransferAnalysis {
    std::vector<analysis::PathThroughput> predicted;
    std::vector<analysis::PathThroughput> measured;
    std::vector<analysis::MatchedEvent> matched;
    std::vector<double> transferErrors;
    std::vector<double> computeErrors;
    std::vector<analysis::ErrorGroup> transferKinds;  // transfers' errors by path and kind of read
    std::vector<analysis::ErrorGroup> computeClasses; // computes' errors by op class (cost figure)
    std::vector<analysis::BlockError> blocks;
    std::vector<std::string> pathNames;
    double predictedTotalNs = 0;
    double measuredTotalNs = 0;
    double transferMedianAbsError = 0;
};

struct MicrobenchOutcome {
    std::optional<emulator::MicrobenchResult> predicted;
    std::optional<emulator::MicrobenchResult> measured; // on the host target only
    std::vector<Diagnostic> diagnostics;
};

class TransfersTab : public QWidget {
    Q_OBJECT

  public:
    enum class Source { Model, Microbench };

    explicit TransfersTab(QWidget* parent = nullptr);
    // The document whose target Run Microbench uses, and whose current revision the banner
    // over the tab compares the last run's with.
    void setDocument(ScheduleDocument* document);
    ~TransfersTab() override;

    views::transfers::ThroughputPlot* throughputPlot() const { return m_throughput; }
    views::transfers::DurationScatter* scatter() const { return m_scatter; }
    views::transfers::ErrorHistogram* histogram() const { return m_histogram; }
    // "Transfers and computes", "Transfers by kind", "Computes by op class".
    QComboBox* histogramGrouping() const { return m_grouping; }
    views::transfers::BlockErrorBars* blockBars() const { return m_blocks; }
    QPushButton* microbenchButton() const { return m_runMicrobench; }
    QComboBox* sourceCombo() const { return m_source; }
    // The button that triggers `action` (Calibrate Host…) in the tab's bar.
    void setCalibrateAction(QAction* action);

    bool isBusy() const { return m_analysing || m_microbenchRunning; }
    const std::optional<MicrobenchOutcome>& microbench() const { return m_microbench; }
    // The pair the plots show (null: none).
    const std::shared_ptr<const EmulationRun>& shownEmulation() const { return m_shownEmulation; }

    // Selected scatter points select their instructions in `selection`, with their ops; a
    // block bar selects the block.
    void setSelection(Selection* selection);

    // The microbenchmark's experiment for `target`: its first two paths reading main memory
    // (mncore2: mvp and mvb, as the seed), else its first two paths; 8..128 KiB per transfer.
    static emulator::MicrobenchSpec microbenchSpec(const target::Target& target);

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    void setEmulation(std::shared_ptr<const strata::gui::EmulationRun> run);
    void setMeasurement(std::shared_ptr<const strata::gui::MeasuredRun> run);
    void runMicrobench();
    void cancelMicrobench();
    void setSource(strata::gui::TransfersTab::Source source);

  signals:
    // The user selected events: `ids` of the shown prediction's program; the first is made current.
    void eventsSelected(const QVector<quint32>& ids);
    void busyChanged();
    void analysed();
    void microbenchFinished(bool ok);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void analyseWhenShown(); // now when visible, else when next shown
    void analyse();
    void show(const TransferAnalysis& analysis);
    void showThroughput();
    void showHistogram();
    void updateSummary();
    void setMicrobenchRunning(bool running);
    // Why the comparison plots are empty, and what to do.
    QString measureHint() const;
    void updateBanner();

    ScheduleDocument* m_document = nullptr;
    RevisionBanner* m_banner = nullptr;
    views::transfers::ThroughputPlot* m_throughput = nullptr;
    views::transfers::DurationScatter* m_scatter = nullptr;
    views::transfers::ErrorHistogram* m_histogram = nullptr;
    views::transfers::BlockErrorBars* m_blocks = nullptr;
    QComboBox* m_source = nullptr;
    QPushButton* m_runMicrobench = nullptr;
    QPushButton* m_cancelMicrobench = nullptr;
    QToolButton* m_calibrate = nullptr;
    QCheckBox* m_showComputes = nullptr;
    QComboBox* m_grouping = nullptr; // the histogram: all, transfers by kind, computes by op class
    QLabel* m_summary = nullptr;

    std::shared_ptr<const EmulationRun> m_emulation;
    std::shared_ptr<const MeasuredRun> m_measurement;
    std::shared_ptr<const EmulationRun> m_shownEmulation;
    bool m_shownMeasured = false;
    std::shared_ptr<const TransferAnalysis> m_analysis;
    std::optional<MicrobenchOutcome> m_microbench;
    // Two lanes: an analysis need not wait for a microbenchmark measuring. Last members, so
    // they are gone (their jobs waited for) before what the jobs' outcomes touch.
    bool m_analysing = false;
    bool m_stale = false; // runs changed while the tab was hidden
    bool m_microbenchRunning = false;
    JobLane m_analysisJobs{this};
    JobLane m_microbenchJobs{this};
    Activity* m_activity = nullptr;
};

} // namespace strata::gui

#pragma once
// The runs the Compare tab picks from, kept for the session: emulations the user pinned (Pin
// Run), every Run on Host (its prediction and its measurement, two entries) and trace files
// imported (File → Import Trace…, loaded and validated in the background by trace::importTrace;
// a bad file is a diagnostic, never a crash). Entries are immutable and only ever appended.

#include "base/Diagnostic.h"
#include "runs/EmulationRun.h"
#include "runs/MeasuredRun.h"
#include "trace/Trace.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

namespace strata::gui {

struct RunEntry {
    enum class Kind { Pinned, HostPrediction, HostMeasurement, Imported };
    Kind kind = Kind::Pinned;
    QString name;      // what the pickers show
    QString shortName; // timeline rows: "measured #1", "pinned rev 3"
    std::shared_ptr<const trace::Trace> trace;
    std::uint64_t revision = 0; // the schedule revision run; 0 for files
};

class RunList : public QObject {
    Q_OBJECT

  public:
    explicit RunList(QObject* parent = nullptr);

    const std::vector<RunEntry>& entries() const { return m_entries; }
    int size() const { return static_cast<int>(m_entries.size()); }
    QStringList names() const;
    bool isImporting() const { return m_importing > 0; }

    // Pins `run`, named by revision, target, strategy and total (on timeline rows `shortName`,
    // or "pinned rev N"); returns its index.
    int pin(std::shared_ptr<const EmulationRun> run, const QString& strategy,
            const QString& shortName = {});
    // Adds a run on this computer as two entries (prediction, then measurement); returns the
    // first index.
    int addHostRun(std::shared_ptr<const MeasuredRun> run);
    // Imports `path` in the background; imported() or importFailed() reports.
    void importFile(const QString& path);

  signals:
    // Entries [first, first + count) were appended.
    void added(int first, int count);
    void imported(int index);
    void importFailed(const QString& path, const std::vector<strata::Diagnostic>& diagnostics);

  private:
    int append(std::vector<RunEntry> entries);

    std::vector<RunEntry> m_entries;
    int m_hostRuns = 0;
    int m_importing = 0;
};

// "1.23 ms" of a trace's total.
QString runTotalText(const trace::Trace& trace);

} // namespace strata::gui

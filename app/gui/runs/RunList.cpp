#include "runs/RunList.h"

#include "jobs/JobRunner.h"
#include "trace/TraceSummary.h"
#include "trace/TraceValidate.h"
#include "views/timeline/TimeFormat.h"

#include <QFileInfo>

namespace strata::gui {

namespace {

QString targetLabel(const QString& target) {
    return target.endsWith(QLatin1String(".json")) ? QFileInfo(target).completeBaseName() : target;
}

// The document revision `run` is of; 0 for a search candidate's.
std::uint64_t numberOf(const EmulationRun& run) {
    return run.revision ? run.revision->number : 0;
}

} // namespace

QString runTotalText(const trace::Trace& trace) {
    return views::timeline::formatDuration(double(trace.endPs()));
}

RunList::RunList(QObject* parent) : QObject(parent) {}

QStringList RunList::names() const {
    QStringList out;
    for (const RunEntry& e : m_entries)
        out << e.name;
    return out;
}

int RunList::append(std::vector<RunEntry> entries) {
    const int first = size();
    const int count = static_cast<int>(entries.size());
    for (RunEntry& e : entries)
        m_entries.push_back(std::move(e));
    emit added(first, count);
    return first;
}

int RunList::pin(std::shared_ptr<const EmulationRun> run, const QString& strategy,
                 const QString& shortName) {
    RunEntry e;
    e.kind = RunEntry::Kind::Pinned;
    e.revision = numberOf(*run);
    e.name = tr("Pinned: rev %1 \u00b7 %2 \u00b7 %3 \u00b7 %4")
                 .arg(e.revision)
                 .arg(targetLabel(run->targetName), strategy, runTotalText(run->trace));
    e.shortName = shortName.isEmpty() ? tr("pinned rev %1").arg(e.revision) : shortName;
    // Shares the run's trace: the alias keeps the run alive.
    e.trace = std::shared_ptr<const trace::Trace>(run, &run->trace);
    return append({std::move(e)});
}

int RunList::addHostRun(std::shared_ptr<const MeasuredRun> run) {
    const int number = ++m_hostRuns;
    const std::shared_ptr<const EmulationRun>& emulation = run->emulation;
    RunEntry predicted;
    predicted.kind = RunEntry::Kind::HostPrediction;
    predicted.revision = numberOf(*emulation);
    predicted.name = tr("Run on host #%1: predicted \u00b7 rev %2 \u00b7 %3")
                         .arg(number)
                         .arg(predicted.revision)
                         .arg(runTotalText(emulation->trace));
    predicted.shortName = tr("predicted #%1").arg(number);
    predicted.trace = std::shared_ptr<const trace::Trace>(emulation, &emulation->trace);
    RunEntry measured;
    measured.kind = RunEntry::Kind::HostMeasurement;
    measured.revision = numberOf(*emulation);
    measured.name = tr("Run on host #%1: measured \u00b7 rev %2 \u00b7 %3")
                        .arg(number)
                        .arg(predicted.revision)
                        .arg(runTotalText(run->measured));
    measured.shortName = tr("measured #%1").arg(number);
    measured.trace = std::shared_ptr<const trace::Trace>(run, &run->measured);
    return append({std::move(predicted), std::move(measured)});
}

void RunList::importFile(const QString& path) {
    ++m_importing;
    using Result = Expected<trace::LoadedTrace>;
    // Imports are independent: each is a job of its own, none superseded.
    auto import = [file = path.toStdString()] {
        return std::make_shared<Result>(trace::importTrace(file));
    };
    auto show = [this, path](std::shared_ptr<Result> result) {
        --m_importing;
        if (!*result) {
            emit importFailed(path, result->diagnostics());
            return;
        }
        RunEntry e;
        e.kind = RunEntry::Kind::Imported;
        auto trace = std::make_shared<const trace::Trace>(std::move((*result)->trace));
        const std::string_view source = trace::sourceName(trace->source);
        e.name = tr("File: %1 (%2) \u00b7 %3")
                     .arg(QFileInfo(path).fileName(),
                          QString::fromUtf8(source.data(), static_cast<qsizetype>(source.size())),
                          runTotalText(*trace));
        e.shortName = QFileInfo(path).fileName();
        e.trace = std::move(trace);
        emit imported(append({std::move(e)}));
    };
    JobRunner::instance().runOnce<std::shared_ptr<Result>>(this, std::move(import),
                                                           std::move(show));
}

} // namespace strata::gui

#include "tabs/HeatOverlay.h"

#include "controllers/EmulateController.h"
#include "controllers/MeasureController.h"
#include "document/ScheduleDocument.h"
#include "document/SchedulePresentation.h"
#include "trace/BlockError.h"
#include "trace/TraceSummary.h"
#include "views/Format.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"

#include <cmath>

namespace strata::gui {

namespace {

QString bytesText(double bytes) {
    return views::formatBytes(static_cast<std::uint64_t>(bytes));
}

QString percentText(double fraction) {
    return QStringLiteral("%1%").arg(100 * fraction, 0, 'f', 1);
}

// |predicted - measured| / measured per block of one run on this computer (trace/BlockError.h),
// for the blocks measured to take time.
std::unordered_map<int, double> predictionErrors(const MeasuredRun& run) {
    std::vector<trace::BlockError> restored; // a run restored from a project carries none
    if (run.blockErrors.empty())
        restored = trace::blockErrors(trace::summarize(run.emulation->trace),
                                      trace::summarize(run.measured));
    std::unordered_map<int, double> errors;
    for (const trace::BlockError& e : run.blockErrors.empty() ? restored : run.blockErrors)
        if (e.measuredPs > 0)
            errors[e.block] = std::abs(e.error);
    return errors;
}

} // namespace

HeatOverlay::HeatOverlay(views::graph::GraphView* view, ScheduleDocument* document,
                         EmulateController* emulation, QObject* parent)
    : QObject(parent), m_view(view), m_document(document), m_emulation(emulation) {
    connect(m_view, &views::graph::GraphView::heatModeChanged, this, &HeatOverlay::refresh);
    connect(m_emulation, &EmulateController::predictionsShown, this, &HeatOverlay::refresh);
    connect(m_document, &ScheduleDocument::snapshotChanged, this, &HeatOverlay::refresh);
    connect(m_document, &ScheduleDocument::revisionChanged, this, &HeatOverlay::refresh);
}

void HeatOverlay::setMeasureController(MeasureController* measure) {
    m_measure = measure;
    connect(m_measure, &MeasureController::measured, this, &HeatOverlay::refresh);
    refresh();
}

void HeatOverlay::refresh() {
    const bool measured = m_measure && m_measure->isCurrent();
    m_view->setHeatModeAvailable(
        views::graph::HeatMode::PredictionError, measured,
        measured ? QString() : tr("Needs a measured run of this schedule (Run on Host, Ctrl+R)"));
    using views::graph::HeatMode;
    switch (m_view->heatMode()) {
    case HeatMode::Off:
        m_view->setHeat({}, nullptr);
        return;
    case HeatMode::PredictedTime:
        m_view->setHeat(m_emulation->predictions(), &views::graph::formatSeconds,
                        m_emulation->isEmulating() ? tr("Predicting\u2026")
                                                   : tr("No prediction yet (Emulate, F5)"));
        return;
    case HeatMode::DramBytes: {
        std::unordered_map<int, double> values;
        for (const views::graph::BlockBadge& badge : badgesOf(m_document->snapshot()))
            if (badge.dramBytes)
                values[badge.block] = static_cast<double>(*badge.dramBytes);
        m_view->setHeat(values, &bytesText, tr("The schedule is being checked"));
        return;
    }
    case HeatMode::PredictionError:
        if (measured)
            m_view->setHeat(predictionErrors(*m_measure->last()), &percentText, QString());
        else
            m_view->setHeat({}, nullptr, tr("Needs a measured run (Run on Host, Ctrl+R)"));
        return;
    }
}

} // namespace strata::gui

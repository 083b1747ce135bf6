#include "HeatOverlay.h"

#include "EmulateController.h"
#include "ScheduleDocument.h"
#include "SchedulePresentation.h"
#include "views/Format.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"

namespace strata::gui {

namespace {

QString bytesText(double bytes) {
    return views::formatBytes(static_cast<std::uint64_t>(bytes));
}

} // namespace

HeatOverlay::HeatOverlay(views::graph::GraphView* view, ScheduleDocument* document,
                         EmulateController* emulation, QObject* parent)
    : QObject(parent), m_view(view), m_document(document), m_emulation(emulation) {
    connect(m_view, &views::graph::GraphView::heatModeChanged, this, &HeatOverlay::refresh);
    connect(m_emulation, &EmulateController::predictionsShown, this, &HeatOverlay::refresh);
    connect(m_document, &ScheduleDocument::snapshotChanged, this, &HeatOverlay::refresh);
    connect(m_document, &ScheduleDocument::scheduleChanged, this, &HeatOverlay::refresh);
}

void HeatOverlay::refresh() {
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
        m_view->setHeat({}, nullptr, tr("Needs a measured run"));
        return;
    }
}

} // namespace strata::gui

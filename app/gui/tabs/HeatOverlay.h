#pragma once
// Feeds the graph view's heat overlay: when the user picks a mode in the view's combo, and
// whenever the schedule or its prediction changes, it hands the view one value per block
// (predicted time from the EmulateController, DRAM bytes from the schedule check, prediction
// error from the last Run on Host of the current schedule: |predicted - measured| / measured per
// block). The error mode is available once such a run exists.

#include <QObject>

namespace strata::views::graph {
class GraphView;
}

namespace strata::gui {

class EmulateController;
class MeasureController;
class ScheduleDocument;

class HeatOverlay : public QObject {
    Q_OBJECT

  public:
    HeatOverlay(views::graph::GraphView* view, ScheduleDocument* document,
                EmulateController* emulation, QObject* parent);

    // Prediction error from `measure`'s runs (optional; without it the mode stays unavailable).
    void setMeasureController(MeasureController* measure);

    // Recomputes the values of the mode shown.
    void refresh();

  private:
    views::graph::GraphView* m_view;
    ScheduleDocument* m_document;
    EmulateController* m_emulation;
    MeasureController* m_measure = nullptr;
};

} // namespace strata::gui

#pragma once
// Feeds the graph view's heat overlay: when the user picks a mode in the view's combo, and
// whenever the schedule or its prediction changes, it hands the view one value per block
// (predicted time from the EmulateController, DRAM bytes from the schedule check). Prediction
// error stays unavailable until the app has a measured run to compare with.

#include <QObject>

namespace strata::views::graph {
class GraphView;
}

namespace strata::gui {

class EmulateController;
class ScheduleDocument;

class HeatOverlay : public QObject {
    Q_OBJECT

  public:
    HeatOverlay(views::graph::GraphView* view, ScheduleDocument* document,
                EmulateController* emulation, QObject* parent);

    // Recomputes the values of the mode shown.
    void refresh();

  private:
    views::graph::GraphView* m_view;
    ScheduleDocument* m_document;
    EmulateController* m_emulation;
};

} // namespace strata::gui

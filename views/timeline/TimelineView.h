#pragma once
// The Timeline tab's widget: a time ruler, one row per lane (per core its compute stream and its
// transfer paths; two runs paired or overlaid), counter tracks (bandwidth per path, SRAM per
// core), and a side panel with the statistics of a selected range. QCustomPlot draws the ruler
// and the counters; the lanes are a plottable painting a frame built beforehand (folded draw
// lists, core/timeline). Wheel zooms about the cursor, drag pans, Shift+drag selects a range,
// Ctrl+drag (or right-drag) zooms to a box; +/-, arrows, F (fit), Z (zoom to the range).

#include "timeline/CounterSeries.h"
#include "timeline/Frame.h"
#include "timeline/RangeStats.h"
#include "timeline/TimelineData.h"
#include "views/timeline/RowGeometry.h"
#include "views/timeline/TimelineStyle.h"

#include <QSharedPointer>
#include <QWidget>
#include <memory>
#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QCPAxisRect;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QPushButton;
class QRubberBand;
class QScrollBar;
class QStackedWidget;
class QTableView;

namespace strata::views::timeline {

class LanesPlottable;
class RangeStatsModel;
class TimeTicker;

class TimelineView : public QWidget {
    Q_OBJECT

  public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // Shows `traces` on one axis, labelled by `names` (empty names: the traces' sources). No
    // traces: the empty state. A zoom the user chose stays (re-emulation after an edit); the
    // first timeline, and one still showing the whole run, is fitted to the longest run.
    void setTraces(std::vector<std::shared_ptr<const trace::Trace>> traces, std::vector<std::string> names = {});
    // The empty state with `message`.
    void showMessage(const QString& message);
    // The action the empty state's button triggers (Open Trace…).
    void setOpenAction(QAction* action);

    const std::shared_ptr<const strata::timeline::TimelineData>& data() const { return m_data; }
    const std::vector<strata::timeline::Row>& rows() const { return m_rows; }
    const strata::timeline::Viewport& viewport() const { return m_view; }
    const strata::timeline::Frame& frame() const { return m_frame; }
    bool isShowingTimeline() const;

    void setColorMode(ColorMode mode);
    void setRowMode(strata::timeline::RowMode mode);
    ColorMode colorMode() const { return m_colors; }
    strata::timeline::RowMode rowMode() const { return m_rowMode; }

    void fit();
    void zoomToRange(double fromPs, double toPs);
    void zoomAbout(double eventAreaX, double factor);
    void pan(double dx);
    // Selects [fromPs, toPs) and shows its statistics in the side panel.
    void selectRange(std::int64_t fromPs, std::int64_t toPs);
    void clearRange();
    std::optional<std::pair<std::int64_t, std::int64_t>> selectedRange() const { return m_range; }
    RangeStatsModel* rangeModel() const { return m_rangeModel; }

    // The event (trace, index into its events) drawn under `pos` (plot widget coordinates), if
    // one event is drawn alone there; folds answer with their first event and count.
    struct Hit {
        strata::timeline::LaneRef lane;
        std::uint32_t position = 0;  // in the lane
        std::uint32_t count = 1;     // > 1: a fold
        std::uint32_t eventIndex = 0;
    };
    std::optional<Hit> hitAt(const QPoint& pos) const;
    // The hover text at `pos`, empty over nothing.
    QString toolTipAt(const QPoint& pos) const;
    // What a click at `pos` does: selects the event (emits eventSelected) or zooms into a fold.
    void clickAt(const QPoint& pos);
    std::optional<Hit> selectedEvent() const { return m_selected; }

    QCustomPlot* plot() const { return m_plot; }
    // The event area in plot widget coordinates.
    QRect eventArea() const;

  signals:
    // The user clicked an event: its trace and instruction id.
    void eventSelected(int trace, quint32 instructionId);
    void rangeSelected(qint64 fromPs, qint64 toPs);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QWidget* createToolbar();
    QWidget* createSidePanel();
    void rebuildPlot();
    void addCounterTracks();
    void applyView();
    void rebuildFrame();
    void updateLegend();
    void updateScrollBar();
    void showWholeRun();
    void updateCounters();
    std::vector<strata::timeline::RangeStats> statsOf(std::int64_t fromPs, std::int64_t toPs) const;
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void onWheel(QWheelEvent* event);
    bool onKey(QKeyEvent* event);
    void paintLanes(QPainter& painter, const QRectF& area);

    std::shared_ptr<const strata::timeline::TimelineData> m_data;
    std::vector<strata::timeline::Row> m_rows;
    RowGeometry m_geometry;
    strata::timeline::Frame m_frame;
    strata::timeline::Viewport m_view;
    TimelineStyle m_style;
    ColorMode m_colors = ColorMode::Block;
    strata::timeline::RowMode m_rowMode = strata::timeline::RowMode::Paired;
    double m_scrollY = 0;
    bool m_fitted = true; // the view shows the whole run: new traces are fitted too
    std::optional<std::pair<std::int64_t, std::int64_t>> m_range;
    std::optional<Hit> m_selected;

    enum class Drag { None, Pan, Range, Box } m_drag = Drag::None;
    QPoint m_pressPos;
    strata::timeline::Viewport m_pressView;
    bool m_moved = false;

    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_openButton = nullptr;
    QCustomPlot* m_plot = nullptr;
    QCPAxisRect* m_lanesRect = nullptr;
    QSize m_laidOut; // the lanes' size the frame was last built for
    std::vector<QCPAxisRect*> m_counterRects;
    struct CounterTrack {
        QCPGraph* graph = nullptr;
        std::shared_ptr<const strata::timeline::CounterSeries> series;
        double scale = 1;
    };
    std::vector<CounterTrack> m_counters;
    LanesPlottable* m_lanes = nullptr;
    QSharedPointer<TimeTicker> m_ticker;
    QScrollBar* m_scroll = nullptr;
    QRubberBand* m_rubberBand = nullptr;
    QComboBox* m_colorBox = nullptr;
    QComboBox* m_rowBox = nullptr;
    QCheckBox* m_cycles = nullptr;
    QLabel* m_legend = nullptr;
    QLabel* m_info = nullptr;
    QLabel* m_rangeLabel = nullptr;
    QTableView* m_rangeTable = nullptr;
    RangeStatsModel* m_rangeModel = nullptr;
};

} // namespace strata::views::timeline

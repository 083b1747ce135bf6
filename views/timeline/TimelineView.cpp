#include "views/timeline/TimelineView.h"

#include "timeline/RangeStats.h"
#include "views/Format.h"
#include "views/graph/GraphStyle.h"
#include "views/timeline/CompactHeader.h"
#include "views/timeline/FramePainter.h"
#include "views/timeline/LanesPlottable.h"
#include "views/timeline/RangeStatsModel.h"
#include "views/timeline/TimeFormat.h"
#include "views/timeline/TimeTicker.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QRubberBand>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <unordered_map>

namespace strata::views::timeline {

using strata::timeline::Row;
using strata::timeline::RowMode;
using strata::timeline::TimelineData;

namespace {

constexpr double kZoomStep = 1.25;  // one wheel notch
constexpr int kDragThreshold = 4;   // pixels before a press becomes a drag
constexpr int kCounterHeight = 86;

QString html(const QString& text) { return text.toHtmlEscaped(); }

// Paths' colours for the bandwidth track: the kind colours would make every path green.
QColor seriesColor(std::size_t index) {
    static constexpr QRgb kColors[] = {0x2563EB, 0xDC2626, 0x059669, 0xD97706, 0x7C3AED, 0x0891B2, 0xDB2777, 0x4B5563};
    return QColor::fromRgb(kColors[index % std::size(kColors)]);
}

void styleAxis(QCPAxis* axis, const TimelineStyle& style) {
    axis->setBasePen(QPen(style.separator));
    axis->setTickPen(QPen(style.separator));
    axis->setSubTickPen(QPen(style.separator));
    axis->setTickLabelColor(style.mutedText);
    axis->setLabelColor(style.mutedText);
    axis->setTickLabelFont(style.labelFont);
    axis->setLabelFont(style.labelFont);
    axis->grid()->setPen(QPen(QColor(0xE5, 0xE8, 0xEC), 0, Qt::SolidLine));
    axis->grid()->setSubGridVisible(false);
}

} // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), m_style(TimelineStyle::standard()) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    outer->addWidget(createToolbar());

    m_stack = new QStackedWidget;
    // The empty state.
    auto* empty = new QWidget;
    auto* emptyLayout = new QVBoxLayout(empty);
    emptyLayout->addStretch(2);
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("timelineMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #5F6670; font-size: 14px;"));
    emptyLayout->addWidget(m_message);
    m_openButton = new QPushButton;
    m_openButton->hide();
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addStretch();
    buttonRow->addWidget(m_openButton);
    buttonRow->addStretch();
    emptyLayout->addLayout(buttonRow);
    emptyLayout->addStretch(3);
    m_stack->addWidget(empty);

    // The timeline: plot and scroll bar on the left, the range panel on the right.
    auto* splitter = new QSplitter(Qt::Horizontal);
    auto* plotPane = new QWidget;
    auto* plotRow = new QHBoxLayout(plotPane);
    plotRow->setContentsMargins(0, 0, 0, 0);
    plotRow->setSpacing(0);
    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("timelinePlot"));
    m_plot->setFocusPolicy(Qt::StrongFocus);
    m_plot->setMouseTracking(true);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setPlottingHints(QCP::phFastPolylines | QCP::phCacheLabels);
    m_plot->setAutoAddPlottableToLegend(false); // each counter track has its own legend
    m_plot->installEventFilter(this);
    m_plot->setBackground(m_style.background);
    plotRow->addWidget(m_plot, 1);
    m_scroll = new QScrollBar(Qt::Vertical);
    plotRow->addWidget(m_scroll);
    connect(m_scroll, &QScrollBar::valueChanged, this, [this](int value) {
        m_scrollY = value;
        applyView();
    });
    splitter->addWidget(plotPane);
    splitter->addWidget(createSidePanel());
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);
    splitter->setSizes({1150, 400});
    m_stack->addWidget(splitter);
    outer->addWidget(m_stack, 1);

    m_ticker = QSharedPointer<TimeTicker>::create();
    m_rubberBand = new QRubberBand(QRubberBand::Rectangle, m_plot);
    connect(m_plot, &QCustomPlot::mousePress, this, &TimelineView::onMousePress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TimelineView::onMouseMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &TimelineView::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseWheel, this, &TimelineView::onWheel);
    // The event area's width is known once QCustomPlot has laid out; keep the span on resize.
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (!m_lanesRect || !m_data || m_lanesRect->rect().size() == m_laidOut)
            return;
        m_laidOut = m_lanesRect->rect().size();
        const double width = std::max(1, m_lanesRect->width());
        if (width != m_view.widthPx) {
            m_view.psPerPixel *= m_view.widthPx / width;
            m_view.widthPx = width;
        }
        // About 100 px per time label, so a narrow pane (the Compare tab) gets fewer, unclipped
        // ones.
        const int ticks = std::clamp(static_cast<int>(width / 100), 2, 5);
        if (ticks != m_ticker->tickCount()) {
            m_ticker->setTickCount(ticks);
            m_plot->replot(
                QCustomPlot::rpQueuedReplot); // the axes took their ticks before this layout
        }
        updateScrollBar();
        // Ranges set here apply to the replot in progress.
        for (QCPAxisRect* rect : m_plot->axisRects())
            for (QCPAxis* axis : rect->axes(QCPAxis::atBottom | QCPAxis::atTop))
                axis->setRange(m_view.startPs, m_view.endPs());
        m_lanesRect->axis(QCPAxis::atLeft)->setRange(m_scrollY, m_scrollY + m_lanesRect->height());
        rebuildFrame();
        updateCounters();
        // The margins were laid out for the old range's labels: once more with the rows' labels.
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });

    showMessage(tr("No trace to show.\nOpen a trace (File \u2192 Open Trace\u2026) or emulate the model."));
}

TimelineView::~TimelineView() = default;

QWidget* TimelineView::createToolbar() {
    auto* bar = new QWidget;
    bar->setObjectName(QStringLiteral("timelineToolbar"));
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(8, 4, 8, 4);
    row->addWidget(new QLabel(tr("Colour by")));
    m_colorBox = new QComboBox;
    m_colorBox->addItems({tr("Block"), tr("Kind")});
    connect(m_colorBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setColorMode(index == 0 ? ColorMode::Block : ColorMode::Kind); });
    row->addWidget(m_colorBox);
    row->addSpacing(8);
    row->addWidget(new QLabel(tr("Runs")));
    m_rowBox = new QComboBox;
    m_rowBox->addItems({tr("Paired"), tr("Overlaid")});
    connect(m_rowBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setRowMode(index == 0 ? RowMode::Paired : RowMode::Overlaid); });
    row->addWidget(m_rowBox);
    row->addSpacing(8);
    m_cycles = new QCheckBox(tr("Cycles"));
    m_cycles->setToolTip(tr("Label the ruler in cycles of the trace's clock"));
    connect(m_cycles, &QCheckBox::toggled, this, [this](bool on) {
        const double clock = m_data && !m_data->traces().empty() ? m_data->traces().front()->clockHz : 0;
        m_ticker->setCycles(on ? clock : 0);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    });
    row->addWidget(m_cycles);
    auto* fitButton = new QPushButton(tr("Fit"));
    fitButton->setToolTip(tr("Show the whole run (F)"));
    connect(fitButton, &QPushButton::clicked, this, &TimelineView::fit);
    row->addWidget(fitButton);
    auto* zoomRange = new QPushButton(tr("Zoom to range"));
    zoomRange->setToolTip(tr("Zoom to the selected range (Z); Shift+drag selects a range"));
    connect(zoomRange, &QPushButton::clicked, this, [this] {
        if (m_range)
            zoomToRange(static_cast<double>(m_range->first), static_cast<double>(m_range->second));
    });
    row->addWidget(zoomRange);
    row->addSpacing(12);
    m_legend = new QLabel;
    m_legend->setObjectName(QStringLiteral("timelineLegend"));
    // Clipped rather than widening the window: the tab must not set the window's minimum width.
    m_legend->setMinimumWidth(1);
    row->addWidget(m_legend);
    row->addStretch(1);
    updateLegend();
    return bar;
}

QWidget* TimelineView::createSidePanel() {
    auto* panel = new QWidget;
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(6, 6, 6, 6);
    auto* runs = new QLabel(tr("Runs"));
    runs->setStyleSheet(QStringLiteral("font-weight: bold;"));
    column->addWidget(runs);
    m_info = new QLabel;
    m_info->setObjectName(QStringLiteral("timelineInfo"));
    m_info->setWordWrap(true);
    m_info->setTextFormat(Qt::RichText);
    column->addWidget(m_info);
    column->addSpacing(6);
    auto* title = new QLabel(tr("Time in range"));
    title->setStyleSheet(QStringLiteral("font-weight: bold;"));
    column->addWidget(title);
    m_rangeLabel = new QLabel(tr("Shift+drag on the lanes to select a time range."));
    m_rangeLabel->setWordWrap(true);
    m_rangeLabel->setStyleSheet(QStringLiteral("color: #5F6670;"));
    column->addWidget(m_rangeLabel);
    m_rangeModel = new RangeStatsModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_rangeModel);
    proxy->setSortRole(RangeStatsModel::SortRole);
    m_rangeTable = new QTableView;
    m_rangeTable->setObjectName(QStringLiteral("rangeTable"));
    m_rangeTable->setHorizontalHeader(new CompactHeader(m_rangeTable));
    m_rangeTable->setModel(proxy);
    m_rangeTable->setSortingEnabled(true);
    m_rangeTable->verticalHeader()->hide();
    m_rangeTable->verticalHeader()->setDefaultSectionSize(20);
    m_rangeTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_rangeTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rangeTable->setAlternatingRowColors(true);
    m_rangeTable->setColumnHidden(0, true); // the names say it: kinds, paths, B<n> with their colour
    column->addWidget(m_rangeTable, 1);
    return panel;
}

void TimelineView::setOpenAction(QAction* action) {
    m_openButton->setText(action ? action->text().remove(QLatin1Char('&')) : QString());
    m_openButton->setVisible(action != nullptr);
    m_openButton->disconnect();
    if (action)
        connect(m_openButton, &QPushButton::clicked, action, &QAction::trigger);
}

void TimelineView::showMessage(const QString& message) {
    m_message->setText(message);
    m_stack->setCurrentIndex(0);
}

bool TimelineView::isShowingTimeline() const { return m_stack->currentIndex() == 1; }

void TimelineView::setTraces(std::vector<std::shared_ptr<const trace::Trace>> traces, std::vector<std::string> names) {
    std::erase(traces, nullptr);
    const bool keepView = m_data != nullptr && isShowingTimeline();
    std::size_t events = 0;
    for (const auto& t : traces)
        events += t->events.size();
    if (traces.empty() || events == 0) {
        m_data.reset();
        showMessage(traces.empty() ? tr("No trace to show.\nOpen a trace (File \u2192 Open Trace\u2026) or emulate the model.")
                                   : tr("The trace has no events."));
        return;
    }
    m_data = std::make_shared<const TimelineData>(std::move(traces), std::move(names));
    m_rows = m_data->rows(m_rowMode);
    m_geometry = RowGeometry::of(m_rows, m_style);
    m_selected.reset();
    m_range.reset();
    m_scrollY = 0;
    const double clock = m_data->traces().front()->clockHz;
    m_cycles->setEnabled(clock > 0);
    m_ticker->setCycles(m_cycles->isChecked() ? clock : 0);

    QStringList info;
    for (std::size_t t = 0; t < m_data->traces().size(); ++t) {
        const trace::Trace& run = *m_data->traces()[t];
        info << QStringLiteral("<b>%6 \u00b7 %1</b><br>&nbsp;&nbsp;%2 events \u00b7 %3 \u00b7 %4 cores%5")
                    .arg(html(QString::fromStdString(m_data->name(t))), formatInteger(run.events.size()),
                         formatDuration(static_cast<double>(run.endPs())), QString::number(run.cores),
                         run.target.empty() ? QString() : QStringLiteral(" \u00b7 ") + html(QString::fromStdString(run.target)))
                    .arg(t + 1);
    }
    m_info->setText(info.join(QStringLiteral("<br>")));
    m_stack->setCurrentIndex(1);
    rebuildPlot();
    // A new emulation after an edit keeps the user's zoom; a first timeline, or one the user
    // had not zoomed (a measured run arriving next to its prediction), shows every run whole.
    if (keepView && !m_fitted) {
        applyView();
    } else {
        m_view.widthPx = std::max(1, m_lanesRect->width());
        fit();
    }
    showWholeRun();
}

void TimelineView::showWholeRun() {
    if (!m_data) {
        m_rangeModel->setStats(nullptr, {});
        return;
    }
    m_rangeModel->setStats(m_data, statsOf(0, m_data->endPs()));
    m_rangeLabel->setText(tr("The whole run. Shift+drag on the lanes to select a range."));
    m_rangeTable->sortByColumn(2, Qt::DescendingOrder);
}

std::vector<strata::timeline::RangeStats> TimelineView::statsOf(std::int64_t fromPs, std::int64_t toPs) const {
    std::vector<strata::timeline::RangeStats> stats;
    for (std::size_t t = 0; t < m_data->traces().size(); ++t)
        stats.push_back(strata::timeline::rangeStats(*m_data->traces()[t], m_data->lanes(t), fromPs, toPs));
    return stats;
}

void TimelineView::rebuildPlot() {
    m_plot->clearPlottables();
    m_counters.clear();
    m_plot->plotLayout()->clear(); // deletes the old axis rects
    m_counterRects.clear();
    m_lanesRect = new QCPAxisRect(m_plot);
    m_laidOut = QSize();
    m_plot->plotLayout()->addElement(0, 0, m_lanesRect);
    auto* margins = new QCPMarginGroup(m_plot);
    m_lanesRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_lanesRect->setupFullAxesBox(false);
    m_lanesRect->setMinimumMargins(QMargins(0, 0, 0, 0));
    QCPAxis* top = m_lanesRect->axis(QCPAxis::atTop);
    QCPAxis* bottom = m_lanesRect->axis(QCPAxis::atBottom);
    QCPAxis* left = m_lanesRect->axis(QCPAxis::atLeft);
    top->setTicker(m_ticker);
    top->setTickLabels(true);
    bottom->setTicker(m_ticker);
    bottom->setTickLabels(false);
    for (QCPAxis* axis : m_lanesRect->axes())
        styleAxis(axis, m_style);
    m_lanesRect->axis(QCPAxis::atRight)->setTicks(false);
    // The rows' labels are the left axis's ticks, at each row's middle; rows go down the page.
    auto labels = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t r = 0; r < m_rows.size(); ++r)
        labels->addTick(m_geometry.top[r] + m_geometry.rowHeight(r) / 2, QString::fromStdString(m_rows[r].label));
    left->setTicker(labels);
    left->setRangeReversed(true);
    left->setSubTicks(false);
    left->setTickLength(0);
    left->grid()->setVisible(false);
    left->setTickLabelColor(m_style.text);
    top->grid()->setVisible(true);

    m_lanes = new LanesPlottable(bottom, left, [this](QPainter& painter, const QRectF& area) { paintLanes(painter, area); });
    addCounterTracks();
    for (QCPAxisRect* rect : m_counterRects)
        rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    if (!m_counterRects.empty()) {
        m_counterRects.back()->axis(QCPAxis::atBottom)->setTickLabels(true);
    } else {
        bottom->setTickLabels(true);
    }
    updateLegend();
}

void TimelineView::addCounterTracks() {
    // Bandwidth per path, then working memory per core; a second run's series dashed.
    for (const auto kind : {trace::Counter::Kind::PathBandwidth, trace::Counter::Kind::SramBytes}) {
        std::vector<std::pair<std::size_t, const trace::Counter*>> series;
        for (std::size_t t = 0; t < m_data->traces().size(); ++t)
            for (const trace::Counter& c : m_data->traces()[t]->counters)
                if (c.kind == kind && !c.samples.empty())
                    series.emplace_back(t, &c);
        if (series.empty())
            continue;
        auto* rect = new QCPAxisRect(m_plot);
        rect->setMinimumSize(0, kCounterHeight);
        rect->setMaximumSize(QWIDGETSIZE_MAX, kCounterHeight);
        rect->setupFullAxesBox(false);
        for (QCPAxis* axis : rect->axes())
            styleAxis(axis, m_style);
        rect->axis(QCPAxis::atBottom)->setTicker(m_ticker);
        rect->axis(QCPAxis::atBottom)->setTickLabels(false);
        rect->axis(QCPAxis::atTop)->setTicker(m_ticker);
        rect->axis(QCPAxis::atTop)->setTicks(false);
        rect->axis(QCPAxis::atRight)->setTicks(false);
        QCPAxis* value = rect->axis(QCPAxis::atLeft);
        value->setLabel(kind == trace::Counter::Kind::PathBandwidth ? tr("GB/s") : tr("MiB/core"));
        value->ticker()->setTickCount(3);
        const double scale = kind == trace::Counter::Kind::SramBytes ? 1.0 / (1024.0 * 1024.0) : 1.0;
        double maxValue = 0;
        std::size_t colour = 0;
        for (const auto& [t, counter] : series) {
            auto* graph = m_plot->addGraph(rect->axis(QCPAxis::atBottom), value);
            // Drawn as averages over 2-pixel buckets of the view (updateCounters), not sample by
            // sample: a busy path's bandwidth changes at every transfer.
            m_counters.push_back({graph, std::make_shared<strata::timeline::CounterSeries>(*counter), scale});
            maxValue = std::max(maxValue, m_counters.back().series->maxValue() * scale);
            graph->setLineStyle(QCPGraph::lsStepLeft);
            // Step lines are axis-parallel: no antialiasing, cosmetic pens (QCustomPlot's fast path).
            QPen pen(seriesColor(colour++), 1);
            pen.setCosmetic(true);
            if (t > 0)
                pen.setStyle(Qt::DashLine);
            graph->setPen(pen);
            graph->setAntialiased(false);
            const auto& paths = m_data->traces()[t]->paths;
            graph->setName(kind == trace::Counter::Kind::SramBytes ? QStringLiteral("core %1").arg(counter->index)
                           : counter->index < paths.size()         ? QString::fromStdString(paths[counter->index].name)
                                                                   : QStringLiteral("path %1").arg(counter->index));
            if (t > 0) // the legend names the first run's series; the others are dashed alike
                graph->setName(graph->name() + QStringLiteral(" \u2026"));
        }
        // The peak of the averages at full zoom-out is far below the instant peak: scale to
        // the averages (updateCounters widens the range when zooming in shows more).
        value->setRange(0, maxValue > 0 ? maxValue * 1.1 : 1);
        // A small legend inside the track names its series.
        auto* legend = new QCPLegend;
        rect->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
        legend->setLayer(QStringLiteral("legend"));
        legend->setFont(m_style.labelFont);
        legend->setBrush(QColor(255, 255, 255, 210));
        legend->setBorderPen(QPen(m_style.separator));
        legend->setIconSize(14, 8);
        legend->setRowSpacing(-3);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
        legend->setWrap(6);
        for (int g = 0; g < m_plot->graphCount(); ++g)
            if (m_plot->graph(g)->valueAxis() == value && !m_plot->graph(g)->name().endsWith(QStringLiteral("\u2026")))
                m_plot->graph(g)->addToLegend(legend);
        if (kind == trace::Counter::Kind::SramBytes)
            legend->setVisible(false); // one line per core: the axis says what they are
        m_plot->plotLayout()->addElement(m_plot->plotLayout()->rowCount(), 0, rect);
        m_counterRects.push_back(rect);
    }
}

void TimelineView::updateLegend() {
    const auto swatch = [](const QColor& c, const QString& text) {
        return QStringLiteral("<span style='color:%1'>\u25a0</span>&nbsp;%2").arg(c.name(), html(text));
    };
    QStringList parts;
    if (m_colors == ColorMode::Kind) {
        for (auto kind : {trace::EventKind::Compute, trace::EventKind::Transfer, trace::EventKind::Wait, trace::EventKind::Barrier})
            parts << swatch(kindColor(kind), QString::fromUtf8(trace::eventKindName(kind).data()));
    } else {
        parts << swatch(graph::blockColor(0), tr("block colours as in the graph"));
        parts << swatch(eventColor(ColorMode::Block, 0, trace::EventKind::Wait), tr("pale: waiting"));
        parts << swatch(kindColor(trace::EventKind::Barrier), tr("barrier"));
    }
    parts << tr("darker: many events folded");
    if (m_rowMode == RowMode::Overlaid && m_data && m_data->traces().size() > 1)
        parts << tr("outlines: %1").arg(QString::fromStdString(m_data->name(1)));
    m_legend->setText(parts.join(QStringLiteral("&nbsp;&nbsp;&nbsp;")));
}

void TimelineView::setColorMode(ColorMode mode) {
    m_colors = mode;
    {
        const QSignalBlocker block(m_colorBox);
        m_colorBox->setCurrentIndex(mode == ColorMode::Block ? 0 : 1);
    }
    updateLegend();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::setRowMode(RowMode mode) {
    {
        const QSignalBlocker block(m_rowBox);
        m_rowBox->setCurrentIndex(mode == RowMode::Paired ? 0 : 1);
    }
    if (mode == m_rowMode)
        return;
    m_rowMode = mode;
    if (!m_data) {
        updateLegend();
        return;
    }
    m_rows = m_data->rows(m_rowMode);
    m_geometry = RowGeometry::of(m_rows, m_style);
    m_scrollY = 0;
    const strata::timeline::Viewport keep = m_view;
    rebuildPlot();
    m_view = keep;
    applyView();
}

QRect TimelineView::eventArea() const { return m_lanesRect && m_data ? m_lanesRect->rect() : QRect(); }

void TimelineView::fit() {
    if (!m_data)
        return;
    m_view.fit(m_data->endPs());
    m_fitted = true;
    applyView();
}

void TimelineView::zoomToRange(double fromPs, double toPs) {
    m_view.zoomToRange(fromPs, toPs);
    m_fitted = false;
    applyView();
}

void TimelineView::zoomAbout(double eventAreaX, double factor) {
    m_view.zoomAbout(eventAreaX, factor);
    m_fitted = false;
    applyView();
}

void TimelineView::pan(double dx) {
    m_view.pan(dx);
    m_fitted = false;
    applyView();
}

void TimelineView::updateScrollBar() {
    const int visible = m_lanesRect ? m_lanesRect->height() : 0;
    const int maximum = std::max(0, static_cast<int>(std::ceil(m_geometry.height())) - visible);
    const QSignalBlocker block(m_scroll);
    m_scroll->setRange(0, maximum);
    m_scroll->setPageStep(std::max(visible, 1));
    m_scroll->setSingleStep(m_style.rowHeight);
    m_scroll->setVisible(maximum > 0);
    m_scrollY = std::clamp(m_scrollY, 0.0, static_cast<double>(maximum));
    m_scroll->setValue(static_cast<int>(m_scrollY));
}

void TimelineView::applyView() {
    if (!m_data || !m_lanesRect)
        return;
    for (QCPAxisRect* rect : m_plot->axisRects())
        for (QCPAxis* axis : rect->axes(QCPAxis::atBottom | QCPAxis::atTop))
            axis->setRange(m_view.startPs, m_view.endPs());
    m_lanesRect->axis(QCPAxis::atLeft)->setRange(m_scrollY, m_scrollY + m_lanesRect->height());
    rebuildFrame();
    updateCounters();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::updateCounters() {
    std::vector<double> keys;
    std::vector<double> values;
    std::unordered_map<QCPAxis*, double> peak;
    for (const CounterTrack& track : m_counters) {
        keys.clear();
        values.clear();
        track.series->buckets(m_view, 2, keys, values);
        QVector<double> k(keys.begin(), keys.end());
        QVector<double> v;
        v.reserve(static_cast<qsizetype>(values.size()));
        for (double value : values) {
            v << value * track.scale;
            peak[track.graph->valueAxis()] = std::max(peak[track.graph->valueAxis()], value * track.scale);
        }
        track.graph->setData(k, v, true);
    }
    for (const auto& [axis, value] : peak)
        axis->setRange(0, value > 0 ? value * 1.15 : 1);
}

void TimelineView::rebuildFrame() {
    if (!m_data || !m_lanesRect)
        return;
    const auto [first, last] = m_geometry.visible(m_scrollY, m_scrollY + m_lanesRect->height());
    strata::timeline::buildFrame(*m_data, m_rows, first, last, m_view, m_frame);
}

void TimelineView::paintLanes(QPainter& painter, const QRectF& area) {
    if (!m_data)
        return;
    PaintOptions options;
    options.colors = m_colors;
    options.rowMode = m_rowMode;
    options.scrollY = m_scrollY;
    if (m_selected)
        options.selected = std::make_pair(m_selected->lane, m_selected->position);
    paintFrame(painter, area, m_frame, *m_data, m_rows, m_geometry, m_style, options);
    if (m_range) { // the selected range over the lanes
        const double x0 = area.left() + m_view.toPixel(static_cast<double>(m_range->first));
        const double x1 = area.left() + m_view.toPixel(static_cast<double>(m_range->second));
        const QRectF band = QRectF(QPointF(x0, area.top()), QPointF(std::max(x1, x0 + 1), area.bottom())).intersected(area);
        painter.fillRect(band, m_style.rangeFill);
        painter.setPen(QPen(m_style.selection, 1));
        painter.drawLine(QPointF(x0, area.top()), QPointF(x0, area.bottom()));
        painter.drawLine(QPointF(x1, area.top()), QPointF(x1, area.bottom()));
    }
}

std::optional<TimelineView::Hit> TimelineView::hitAt(const QPoint& pos) const {
    const QRect area = eventArea();
    if (!area.contains(pos))
        return std::nullopt;
    const std::size_t row = m_geometry.rowAt(pos.y() - area.top() + m_scrollY);
    const double x = pos.x() - area.left();
    for (const strata::timeline::FrameLane& lane : m_frame.lanes) {
        if (lane.row != row)
            continue;
        // Items are in start order: the last one starting left of x (with a pixel of slack).
        const auto it = std::upper_bound(lane.items.begin(), lane.items.end(), x + 1,
                                         [](double px, const strata::timeline::DrawItem& item) { return px < item.x0; });
        for (auto candidate = it; candidate != lane.items.begin();) {
            --candidate;
            if (x <= std::max(candidate->x1, candidate->x0 + 1) + 1) {
                const auto& laneData = m_data->lane(lane.lane);
                return Hit{lane.lane, candidate->first, candidate->count, laneData.events[candidate->first]};
            }
            if (it - candidate > 8) // overlapping transfers: look back a few, not the whole lane
                break;
        }
    }
    return std::nullopt;
}

QString TimelineView::toolTipAt(const QPoint& pos) const {
    const auto hit = hitAt(pos);
    if (!hit)
        return {};
    const std::size_t traceIndex = hit->lane.trace;
    const trace::Trace& run = *m_data->traces()[traceIndex];
    const trace::Event& e = run.events[hit->eventIndex];
    if (hit->count > 1) {
        const auto& lane = m_data->lane(hit->lane);
        const std::size_t last = hit->position + hit->count - 1;
        const trace::Event& end = run.events[lane.events[last]];
        return tr("<b>%1 events</b> (%2)<br>%3 \u2013 %4<br>blocks B%5 \u2013 B%6<br><i>click or zoom in to see them</i>")
            .arg(formatInteger(hit->count), html(QString::fromStdString(m_data->name(traceIndex))),
                 formatDuration(static_cast<double>(e.startPs)), formatDuration(static_cast<double>(lane.endPs[last])))
            .arg(e.block)
            .arg(end.block);
    }
    QStringList lines;
    const std::string_view op = run.opName(e);
    lines << QStringLiteral("<b>%1</b>").arg(op.empty() ? QString::fromUtf8(trace::eventKindName(e.kind).data())
                                                         : html(QString::fromUtf8(op.data(), static_cast<qsizetype>(op.size()))));
    QString where = QStringLiteral("%1 \u00b7 core %2").arg(QString::fromUtf8(trace::eventKindName(e.kind).data())).arg(e.core);
    if (e.kind == trace::EventKind::Transfer)
        where += QStringLiteral(" \u00b7 ") + html(QString::fromUtf8(run.pathName(e).data(), static_cast<qsizetype>(run.pathName(e).size())));
    lines << where;
    QString provenance = e.block >= 0 ? QStringLiteral("block B%1").arg(e.block) : tr("no block");
    if (e.tile >= 0)
        provenance += tr(" \u00b7 tile %1").arg(e.tile);
    provenance += QStringLiteral(" \u00b7 i%1").arg(e.id, 6, 10, QLatin1Char('0'));
    lines << provenance;
    if (e.bytes > 0)
        lines << tr("bytes: %1").arg(formatBytes(e.bytes));
    lines << tr("start: %1").arg(formatDuration(static_cast<double>(e.startPs)));
    // Durations in every loaded run, matched by instruction id; the error of a prediction
    // against a measurement when there are both.
    std::optional<double> predicted;
    std::optional<double> measured;
    for (std::size_t t = 0; t < m_data->traces().size(); ++t) {
        const std::int64_t index = t == traceIndex ? hit->eventIndex : m_data->findById(t, e.id);
        if (index < 0)
            continue;
        const trace::Trace& other = *m_data->traces()[t];
        const double duration = static_cast<double>(other.events[static_cast<std::size_t>(index)].durationPs());
        QString line = tr("duration (%1): %2").arg(html(QString::fromStdString(m_data->name(t))), formatDuration(duration));
        if (other.clockHz > 0)
            line += QStringLiteral(" = %1 cycles").arg(QString::number(other.cycles(static_cast<std::int64_t>(duration)), 'f', 0));
        lines << line;
        auto& slot = other.source == trace::Source::Measured ? measured : predicted;
        if (!slot)
            slot = duration;
    }
    if (predicted && measured && *measured > 0)
        lines << tr("error: %1%").arg(QString::number((*predicted - *measured) / *measured * 100.0, 'f', 1));
    return lines.join(QStringLiteral("<br>"));
}

void TimelineView::clickAt(const QPoint& pos) {
    const auto hit = hitAt(pos);
    if (!hit) {
        m_selected.reset();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    if (hit->count > 1) { // a fold: zoom until its events show
        const auto& lane = m_data->lane(hit->lane);
        const std::size_t last = hit->position + hit->count - 1;
        const double from = static_cast<double>(lane.startPs[hit->position]);
        const double to = static_cast<double>(std::max(lane.endPs[last], lane.startPs[last] + 1));
        const double margin = (to - from) * 0.1;
        zoomToRange(from - margin, to + margin);
        return;
    }
    m_selected = hit;
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    emit eventSelected(static_cast<int>(hit->lane.trace), m_data->traces()[hit->lane.trace]->events[hit->eventIndex].id);
}

void TimelineView::selectRange(std::int64_t fromPs, std::int64_t toPs) {
    if (!m_data)
        return;
    if (toPs < fromPs)
        std::swap(fromPs, toPs);
    m_range = std::make_pair(fromPs, toPs);
    m_rangeModel->setStats(m_data, statsOf(fromPs, toPs));
    m_rangeLabel->setText(tr("%1 \u2013 %2 (%3). Time is summed over lanes: overlapping transfers add up.")
                              .arg(formatDuration(static_cast<double>(fromPs)), formatDuration(static_cast<double>(toPs)),
                                   formatDuration(static_cast<double>(toPs - fromPs))));
    m_rangeTable->sortByColumn(2, Qt::DescendingOrder);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    emit rangeSelected(fromPs, toPs);
}

void TimelineView::clearRange() {
    m_range.reset();
    showWholeRun();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::onMousePress(QMouseEvent* event) {
    if (!m_data)
        return;
    m_pressPos = event->pos();
    m_pressView = m_view;
    m_moved = false;
    if (event->button() == Qt::RightButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ControlModifier)))
        m_drag = Drag::Box;
    else if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier))
        m_drag = Drag::Range;
    else if (event->button() == Qt::LeftButton)
        m_drag = Drag::Pan;
}

void TimelineView::onMouseMove(QMouseEvent* event) {
    if (!m_data)
        return;
    if (m_drag == Drag::None) {
        const QString text = toolTipAt(event->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
        return;
    }
    if ((event->pos() - m_pressPos).manhattanLength() >= kDragThreshold)
        m_moved = true;
    if (!m_moved)
        return;
    const QRect area = eventArea();
    switch (m_drag) {
    case Drag::Pan: {
        m_view = m_pressView;
        m_view.pan(m_pressPos.x() - event->pos().x());
        m_fitted = false;
        const int dy = m_pressPos.y() - event->pos().y();
        if (dy != 0 && m_scroll->isVisible())
            m_scroll->setValue(m_scroll->value() + dy), m_pressPos.setY(event->pos().y());
        applyView();
        break;
    }
    case Drag::Range: {
        const double a = m_view.toPs(m_pressPos.x() - area.left());
        const double b = m_view.toPs(event->pos().x() - area.left());
        m_range = std::make_pair(static_cast<std::int64_t>(std::min(a, b)), static_cast<std::int64_t>(std::max(a, b)));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        break;
    }
    case Drag::Box:
        m_rubberBand->setGeometry(QRect(m_pressPos, event->pos()).normalized().intersected(
            QRect(area.left(), 0, area.width(), m_plot->height())));
        m_rubberBand->show();
        break;
    case Drag::None: break;
    }
}

void TimelineView::onMouseRelease(QMouseEvent* event) {
    if (!m_data)
        return;
    const Drag drag = std::exchange(m_drag, Drag::None);
    const QRect area = eventArea();
    if (!m_moved) {
        if (drag == Drag::Pan)
            clickAt(event->pos());
        m_rubberBand->hide();
        return;
    }
    if (drag == Drag::Range && m_range)
        selectRange(m_range->first, m_range->second);
    if (drag == Drag::Box) {
        m_rubberBand->hide();
        const double a = m_view.toPs(std::min(m_pressPos.x(), event->pos().x()) - area.left());
        const double b = m_view.toPs(std::max(m_pressPos.x(), event->pos().x()) - area.left());
        zoomToRange(a, b);
    }
}

void TimelineView::onWheel(QWheelEvent* event) {
    if (!m_data)
        return;
    const double notches = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ShiftModifier) { // scroll the rows
        m_scroll->setValue(m_scroll->value() - static_cast<int>(notches * 3 * m_style.rowHeight));
        return;
    }
    const double x = event->position().x() - eventArea().left();
    zoomAbout(x, std::pow(kZoomStep, notches));
    event->accept();
}

bool TimelineView::onKey(QKeyEvent* event) {
    if (!m_data)
        return false;
    const double middle = m_view.widthPx / 2;
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomAbout(middle, 1.5); return true;
    case Qt::Key_Minus: zoomAbout(middle, 1 / 1.5); return true;
    case Qt::Key_Left: pan(-m_view.widthPx / 10); return true;
    case Qt::Key_Right: pan(m_view.widthPx / 10); return true;
    case Qt::Key_Up: m_scroll->setValue(m_scroll->value() - m_style.rowHeight); return true;
    case Qt::Key_Down: m_scroll->setValue(m_scroll->value() + m_style.rowHeight); return true;
    case Qt::Key_F: fit(); return true;
    case Qt::Key_Z:
        if (m_range)
            zoomToRange(static_cast<double>(m_range->first), static_cast<double>(m_range->second));
        return true;
    case Qt::Key_Escape: clearRange(); return true;
    default: return false;
    }
}

bool TimelineView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot && event->type() == QEvent::KeyPress && onKey(static_cast<QKeyEvent*>(event)))
        return true;
    return QWidget::eventFilter(watched, event);
}

} // namespace strata::views::timeline

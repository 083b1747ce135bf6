#include "tabs/GraphTab.h"

#include "jobs/Activity.h"
#include "views/graph/GraphView.h"

#include <QVBoxLayout>
#include <algorithm>

namespace strata::gui {

GraphTab::GraphTab(QWidget* parent) : QWidget(parent) {
    m_activity = new Activity(QStringLiteral("layout"), this);
    m_runner = new LayoutRunner(this);
    m_view = new views::graph::GraphView;
    m_view->setObjectName(QStringLiteral("graphView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);

    connect(m_runner, &LayoutRunner::progress, this, [this](std::uint64_t, const QString& text) {
        if (m_view->isShowingGraph())
            m_view->setBusy(text);
        else
            m_view->showMessage(text, true);
    });
    connect(m_runner, &LayoutRunner::finished, this, &GraphTab::onLayoutFinished);
    connect(m_view, &views::graph::GraphView::expandBlockRequested, this, &GraphTab::expandBlock);
    // Why Fit stopped at a readable zoom, why a block refuses a dragged op.
    connect(m_view, &views::graph::GraphView::statusMessage, this,
            [this](const QString& text) { m_activity->showStatus(text, 10000); });
    connect(m_view, &views::graph::GraphView::collapseBlockRequested, this,
            &GraphTab::collapseBlock);
}

GraphTab::~GraphTab() = default;

bool GraphTab::isLayingOut() const {
    return m_runner->isRunning();
}

void GraphTab::cancelLayout() {
    if (!m_runner->isRunning())
        return;
    m_runner->cancel();
    if (m_view->isShowingGraph())
        m_view->setBusy({});
    else
        m_view->showMessage(tr("Layout cancelled"));
}

void GraphTab::setGraph(std::shared_ptr<const ir::Graph> graph) {
    m_runner->cancel();
    m_graph = std::move(graph);
    m_partition = {};
    m_shown = {};
    m_badges.clear();
    m_focusBlock = -1;
    if (!m_graph) {
        m_view->clear();
        return;
    }
    relayout({}, true, false);
}

void GraphTab::setPartition(std::vector<int> blockOfOp,
                            std::vector<views::graph::BlockBadge> badges) {
    if (!m_graph)
        return;
    layout::LayoutInput input;
    input.blockOfOp = std::move(blockOfOp);
    if (auto problems = layout::validateInput(*m_graph, input); !problems.empty()) {
        m_activity->report(problems);
        m_activity->showStatus(tr("The partition does not fit the graph: %1")
                                   .arg(QString::fromStdString(problems.front().message)),
                               0);
        return;
    }
    if (input.blockOfOp == m_partition.blockOfOp && (isLayingOut() || m_view->isShowingGraph())) {
        // Only the knobs changed: new badges on the same drawing.
        setBadges(std::move(badges));
        return;
    }
    // Blocks the user collapsed stay collapsed when they are still there (block ids are
    // stable across edits); too big a graph falls back to the overview anyway.
    if (!m_shown.blocksAreChunks)
        for (int block : m_shown.collapsedBlocks)
            if (std::find(input.blockOfOp.begin(), input.blockOfOp.end(), block) !=
                input.blockOfOp.end())
                input.collapsedBlocks.push_back(block);
    m_partition = input;
    m_partition.collapsedBlocks.clear();
    m_badges = std::move(badges);
    relayout(std::move(input), true, true);
}

void GraphTab::setBadges(std::vector<views::graph::BlockBadge> badges) {
    m_badges = std::move(badges);
    m_view->setBadges(m_badges);
}

void GraphTab::expandBlock(int block) {
    if (!m_graph || !m_shown.isCollapsed(block))
        return;
    layout::LayoutInput input = m_shown;
    input.collapsedBlocks.erase(
        std::lower_bound(input.collapsedBlocks.begin(), input.collapsedBlocks.end(), block));
    m_focusBlock = block;
    relayout(std::move(input), false, true);
}

void GraphTab::collapseBlock(int block) {
    if (!m_graph || m_shown.isCollapsed(block) ||
        std::find(m_shown.blockOfOp.begin(), m_shown.blockOfOp.end(), block) ==
            m_shown.blockOfOp.end())
        return;
    layout::LayoutInput input = m_shown;
    input.collapsedBlocks.insert(
        std::lower_bound(input.collapsedBlocks.begin(), input.collapsedBlocks.end(), block), block);
    m_focusBlock = block;
    relayout(std::move(input), false, true);
}

void GraphTab::relayout(layout::LayoutInput input, bool allowOverview, bool keepShown) {
    LayoutJob job;
    job.graph = m_graph;
    job.input = std::move(input);
    job.metrics = m_view->textMetrics();
    job.allowOverview = allowOverview;
    m_keepView = keepShown;
    const QString text = tr("Laying out %1 ops\u2026").arg(m_graph->ops.size());
    if (keepShown && m_view->isShowingGraph())
        m_view->setBusy(text);
    else
        m_view->showMessage(text, true);
    m_runner->start(std::move(job));
}

void GraphTab::onLayoutFinished(const LayoutOutcome& outcome) {
    if (outcome.graph != m_graph)
        return;
    if (!outcome.diagnostics.empty())
        m_activity->report(outcome.diagnostics);
    if (outcome.ok()) {
        m_shown = outcome.input;
        m_view->showGraphLayout(m_graph, outcome.layout, outcome.input, m_keepView);
        m_view->setBadges(m_badges);
        if (m_focusBlock >= 0)
            m_view->centreOnBlock(m_focusBlock);
        m_focusBlock = -1;
        m_activity->showStatus(tr("Graph laid out in %1 ms: %2 nodes%3")
                                   .arg(outcome.elapsedMs)
                                   .arg(outcome.layout->nodes.size())
                                   .arg(outcome.overview ? tr(" (overview)") : QString()),
                               10000);
    } else {
        m_focusBlock = -1;
        QString reason = tr("unknown error");
        for (const Diagnostic& d : outcome.diagnostics)
            if (d.severity == Severity::Error) {
                reason = QString::fromStdString(d.message);
                break;
            }
        if (m_view->isShowingGraph()) {
            m_view->setBusy({});
            m_activity->showStatus(tr("Could not lay out the graph: %1").arg(reason), 15000);
        } else {
            m_view->showMessage(tr("Could not lay out the graph.\n%1").arg(reason));
            m_activity->showStatus(tr("Could not lay out the graph: %1").arg(reason), 15000);
        }
    }
    emit layoutFinished(outcome.ok());
}

} // namespace strata::gui

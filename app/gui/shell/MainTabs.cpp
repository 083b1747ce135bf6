#include "shell/MainTabs.h"

#include "shell/WelcomePage.h"
#include "tabs/CompareTab.h"
#include "tabs/GraphTab.h"
#include "tabs/OpsTab.h"
#include "tabs/TimelineTab.h"
#include "tabs/TransfersTab.h"
#include "views/pipeline/PipelineView.h"
#include "views/program/ProgramView.h"

#include <QStackedWidget>
#include <QTabWidget>

namespace strata::gui {

QStringList MainTabs::names() {
    return {QStringLiteral("graph"),  QStringLiteral("program"),  QStringLiteral("pipeline"),
            QStringLiteral("ops"),    QStringLiteral("timeline"), QStringLiteral("transfers"),
            QStringLiteral("compare")};
}

bool MainTabs::show(const QString& name) const {
    const int index = static_cast<int>(names().indexOf(name.toLower()));
    if (index < 0)
        return false;
    tabs->setCurrentIndex(index);
    return true;
}

QString MainTabs::currentName() const {
    return names().value(tabs->currentIndex());
}

void MainTabs::addCompare(CompareTab* tab) {
    compare = tab;
    compare->setObjectName(QStringLiteral("compareTab"));
    tabs->addTab(compare, QObject::tr("Compare"));
}

MainTabs buildMainTabs() {
    MainTabs t;
    t.graph = new GraphTab;
    t.graph->setObjectName(QStringLiteral("graphTab"));
    t.program = new views::program::ProgramView;
    t.program->setObjectName(QStringLiteral("programTab"));
    t.pipeline = new views::pipeline::PipelineView;
    t.pipeline->setObjectName(QStringLiteral("pipelineTab"));
    t.ops = new OpsTab;
    t.timeline = new TimelineTab;
    t.timeline->setObjectName(QStringLiteral("timelineTab"));
    t.transfers = new TransfersTab;
    t.transfers->setObjectName(QStringLiteral("transfersTab"));

    t.tabs = new QTabWidget;
    t.tabs->setObjectName(QStringLiteral("centralTabs"));
    t.tabs->setDocumentMode(true);
    // In the order of names().
    t.tabs->addTab(t.graph, QObject::tr("Graph"));
    t.tabs->addTab(t.program, QObject::tr("Program"));
    t.tabs->addTab(t.pipeline, QObject::tr("Pipeline"));
    t.tabs->addTab(t.ops, QObject::tr("Ops"));
    t.tabs->addTab(t.timeline, QObject::tr("Timeline"));
    t.tabs->addTab(t.transfers, QObject::tr("Transfers"));

    t.stack = new QStackedWidget;
    t.stack->setObjectName(QStringLiteral("centralStack"));
    t.welcome = new WelcomePage;
    t.stack->addWidget(t.welcome);
    t.stack->addWidget(t.tabs);
    return t;
}

} // namespace strata::gui

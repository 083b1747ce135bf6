#pragma once
// The main window's central area: the welcome page until a model opens, then the tabs (Graph,
// Program, Pipeline, Ops, Timeline, Transfers, Compare), named for --tab and projects.

#include <QString>
#include <QStringList>

class QStackedWidget;
class QTabWidget;
class QWidget;

namespace strata::views::pipeline {
class PipelineView;
}
namespace strata::views::program {
class ProgramView;
}

namespace strata::gui {

class CompareTab;
class GraphTab;
class OpsTab;
class TimelineTab;
class TransfersTab;
class WelcomePage;

struct MainTabs {
    QStackedWidget* stack = nullptr; // the welcome page, then the tabs
    WelcomePage* welcome = nullptr;
    QTabWidget* tabs = nullptr;
    GraphTab* graph = nullptr;
    views::program::ProgramView* program = nullptr;
    views::pipeline::PipelineView* pipeline = nullptr;
    OpsTab* ops = nullptr;
    TimelineTab* timeline = nullptr;
    TransfersTab* transfers = nullptr;
    CompareTab* compare = nullptr; // added by addCompare(): it needs the run list

    // The tabs' names in order: "graph", "program", "pipeline", "ops", "timeline",
    // "transfers", "compare".
    static QStringList names();
    // Makes the tab called `name` current; false if there is none.
    bool show(const QString& name) const;
    QString currentName() const;
    void addCompare(CompareTab* tab);
};

// Every tab but Compare, in a stack showing the welcome page.
MainTabs buildMainTabs();

} // namespace strata::gui

// The Pipeline tab over a real compile of a small graph: the pass model's contract, one row per
// pass with its share of the total, the dump after the selected pass, and the limit that keeps
// a dump of a million lines from freezing the text view.

#include "views/pipeline/PassTableModel.h"

#include "TestGraphs.h"
#include "compiler/Pipeline.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"
#include "views/pipeline/PipelineView.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTextBlock>
#include <gtest/gtest.h>

namespace strata::views::pipeline {
namespace {

using M = PassTableModel;

program::CompiledProgram compileSmall() {
    program::CompiledProgram compiled;
    compiled.graph = test::makeSmallGraph();
    auto target = target::resolveTarget("mncore2");
    EXPECT_TRUE(target.ok());
    const auto s = schedule::makeSchedule(*compiled.graph, *target, schedule::Strategy::PerOp);
    auto result = compiler::compile(*compiled.graph, *target, s, {{"all"}});
    EXPECT_TRUE(result.ok()) << result.diagnostics().front().toString();
    compiled.result = std::make_shared<const compiler::CompileResult>(std::move(*result));
    compiled.revision = 1;
    compiled.targetName = QStringLiteral("mncore2");
    compiled.elapsedMs = 3;
    return compiled;
}

TEST(PassTableModelTest, OneRowPerPassWithItsShare) {
    M model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const program::CompiledProgram compiled = compileSmall();
    model.setResult(compiled.result);
    ASSERT_EQ(model.rowCount(), static_cast<int>(compiler::passes().size()));
    double shares = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        EXPECT_EQ(model.index(row, M::NameColumn).data().toString().toStdString(),
                  compiler::passes()[static_cast<std::size_t>(row)].name);
        EXPECT_FALSE(model.index(row, M::SummaryColumn).data().toString().isEmpty());
        EXPECT_DOUBLE_EQ(model.index(row, M::TimeColumn).data(M::SortRole).toDouble(),
                         model.passAt(row).milliseconds);
        shares += model.index(row, M::ShareColumn).data(M::ShareRole).toDouble();
    }
    EXPECT_NEAR(shares, 1.0, 1e-9);
    EXPECT_EQ(model.rowOfPass("verify"), model.rowCount() - 1);
    EXPECT_EQ(model.rowOfPass("nope"), -1);
    model.setResult(nullptr);
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(PassTableModelTest, FormatsMilliseconds) {
    EXPECT_EQ(M::formatMilliseconds(0.0042), QStringLiteral("0.004 ms"));
    EXPECT_EQ(M::formatMilliseconds(0.4213), QStringLiteral("0.42 ms"));
    EXPECT_EQ(M::formatMilliseconds(12.34), QStringLiteral("12.3 ms"));
    EXPECT_EQ(M::formatMilliseconds(1250), QStringLiteral("1.25 s"));
}

TEST(PipelineViewTest, ShowsWholeLinesUpToTheLimits) {
    EXPECT_EQ(PipelineView::shownPart("a\nbb\nccc\n", 2, 100), "a\nbb\n");
    EXPECT_EQ(PipelineView::shownPart("a\nbb\nccc\n", 10, 100), "a\nbb\nccc\n");
    EXPECT_EQ(PipelineView::shownPart("a\nbb\nccc", 10, 100), "a\nbb\nccc");
    EXPECT_EQ(PipelineView::shownPart("a\nbb\nccc\n", 10, 5), "a\nbb\n");
    EXPECT_EQ(PipelineView::shownPart("abcdefgh\nx\n", 10, 4), "abcd"); // one overlong line
    EXPECT_EQ(PipelineView::shownPart("", 10, 4), "");
}

TEST(PipelineViewTest, ShowsTheDumpAfterTheSelectedPassAndKeepsTheChoice) {
    PipelineView view;
    view.resize(1000, 700);
    const program::CompiledProgram compiled = compileSmall();
    view.setProgram(compiled);
    EXPECT_EQ(view.selectedPass(), QStringLiteral("tile-blocks"));
    EXPECT_EQ(view.dumpView()->toPlainText().toStdString(), compiled.result->passes[0].dump);
    ASSERT_TRUE(view.selectPass(QStringLiteral("insert-transfers")));
    EXPECT_EQ(view.dumpView()->toPlainText().toStdString(), compiled.result->passes[3].dump);
    EXPECT_FALSE(view.selectPass(QStringLiteral("nope")));
    EXPECT_TRUE(view.totals()->text().contains(QStringLiteral("5 passes")));

    // A recompile keeps the pass the user was reading; a changed schedule shows the banner.
    view.setProgram(compileSmall());
    EXPECT_EQ(view.selectedPass(), QStringLiteral("insert-transfers"));
    EXPECT_FALSE(view.isStale());
    view.show();
    view.setStale(true);
    EXPECT_TRUE(view.isStale());
    view.showMessage(QStringLiteral("nothing"));
    EXPECT_EQ(view.model()->rowCount(), 0);
}

TEST(PipelineViewTest, ALargeDumpShowsItsBeginning) {
    program::CompiledProgram compiled = compileSmall();
    auto result = std::make_shared<compiler::CompileResult>(*compiled.result);
    std::string big;
    for (int i = 0; i < PipelineView::kMaxShownLines + 500; ++i)
        big += "line " + std::to_string(i) + "\n";
    result->passes[0].dump = big;
    compiled.result = result;
    PipelineView view;
    view.setProgram(compiled);
    EXPECT_EQ(view.dumpView()->blockCount(), PipelineView::kMaxShownLines + 1); // + the empty last
    EXPECT_EQ(view.dumpView()->document()->findBlockByNumber(0).text(), QStringLiteral("line 0"));
}

} // namespace
} // namespace strata::views::pipeline

#include "views/ModelSummaryWidget.h"

#include "TestGraphs.h"

#include <QLabel>
#include <QTreeWidget>
#include <gtest/gtest.h>

namespace strata::views {
namespace {

QString labelText(const QWidget& widget, const char* name) {
    const auto* label = widget.findChild<QLabel*>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<missing %1>").arg(QLatin1String(name));
}

const QTreeWidget* table(const QWidget& widget, const char* name) {
    return widget.findChild<QTreeWidget*>(QLatin1String(name));
}

TEST(ModelSummaryWidget, ShowsTotalsInputsOutputsAndOpTypes) {
    ModelSummaryWidget widget;
    widget.setGraph(test::makeSmallGraph(), QStringLiteral("/models/small.onnx"));

    EXPECT_EQ(labelText(widget, "summaryTitle"), "small");
    EXPECT_EQ(labelText(widget, "summaryFile"), "small.onnx");
    EXPECT_EQ(labelText(widget, "summaryOpset"), "17");
    EXPECT_EQ(labelText(widget, "summaryNodes"), "3");
    EXPECT_EQ(labelText(widget, "summaryParameters"), "128");
    EXPECT_EQ(labelText(widget, "summaryFlops"), "1 GFLOP");

    const QTreeWidget* inputs = table(widget, "inputsTable");
    ASSERT_NE(inputs, nullptr);
    ASSERT_EQ(inputs->topLevelItemCount(), 1);
    EXPECT_EQ(inputs->topLevelItem(0)->text(0), "input");
    EXPECT_EQ(inputs->topLevelItem(0)->text(1), "float32");
    EXPECT_EQ(inputs->topLevelItem(0)->text(2), "1x3x8x8");

    const QTreeWidget* outputs = table(widget, "outputsTable");
    ASSERT_NE(outputs, nullptr);
    ASSERT_EQ(outputs->topLevelItemCount(), 1);
    EXPECT_EQ(outputs->topLevelItem(0)->text(2), "1x4x8x2");

    const QTreeWidget* opTypes = table(widget, "opTypesTable");
    ASSERT_NE(opTypes, nullptr);
    ASSERT_EQ(opTypes->topLevelItemCount(), 3);
    EXPECT_EQ(opTypes->topLevelItem(0)->text(0), "Conv");
    EXPECT_EQ(opTypes->topLevelItem(0)->text(1), "1");
}

TEST(ModelSummaryWidget, LargeParameterCountsShowBothForms) {
    auto graph = std::make_shared<ir::Graph>(*test::makeSmallGraph());
    graph->parameterCount = 11'689'512;
    ModelSummaryWidget widget;
    widget.setGraph(graph, QStringLiteral("small.onnx"));
    EXPECT_EQ(labelText(widget, "summaryParameters"), "11.7 M  (11,689,512)");
}

TEST(ModelSummaryWidget, ClearEmptiesEverything) {
    ModelSummaryWidget widget;
    widget.setGraph(test::makeSmallGraph(), QStringLiteral("small.onnx"));
    widget.clear();
    EXPECT_EQ(labelText(widget, "summaryNodes"), "");
    EXPECT_EQ(table(widget, "inputsTable")->topLevelItemCount(), 0);
    EXPECT_EQ(table(widget, "opTypesTable")->topLevelItemCount(), 0);
}

} // namespace
} // namespace strata::views

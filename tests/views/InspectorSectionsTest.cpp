// The Inspector's rows for an op, read from a small graph built in code: identity, every
// attribute as the IR prints it, inputs with shapes and dtypes (weights marked, an omitted
// optional input said so), outputs and cost; and the view that shows them.

#include "views/inspector/InspectorSections.h"

#include "TestGraphs.h"
#include "views/Format.h"
#include "views/inspector/InspectorView.h"

#include <gtest/gtest.h>

namespace strata::views::inspector {
namespace {

// The small graph with attributes on its Conv and an omitted optional input on the MatMul.
std::shared_ptr<const ir::Graph> makeGraph() {
    auto g = std::make_shared<ir::Graph>(*test::makeSmallGraph());
    g->ops[0].attributes = {{"kernel_shape", std::vector<std::int64_t>{3, 3}},
                            {"pads", std::vector<std::int64_t>{1, 1, 1, 1}},
                            {"group", std::int64_t{1}}};
    g->ops[2].inputs.push_back(ir::ValueId{});
    return g;
}

const Section* find(const std::vector<Section>& sections, const QString& title) {
    for (const Section& s : sections)
        if (s.title == title)
            return &s;
    return nullptr;
}

QString valueOf(const Section& section, const QString& name) {
    for (const Property& p : section.properties)
        if (p.name == name)
            return p.value;
    return {};
}

TEST(InspectorSections, AnOpsAttributesInputsAndCost) {
    const auto graph = makeGraph();
    const ir::Op& conv = graph->ops[0];
    const auto sections = opSections(*graph, ir::OpId(0));

    const Section* op = find(sections, QStringLiteral("Op"));
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(valueOf(*op, QStringLiteral("Name")), QStringLiteral("conv1"));
    EXPECT_EQ(valueOf(*op, QStringLiteral("Type")), QStringLiteral("Conv"));

    const Section* attributes = find(sections, QStringLiteral("Attributes"));
    ASSERT_NE(attributes, nullptr);
    ASSERT_EQ(attributes->properties.size(), conv.attributes.size());
    for (const ir::Attribute& a : conv.attributes)
        EXPECT_EQ(valueOf(*attributes, QString::fromStdString(a.name)),
                  QString::fromStdString(ir::attributeToString(a.value)));

    const Section* inputs = find(sections, QStringLiteral("Inputs"));
    ASSERT_NE(inputs, nullptr);
    ASSERT_EQ(inputs->properties.size(), conv.inputs.size());
    const QString data = valueOf(*inputs, QStringLiteral("#0 input"));
    EXPECT_TRUE(data.contains(formatShape(graph->value(conv.inputs[0]).shape)));
    EXPECT_TRUE(data.contains(QStringLiteral("float32")));
    EXPECT_FALSE(data.contains(QStringLiteral("weight")));
    const QString weight = valueOf(*inputs, QStringLiteral("#1 conv1.weight"));
    EXPECT_TRUE(weight.contains(QStringLiteral("weight"))) << weight.toStdString();
    EXPECT_TRUE(weight.contains(formatBytes(graph->value(conv.inputs[1]).bytes())));

    const Section* cost = find(sections, QStringLiteral("Cost"));
    ASSERT_NE(cost, nullptr);
    EXPECT_EQ(valueOf(*cost, QStringLiteral("FLOPs")), formatFlops(conv.cost.flops));
    EXPECT_EQ(valueOf(*cost, QStringLiteral("Bytes read")), formatBytes(conv.cost.bytesRead));
}

TEST(InspectorSections, AnOpWithoutAttributesAndAnOmittedInput) {
    const auto graph = makeGraph();
    const auto sections = opSections(*graph, ir::OpId(2));
    const Section* attributes = find(sections, QStringLiteral("Attributes"));
    ASSERT_NE(attributes, nullptr);
    ASSERT_EQ(attributes->properties.size(), 1u);
    EXPECT_EQ(attributes->properties[0].name, QStringLiteral("(none)"));
    const Section* inputs = find(sections, QStringLiteral("Inputs"));
    ASSERT_NE(inputs, nullptr);
    EXPECT_EQ(inputs->properties.back().value, QStringLiteral("(omitted)"));
}

TEST(InspectorView, ShowsSectionsWithFullTextTooltips) {
    const auto graph = makeGraph();
    InspectorView view;
    view.setSections(opSections(*graph, ir::OpId(0)));
    EXPECT_EQ(view.value(QStringLiteral("Attributes"), QStringLiteral("pads")),
              QString::fromStdString(ir::attributeToString(graph->ops[0].attributes[1].value)));
    EXPECT_TRUE(view.value(QStringLiteral("Attributes"), QStringLiteral("absent")).isNull());
    const QTreeWidgetItem* inputs = view.topLevelItem(2);
    ASSERT_NE(inputs, nullptr);
    ASSERT_GT(inputs->childCount(), 1);
    EXPECT_TRUE(inputs->child(1)
                    ->toolTip(InspectorView::ValueColumn)
                    .contains(QStringLiteral("conv1.weight")));
    view.setSections({});
    EXPECT_EQ(view.topLevelItemCount(), 0);
}

} // namespace
} // namespace strata::views::inspector

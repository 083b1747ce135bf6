// The Inspector's rows for an op, read from a small graph built in code: identity, every
// attribute as the IR prints it, inputs with shapes and dtypes (weights marked, an omitted
// optional input said so), outputs and cost; for a block of its schedule, the knobs, the tiling
// and SRAM peak from the schedule check's analysis and every op; and the view that shows them.

#include "views/inspector/InspectorSections.h"

#include "TestGraphs.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "target/TargetLoader.h"
#include "views/Format.h"
#include "views/inspector/InspectorView.h"
#include "views/schedule/ScheduleTableModel.h"

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

TEST(InspectorSections, ABlocksKnobsTilingAndEveryOp) {
    namespace sch = strata::schedule;
    const auto graph = makeGraph();
    auto target = target::resolveTarget("mncore2");
    ASSERT_TRUE(target.ok());
    sch::Schedule s = sch::makeSchedule(*graph, *target, sch::Strategy::PerOp);
    schedule::ScheduleSnapshot snapshot;
    snapshot.revision = 1;
    snapshot.check =
        std::make_shared<const sch::ScheduleCheck>(sch::checkSchedule(s, *graph, *target));
    snapshot.schedule = std::make_shared<const sch::Schedule>(s);
    snapshot.graph = graph;
    snapshot.target = std::make_shared<const target::Target>(*target);
    schedule::ScheduleTableModel model;
    model.setSnapshot(snapshot);

    const sch::Block& block = s.blocks.front();
    const auto sections = blockSections(model, block.id);
    const Section* knobs =
        find(sections, QString::fromStdString("Block " + sch::blockName(block.id)));
    ASSERT_NE(knobs, nullptr);
    EXPECT_EQ(valueOf(*knobs, QStringLiteral("Cores (mp)")), QString::number(block.mp));

    const auto& analysed = snapshot.check->analysis.blocks.front();
    ASSERT_TRUE(analysed.analysed);
    const Section* tiling = find(sections, QStringLiteral("Tiling"));
    ASSERT_NE(tiling, nullptr);
    EXPECT_TRUE(valueOf(*tiling, QStringLiteral("SRAM peak"))
                    .startsWith(formatBytes(analysed.cost.sramPeakBytes)));
    // The peak's parts: what stays resident, and each buffer slot's size (the peak is their sum).
    const tiling::BlockCost& cost = analysed.cost;
    EXPECT_EQ(cost.sramPeakBytes,
              cost.sramResidentBytes +
                  static_cast<std::uint64_t>(cost.sramSlots) * cost.sramSlotBytes);
    EXPECT_EQ(cost.sramSlots, std::max(1, block.buffering));
    EXPECT_EQ(valueOf(*tiling, QStringLiteral("Resident")), formatBytes(cost.sramResidentBytes));
    const QString perSlot = valueOf(*tiling, QStringLiteral("Per slot"));
    EXPECT_TRUE(perSlot.startsWith(formatBytes(cost.sramSlotBytes))) << perSlot.toStdString();
    if (cost.sramSlots > 1) {
        EXPECT_TRUE(perSlot.endsWith(QStringLiteral("%1 slots").arg(cost.sramSlots)))
            << perSlot.toStdString();
    }
    EXPECT_EQ(valueOf(*tiling, QStringLiteral("DRAM read")),
              formatBytes(analysed.cost.dramReadBytes));

    const Section* ops = find(sections, QStringLiteral("Ops (%1)").arg(block.ops.size()));
    ASSERT_NE(ops, nullptr);
    ASSERT_EQ(ops->properties.size(), block.ops.size());
    for (std::size_t i = 0; i < block.ops.size(); ++i) {
        EXPECT_EQ(ops->properties[i].name, QString::fromStdString(graph->op(block.ops[i]).type));
        EXPECT_EQ(ops->properties[i].value, QString::fromStdString(graph->op(block.ops[i]).name));
    }
    EXPECT_TRUE(blockSections(model, 9999).empty());
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

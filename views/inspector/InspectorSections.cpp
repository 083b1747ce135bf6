#include "views/inspector/InspectorSections.h"

#include "schedule/Analysis.h"
#include "views/Format.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QObject>
#include <QStringList>
#include <algorithm>

namespace strata::views::inspector {

namespace {

QString fromStd(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString joinInts(const std::vector<std::int64_t>& values, const QString& separator) {
    QStringList parts;
    for (std::int64_t v : values)
        parts << QString::number(v);
    return parts.join(separator);
}

// "1x64x56x56 float32, 784 KiB"; a constant input is marked as a weight.
Property valueProperty(const ir::Graph& graph, ir::ValueId id, const QString& role) {
    if (!id.valid())
        return {role, QObject::tr("(omitted)"), {}};
    const ir::Value& value = graph.value(id);
    QString text = QStringLiteral("%1 %2, %3")
                       .arg(formatShape(value.shape), fromStd(ir::dtypeName(value.dtype)),
                            formatBytes(value.bytes()));
    if (value.isConstant) // its parameter count is the Cost section's
        text += QObject::tr(", weight");
    return {QStringLiteral("%1 %2").arg(role, fromStd(value.name)), text,
            QStringLiteral("%1: %2").arg(fromStd(value.name), text)};
}

const strata::schedule::BlockAnalysis* analysisOf(const views::schedule::ScheduleSnapshot& snapshot,
                                                  int blockId) {
    if (!snapshot.check)
        return nullptr;
    const auto& blocks = snapshot.check->analysis.blocks;
    const auto it = std::find_if(blocks.begin(), blocks.end(),
                                 [&](const auto& b) { return b.blockId == blockId; });
    return it != blocks.end() && it->analysed ? &*it : nullptr;
}

} // namespace

std::vector<Section> opSections(const ir::Graph& graph, ir::OpId id) {
    const ir::Op& op = graph.op(id);
    std::vector<Section> sections;

    Section identity{QObject::tr("Op"), {}};
    identity.properties.push_back({QObject::tr("Name"), fromStd(op.name), {}});
    identity.properties.push_back({QObject::tr("Type"), fromStd(op.type), {}});
    if (!op.domain.empty())
        identity.properties.push_back({QObject::tr("Domain"), fromStd(op.domain), {}});
    identity.properties.push_back({QObject::tr("Class"), fromStd(ir::opClassName(op.opClass)), {}});
    sections.push_back(std::move(identity));

    Section attributes{QObject::tr("Attributes"), {}};
    for (const ir::Attribute& attribute : op.attributes)
        attributes.properties.push_back(
            {fromStd(attribute.name), fromStd(ir::attributeToString(attribute.value)), {}});
    if (attributes.properties.empty())
        attributes.properties.push_back({QObject::tr("(none)"), {}, {}});
    sections.push_back(std::move(attributes));

    Section inputs{QObject::tr("Inputs"), {}};
    for (std::size_t i = 0; i < op.inputs.size(); ++i)
        inputs.properties.push_back(
            valueProperty(graph, op.inputs[i], QStringLiteral("#%1").arg(i)));
    sections.push_back(std::move(inputs));

    Section outputs{QObject::tr("Outputs"), {}};
    for (std::size_t i = 0; i < op.outputs.size(); ++i)
        outputs.properties.push_back(
            valueProperty(graph, op.outputs[i], QStringLiteral("#%1").arg(i)));
    sections.push_back(std::move(outputs));

    Section cost{QObject::tr("Cost"), {}};
    cost.properties.push_back({QObject::tr("FLOPs"), formatFlops(op.cost.flops), {}});
    cost.properties.push_back({QObject::tr("Bytes read"), formatBytes(op.cost.bytesRead), {}});
    cost.properties.push_back(
        {QObject::tr("Bytes written"), formatBytes(op.cost.bytesWritten), {}});
    cost.properties.push_back({QObject::tr("Parameters"), formatInteger(op.cost.parameters), {}});
    sections.push_back(std::move(cost));
    return sections;
}

std::vector<Section> blockSections(const views::schedule::ScheduleTableModel& model, int blockId) {
    using Model = views::schedule::ScheduleTableModel;
    const views::schedule::ScheduleSnapshot& snapshot = model.snapshot();
    const int row = model.rowOfBlock(blockId);
    if (row < 0 || !snapshot.schedule || !snapshot.graph)
        return {};
    const strata::schedule::Block* block = snapshot.schedule->findBlock(blockId);
    if (!block)
        return {};
    const ir::Graph& graph = *snapshot.graph;
    auto shown = [&](int column) { return model.data(model.index(row, column)).toString(); };

    Section knobs{QObject::tr("Block %1").arg(fromStd(strata::schedule::blockName(blockId))), {}};
    knobs.properties.push_back({QObject::tr("Cores (mp)"), QString::number(block->mp), {}});
    knobs.properties.push_back(
        {QObject::tr("Tile asked"), fromStd(strata::schedule::tileToString(block->tile)), {}});
    knobs.properties.push_back(
        {QObject::tr("Buffering"),
         block->buffering == 2 ? QObject::tr("double") : QObject::tr("single"),
         {}});
    std::vector<Section> sections{std::move(knobs)};

    Section tiling{QObject::tr("Tiling"), {}};
    if (const strata::schedule::BlockAnalysis* analysis = analysisOf(snapshot, blockId)) {
        const tiling::BlockCost& cost = analysis->cost;
        if (analysis->anchor.valid())
            tiling.properties.push_back(
                {QObject::tr("Anchor"),
                 QStringLiteral("%1 (%2)").arg(fromStd(graph.value(analysis->anchor).name),
                                               formatShape(graph.value(analysis->anchor).shape)),
                 {}});
        tiling.properties.push_back({QObject::tr("Tile"), formatShape(cost.grid.extents), {}});
        tiling.properties.push_back({QObject::tr("Grid"),
                                     QObject::tr("%1 = %2 tiles")
                                         .arg(joinInts(cost.grid.counts, QStringLiteral("x")))
                                         .arg(cost.tiles()),
                                     {}});
        const double fill = analysis->workingMemoryBytes > 0
                                ? 100.0 * static_cast<double>(cost.sramPeakBytes) /
                                      static_cast<double>(analysis->workingMemoryBytes)
                                : 0.0;
        tiling.properties.push_back(
            {QObject::tr("SRAM peak"),
             QObject::tr("%1 of %2 (%3 %)")
                 .arg(formatBytes(cost.sramPeakBytes), formatBytes(analysis->workingMemoryBytes))
                 .arg(fill, 0, 'f', 0),
             QObject::tr("Resident inputs plus %1 buffer slot(s), against the target's working "
                         "memory per core.")
                 .arg(cost.sramSlots)});
        tiling.properties.push_back(
            {QObject::tr("Resident"), formatBytes(cost.sramResidentBytes),
             QObject::tr("The inputs every tile reads whole (weights): loaded once for the block "
                         "and kept for all its tiles")});
        tiling.properties.push_back(
            {QObject::tr("Per slot"),
             cost.sramSlots > 1 ? QObject::tr("%1 \u00d7 %2 slots")
                                      .arg(formatBytes(cost.sramSlotBytes))
                                      .arg(cost.sramSlots)
                                : QObject::tr("%1, one slot").arg(formatBytes(cost.sramSlotBytes)),
             cost.sramSlots > 1
                 ? QObject::tr("The largest tile's loads, intermediates and outputs, packed by "
                               "lifetime. Double buffering: the next tile loads into one slot "
                               "while the other computes")
                 : QObject::tr("The largest tile's loads, intermediates and outputs, packed by "
                               "lifetime. Single buffering: loads and computes take turns")});
        tiling.properties.push_back(
            {QObject::tr("DRAM read"), formatBytes(cost.dramReadBytes), {}});
        tiling.properties.push_back(
            {QObject::tr("DRAM written"), formatBytes(cost.dramWriteBytes), {}});
        tiling.properties.push_back({QObject::tr("FLOPs"), formatFlops(cost.flops), {}});
        tiling.properties.push_back(
            {QObject::tr("Intensity"),
             QObject::tr("%1 FLOP/B").arg(analysis->arithmeticIntensity(), 0, 'f', 1),
             QObject::tr("FLOPs per byte of DRAM traffic: low means the block waits on memory")});
        tiling.properties.push_back(
            {QObject::tr("Recompute"),
             QStringLiteral("%1 %").arg(100.0 * cost.recomputeRatio(), 0, 'f', 1),
             {}});
    } else {
        tiling.properties.push_back(
            {QObject::tr("Not tiled"), shown(Model::ErrorColumn), shown(Model::ErrorColumn)});
    }
    sections.push_back(std::move(tiling));

    Section time{QObject::tr("Time"), {}};
    auto orDash = [](const QString& text) { return text.isEmpty() ? QStringLiteral("—") : text; };
    time.properties.push_back(
        {QObject::tr("Predicted"), orDash(shown(Model::PredictedColumn)), {}});
    time.properties.push_back({QObject::tr("Measured"), orDash(shown(Model::MeasuredColumn)), {}});
    time.properties.push_back(
        {QObject::tr("Prediction error"), orDash(shown(Model::PredictionErrorColumn)), {}});
    sections.push_back(std::move(time));

    // Last: a long block's list would push the figures out of sight.
    Section ops{QObject::tr("Ops (%1)").arg(block->ops.size()), {}};
    for (ir::OpId id : block->ops) {
        const ir::Op& op = graph.op(id);
        ops.properties.push_back({fromStd(op.type), fromStd(op.name), {}});
    }
    sections.push_back(std::move(ops));
    return sections;
}

} // namespace strata::views::inspector

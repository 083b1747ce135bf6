#include "emulator/ComputeCost.h"

#include "emulator/CopyRuns.h"
#include "tiling/EinsumEquation.h"
#include "tiling/Region.h"

#include <algorithm>
#include <variant>

namespace strata::emulator {

namespace {

double elementsOf(const std::vector<compiler::Operand>& operands) {
    double elements = 0;
    for (const compiler::Operand& o : operands)
        elements += double(tiling::regionElements(o.region));
    return elements;
}

} // namespace

double computeWork(const compiler::Compute& compute, ir::OpClass opClass) {
    if (opClass == ir::OpClass::Conv || opClass == ir::OpClass::MatMul)
        return compute.flops / 2;
    return elementsOf(opClass == ir::OpClass::Reduction ? compute.inputs : compute.outputs);
}

double paddedLaneFactor(const compiler::Compute& compute, const ir::Op& op, int channelGranule) {
    if (channelGranule <= 1 || compute.outputs.empty() ||
        (op.opClass != ir::OpClass::Conv && op.opClass != ir::OpClass::MatMul))
        return 1;
    const tiling::Region& out = compute.outputs.front().region;
    if (out.size() < 2)
        return 1;
    const std::size_t d = op.opClass == ir::OpClass::Conv ? 1 : out.size() - 1;
    const std::int64_t channels = out[d].size();
    if (channels <= 0)
        return 1;
    const std::int64_t lanes = (channels + channelGranule - 1) / channelGranule * channelGranule;
    return double(lanes) / double(channels);
}

double elementsRead(const compiler::Compute& compute) {
    return elementsOf(compute.inputs);
}

double computeCycles(const compiler::Compute& compute, ir::OpClass opClass, const target::Target& target) {
    return cyclesForWork(computeWork(compute, opClass), opClass, target);
}

double cyclesForWork(double work, ir::OpClass opClass, const target::Target& target) {
    return cyclesAtThroughput(work, target.throughput.of(opClass), target);
}

double cyclesAtThroughput(double work, double throughput, const target::Target& target) {
    return target.overheads.computeCycles + (throughput > 0 ? work / throughput : 0);
}

bool isDepthwiseConv(const ir::Op& op, const ir::Graph& graph) {
    if (op.opClass != ir::OpClass::Conv || op.type != "Conv" || op.inputs.empty() || !op.inputs[0].valid() ||
        op.inputs[0].index >= graph.values.size())
        return false;
    const ir::Shape& x = graph.value(op.inputs[0]).shape;
    const std::int64_t group = op.attrInt("group", 1);
    return group > 1 && x.size() >= 2 && x[1] == group;
}

bool isGroupedConv(const ir::Op& op, const ir::Graph& graph) {
    return op.opClass == ir::OpClass::Conv && op.type == "Conv" && op.attrInt("group", 1) > 1 &&
           !isDepthwiseConv(op, graph);
}

bool isPointwiseConv(const ir::Op& op, const ir::Graph& graph) {
    if (op.opClass != ir::OpClass::Conv || op.type != "Conv" || op.inputs.size() < 2 || !op.inputs[1].valid() ||
        op.inputs[1].index >= graph.values.size() || isDepthwiseConv(op, graph))
        return false;
    const ir::Shape& w = graph.value(op.inputs[1]).shape;
    if (w.size() < 3) return false;
    for (std::size_t d = 2; d < w.size(); ++d)
        if (w[d] != 1)
            return false;
    return true;
}

namespace {

// The i-th of `ids` when the graph has it.
const ir::Value* knownValue(const std::vector<ir::ValueId>& ids, std::size_t i, const ir::Graph& graph) {
    if (i >= ids.size() || !ids[i].valid() || ids[i].index >= graph.values.size()) return nullptr;
    return &graph.value(ids[i]);
}

// A figure slowed by a cost per unit of `macsPerUnit` MACs (none when either is unknown).
double withUnitCost(double throughput, double unitCycles, double macsPerUnit) {
    if (!(unitCycles > 0) || !(macsPerUnit > 0) || !(throughput > 0)) return throughput;
    return 1 / (1 / throughput + unitCycles / macsPerUnit);
}

} // namespace

double convMacsPerOutput(const ir::Op& op, const ir::Graph& graph) {
    if (op.opClass != ir::OpClass::Conv || op.type != "Conv") return 0;
    const ir::Value* w = knownValue(op.inputs, 1, graph);
    if (!w || w->shape.size() < 3) return 0;
    double macs = 1;
    for (std::size_t d = 1; d < w->shape.size(); ++d) macs *= double(w->shape[d]);
    return macs > 0 ? macs : 0;
}

double convMacsPerOutputRow(const ir::Op& op, const ir::Graph& graph) {
    const ir::Value* y = knownValue(op.outputs, 0, graph);
    if (!y || y->shape.size() < 3 || y->shape.back() <= 0) return 0;
    return convMacsPerOutput(op, graph) * double(y->shape.back());
}

double groupedConvMacsPerElement(const ir::Op& op, const ir::Graph& graph) {
    if (!isGroupedConv(op, graph))
        return 0;
    const ir::Value* x = knownValue(op.inputs, 0, graph);
    const ir::Value* y = knownValue(op.outputs, 0, graph);
    const auto outputCount = y ? ir::elementCount(y->shape) : std::nullopt;
    const auto inputCount = x ? ir::elementCount(x->shape) : std::nullopt;
    if (!outputCount || !inputCount)
        return 0;
    const double outputs = double(*outputCount), elements = outputs + double(*inputCount);
    const double macs = outputs * convMacsPerOutput(op, graph);
    return elements > 0 && macs > 0 ? macs / elements : 0;
}

namespace {

// An Einsum's MACs per pair of batch matrices: every label's extent (the whole op's MACs) over
// the batch labels' (in both operands and the output); 0 when it has no batch or one matrix pair.
double einsumMacsPerProduct(const ir::Op& op, const ir::Graph& graph) {
    const ir::Attribute* equation = op.attribute("equation");
    const auto* text = equation ? std::get_if<std::string>(&equation->value) : nullptr;
    if (!text || op.inputs.size() != 2)
        return 0;
    std::vector<ir::Shape> shapes;
    for (std::size_t i = 0; i < 2; ++i) {
        const ir::Value* v = knownValue(op.inputs, i, graph);
        if (!v)
            return 0;
        shapes.push_back(v->shape);
    }
    std::string why;
    const auto e = tiling::parseEinsum(*text, shapes, why);
    if (!e)
        return 0;
    double macs = 1, products = 1;
    for (std::size_t l = 0; l < e->sizes.size(); ++l) {
        const int label = int(l);
        const auto in = [&](std::size_t k) {
            return std::find(e->inputs[k].begin(), e->inputs[k].end(), label) != e->inputs[k].end();
        };
        macs *= double(e->sizes[l]);
        if (in(0) && in(1) && e->inOutput(label))
            products *= double(e->sizes[l]);
    }
    return products > 1 ? macs / products : 0;
}

} // namespace

double matmulMacsPerProduct(const ir::Op& op, const ir::Graph& graph) {
    if (op.opClass != ir::OpClass::MatMul)
        return 0;
    if (op.type == "Einsum")
        return einsumMacsPerProduct(op, graph);
    const ir::Value* a = knownValue(op.inputs, 0, graph);
    const ir::Value* b = knownValue(op.inputs, 1, graph);
    const ir::Value* y = knownValue(op.outputs, 0, graph);
    if (op.type != "MatMul" || !a || !b || !y || a->shape.size() < 2 || b->shape.size() < 3 ||
        y->shape.size() < 3)
        return 0;
    // A right-hand operand without a batch of its own is one matrix: the rows fold into one call.
    double bBatch = 1, yBatch = 1;
    for (std::size_t d = 0; d + 2 < b->shape.size(); ++d)
        bBatch *= double(b->shape[d]);
    for (std::size_t d = 0; d + 2 < y->shape.size(); ++d)
        yBatch *= double(y->shape[d]);
    if (bBatch <= 1 || yBatch <= 1)
        return 0;
    const std::size_t r = y->shape.size();
    const double macs = double(y->shape[r - 2]) * double(y->shape[r - 1]) * double(a->shape.back());
    return macs > 0 ? macs : 0;
}

bool isTranscendental(const ir::Op& op) {
    // Not HardSwish: the host runs it vectorised, at an Add's pace (a clamp and a multiply).
    static constexpr std::string_view kTypes[] = {"Erf",  "Exp",  "Log",      "Tanh", "Sigmoid",
                                                  "Sin",  "Cos",  "Softplus", "Elu",  "Selu",
                                                  "Celu", "Gelu", "Mish"};
    if (op.opClass != ir::OpClass::Elementwise) return false;
    for (std::string_view type : kTypes)
        if (op.type == type) return true;
    return false;
}

bool isSigmoid(const ir::Op& op) {
    return op.opClass == ir::OpClass::Elementwise && op.type == "Sigmoid";
}

bool isLayerNorm(const ir::Op& op) { return op.opClass == ir::OpClass::Normalization && op.type == "LayerNormalization"; }

double layerNormWork(const compiler::Compute& compute) {
    if (compute.inputs.empty())
        return elementsOf(compute.outputs);
    return (3 * double(tiling::regionElements(compute.inputs.front().region)) +
            elementsOf(compute.outputs)) /
           4;
}

bool isResize(const ir::Op& op) {
    return op.type == "Resize" || op.type == "Upsample";
}

double resizeTapsPerOutput(const ir::Op& op, const ir::Graph& graph) {
    const ir::Value* x = knownValue(op.inputs, 0, graph);
    const ir::Value* y = knownValue(op.outputs, 0, graph);
    if (!isResize(op) || !x || !y || x->shape.size() != y->shape.size())
        return 1;
    const ir::Attribute* modeAttr = op.attribute("mode");
    const auto* mode = modeAttr ? std::get_if<std::string>(&modeAttr->value) : nullptr;
    const double perDim = !mode ? 1 : *mode == "linear" ? 2 : *mode == "cubic" ? 4 : 1;
    double taps = 1;
    for (std::size_t d = 0; d < x->shape.size(); ++d)
        if (x->shape[d] != y->shape[d])
            taps *= perDim;
    return taps;
}

double resizeOutputsPerRow(const ir::Op& op, const ir::Graph& graph) {
    const ir::Value* y = knownValue(op.outputs, 0, graph);
    return isResize(op) && y && !y->shape.empty() && y->shape.back() > 0 ? double(y->shape.back())
                                                                         : 0;
}

bool isGather(const ir::Op& op) {
    return op.type == "Gather" || op.type == "GatherElements" || op.type == "GatherND";
}

bool isGlobalPool(const ir::Op& op) {
    return op.type == "GlobalAveragePool" || op.type == "GlobalMaxPool" ||
           op.type == "GlobalLpPool";
}

namespace {

// Input elements the op reads per output element (its first input's over its first output's).
double inputsPerOutput(const ir::Op& op, const ir::Graph& graph) {
    const ir::Value* x = knownValue(op.inputs, 0, graph);
    const ir::Value* y = knownValue(op.outputs, 0, graph);
    if (!x || !y || x->elements() <= 0 || y->elements() <= 0)
        return 0;
    return double(x->elements()) / double(y->elements());
}

} // namespace

double reductionInputsPerOutput(const ir::Op& op, const ir::Graph& graph) {
    return op.opClass == ir::OpClass::Reduction ? inputsPerOutput(op, graph) : 0;
}

double globalPoolInputsPerOutput(const ir::Op& op, const ir::Graph& graph) {
    return isGlobalPool(op) ? inputsPerOutput(op, graph) : 0;
}

CostFigure costFigureOf(const ir::Op& op, const ir::Graph& graph, const target::Target& target) {
    const std::string className(ir::opClassName(op.opClass));
    const target::ComputeThroughput& t = target.throughput;
    auto own = [&](std::string name, double figure) {
        return figure > 0 ? CostFigure{std::move(name), false, {}}
                          : CostFigure{className, true, std::move(name)};
    };
    if (isSigmoid(op))
        return t.sigmoidPerCycle > 0 ? CostFigure{"sigmoid", false, {}}
                                     : own("transcendental", t.transcendentalPerCycle);
    if (isTranscendental(op))
        return own("transcendental", t.transcendentalPerCycle);
    if (isLayerNorm(op))
        return own("layer_norm", t.layerNormPerCycle);
    if (isResize(op))
        return own("resize", t.resizePerCycle);
    if (isGather(op))
        return own("gather", t.gatherPerCycle);
    if (isGlobalPool(op))
        return own("global_pool", t.globalPoolPerCycle);
    if (isCopy(op, graph))
        return own("copy", t.copyPerCycle);
    if (isDepthwiseConv(op, graph))
        return own("depthwise_conv", t.depthwiseConvPerCycle);
    if (isGroupedConv(op, graph))
        return own("grouped_conv", t.groupedConvPerCycle);
    if (isPointwiseConv(op, graph))
        return own("pointwise_conv", t.pointwiseConvPerCycle);
    if (op.opClass == ir::OpClass::Other)
        return {className, true, "other"};
    return {className, false, {}};
}

double throughputOf(const ir::Op& op, const ir::Graph& graph, const target::Target& target) {
    if (isSigmoid(op))
        return target.throughput.sigmoid();
    if (isTranscendental(op)) return target.throughput.transcendental();
    if (isLayerNorm(op)) return target.throughput.layerNorm();
    if (isResize(op)) {
        // The figure counts taps; the work counts outputs.
        const double perOutput = target.throughput.resize() / resizeTapsPerOutput(op, graph);
        return withUnitCost(perOutput, target.overheads.resizeRowCycles,
                            resizeOutputsPerRow(op, graph));
    }
    if (isGather(op))
        return target.throughput.gather();
    if (isCopy(op, graph))
        return target.throughput.copy();
    if (isGlobalPool(op)) {
        // The figure counts elements read; the instruction's work (computeWork) counts outputs, one
        // per plane, so the rate per output is the figure over the plane's elements.
        const double planeElements = globalPoolInputsPerOutput(op, graph);
        return planeElements > 0 ? target.throughput.globalPool() / planeElements
                                 : target.throughput.globalPool();
    }
    const target::Overheads& o = target.overheads;
    if (op.opClass == ir::OpClass::Reduction)
        return withUnitCost(target.throughput.of(op.opClass), o.reductionOutputCycles,
                            reductionInputsPerOutput(op, graph));
    if (isDepthwiseConv(op, graph))
        return withUnitCost(target.throughput.depthwiseConv(), o.depthwiseRowCycles, convMacsPerOutputRow(op, graph));
    if (isGroupedConv(op, graph))
        return withUnitCost(target.throughput.groupedConv(), o.groupedConvElementCycles,
                            groupedConvMacsPerElement(op, graph));
    if (isPointwiseConv(op, graph))
        return withUnitCost(target.throughput.pointwiseConv(), o.convOutputCycles, convMacsPerOutput(op, graph));
    if (op.opClass == ir::OpClass::MatMul)
        return withUnitCost(target.throughput.of(op.opClass), o.matmulProductCycles,
                            matmulMacsPerProduct(op, graph));
    if (op.opClass == ir::OpClass::Conv && o.convOutputCycles > 0)
        return withUnitCost(target.throughput.of(op.opClass), o.convOutputCycles, convMacsPerOutput(op, graph));
    return target.throughput.of(op.opClass);
}

double weightBytesRead(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph) {
    if (op.opClass != ir::OpClass::Conv && op.opClass != ir::OpClass::MatMul)
        return 0;
    double bytes = 0;
    for (const compiler::Operand& o : compute.inputs)
        if (o.value.valid() && o.value.index < graph.values.size() &&
            graph.value(o.value).isConstant)
            bytes += double(tiling::regionBytes(o.region, graph.value(o.value).dtype));
    return bytes;
}

double weightReadCycles(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph,
                        const target::Target& target) {
    const double perByte = target.overheads.weightByteCycles;
    const double near = perByte > 0 ? perByte * weightBytesRead(compute, op, graph) : 0;
    const double farPerByte = farWeightByteCycles(op, graph, target);
    return near + (farPerByte > 0
                       ? farPerByte * farWeightBytes(compute, op, graph, target.privateCacheBytes)
                       : 0);
}

namespace {

bool readsFarWeights(const ir::Op& op, const ir::Graph& graph) {
    if (op.opClass == ir::OpClass::MatMul)
        return true;
    return op.opClass == ir::OpClass::Conv && op.type == "Conv" && op.attrInt("group", 1) == 1 &&
           !isPointwiseConv(op, graph);
}

} // namespace

double reorderFarBytes(double boxBytes, const target::Target& target) {
    return target.privateCacheBytes > 0 ? std::max(0.0, boxBytes - double(target.privateCacheBytes))
                                        : 0;
}

double farWeightBytes(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph,
                      std::uint64_t privateCacheBytes) {
    if (privateCacheBytes == 0 || !readsFarWeights(op, graph))
        return 0;
    return std::max(0.0, weightBytesRead(compute, op, graph) - double(privateCacheBytes));
}

double farWeightByteCycles(const ir::Op& op, const ir::Graph& graph, const target::Target& target) {
    if (!readsFarWeights(op, graph))
        return 0;
    return op.opClass == ir::OpClass::MatMul ? target.overheads.matmulFarWeightByteCycles
                                             : target.overheads.convFarWeightByteCycles;
}

double inCallReorderElements(const compiler::Compute& compute, const ir::Op& op,
                             const ir::Graph& graph) {
    if (isDepthwiseConv(op, graph) && !compute.inputs.empty() && !compute.outputs.empty()) {
        // Over a row-major input box the kernel copies each channel's rows into padded planes
        // (3-4x the channels-last kernel's time); over a channels-last one it transposes each
        // output row into a box that is not channels-last.
        const compiler::Operand &x = compute.inputs.front(), &y = compute.outputs.front();
        if (x.channelBlock != compiler::kChannelsLast)
            return double(tiling::regionElements(x.region));
        return y.channelBlock != compiler::kChannelsLast ? double(tiling::regionElements(y.region))
                                                         : 0;
    }
    if (op.opClass != ir::OpClass::Conv || op.type != "Conv" || op.attrInt("group", 1) != 1 ||
        isPointwiseConv(op, graph) || compute.inputs.empty() || compute.outputs.empty())
        return 0;
    double elements = 0;
    for (const compiler::Operand* box : {&compute.inputs.front(), &compute.outputs.front()})
        if (box->channelBlock != compiler::kChannelsLast)
            elements += double(tiling::regionElements(box->region));
    return elements;
}

double inCallReorderCycles(const compiler::Compute& compute, const ir::Op& op,
                           const ir::Graph& graph, const target::Target& target) {
    const double rate = target.throughput.of(ir::OpClass::DataMovement);
    return rate > 0 ? inCallReorderElements(compute, op, graph) / rate : 0;
}

std::uint64_t operandBytes(const compiler::Compute& compute, const ir::Graph& graph) {
    std::uint64_t bytes = 0;
    for (const auto* operands : {&compute.inputs, &compute.outputs})
        for (const compiler::Operand& o : *operands)
            if (o.value.valid() && o.value.index < graph.values.size())
                // An accumulating compute reads its output as well as writing it.
                bytes += (operands == &compute.outputs && compute.accumulate ? 2 : 1) *
                         tiling::regionBytes(o.region, graph.value(o.value).dtype);
    return bytes;
}

} // namespace strata::emulator

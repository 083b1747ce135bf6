#include "emulator/ComputeCost.h"

#include "tiling/Region.h"

namespace strata::emulator {

double computeWork(const compiler::Compute& compute, ir::OpClass opClass) {
    if (opClass == ir::OpClass::Conv || opClass == ir::OpClass::MatMul) return compute.flops / 2;
    double elements = 0;
    for (const compiler::Operand& out : compute.outputs) elements += double(tiling::regionElements(out.region));
    return elements;
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

bool isPointwiseConv(const ir::Op& op, const ir::Graph& graph) {
    if (op.opClass != ir::OpClass::Conv || op.type != "Conv" || op.inputs.size() < 2 || !op.inputs[1].valid() ||
        op.inputs[1].index >= graph.values.size() || isDepthwiseConv(op, graph))
        return false;
    const ir::Shape& w = graph.value(op.inputs[1]).shape;
    if (w.size() < 3) return false;
    for (std::size_t d = 2; d < w.size(); ++d)
        if (w[d] != 1) return false;
    for (std::int64_t s : op.attrInts("strides"))
        if (s != 1) return false;
    for (std::int64_t p : op.attrInts("pads"))
        if (p != 0) return false;
    return true;
}

double throughputOf(const ir::Op& op, const ir::Graph& graph, const target::Target& target) {
    if (isDepthwiseConv(op, graph)) return target.throughput.depthwiseConv();
    if (isPointwiseConv(op, graph)) return target.throughput.pointwiseConv();
    return target.throughput.of(op.opClass);
}

std::uint64_t operandBytes(const compiler::Compute& compute, const ir::Graph& graph) {
    std::uint64_t bytes = 0;
    for (const auto* operands : {&compute.inputs, &compute.outputs})
        for (const compiler::Operand& o : *operands)
            if (o.value.valid() && o.value.index < graph.values.size())
                bytes += tiling::regionBytes(o.region, graph.value(o.value).dtype);
    return bytes;
}

} // namespace strata::emulator

#include "TestGraphs.h"

#include "layout/DotLayout.h"
#include "layout/LayoutRequest.h"

#include <gtest/gtest.h>
#include <string>

namespace strata::views::test {

namespace {

ir::ValueId addValue(ir::Graph& g, std::string name, ir::Shape shape, bool constant = false) {
    ir::Value v;
    v.name = std::move(name);
    v.dtype = ir::DType::Float32;
    v.shape = std::move(shape);
    v.isConstant = constant;
    v.isInitializer = constant;
    g.values.push_back(std::move(v));
    return ir::ValueId(static_cast<std::uint32_t>(g.values.size() - 1));
}

void addOp(ir::Graph& g, std::string name, std::string type, ir::OpClass opClass,
           std::vector<ir::ValueId> inputs, std::vector<ir::ValueId> outputs, ir::OpCost cost) {
    ir::Op op;
    op.name = std::move(name);
    op.type = std::move(type);
    op.opClass = opClass;
    op.inputs = std::move(inputs);
    op.outputs = std::move(outputs);
    op.cost = cost;
    g.ops.push_back(std::move(op));
}

} // namespace

std::shared_ptr<const ir::Graph> makeSmallGraph() {
    auto g = std::make_shared<ir::Graph>();
    g->name = "small";
    g->sourcePath = "/tmp/small.onnx";
    g->opsetVersion = 17;

    const auto input = addValue(*g, "input", {1, 3, 8, 8});
    const auto w = addValue(*g, "conv1.weight", {4, 3, 3, 3}, true);
    const auto b = addValue(*g, "conv1.bias", {4}, true);
    const auto conv = addValue(*g, "conv1_out", {1, 4, 8, 8});
    const auto relu = addValue(*g, "relu1_out", {1, 4, 8, 8});
    const auto fcW = addValue(*g, "fc.weight", {8, 2}, true);
    const auto output = addValue(*g, "output", {1, 4, 8, 2});

    addOp(*g, "conv1", "Conv", ir::OpClass::Conv, {input, w, b}, {conv},
          {.flops = 9, .bytesRead = 2048, .bytesWritten = 1024, .parameters = 112});
    addOp(*g, "relu1", "Relu", ir::OpClass::Elementwise, {conv}, {relu},
          {.flops = 10, .bytesRead = 1024, .bytesWritten = 1024, .parameters = 0});
    addOp(*g, "fc", "MatMul", ir::OpClass::MatMul, {relu, fcW}, {output},
          {.flops = 1e9, .bytesRead = 5u << 20, .bytesWritten = 256, .parameters = 16});

    g->inputs = {input};
    g->outputs = {output};
    g->parameterCount = 128;
    g->finalize();
    return g;
}

std::shared_ptr<const ir::Graph> makeChain(int n) {
    auto g = std::make_shared<ir::Graph>();
    ir::ValueId previous = addValue(*g, "input", {1, 32});
    g->inputs = {previous};
    for (int i = 0; i < n; ++i) {
        const ir::ValueId out = addValue(*g, "t" + std::to_string(i), {1, 32});
        addOp(*g, "op" + std::to_string(i), i % 2 ? "Relu" : "MatMul",
              i % 2 ? ir::OpClass::Elementwise : ir::OpClass::MatMul, {previous}, {out}, {});
        previous = out;
    }
    g->outputs = {previous};
    g->finalize();
    return g;
}

std::shared_ptr<const ir::Graph> makeFan(int inputs) {
    auto g = std::make_shared<ir::Graph>();
    std::vector<ir::ValueId> branches;
    for (int i = 0; i < inputs; ++i) {
        const ir::ValueId in = addValue(*g, "input" + std::to_string(i), {1, 32});
        g->inputs.push_back(in);
        const ir::ValueId out = addValue(*g, "r" + std::to_string(i), {1, 32});
        addOp(*g, "relu" + std::to_string(i), "Relu", ir::OpClass::Elementwise, {in}, {out}, {});
        branches.push_back(out);
    }
    const ir::ValueId joined = addValue(*g, "joined", {1, 32 * inputs});
    addOp(*g, "concat", "Concat", ir::OpClass::Elementwise, branches, {joined}, {});
    g->outputs = {joined};
    g->finalize();
    return g;
}

std::shared_ptr<const layout::GraphLayout> layOut(const ir::Graph& graph,
                                                  const layout::LayoutInput& input,
                                                  const layout::TextMetrics& metrics) {
    auto request = layout::buildLayoutRequest(graph, input, metrics);
    EXPECT_TRUE(request.ok());
    if (!request)
        return nullptr;
    auto result = layout::layoutWithDot(*request);
    EXPECT_TRUE(result.ok());
    if (!result)
        return nullptr;
    return std::make_shared<const layout::GraphLayout>(std::move(*result));
}

} // namespace strata::views::test

#include "LayoutGraphs.h"

#include "model/OnnxImporter.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace strata::layout::test {

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
           std::vector<ir::ValueId> inputs, std::vector<ir::ValueId> outputs) {
    ir::Op op;
    op.name = std::move(name);
    op.type = std::move(type);
    op.opClass = opClass;
    op.inputs = std::move(inputs);
    op.outputs = std::move(outputs);
    const auto id = ir::OpId(static_cast<std::uint32_t>(g.ops.size()));
    for (ir::ValueId out : op.outputs)
        g.values[out.index].producer = id;
    g.ops.push_back(std::move(op));
}

} // namespace

std::shared_ptr<const ir::Graph> makeChain(int n) {
    auto g = std::make_shared<ir::Graph>();
    g->name = "chain";
    ir::ValueId previous = addValue(*g, "input", {1, 64});
    g->inputs = {previous};
    for (int i = 0; i < n; ++i) {
        const bool matmul = i % 2 == 0;
        const ir::ValueId out = addValue(*g, "t" + std::to_string(i), {1, 64});
        std::vector<ir::ValueId> inputs{previous};
        if (matmul)
            inputs.push_back(addValue(*g, "w" + std::to_string(i), {64, 64}, true));
        addOp(*g, "op" + std::to_string(i), matmul ? "MatMul" : "Relu",
              matmul ? ir::OpClass::MatMul : ir::OpClass::Elementwise, inputs, {out});
        previous = out;
    }
    g->outputs = {previous};
    g->finalize();
    return g;
}

std::shared_ptr<const ir::Graph> makeDiamond() {
    auto g = std::make_shared<ir::Graph>();
    g->name = "diamond";
    const auto input = addValue(*g, "input", {1, 3, 32, 32});
    const auto weight = addValue(*g, "stem.weight", {8, 3, 3, 3}, true);
    const auto stem = addValue(*g, "stem_out", {1, 8, 32, 32});
    const auto left = addValue(*g, "left_out", {1, 8, 32, 32});
    const auto right = addValue(*g, "right_out", {1, 8, 32, 32});
    const auto sum = addValue(*g, "output", {1, 8, 32, 32});
    addOp(*g, "stem", "Conv", ir::OpClass::Conv, {input, weight}, {stem});
    addOp(*g, "left", "Mul", ir::OpClass::Elementwise, {stem, stem}, {left});
    addOp(*g, "right", "Relu", ir::OpClass::Elementwise, {stem}, {right});
    addOp(*g, "add", "Add", ir::OpClass::Elementwise, {left, right}, {sum});
    g->inputs = {input};
    g->outputs = {sum};
    g->finalize();
    return g;
}

std::shared_ptr<const ir::Graph> makeEmpty() {
    auto g = std::make_shared<ir::Graph>();
    g->name = "empty";
    g->finalize();
    return g;
}

std::shared_ptr<const ir::Graph> loadSample(const std::string& name) {
    const std::string path = std::string(STRATA_SAMPLES_DIR) + "/" + name;
    if (!std::filesystem::exists(path))
        return nullptr;
    auto imported = model::importOnnxFile(path);
    if (!imported)
        return nullptr;
    return std::move(imported->graph);
}

double distanceToOutline(const Rect& box, Point p) {
    const double dx = std::max({box.x - p.x, 0.0, p.x - box.right()});
    const double dy = std::max({box.y - p.y, 0.0, p.y - box.bottom()});
    if (dx > 0 || dy > 0)
        return std::hypot(dx, dy);
    // Inside: distance to the nearest side.
    return std::min({p.x - box.x, box.right() - p.x, p.y - box.y, box.bottom() - p.y});
}

} // namespace strata::layout::test

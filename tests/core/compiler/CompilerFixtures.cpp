#include "CompilerFixtures.h"

#include "model/OnnxImporter.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "support/TestModels.h"
#include "target/TargetLoader.h"

#include <stdexcept>

namespace strata::test {

std::shared_ptr<const ir::Graph> convChainWithWeights() {
    auto proto = modelProto(R"(
<ir_version: 8, opset_import: ["" : 17]>
chain (float[1, 4, 8, 8] X, float[4, 4, 3, 3] W1, float[4, 4, 3, 3] W2) => (float[1, 4, 8, 8] Y) {
    A = Conv <pads = [1, 1, 1, 1]> (X, W1)
    B = Relu (A)
    C = Conv <pads = [1, 1, 1, 1]> (B, W2)
    Y = Relu (C)
}
)");
    for (const char* name : {"W1", "W2"}) {
        auto* w = proto.mutable_graph()->add_initializer();
        w->set_name(name);
        w->set_data_type(onnx::TensorProto::FLOAT);
        for (int d : {4, 4, 3, 3}) w->add_dims(d);
        w->set_raw_data(std::string(144 * 4, '\0'));
    }
    auto m = importProto(proto);
    if (!m) throw std::runtime_error(joined(m.diagnostics()));
    return m->graph;
}

schedule::Schedule rowTilesOnEveryCore(const ir::Graph& graph, const target::Target& target) {
    schedule::Schedule s = schedule::makeSchedule(graph, target, schedule::Strategy::PerOp, {.mp = 8});
    for (const auto& b : std::vector(s.blocks)) {
        ir::Shape tile = graph.value(graph.op(b.ops.front()).outputs[0]).shape;
        tile[2] = 1;
        auto edited = schedule::setTile(s, graph, b.id, schedule::TileSpec{tile});
        if (!edited) throw std::runtime_error(joined(edited.diagnostics()));
        s = std::move(edited).value();
    }
    return s;
}

std::shared_ptr<const ir::Graph> sampleGraph(const std::string& file) {
    auto m = model::importOnnxFile(std::string(STRATA_SAMPLES_DIR) + "/" + file);
    if (!m) throw std::runtime_error(joined(m.diagnostics()));
    return m->graph;
}

target::Target presetTarget(const std::string& name) {
    auto t = target::resolveTarget(name);
    if (!t) throw std::runtime_error(joined(t.diagnostics()));
    return *t;
}

compiler::CompileState stateFor(const ir::Graph& graph, const target::Target& target, schedule::Schedule schedule) {
    auto check = schedule::checkSchedule(schedule, graph, target);
    if (!check.valid()) throw std::runtime_error(joined(check.diagnostics));
    compiler::CompileState state{graph, target, std::move(schedule), std::move(check.analysis), {}, {}, {}};
    state.program.mainMemory = target.mainMemory;
    state.program.workingMemory = target.workingMemory;
    return state;
}

} // namespace strata::test

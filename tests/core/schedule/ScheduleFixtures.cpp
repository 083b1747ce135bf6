#include "ScheduleFixtures.h"

#include "model/OnnxImporter.h"
#include "support/TestModels.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace strata::test {
namespace {

std::shared_ptr<const ir::Graph> imported(Expected<model::ImportedModel> m) {
    if (!m) throw std::runtime_error("fixture failed to import: " + joined(m.diagnostics()));
    return m->graph;
}

} // namespace

std::shared_ptr<const ir::Graph> convChain() {
    return imported(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
chain (float[1, 4, 8, 8] X, float[4, 4, 3, 3] W1, float[4, 4, 3, 3] W2) => (float[1, 4, 8, 8] Y) {
    A = Conv <pads = [1, 1, 1, 1]> (X, W1)
    B = Relu (A)
    C = Conv <pads = [1, 1, 1, 1]> (B, W2)
    Y = Relu (C)
}
)"));
}

std::shared_ptr<const ir::Graph> diamond() {
    return imported(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
diamond (float[1, 8, 16] X) => (float[1, 8, 16] Y) {
    A = Relu (X)
    B = Sigmoid (A)
    C = Tanh (A)
    D = Add (B, C)
    Y = Relu (D)
}
)"));
}

std::shared_ptr<const ir::Graph> sample(const std::string& file) {
    return imported(model::importOnnxFile(std::string(STRATA_SAMPLES_DIR) + "/" + file));
}

target::Target preset(const std::string& name) {
    auto t = target::resolveTarget(name);
    if (!t) throw std::runtime_error("preset " + name + " failed: " + joined(t.diagnostics()));
    return *t;
}

target::Target withWorkingMemory(target::Target target, std::uint64_t bytes) {
    for (auto& m : target.memories)
        if (m.name == target.workingMemory) m.capacityBytes = bytes;
    return target;
}

ir::OpId opNamed(const ir::Graph& graph, const std::string& name) {
    auto id = graph.findOp(name);
    if (!id) throw std::runtime_error("no op " + name);
    return *id;
}

} // namespace strata::test

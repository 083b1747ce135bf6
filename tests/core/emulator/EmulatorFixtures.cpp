#include "EmulatorFixtures.h"

#include "emulator/Emulator.h"

#include <gtest/gtest.h>
#include <utility>

namespace strata::test {

target::Target tinyTarget() {
    target::Target t;
    t.name = "tiny";
    t.source = "test";
    t.clockHz = 1e9;
    t.groups = 2;
    t.coresPerGroup = 1;
    t.throughput.of(ir::OpClass::Conv) = 1;
    t.throughput.of(ir::OpClass::MatMul) = 1;
    for (auto c : {ir::OpClass::Elementwise, ir::OpClass::Normalization, ir::OpClass::Pooling, ir::OpClass::Reduction,
                   ir::OpClass::Softmax, ir::OpClass::DataMovement, ir::OpClass::Other})
        t.throughput.of(c) = 1;
    t.workingMemory = "SRAM";
    t.mainMemory = "DRAM";
    t.memories = {{"DRAM", target::MemoryKind::Dram, target::Scope::Group, 1ull << 30, ""},
                  {"SRAM", target::MemoryKind::Sram, target::Scope::Core, 1ull << 20, ""}};
    t.resources = {{"port", target::Scope::Group, 16, ""}, {"side", target::Scope::Group, 16, ""}};
    t.paths = {{"load", "DRAM", "SRAM", 16, 100, 4, {"port"}, false, ""},
               {"store", "SRAM", "DRAM", 16, 100, 4, {"port"}, false, ""},
               {"aux", "DRAM", "SRAM", 16, 100, 4, {"side"}, false, ""},
               {"bcast", "DRAM", "SRAM", 32, 100, 4, {"port"}, true, ""}};
    return t;
}

ir::Value floatValue(const char* name, ir::Shape shape) {
    ir::Value v;
    v.name = name;
    v.dtype = ir::DType::Float32;
    v.shape = std::move(shape);
    return v;
}

ir::Graph convGraph(const char* name, ir::Shape x, ir::Shape w, ir::Shape y,
                    std::vector<ir::Attribute> attributes) {
    ir::Graph g;
    g.name = name;
    g.values.push_back(floatValue("x", std::move(x)));
    ir::Value weights = floatValue("w", std::move(w));
    weights.isConstant = true;
    g.values.push_back(std::move(weights));
    g.values.push_back(floatValue("y", std::move(y)));
    ir::Op conv;
    conv.name = "conv";
    conv.type = "Conv";
    conv.opClass = ir::OpClass::Conv;
    conv.inputs = {ir::ValueId(0), ir::ValueId(1)};
    conv.outputs = {ir::ValueId(2)};
    conv.attributes = std::move(attributes);
    g.ops = {conv};
    g.finalize();
    return g;
}

std::int64_t computeDurationNs(compiler::Compute compute, const ir::Graph& graph) {
    return computeDurationNs(std::move(compute), graph, tinyTarget());
}

std::int64_t computeDurationNs(compiler::Compute compute, const ir::Graph& graph,
                               const target::Target& target) {
    compiler::Program program = ProgramBuilder(1).program();
    compiler::Instruction in;
    in.from = {0, ir::OpId(0), 0};
    in.body = std::move(compute);
    program.streams[0].push_back(in.id);
    program.instructions.push_back(std::move(in));
    auto trace = emulator::emulate(program, target, graph);
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() && !trace->events.empty() ? trace->events.front().durationPs() / 1000 : -1;
}

const ir::Graph& tinyGraph() {
    static const ir::Graph graph = [] {
        ir::Graph g;
        g.name = "tiny";
        ir::Value x;
        x.name = "x";
        x.dtype = ir::DType::Float32;
        x.shape = {1, 1024};
        g.values.push_back(x);
        ir::Op conv;
        conv.name = "conv";
        conv.type = "Conv";
        conv.opClass = ir::OpClass::Conv;
        ir::Op relu;
        relu.name = "relu";
        relu.type = "Relu";
        relu.opClass = ir::OpClass::Elementwise;
        g.ops = {conv, relu};
        g.finalize();
        return g;
    }();
    return graph;
}

ProgramBuilder::ProgramBuilder(int cores) {
    m_program.modelName = "tiny";
    m_program.targetName = "tiny";
    m_program.mainMemory = "DRAM";
    m_program.workingMemory = "SRAM";
    m_program.cores = cores;
    m_program.streams.assign(static_cast<std::size_t>(cores), {});
}

compiler::InstrId ProgramBuilder::append(int core, int block, ir::OpId op, decltype(compiler::Instruction::body) body) {
    compiler::Instruction in;
    in.id = static_cast<compiler::InstrId>(m_program.instructions.size());
    in.core = core;
    in.from = {block, op, 0};
    in.body = std::move(body);
    m_program.streams[static_cast<std::size_t>(core)].push_back(in.id);
    m_program.instructions.push_back(std::move(in));
    return m_program.instructions.back().id;
}

compiler::InstrId ProgramBuilder::transfer(int core, const std::string& path, std::uint64_t bytes, int tag, int block) {
    compiler::Transfer t;
    t.path = path;
    t.bytes = bytes;
    t.tag = tag;
    return append(core, block, ir::OpId(0), std::move(t));
}

compiler::InstrId ProgramBuilder::wait(int core, int tag, int block) { return append(core, block, {}, compiler::Wait{tag}); }

compiler::InstrId ProgramBuilder::conv(int core, double macs, int block) {
    compiler::Compute c;
    c.opType = "Conv";
    c.flops = 2 * macs;
    return append(core, block, ir::OpId(0), std::move(c));
}

compiler::InstrId ProgramBuilder::relu(int core, std::int64_t elements, int block) {
    compiler::Compute c;
    c.opType = "Relu";
    compiler::Operand out;
    out.value = ir::ValueId(0);
    out.region = {{0, 1}, {0, elements}};
    c.outputs.push_back(out);
    return append(core, block, ir::OpId(1), std::move(c));
}

void ProgramBuilder::barrier() {
    for (int c = 0; c < m_program.cores; ++c) append(c, -1, {}, compiler::Barrier{m_barriers});
    ++m_barriers;
}

} // namespace strata::test

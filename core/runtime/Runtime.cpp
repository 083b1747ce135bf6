#include "runtime/Runtime.h"

#include "emulator/TraceSkeleton.h"
#include "runtime/Blas.h"
#include "runtime/Executor.h"
#include "runtime/Prepared.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <numeric>

namespace strata::runtime {
namespace {

Diagnostic problem(std::string message, Location where = {}) {
    return error("host runtime: " + std::move(message), std::move(where));
}

std::vector<Diagnostic> checkInputs(const ir::Graph& graph, const std::vector<reference::Tensor>& inputs) {
    std::vector<Diagnostic> out;
    if (inputs.size() != graph.inputs.size()) {
        out.push_back(problem(fmt::format("{} inputs given, the model has {}", inputs.size(), graph.inputs.size())));
        return out;
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const ir::Value& v = graph.value(graph.inputs[i]);
        const reference::Tensor& t = inputs[i];
        if (t.dtype != v.dtype || t.shape != v.shape || t.bytes.size() != v.bytes())
            out.push_back(problem(fmt::format("input '{}' is {} {} ({} bytes), the model needs {} {}", v.name,
                                              ir::dtypeName(t.dtype), ir::shapeToString(t.shape), t.bytes.size(),
                                              ir::dtypeName(v.dtype), ir::shapeToString(v.shape)),
                                  Location{.value = v.name}));
    }
    return out;
}

// Where the driver writes a weight or an input into main memory before the first pass.
struct Placement {
    std::uint64_t offset;
    const std::byte* bytes;
    std::size_t size;
    bool weight = false; // written once: no instruction stores into a weight's buffer
};

std::vector<Placement> placements(const compiler::Program& program, const ir::Graph& graph,
                                  const std::vector<reference::Tensor>& inputs, std::vector<Diagnostic>& problems) {
    std::vector<Placement> out;
    for (const compiler::DramBuffer& b : program.dram) {
        if (b.role != compiler::DramBuffer::Role::Weight) continue;
        const ir::Value& v = graph.value(b.value);
        if (!v.data.data || v.data.size != b.bytes) {
            problems.push_back(problem(fmt::format("weight '{}' has {} bytes of data, its buffer {}", v.name, v.data.size,
                                                   b.bytes),
                                       Location{.value = v.name}));
            continue;
        }
        out.push_back({b.offset, v.data.data, v.data.size, true});
    }
    for (std::size_t i = 0; i < graph.inputs.size() && i < inputs.size(); ++i)
        if (const compiler::DramBuffer* home = program.dramOf(graph.inputs[i]))
            out.push_back({home->offset, inputs[i].bytes.data(), std::min<std::size_t>(inputs[i].bytes.size(), home->bytes)});
    return out;
}

// The skeleton the emulator fills (compare matches the two by id), with the measured times of
// one repeat.
trace::Trace measuredTrace(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                           const emulator::CheckedProgram& checked, const Timing& timing) {
    trace::Trace t = emulator::traceSkeleton(program, target, graph, checked, trace::Source::Measured);
    for (std::size_t i = 0; i < t.events.size() && i < timing.startNs.size(); ++i) {
        trace::Event& e = t.events[i];
        e.startPs = timing.startNs[i] * 1000;
        e.endPs = std::max(timing.endNs[i], timing.startNs[i]) * 1000;
    }
    return t;
}

std::vector<reference::Tensor> readOutputs(const compiler::Program& program, const ir::Graph& graph, const Buffer& main) {
    std::vector<reference::Tensor> out;
    for (ir::ValueId id : graph.outputs) {
        const ir::Value& v = graph.value(id);
        reference::Tensor t = reference::zerosLike(v);
        if (const compiler::DramBuffer* home = program.dramOf(id))
            std::memcpy(t.bytes.data(), main.data() + home->offset, std::min<std::size_t>(t.bytes.size(), home->bytes));
        out.push_back(std::move(t));
    }
    return out;
}

// run() with the program's check done by the caller (`checked`), or done here (null).
Expected<RunResult> runChecked(const compiler::Program& program, const emulator::CheckedProgram* checked,
                               const target::Target& target, const ir::Graph& graph,
                               const std::vector<reference::Tensor>& inputs, const RunOptions& options) {
    std::vector<Diagnostic> problems = checkInputs(graph, inputs);
    if (options.repeat < 1) problems.push_back(problem("repeat must be at least 1"));
    if (options.warmUps < 0)
        problems.push_back(problem("warm-up passes cannot be fewer than none"));
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    const target::MemorySpace* main = target.findMemory(target.mainMemory);
    if (!working || !main || working->scope != target::Scope::Core)
        problems.push_back(problem(fmt::format("target '{}' is not host-like: it needs a main memory and a per-core "
                                               "working memory",
                                               target.name)));
    for (ir::ValueId id :
         graph.outputs) // an empty output needs no buffer (readOutputs leaves it empty)
        if (!program.dramOf(id) && graph.value(id).bytes() > 0)
            problems.push_back(problem(fmt::format("output '{}' has no buffer in main memory", graph.value(id).name)));
    if (!problems.empty()) return problems;

    const std::uint64_t mainBytes = mainMemoryBytes(program, graph);
    if (mainBytes > main->capacityBytes)
        return problem(fmt::format("the program needs {} bytes of main memory, target '{}' has {}", mainBytes,
                                   target.name, main->capacityBytes));
    Memories own;
    Memories& memories = options.memories ? *options.memories : own;
    memories.sizeFor(mainBytes, working->capacityBytes, program.cores);

    const PreparedProgram prepared = prepare(program, target, graph, memories, problems, checked);
    const std::vector<Placement> places = placements(program, graph, inputs, problems);
    if (hasErrors(problems)) return problems;

    if (const Blas& b = blas(); !b.sgemm) return problem(b.error);
    std::vector<Workspace> workspaces(prepared.streams.size());
    RunResult result;
    std::vector<Timing> timings;
    std::vector<std::vector<reference::Tensor>> outputs;
    for (int r = 0; r < options.warmUps + options.repeat; ++r) {
        const bool kept = r >= options.warmUps;
        // Weights once, as a model serving run after run holds them: copied again before every
        // pass they sat dirty in the copying core's caches, and a pass read them from there rather
        // than where its previous pass had left them (docs/RUNTIME.md). Inputs every pass.
        for (const Placement& p : places)
            if (r == 0 || !p.weight)
                std::memcpy(memories.main.data() + p.offset, p.bytes, p.size);
        if (options.coldOutputs && kept)
            for (ir::ValueId id : graph.outputs)
                if (const compiler::DramBuffer* home = program.dramOf(id))
                    evictFromCaches(memories.main.data() + home->offset, home->bytes);
        Timing timing =
            execute(prepared, options.timestamps, workspaces, kept ? options.churn : nullptr);
        if (!timing.failure.empty()) return problem("a kernel failed: " + timing.failure);
        if (!kept)
            continue;
        result.totalsNs.push_back(static_cast<double>(timing.totalNs));
        if (options.readOutputs)
            outputs.push_back(readOutputs(program, graph, memories.main));
        timings.push_back(std::move(timing));
    }
    // The repeat with the median total (the lower one of an even count).
    std::vector<std::size_t> order(timings.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return timings[a].totalNs < timings[b].totalNs; });
    const std::size_t median = order[(order.size() - 1) / 2];
    result.trace = measuredTrace(program, target, graph, prepared.checked, timings[median]);
    if (options.readOutputs)
        result.outputs = std::move(outputs[median]);
    return result;
}

} // namespace

Expected<RunResult> run(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                        const std::vector<reference::Tensor>& inputs, const RunOptions& options) {
    return runChecked(program, nullptr, target, graph, inputs, options);
}

Expected<RunResult> run(const compiler::Program& program, const emulator::CheckedProgram& checked,
                        const target::Target& target, const ir::Graph& graph,
                        const std::vector<reference::Tensor>& inputs, const RunOptions& options) {
    return runChecked(program, &checked, target, graph, inputs, options);
}

} // namespace strata::runtime

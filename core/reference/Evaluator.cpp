#include "reference/Evaluator.h"

#include "base/SplitMix64.h"
#include "reference/Elements.h"
#include "reference/Kernels.h"

#include <algorithm>
#include <array>
#include <optional>

namespace strata::reference {

namespace {

using kernels::KernelInfo;

// Every family's table, named as its file is (Kernels<name>.cpp).
struct Family {
    std::string_view name;
    std::span<const KernelInfo> table;
};
std::array<Family, 9> kernelFamilies() {
    return {{{"Elementwise", kernels::elementwiseKernels()},
             {"Convert", kernels::convertKernels()},
             {"Conv", kernels::convKernels()},
             {"MatMul", kernels::matMulKernels()},
             {"Norm", kernels::normKernels()},
             {"Reduce", kernels::reduceKernels()},
             {"Shape", kernels::shapeKernels()},
             {"Index", kernels::indexKernels()},
             {"Resize", kernels::resizeKernels()}}};
}

const KernelInfo* findKernel(const ir::Op& op) {
    if (!op.domain.empty())
        return nullptr;
    for (const Family& family : kernelFamilies())
        for (const KernelInfo& k : family.table)
            if (k.type == op.type)
                return &k;
    return nullptr;
}

std::string reasonFor(const ir::Graph* graph, const ir::Op& op) {
    const KernelInfo* kernel = findKernel(op);
    if (!kernel)
        return "op type '" + (op.domain.empty() ? "" : op.domain + ".") + op.type +
               "' is not supported by the reference evaluator";
    if (graph) {
        if (op.outputs.empty())
            return op.type + ": op has no outputs";
        for (std::size_t i = 0; i < op.inputs.size(); ++i)
            if (op.inputs[i].valid() && !isSupportedDType(graph->value(op.inputs[i]).dtype))
                return op.type + ": input " + std::to_string(i) + " has dtype " +
                       std::string(ir::dtypeName(graph->value(op.inputs[i]).dtype)) +
                       ", which the reference evaluator does not hold";
        for (std::size_t i = 0; i < op.outputs.size(); ++i)
            if (!isSupportedDType(graph->value(op.outputs[i]).dtype))
                return op.type + ": output " + std::to_string(i) + " has dtype " +
                       std::string(ir::dtypeName(graph->value(op.outputs[i]).dtype)) +
                       ", which the reference evaluator does not hold";
    }
    if (graph && kernel->broadcasts) {
        const ir::Shape& out = graph->value(op.outputs[0]).shape;
        for (std::size_t i = 0; i < op.inputs.size(); ++i) {
            if (!op.inputs[i].valid())
                continue;
            const ir::Shape& in = graph->value(op.inputs[i]).shape;
            if (!kernels::broadcastsTo(in, out))
                return op.type + ": input " + std::to_string(i) + " (" + ir::shapeToString(in) +
                       ") does not broadcast to the output (" + ir::shapeToString(out) + ")";
        }
    }
    if (!kernel->check)
        return {};
    std::string why = kernel->check(kernels::SupportQuery{graph, op});
    return why.empty() ? why : op.type + ": " + why;
}

std::string describe(const Tensor& t) {
    return std::string(ir::dtypeName(t.dtype)) + " " + ir::shapeToString(t.shape);
}
std::string describe(const ir::Value& v) {
    return std::string(ir::dtypeName(v.dtype)) + " " + ir::shapeToString(v.shape);
}

bool matches(const Tensor& t, const ir::Value& v) {
    return t.dtype == v.dtype && t.shape == v.shape &&
           t.bytes.size() == std::size_t(t.elements()) * ir::dtypeSize(t.dtype);
}

} // namespace

Expected<Done> computeRegion(const ir::Graph& graph, const ir::Op& op,
                             const std::vector<const Tensor*>& inputs,
                             const tiling::Region& outputRegion, Tensor& output,
                             std::size_t outputIndex) {
    const Location where{.node = op.name};
    if (std::string why = reasonFor(&graph, op); !why.empty())
        return error(why, where);
    if (outputIndex >= op.outputs.size())
        return error(op.type + " has " + std::to_string(op.outputs.size()) + " output(s); output " +
                         std::to_string(outputIndex) + " was asked for",
                     where);
    if (inputs.size() != op.inputs.size())
        return error(op.type + " takes " + std::to_string(op.inputs.size()) + " input(s) here, " +
                         std::to_string(inputs.size()) + " were given",
                     where);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        if (!op.inputs[i].valid())
            continue; // an omitted input is not read
        const ir::Value& v = graph.value(op.inputs[i]);
        if (!inputs[i])
            return error(
                op.type + ": input " + std::to_string(i) + " ('" + v.name + "') is missing", where);
        if (!matches(*inputs[i], v))
            return error(op.type + ": input " + std::to_string(i) + " ('" + v.name + "') is " +
                             describe(*inputs[i]) + ", the graph says " + describe(v),
                         where);
    }
    const ir::Value& out = graph.value(op.outputs[outputIndex]);
    if (!matches(output, out))
        return error(op.type + ": output tensor is " + describe(output) + ", the graph says " +
                         describe(out) + " for '" + out.name + "'",
                     where);
    if (outputRegion.size() != out.shape.size() ||
        !tiling::regionContains(tiling::fullRegion(out.shape), outputRegion))
        return error(op.type + ": region " + tiling::regionToString(outputRegion) +
                         " is not inside output '" + out.name + "' (" + describe(out) + ")",
                     where);
    if (tiling::regionEmpty(outputRegion))
        return Done{};

    // Omitted inputs reach kernels as nullptr even when the caller passed something.
    std::vector<const Tensor*> present(inputs);
    for (std::size_t i = 0; i < present.size(); ++i)
        if (!op.inputs[i].valid())
            present[i] = nullptr;
    const kernels::KernelContext ctx{graph, op, present, outputRegion, outputIndex, output};
    if (auto failure = findKernel(op)->run(ctx))
        return error(op.type + ": " + *failure, where);
    return Done{};
}

Expected<std::vector<Tensor>> evaluate(const ir::Graph& graph, const std::vector<Tensor>& inputs) {
    if (inputs.size() != graph.inputs.size())
        return error("the graph has " + std::to_string(graph.inputs.size()) + " input(s), " +
                     std::to_string(inputs.size()) + " were given");
    std::vector<Diagnostic> problems;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const ir::Value& v = graph.value(graph.inputs[i]);
        if (!matches(inputs[i], v))
            problems.push_back(error("input " + std::to_string(i) + " is " + describe(inputs[i]) +
                                         ", the graph expects " + describe(v),
                                     {.value = v.name}));
    }
    for (const ir::Op& op : graph.ops)
        if (std::string why = reasonFor(&graph, op); !why.empty())
            problems.push_back(error(why, {.node = op.name}));
    if (!problems.empty())
        return problems;

    // Tensors by value id; an intermediate is dropped after its last consumer.
    std::vector<std::optional<Tensor>> values(graph.values.size());
    std::vector<int> usesLeft(graph.values.size(), 0);
    for (const ir::Op& op : graph.ops)
        for (ir::ValueId in : op.inputs)
            if (in.valid())
                ++usesLeft[in.index];
    std::vector<bool> isOutput(graph.values.size(), false);
    for (ir::ValueId out : graph.outputs)
        isOutput[out.index] = true;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        values[graph.inputs[i].index] = inputs[i];

    auto materialize = [&](ir::ValueId id) -> std::optional<Diagnostic> {
        if (values[id.index])
            return std::nullopt;
        const ir::Value& v = graph.value(id);
        if (!v.isConstant)
            return error("value has no producer and is not a graph input", {.value = v.name});
        auto t = constantTensor(v);
        if (!t)
            return t.diagnostics().front();
        values[id.index] = std::move(*t);
        return std::nullopt;
    };

    for (const ir::Op& op : graph.ops) {
        std::vector<const Tensor*> in(op.inputs.size(), nullptr);
        for (std::size_t i = 0; i < op.inputs.size(); ++i) {
            if (!op.inputs[i].valid())
                continue;
            if (auto d = materialize(op.inputs[i])) {
                d->where.node = op.name;
                return *d;
            }
            in[i] = &*values[op.inputs[i].index];
        }
        std::vector<Tensor> results;
        for (std::size_t k = 0; k < op.outputs.size(); ++k) {
            Tensor t = zerosLike(graph.value(op.outputs[k]));
            auto done = computeRegion(graph, op, in, tiling::fullRegion(t.shape), t, k);
            if (!done)
                return done.takeDiagnostics();
            results.push_back(std::move(t));
        }
        for (std::size_t k = 0; k < op.outputs.size(); ++k)
            values[op.outputs[k].index] = std::move(results[k]);
        for (ir::ValueId id : op.inputs)
            if (id.valid() && --usesLeft[id.index] == 0 && !isOutput[id.index])
                values[id.index].reset();
    }

    std::vector<Tensor> outputs;
    for (ir::ValueId id : graph.outputs) {
        if (auto d = materialize(id))
            return *d;
        outputs.push_back(*values[id.index]);
    }
    return outputs;
}

std::vector<Tensor> sampleInputs(const ir::Graph& graph, std::uint64_t seed) {
    SplitMix64 draws(seed);
    std::vector<Tensor> inputs;
    for (ir::ValueId id : graph.inputs) {
        const ir::Value& v = graph.value(id);
        if (!kernels::isFloatType(v.dtype)) {
            inputs.push_back(zerosLike(v));
            continue;
        }
        // Written in place: calibration draws tens of MiB of inputs.
        Tensor t = zerosLike(v);
        visitAny(v.dtype, [&]<class T>(TypeTag<T>) {
            T* out = t.data<T>();
            const std::int64_t n = t.elements();
            for (std::int64_t i = 0; i < n; ++i)
                out[i] = convertElement<T>(double(draws.next() >> 11) * 0x1p-52 - 1.0); // [-1, 1)
        });
        inputs.push_back(std::move(t));
    }
    return inputs;
}

bool supports(const ir::Op& op) {
    return reasonFor(nullptr, op).empty();
}

bool supports(const ir::Graph& graph, const ir::Op& op) {
    return reasonFor(&graph, op).empty();
}

std::string unsupportedReason(const ir::Graph& graph, const ir::Op& op) {
    return reasonFor(&graph, op);
}

std::string_view kernelFamily(std::string_view opType) {
    for (const Family& family : kernelFamilies())
        for (const KernelInfo& k : family.table)
            if (k.type == opType)
                return family.name;
    return {};
}

std::vector<std::string> supportedOpTypes() {
    std::vector<std::string> types;
    for (const Family& family : kernelFamilies())
        for (const KernelInfo& k : family.table)
            types.emplace_back(k.type);
    std::sort(types.begin(), types.end());
    types.erase(std::unique(types.begin(), types.end()), types.end());
    return types;
}

} // namespace strata::reference

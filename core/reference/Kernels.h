#pragma once
// Internal to the reference evaluator: what a kernel sees, the helpers kernels share, and the
// per-family kernel tables (one .cpp per family, each exporting a table of KernelInfo).
// Evaluator.cpp looks a kernel up by op type, checks support and shapes, and calls it.

#include "reference/Elements.h"
#include "reference/Tensor.h"
#include "tiling/Region.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strata::reference::kernels {

using Index = std::vector<std::int64_t>;

// One call computes `region` of output `outputIndex` of `op`. Inputs and output are checked
// against the graph's shapes and dtypes before the kernel runs; `region` lies inside the
// output and is not empty.
struct KernelContext {
    const ir::Graph& graph;
    const ir::Op& op;
    const std::vector<const Tensor*>& inputs; // nullptr for an omitted optional input
    const tiling::Region& region;
    std::size_t outputIndex;
    Tensor& output;

    std::int64_t opset() const { return graph.opsetVersion; }
    bool has(std::size_t i) const { return i < inputs.size() && inputs[i]; }
    const Tensor& in(std::size_t i) const { return *inputs[i]; }
    const ir::Shape& outShape() const { return output.shape; }
};

// A kernel returns an error message for input it cannot compute (e.g. an index out of range),
// or nothing on success.
using KernelFn = std::optional<std::string> (*)(const KernelContext&);

// What support looks like from the graph: an op, with the graph when the caller has one (for
// dtypes and the opset). `graph` may be null: then only the type and attributes are checked.
struct SupportQuery {
    const ir::Graph* graph;
    const ir::Op& op;

    std::int64_t opset() const { return graph ? graph->opsetVersion : 0; }
    bool hasInput(std::size_t i) const { return i < op.inputs.size() && op.inputs[i].valid(); }
    // Dtype of input i / output i; Undefined without a graph or when absent.
    ir::DType inputType(std::size_t i) const;
    ir::DType outputType(std::size_t i) const;
};

// Empty when supported, otherwise why not ("auto_pad 'X' is not supported").
using SupportFn = std::string (*)(const SupportQuery&);

struct KernelInfo {
    std::string_view type;
    KernelFn run;
    SupportFn check;         // null: every use of the op type is supported
    bool broadcasts = false; // every input broadcasts (numpy rules) to the output's shape
};

// Whether `in` broadcasts to `out` under numpy's rules (right-aligned, dims equal or 1).
bool broadcastsTo(const ir::Shape& in, const ir::Shape& out);

std::span<const KernelInfo> elementwiseKernels();
std::span<const KernelInfo> convertKernels();
std::span<const KernelInfo> convKernels();
std::span<const KernelInfo> matMulKernels();
std::span<const KernelInfo> normKernels();
std::span<const KernelInfo> reduceKernels();
std::span<const KernelInfo> shapeKernels();
std::span<const KernelInfo> indexKernels();
std::span<const KernelInfo> resizeKernels();

// --- attribute access ---
double attrFloat(const ir::Op& op, std::string_view name, double fallback);
std::string attrString(const ir::Op& op, std::string_view name, std::string_view fallback);
std::vector<double> attrFloats(const ir::Op& op, std::string_view name);
bool hasAttr(const ir::Op& op, std::string_view name);

// --- support checks shared by families ---
// "" when every listed input and output dtype satisfies `ok` (absent ones are skipped).
template <class Pred> std::string checkTypes(const SupportQuery& q, Pred ok) {
    if (!q.graph)
        return {};
    for (std::size_t i = 0; i < q.op.inputs.size(); ++i)
        if (q.hasInput(i) && !ok(q.inputType(i)))
            return "input " + std::to_string(i) + " of dtype " +
                   std::string(ir::dtypeName(q.inputType(i))) + " is not supported";
    for (std::size_t i = 0; i < q.op.outputs.size(); ++i)
        if (!ok(q.outputType(i)))
            return "output " + std::to_string(i) + " of dtype " +
                   std::string(ir::dtypeName(q.outputType(i))) + " is not supported";
    return {};
}
bool isFloatType(ir::DType t);   // float32, float64, float16, bfloat16
bool isNumericType(ir::DType t); // floating or integral, not bool
bool isIndexType(ir::DType t);   // int32, int64

// --- index helpers ---
std::vector<std::int64_t> stridesOf(const ir::Shape& shape);
// Negative axes count from the back; nullopt when out of [-rank, rank).
std::optional<std::int64_t> normalizeAxis(std::int64_t axis, std::int64_t rank);
std::int64_t dot(const Index& index, const std::vector<std::int64_t>& strides);
// Strides of `inShape` broadcast (numpy rules, right-aligned) to a shape of rank `outRank`:
// 0 where the input has no such dim or has size 1.
std::vector<std::int64_t> broadcastStrides(const ir::Shape& inShape, std::size_t outRank);

// Calls fn(index) for every index of `region` in row-major order.
template <class F> void forEachIndex(const tiling::Region& region, F&& fn) {
    if (tiling::regionEmpty(region))
        return;
    Index index(region.size());
    for (std::size_t d = 0; d < region.size(); ++d)
        index[d] = region[d].begin;
    while (true) {
        fn(static_cast<const Index&>(index));
        std::size_t d = region.size();
        while (d > 0) {
            --d;
            if (++index[d] < region[d].end)
                break;
            index[d] = region[d].begin;
            if (d == 0)
                return;
        }
        if (region.empty())
            return;
    }
}

// Calls fn(index, count) once per row of `region`: index holds the row's first element and the
// row runs `count` elements along the last dimension (count 1 for a scalar).
template <class F> void forEachRow(const tiling::Region& region, F&& fn) {
    if (region.empty()) {
        fn(Index{}, std::int64_t(1));
        return;
    }
    tiling::Region outer = region;
    outer.back().end = outer.back().begin + 1;
    const std::int64_t count = region.back().size();
    forEachIndex(outer, [&](const Index& index) { fn(index, count); });
}

// Calls fn(outOffset, inOffsets) for every element of `region` of an output of `outShape`,
// with inOffsets[k] the offset of the element of input k broadcast to it.
template <class F>
void forEachBroadcast(const ir::Shape& outShape, const tiling::Region& region,
                      const std::vector<const ir::Shape*>& inShapes, F&& fn) {
    const auto outStrides = stridesOf(outShape);
    std::vector<std::vector<std::int64_t>> inStrides;
    for (const ir::Shape* s : inShapes)
        inStrides.push_back(broadcastStrides(*s, outShape.size()));
    const std::size_t k = inShapes.size();
    std::vector<std::int64_t> offsets(k), last(k);
    for (std::size_t i = 0; i < k; ++i)
        last[i] = outShape.empty() ? 0 : inStrides[i].back();
    forEachRow(region, [&](const Index& index, std::int64_t count) {
        std::int64_t out = dot(index, outStrides);
        for (std::size_t i = 0; i < k; ++i)
            offsets[i] = dot(index, inStrides[i]);
        for (std::int64_t j = 0; j < count; ++j) {
            fn(out, static_cast<const std::vector<std::int64_t>&>(offsets));
            ++out;
            for (std::size_t i = 0; i < k; ++i)
                offsets[i] += last[i];
        }
    });
}

// Copies, for every element of `region` of the output, the input element whose offset
// `source(outIndex)` returns (-1: leave the output element as it is). Works on any dtype by
// element size.
template <class F>
void gatherElements(const Tensor& input, Tensor& output, const tiling::Region& region, F&& source) {
    const auto outStrides = stridesOf(output.shape);
    visitBySize(ir::dtypeSize(output.dtype), [&]<class T>(TypeTag<T>) {
        const T* in = input.data<T>();
        T* out = output.data<T>();
        forEachIndex(region, [&](const Index& index) {
            const std::int64_t from = source(index);
            if (from >= 0)
                out[dot(index, outStrides)] = in[from];
        });
    });
}

// The scalar value of a (possibly absent) input, as double; `fallback` when absent or empty.
double scalarInput(const KernelContext& ctx, std::size_t i, double fallback);

} // namespace strata::reference::kernels

// strata_rt's kernel of last resort: a compute no strata_rt kernel covers (compiler::Kernel::
// Reference) runs the reference evaluator's per-region kernel (core/reference), so coverage is
// never why a model cannot run: not in the host runtime (runtime/ReferenceFallback.cpp), not as
// generated C++ (which then carries the evaluator's own source and this file after strata_rt:
// EmbedReference.cmake).
//
// The evaluator wants whole tensors: each input box the tile holds is copied into a full-size
// tensor at its place (a constant the tile holds no box of is passed whole), each output box is
// computed into a full-size tensor and copied back into the tile. The full-size tensors are per
// worker and reused, so a tile costs two box copies plus the evaluator's element-by-element loop
// (index arithmetic per element: roughly 10-50x a fast kernel), never an allocation once warm.
#pragma once

#include "compiler/emit/cpp/strata_rt.h"
#include "reference/Evaluator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace strata_rt {

// Per worker thread: the full-size tensors the evaluator reads and writes.
struct ReferenceBuffers {
    std::vector<strata::reference::Tensor> inputs;
    strata::reference::Tensor output;
};

namespace reference_detail {

// Shapes `t` as `value` (dtype, shape, byte count); its bytes keep what they held (growing
// zero-fills), since only the boxes copied in are read.
inline void shapeLike(strata::reference::Tensor& t, const strata::ir::Value& value) {
    t.dtype = value.dtype;
    t.shape = value.shape;
    t.bytes.resize(static_cast<std::size_t>(value.bytes()));
}

// Where a box lies inside a full-size row-major tensor of its shape: the strides (elements) into
// `strides`, the offset of its first element returned, in bytes of `elementBytes`.
inline i64 placeBox(const View<unsigned char>& box, i64* strides, std::size_t elementBytes) {
    i64 offset = 0, stride = 1;
    for (int d = box.rank; d-- > 0;) {
        strides[d] = stride;
        offset += box.lo[d] * stride;
        stride *= box.full[d];
    }
    return offset * static_cast<i64>(elementBytes);
}

} // namespace reference_detail

// Computes every output box of `op` (a member of `graph`) the tile holds: `outputs` has one view
// per op output (null `data`: the tile does not write it), `inputs` one per op input (null
// `data`: omitted, or not read for these boxes), `constants` one per op input or is null (the
// whole tensor of a constant input the tile holds no box of). Returns the evaluator's message
// when it fails (e.g. an index out of range in the data), else an empty string.
inline std::string
referenceCompute(const strata::ir::Graph& graph, const strata::ir::Op& op,
                 const View<unsigned char>* inputs,
                 const std::shared_ptr<const strata::reference::Tensor>* constants,
                 const View<unsigned char>* outputs, ReferenceBuffers& b) {
    using strata::reference::Tensor;
    b.inputs.resize(std::max(b.inputs.size(), op.inputs.size()));
    std::vector<const Tensor*> whole(op.inputs.size(), nullptr);
    i64 strides[kMaxRank];
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
        if (!op.inputs[i].valid())
            continue;
        if (!inputs[i].data && constants && constants[i]) {
            whole[i] = constants[i].get();
            continue;
        }
        Tensor& t = b.inputs[i];
        reference_detail::shapeLike(t, graph.value(op.inputs[i]));
        // An operand the tile does not hold is not read for these boxes (bounds inference).
        if (const View<unsigned char>& box = inputs[i]; box.data) {
            const std::size_t e = strata::ir::dtypeSize(t.dtype);
            const i64 at = reference_detail::placeBox(box, strides, e);
            moveBox(reinterpret_cast<unsigned char*>(t.bytes.data()) + at, strides, box.data,
                    box.stride, box.ext, box.rank, e);
        }
        whole[i] = &t;
    }
    for (std::size_t k = 0; k < op.outputs.size(); ++k) {
        const View<unsigned char>& box = outputs[k];
        if (!box.data)
            continue;
        reference_detail::shapeLike(b.output, graph.value(op.outputs[k]));
        strata::tiling::Region region;
        for (int d = 0; d < box.rank; ++d)
            region.push_back({box.lo[d], box.lo[d] + box.ext[d]});
        auto done = strata::reference::computeRegion(graph, op, whole, region, b.output, k);
        if (!done)
            return done.diagnostics().front().message;
        const std::size_t e = strata::ir::dtypeSize(b.output.dtype);
        const i64 at = reference_detail::placeBox(box, strides, e);
        moveBox(box.data, box.stride,
                reinterpret_cast<const unsigned char*>(b.output.bytes.data()) + at, strides,
                box.ext, box.rank, e);
    }
    return {};
}

// --- the generated program's side: the graph its reference computes read ----------------------

// A value of that graph: its name, ONNX dtype number and shape; a constant the tiles do not load
// also gets its bytes (`data`, which must outlive the program).
inline strata::ir::Value referenceValue(const char* name, int dtype,
                                        std::initializer_list<i64> shape,
                                        const char* data = nullptr, std::size_t bytes = 0) {
    strata::ir::Value v;
    v.name = name;
    v.dtype = static_cast<strata::ir::DType>(dtype);
    v.shape.assign(shape.begin(), shape.end());
    v.isConstant = data != nullptr;
    v.data.data = reinterpret_cast<const std::byte*>(data);
    v.data.size = data ? bytes : 0;
    return v;
}

// An op of that graph; inputs and outputs are value indices, -1 for an omitted optional input.
inline strata::ir::Op referenceOp(const char* type, const char* name,
                                  std::vector<strata::ir::Attribute> attributes,
                                  std::initializer_list<int> inputs,
                                  std::initializer_list<int> outputs) {
    strata::ir::Op op;
    op.type = type;
    op.name = name;
    op.attributes = std::move(attributes);
    for (int i : inputs)
        op.inputs.push_back(i < 0 ? strata::ir::ValueId()
                                  : strata::ir::ValueId(static_cast<std::uint32_t>(i)));
    for (int i : outputs)
        op.outputs.push_back(strata::ir::ValueId(static_cast<std::uint32_t>(i)));
    return op;
}

// The ops a generated program runs on the reference evaluator, with their constants decoded once.
struct ReferenceProgram {
    strata::ir::Graph graph;
    std::vector<std::vector<std::shared_ptr<const strata::reference::Tensor>>>
        constants; // per op, input

    explicit ReferenceProgram(strata::ir::Graph g) : graph(std::move(g)) {
        graph.finalize();
        for (const strata::ir::Op& op : graph.ops) {
            auto& decoded = constants.emplace_back(op.inputs.size());
            for (std::size_t i = 0; i < op.inputs.size(); ++i) {
                if (!op.inputs[i].valid() || graph.value(op.inputs[i]).data.empty())
                    continue;
                auto t = strata::reference::constantTensor(graph.value(op.inputs[i]));
                if (t)
                    decoded[i] = std::make_shared<const strata::reference::Tensor>(std::move(*t));
            }
        }
    }
};

// Runs op `index` of `program` on one tile's boxes; a failure stops the program with the
// evaluator's message (as the host runtime stops its run).
inline void reference(const ReferenceProgram& program, std::size_t index,
                      std::initializer_list<View<unsigned char>> inputs,
                      std::initializer_list<View<unsigned char>> outputs) {
    thread_local ReferenceBuffers buffers;
    const strata::ir::Op& op = program.graph.ops[index];
    const std::string why =
        referenceCompute(program.graph, op, inputs.begin(), program.constants[index].data(),
                         outputs.begin(), buffers);
    if (!why.empty()) {
        std::fprintf(stderr, "strata_rt: %s '%s': %s\n", op.type.c_str(), op.name.c_str(),
                     why.c_str());
        std::exit(1);
    }
}

} // namespace strata_rt

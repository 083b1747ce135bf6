#include "runtime/ReferenceFallback.h"

#include "reference/Evaluator.h"
#include "runtime/StridedCopy.h"

#include <algorithm>
#include <stdexcept>

namespace strata::runtime {
namespace {

// Shapes `t` as `value` (dtype, shape, byte count); its bytes keep what they held (growing
// zero-fills), since only the boxes copied in are read.
void shapeLike(reference::Tensor& t, const ir::Value& value) {
    t.dtype = value.dtype;
    t.shape = value.shape;
    t.bytes.resize(static_cast<std::size_t>(value.bytes()));
}

struct Placement {
    std::int64_t offset = 0; // elements from the tensor's start to the box's first element
    rt::i64 strides[rt::kMaxRank] = {};
};

// Where a view's box lies inside a full-size row-major tensor of its shape.
Placement placementOf(const rt::View<unsigned char>& v) {
    Placement p;
    std::int64_t stride = 1;
    for (int d = v.rank; d-- > 0;) {
        p.strides[d] = stride;
        p.offset += v.lo[d] * stride;
        stride *= v.full[d];
    }
    return p;
}

void copyIn(reference::Tensor& whole, const rt::View<unsigned char>& box) {
    const std::size_t e = ir::dtypeSize(whole.dtype);
    const Placement at = placementOf(box);
    copyBox(reinterpret_cast<unsigned char*>(whole.bytes.data()) +
                at.offset * static_cast<std::int64_t>(e),
            at.strides, box.data, box.stride, box.ext, box.rank, e);
}

void copyOut(const rt::View<unsigned char>& box, const reference::Tensor& whole) {
    const std::size_t e = ir::dtypeSize(whole.dtype);
    const Placement at = placementOf(box);
    copyBox(box.data, box.stride,
            reinterpret_cast<const unsigned char*>(whole.bytes.data()) +
                at.offset * static_cast<std::int64_t>(e),
            at.strides, box.ext, box.rank, e);
}

} // namespace

void runReference(const PreparedCompute& p, ReferenceBuffers& b) {
    const ir::Graph& graph = *p.graph;
    const ir::Op& op = *p.op;
    b.inputs.resize(std::max(b.inputs.size(), op.inputs.size()));
    std::vector<const reference::Tensor*> inputs(op.inputs.size(), nullptr);
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
        if (!op.inputs[i].valid())
            continue;
        if (p.constants[i]) {
            inputs[i] = p.constants[i].get();
            continue;
        }
        reference::Tensor& whole = b.inputs[i];
        shapeLike(whole, graph.value(op.inputs[i]));
        // An operand the tile does not hold is not read for this region (bounds inference).
        if (p.inputs[i].data)
            copyIn(whole, p.inputs[i]);
        inputs[i] = &whole;
    }
    for (std::size_t k = 0; k < p.outputs.size(); ++k) {
        const rt::View<unsigned char>& box = p.outputs[k];
        if (!box.data)
            continue;
        shapeLike(b.output, graph.value(op.outputs[k]));
        tiling::Region region;
        for (int d = 0; d < box.rank; ++d)
            region.push_back({box.lo[d], box.lo[d] + box.ext[d]});
        auto done = reference::computeRegion(graph, op, inputs, region, b.output, k);
        if (!done)
            throw std::runtime_error(done.diagnostics().front().message);
        copyOut(box, b.output);
    }
}

} // namespace strata::runtime

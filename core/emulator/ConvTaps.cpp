#include "emulator/ConvTaps.h"

#include "tiling/Window.h"

#include <cstdint>

namespace strata::emulator {
namespace {

// Along one spatial dim: taps landing inside [0, in) over the outputs [begin, end), as a share
// of all their taps.
double inBoundsShare(const tiling::Interval& outputs, std::int64_t in, std::int64_t kernel,
                     std::int64_t stride, std::int64_t dilation, std::int64_t padBegin) {
    std::int64_t inside = 0;
    for (std::int64_t o = outputs.begin; o < outputs.end; ++o)
        for (std::int64_t k = 0; k < kernel; ++k) {
            const std::int64_t i = o * stride - padBegin + k * dilation;
            inside += i >= 0 && i < in ? 1 : 0;
        }
    const std::int64_t all = outputs.size() * kernel;
    return all > 0 && inside > 0 ? double(inside) / double(all) : 1;
}

} // namespace

double inBoundsTapShare(const compiler::Compute& compute, const ir::Op& op,
                        const ir::Graph& graph) {
    if (op.type != "Conv" || op.inputs.size() < 2 || op.outputs.empty() || compute.outputs.empty())
        return 1;
    const ir::Shape& in = graph.value(op.inputs[0]).shape;
    const ir::Shape& weight = graph.value(op.inputs[1]).shape;
    const ir::Shape& out = graph.value(op.outputs[0]).shape;
    const auto window = tiling::slidingWindow(op, tiling::convKernel(op, weight), in, out);
    const tiling::Region& box = compute.outputs.front().region;
    if (!window || box.size() != out.size())
        return 1;
    double share = 1;
    for (std::size_t d = 0; d + 2 < out.size(); ++d)
        share *= inBoundsShare(box[d + 2], in[d + 2], window->kernel[d], window->strides[d],
                               window->dilations[d], window->padBegin[d]);
    return share;
}

} // namespace strata::emulator

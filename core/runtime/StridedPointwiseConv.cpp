#include "runtime/StridedPointwiseConv.h"

#include "runtime/ChannelsLastConv.h"
#include "runtime/ComputeKernels.h"
#include "runtime/DnnlConv.h"
#include "runtime/ViewCast.h"

#include <algorithm>
#include <vector>

namespace strata::runtime {
namespace {

using rt::i64;

bool holds(const rt::View<float>& v, int d, i64 lo, i64 n) {
    return rt::depthwise_detail::holdsRange(v, d, lo, n);
}

// The input positions of y's box, (oh * sh, ow * sw), all K channels, copied channels-last into
// `out` ([N][P][K]), from a dense box x laid out row-major or channels-last.
void gatherPositions(const rt::View<float>& x, bool xLast, const rt::View<float>& y, i64 k, i64 sh,
                     i64 sw, std::vector<float>& out) {
    const i64 rows = y.ext[2], cols = y.ext[3], positions = rows * cols;
    const i64 plane = x.ext[2] * x.ext[3];
    out.resize(static_cast<std::size_t>(y.ext[0] * positions * k));
    for (i64 n = 0; n < y.ext[0]; ++n) {
        const float* in = x.data + (y.lo[0] + n - x.lo[0]) * x.stride[0];
        float* to = out.data() + n * positions * k;
        // The element of input channel c at output position (r, q) of the tile.
        auto offset = [&](i64 r, i64 q) {
            const i64 h = (y.lo[2] + r) * sh - x.lo[2], w = (y.lo[3] + q) * sw - x.lo[3];
            return xLast ? (h * x.ext[3] + w) * k : h * x.ext[3] + w;
        };
        if (xLast) {
            for (i64 r = 0; r < rows; ++r)
                for (i64 q = 0; q < cols; ++q)
                    std::copy_n(in + offset(r, q), k, to + (r * cols + q) * k);
            continue;
        }
        // Sixteen channels at a time: sixteen read streams, one contiguous write each.
        for (i64 c0 = 0; c0 < k; c0 += 16) {
            const i64 c1 = std::min(k, c0 + 16);
            for (i64 r = 0; r < rows; ++r)
                for (i64 q = 0; q < cols; ++q) {
                    const float* from = in + offset(r, q);
                    float* into = to + (r * cols + q) * k;
                    for (i64 c = c0; c < c1; ++c)
                        into[c] = from[c * plane];
                }
        }
    }
}

// The gathered positions as a channels-last box of their own: y's positions, all K channels,
// in a tensor whose plane is y's (the window over it is 1x1, stride 1).
rt::View<float> gatheredBox(const rt::View<float>& y, const rt::View<float>& x, i64 k,
                            float* data) {
    rt::View<float> laid;
    laid.data = data;
    laid.rank = 4;
    for (int d = 0; d < 4; ++d) {
        laid.lo[d] = d == 1 ? 0 : y.lo[d];
        laid.ext[d] = d == 1 ? k : y.ext[d];
        laid.full[d] = d == 1 ? k : d == 0 ? x.full[0] : y.full[d];
    }
    laid.stride[1] = 1;
    laid.stride[3] = k;
    laid.stride[2] = k * laid.ext[3];
    laid.stride[0] = laid.stride[2] * laid.ext[2];
    return laid;
}

} // namespace

bool stridedPointwiseConv(const PreparedCompute& p, Workspace& workspace, std::size_t& stepsDone) {
    const compiler::KernelCall& call = p.call;
    if (call.kernel != compiler::Kernel::Conv2d || call.accumulate || call.slicesChannels())
        return false;
    const auto& win = call.window; // kernel, stride, padding, dilation
    const i64 sh = win[2], sw = win[3];
    if (win[0] != 1 || win[1] != 1 || win[4] != 0 || win[5] != 0 || sh < 1 || sw < 1 ||
        (sh == 1 && sw == 1) || call.group != 1)
        return false;
    const bool xLast = call.inputBlock == compiler::kChannelsLast,
               yLast = call.outputBlock == compiler::kChannelsLast;
    if ((call.inputBlock != 0 && !xLast) || (call.outputBlock != 0 && !yLast))
        return false;
    const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
               w = viewAs<float>(p.inputs[1]);
    const bool hasBias = call.hasInput(2);
    const auto b = hasBias ? viewAs<float>(p.inputs[2]) : rt::View<float>{};
    using rt::depthwise_detail::dense;
    if (y.rank != 4 || x.rank != 4 || w.rank != 4 || !dense(x) || !dense(y))
        return false;
    const i64 k = w.full[1], m = y.ext[1], positions = y.ext[2] * y.ext[3];
    if (x.full[1] != k || x.lo[1] != 0 || x.ext[1] != k || !holds(x, 0, y.lo[0], y.ext[0]) ||
        !holds(x, 2, y.lo[2] * sh, (y.ext[2] - 1) * sh + 1) ||
        !holds(x, 3, y.lo[3] * sw, (y.ext[3] - 1) * sw + 1) || !holds(w, 0, y.lo[1], m) ||
        w.lo[1] != 0 || w.ext[1] != k || (hasBias && !holds(b, 0, y.lo[1], m)))
        return false;
    // A row-major output's copy pays only on the narrow products sgemm runs worst, as for the
    // stride-1 kernel (ChannelsLastConv.cpp): ResNet-50's layer4.0 downsample (49 positions,
    // 1024 -> 1024 channels per tile) 1.13 -> 0.69 ms per tile, but layer2.0's (392 positions,
    // 256 -> 512) 0.48 -> 0.63 ms, layer3.0's (196) level (fastest of 3 runs, load 6). Nor where
    // the copy moves more than one float per 40 multiply-adds, or on products of fewer than 64 Ki
    // multiply-adds (the primitive's call costs microseconds).
    if ((!yLast && (positions >= 128 || 40 * m > m * k)) || m * k * positions * y.ext[0] < 65536)
        return false;
    if (y.count() == 0)
        return true;
    auto& buffers = workspace.channelsLast;
    gatherPositions(x, xLast, y, k, sh, sw, buffers.input);
    const rt::View<float> in = gatheredBox(y, x, k, buffers.input.data());
    const rt::Window2d unit{{1, 1}, {1, 1}, {0, 0}, {1, 1}};
    const rt::View<float>* bias = hasBias ? &b : nullptr;
    if (yLast)
        return dnnlConv(y, in, w, bias, unit, 1, p.constantWeights, workspace.dnnl, &p.epilogue,
                        &stepsDone, compiler::kChannelsLast, compiler::kChannelsLast, false);
    rt::View<float> out = y;
    buffers.output.resize(static_cast<std::size_t>(y.count()));
    out.data = buffers.output.data();
    if (!dnnlConv(out, in, w, bias, unit, 1, p.constantWeights, workspace.dnnl, &p.epilogue,
                  &stepsDone, compiler::kChannelsLast, compiler::kChannelsLast, true))
        return false;
    rowMajorFrom(y, out.data);
    return true;
}

} // namespace strata::runtime

#pragma once
// Depthwise convolution (one input channel per group) of one output box, the runtime's fast
// path: MobileNet-style networks spend most of their non-GEMM time here.
//
// Per input channel the box's input rows are copied once into zero-padded planes, one per
// stride phase (row phase x column phase), each plane Wq = ow + ((kw - 1) * dw) / sw columns
// wide. Every tap then reads its plane at a constant offset from the output position, over the
// whole output plane flattened (oh rows of Wq, the Wq - ow extra columns computed and dropped):
// one contiguous loop for any stride, dilation, padding and tile shape, with no bounds checks,
// and long enough to fill vectors on 7x7 planes. All taps are summed in registers before the
// sum is stored once.

#include "compiler/emit/KernelCall.h"
#include "compiler/emit/cpp/strata_rt.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace strata::runtime {

// Per worker thread, grown to the largest plane and reused.
struct DepthwiseBuffers {
    std::vector<float> planes;       // the channel's padded phase planes, plus a vector of slack
    std::vector<float> sums;         // one output plane, Wq wide
    std::vector<const float*> taps;  // per tap: where its reads start
};

// Elementwise steps on `count` floats in place: a fused epilogue's leading maps, run on each
// output plane while its sums are in cache (the plane's dropped columns included).
using PlaneEpilogue = std::function<void(float* plane, std::int64_t count)>;

// y's box of output channels (NCHW) computed from x's box, with w's taps and b's biases (b may be
// null), then `onPlane` (may be null) on every output plane; `call.window` is {kh, kw, sh, sw,
// ph, pw, dh, dw}; `perGroup` output channels per input channel. False, with y untouched, when a
// box lacks what y's box reads (an input channel, row or column, a tap, a bias) or the window has a
// kernel, stride or dilation below 1: the caller then runs strata_rt's loop.
bool depthwiseConv(const strata_rt::View<float>& y, const strata_rt::View<float>& x,
                   const strata_rt::View<float>& w, const strata_rt::View<float>* b,
                   const compiler::KernelCall& call, std::int64_t perGroup,
                   DepthwiseBuffers& buffers, const PlaneEpilogue* onPlane = nullptr);

// A group-1 convolution of few input channels (an RGB stem: 3), the same way: each input
// channel's planes once, every output channel's taps summed over them in registers. oneDNN's
// direct kernels want whole vectors of output channels; a tile of one or a few (fuse-max's
// channel tiles of a block ending in a squeeze-excite pool) ran them about 10x slower per FLOP.
// False, with y untouched, as depthwiseConv's, or when the input has over kFewChannels channels.
constexpr std::int64_t kFewChannels = 4;
bool fewChannelConv(const strata_rt::View<float>& y, const strata_rt::View<float>& x,
                    const strata_rt::View<float>& w, const strata_rt::View<float>* b,
                    const compiler::KernelCall& call, DepthwiseBuffers& buffers);

} // namespace strata::runtime

#pragma once
// Convolutions over channels-last (nhwc) boxes that oneDNN's direct kernel does not run
// (compiler/passes/ChooseLayouts.h chooses the layouts):
//  - a pointwise convolution (1x1, stride 1, one group) reads and writes either layout as one
//    sgemm, the transposition in its operand flags: an expansion writes channels-last for the
//    depthwise convolution after it, a projection reads that and writes row-major, with no
//    reorder between them;
//  - a depthwise convolution sums its taps over vectors of channels: every tap of an output
//    position is a contiguous run of channels at a constant offset, so no plane is copied or
//    padded (the de-interleave of a stride-2 window and the short rows of 7x7 planes cost the
//    row-major kernel, DepthwiseConv.h, more than its sums); it writes its output channels-last,
//    or row-major row by row where the next reader wants that (a store, a squeeze-excite pool).
// Either returns false, having written nothing, where the boxes are not what it needs; the caller
// then runs the row-major kernels on the boxes rewritten row-major (LayoutKernels.h).

#include "runtime/Prepared.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace strata::runtime {

struct Workspace;

// Per worker thread: a depthwise tile's taps channels-last and its biases; a pointwise
// convolution's transposed weights (for a channels-last output), kept per constant weight value
// and output-channel tile ({value id, first channel, channels, input channels}).
struct ChannelsLastBuffers {
    std::vector<float> weights;
    std::vector<float> bias;
    std::vector<float> row; // a depthwise output row channels-last, for a row-major output box
    std::vector<float> input;  // a pointwise tile's row-major input copied channels-last
    std::vector<float> output; // a pointwise tile's output channels-last, for a row-major box
    std::map<std::array<std::int64_t, 4>, std::vector<float>> packed;
};

bool channelsLastConv(const PreparedCompute& compute, Workspace& workspace, std::size_t& stepsDone);

// A pointwise convolution (1x1, stride 1, one group) over dense boxes in any layouts on oneDNN's
// 1x1 kernel between channels-last boxes, with its epilogue's leading steps as post-ops: a
// row-major input copied channels-last for it, a row-major output written from a channels-last
// scratch box. False, having written nothing, where the boxes or the shape do not suit it.
bool pointwiseConv(const PreparedCompute& compute, Workspace& workspace, std::size_t& stepsDone);

// A dense box `channelsLast` ([P][M] per batch element) written row-major ([M][P]) into y's box of
// the same extents.
void rowMajorFrom(const rt::View<float>& y, const float* channelsLast);

} // namespace strata::runtime

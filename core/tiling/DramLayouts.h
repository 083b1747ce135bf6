#pragma once
// The layout each tensor takes in main memory (DramBuffer::layout). A box loaded in the layout
// its readers want needs no reorder in working memory, and a box stored as its writer left it
// none either: ResNet-50's 3x3 convolutions reordered each tile's input nchw -> nhwc and their
// output back, which cost as much as the convolution on small tiles. So an intermediate tensor
// lives channels-last (NHWC) in main memory when that saves more reordered bytes than it adds,
// counted over the ops that write and read it (the graph's, whatever the schedule fuses: a
// tensor a block keeps in working memory has no home whose layout matters):
//  - a direct convolution (one group, a window larger than 1x1 or a strided 1x1) reads and
//    writes channels-last;
//  - a depthwise one reads channels-last (row-major, its kernel copies planes) and writes
//    either layout at no cost;
//  - a pointwise one (1x1, stride 1) runs in either layout when both sides share it, oneDNN's
//    1x1 kernel channels-last (a little faster: row-major costs a quarter of its bytes); a side
//    in the other layout is copied (its bytes);
//  - an elementwise op over boxes of one shape runs on any layout, but on one for all its
//    operands (a mismatched one is reordered); a [N, C, 1, 1] operand (a squeeze-excite's
//    scale) holds the same bytes in either layout and costs nothing;
//  - a global pool reads either layout at no cost;
//  - every other op (pooling, concat, resize, a broadcasting add over rows, a padded 1x1 ...)
//    reads and writes row-major: a channels-last operand costs its bytes in a reorder at the
//    boundary.
// Graph inputs and outputs, weights, tensors of another rank, of channels that are not whole
// vectors of the target's channel_granule or of one position stay row-major. The choice is a
// local search from all-channels-last: each tensor takes the layout of lower cost given its
// neighbours', ties row-major, until nothing changes. A granule of 1 (the presets) keeps all
// row-major. The result depends on the graph and the granule only, so blocks compiled for the
// cache agree with the program.

#include "ir/Graph.h"

#include <vector>

namespace strata::tiling {

// A box or tensor laid out channels-last, NHWC (docs/ISA.md, Layouts); 0 is row-major, NCHW.
inline constexpr int kChannelsLast = -1;

// Per value index: 0 (row-major) or kChannelsLast.
std::vector<int> chooseDramLayouts(const ir::Graph& graph, int channelGranule);

} // namespace strata::tiling

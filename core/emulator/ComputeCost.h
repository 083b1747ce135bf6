#pragma once
// The time of one compute instruction: the target's fixed overhead plus its work at the
// throughput of its op class (docs/TARGETS.md): multiply-accumulates (FLOPs / 2, docs/OP_COSTS.md)
// for conv and matmul, input elements read for reductions (their time follows what they read, not
// the few elements they write), output elements for every other class.

#include "compiler/Program.h"
#include "ir/Graph.h"
#include "target/Target.h"

#include <string>

namespace strata::emulator {

double computeWork(const compiler::Compute& compute, ir::OpClass opClass);
// What a convolution's or matrix product's compute costs beyond its FLOPs when its output
// channels (dimension 1 of a convolution's output region, the last of a matrix product's) are
// not whole vectors of `channelGranule` (target::Target::channelGranule): the hardware computes
// the rounded-up count, padded lanes included, so 2 channels cost what 16 do with AVX-512.
// round_up(channels, granule) / channels; 1 for every other op, or a granule of 1.
double paddedLaneFactor(const compiler::Compute& compute, const ir::Op& op, int channelGranule);
// Elements of the instruction's input regions (a global pool's work in its `global_pool` figure's
// unit, which calibration fits).
double elementsRead(const compiler::Compute& compute);
double computeCycles(const compiler::Compute& compute, ir::OpClass opClass, const target::Target& target);
// The same from the work already known (computeWork's value).
double cyclesForWork(double work, ir::OpClass opClass, const target::Target& target);
// The same at a given throughput (throughputOf's value).
double cyclesAtThroughput(double work, double throughput, const target::Target& target);

// A convolution with one group per input channel (group == C_in > 1).
bool isDepthwiseConv(const ir::Op& op, const ir::Graph& graph);
// A convolution of more than one group that is not depthwise (1 < group < input channels: ResNeXt's
// and RegNetX's 3x3 ones): a small matrix product per group, ~3x slower per MAC on a CPU than a
// dense convolution (RegNetX-800MF's were predicted 3x too fast at the `conv` figure, issue 20).
// Its own figure, `grouped_conv` (defaulting to `conv`), before the pointwise test.
bool isGroupedConv(const ir::Op& op, const ir::Graph& graph);
// A convolution of a 1x1 window that is not depthwise, whatever its strides and padding: the
// runtime runs every 1x1 window as a matrix product (sgemm; a strided or padded one over a
// gathered copy of its input), where wider windows run oneDNN's direct convolution. Costed at the
// `conv` figure, strided ones (ResNets' downsampling shortcuts) were predicted ~2x too fast: they
// ran at the matrix product's rate, 31-40 MACs per ns against 66-80 (issue 20, helper
// computecost3).
bool isPointwiseConv(const ir::Op& op, const ir::Graph& graph);
// The rate an op's computes run at: its class's throughput, or the target's transcendental figure
// (`transcendental`, defaulting to `elementwise`) for a transcendental elementwise op, the
// layer-norm figure (`layer_norm`, defaulting to `normalization`) for a layer norm, the depthwise
// figure
// (`depthwise_conv`, defaulting to `conv`) for a depthwise convolution, its pointwise figure
// (`pointwise_conv`, defaulting to `conv`) for a pointwise one. A convolution's per-unit costs
// (overhead_cycles.conv_output per output element of a dense or pointwise one, depthwise_row per
// output row of a depthwise one, grouped_conv_element per element of a grouped one's input and
// output planes) join it as
// cycles per MAC: a convolution's MACs per output element (and per output row) are fixed by its
// shapes, whatever its tiling, so 1 / rate = 1 / figure + unit cost / MACs per unit. Without them:
// the figure itself. Resizes and gathers run at the `resize` and `gather` figures (defaulting to
// `elementwise` and `data_movement`); a reduction at `reduction` per input element read
// (computeWork) with overhead_cycles.reduction_output per output joined the same way (1 / rate = 1
// / figure + unit cost / inputs per output). A global pool runs at `global_pool` per element read
// (defaulting to `pooling`), returned per output as its work counts outputs: figure / plane
// elements.
double throughputOf(const ir::Op& op, const ir::Graph& graph, const target::Target& target);

// An elementwise op that evaluates a transcendental function per element (Erf, Exp, Log, Tanh,
// Sigmoid, Sin, Cos, Softplus, Elu, Selu, Celu, Gelu, Mish): the target's `transcendental` figure.
// HardSwish too: not transcendental, but the host runs it as a scalar loop at an Erf's pace, not
// an Add's (MobileNetV3-Small's were predicted 5x too fast at `elementwise`); calibration fits the
// figure over both.
bool isTranscendental(const ir::Op& op);

// A Sigmoid: the target's `sigmoid` figure (defaulting to `transcendental`): the host runs it on
// a vectorised kernel of its own, ~4x an Erf's rate.
bool isSigmoid(const ir::Op& op);

// A LayerNormalization: the target's `layer_norm` figure.
bool isLayerNorm(const ir::Op& op);
// A layer norm's work in units of the `layer_norm` figure (elements of whole rows normalized): the
// host kernel makes three passes over each row it reads (mean, residual sum, sum of squares) and
// one over the part it writes, so (3 x elements read + elements written) / 4. The outputs for a
// tile of whole rows (what calibration measures); more per output for a tile holding a slice of
// the normalized axis (ViT-B/16's 1x197x768 tiled as 1x197x192 reads all 768 per row: 3.25x).
double layerNormWork(const compiler::Compute& compute);

// A Resize (or Upsample): the target's `resize` figure, per input tap it weighs.
bool isResize(const ir::Op& op);
// Input taps a Resize weighs per output element: 1 for nearest, 2 per resized dim for linear, 4
// for cubic (a bilinear upsampling sums 4 taps per output). Its time follows those taps plus a
// cost per output row (overhead_cycles.resize_row: the host's kernel works out the rows each
// output row sums): DeepLabV3's bilinear heads ran 1.7-3.6x the time per output of calibration's
// nearest upsampling.
double resizeTapsPerOutput(const ir::Op& op, const ir::Graph& graph);
// Output elements per output row (the last dim) of a Resize; 0 when not known.
double resizeOutputsPerRow(const ir::Op& op, const ir::Graph& graph);
// A Gather, GatherElements or GatherND: the target's `gather` figure.
bool isGather(const ir::Op& op);

// Ops copying contiguous runs (Concat, Reshape, Slice, Split, a Transpose keeping the last dim)
// are emulator::isCopy (CopyRuns.h): the target's `copy` figure (defaulting to `data_movement`)
// and a cost per run. Fitted on a Transpose, the one data-movement figure predicted
// DenseNet-121's, Inception-v3's and SqueezeNet's Concats 2-3x too slow (issue 20).

// GlobalAveragePool, GlobalMaxPool, GlobalLpPool: a pass over whole planes, costed per element
// read at the target's `global_pool` figure (defaulting to `pooling`'s, per element read, reported
// as a fallback). Neither a windowed pool's figure per output (one output per channel: ~30x too
// fast) nor a reduction's per element read (~10x too slow: the runtime's global pool runs ~3.5
// cycles per element, its ReduceMean ~40) fits it.
bool isGlobalPool(const ir::Op& op);
// Input elements a global pool reads per output (its plane's elements); 0 when not a global pool
// or its shapes are not known.
double globalPoolInputsPerOutput(const ir::Op& op, const ir::Graph& graph);

// Input elements a reduction reads per output element (the reduced axes' extent); 0 when not a
// reduction or its shapes are not known.
double reductionInputsPerOutput(const ir::Op& op, const ir::Graph& graph);

// The figure an op is costed with (`conv`, `pointwise_conv`, `resize`, `reduction`...) and whether
// it is a fallback: the op's own figure is absent from the target, so a figure measured on other
// work stands in (a Resize at `elementwise`'s rate when the target has no `resize`), or the op
// is of class `other`. `compare`-style reports list the fallbacks so a user knows which predictions
// rest on another kind of work.
struct CostFigure {
    std::string name;
    bool fallback = false;
    std::string fallbackFrom; // the figure the op has no value for ("resize"), when a fallback
};
CostFigure costFigureOf(const ir::Op& op, const ir::Graph& graph, const target::Target& target);

// MACs per output element of a convolution (input channels per group x window), and per output
// row (that x output width); 0 when its weights' or output's shape is not known.
double convMacsPerOutput(const ir::Op& op, const ir::Graph& graph);
double convMacsPerOutputRow(const ir::Op& op, const ir::Graph& graph);
// A grouped convolution's MACs per element of its input and output planes (whole tensors: the
// ratio is fixed by the op's shapes, a tile's halo aside); 0 when not a grouped convolution or
// its shapes are not known. The host runs it on oneDNN's grouped kernel, which reorders its
// row-major boxes into a channel-blocked layout and back (overhead_cycles.grouped_conv_element
// per element), so a strided one, reading four input elements per output position, pays more per
// MAC: over RegNetX-800MF's, RegNetY-400MF's and ResNeXt-50's, MACs plus these elements left a
// median error of 11% per op where MACs plus the old im2col rows left 21% (issue 20).
double groupedConvMacsPerElement(const ir::Op& op, const ir::Graph& graph);

// MACs per matrix product of a MatMul or Einsum that multiplies a batch of matrix pairs (an
// attention's scores and weighted values: both operands carry the batch dims), rows x columns x
// summed extent; 0 for one product, or a batch that shares one right-hand matrix (the host folds
// those into one product), or shapes not known. The host makes one sgemm call per pair, and a
// call costs far more than its MACs on small matrices (overhead_cycles.matmul_product): Swin-T's
// 49 x 49 x 32 window products ran at ~55% of the rate of one large product.
double matmulMacsPerProduct(const ir::Op& op, const ir::Graph& graph);

// Bytes of constant operands (weights and biases: values the graph holds as constants) a
// convolution's or matrix product's compute reads, over its input regions; 0 for other ops.
double weightBytesRead(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph);
// What reading them costs beyond the MACs: weightBytesRead x the target's
// overhead_cycles.weight_byte. A tile with few output positions per weight (a classifier's
// matrix-vector product, a convolution tile of 2 x 2 outputs on 512 channels) streams its weights
// through the cache at a few bytes per cycle, reusing each one for only a few MACs, so its time
// follows its weight bytes; a tile of hundreds of positions hides them behind its MACs (the
// term is then a few percent). Fitted by calibration on thin convolutions and matrix products.
// Plus, for a dense convolution or a matrix product, farWeightBytes x its class's
// overhead_cycles.*_far_weight_byte.
double weightReadCycles(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph,
                        const target::Target& target);
// The bytes of a reorder's boxes (`boxBytes`: what it reads and writes) beyond the core's private
// cache (target::Target::privateCacheBytes); 0 when the cache is unknown. On the host a reorder of
// boxes under 1 MiB ran at 6.4 B/ns, one of 4 MiB and more at 3.4-4.2 (docs/ACCURACY.md,
// "Reorders past the private cache").
double reorderFarBytes(double boxBytes, const target::Target& target);

// The weight bytes a dense convolution (one group, a window wider than 1x1) or a matrix product
// reads beyond the core's private cache (target::Target::privateCacheBytes), which come from
// farther out: a matrix product reads the weight tile a load put in scratch moments before (its
// last L2-worth is near, the rest is in the shared cache), a convolution oneDNN's packed copy of
// it, which a model with more weights than the shared cache finds in DRAM. 0 for other ops, or
// when the cache is unknown. Pointwise convolutions ran no slower past the L2 (issue 20).
double farWeightBytes(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph,
                      std::uint64_t privateCacheBytes);
// The figure those bytes pay: the op's class's far_weight_byte, 0 when farWeightBytes is 0.
double farWeightByteCycles(const ir::Op& op, const ir::Graph& graph, const target::Target& target);

// A convolution the runtime runs on oneDNN's direct kernel (a window larger than 1x1, one group:
// runtime/DnnlConv.h) whose activation box or output box is not channels-last: the call reorders
// it into and out of the kernel's layout itself, where a channels-last box is read as it is. The
// elements of those boxes (input box and output box, each when not channels-last); 0 for any
// other op. Their cost is what an explicit reorder instruction of the same boxes costs: elements
// / the target's data_movement figure (inCallReorderCycles). Without it row-major dense
// convolutions (a stem of 3 channels, a tile of another reader's halo) were predicted 30-70% too
// fast while channels-last ones were not (issue 20, helper computecost3). A depthwise
// convolution is fitted on channels-last boxes, as models' blocks read and write them; over a
// channels-last input box (runtime/ChannelsLastConv.cpp) it transposes each output row into a
// box that is not channels-last (its output box's elements), and over a row-major input box it
// runs the kernel that copies planes (its input box's elements: MobileNetV3-Small's were
// predicted 2.5-6x too fast without).
double inCallReorderElements(const compiler::Compute& compute, const ir::Op& op,
                             const ir::Graph& graph);
double inCallReorderCycles(const compiler::Compute& compute, const ir::Op& op,
                           const ir::Graph& graph, const target::Target& target);

// Bytes of working memory the instruction reads and writes (its operand regions).
std::uint64_t operandBytes(const compiler::Compute& compute, const ir::Graph& graph);

} // namespace strata::emulator

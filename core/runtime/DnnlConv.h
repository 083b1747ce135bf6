#pragma once
// Convolutions with a window on oneDNN's direct convolution kernels: strata_rt's
// DnnlConvolutions (compiler/emit/cpp/strata_rt.h), the same code the generated C++ runs when
// built with -DSTRATA_RT_DNNL. Measured on 2-core AMD EPYC (AVX-512), both cores busy as in a
// run, per tile: 3x3 windows 100-106 GFLOP/s against 58-79 for im2col + OpenBLAS sgemm; 1x1
// windows stay on sgemm, but between channels-last boxes, where oneDNN's 1x1 kernel with its
// fused bias and epilogue is faster (docs/RUNTIME.md).

#include "compiler/emit/KernelCall.h"
#include "compiler/emit/cpp/strata_rt.h"
#include "runtime/Prepared.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::runtime {

namespace rt = strata_rt;

// One worker thread's primitives, blocked buffers and packed weights.
using DnnlConvCache = rt::DnnlConvolutions;

// Makes oneDNN run on the calling thread alone (its OpenMP team of one), once per thread: the
// runtime's workers are the parallelism. Every oneDNN call of the runtime comes after it.
void oneDnnOnThisThreadOnly();

// Whether oneDNN is this window's faster kernel: group 1, windows larger than 1x1, or 1x1
// windows from a channels-last box (`xBlock`) into one (`yBlock`); several groups, windows larger
// than 1x1 between row-major boxes (dnnlConv then declines depthwise ones and tiles splitting a
// group).
bool dnnlConvSuits(const compiler::KernelCall& call, int xBlock = 0, int yBlock = 0);

// y = conv(x, w) + b on the operand boxes, through oneDNN. `weightsKey` names a constant weight
// tensor (its packed tiles are cached), or is negative when the weights may change between
// calls. Returns false, having written nothing, where the boxes do not hold what the output box
// reads or oneDNN offers no fast kernel for the shape; the caller falls back.
// `epilogue`: the compute's fused steps (Prepared.h); the longest prefix of them oneDNN has
// post-ops for runs inside the convolution, and `stepsDone` says how many (the caller runs the
// rest). Null: none. `xBlock`, `yBlock`: the layouts of x's box and of y's and the epilogue's
// boxes (compiler::Operand::channelBlock), read and written as they are. `mapsOnly`: post-ops
// for the epilogue's leading Maps only (y is a scratch box, not the one its Zips read).
bool dnnlConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const compiler::KernelCall& call, std::int64_t weightsKey,
              DnnlConvCache& cache, const std::vector<PreparedCompute>* epilogue = nullptr,
              std::size_t* stepsDone = nullptr, int xBlock = 0, int yBlock = 0,
              bool mapsOnly = false);

// As above for a window other than the call's (a strided pointwise convolution runs as a stride-1
// one over its gathered positions, StridedPointwiseConv.h).
bool dnnlConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const rt::Window2d& window, std::int64_t group,
              std::int64_t weightsKey, DnnlConvCache& cache,
              const std::vector<PreparedCompute>* epilogue, std::size_t* stepsDone, int xBlock,
              int yBlock, bool mapsOnly);

// The longest prefix of `epilogue` that oneDNN runs as post-ops on y (strata_rt's convPostOps:
// activations it has an eltwise kind for, and one Add of a box laid out as y's, the sum post-op).
// Returns how many were written to `out`. `mapsOnly`: the leading Maps only.
int convPostOps(const std::vector<PreparedCompute>& epilogue, const rt::View<float>& y,
                rt::ConvPostOp* out, bool mapsOnly = false);

} // namespace strata::runtime

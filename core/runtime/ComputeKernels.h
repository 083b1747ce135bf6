#pragma once
// Executes one prepared compute on its scratch operands. Convolutions with windows larger than
// 1x1 go to oneDNN's direct kernels (DnnlConv.h); other convolutions, Gemm and MatMul to sgemm
// (oneDNN's or OpenBLAS's; im2col where the window needs it) or, for depthwise convolutions,
// padded planes summed tap by tap in vectors (DepthwiseConv.h); elementwise maps and zips to
// contiguous-run loops (ElementwiseKernels.cpp); softmax and normalizations to NormKernels.h,
// pooling to Pool2d.h, data movement to MoveKernels.h; each falls back to strata_rt's kernels
// (the ones the generated C++ calls) where its layout does not fit, as does everything else.
// What no strata_rt kernel covers runs the reference evaluator's kernel (ReferenceFallback.h).

#include "runtime/ChannelsLastConv.h"
#include "runtime/DepthwiseConv.h"
#include "runtime/DnnlConv.h"
#include "runtime/Prepared.h"
#include "runtime/ReferenceFallback.h"

#include <array>
#include <cstdint>
#include <vector>

namespace strata::runtime {

// Per worker thread: the im2col buffer and the depthwise kernel's planes, grown to the largest
// convolution tile and reused. A convolution cut into tiles of output channels gathers the same
// columns for every tile of one input box, so the buffer also remembers what its columns were
// gathered from (the input's layout, the window, and a copy of the input box's bytes): the next
// tile over the same layout and bytes uses them as they are.
struct Workspace {
    std::vector<float> columns;
    std::array<std::int64_t, 32> columnsFrom{}; // layout and window; meaningful when columnsKept
    std::vector<float> columnsInput;            // the input box's bytes the columns came from
    bool columnsKept = false;
    std::uint64_t columnsReused = 0; // tiles that used kept columns (tests, figures)
    DepthwiseBuffers depthwise;
    ChannelsLastBuffers channelsLast;
    DnnlConvCache dnnl;
    ReferenceBuffers reference;
};

void runCompute(const PreparedCompute& compute, Workspace& workspace);

// Elementwise kernels (ElementwiseKernels.cpp): strata_rt's scalar functions over contiguous runs.
void runMap(const rt::View<float>& y, const rt::View<float>& x, const compiler::KernelCall& call);
void runZip(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b,
            const compiler::KernelCall& call);

// Global average / max pooling: each (batch, channel) plane of x's box is one contiguous run,
// summed (or maxed) in strata_rt's order, so results are bit-identical without its per-element
// index arithmetic.
void globalPoolPlanes(const rt::View<float>& y, const rt::View<float>& x, bool isMax);
// Global pooling of a channels-last box (`x` as the runtime views it, dims n, c, h, w), built
// at -O3 beside globalPoolPlanes (strata_rt's globalPoolChannelsLast).
void globalPoolNhwc(const rt::View<float>& y, const rt::View<float>& x, bool isMax);

// Fast paths; each returns false when the operand boxes are not laid out as it needs, and the
// caller falls back to strata_rt's loop (which writes the whole output box again).
// A depthwise convolution runs its epilogue's leading Map steps on each output plane while it
// is in cache (DepthwiseConv.h) and says how many in `stepsDone`.
bool fastConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const compiler::KernelCall& call, Workspace& workspace,
              const std::vector<PreparedCompute>* epilogue = nullptr,
              std::size_t* stepsDone = nullptr);
bool fastGemm(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b,
              const rt::View<float>* c, const compiler::KernelCall& call);
// The rows of one product MatMul's batches fold into (b shared by every batch, a's and y's rows
// evenly spaced across batches), or 0.
rt::i64 foldedMatMulRows(const rt::View<float>& y, const rt::View<float>& a,
                         const rt::View<float>& b);
bool fastMatMul(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b);

// After a product written with beta 0: adds each of `rows` rows of `rowLength` floats at `data`
// its bias (`bias[r]` per row, or with `biasPerColumn` the vector `bias` along every row; no bias
// when null) and runs the epilogue's leading Maps on it while the row is in cache, one pass where
// a bias fill before the product and a step after it were two over the whole output box.
// Returns how many steps it ran.
std::size_t biasAndMaps(float* data, std::int64_t rows, std::int64_t rowLength, const float* bias,
                        std::int64_t biasStride, bool biasPerColumn,
                        const std::vector<PreparedCompute>* epilogue);

// Whether the epilogue's first step is a Relu or Clip, which biasAndMaps folds into its bias loop.
bool foldsIntoBias(const std::vector<PreparedCompute>* epilogue);

// C = alpha op(A) op(B) + beta C, row-major (FastKernels.cpp): oneDNN's sgemm on products of 128
// columns or more, OpenBLAS's on narrower ones.
void matrixProduct(bool transA, bool transB, std::int64_t m, std::int64_t n, std::int64_t k,
                   float alpha, const float* a, std::int64_t lda, const float* b, std::int64_t ldb,
                   float beta, float* c, std::int64_t ldc);

} // namespace strata::runtime

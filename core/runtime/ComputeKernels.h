#pragma once
// Executes one prepared compute on its scratch operands. Convolutions, Gemm and MatMul go to
// OpenBLAS's sgemm (im2col where the window needs it) or, for depthwise convolutions, a direct
// vectorisable loop; elementwise maps and zips to contiguous-run loops (ElementwiseKernels.cpp);
// everything else to strata_rt's kernels, the ones the generated C++ calls.

#include "runtime/Prepared.h"

#include <vector>

namespace strata::runtime {

// Per worker thread: the im2col buffer, grown to the largest convolution tile and reused.
struct Workspace {
    std::vector<float> columns;
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

// Fast paths; each returns false when the operand boxes are not laid out as it needs, and the
// caller falls back to strata_rt's loop (which writes the whole output box again).
bool fastConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w, const rt::View<float>* b,
              const compiler::KernelCall& call, Workspace& workspace);
bool fastGemm(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b, const rt::View<float>* c,
              const compiler::KernelCall& call);
bool fastMatMul(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b);

} // namespace strata::runtime

#pragma once
// Convolutions on oneDNN's direct convolution kernels (brgconv / jit for AVX-512 and AVX2).
// Measured on 2-core AMD EPYC (AVX-512), both cores busy as in a run, per tile: 3x3 windows
// 100-106 GFLOP/s against 58-79 for im2col + OpenBLAS sgemm; 1x1 stride-1 windows 77-101
// against 89-98 (sgemm needs no im2col there, so they stay on sgemm). docs/RUNTIME.md.
//
// oneDNN's fast kernels want activations in channel-blocked layouts (nChw16c) and weights
// pre-packed to match. The program keeps plain row-major boxes, so each call reorders its input
// box into the blocked layout and the result back; a constant weight tile is packed once per run
// and worker and kept. Primitives are created once per tile shape and worker, and kept.

#include "compiler/emit/KernelCall.h"
#include "compiler/emit/cpp/strata_rt.h"

#include <cstdint>
#include <memory>

namespace strata::runtime {

namespace rt = strata_rt;

// One worker thread's primitives, blocked buffers and packed weights. Not thread-safe: each
// worker owns one.
class DnnlConvCache {
  public:
    DnnlConvCache();
    ~DnnlConvCache();
    DnnlConvCache(DnnlConvCache&&) noexcept;
    DnnlConvCache& operator=(DnnlConvCache&&) noexcept;

    // Tiles of output channels that found their input already reordered (tests, figures).
    std::uint64_t inputReordersSkipped() const;

    struct State;
    std::unique_ptr<State> state;
};

// Makes oneDNN run on the calling thread alone (its OpenMP team of one), once per thread: the
// runtime's workers are the parallelism. Every oneDNN call of the runtime comes after it.
void oneDnnOnThisThreadOnly();

// Whether oneDNN is this window's faster kernel: windows larger than 1x1, group 1. (A strided
// 1x1 window ran at 67 GFLOP/s against sgemm's 99: reordering 1024 output channels of 14 x 14
// back to rows took a quarter of the call.)
bool dnnlConvSuits(const compiler::KernelCall& call);

// y = conv(x, w) + b on the operand boxes, through oneDNN. `weightsKey` names a constant weight
// tensor (its packed tiles are cached), or is negative when the weights may change between
// calls. Returns false, having written nothing, where the boxes do not hold what the output box
// reads or oneDNN offers no fast kernel for the shape; the caller falls back.
bool dnnlConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const compiler::KernelCall& call, std::int64_t weightsKey,
              DnnlConvCache& cache);

} // namespace strata::runtime

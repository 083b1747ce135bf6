#include "runtime/MatrixVectorConv.h"

#include "runtime/ComputeKernels.h"
#include "runtime/ViewCast.h"

#include <Eigen/Core>

namespace strata::runtime {
namespace {

using rt::i64;

// Whether x holds the whole input-channel range at y's one position, and w y's output channels.
bool fits(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w) {
    // biasAndMaps runs over the output channels as contiguous rows of one element.
    if (y.rank != 4 || x.rank != 4 || w.rank != 4 || y.ext[0] != 1 || y.ext[2] * y.ext[3] != 1 ||
        (y.ext[1] > 1 && y.stride[1] != 1))
        return false;
    const i64 k = w.full[1];
    auto holds = [](const rt::View<float>& v, int d, i64 lo, i64 n) {
        return lo >= v.lo[d] && lo + n <= v.lo[d] + v.ext[d];
    };
    return holds(x, 0, y.lo[0], 1) && holds(x, 2, y.lo[2], 1) && holds(x, 3, y.lo[3], 1) &&
           x.lo[1] == 0 && x.ext[1] == k && holds(w, 0, y.lo[1], y.ext[1]) && w.lo[1] == 0 &&
           w.ext[1] == k && w.ext[2] == 1 && w.ext[3] == 1 &&
           (k == 1 || (x.stride[1] == 1 && w.stride[1] == 1));
}

} // namespace

bool matrixVectorConv(const PreparedCompute& p, std::size_t& stepsDone) {
    const compiler::KernelCall& call = p.call;
    const auto& win = call.window;
    if (call.kernel != compiler::Kernel::Conv2d || call.accumulate || call.slicesChannels() ||
        call.group != 1 || win[0] != 1 || win[1] != 1 || win[2] != 1 || win[3] != 1 ||
        win[4] != 0 || win[5] != 0)
        return false;
    const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
               w = viewAs<float>(p.inputs[1]);
    if (!y.data || !x.data || !w.data || !fits(y, x, w))
        return false;
    const bool hasBias = call.hasInput(2);
    const auto b = hasBias ? viewAs<float>(p.inputs[2]) : rt::View<float>{};
    if (hasBias && (!b.data || y.lo[1] < b.lo[0] || y.lo[1] + y.ext[1] > b.lo[0] + b.ext[0]))
        return false;
    const i64 k = w.full[1], m = y.ext[1];
    const float* in = x.data + (y.lo[0] - x.lo[0]) * x.stride[0] +
                      (y.lo[2] - x.lo[2]) * x.stride[2] + (y.lo[3] - x.lo[3]) * x.stride[3];
    const float* weights = w.data + (y.lo[1] - w.lo[0]) * w.stride[0];
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Vector = Eigen::Matrix<float, Eigen::Dynamic, 1>;
    // Contiguous rows and input: Eigen's vectorised product (with run-time inner strides it falls
    // back to scalar loops, 8x slower than sgemm on a 672 x 168 map).
    const Eigen::Map<const Matrix, 0, Eigen::OuterStride<>> product(
        weights, m, k, Eigen::OuterStride<>(w.stride[0]));
    const Eigen::Map<const Vector> input(in, k);
    Eigen::Map<Vector> output(y.data, m);
    output.noalias() = product * input;
    const float* bias = hasBias ? b.data + (y.lo[1] - b.lo[0]) * b.stride[0] : nullptr;
    stepsDone = biasAndMaps(y.data, m, 1, bias, hasBias ? b.stride[0] : 0, false, &p.epilogue);
    return true;
}

} // namespace strata::runtime

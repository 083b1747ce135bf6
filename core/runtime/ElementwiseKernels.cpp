// Elementwise maps and zips as long contiguous runs: strata_rt's run kernels
// (compiler/emit/cpp/strata_rt_elementwise.h, the ones a generated program runs), built here at
// -O3 (CMakeLists.txt) with the sigmoid cloned for AVX-512, AVX2 and SSE2. Results are
// bit-identical to strata_rt's (the same scalar functions, in the same element order), except
// for Tanh, Exp, Log and Erf, which run on Eigen's vectorised functions (within a few ulp of
// libm's) because a libm call per element made EfficientNet's activations slower than its
// convolutions.
#include "runtime/ComputeKernels.h"
#include "runtime/TargetClones.h"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <unsupported/Eigen/SpecialFunctions>

namespace strata::runtime {
namespace {

using compiler::ScalarFn;
using rt::i64;

using rt::runs::plan;
using rt::runs::Runs;
using rt::runs::walk;

// Like mapRuns, with `vec` taking and returning Eigen arrays: one vectorised expression per run.
template <class V> bool mapArrays(const rt::View<float>& y, const rt::View<float>& x, V vec) {
    using Out = Eigen::Map<Eigen::ArrayXf>;
    using In = Eigen::Map<const Eigen::ArrayXf>;
    Runs<1> r;
    if (!plan<1>(y, {&x}, r))
        return false;
    const i64 n = r.n;
    const bool broadcast = r.inner[0] == 0;
    walk(r, [&](float* o, const float* const* in) {
        if (!broadcast) {
            Out(o, n) = vec(In(in[0], n)); // coefficient-wise, so in place is fine
            return;
        }
        // One packet of the value, so the broadcast gets the same result as a run would.
        const Eigen::Array4f v = vec(Eigen::Array4f::Constant(*in[0]));
        std::fill(o, o + n, v[0]);
    });
    return true;
}

// strata_rt's 16-lane sigmoid (SiLU with `timesInput`), compiled for whatever the machine has:
// Eigen, built for the baseline SSE2, ran 4 lanes and left EfficientNet's sigmoids at 4.5 of its
// 16.7 ms.
STRATA_CLONED_FOR_X86 void sigmoidRun(float* out, const float* in, i64 n, bool timesInput) {
    rt::runs::sigmoidRun(out, in, n, timesInput);
}

template <class V, class F>
void mapVectorised(const rt::View<float>& y, const rt::View<float>& x, V vec, F scalar) {
    if (!mapArrays(y, x, vec))
        rt::map(y, x, scalar);
}

// The run kernels instantiated on a lambda of this file: an instantiation on strata_rt's own
// function objects (rt::Clip) is shared with files built at -O2, and the linker may keep theirs
// (scalar loops: MobileNetV2's Clips ran 3x slower).
template <class F> void map(const rt::View<float>& y, const rt::View<float>& x, F f) {
    if (!rt::runs::mapRuns(y, x, [f](float v) { return f(v); }))
        rt::map(y, x, f);
}

template <class F>
void zip(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b, F f) {
    if (!rt::runs::zipRuns(y, a, b, [f](float u, float v) { return f(u, v); }))
        rt::zip(y, a, b, f);
}

} // namespace

void runMap(const rt::View<float>& y, const rt::View<float>& x, const compiler::KernelCall& call) {
    const auto& q = call.params;
    switch (call.fn) {
    case ScalarFn::Relu:
        return map(y, x, [](float v) { return rt::relu(v); });
    case ScalarFn::Sigmoid:
        if (!rt::runs::sigmoidRuns(y, x, false, sigmoidRun))
            rt::map(y, x, rt::sigmoid);
        return;
    case ScalarFn::Silu:
        if (!rt::runs::sigmoidRuns(y, x, true, sigmoidRun))
            rt::map(y, x, rt::silu);
        return;
    case ScalarFn::Tanh:
        return mapVectorised(
            y, x, [](const auto& a) { return a.tanh(); }, rt::tanh_);
    case ScalarFn::Exp:
        return mapVectorised(
            y, x, [](const auto& a) { return a.exp(); }, rt::exp_);
    case ScalarFn::Log:
        return mapVectorised(
            y, x, [](const auto& a) { return a.log(); }, rt::log_);
    case ScalarFn::Sqrt:
        return map(y, x, rt::sqrt_);
    case ScalarFn::Erf:
        return mapVectorised(
            y, x, [](const auto& a) { return a.erf(); }, rt::erf_);
    case ScalarFn::Neg:
        return map(y, x, [](float v) { return -v; });
    case ScalarFn::Abs:
        return map(y, x, rt::abs_);
    case ScalarFn::Reciprocal:
        return map(y, x, [](float v) { return 1.0f / v; });
    case ScalarFn::Floor:
        return map(y, x, rt::floor_);
    case ScalarFn::Ceil:
        return map(y, x, rt::ceil_);
    case ScalarFn::Sin:
        return map(y, x, rt::sin_);
    case ScalarFn::Cos:
        return map(y, x, rt::cos_);
    case ScalarFn::Softplus:
        return map(y, x, rt::softplus);
    case ScalarFn::HardSwish:
        // strata_rt's hardSwish in the same operations, one vector at a time: its scalar loop
        // (std::clamp, not vectorised) ran at Erf's pace, 6x a Relu's time.
        return mapVectorised(
            y, x, [](const auto& a) { return a * (a / 6.0f + 0.5f).max(0.0f).min(1.0f); },
            rt::hardSwish);
    case ScalarFn::Identity:
        return map(y, x, [](float v) { return v; });
    case ScalarFn::Clip:
        return map(y, x, rt::Clip{q[0], q[1]});
    case ScalarFn::LeakyRelu:
        return map(y, x, rt::LeakyRelu{q[0]});
    case ScalarFn::Elu:
        return map(y, x, rt::Elu{q[0]});
    case ScalarFn::HardSigmoid:
        return map(y, x, rt::HardSigmoid{q[0], q[1]});
    default:
        return;
    }
}

void runZip(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b,
            const compiler::KernelCall& call) {
    switch (call.fn) {
    case ScalarFn::Add:
        return zip(y, a, b, [](float u, float v) { return u + v; });
    case ScalarFn::Sub:
        return zip(y, a, b, [](float u, float v) { return u - v; });
    case ScalarFn::Mul:
        return zip(y, a, b, [](float u, float v) { return u * v; });
    case ScalarFn::Div:
        return zip(y, a, b, [](float u, float v) { return u / v; });
    case ScalarFn::Pow:
        return zip(y, a, b, rt::pow_);
    case ScalarFn::Max:
        return zip(y, a, b, rt::max_);
    case ScalarFn::Min:
        return zip(y, a, b, rt::min_);
    case ScalarFn::PRelu:
        return zip(y, a, b, rt::prelu);
    default:
        return;
    }
}

} // namespace strata::runtime

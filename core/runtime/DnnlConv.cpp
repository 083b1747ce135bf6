#include "runtime/DnnlConv.h"

#include "runtime/ViewCast.h"

#include <omp.h>

namespace strata::runtime {
namespace {

rt::Window2d windowOf(const compiler::KernelCall& call) {
    const auto& w = call.window;
    return {{w[0], w[1]}, {w[2], w[3]}, {w[4], w[5]}, {w[6], w[7]}};
}

} // namespace

void oneDnnOnThisThreadOnly() {
    static thread_local const bool once = [] {
        omp_set_num_threads(1);
        return true;
    }();
    (void)once;
}

bool dnnlConvSuits(const compiler::KernelCall& call, int xBlock, int yBlock) {
    return rt::DnnlConvolutions::suits(windowOf(call), call.group, xBlock, yBlock);
}

int convPostOps(const std::vector<PreparedCompute>& epilogue, const rt::View<float>& y,
                rt::ConvPostOp* out, bool mapsOnly) {
    using compiler::ScalarFn;
    // As strata_rt's steps (the generated C++'s), whose post-op mapping is the one both use.
    rt::EpilogueStep steps[rt::kMaxConvPostOps];
    rt::View<float> others[rt::kMaxConvPostOps];
    int n = 0;
    for (const PreparedCompute& step : epilogue) {
        const compiler::KernelCall& c = step.call;
        if (n == rt::kMaxConvPostOps || (mapsOnly && c.kernel != compiler::Kernel::Map))
            break;
        rt::EpilogueStep& s = steps[n];
        s.alpha = c.params.empty() ? 0.0f : c.params[0];
        s.beta = c.params.size() < 2 ? 0.0f : c.params[1];
        if (c.kernel == compiler::Kernel::Map && c.fn == ScalarFn::Relu)
            s.act = rt::Act::Relu;
        else if (c.kernel == compiler::Kernel::Map && c.fn == ScalarFn::LeakyRelu)
            s.act = rt::Act::LeakyRelu;
        else if (c.kernel == compiler::Kernel::Map && c.fn == ScalarFn::Sigmoid)
            s.act = rt::Act::Sigmoid;
        else if (c.kernel == compiler::Kernel::Map && c.fn == ScalarFn::Tanh)
            s.act = rt::Act::Tanh;
        else if (c.kernel == compiler::Kernel::Map && c.fn == ScalarFn::Elu)
            s.act = rt::Act::Elu;
        else if (c.kernel == compiler::Kernel::Map && c.fn == ScalarFn::Clip)
            s.act = rt::Act::Clip;
        else if (c.kernel == compiler::Kernel::Map && c.fn == ScalarFn::HardSwish)
            s.act = rt::Act::HardSwish;
        else if (c.kernel == compiler::Kernel::Map && c.fn == ScalarFn::Silu)
            s.act = rt::Act::Silu;
        else if (c.kernel == compiler::Kernel::Zip && c.fn == ScalarFn::Add && step.inputs.size() == 2) {
            // The operand that is not the chained box (that one is y itself, in place).
            const bool chainedFirst = step.inputs[0].data == reinterpret_cast<unsigned char*>(y.data);
            others[n] = viewAs<float>(step.inputs[chainedFirst ? 1 : 0]);
            s.act = rt::Act::Add;
            s.other = &others[n];
        } else {
            break;
        }
        ++n;
    }
    return rt::convPostOps(y, steps, n, out);
}

bool dnnlConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const compiler::KernelCall& call, std::int64_t weightsKey,
              DnnlConvCache& cache, const std::vector<PreparedCompute>* epilogue,
              std::size_t* stepsDone, int xBlock, int yBlock, bool mapsOnly) {
    return dnnlConv(y, x, w, b, windowOf(call), call.group, weightsKey, cache, epilogue, stepsDone,
                    xBlock, yBlock, mapsOnly);
}

bool dnnlConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const rt::Window2d& window, std::int64_t group,
              std::int64_t weightsKey, DnnlConvCache& cache,
              const std::vector<PreparedCompute>* epilogue, std::size_t* stepsDone, int xBlock,
              int yBlock, bool mapsOnly) {
    if (!rt::DnnlConvolutions::suits(window, group, xBlock, yBlock))
        return false;
    oneDnnOnThisThreadOnly();
    rt::ConvPostOp posts[rt::kMaxConvPostOps];
    const int n = epilogue ? convPostOps(*epilogue, y, posts, mapsOnly) : 0;
    if (!cache.run(y, x, w, b, window, group, weightsKey, posts, n, xBlock, yBlock))
        return false;
    if (stepsDone)
        *stepsDone = static_cast<std::size_t>(n);
    return true;
}

} // namespace strata::runtime

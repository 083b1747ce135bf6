#include "runtime/DnnlConv.h"

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

bool dnnlConvSuits(const compiler::KernelCall& call) {
    return rt::DnnlConvolutions::suits(windowOf(call), call.group);
}

bool dnnlConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const compiler::KernelCall& call, std::int64_t weightsKey,
              DnnlConvCache& cache) {
    if (!dnnlConvSuits(call))
        return false;
    oneDnnOnThisThreadOnly();
    return cache.run(y, x, w, b, windowOf(call), call.group, weightsKey);
}

} // namespace strata::runtime

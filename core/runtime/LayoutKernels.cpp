#include "runtime/LayoutKernels.h"

#include "runtime/DnnlConv.h"
#include "runtime/ViewCast.h"

#include <vector>

namespace strata::runtime {

void runReorder(const PreparedCompute& compute) {
    oneDnnOnThisThreadOnly();
    rt::reorder(viewAs<float>(compute.output), compute.call.inputBlock, compute.call.outputBlock);
}

bool readsBlocked(const compiler::KernelCall& call) {
    return call.kernel == compiler::Kernel::Conv2d &&
           (call.inputBlock != 0 || call.outputBlock != 0);
}

void rowMajorDuring(const PreparedCompute& compute, const std::function<void()>& work) {
    oneDnnOnThisThreadOnly();
    // The epilogue's further boxes, as strata_rt's steps name them.
    std::vector<rt::View<float>> others;
    std::vector<rt::EpilogueStep> steps(compute.epilogue.size());
    others.reserve(compute.epilogue.size());
    for (std::size_t i = 0; i < compute.epilogue.size(); ++i) {
        const PreparedCompute& step = compute.epilogue[i];
        if (step.call.kernel != compiler::Kernel::Zip || step.inputs.size() != 2)
            continue;
        const bool chainedFirst = step.inputs[0].data == compute.output.data;
        others.push_back(viewAs<float>(step.inputs[chainedFirst ? 1 : 0]));
        steps[i].other = &others.back();
    }
    rt::rowMajorDuring(viewAs<float>(compute.output), viewAs<float>(compute.inputs[0]),
                       steps.data(), static_cast<int>(steps.size()), compute.call.inputBlock,
                       compute.call.outputBlock, work);
}

} // namespace strata::runtime

#include "runtime/ReferenceFallback.h"

#include <stdexcept>

namespace strata::runtime {

void runReference(const PreparedCompute& p, ReferenceBuffers& b) {
    const std::string why = rt::referenceCompute(*p.graph, *p.op, p.inputs.data(),
                                                 p.constants.data(), p.outputs.data(), b);
    if (!why.empty())
        throw std::runtime_error(why);
}

} // namespace strata::runtime

#include "OutputCheck.h"

#include "reference/Compare.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace strata::cli {

OutputCheck checkOutputs(const ir::Graph& graph, const std::vector<reference::Tensor>& actual,
                         const std::vector<reference::Tensor>& expected) {
    OutputCheck check;
    if (actual.size() != expected.size()) {
        check.differences.push_back(fmt::format("the run gave {} outputs, the reference {}",
                                                actual.size(), expected.size()));
        return check;
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
        double scale = 0;
        for (double v : expected[i].toDoubles())
            if (std::isfinite(v))
                scale = std::max(scale, std::abs(v));
        check.largest = std::max(check.largest, scale);
        const double atol = kCheckAbsTolerance * std::max(scale, 1e-30);
        const auto c = reference::compare(actual[i], expected[i], atol, kCheckRelTolerance);
        check.maxAbs = std::max(check.maxAbs, c.maxAbs);
        if (!c.ok) {
            const std::string& name = graph.value(graph.outputs[i]).name;
            check.differences.push_back(
                fmt::format("output '{}' differs from the reference (atol {:.3g}, rtol {}): {}",
                            name, atol, kCheckRelTolerance, c.message));
        }
    }
    return check;
}

} // namespace strata::cli

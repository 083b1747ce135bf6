#pragma once
// Operand boxes with their own random contents, for the runtime's kernel tests.

#include "runtime/ComputeKernels.h"

#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace strata::test {

namespace rt = strata_rt;
using rt::i64;

// A box of a tensor with its own storage.
struct Box {
    std::vector<float> data;
    rt::View<float> view;

    Box(std::vector<i64> full, std::vector<i64> lo, std::vector<i64> ext, std::mt19937& rng) {
        view.rank = static_cast<int>(full.size());
        i64 n = 1;
        for (std::size_t d = 0; d < full.size(); ++d) {
            view.full[d] = full[d];
            view.lo[d] = lo[d];
            view.ext[d] = ext[d];
            n *= ext[d];
        }
        for (int d = view.rank, s = 1; d-- > 0;) {
            view.stride[d] = s;
            s *= static_cast<int>(view.ext[d]);
        }
        std::uniform_real_distribution<float> u(-1, 1);
        data.resize(static_cast<std::size_t>(n));
        for (float& v : data)
            v = u(rng);
        view.data = data.data();
    }
    static Box whole(std::vector<i64> full, std::mt19937& rng) {
        return Box(full, std::vector<i64>(full.size(), 0), full, rng);
    }
};

// Element by element within `tolerance`; stops at the first difference, naming it.
inline void expectNear(const std::vector<float>& a, const std::vector<float>& b, float tolerance) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_NEAR(a[i], b[i], tolerance) << "element " << i;
}

} // namespace strata::test

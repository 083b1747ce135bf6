#pragma once
// Operand boxes with their own random contents, for the runtime's kernel tests.

#include "runtime/ComputeKernels.h"

#include <array>
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

inline rt::View<unsigned char> bytes(const rt::View<float>& v) {
    rt::View<unsigned char> out;
    out.data = reinterpret_cast<unsigned char*>(v.data);
    out.rank = v.rank;
    for (int d = 0; d < v.rank; ++d) {
        out.lo[d] = v.lo[d];
        out.ext[d] = v.ext[d];
        out.full[d] = v.full[d];
        out.stride[d] = v.stride[d];
    }
    return out;
}

// A Conv2d compute over the boxes as the runtime prepares it (inputs x, w and, if any, b).
inline runtime::PreparedCompute convCompute(const Box& y, const Box& x, const Box& w, const Box* b,
                                            std::array<std::int64_t, 8> window, std::int64_t group,
                                            int xLayout, int yLayout) {
    runtime::PreparedCompute p;
    p.call.kernel = compiler::Kernel::Conv2d;
    p.call.window = window;
    p.call.group = group;
    p.call.inputBlock = xLayout;
    p.call.outputBlock = yLayout;
    for (std::uint32_t i = 0; i < (b ? 3u : 2u); ++i) {
        compiler::KernelView v;
        v.value = ir::ValueId(i);
        v.present = true;
        p.call.inputs.push_back(v);
    }
    p.inputs = {bytes(x.view), bytes(w.view)};
    if (b)
        p.inputs.push_back(bytes(b->view));
    p.output = bytes(y.view);
    return p;
}

// An epilogue step over `box` in place: a Map (Clip to [0, 6], SiLU), or a Zip adding `other`
// to it.
inline runtime::PreparedCompute clipStep(const Box& box) {
    runtime::PreparedCompute step;
    step.call.kernel = compiler::Kernel::Map;
    step.call.fn = compiler::ScalarFn::Clip;
    step.call.params = {0.0f, 6.0f};
    step.inputs = {bytes(box.view)};
    step.output = bytes(box.view);
    return step;
}
inline runtime::PreparedCompute siluStep(const Box& box) {
    runtime::PreparedCompute step = clipStep(box);
    step.call.fn = compiler::ScalarFn::Silu;
    step.call.params.clear();
    return step;
}
inline runtime::PreparedCompute addStep(const Box& box, const Box& other) {
    runtime::PreparedCompute step;
    step.call.kernel = compiler::Kernel::Zip;
    step.call.fn = compiler::ScalarFn::Add;
    step.inputs = {bytes(box.view), bytes(other.view)};
    step.output = bytes(box.view);
    return step;
}

} // namespace strata::test

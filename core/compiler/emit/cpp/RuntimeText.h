#pragma once
// The text of strata_rt.h, embedded at build time, for the C++ emitter to inline into every
// generated file (so the generated file stands alone).

#include <span>
#include <string_view>

namespace strata::compiler {

std::string_view runtimeText();

// One file of Strata's source as a generated file carries it: path under core/, text without its
// project #include lines and `#pragma once`.
struct EmbeddedSource {
    std::string_view path;
    std::string_view text;
};

// The reference evaluator's source (ir's types, tiling's regions and Einsum equations, its kernel
// families, reference/Kernels<Family>.cpp) and strata_rt_reference.h, in an order where each file
// comes after what it uses, embedded at build time for a generated file that runs some op on it:
// plain C++20 with no dependencies, like strata_rt.
std::span<const EmbeddedSource> referenceSources();

} // namespace strata::compiler

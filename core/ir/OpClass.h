#pragma once
// Op classes: how an op's cost is counted (docs/OP_COSTS.md) and, later, which throughput of a
// target it uses.

#include <cstdint>
#include <string_view>

namespace strata::ir {

enum class OpClass : std::uint8_t {
    Conv,          // Conv, ConvTranspose
    MatMul,        // MatMul, Gemm
    Elementwise,   // unary/binary arithmetic, activations, Where, Cast, Resize
    Normalization, // BatchNormalization, LayerNormalization, InstanceNormalization, ...
    Pooling,       // MaxPool, AveragePool, Global*Pool, LpPool
    Reduction,     // Reduce*, ArgMax, ArgMin
    Softmax,       // Softmax, LogSoftmax, Hardmax
    DataMovement,  // Reshape, Transpose, Concat, Slice, Gather, Split, Pad, Expand, ...
    Other,         // everything else: counted as 0 FLOPs
};

std::string_view opClassName(OpClass opClass);

} // namespace strata::ir

#pragma once
// One compute instruction resolved to a kernel of strata_rt (emit/cpp/strata_rt.h): which
// kernel, the operand views (boxes of tensors in the core's working memory) and the op's
// attributes and constant operands resolved once (axes, pads, clip bounds, slice starts). The
// C++ emitter prints it as a call (CppOps.h); the host runtime (core/runtime) executes it. The
// op -> kernel decision exists here only.

#include "base/Expected.h"
#include "compiler/Program.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::compiler {

// A box of one tensor in working memory: `lo` and `ext` per dim in the tensor's coordinates,
// stored row-major over the box at `offset`. Not `present`: the tile does not hold it (e.g. a
// Concat operand outside the tile); only `full` counts then.
struct KernelView {
    ir::ValueId value;
    ir::DType dtype = ir::DType::Float32;
    bool present = false;
    std::uint64_t offset = 0;
    std::vector<std::int64_t> lo, ext, full;
};

enum class Kernel : std::uint8_t {
    Map,
    Zip,
    Conv2d,
    Pool2d,
    GlobalPool,
    Gemm,
    MatMul,
    BatchNorm,
    LayerNorm,
    Softmax,
    Reduce,
    Reshape,
    Transpose,
    Concat,
    Slice,
    Pad,
    Gather,
    Where,  // y = cond ? a : b, broadcast; any element type of a and b
    Split,  // every written output: a slice of the input at its offset along `axis` (`ints`)
    Resize, // float32; taps planned by the host runtime (runtime/ResizeKernel.h); host only
    // No fast kernel covers this use of the op: the reference evaluator's per-region kernel
    // computes each written output's box (runtime/ReferenceFallback.h). The host runtime only.
    Reference,
};

// The scalar function of Map and Zip (strata_rt's functions and function objects).
enum class ScalarFn : std::uint8_t {
    None,
    Relu,
    Sigmoid,
    Tanh,
    Exp,
    Log,
    Sqrt,
    Erf,
    Neg,
    Abs,
    Reciprocal,
    Floor,
    Ceil,
    Sin,
    Cos,
    Softplus,
    HardSwish,
    Silu,     // x * sigmoid(x): a fused SiLU epilogue step only
    Identity, // Identity: Expand's broadcast copy
    Clip,
    LeakyRelu,
    Elu,
    HardSigmoid, // unary; these four take params
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Max,
    Min,
    PRelu, // binary
};
const char* scalarFnName(ScalarFn fn); // strata_rt's name: "relu", "tanh_", "Clip", "add", ...

enum class ReduceKind : std::uint8_t { Sum, Mean, Max, Min };
const char* reduceKindName(ReduceKind kind); // "Sum", ...

struct KernelCall {
    Kernel kernel = Kernel::Map;
    ScalarFn fn = ScalarFn::None;
    // One per op input / output, in op order; an omitted optional input has an invalid value.
    std::vector<KernelView> inputs;
    std::vector<KernelView> outputs; // output 0 only, except for Split and Reference: every op
                                     // output (present: the compute writes its box)
    // Clip {lo, hi}; LeakyRelu, Elu {alpha}; HardSigmoid {alpha, beta}; Gemm {alpha, beta};
    // BatchNorm, LayerNorm {epsilon}; Pad {value}.
    std::vector<float> params;
    // Transpose: perm; Slice: starts then steps (rank each); Pad: pads at the beginning;
    // Split: each output's first index along `axis`;
    // Pool2d: pads at the end (2).
    std::vector<std::int64_t> ints;
    std::array<std::int64_t, 8> window{}; // Conv2d, Pool2d: kernel[2], stride[2], padBegin[2], dilation[2]
    std::int64_t group = 1;               // Conv2d
    int axis = 0;                         // LayerNorm, Softmax, Concat, Gather, Split
    unsigned axesMask = 0;                // Reduce: a bit per input dim
    ReduceKind reduce = ReduceKind::Sum;
    bool transA = false, transB = false;  // Gemm
    bool isMax = false;                   // Pool2d, GlobalPool
    bool countPad = false;                // Pool2d
    bool keepDims = true;                 // Reduce
    std::string whyReference;             // Reference: why no strata_rt kernel covers it
    bool accumulate = false;              // Conv2d: add to y (a later input-channel slice)
    // A fused epilogue (Compute::epilogue): per step, a Map or Zip whose views of the chained
    // value and of its own output are both output 0's box (in place, after the kernel).
    std::vector<KernelCall> epilogue;

    bool hasInput(std::size_t i) const { return i < inputs.size() && inputs[i].value.valid(); }
    // Conv2d over a slice of its input channels (x's box holds fewer than all; group 1): the
    // kernels see the slice as the whole input (strata_rt's conv2dSlice).
    bool slicesChannels() const;
};

// Resolves `compute` (of `op`, a member of `graph`) to strata_rt's kernel for it; where none
// covers this use of the op and the reference evaluator supports it, to Kernel::Reference.
// Otherwise an error naming the op and why (the reference evaluator's reason). A compute with
// an epilogue lowers to its op's fast kernel (writing output 0's box) with a Map or Zip per
// step, or to an error.
Expected<KernelCall> lowerCompute(const ir::Graph& graph, const ir::Op& op, const Compute& compute);

// Why the host runtime cannot run `op` at all (empty when it can): neither a strata_rt kernel
// nor the reference evaluator covers it. "LSTM 'lstm_1': op type 'LSTM' is not supported".
// compiler::compile refuses such an op before tiling, so nothing fails half-way through a run.
std::string runtimeRefusal(const ir::Graph& graph, const ir::Op& op);

// Op types strata_rt has a kernel for (attributes may still rule a use out), sorted.
const std::vector<std::string>& kernelOpTypes();

// The C++ element type of a dtype ("float", "std::int64_t", ...); empty when there is none.
std::string elementType(ir::DType dtype);

} // namespace strata::compiler

// MatMul (numpy semantics: batched, broadcast batch dims, 1-D operands) and Gemm. Each output
// element is a dot product over the full K, summed in order k = 0, 1, ..., so any region gives
// the same values as the whole tensor.

#include "reference/Kernels.h"

namespace strata::reference::kernels {

namespace {

using Result = std::optional<std::string>;

template <class T> void matMulLoop(const KernelContext& ctx) {
    using C = Compute<T>;
    const Tensor& a = ctx.in(0);
    const Tensor& b = ctx.in(1);
    const bool aVector = a.shape.size() == 1, bVector = b.shape.size() == 1;
    // Matrix views: A is M x K, B is K x N; a vector operand is 1 x K or K x 1.
    const std::int64_t K = a.shape.back();
    const std::int64_t M = aVector ? 1 : a.shape[a.shape.size() - 2];
    const std::int64_t N = bVector ? 1 : b.shape.back();
    const ir::Shape& outShape = ctx.outShape();
    const std::size_t batchRank = outShape.size() - (aVector ? 0 : 1) - (bVector ? 0 : 1);
    const ir::Shape batchShape(outShape.begin(), outShape.begin() + std::ptrdiff_t(batchRank));
    auto batchStrides = [&](const ir::Shape& s, bool vector, std::int64_t matrix) {
        const ir::Shape batch(s.begin(), s.end() - (vector ? 1 : 2));
        auto strides = broadcastStrides(batch, batchRank);
        for (auto& st : strides) st *= matrix;
        return strides;
    };
    const auto aStrides = batchStrides(a.shape, aVector, M * K);
    const auto bStrides = batchStrides(b.shape, bVector, K * N);

    // The region split into batch dims, rows and columns (absent dims are [0, 1)).
    const tiling::Region batchRegion(ctx.region.begin(),
                                     ctx.region.begin() + std::ptrdiff_t(batchRank));
    const tiling::Interval rows = aVector ? tiling::Interval{0, 1} : ctx.region[batchRank];
    const tiling::Interval cols = bVector ? tiling::Interval{0, 1} : ctx.region.back();
    const auto batchOut = stridesOf(batchShape);
    const T* A = a.data<T>();
    const T* B = b.data<T>();
    T* Y = ctx.output.data<T>();
    std::vector<C> acc(std::size_t(cols.size()));
    forEachIndex(batchRegion, [&](const Index& batch) {
        const T* Ab = A + dot(batch, aStrides);
        const T* Bb = B + dot(batch, bStrides);
        T* Yb = Y + dot(batch, batchOut) * M * N;
        for (std::int64_t m = rows.begin; m < rows.end; ++m) {
            std::fill(acc.begin(), acc.end(), C(0));
            C* row = acc.data() - cols.begin;
            for (std::int64_t k = 0; k < K; ++k) {
                const C av = load(Ab[m * K + k]);
                const T* bRow = Bb + k * N;
                for (std::int64_t n = cols.begin; n < cols.end; ++n) row[n] += av * load(bRow[n]);
            }
            for (std::int64_t n = cols.begin; n < cols.end; ++n) Yb[m * N + n] = store<T>(row[n]);
        }
    });
}

Result matMulKernel(const KernelContext& ctx) {
    if (ctx.in(0).shape.empty() || ctx.in(1).shape.empty()) return "operands must not be scalars";
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) { matMulLoop<T>(ctx); });
    return std::nullopt;
}

bool isMatMulType(ir::DType t) {
    return isFloatType(t) || t == ir::DType::Int32 || t == ir::DType::Int64 ||
           t == ir::DType::UInt32 || t == ir::DType::UInt64;
}

std::string matMulCheck(const SupportQuery& q) {
    if (!q.graph) return {};
    if (q.inputType(0) != q.outputType(0) || q.inputType(1) != q.outputType(0))
        return "inputs and output must share a dtype";
    return checkTypes(q, isMatMulType);
}

template <class T> void gemmLoop(const KernelContext& ctx) {
    using C = Compute<T>;
    const Tensor& a = ctx.in(0);
    const Tensor& b = ctx.in(1);
    const bool transA = ctx.op.attrInt("transA", 0) != 0;
    const bool transB = ctx.op.attrInt("transB", 0) != 0;
    const C alpha = C(attrFloat(ctx.op, "alpha", 1.0));
    const C beta = C(attrFloat(ctx.op, "beta", 1.0));
    const std::int64_t M = ctx.outShape()[0], N = ctx.outShape()[1];
    const std::int64_t K = transA ? a.shape[0] : a.shape[1];
    const T* A = a.data<T>();
    const T* B = b.data<T>();
    T* Y = ctx.output.data<T>();
    const Tensor* c = ctx.has(2) ? &ctx.in(2) : nullptr;
    const auto cStrides = c ? broadcastStrides(c->shape, 2) : std::vector<std::int64_t>{0, 0};
    const tiling::Interval rows = ctx.region[0], cols = ctx.region[1];
    std::vector<C> aRow(static_cast<std::size_t>(K)), acc(static_cast<std::size_t>(cols.size()));
    for (std::int64_t m = rows.begin; m < rows.end; ++m) {
        for (std::int64_t k = 0; k < K; ++k) aRow[k] = load(transA ? A[k * M + m] : A[m * K + k]);
        C* row = acc.data() - cols.begin;
        if (transB) {
            for (std::int64_t n = cols.begin; n < cols.end; ++n) {
                const T* bRow = B + n * K;
                C sum = 0;
                for (std::int64_t k = 0; k < K; ++k) sum += aRow[k] * load(bRow[k]);
                row[n] = sum;
            }
        } else {
            std::fill(acc.begin(), acc.end(), C(0));
            for (std::int64_t k = 0; k < K; ++k) {
                const T* bRow = B + k * N;
                for (std::int64_t n = cols.begin; n < cols.end; ++n) row[n] += aRow[k] * load(bRow[n]);
            }
        }
        for (std::int64_t n = cols.begin; n < cols.end; ++n) {
            C v = alpha * row[n];
            if (c) v += beta * load(c->data<T>()[m * cStrides[0] + n * cStrides[1]]);
            Y[m * N + n] = store<T>(v);
        }
    }
}

Result gemmKernel(const KernelContext& ctx) {
    if (ctx.in(0).shape.size() != 2 || ctx.in(1).shape.size() != 2)
        return "A and B must be matrices";
    if (ctx.has(2) && !broadcastsTo(ctx.in(2).shape, ctx.outShape()))
        return "C does not broadcast to the output";
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) { gemmLoop<T>(ctx); });
    return std::nullopt;
}

std::string gemmCheck(const SupportQuery& q) {
    if (!q.graph) return {};
    for (std::size_t i = 0; i < q.op.inputs.size(); ++i)
        if (q.hasInput(i) && q.inputType(i) != q.outputType(0))
            return "inputs and output must share a dtype";
    return checkTypes(q, isMatMulType);
}

constexpr KernelInfo kKernels[] = {
    {"Gemm", gemmKernel, gemmCheck},
    {"MatMul", matMulKernel, matMulCheck},
};

} // namespace

std::span<const KernelInfo> matMulKernels() { return kKernels; }

} // namespace strata::reference::kernels

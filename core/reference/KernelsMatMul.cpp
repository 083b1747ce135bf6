// MatMul (numpy semantics: batched, broadcast batch dims, 1-D operands), Gemm and Einsum. Each
// output element is a dot product over the full K, summed in order k = 0, 1, ..., so any region
// gives the same values as the whole tensor.

#include "reference/Kernels.h"
#include "tiling/EinsumEquation.h"

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
        for (auto& st : strides)
            st *= matrix;
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
                for (std::int64_t n = cols.begin; n < cols.end; ++n)
                    row[n] += av * load(bRow[n]);
            }
            for (std::int64_t n = cols.begin; n < cols.end; ++n)
                Yb[m * N + n] = store<T>(row[n]);
        }
    });
}

Result matMulKernel(const KernelContext& ctx) {
    if (ctx.in(0).shape.empty() || ctx.in(1).shape.empty())
        return "operands must not be scalars";
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) { matMulLoop<T>(ctx); });
    return std::nullopt;
}

bool isMatMulType(ir::DType t) {
    return isFloatType(t) || t == ir::DType::Int32 || t == ir::DType::Int64 ||
           t == ir::DType::UInt32 || t == ir::DType::UInt64;
}

std::string matMulCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
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
        for (std::int64_t k = 0; k < K; ++k)
            aRow[k] = load(transA ? A[k * M + m] : A[m * K + k]);
        C* row = acc.data() - cols.begin;
        if (transB) {
            for (std::int64_t n = cols.begin; n < cols.end; ++n) {
                const T* bRow = B + n * K;
                C sum = 0;
                for (std::int64_t k = 0; k < K; ++k)
                    sum += aRow[k] * load(bRow[k]);
                row[n] = sum;
            }
        } else {
            std::fill(acc.begin(), acc.end(), C(0));
            for (std::int64_t k = 0; k < K; ++k) {
                const T* bRow = B + k * N;
                for (std::int64_t n = cols.begin; n < cols.end; ++n)
                    row[n] += aRow[k] * load(bRow[n]);
            }
        }
        for (std::int64_t n = cols.begin; n < cols.end; ++n) {
            C v = alpha * row[n];
            if (c)
                v += beta * load(c->data<T>()[m * cStrides[0] + n * cStrides[1]]);
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
    if (!q.graph)
        return {};
    for (std::size_t i = 0; i < q.op.inputs.size(); ++i)
        if (q.hasInput(i) && q.inputType(i) != q.outputType(0))
            return "inputs and output must share a dtype";
    return checkTypes(q, isMatMulType);
}

// --- Einsum ---

// Each output element sums, over every value of the labels not in the output, the product of
// the operands' elements those labels pick (a dim of size 1 broadcasts).
Result einsumKernel(const KernelContext& ctx) {
    std::string why;
    std::vector<const Tensor*> in(ctx.inputs.begin(), ctx.inputs.end());
    std::vector<ir::Shape> shapes;
    for (const Tensor* t : in)
        shapes.push_back(t->shape);
    const auto e = tiling::parseEinsum(attrString(ctx.op, "equation", ""), shapes, why);
    if (!e)
        return why;
    std::vector<bool> inOutput(e->sizes.size(), false);
    for (int l : e->output)
        inOutput[std::size_t(l)] = true;
    tiling::Region summed;
    std::vector<int> summedLabels;
    for (std::size_t l = 0; l < e->sizes.size(); ++l)
        if (!inOutput[l]) {
            summed.push_back({0, e->sizes[l]});
            summedLabels.push_back(int(l));
        }
    const auto outStrides = stridesOf(ctx.outShape());
    std::vector<std::vector<std::int64_t>> strides;
    for (const Tensor* t : in)
        strides.push_back(stridesOf(t->shape));
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        using Acc = std::conditional_t<kIsFloating<T>, double, Compute<T>>;
        std::vector<std::int64_t> value(e->sizes.size(), 0); // current index of each label
        T* Y = ctx.output.data<T>();
        forEachIndex(ctx.region, [&](const Index& out) {
            for (std::size_t d = 0; d < out.size(); ++d)
                value[std::size_t(e->output[d])] = out[d];
            Acc sum = 0;
            forEachIndex(summed, [&](const Index& s) {
                for (std::size_t j = 0; j < s.size(); ++j)
                    value[std::size_t(summedLabels[j])] = s[j];
                Acc product = 1;
                for (std::size_t k = 0; k < in.size(); ++k) {
                    std::int64_t at = 0;
                    for (std::size_t d = 0; d < e->inputs[k].size(); ++d)
                        if (in[k]->shape[d] != 1)
                            at += value[std::size_t(e->inputs[k][d])] * strides[k][d];
                    product = Acc(product * Acc(load(in[k]->data<T>()[at])));
                }
                sum = Acc(sum + product);
            });
            Y[dot(out, outStrides)] = convertElement<T>(sum);
        });
    });
    return std::nullopt;
}

std::string einsumCheck(const SupportQuery& q) {
    if (attrString(q.op, "equation", "").empty())
        return "equation is missing";
    if (!q.graph)
        return {};
    for (std::size_t i = 0; i < q.op.inputs.size(); ++i)
        if (!q.hasInput(i) || q.inputType(i) != q.outputType(0))
            return "inputs and output must share a dtype";
    return checkTypes(q, isNumericType);
}

constexpr KernelInfo kMatMulKernels[] = {
    {"Einsum", einsumKernel, einsumCheck},
    {"Gemm", gemmKernel, gemmCheck},
    {"MatMul", matMulKernel, matMulCheck},
};

} // namespace

std::span<const KernelInfo> matMulKernels() {
    return kMatMulKernels;
}

} // namespace strata::reference::kernels

#include "runtime/EinsumKernel.h"

#include "runtime/Blas.h"
#include "tiling/EinsumEquation.h"

#include <algorithm>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace strata::runtime {
namespace {

using rt::i64;

enum class Role { Batch, Rows, Cols, Summed };

// One dim of a role in one operand: the label's extent in this compute and the operand's stride.
struct Axis {
    i64 size = 1;
    i64 stride = 0;
};

// A role's dims as one (size, stride) when each dim's stride is the next one's size times its
// stride (row-major nesting); dims of size 1 do not matter. nullopt when they do not nest.
std::optional<Axis> merged(const std::vector<Axis>& dims) {
    std::vector<Axis> used;
    for (const Axis& a : dims)
        if (a.size > 1)
            used.push_back(a);
    if (used.empty())
        return Axis{1, 0};
    Axis out = used.back();
    for (std::size_t i = used.size() - 1; i-- > 0;) {
        if (used[i].stride != out.size * out.stride)
            return std::nullopt;
        out.size *= used[i].size;
    }
    return out;
}

// The offset of every index of `dims` (row-major over them, first dim outermost).
std::vector<i64> offsets(const std::vector<Axis>& dims) {
    std::vector<i64> out{0};
    for (const Axis& a : dims) {
        std::vector<i64> next;
        next.reserve(out.size() * static_cast<std::size_t>(a.size));
        for (i64 base : out)
            for (i64 i = 0; i < a.size; ++i)
                next.push_back(base + i * a.stride);
        out = std::move(next);
    }
    return out;
}

// A matrix operand of sgemm: its data, whether it is stored transposed, and its leading dim.
struct Matrix {
    const float* data = nullptr;
    bool transposed = false;
    int ld = 1;
};

// `rows` x `cols` of `base` as sgemm reads it in place, or nullopt when neither dim is
// contiguous (or the leading dim would be too small for sgemm).
std::optional<Matrix> inPlace(const float* base, const std::optional<Axis>& rows,
                              const std::optional<Axis>& cols) {
    if (!rows || !cols)
        return std::nullopt;
    if (cols->size == 1 || cols->stride == 1) {
        const i64 ld = rows->size > 1 ? rows->stride : cols->size;
        if (ld >= cols->size)
            return Matrix{base, false, static_cast<int>(ld)};
    }
    if (rows->size == 1 || rows->stride == 1) {
        const i64 ld = cols->size > 1 ? cols->stride : rows->size;
        if (ld >= rows->size)
            return Matrix{base, true, static_cast<int>(ld)};
    }
    return std::nullopt;
}

// One operand (or the output) of the contraction: its box, and per role the axes of its dims in
// the role's label order.
struct Operand {
    const float* data = nullptr; // element at the first index of every label's range
    std::vector<Axis> axes[4];
    const std::vector<Axis>& of(Role r) const { return axes[static_cast<int>(r)]; }
};

// A view over a whole constant the tile holds no box of.
rt::View<unsigned char> wholeView(const reference::Tensor& t) {
    rt::View<unsigned char> v;
    v.data = reinterpret_cast<unsigned char*>(const_cast<std::byte*>(t.bytes.data()));
    v.rank = static_cast<int>(t.shape.size());
    i64 stride = 1;
    for (int d = v.rank; d-- > 0;) {
        v.ext[d] = v.full[d] = t.shape[static_cast<std::size_t>(d)];
        v.stride[d] = stride;
        stride *= v.ext[d];
    }
    return v;
}

struct Contraction {
    std::vector<Role> role;              // per label
    std::vector<std::int64_t> sizes;     // per label, in the whole op
    std::vector<tiling::Interval> range; // per label, in this compute
    std::vector<int> order[4];           // per role, its labels in the order the matrix dims run
};

// The labels' roles, or nullopt when the equation is not a batch of matrix products.
std::optional<Contraction> contraction(const tiling::EinsumLabels& e) {
    Contraction c;
    const std::size_t n = e.sizes.size();
    c.role.resize(n);
    for (std::size_t l = 0; l < n; ++l) {
        const auto in = [&](std::size_t k) {
            return std::count(e.inputs[k].begin(), e.inputs[k].end(), int(l));
        };
        const auto a = in(0), b = in(1);
        if (a > 1 || b > 1)
            return std::nullopt; // a diagonal
        const bool out = e.inOutput(int(l));
        if (a && b)
            c.role[l] = out ? Role::Batch : Role::Summed;
        else if (a && out)
            c.role[l] = Role::Rows;
        else if (b && out)
            c.role[l] = Role::Cols;
        else
            return std::nullopt; // summed inside one operand (or an unused ellipsis dim)
    }
    // Batch, rows and columns run in the output's order, summed labels in the first operand's.
    for (int l : e.output)
        c.order[static_cast<int>(c.role[std::size_t(l)])].push_back(l);
    for (int l : e.inputs[0])
        if (c.role[std::size_t(l)] == Role::Summed)
            c.order[static_cast<int>(Role::Summed)].push_back(l);
    return c;
}

// The operand's axes per role, or nullopt when its box lacks part of a label's range or a dim
// broadcasts (size 1 against a larger label).
std::optional<Operand> operand(const rt::View<unsigned char>& v, const std::vector<int>& labels,
                               const Contraction& c) {
    if (!v.data || v.rank != static_cast<int>(labels.size()))
        return std::nullopt;
    std::vector<Axis> byLabel(c.range.size());
    i64 offset = 0;
    for (int d = 0; d < v.rank; ++d) {
        const tiling::Interval r = c.range[std::size_t(labels[std::size_t(d)])];
        if (v.full[d] != c.sizes[std::size_t(labels[std::size_t(d)])])
            return std::nullopt; // a size-1 dim broadcast against a larger label
        if (r.begin < v.lo[d] || r.end > v.lo[d] + v.ext[d])
            return std::nullopt;
        offset += (r.begin - v.lo[d]) * v.stride[d];
        byLabel[std::size_t(labels[std::size_t(d)])] = {r.size(), v.stride[d]};
    }
    Operand o;
    o.data = reinterpret_cast<const float*>(v.data) + offset;
    for (int role = 0; role < 4; ++role)
        for (int l : c.order[role])
            o.axes[role].push_back(byLabel[std::size_t(l)]);
    return o;
}

// The role's axes of an operand that lacks the role's labels are all size 1.
Axis roleSize(const Contraction& c, Role r) {
    i64 n = 1;
    for (int l : c.order[static_cast<int>(r)])
        n *= c.range[std::size_t(l)].size();
    return {n, 1};
}

// `rows` x `cols` of `x` copied into `buffer` row-major.
Matrix packed(const float* x, const std::vector<i64>& rowOffsets,
              const std::vector<i64>& colOffsets, std::vector<float>& buffer) {
    buffer.resize(rowOffsets.size() * colOffsets.size());
    float* out = buffer.data();
    for (i64 r : rowOffsets)
        for (i64 c : colOffsets)
            *out++ = x[r + c];
    return Matrix{buffer.data(), false, static_cast<int>(colOffsets.size())};
}

} // namespace

bool fastEinsum(const PreparedCompute& p) {
    if (!p.op || p.op->type != "Einsum" || p.op->inputs.size() != 2 || !blas().sgemm)
        return false;
    const ir::Graph& g = *p.graph;
    const ir::Op& op = *p.op;
    std::vector<ir::Shape> shapes;
    for (ir::ValueId id : op.inputs) {
        if (!id.valid() || g.value(id).dtype != ir::DType::Float32)
            return false;
        shapes.push_back(g.value(id).shape);
    }
    const rt::View<unsigned char>& y = p.output;
    if (g.value(op.outputs[0]).dtype != ir::DType::Float32 || !y.data)
        return false;
    std::string why;
    const ir::Attribute* equation = op.attribute("equation");
    const auto* text = equation ? std::get_if<std::string>(&equation->value) : nullptr;
    if (!text)
        return false;
    const auto e = tiling::parseEinsum(*text, shapes, why);
    if (!e || e->output.size() != static_cast<std::size_t>(y.rank))
        return false;
    auto c = contraction(*e);
    if (!c)
        return false;
    c->sizes = e->sizes;
    c->range.resize(e->sizes.size());
    for (std::size_t l = 0; l < e->sizes.size(); ++l)
        c->range[l] = {0, e->sizes[l]};
    for (std::size_t d = 0; d < e->output.size(); ++d)
        c->range[std::size_t(e->output[d])] = {y.lo[d], y.lo[d] + y.ext[d]};

    std::optional<Operand> ops[2];
    for (std::size_t k = 0; k < 2; ++k) {
        const rt::View<unsigned char> v =
            p.inputs[k].data || !p.constants[k] ? p.inputs[k] : wholeView(*p.constants[k]);
        ops[k] = operand(v, e->inputs[k], *c);
        if (!ops[k])
            return false;
    }
    const auto out = operand(y, e->output, *c);
    if (!out)
        return false;
    const Operand& a = *ops[0];
    const Operand& b = *ops[1];
    const i64 M = roleSize(*c, Role::Rows).size, N = roleSize(*c, Role::Cols).size;
    const i64 K = roleSize(*c, Role::Summed).size;
    if (M == 0 || N == 0 || K == 0)
        return false;

    // In place where the strides allow, else packed once per batch element.
    auto direct = [](const Operand& o, Role rows, Role cols) {
        return inPlace(o.data, merged(o.of(rows)), merged(o.of(cols)));
    };
    const auto aDirect = direct(a, Role::Rows, Role::Summed);
    const auto bDirect = direct(b, Role::Summed, Role::Cols);
    const auto yMerged = std::pair{merged(out->of(Role::Rows)), merged(out->of(Role::Cols))};
    const bool yDirect = yMerged.first && yMerged.second &&
                         (N == 1 || yMerged.second->stride == 1) &&
                         (M == 1 || yMerged.first->stride >= N);
    thread_local std::vector<float> aBuffer, bBuffer, yBuffer;
    const auto aRows = offsets(a.of(Role::Rows)), aCols = offsets(a.of(Role::Summed));
    const auto bRows = offsets(b.of(Role::Summed)), bCols = offsets(b.of(Role::Cols));
    const auto yRows = offsets(out->of(Role::Rows)), yCols = offsets(out->of(Role::Cols));
    const auto aBatch = offsets(a.of(Role::Batch)), bBatch = offsets(b.of(Role::Batch));
    const auto yBatch = offsets(out->of(Role::Batch));
    float* const Y = const_cast<float*>(out->data); // the output's own box
    for (std::size_t i = 0; i < yBatch.size(); ++i) {
        Matrix am = aDirect ? *aDirect : packed(a.data + aBatch[i], aRows, aCols, aBuffer);
        Matrix bm = bDirect ? *bDirect : packed(b.data + bBatch[i], bRows, bCols, bBuffer);
        if (aDirect)
            am.data += aBatch[i];
        if (bDirect)
            bm.data += bBatch[i];
        float* const yb = Y + yBatch[i];
        float* const target = yDirect ? yb : (yBuffer.resize(std::size_t(M * N)), yBuffer.data());
        const int ldc =
            yDirect && M > 1 ? static_cast<int>(yMerged.first->stride) : static_cast<int>(N);
        blas().sgemm(CblasRowMajor, am.transposed ? CblasTrans : CblasNoTrans,
                     bm.transposed ? CblasTrans : CblasNoTrans, static_cast<int>(M),
                     static_cast<int>(N), static_cast<int>(K), 1.0f, am.data, am.ld, bm.data, bm.ld,
                     0.0f, target, ldc);
        if (!yDirect)
            for (std::size_t r = 0; r < yRows.size(); ++r)
                for (std::size_t col = 0; col < yCols.size(); ++col)
                    yb[yRows[r] + yCols[col]] = yBuffer[r * yCols.size() + col];
    }
    return true;
}

} // namespace strata::runtime

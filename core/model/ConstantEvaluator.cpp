#include "model/ConstantEvaluator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <string_view>

namespace strata::model {

namespace {

using Shape = ir::Shape;
using Result = std::optional<std::vector<ConstTensor>>;

const onnx::AttributeProto* attr(const onnx::NodeProto& node, std::string_view name) {
    for (const auto& a : node.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}
std::int64_t attrInt(const onnx::NodeProto& node, std::string_view name, std::int64_t fallback) {
    const auto* a = attr(node, name);
    return a ? a->i() : fallback;
}
std::optional<std::vector<std::int64_t>> attrInts(const onnx::NodeProto& node, std::string_view name) {
    const auto* a = attr(node, name);
    if (!a) return std::nullopt;
    return std::vector<std::int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<std::int64_t> normAxis(std::int64_t axis, std::int64_t rank) {
    if (axis < -rank || axis >= rank) return std::nullopt;
    return axis < 0 ? axis + rank : axis;
}

std::int64_t count(const Shape& s) { return ir::elementCount(s).value_or(-1); }

std::vector<std::int64_t> stridesOf(const Shape& s) {
    std::vector<std::int64_t> st(s.size(), 1);
    for (int i = int(s.size()) - 2; i >= 0; --i) st[i] = st[i + 1] * s[i + 1];
    return st;
}

ConstTensor makeLike(ir::DType dtype, Shape shape) {
    ConstTensor t;
    t.dtype = dtype;
    t.shape = std::move(shape);
    const auto n = std::max<std::int64_t>(count(t.shape), 0);
    if (t.isInt()) t.ints.resize(n); else t.reals.resize(n);
    return t;
}

// Copies element `from` of `src` to element `to` of `dst` (same dtype family).
void copyElem(const ConstTensor& src, std::int64_t from, ConstTensor& dst, std::int64_t to) {
    if (dst.isInt()) dst.ints[to] = src.ints[from]; else dst.reals[to] = src.reals[from];
}

bool tooBig(const Shape& s) {
    const auto n = ir::elementCount(s);
    return !n || *n > kMaxFoldedElements;
}

std::optional<std::vector<std::int64_t>> asInts(const ConstTensor* t) {
    if (!t || !t->isInt()) return std::nullopt;
    return t->ints;
}

// Numpy broadcasting of several shapes.
std::optional<Shape> broadcastShapes(const std::vector<const Shape*>& shapes) {
    std::size_t rank = 0;
    for (auto* s : shapes) rank = std::max(rank, s->size());
    Shape out(rank, 1);
    for (auto* s : shapes)
        for (std::size_t i = 0; i < s->size(); ++i) {
            std::int64_t& o = out[rank - s->size() + i];
            std::int64_t d = (*s)[i];
            if (d == o || d == 1) continue;
            if (o == 1) o = d; else return std::nullopt;
        }
    return out;
}

// Offset into a tensor of shape `s` broadcast to `out`, for output multi-index `idx`.
std::int64_t broadcastOffset(const Shape& s, const Shape& out, const std::vector<std::int64_t>& idx) {
    std::int64_t off = 0, stride = 1;
    for (int i = int(s.size()) - 1; i >= 0; --i) {
        const std::int64_t oi = idx[out.size() - s.size() + i];
        off += (s[i] == 1 ? 0 : oi) * stride;
        stride *= s[i];
    }
    return off;
}

void nextIndex(std::vector<std::int64_t>& idx, const Shape& shape) {
    for (int i = int(shape.size()) - 1; i >= 0; --i) {
        if (++idx[i] < shape[i]) return;
        idx[i] = 0;
    }
}

enum class Kind { Arith, Compare, Logic };

Result binary(const onnx::NodeProto& node, const ConstTensor& a, const ConstTensor& b) {
    const std::string& op = node.op_type();
    const Kind kind = (op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" ||
                       op == "GreaterOrEqual") ? Kind::Compare
                      : (op == "And" || op == "Or" || op == "Xor") ? Kind::Logic : Kind::Arith;
    if (kind == Kind::Arith && a.isInt() != b.isInt()) return std::nullopt;
    auto shape = broadcastShapes({&a.shape, &b.shape});
    if (!shape || tooBig(*shape)) return std::nullopt;
    const ir::DType outType = kind == Kind::Arith ? a.dtype : ir::DType::Bool;
    ConstTensor out = makeLike(outType, *shape);
    std::vector<std::int64_t> idx(shape->size(), 0);
    const bool ints = a.isInt() && b.isInt();
    for (std::int64_t i = 0; i < out.size(); ++i, nextIndex(idx, *shape)) {
        const auto ia = broadcastOffset(a.shape, *shape, idx);
        const auto ib = broadcastOffset(b.shape, *shape, idx);
        if (ints) {
            const std::int64_t x = a.ints[ia], y = b.ints[ib];
            std::int64_t r = 0;
            if (op == "Add") r = x + y;
            else if (op == "Sub") r = x - y;
            else if (op == "Mul") r = x * y;
            else if (op == "Div") { if (y == 0) return std::nullopt; r = x / y; }
            else if (op == "Mod") { if (y == 0) return std::nullopt; r = attrInt(node, "fmod", 0) ? x % y : ((x % y) + y) % y; }
            else if (op == "Max") r = std::max(x, y);
            else if (op == "Min") r = std::min(x, y);
            else if (op == "Equal") r = x == y;
            else if (op == "Less") r = x < y;
            else if (op == "Greater") r = x > y;
            else if (op == "LessOrEqual") r = x <= y;
            else if (op == "GreaterOrEqual") r = x >= y;
            else if (op == "And") r = x && y;
            else if (op == "Or") r = x || y;
            else if (op == "Xor") r = (x != 0) != (y != 0);
            else return std::nullopt;
            out.ints[i] = r;
        } else {
            const double x = a.at(ia), y = b.at(ib);
            double r = 0;
            if (op == "Add") r = x + y;
            else if (op == "Sub") r = x - y;
            else if (op == "Mul") r = x * y;
            else if (op == "Div") r = x / y;
            else if (op == "Pow") r = std::pow(x, y);
            else if (op == "Max") r = std::max(x, y);
            else if (op == "Min") r = std::min(x, y);
            else if (op == "Equal") r = x == y;
            else if (op == "Less") r = x < y;
            else if (op == "Greater") r = x > y;
            else if (op == "LessOrEqual") r = x <= y;
            else if (op == "GreaterOrEqual") r = x >= y;
            else return std::nullopt;
            if (out.isInt()) out.ints[i] = static_cast<std::int64_t>(r); else out.reals[i] = r;
        }
    }
    return std::vector{std::move(out)};
}

Result unary(const std::string& op, const ConstTensor& x) {
    ConstTensor out = x;
    if (op == "Not") {
        if (x.dtype != ir::DType::Bool) return std::nullopt;
        for (auto& v : out.ints) v = !v;
        return std::vector{std::move(out)};
    }
    auto apply = [&](auto fi, auto fr) {
        for (auto& v : out.ints) v = fi(v);
        for (auto& v : out.reals) v = fr(v);
    };
    if (op == "Neg") apply([](std::int64_t v) { return -v; }, [](double v) { return -v; });
    else if (op == "Abs") apply([](std::int64_t v) { return v < 0 ? -v : v; }, [](double v) { return std::fabs(v); });
    else if (op == "Floor" && !x.isInt()) apply([](std::int64_t v) { return v; }, [](double v) { return std::floor(v); });
    else if (op == "Ceil" && !x.isInt()) apply([](std::int64_t v) { return v; }, [](double v) { return std::ceil(v); });
    else if (op == "Sqrt" && !x.isInt()) apply([](std::int64_t v) { return v; }, [](double v) { return std::sqrt(v); });
    else if (op == "Sign") apply([](std::int64_t v) { return std::int64_t((v > 0) - (v < 0)); }, [](double v) { return double((v > 0) - (v < 0)); });
    else return std::nullopt;
    return std::vector{std::move(out)};
}

Result cast(const ConstTensor& x, std::int64_t to) {
    if (!ir::isValidDType(int(to))) return std::nullopt;
    ConstTensor out = makeLike(static_cast<ir::DType>(to), x.shape);
    const bool toInt = out.isInt(), toFloat = ir::isFloating(out.dtype);
    if (!toInt && !(toFloat && (out.dtype == ir::DType::Float32 || out.dtype == ir::DType::Float64)))
        return std::nullopt;
    for (std::int64_t i = 0; i < x.size(); ++i) {
        if (toInt) {
            const double v = x.at(i);
            if (!std::isfinite(v)) return std::nullopt;
            out.ints[i] = out.dtype == ir::DType::Bool ? (v != 0) : (x.isInt() ? x.ints[i] : std::int64_t(v));
        } else {
            out.reals[i] = x.at(i);
        }
    }
    return std::vector{std::move(out)};
}

Result gather(const onnx::NodeProto& node, const ConstTensor& data, const ConstTensor& indices) {
    if (!indices.isInt()) return std::nullopt;
    const auto rank = std::ssize(data.shape);
    auto axis = normAxis(attrInt(node, "axis", 0), rank);
    if (!axis || rank == 0) return std::nullopt;
    Shape outShape(data.shape.begin(), data.shape.begin() + *axis);
    outShape.insert(outShape.end(), indices.shape.begin(), indices.shape.end());
    outShape.insert(outShape.end(), data.shape.begin() + *axis + 1, data.shape.end());
    if (tooBig(outShape)) return std::nullopt;
    const std::int64_t outer = count(Shape(data.shape.begin(), data.shape.begin() + *axis));
    const std::int64_t inner = count(Shape(data.shape.begin() + *axis + 1, data.shape.end()));
    const std::int64_t dim = data.shape[*axis];
    ConstTensor out = makeLike(data.dtype, outShape);
    std::int64_t o = 0;
    for (std::int64_t a = 0; a < outer; ++a)
        for (std::int64_t k : indices.ints) {
            if (k < -dim || k >= dim) return std::nullopt;
            if (k < 0) k += dim;
            for (std::int64_t j = 0; j < inner; ++j) copyElem(data, (a * dim + k) * inner + j, out, o++);
        }
    return std::vector{std::move(out)};
}

Result unsqueeze(const onnx::NodeProto& node, std::int64_t opset, const std::vector<const ConstTensor*>& in) {
    auto axes = opset >= 13 ? asInts(in.size() > 1 ? in[1] : nullptr) : attrInts(node, "axes");
    if (!axes) return std::nullopt;
    const auto outRank = std::ssize(in[0]->shape) + std::ssize(*axes);
    std::vector<bool> inserted(outRank, false);
    for (auto a : *axes) {
        auto n = normAxis(a, outRank);
        if (!n || inserted[*n]) return std::nullopt;
        inserted[*n] = true;
    }
    ConstTensor out = *in[0];
    out.shape.clear();
    std::size_t src = 0;
    for (std::int64_t i = 0; i < outRank; ++i) out.shape.push_back(inserted[i] ? 1 : in[0]->shape[src++]);
    return std::vector{std::move(out)};
}

Result squeeze(const onnx::NodeProto& node, std::int64_t opset, const std::vector<const ConstTensor*>& in) {
    auto axes = opset >= 13 ? asInts(in.size() > 1 ? in[1] : nullptr) : attrInts(node, "axes");
    const auto rank = std::ssize(in[0]->shape);
    std::vector<bool> drop(rank, false);
    if (!axes || axes->empty()) {
        for (std::int64_t i = 0; i < rank; ++i) drop[i] = in[0]->shape[i] == 1;
    } else {
        for (auto a : *axes) {
            auto n = normAxis(a, rank);
            if (!n || in[0]->shape[*n] != 1) return std::nullopt;
            drop[*n] = true;
        }
    }
    ConstTensor out = *in[0];
    out.shape.clear();
    for (std::int64_t i = 0; i < rank; ++i)
        if (!drop[i]) out.shape.push_back(in[0]->shape[i]);
    return std::vector{std::move(out)};
}

Result concat(const onnx::NodeProto& node, const std::vector<const ConstTensor*>& in) {
    if (in.empty() || !in[0]) return std::nullopt;
    const auto rank = std::ssize(in[0]->shape);
    auto axis = normAxis(attrInt(node, "axis", 0), rank);
    if (!axis || rank == 0) return std::nullopt;
    Shape outShape = in[0]->shape;
    outShape[*axis] = 0;
    for (const auto* t : in) {
        if (!t || std::ssize(t->shape) != rank || t->isInt() != in[0]->isInt()) return std::nullopt;
        for (std::int64_t i = 0; i < rank; ++i)
            if (i != *axis && t->shape[i] != in[0]->shape[i]) return std::nullopt;
        outShape[*axis] += t->shape[*axis];
    }
    if (tooBig(outShape)) return std::nullopt;
    ConstTensor out = makeLike(in[0]->dtype, outShape);
    const std::int64_t outer = count(Shape(outShape.begin(), outShape.begin() + *axis));
    std::int64_t o = 0;
    for (std::int64_t a = 0; a < outer; ++a)
        for (const auto* t : in) {
            const std::int64_t chunk = count(Shape(t->shape.begin() + *axis, t->shape.end()));
            for (std::int64_t j = 0; j < chunk; ++j) copyElem(*t, a * chunk + j, out, o++);
        }
    return std::vector{std::move(out)};
}

Result reshape(const onnx::NodeProto& node, const ConstTensor& data, const ConstTensor* shapeIn,
               std::int64_t opset) {
    auto target = opset >= 5 ? asInts(shapeIn) : attrInts(node, "shape");
    if (!target) return std::nullopt;
    const bool allowZero = attrInt(node, "allowzero", 0) != 0;
    Shape out;
    std::int64_t known = 1, inferAt = -1;
    for (std::size_t i = 0; i < target->size(); ++i) {
        std::int64_t d = (*target)[i];
        if (d == 0 && !allowZero) {
            if (i >= data.shape.size()) return std::nullopt;
            d = data.shape[i];
        }
        if (d == -1) {
            if (inferAt >= 0) return std::nullopt;
            inferAt = std::int64_t(i);
            out.push_back(1);
            continue;
        }
        if (d < 0) return std::nullopt;
        out.push_back(d);
        known *= d;
    }
    const std::int64_t total = data.size();
    if (inferAt >= 0) {
        if (known == 0 || total % known) return std::nullopt;
        out[inferAt] = total / known;
    }
    if (count(out) != total) return std::nullopt;
    ConstTensor result = data;
    result.shape = out;
    return std::vector{std::move(result)};
}

Result slice(const onnx::NodeProto& node, std::int64_t opset, const std::vector<const ConstTensor*>& in) {
    const ConstTensor& data = *in[0];
    const auto rank = std::ssize(data.shape);
    std::optional<std::vector<std::int64_t>> starts, ends, axes, steps;
    if (opset >= 10) {
        starts = asInts(in.size() > 1 ? in[1] : nullptr);
        ends = asInts(in.size() > 2 ? in[2] : nullptr);
        if (in.size() > 3 && in[3]) axes = asInts(in[3]);
        if (in.size() > 4 && in[4]) steps = asInts(in[4]);
    } else {
        starts = attrInts(node, "starts");
        ends = attrInts(node, "ends");
        axes = attrInts(node, "axes");
    }
    if (!starts || !ends || starts->size() != ends->size()) return std::nullopt;
    if (!axes) { axes.emplace(starts->size()); std::iota(axes->begin(), axes->end(), 0); }
    if (!steps) steps.emplace(starts->size(), 1);
    if (axes->size() != starts->size() || steps->size() != starts->size()) return std::nullopt;
    std::vector<std::int64_t> begin(rank, 0), step(rank, 1);
    Shape outShape = data.shape;
    for (std::size_t k = 0; k < starts->size(); ++k) {
        auto ax = normAxis((*axes)[k], rank);
        const std::int64_t st = (*steps)[k];
        if (!ax || st == 0) return std::nullopt;
        const std::int64_t dim = data.shape[*ax];
        // ONNX clamps starts and ends to [0, dim] going forward, [-1, dim-1] going backward.
        auto clampIndex = [&](std::int64_t v) {
            if (v < 0) v += dim;
            return st > 0 ? std::clamp<std::int64_t>(v, 0, dim)
                          : std::clamp<std::int64_t>(v, -1, dim - 1);
        };
        const std::int64_t s = clampIndex((*starts)[k]), e = clampIndex((*ends)[k]);
        const std::int64_t len = st > 0 ? std::max<std::int64_t>(0, (e - s + st - 1) / st)
                                        : std::max<std::int64_t>(0, (s - e + (-st) - 1) / (-st));
        begin[*ax] = s;
        step[*ax] = st;
        outShape[*ax] = len;
    }
    if (tooBig(outShape)) return std::nullopt;
    ConstTensor out = makeLike(data.dtype, outShape);
    const auto strides = stridesOf(data.shape);
    std::vector<std::int64_t> idx(rank, 0);
    for (std::int64_t i = 0; i < out.size(); ++i, nextIndex(idx, outShape)) {
        std::int64_t off = 0;
        for (std::int64_t d = 0; d < rank; ++d) off += (begin[d] + idx[d] * step[d]) * strides[d];
        copyElem(data, off, out, i);
    }
    return std::vector{std::move(out)};
}

Result constantOfShape(const onnx::NodeProto& node, const ConstTensor& shapeIn) {
    if (!shapeIn.isInt()) return std::nullopt;
    Shape shape(shapeIn.ints.begin(), shapeIn.ints.end());
    for (auto d : shape) if (d < 0) return std::nullopt;
    if (tooBig(shape)) return std::nullopt;
    ConstTensor fill;
    fill.dtype = ir::DType::Float32;
    fill.reals = {0.0};
    if (const auto* a = attr(node, "value")) {
        auto decoded = decodeConstTensor(a->t());
        if (!decoded || decoded->size() != 1) return std::nullopt;
        fill = *decoded;
    }
    ConstTensor out = makeLike(fill.dtype, shape);
    for (std::int64_t i = 0; i < out.size(); ++i) copyElem(fill, 0, out, i);
    return std::vector{std::move(out)};
}

Result range(const ConstTensor& start, const ConstTensor& limit, const ConstTensor& delta) {
    if (start.size() != 1 || limit.size() != 1 || delta.size() != 1) return std::nullopt;
    const double s = start.at(0), l = limit.at(0), d = delta.at(0);
    if (d == 0 || !std::isfinite(s) || !std::isfinite(l) || !std::isfinite(d)) return std::nullopt;
    const double n = std::max(0.0, std::ceil((l - s) / d));
    if (n > kMaxFoldedElements) return std::nullopt;
    ConstTensor out = makeLike(start.dtype, {std::int64_t(n)});
    for (std::int64_t i = 0; i < std::int64_t(n); ++i) {
        if (out.isInt()) out.ints[i] = start.ints[0] + i * delta.ints[0];
        else out.reals[i] = s + double(i) * d;
    }
    return std::vector{std::move(out)};
}

Result reduce(const onnx::NodeProto& node, std::int64_t opset, const std::vector<const ConstTensor*>& in) {
    const ConstTensor& x = *in[0];
    const std::string& op = node.op_type();
    const bool axesAsInput = (op == "ReduceSum" && opset >= 13) || opset >= 18;
    auto axes = axesAsInput ? (in.size() > 1 && in[1] ? asInts(in[1]) : std::optional<std::vector<std::int64_t>>{std::vector<std::int64_t>{}})
                            : attrInts(node, "axes");
    if (!axes) axes.emplace();
    const auto rank = std::ssize(x.shape);
    std::vector<bool> reduced(rank, false);
    if (axes->empty()) {
        if (axesAsInput && attrInt(node, "noop_with_empty_axes", 0)) return std::vector{x};
        std::fill(reduced.begin(), reduced.end(), true);
    }
    for (auto a : *axes) {
        auto n = normAxis(a, rank);
        if (!n) return std::nullopt;
        reduced[*n] = true;
    }
    const bool keep = attrInt(node, "keepdims", 1) != 0;
    Shape keptShape = x.shape, outShape;
    for (std::int64_t i = 0; i < rank; ++i) {
        if (reduced[i]) keptShape[i] = 1;
        if (!reduced[i] || keep) outShape.push_back(keptShape[i]);
    }
    ConstTensor out = makeLike(x.dtype, keptShape);
    std::vector<bool> seen(out.size(), false);
    std::vector<std::int64_t> idx(rank, 0);
    for (std::int64_t i = 0; i < x.size(); ++i, nextIndex(idx, x.shape)) {
        const auto o = broadcastOffset(keptShape, x.shape, idx);
        const double v = x.at(i);
        double r = v;
        if (seen[o]) {
            const double cur = out.at(o);
            r = op == "ReduceProd" ? cur * v
                : op == "ReduceSum" ? cur + v
                : op == "ReduceMax" ? std::max(cur, v)
                                    : std::min(cur, v);
        }
        seen[o] = true;
        if (out.isInt()) out.ints[o] = std::int64_t(r);
        else out.reals[o] = r;
    }
    out.shape = outShape;
    return std::vector{std::move(out)};
}

Result expand(const ConstTensor& x, const ConstTensor& shapeIn) {
    if (!shapeIn.isInt()) return std::nullopt;
    Shape target(shapeIn.ints.begin(), shapeIn.ints.end());
    auto shape = broadcastShapes({&x.shape, &target});
    if (!shape || tooBig(*shape)) return std::nullopt;
    ConstTensor out = makeLike(x.dtype, *shape);
    std::vector<std::int64_t> idx(shape->size(), 0);
    for (std::int64_t i = 0; i < out.size(); ++i, nextIndex(idx, *shape))
        copyElem(x, broadcastOffset(x.shape, *shape, idx), out, i);
    return std::vector{std::move(out)};
}

Result transpose(const onnx::NodeProto& node, const ConstTensor& x) {
    const auto rank = std::ssize(x.shape);
    auto perm = attrInts(node, "perm");
    if (!perm) { perm.emplace(rank); std::iota(perm->rbegin(), perm->rend(), 0); }
    if (std::ssize(*perm) != rank) return std::nullopt;
    Shape outShape(rank);
    for (std::int64_t i = 0; i < rank; ++i) {
        if ((*perm)[i] < 0 || (*perm)[i] >= rank) return std::nullopt;
        outShape[i] = x.shape[(*perm)[i]];
    }
    ConstTensor out = makeLike(x.dtype, outShape);
    const auto strides = stridesOf(x.shape);
    std::vector<std::int64_t> idx(rank, 0);
    for (std::int64_t i = 0; i < out.size(); ++i, nextIndex(idx, outShape)) {
        std::int64_t off = 0;
        for (std::int64_t d = 0; d < rank; ++d) off += idx[d] * strides[(*perm)[d]];
        copyElem(x, off, out, i);
    }
    return std::vector{std::move(out)};
}

Result where(const ConstTensor& c, const ConstTensor& a, const ConstTensor& b) {
    if (!c.isInt() || a.isInt() != b.isInt()) return std::nullopt;
    auto shape = broadcastShapes({&c.shape, &a.shape, &b.shape});
    if (!shape || tooBig(*shape)) return std::nullopt;
    ConstTensor out = makeLike(a.dtype, *shape);
    std::vector<std::int64_t> idx(shape->size(), 0);
    for (std::int64_t i = 0; i < out.size(); ++i, nextIndex(idx, *shape)) {
        const bool pick = c.ints[broadcastOffset(c.shape, *shape, idx)] != 0;
        const ConstTensor& src = pick ? a : b;
        copyElem(src, broadcastOffset(src.shape, *shape, idx), out, i);
    }
    return std::vector{std::move(out)};
}

} // namespace

std::optional<std::vector<ConstTensor>> evaluateConstantNode(
    const onnx::NodeProto& node, std::int64_t opset, const std::vector<const ConstTensor*>& in) {
    const std::string& op = node.op_type();
    if (!node.domain().empty() && node.domain() != "ai.onnx") return std::nullopt;
    if (in.empty() || !in[0]) return std::nullopt;
    const ConstTensor& x = *in[0];
    auto input = [&](std::size_t i) -> const ConstTensor* { return i < in.size() ? in[i] : nullptr; };

    if (op == "Identity") return std::vector{x};
    if (op == "Cast") return cast(x, attrInt(node, "to", 0));
    if (op == "Neg" || op == "Abs" || op == "Floor" || op == "Ceil" || op == "Sqrt" || op == "Sign" || op == "Not")
        return unary(op, x);
    if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Mod" || op == "Pow" ||
        op == "Equal" || op == "Less" || op == "Greater" || op == "LessOrEqual" ||
        op == "GreaterOrEqual" || op == "And" || op == "Or" || op == "Xor" ||
        ((op == "Max" || op == "Min") && in.size() == 2)) {
        if (!input(1)) return std::nullopt;
        return binary(node, x, *input(1));
    }
    if (op == "Where") return input(1) && input(2) ? where(x, *input(1), *input(2)) : std::nullopt;
    if (op == "Gather") return input(1) ? gather(node, x, *input(1)) : std::nullopt;
    if (op == "Unsqueeze") return unsqueeze(node, opset, in);
    if (op == "Squeeze") return squeeze(node, opset, in);
    if (op == "Concat") return concat(node, in);
    if (op == "Reshape") return reshape(node, x, input(1), opset);
    if (op == "Slice") return slice(node, opset, in);
    if (op == "ConstantOfShape") return constantOfShape(node, x);
    if (op == "Range") return input(1) && input(2) ? range(x, *input(1), *input(2)) : std::nullopt;
    if (op == "ReduceProd" || op == "ReduceSum" || op == "ReduceMax" || op == "ReduceMin")
        return reduce(node, opset, in);
    if (op == "Expand") return input(1) ? expand(x, *input(1)) : std::nullopt;
    if (op == "Transpose") return transpose(node, x);
    return std::nullopt;
}

} // namespace strata::model

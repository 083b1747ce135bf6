#include "compiler/emit/CppOps.h"

#include "ir/ConstantValues.h"
#include "tiling/Window.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <variant>

namespace strata::compiler::cpp {
namespace {

using Ints = std::vector<std::int64_t>;

std::string list(const Ints& v) { return fmt::format("{{{}}}", fmt::join(v, ", ")); }

// A float as a C++ literal that reads back to the same float.
std::string floatLiteral(double v) {
    if (std::isnan(v)) return "NAN";
    if (std::isinf(v)) return v > 0 ? "INFINITY" : "-INFINITY";
    std::string s = fmt::format("{}", static_cast<float>(v));
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s + "f";
}

std::optional<std::size_t> axisOf(std::int64_t axis, std::size_t rank) {
    const std::int64_t r = static_cast<std::int64_t>(rank);
    if (axis < -r || axis >= r) return std::nullopt;
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

double attrFloat(const ir::Op& op, std::string_view name, double fallback) {
    const ir::Attribute* a = op.attribute(name);
    if (!a) return fallback;
    if (const auto* d = std::get_if<double>(&a->value)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&a->value)) return static_cast<double>(*i);
    return fallback;
}

std::string attrText(const ir::Op& op, std::string_view name, std::string fallback) {
    const ir::Attribute* a = op.attribute(name);
    const auto* s = a ? std::get_if<std::string>(&a->value) : nullptr;
    return s ? *s : fallback;
}

// One compute being translated: declares operand views and collects the statements.
class Call {
  public:
    Call(const ir::Graph& g, const ir::Op& op, const Compute& c, const std::string& scratch)
        : graph(g), op(op), m_compute(c), m_scratch(scratch) {}

    const ir::Graph& graph;
    const ir::Op& op;
    std::vector<std::string> lines;
    std::string error;

    bool hasInput(std::size_t i) const { return i < op.inputs.size() && op.inputs[i].valid(); }
    const ir::Value& in(std::size_t i) const { return graph.value(op.inputs[i]); }
    const ir::Value& out(std::size_t i) const { return graph.value(op.outputs[i]); }
    std::size_t rank() const { return out(0).shape.size(); }

    // The view of input `i`, declared once as x<i>.
    std::string input(std::size_t i) { return declare("x", i, op.inputs[i], m_compute.inputs); }
    std::string output(std::size_t i = 0) { return declare("y", i, op.outputs[i], m_compute.outputs); }

    // Whether the compute writes output `i` (an optional output nobody reads is not computed).
    bool writes(std::size_t i) const {
        return i < op.outputs.size() && op.outputs[i].valid() && find(op.outputs[i], m_compute.outputs);
    }

    bool fail(std::string why) {
        error = fmt::format("{} '{}': {}", op.type, op.name, std::move(why));
        return false;
    }
    bool requireFloat() {
        for (std::size_t i = 0; i < op.inputs.size(); ++i)
            if (hasInput(i) && in(i).dtype != ir::DType::Float32 && !in(i).isConstant)
                return fail(fmt::format("input {} is {}; the C++ runtime computes this op in float32 only", i,
                                        ir::dtypeName(in(i).dtype)));
        if (out(0).dtype != ir::DType::Float32)
            return fail(fmt::format("output is {}; the C++ runtime computes this op in float32 only",
                                    ir::dtypeName(out(0).dtype)));
        return true;
    }
    bool onlyFirstOutput() {
        for (std::size_t i = 1; i < op.outputs.size(); ++i)
            if (writes(i)) return fail(fmt::format("output {} is used; the C++ runtime computes only output 0", i));
        return true;
    }
    std::optional<Ints> constantInts(std::size_t i) {
        auto v = hasInput(i) ? ir::constantInts(graph, op.inputs[i]) : std::nullopt;
        if (!v && hasInput(i)) fail(fmt::format("input {} must be a constant integer tensor", i));
        return v;
    }
    std::optional<double> constantScalar(std::size_t i) {
        auto v = hasInput(i) ? ir::constantFloats(graph, op.inputs[i]) : std::nullopt;
        if (!v || v->size() != 1) {
            fail(fmt::format("input {} must be a constant float scalar", i));
            return std::nullopt;
        }
        return v->front();
    }
    void call(std::string text) { lines.push_back(std::move(text) + ";"); }

  private:
    static const Operand* find(ir::ValueId v, const std::vector<Operand>& operands) {
        for (const Operand& o : operands)
            if (o.value == v) return &o;
        return nullptr;
    }

    std::string declare(const char* prefix, std::size_t i, ir::ValueId v, const std::vector<Operand>& operands) {
        const std::string name = prefix + std::to_string(i);
        if (std::find(m_declared.begin(), m_declared.end(), name) != m_declared.end()) return name;
        m_declared.push_back(name);
        const ir::Value& value = graph.value(v);
        const std::string type = elementType(value.dtype);
        const Operand* o = find(v, operands);
        if (!o) {
            lines.push_back(fmt::format("auto {} = rt::absent<{}>({}); // {}, not read by this tile", name, type,
                                        list(value.shape), value.name));
            return name;
        }
        Ints lo, ext;
        for (const auto& interval : o->region) {
            lo.push_back(interval.begin);
            ext.push_back(interval.size());
        }
        lines.push_back(fmt::format("auto {} = rt::view<{}>({} + 0x{:x}, {}, {}, {}); // {} {}", name, type, m_scratch,
                                    o->offset, list(lo), list(ext), list(value.shape), value.name,
                                    tiling::regionToString(o->region)));
        return name;
    }

    const Compute& m_compute;
    const std::string& m_scratch;
    std::vector<std::string> m_declared;
};

using Handler = std::function<bool(Call&)>;

Handler unary(std::string fn) {
    return [fn](Call& c) {
        if (!c.requireFloat()) return false;
        c.call(fmt::format("rt::map({}, {}, {})", c.output(), c.input(0), fn));
        return true;
    };
}

Handler binary(std::string fn) {
    return [fn](Call& c) {
        if (c.op.inputs.size() != 2) return c.fail("the C++ runtime takes exactly two operands");
        if (!c.requireFloat()) return false;
        c.call(fmt::format("rt::zip({}, {}, {}, {})", c.output(), c.input(0), c.input(1), fn));
        return true;
    };
}

// Unary ops with attributes, as function objects of strata_rt.
Handler withAttrs(std::function<std::string(const ir::Op&)> functor) {
    return [functor](Call& c) {
        if (!c.requireFloat()) return false;
        c.call(fmt::format("rt::map({}, {}, {})", c.output(), c.input(0), functor(c.op)));
        return true;
    };
}

bool clip(Call& c) {
    if (!c.requireFloat()) return false;
    double lo = -INFINITY, hi = INFINITY;
    if (c.graph.opsetVersion < 11) {
        lo = attrFloat(c.op, "min", lo);
        hi = attrFloat(c.op, "max", hi);
    } else {
        if (c.hasInput(1)) {
            auto v = c.constantScalar(1);
            if (!v) return false;
            lo = *v;
        }
        if (c.hasInput(2)) {
            auto v = c.constantScalar(2);
            if (!v) return false;
            hi = *v;
        }
    }
    c.call(fmt::format("rt::map({}, {}, rt::Clip{{{}, {}}})", c.output(), c.input(0), floatLiteral(lo),
                       floatLiteral(hi)));
    return true;
}

// "{{k0, k1}, {s0, s1}, {p0, p1}, {d0, d1}}"
std::string windowText(const tiling::SlidingWindow& w) {
    return fmt::format("rt::Window2d{{{}, {}, {}, {}}}", list(w.kernel), list(w.strides), list(w.padBegin),
                       list(w.dilations));
}

bool conv(Call& c) {
    if (!c.requireFloat()) return false;
    if (c.in(0).shape.size() != 4) return c.fail("the C++ runtime has 2-D convolutions only");
    auto w = tiling::slidingWindow(c.op, tiling::convKernel(c.op, c.in(1).shape), c.in(0).shape, c.out(0).shape);
    if (!w) return c.fail("window attributes do not fit the input rank");
    const std::string y = c.output(), x = c.input(0), k = c.input(1);
    const std::string bias = c.hasInput(2) ? "&" + c.input(2) : "nullptr";
    c.call(fmt::format("rt::conv2d({}, {}, {}, {}, {}, {})", y, x, k, bias, windowText(*w), c.op.attrInt("group", 1)));
    return true;
}

Handler pool(bool isMax) {
    return [isMax](Call& c) {
        if (!c.requireFloat() || !c.onlyFirstOutput()) return false;
        if (c.in(0).shape.size() != 4) return c.fail("the C++ runtime has 2-D pooling only");
        auto w = tiling::slidingWindow(c.op, c.op.attrInts("kernel_shape"), c.in(0).shape, c.out(0).shape);
        if (!w) return c.fail("window attributes do not fit the input rank");
        const bool countPad = !isMax && c.op.attrInt("count_include_pad", 0) != 0;
        const std::string y = c.output(), x = c.input(0);
        c.lines.push_back(fmt::format("const rt::i64 padEnd[2] = {};", list(w->padEnd)));
        c.call(fmt::format("rt::pool2d({}, {}, {}, {}, {}, padEnd)", y, x, windowText(*w), isMax, countPad));
        return true;
    };
}

Handler globalPool(bool isMax) {
    return [isMax](Call& c) {
        if (!c.requireFloat()) return false;
        c.call(fmt::format("rt::globalPool({}, {}, {})", c.output(), c.input(0), isMax));
        return true;
    };
}

bool gemm(Call& c) {
    if (!c.requireFloat()) return false;
    if (c.in(0).shape.size() != 2 || c.in(1).shape.size() != 2) return c.fail("A and B must be matrices");
    const std::string y = c.output(), a = c.input(0), b = c.input(1);
    const std::string bias = c.hasInput(2) ? "&" + c.input(2) : "nullptr";
    c.call(fmt::format("rt::gemm({}, {}, {}, {}, {}, {}, {}, {})", y, a, b, bias, c.op.attrInt("transA", 0) != 0,
                       c.op.attrInt("transB", 0) != 0, floatLiteral(attrFloat(c.op, "alpha", 1.0)),
                       floatLiteral(attrFloat(c.op, "beta", 1.0))));
    return true;
}

bool matmul(Call& c) {
    if (!c.requireFloat()) return false;
    if (c.in(0).shape.size() < 2 || c.in(1).shape.size() < 2)
        return c.fail("the C++ runtime needs operands of rank 2 or more");
    c.call(fmt::format("rt::matmul({}, {}, {})", c.output(), c.input(0), c.input(1)));
    return true;
}

bool batchNorm(Call& c) {
    if (!c.requireFloat() || !c.onlyFirstOutput()) return false;
    if (c.op.attrInt("training_mode", 0) != 0) return c.fail("training mode is not supported");
    if (c.rank() < 2) return c.fail("input needs a channel dimension");
    const std::string y = c.output(), x = c.input(0), s = c.input(1), b = c.input(2), m = c.input(3), v = c.input(4);
    c.call(fmt::format("rt::batchNorm({}, {}, {}, {}, {}, {}, {})", y, x, s, b, m, v,
                       floatLiteral(attrFloat(c.op, "epsilon", 1e-5))));
    return true;
}

bool layerNorm(Call& c) {
    if (!c.requireFloat() || !c.onlyFirstOutput()) return false;
    auto axis = axisOf(c.op.attrInt("axis", -1), c.rank());
    if (!axis) return c.fail("axis out of range");
    const std::string y = c.output(), x = c.input(0), s = c.input(1);
    const std::string bias = c.hasInput(2) ? "&" + c.input(2) : "nullptr";
    c.call(fmt::format("rt::layerNorm({}, {}, {}, {}, {}, {})", y, x, s, bias, *axis,
                       floatLiteral(attrFloat(c.op, "epsilon", 1e-5))));
    return true;
}

bool softmax(Call& c) {
    if (!c.requireFloat()) return false;
    const bool perAxis = c.graph.opsetVersion >= 13;
    auto axis = axisOf(c.op.attrInt("axis", perAxis ? -1 : 1), c.rank());
    if (!axis) return c.fail("axis out of range");
    // Before opset 13 softmax normalises over all dims from `axis` on; that is one axis only
    // when it is the last.
    if (!perAxis && *axis + 1 != c.rank()) return c.fail("opset < 13 softmax over several dims is not supported");
    c.call(fmt::format("rt::softmax({}, {}, {})", c.output(), c.input(0), *axis));
    return true;
}

Handler reduce(std::string kind, std::int64_t axesBecameInputAt) {
    return [kind, axesBecameInputAt](Call& c) {
        if (!c.requireFloat()) return false;
        Ints axes;
        if (c.graph.opsetVersion < axesBecameInputAt) {
            axes = c.op.attrInts("axes");
        } else if (c.hasInput(1)) {
            auto v = c.constantInts(1);
            if (!v) return false;
            axes = *v;
        }
        const std::size_t rank = c.in(0).shape.size();
        if (rank > 31) return c.fail("rank above 31");
        unsigned mask = 0;
        if (axes.empty()) {
            if (c.op.attrInt("noop_with_empty_axes", 0) != 0) return c.fail("noop_with_empty_axes is not supported");
            mask = (1u << rank) - 1;
        }
        for (std::int64_t a : axes) {
            auto axis = axisOf(a, rank);
            if (!axis) return c.fail("axis out of range");
            mask |= 1u << *axis;
        }
        c.call(fmt::format("rt::reduce({}, {}, 0x{:x}u, {}, rt::Reduce::{})", c.output(), c.input(0), mask,
                           c.op.attrInt("keepdims", 1) != 0, kind));
        return true;
    };
}

bool sameElements(Call& c) {
    if (c.in(0).dtype != c.out(0).dtype) return c.fail("input and output types differ");
    c.call(fmt::format("rt::reshape({}, {})", c.output(), c.input(0)));
    return true;
}

bool transpose(Call& c) {
    Ints perm = c.op.attrInts("perm");
    if (perm.empty())
        for (std::size_t d = c.rank(); d-- > 0;) perm.push_back(static_cast<std::int64_t>(d));
    if (perm.size() != c.rank()) return c.fail("perm does not match the rank");
    c.call(fmt::format("rt::transpose({}, {}, {})", c.output(), c.input(0), list(perm)));
    return true;
}

bool concat(Call& c) {
    auto axis = axisOf(c.op.attrInt("axis", 0), c.rank());
    if (!axis) return c.fail("axis out of range");
    std::vector<std::string> inputs;
    for (std::size_t i = 0; i < c.op.inputs.size(); ++i) {
        if (!c.hasInput(i) || c.in(i).dtype != c.out(0).dtype) return c.fail("inputs must be present and of one type");
        inputs.push_back(c.input(i));
    }
    c.call(fmt::format("rt::concat({}, {{{}}}, {})", c.output(), fmt::join(inputs, ", "), *axis));
    return true;
}

bool slice(Call& c) {
    const ir::Shape& shape = c.in(0).shape;
    Ints starts, axes, steps;
    if (c.graph.opsetVersion < 10) {
        starts = c.op.attrInts("starts");
        axes = c.op.attrInts("axes");
    } else {
        auto s = c.constantInts(1);
        if (!s) return false;
        starts = *s;
        if (c.hasInput(3)) {
            auto a = c.constantInts(3);
            if (!a) return false;
            axes = *a;
        }
        if (c.hasInput(4)) {
            auto st = c.constantInts(4);
            if (!st) return false;
            steps = *st;
        }
    }
    if (axes.empty())
        for (std::size_t d = 0; d < starts.size(); ++d) axes.push_back(static_cast<std::int64_t>(d));
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (axes.size() != starts.size() || steps.size() != starts.size()) return c.fail("starts, axes and steps differ in length");
    Ints first(shape.size(), 0), step(shape.size(), 1);
    for (std::size_t i = 0; i < axes.size(); ++i) {
        auto axis = axisOf(axes[i], shape.size());
        if (!axis || steps[i] == 0) return c.fail("bad axis or zero step");
        const std::int64_t dim = shape[*axis];
        std::int64_t s = starts[i] < 0 ? starts[i] + dim : starts[i];
        s = steps[i] > 0 ? std::clamp<std::int64_t>(s, 0, dim) : std::clamp<std::int64_t>(s, 0, dim - 1);
        first[*axis] = s;
        step[*axis] = steps[i];
    }
    c.call(fmt::format("rt::slice({}, {}, {}, {})", c.output(), c.input(0), list(first), list(step)));
    return true;
}

bool pad(Call& c) {
    if (attrText(c.op, "mode", "constant") != "constant") return c.fail("only constant padding is supported");
    if (c.hasInput(3)) return c.fail("the axes input is not supported");
    Ints pads;
    double value = 0;
    if (c.graph.opsetVersion < 11) {
        pads = c.op.attrInts("pads");
        value = attrFloat(c.op, "value", 0.0);
    } else {
        auto p = c.constantInts(1);
        if (!p) return false;
        pads = *p;
        if (c.hasInput(2)) {
            auto v = c.constantScalar(2);
            if (!v) return false;
            value = *v;
        }
    }
    if (pads.size() != 2 * c.rank()) return c.fail("pads do not match the rank");
    if (c.out(0).dtype != ir::DType::Float32) return c.fail("the C++ runtime pads float32 tensors only");
    pads.resize(c.rank());
    c.call(fmt::format("rt::pad({}, {}, {}, {})", c.output(), c.input(0), list(pads), floatLiteral(value)));
    return true;
}

const std::map<std::string, Handler>& handlers() {
    static const std::map<std::string, Handler> table = {
        {"Relu", unary("rt::relu")},          {"Sigmoid", unary("rt::sigmoid")},
        {"Tanh", unary("rt::tanh_")},         {"Exp", unary("rt::exp_")},
        {"Log", unary("rt::log_")},           {"Sqrt", unary("rt::sqrt_")},
        {"Erf", unary("rt::erf_")},           {"Neg", unary("rt::neg")},
        {"Abs", unary("rt::abs_")},           {"Reciprocal", unary("rt::reciprocal")},
        {"Floor", unary("rt::floor_")},       {"Ceil", unary("rt::ceil_")},
        {"Sin", unary("rt::sin_")},           {"Cos", unary("rt::cos_")},
        {"Softplus", unary("rt::softplus")},  {"HardSwish", unary("rt::hardSwish")},
        {"Add", binary("rt::add")},           {"Sub", binary("rt::sub")},
        {"Mul", binary("rt::mul")},           {"Div", binary("rt::div")},
        {"Pow", binary("rt::pow_")},          {"Max", binary("rt::max_")},
        {"Min", binary("rt::min_")},          {"PRelu", binary("rt::prelu")},
        {"Clip", clip},
        {"LeakyRelu", withAttrs([](const ir::Op& op) {
             return fmt::format("rt::LeakyRelu{{{}}}", floatLiteral(attrFloat(op, "alpha", 0.01)));
         })},
        {"Elu", withAttrs([](const ir::Op& op) {
             return fmt::format("rt::Elu{{{}}}", floatLiteral(attrFloat(op, "alpha", 1.0)));
         })},
        {"HardSigmoid", withAttrs([](const ir::Op& op) {
             return fmt::format("rt::HardSigmoid{{{}, {}}}", floatLiteral(attrFloat(op, "alpha", 0.2)),
                                floatLiteral(attrFloat(op, "beta", 0.5)));
         })},
        {"Conv", conv},
        {"MaxPool", pool(true)},              {"AveragePool", pool(false)},
        {"GlobalMaxPool", globalPool(true)},  {"GlobalAveragePool", globalPool(false)},
        {"Gemm", gemm},                       {"MatMul", matmul},
        {"BatchNormalization", batchNorm},    {"LayerNormalization", layerNorm},
        {"Softmax", softmax},
        {"ReduceSum", reduce("Sum", 13)},     {"ReduceMean", reduce("Mean", 18)},
        {"ReduceMax", reduce("Max", 18)},     {"ReduceMin", reduce("Min", 18)},
        {"Reshape", sameElements},            {"Flatten", sameElements},
        {"Squeeze", sameElements},            {"Unsqueeze", sameElements},
        {"Identity", sameElements},
        {"Transpose", transpose},             {"Concat", concat},
        {"Slice", slice},                     {"Pad", pad},
    };
    return table;
}

} // namespace

std::string elementType(ir::DType dtype) {
    switch (dtype) {
    case ir::DType::Float32: return "float";
    case ir::DType::Float64: return "double";
    case ir::DType::Int64: return "std::int64_t";
    case ir::DType::Int32: return "std::int32_t";
    case ir::DType::Int16: return "std::int16_t";
    case ir::DType::Int8: return "std::int8_t";
    case ir::DType::UInt64: return "std::uint64_t";
    case ir::DType::UInt32: return "std::uint32_t";
    case ir::DType::UInt16: return "std::uint16_t";
    case ir::DType::UInt8:
    case ir::DType::Bool: return "std::uint8_t";
    default: return {};
    }
}

Expected<std::vector<std::string>> computeStatements(const ir::Graph& graph, const ir::Op& op, const Compute& compute,
                                                     const std::string& scratch) {
    auto found = handlers().find(op.domain.empty() ? op.type : std::string());
    if (found == handlers().end())
        return error(fmt::format("C++ emitter: {} '{}' has no kernel in the C++ runtime", op.type, op.name),
                     Location{.node = op.name});
    for (ir::ValueId v : op.inputs)
        if (v.valid() && elementType(graph.value(v).dtype).empty())
            return error(fmt::format("C++ emitter: {} '{}' reads {} '{}', which the C++ runtime has no type for", op.type,
                                     op.name, ir::dtypeName(graph.value(v).dtype), graph.value(v).name),
                         Location{.node = op.name});
    Call call(graph, op, compute, scratch);
    if (!found->second(call)) return error("C++ emitter: " + call.error, Location{.node = op.name});
    return std::move(call.lines);
}

const std::vector<std::string>& supportedOpTypes() {
    static const std::vector<std::string> types = [] {
        std::vector<std::string> out;
        for (const auto& [type, handler] : handlers()) out.push_back(type);
        return out;
    }();
    return types;
}

} // namespace strata::compiler::cpp

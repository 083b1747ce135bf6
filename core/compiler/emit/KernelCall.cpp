#include "compiler/emit/KernelCall.h"

#include "compiler/EpilogueRule.h"

#include "ir/ConstantValues.h"
#include "reference/Evaluator.h"
#include "tiling/Window.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <optional>
#include <variant>

namespace strata::compiler {
namespace {

using Ints = std::vector<std::int64_t>;

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

const Operand* findOperand(ir::ValueId v, const std::vector<Operand>& operands) {
    for (const Operand& o : operands)
        if (o.value == v) return &o;
    return nullptr;
}

KernelView viewOf(const ir::Graph& graph, ir::ValueId v, const std::vector<Operand>& operands) {
    KernelView view;
    view.value = v;
    if (!v.valid()) return view;
    const ir::Value& value = graph.value(v);
    view.dtype = value.dtype;
    view.full = value.shape;
    if (const Operand* o = findOperand(v, operands)) {
        view.present = true;
        view.offset = o->offset;
        for (const auto& interval : o->region) {
            view.lo.push_back(interval.begin);
            view.ext.push_back(interval.size());
        }
    }
    return view;
}

// One compute being lowered.
class Lowering {
  public:
    Lowering(const ir::Graph& g, const ir::Op& op, const Compute& c) : graph(g), op(op), m_compute(c) {
        for (ir::ValueId v : op.inputs) call.inputs.push_back(viewOf(g, v, c.inputs));
        for (ir::ValueId v : op.outputs) call.outputs.push_back(viewOf(g, v, c.outputs));
    }

    const ir::Graph& graph;
    const ir::Op& op;
    KernelCall call;
    std::string error;

    bool hasInput(std::size_t i) const { return i < op.inputs.size() && op.inputs[i].valid(); }
    const ir::Value& in(std::size_t i) const { return graph.value(op.inputs[i]); }
    const ir::Value& out(std::size_t i) const { return graph.value(op.outputs[i]); }
    std::size_t rank() const { return out(0).shape.size(); }

    // Whether the compute writes output `i` (an optional output nobody reads is not computed).
    bool writes(std::size_t i) const {
        return i < op.outputs.size() && op.outputs[i].valid() && findOperand(op.outputs[i], m_compute.outputs);
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
    // Operands the kernel reads, beyond the first `count`, are not passed (e.g. Clip's bounds).
    void keepInputs(std::size_t count) {
        if (call.inputs.size() > count) call.inputs.resize(count);
    }

  private:
    const Compute& m_compute;
};

using Handler = std::function<bool(Lowering&)>;

Handler unary(ScalarFn fn) {
    return [fn](Lowering& l) {
        if (!l.requireFloat()) return false;
        l.call.kernel = Kernel::Map;
        l.call.fn = fn;
        l.keepInputs(1);
        return true;
    };
}

Handler binary(ScalarFn fn) {
    return [fn](Lowering& l) {
        if (l.op.inputs.size() != 2) return l.fail("the C++ runtime takes exactly two operands");
        if (!l.requireFloat()) return false;
        l.call.kernel = Kernel::Zip;
        l.call.fn = fn;
        return true;
    };
}

// Unary ops whose function takes attributes (defaults as ONNX's).
Handler withParams(ScalarFn fn, std::vector<std::pair<const char*, double>> attrs) {
    return [fn, attrs](Lowering& l) {
        if (!l.requireFloat()) return false;
        l.call.kernel = Kernel::Map;
        l.call.fn = fn;
        for (const auto& [name, fallback] : attrs) l.call.params.push_back(static_cast<float>(attrFloat(l.op, name, fallback)));
        l.keepInputs(1);
        return true;
    };
}

bool clip(Lowering& l) {
    if (!l.requireFloat()) return false;
    double lo = -INFINITY, hi = INFINITY;
    if (l.graph.opsetVersion < 11) {
        lo = attrFloat(l.op, "min", lo);
        hi = attrFloat(l.op, "max", hi);
    } else {
        if (l.hasInput(1)) {
            auto v = l.constantScalar(1);
            if (!v) return false;
            lo = *v;
        }
        if (l.hasInput(2)) {
            auto v = l.constantScalar(2);
            if (!v) return false;
            hi = *v;
        }
    }
    l.call.kernel = Kernel::Map;
    l.call.fn = ScalarFn::Clip;
    l.call.params = {static_cast<float>(lo), static_cast<float>(hi)};
    l.keepInputs(1);
    return true;
}

void setWindow(KernelCall& call, const tiling::SlidingWindow& w) {
    for (std::size_t d = 0; d < 2; ++d) {
        call.window[d] = w.kernel[d];
        call.window[2 + d] = w.strides[d];
        call.window[4 + d] = w.padBegin[d];
        call.window[6 + d] = w.dilations[d];
    }
}

bool conv(Lowering& l) {
    if (!l.requireFloat()) return false;
    if (l.in(0).shape.size() != 4) return l.fail("the C++ runtime has 2-D convolutions only");
    auto w = tiling::slidingWindow(l.op, tiling::convKernel(l.op, l.in(1).shape), l.in(0).shape, l.out(0).shape);
    if (!w) return l.fail("window attributes do not fit the input rank");
    l.call.kernel = Kernel::Conv2d;
    setWindow(l.call, *w);
    l.call.group = l.op.attrInt("group", 1);
    if (l.call.group < 1) return l.fail("group must be positive");
    // Later input-channel slices leave the bias to the first.
    if (l.hasInput(2) && !l.call.inputs[2].present)
        l.call.inputs[2] = KernelView{};
    if (l.call.accumulate && l.call.group != 1)
        return l.fail("only convolutions of group 1 are computed in input-channel slices");
    return true;
}

Handler pool(bool isMax) {
    return [isMax](Lowering& l) {
        if (!l.requireFloat() || !l.onlyFirstOutput()) return false;
        if (l.in(0).shape.size() != 4) return l.fail("the C++ runtime has 2-D pooling only");
        auto w = tiling::slidingWindow(l.op, l.op.attrInts("kernel_shape"), l.in(0).shape, l.out(0).shape);
        if (!w) return l.fail("window attributes do not fit the input rank");
        l.call.kernel = Kernel::Pool2d;
        setWindow(l.call, *w);
        l.call.isMax = isMax;
        l.call.countPad = !isMax && l.op.attrInt("count_include_pad", 0) != 0;
        l.call.ints = w->padEnd;
        return true;
    };
}

Handler globalPool(bool isMax) {
    return [isMax](Lowering& l) {
        if (!l.requireFloat()) return false;
        l.call.kernel = Kernel::GlobalPool;
        l.call.isMax = isMax;
        return true;
    };
}

bool gemm(Lowering& l) {
    if (!l.requireFloat()) return false;
    if (l.in(0).shape.size() != 2 || l.in(1).shape.size() != 2) return l.fail("A and B must be matrices");
    l.call.kernel = Kernel::Gemm;
    l.call.transA = l.op.attrInt("transA", 0) != 0;
    l.call.transB = l.op.attrInt("transB", 0) != 0;
    l.call.params = {static_cast<float>(attrFloat(l.op, "alpha", 1.0)), static_cast<float>(attrFloat(l.op, "beta", 1.0))};
    return true;
}

bool matmul(Lowering& l) {
    if (!l.requireFloat()) return false;
    if (l.in(0).shape.size() < 2 || l.in(1).shape.size() < 2)
        return l.fail("the C++ runtime needs operands of rank 2 or more");
    l.call.kernel = Kernel::MatMul;
    return true;
}

bool batchNorm(Lowering& l) {
    if (!l.requireFloat() || !l.onlyFirstOutput()) return false;
    if (l.op.attrInt("training_mode", 0) != 0) return l.fail("training mode is not supported");
    if (l.rank() < 2) return l.fail("input needs a channel dimension");
    if (l.op.inputs.size() != 5) return l.fail("needs scale, bias, mean and variance");
    l.call.kernel = Kernel::BatchNorm;
    l.call.params = {static_cast<float>(attrFloat(l.op, "epsilon", 1e-5))};
    return true;
}

bool layerNorm(Lowering& l) {
    if (!l.requireFloat() || !l.onlyFirstOutput()) return false;
    auto axis = axisOf(l.op.attrInt("axis", -1), l.rank());
    if (!axis) return l.fail("axis out of range");
    l.call.kernel = Kernel::LayerNorm;
    l.call.axis = static_cast<int>(*axis);
    l.call.params = {static_cast<float>(attrFloat(l.op, "epsilon", 1e-5))};
    return true;
}

bool softmax(Lowering& l) {
    if (!l.requireFloat()) return false;
    const bool perAxis = l.graph.opsetVersion >= 13;
    auto axis = axisOf(l.op.attrInt("axis", perAxis ? -1 : 1), l.rank());
    if (!axis) return l.fail("axis out of range");
    // Before opset 13 softmax normalises over all dims from `axis` on; that is one axis only
    // when it is the last.
    if (!perAxis && *axis + 1 != l.rank()) return l.fail("opset < 13 softmax over several dims is not supported");
    l.call.kernel = Kernel::Softmax;
    l.call.axis = static_cast<int>(*axis);
    return true;
}

Handler reduce(ReduceKind kind, std::int64_t axesBecameInputAt) {
    return [kind, axesBecameInputAt](Lowering& l) {
        if (!l.requireFloat()) return false;
        Ints axes;
        if (l.graph.opsetVersion < axesBecameInputAt) {
            axes = l.op.attrInts("axes");
        } else if (l.hasInput(1)) {
            auto v = l.constantInts(1);
            if (!v) return false;
            axes = *v;
        }
        const std::size_t rank = l.in(0).shape.size();
        if (rank > 31) return l.fail("rank above 31");
        unsigned mask = 0;
        if (axes.empty()) {
            if (l.op.attrInt("noop_with_empty_axes", 0) != 0) return l.fail("noop_with_empty_axes is not supported");
            mask = (1u << rank) - 1;
        }
        for (std::int64_t a : axes) {
            auto axis = axisOf(a, rank);
            if (!axis) return l.fail("axis out of range");
            mask |= 1u << *axis;
        }
        l.call.kernel = Kernel::Reduce;
        l.call.reduce = kind;
        l.call.axesMask = mask;
        l.call.keepDims = l.op.attrInt("keepdims", 1) != 0;
        l.keepInputs(1);
        return true;
    };
}

bool sameElements(Lowering& l) {
    if (l.in(0).dtype != l.out(0).dtype) return l.fail("input and output types differ");
    l.call.kernel = Kernel::Reshape;
    l.keepInputs(1);
    return true;
}

bool transpose(Lowering& l) {
    Ints perm = l.op.attrInts("perm");
    if (perm.empty())
        for (std::size_t d = l.rank(); d-- > 0;) perm.push_back(static_cast<std::int64_t>(d));
    if (perm.size() != l.rank()) return l.fail("perm does not match the rank");
    for (std::int64_t p : perm)
        if (p < 0 || p >= static_cast<std::int64_t>(l.rank())) return l.fail("perm names a dim out of range");
    l.call.kernel = Kernel::Transpose;
    l.call.ints = perm;
    return true;
}

bool concat(Lowering& l) {
    auto axis = axisOf(l.op.attrInt("axis", 0), l.rank());
    if (!axis) return l.fail("axis out of range");
    for (std::size_t i = 0; i < l.op.inputs.size(); ++i)
        if (!l.hasInput(i) || l.in(i).dtype != l.out(0).dtype) return l.fail("inputs must be present and of one type");
    l.call.kernel = Kernel::Concat;
    l.call.axis = static_cast<int>(*axis);
    return true;
}

bool slice(Lowering& l) {
    const ir::Shape& shape = l.in(0).shape;
    Ints starts, axes, steps;
    if (l.graph.opsetVersion < 10) {
        starts = l.op.attrInts("starts");
        axes = l.op.attrInts("axes");
    } else {
        auto s = l.constantInts(1);
        if (!s) return false;
        starts = *s;
        if (l.hasInput(3)) {
            auto a = l.constantInts(3);
            if (!a) return false;
            axes = *a;
        }
        if (l.hasInput(4)) {
            auto st = l.constantInts(4);
            if (!st) return false;
            steps = *st;
        }
    }
    if (axes.empty())
        for (std::size_t d = 0; d < starts.size(); ++d) axes.push_back(static_cast<std::int64_t>(d));
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (axes.size() != starts.size() || steps.size() != starts.size())
        return l.fail("starts, axes and steps differ in length");
    Ints first(shape.size(), 0), step(shape.size(), 1);
    for (std::size_t i = 0; i < axes.size(); ++i) {
        auto axis = axisOf(axes[i], shape.size());
        if (!axis || steps[i] == 0) return l.fail("bad axis or zero step");
        const std::int64_t dim = shape[*axis];
        std::int64_t s = starts[i] < 0 ? starts[i] + dim : starts[i];
        s = steps[i] > 0 ? std::clamp<std::int64_t>(s, 0, dim) : std::clamp<std::int64_t>(s, 0, dim - 1);
        first[*axis] = s;
        step[*axis] = steps[i];
    }
    l.call.kernel = Kernel::Slice;
    l.call.ints = first;
    l.call.ints.insert(l.call.ints.end(), step.begin(), step.end());
    l.keepInputs(1);
    return true;
}

bool gather(Lowering& l) {
    if (!l.hasInput(0) || !l.hasInput(1)) return l.fail("needs data and indices");
    const ir::DType indices = l.in(1).dtype;
    if (indices != ir::DType::Int64 && indices != ir::DType::Int32) return l.fail("indices must be int32 or int64");
    if (l.in(0).dtype != l.out(0).dtype) return l.fail("input and output types differ");
    auto axis = axisOf(l.op.attrInt("axis", 0), l.in(0).shape.size());
    if (!axis) return l.fail("axis out of range");
    l.call.kernel = Kernel::Gather;
    l.call.axis = static_cast<int>(*axis);
    return true;
}

// Expand of a float32 tensor: a Map of the identity, which broadcasts its input to the output.
bool expand(Lowering& l) {
    if (!l.requireFloat())
        return false;
    if (l.hasInput(1) && !l.in(1).isConstant)
        return l.fail("the shape must be a constant");
    l.call.kernel = Kernel::Map;
    l.call.fn = ScalarFn::Identity;
    l.keepInputs(1);
    return true;
}

bool where(Lowering& l) {
    if (l.op.inputs.size() != 3 || !l.hasInput(0) || !l.hasInput(1) || !l.hasInput(2))
        return l.fail("needs a condition and two operands");
    if (l.in(0).dtype != ir::DType::Bool)
        return l.fail("the condition must be bool");
    if (l.in(1).dtype != l.out(0).dtype || l.in(2).dtype != l.out(0).dtype)
        return l.fail("operand types differ");
    l.call.kernel = Kernel::Where;
    return true;
}

// Split moves elements only (any dtype). Each output's offset along the axis follows from the
// static output shapes, whichever way the op states its parts (input, attribute, equal parts).
bool split(Lowering& l) {
    auto axis = axisOf(l.op.attrInt("axis", 0), l.in(0).shape.size());
    if (!axis)
        return l.fail("axis out of range");
    std::int64_t offset = 0;
    for (std::size_t k = 0; k < l.op.outputs.size(); ++k) {
        if (!l.op.outputs[k].valid() || l.out(k).shape.size() != l.in(0).shape.size() ||
            l.out(k).dtype != l.in(0).dtype)
            return l.fail("every output must be present, of the input's rank and type");
        l.call.ints.push_back(offset);
        offset += l.out(k).shape[*axis];
    }
    if (offset != l.in(0).shape[*axis])
        return l.fail("the parts do not add up to the input");
    l.call.kernel = Kernel::Split;
    l.call.axis = static_cast<int>(*axis);
    l.keepInputs(1);
    return true;
}

// Resize with constant scales or sizes; the host runtime plans its taps from the op itself.
bool resize(Lowering& l) {
    if (!l.requireFloat())
        return false;
    if (l.graph.opsetVersion < 11)
        return l.fail("Resize before opset 11 has no fast kernel");
    const std::string mode = attrText(l.op, "mode", "nearest");
    if (mode != "nearest" && mode != "linear" && mode != "cubic")
        return l.fail("mode '" + mode + "' has no fast kernel");
    if (attrText(l.op, "coordinate_transformation_mode", "half_pixel") == "tf_crop_and_resize")
        return l.fail("tf_crop_and_resize has no fast kernel");
    for (const char* name : {"antialias", "axes", "keep_aspect_ratio_policy"})
        if (l.op.attribute(name))
            return l.fail(fmt::format("attribute {} has no fast kernel", name));
    for (std::size_t i = 1; i < l.op.inputs.size(); ++i)
        if (l.hasInput(i) && !l.in(i).isConstant)
            return l.fail("roi, scales and sizes must be constants");
    if (l.in(0).shape.size() != l.rank() || l.rank() == 0)
        return l.fail("input and output ranks differ");
    l.call.kernel = Kernel::Resize;
    l.keepInputs(1);
    return true;
}

bool pad(Lowering& l) {
    if (attrText(l.op, "mode", "constant") != "constant") return l.fail("only constant padding is supported");
    if (l.hasInput(3)) return l.fail("the axes input is not supported");
    Ints pads;
    double value = 0;
    if (l.graph.opsetVersion < 11) {
        pads = l.op.attrInts("pads");
        value = attrFloat(l.op, "value", 0.0);
    } else {
        auto p = l.constantInts(1);
        if (!p) return false;
        pads = *p;
        if (l.hasInput(2)) {
            auto v = l.constantScalar(2);
            if (!v) return false;
            value = *v;
        }
    }
    if (pads.size() != 2 * l.rank()) return l.fail("pads do not match the rank");
    if (l.out(0).dtype != ir::DType::Float32) return l.fail("the C++ runtime pads float32 tensors only");
    pads.resize(l.rank());
    l.call.kernel = Kernel::Pad;
    l.call.ints = pads;
    l.call.params = {static_cast<float>(value)};
    l.keepInputs(1);
    return true;
}

const std::map<std::string, Handler>& handlers() {
    static const std::map<std::string, Handler> table = {
        {"Relu", unary(ScalarFn::Relu)},
        {"Sigmoid", unary(ScalarFn::Sigmoid)},
        {"Tanh", unary(ScalarFn::Tanh)},
        {"Exp", unary(ScalarFn::Exp)},
        {"Log", unary(ScalarFn::Log)},
        {"Sqrt", unary(ScalarFn::Sqrt)},
        {"Erf", unary(ScalarFn::Erf)},
        {"Neg", unary(ScalarFn::Neg)},
        {"Abs", unary(ScalarFn::Abs)},
        {"Reciprocal", unary(ScalarFn::Reciprocal)},
        {"Floor", unary(ScalarFn::Floor)},
        {"Ceil", unary(ScalarFn::Ceil)},
        {"Sin", unary(ScalarFn::Sin)},
        {"Cos", unary(ScalarFn::Cos)},
        {"Softplus", unary(ScalarFn::Softplus)},
        {"HardSwish", unary(ScalarFn::HardSwish)},
        {"Add", binary(ScalarFn::Add)},
        {"Sub", binary(ScalarFn::Sub)},
        {"Mul", binary(ScalarFn::Mul)},
        {"Div", binary(ScalarFn::Div)},
        {"Pow", binary(ScalarFn::Pow)},
        {"Max", binary(ScalarFn::Max)},
        {"Min", binary(ScalarFn::Min)},
        {"PRelu", binary(ScalarFn::PRelu)},
        {"Clip", clip},
        {"LeakyRelu", withParams(ScalarFn::LeakyRelu, {{"alpha", 0.01}})},
        {"Elu", withParams(ScalarFn::Elu, {{"alpha", 1.0}})},
        {"HardSigmoid", withParams(ScalarFn::HardSigmoid, {{"alpha", 0.2}, {"beta", 0.5}})},
        {"Conv", conv},
        {"MaxPool", pool(true)},
        {"AveragePool", pool(false)},
        {"GlobalMaxPool", globalPool(true)},
        {"GlobalAveragePool", globalPool(false)},
        {"Gemm", gemm},
        {"MatMul", matmul},
        {"BatchNormalization", batchNorm},
        {"LayerNormalization", layerNorm},
        {"Softmax", softmax},
        {"ReduceSum", reduce(ReduceKind::Sum, 13)},
        {"ReduceMean", reduce(ReduceKind::Mean, 18)},
        {"ReduceMax", reduce(ReduceKind::Max, 18)},
        {"ReduceMin", reduce(ReduceKind::Min, 18)},
        {"Reshape", sameElements},
        {"Flatten", sameElements},
        {"Squeeze", sameElements},
        {"Unsqueeze", sameElements},
        {"Identity", sameElements},
        {"Transpose", transpose},
        {"Concat", concat},
        {"Slice", slice},
        {"Pad", pad},
        {"Gather", gather},
        {"Split", split},
        {"Resize", resize},
        {"Where", where},
        {"Expand", expand},
    };
    return table;
}

} // namespace

const char* scalarFnName(ScalarFn fn) {
    switch (fn) {
    case ScalarFn::None: return "";
    case ScalarFn::Relu: return "relu";
    case ScalarFn::Sigmoid: return "sigmoid";
    case ScalarFn::Tanh: return "tanh_";
    case ScalarFn::Exp: return "exp_";
    case ScalarFn::Log: return "log_";
    case ScalarFn::Sqrt: return "sqrt_";
    case ScalarFn::Erf: return "erf_";
    case ScalarFn::Neg: return "neg";
    case ScalarFn::Abs: return "abs_";
    case ScalarFn::Reciprocal: return "reciprocal";
    case ScalarFn::Floor: return "floor_";
    case ScalarFn::Ceil: return "ceil_";
    case ScalarFn::Sin: return "sin_";
    case ScalarFn::Cos: return "cos_";
    case ScalarFn::Softplus: return "softplus";
    case ScalarFn::HardSwish: return "hardSwish";
    case ScalarFn::Silu:
        return "silu";
    case ScalarFn::Identity:
        return "identity";
    case ScalarFn::Clip: return "Clip";
    case ScalarFn::LeakyRelu: return "LeakyRelu";
    case ScalarFn::Elu: return "Elu";
    case ScalarFn::HardSigmoid: return "HardSigmoid";
    case ScalarFn::Add: return "add";
    case ScalarFn::Sub: return "sub";
    case ScalarFn::Mul: return "mul";
    case ScalarFn::Div: return "div";
    case ScalarFn::Pow: return "pow_";
    case ScalarFn::Max: return "max_";
    case ScalarFn::Min: return "min_";
    case ScalarFn::PRelu: return "prelu";
    }
    return "";
}

const char* reduceKindName(ReduceKind kind) {
    switch (kind) {
    case ReduceKind::Sum: return "Sum";
    case ReduceKind::Mean: return "Mean";
    case ReduceKind::Max: return "Max";
    case ReduceKind::Min: return "Min";
    }
    return "";
}

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

namespace {

// strata_rt's kernel for this use of the op, or why there is none.
Expected<KernelCall> lowerFast(const ir::Graph& graph, const ir::Op& op, const Compute& compute) {
    auto found = handlers().find(op.domain.empty() ? op.type : std::string());
    if (found == handlers().end())
        return error(fmt::format("{} '{}' has no kernel in the C++ runtime", op.type, op.name), Location{.node = op.name});
    for (ir::ValueId v : op.inputs)
        if (v.valid() && elementType(graph.value(v).dtype).empty())
            return error(fmt::format("{} '{}' reads {} '{}', which the C++ runtime has no type for", op.type, op.name,
                                     ir::dtypeName(graph.value(v).dtype), graph.value(v).name),
                         Location{.node = op.name});
    Lowering lowering(graph, op, compute);
    lowering.call.accumulate = compute.accumulate;
    if (!found->second(lowering)) return error(lowering.error, Location{.node = op.name});
    if (lowering.call.kernel == Kernel::Split)
        return std::move(lowering.call); // writes every output it holds
    if (lowering.call.outputs.empty() || !lowering.call.outputs[0].present)
        return error(fmt::format("{} '{}': the compute holds no region of output 0", op.type, op.name),
                     Location{.node = op.name});
    lowering.call.outputs.resize(1); // every kernel writes output 0 only (onlyFirstOutput)
    return std::move(lowering.call);
}

// The reference evaluator computes every output box the compute writes.
Expected<KernelCall> lowerReference(const ir::Graph& graph, const ir::Op& op,
                                    const Compute& compute) {
    KernelCall call;
    call.kernel = Kernel::Reference;
    for (ir::ValueId v : op.inputs)
        call.inputs.push_back(viewOf(graph, v, compute.inputs));
    for (ir::ValueId v : op.outputs)
        call.outputs.push_back(viewOf(graph, v, compute.outputs));
    if (std::none_of(call.outputs.begin(), call.outputs.end(),
                     [](const KernelView& v) { return v.present; }))
        return error(
            fmt::format("{} '{}': the compute holds no region of any output", op.type, op.name),
            Location{.node = op.name});
    return call;
}

std::string refusalText(const ir::Op& op, const std::string& reason) {
    return fmt::format("{} '{}' cannot run on the host: {}", op.type, op.name, reason);
}

} // namespace

namespace {

// The Sigmoid of a SiLU step's x * sigmoid(x), or null.
const ir::Op* siluOf(const ir::Graph& graph, const EpilogueStep& s) {
    if (!s.input.valid() || !graph.value(s.input).producer.valid())
        return nullptr;
    const ir::Op* sigmoid = siluSigmoid(graph, graph.op(graph.value(s.input).producer));
    return sigmoid && graph.value(sigmoid->outputs[0]).consumers.front() == s.op ? sigmoid
                                                                                 : nullptr;
}

// The op's own kernel writing the final box, then each step on it in place.
Expected<KernelCall> lowerFused(const ir::Graph& graph, const ir::Op& op, const Compute& compute) {
    if (compute.outputs.size() != 1 || op.outputs.empty())
        return error(fmt::format("{} '{}': a fused epilogue needs one output", op.type, op.name),
                     Location{.node = op.name});
    const Operand& box = compute.outputs[0];
    Compute plain = compute;
    plain.epilogue.clear();
    plain.outputs[0].value = op.outputs[0];
    auto call = lowerFast(graph, op, plain);
    if (!call)
        return call;
    for (const EpilogueStep& s : compute.epilogue) {
        // SiLU (FuseEpilogues.h): its Sigmoid's Map over the box, as x * sigmoid(x).
        const ir::Op* silu = s.opType == "SiLU" ? siluOf(graph, s) : nullptr;
        if (s.opType == "SiLU" && !silu)
            return error(
                fmt::format("epilogue step '{}' is no x * sigmoid(x)", graph.op(s.op).name),
                Location{.node = graph.op(s.op).name});
        const ir::Op& stepOp = silu ? *silu : graph.op(s.op);
        Compute step;
        step.opType = s.opType;
        step.inputs.push_back({s.input, box.region, box.offset});
        step.inputs.insert(step.inputs.end(), s.others.begin(), s.others.end());
        step.outputs.push_back({stepOp.outputs.empty() ? ir::ValueId{} : stepOp.outputs[0], box.region, box.offset});
        auto lowered = lowerFast(graph, stepOp, step);
        if (!lowered)
            return lowered;
        if (lowered->kernel != Kernel::Map && lowered->kernel != Kernel::Zip)
            return error(fmt::format("{} '{}' cannot run as an epilogue: its kernel is no Map or Zip", stepOp.type,
                                     stepOp.name),
                         Location{.node = stepOp.name});
        if (silu)
            lowered->fn = ScalarFn::Silu;
        call->epilogue.push_back(std::move(*lowered));
    }
    return call;
}

// A reorder's box, in place, and its two layouts.
Expected<KernelCall> lowerReorder(const ir::Graph& graph, const Compute& compute) {
    if (compute.inputs.size() != 1 || compute.outputs.size() != 1 ||
        compute.inputs[0].value != compute.outputs[0].value || !compute.inputs[0].value.valid() ||
        graph.value(compute.inputs[0].value).dtype != ir::DType::Float32)
        return error("a Reorder rewrites one float32 box in place: one input, one output, the same value");
    KernelCall call;
    call.kernel = Kernel::Reorder;
    call.inputs.push_back(viewOf(graph, compute.inputs[0].value, compute.inputs));
    call.outputs.push_back(viewOf(graph, compute.outputs[0].value, compute.outputs));
    call.inputBlock = compute.inputs[0].channelBlock;
    call.outputBlock = compute.outputs[0].channelBlock;
    return call;
}

// The layouts (passes/ChooseLayouts.h) a kernel needs told: a convolution's x and y (its
// epilogue's boxes share y's); a global pool's x; a Zip's y, which every input of the output's
// region shares (a broadcast [N, C, 1, 1] one holds the same bytes in either layout).
Expected<KernelCall> withLayouts(Expected<KernelCall> call, const Compute& compute) {
    if (!call || compute.inputs.empty() || compute.outputs.empty())
        return call;
    if (call->kernel == Kernel::Conv2d || call->kernel == Kernel::GlobalPool) {
        call->inputBlock = compute.inputs[0].channelBlock;
        call->outputBlock = compute.outputs[0].channelBlock;
    } else if (call->kernel == Kernel::Zip) {
        call->inputBlock = call->outputBlock = compute.outputs[0].channelBlock;
    }
    return call;
}

} // namespace

Expected<KernelCall> lowerCompute(const ir::Graph& graph, const ir::Op& op,
                                  const Compute& compute) {
    if (compute.isReorder())
        return lowerReorder(graph, compute);
    if (!compute.epilogue.empty())
        return withLayouts(lowerFused(graph, op, compute), compute);
    auto fast = withLayouts(lowerFast(graph, op, compute), compute);
    if (fast)
        return fast;
    if (compute.accumulate) // the reference kernels overwrite their outputs
        return error(fmt::format("{} '{}' cannot accumulate into its output: {}", op.type, op.name,
                                 fast.diagnostics().front().message),
                     Location{.node = op.name});
    if (reference::supports(graph, op)) {
        auto call = lowerReference(graph, op, compute);
        if (call)
            call->whyReference = fast.diagnostics().front().message;
        return call;
    }
    return error(refusalText(op, reference::unsupportedReason(graph, op)),
                 Location{.node = op.name});
}

bool KernelCall::slicesChannels() const {
    if (kernel != Kernel::Conv2d || group != 1 || inputs.empty() || !inputs[0].present)
        return false;
    const KernelView& x = inputs[0];
    return x.ext.size() == 4 && x.full.size() == 4 && x.ext[1] < x.full[1];
}

std::string runtimeRefusal(const ir::Graph& graph, const ir::Op& op) {
    if (reference::supports(graph, op))
        return {};
    Compute whole;
    whole.opType = op.type;
    for (ir::ValueId v : op.inputs)
        if (v.valid())
            whole.inputs.push_back({v, tiling::fullRegion(graph.value(v).shape), 0});
    for (ir::ValueId v : op.outputs)
        if (v.valid())
            whole.outputs.push_back({v, tiling::fullRegion(graph.value(v).shape), 0});
    if (lowerFast(graph, op, whole))
        return {};
    return refusalText(op, reference::unsupportedReason(graph, op));
}

const std::vector<std::string>& kernelOpTypes() {
    static const std::vector<std::string> types = [] {
        std::vector<std::string> out;
        for (const auto& [type, handler] : handlers()) out.push_back(type);
        return out;
    }();
    return types;
}

} // namespace strata::compiler

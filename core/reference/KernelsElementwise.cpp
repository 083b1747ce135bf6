// Elementwise kernels: unary activations and math, binary arithmetic and comparisons with numpy
// broadcasting, variadic Max/Min/Sum/Mean, Where, Clip. Every output element depends on
// the input elements at the same (broadcast) position only, so a region is computed directly.

#include "reference/Kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace strata::reference::kernels {

namespace {

using Result = std::optional<std::string>;

// Which dtypes a unary op takes (its output has the input's dtype).
enum class Domain { Float, Signed, Numeric, Bool };

bool inDomain(Domain d, ir::DType t) {
    switch (d) {
    case Domain::Float:
        return isFloatType(t);
    case Domain::Signed:
        return isFloatType(t) || t == ir::DType::Int8 || t == ir::DType::Int16 ||
               t == ir::DType::Int32 || t == ir::DType::Int64;
    case Domain::Numeric:
        return isNumericType(t);
    case Domain::Bool:
        return t == ir::DType::Bool;
    }
    return false;
}

template <Domain D, class F> bool visitDomain(ir::DType t, F&& f) {
    if (!inDomain(D, t))
        return false;
    if constexpr (D == Domain::Float)
        return visitFloating(t, f);
    else if constexpr (D == Domain::Bool) {
        f(TypeTag<bool>{});
        return true;
    } else
        return visitNumeric(t, f);
}

// --- unary ops: one struct each, constructed from the op's attributes ---

struct Relu {
    static constexpr Domain domain = Domain::Signed;
    explicit Relu(const ir::Op&) {}
    template <class C> C operator()(C x) const { return x > C(0) ? x : C(0); }
};
struct LeakyRelu {
    static constexpr Domain domain = Domain::Float;
    double alpha;
    explicit LeakyRelu(const ir::Op& op) : alpha(attrFloat(op, "alpha", 0.01)) {}
    template <class C> C operator()(C x) const { return x >= C(0) ? x : C(alpha) * x; }
};
struct Elu {
    static constexpr Domain domain = Domain::Float;
    double alpha;
    explicit Elu(const ir::Op& op) : alpha(attrFloat(op, "alpha", 1.0)) {}
    template <class C> C operator()(C x) const {
        return x >= C(0) ? x : C(alpha) * (std::exp(x) - C(1));
    }
};
struct Celu {
    static constexpr Domain domain = Domain::Float;
    double alpha;
    explicit Celu(const ir::Op& op) : alpha(attrFloat(op, "alpha", 1.0)) {}
    template <class C> C operator()(C x) const {
        const C a = C(alpha);
        return std::max(C(0), x) + std::min(C(0), a * (std::exp(x / a) - C(1)));
    }
};
struct Selu {
    static constexpr Domain domain = Domain::Float;
    double alpha, gamma;
    explicit Selu(const ir::Op& op)
        : alpha(attrFloat(op, "alpha", 1.67326319217681884765625)),
          gamma(attrFloat(op, "gamma", 1.05070102214813232421875)) {}
    template <class C> C operator()(C x) const {
        return x > C(0) ? C(gamma) * x : C(gamma) * (C(alpha) * std::exp(x) - C(alpha));
    }
};
struct ThresholdedRelu {
    static constexpr Domain domain = Domain::Float;
    double alpha;
    explicit ThresholdedRelu(const ir::Op& op) : alpha(attrFloat(op, "alpha", 1.0)) {}
    template <class C> C operator()(C x) const { return x > C(alpha) ? x : C(0); }
};
struct Sigmoid {
    static constexpr Domain domain = Domain::Float;
    explicit Sigmoid(const ir::Op&) {}
    template <class C> C operator()(C x) const {
        // Two forms so that neither exp() overflows.
        if (x >= C(0))
            return C(1) / (C(1) + std::exp(-x));
        const C e = std::exp(x);
        return e / (C(1) + e);
    }
};
struct HardSigmoid {
    static constexpr Domain domain = Domain::Float;
    double alpha, beta;
    explicit HardSigmoid(const ir::Op& op)
        : alpha(attrFloat(op, "alpha", 0.2)), beta(attrFloat(op, "beta", 0.5)) {}
    template <class C> C operator()(C x) const {
        return std::max(C(0), std::min(C(1), C(alpha) * x + C(beta)));
    }
};
struct HardSwish {
    static constexpr Domain domain = Domain::Float;
    explicit HardSwish(const ir::Op&) {}
    template <class C> C operator()(C x) const {
        return x * std::max(C(0), std::min(C(1), x / C(6) + C(0.5)));
    }
};
struct Softplus {
    static constexpr Domain domain = Domain::Float;
    explicit Softplus(const ir::Op&) {}
    template <class C> C operator()(C x) const {
        return x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
    }
};
struct Softsign {
    static constexpr Domain domain = Domain::Float;
    explicit Softsign(const ir::Op&) {}
    template <class C> C operator()(C x) const { return x / (C(1) + std::fabs(x)); }
};
struct Shrink {
    static constexpr Domain domain = Domain::Numeric;
    double lambd, bias;
    explicit Shrink(const ir::Op& op)
        : lambd(attrFloat(op, "lambd", 0.5)), bias(attrFloat(op, "bias", 0.0)) {}
    template <class C> C operator()(C x) const {
        const double v = double(x);
        return v < -lambd ? C(v + bias) : v > lambd ? C(v - bias) : C(0);
    }
};
struct Neg {
    static constexpr Domain domain = Domain::Signed;
    explicit Neg(const ir::Op&) {}
    template <class C> C operator()(C x) const { return C(-x); }
};
struct Abs {
    static constexpr Domain domain = Domain::Numeric;
    explicit Abs(const ir::Op&) {}
    template <class C> C operator()(C x) const {
        if constexpr (std::is_unsigned_v<C>)
            return x;
        else
            return x < C(0) ? C(-x) : x;
    }
};
struct Sign {
    static constexpr Domain domain = Domain::Numeric;
    explicit Sign(const ir::Op&) {}
    template <class C> C operator()(C x) const {
        if constexpr (std::is_floating_point_v<C>)
            if (std::isnan(x))
                return x;
        return x > C(0) ? C(1) : x < C(0) ? C(-1) : C(0);
    }
};
struct Reciprocal {
    static constexpr Domain domain = Domain::Float;
    explicit Reciprocal(const ir::Op&) {}
    template <class C> C operator()(C x) const { return C(1) / x; }
};
struct Not {
    static constexpr Domain domain = Domain::Bool;
    explicit Not(const ir::Op&) {}
    template <class C> C operator()(C x) const { return !x; }
};

// Float math functions without parameters.
#define STRATA_FLOAT_UNARY(Name, expr)                                                             \
    struct Name {                                                                                  \
        static constexpr Domain domain = Domain::Float;                                            \
        explicit Name(const ir::Op&) {}                                                            \
        template <class C> C operator()(C x) const { return C(expr); }                             \
    };
STRATA_FLOAT_UNARY(Exp, std::exp(x))
STRATA_FLOAT_UNARY(Log, std::log(x))
STRATA_FLOAT_UNARY(Sqrt, std::sqrt(x))
STRATA_FLOAT_UNARY(Erf, std::erf(x))
STRATA_FLOAT_UNARY(Tanh, std::tanh(x))
STRATA_FLOAT_UNARY(Sin, std::sin(x))
STRATA_FLOAT_UNARY(Cos, std::cos(x))
STRATA_FLOAT_UNARY(Tan, std::tan(x))
STRATA_FLOAT_UNARY(Asin, std::asin(x))
STRATA_FLOAT_UNARY(Acos, std::acos(x))
STRATA_FLOAT_UNARY(Atan, std::atan(x))
STRATA_FLOAT_UNARY(Sinh, std::sinh(x))
STRATA_FLOAT_UNARY(Cosh, std::cosh(x))
STRATA_FLOAT_UNARY(Asinh, std::asinh(x))
STRATA_FLOAT_UNARY(Acosh, std::acosh(x))
STRATA_FLOAT_UNARY(Atanh, std::atanh(x))
STRATA_FLOAT_UNARY(Ceil, std::ceil(x))
STRATA_FLOAT_UNARY(Floor, std::floor(x))
STRATA_FLOAT_UNARY(Round, std::nearbyint(x)) // half to even, as numpy.round
#undef STRATA_FLOAT_UNARY

template <class Op> Result unaryKernel(const KernelContext& ctx) {
    const Op f(ctx.op);
    const Tensor& x = ctx.in(0);
    visitDomain<Op::domain>(x.dtype, [&]<class T>(TypeTag<T>) {
        const T* in = x.data<T>();
        T* out = ctx.output.data<T>();
        const auto strides = stridesOf(ctx.outShape());
        forEachRow(ctx.region, [&](const Index& index, std::int64_t count) {
            const std::int64_t base = dot(index, strides);
            for (std::int64_t j = base; j < base + count; ++j)
                out[j] = store<T>(f(load(in[j])));
        });
    });
    return std::nullopt;
}

template <class Op> std::string unaryCheck(const SupportQuery& q) {
    if (q.op.inputs.size() != 1 || q.op.outputs.size() != 1)
        return "expects one input and one output";
    if (!q.graph)
        return {};
    if (q.inputType(0) != q.outputType(0))
        return "input and output dtypes differ";
    return checkTypes(q, [](ir::DType t) { return inDomain(Op::domain, t); });
}

// IsNaN, IsInf: floating input, bool output.
Result isNanKernel(const KernelContext& ctx) {
    const auto strides = stridesOf(ctx.outShape());
    visitFloating(ctx.in(0).dtype, [&]<class T>(TypeTag<T>) {
        const T* in = ctx.in(0).data<T>();
        bool* out = ctx.output.data<bool>();
        forEachRow(ctx.region, [&](const Index& index, std::int64_t count) {
            const std::int64_t base = dot(index, strides);
            for (std::int64_t j = base; j < base + count; ++j)
                out[j] = std::isnan(load(in[j]));
        });
    });
    return std::nullopt;
}

Result isInfKernel(const KernelContext& ctx) {
    const bool positive = ctx.op.attrInt("detect_positive", 1) != 0;
    const bool negative = ctx.op.attrInt("detect_negative", 1) != 0;
    const auto strides = stridesOf(ctx.outShape());
    visitFloating(ctx.in(0).dtype, [&]<class T>(TypeTag<T>) {
        const T* in = ctx.in(0).data<T>();
        bool* out = ctx.output.data<bool>();
        forEachRow(ctx.region, [&](const Index& index, std::int64_t count) {
            const std::int64_t base = dot(index, strides);
            for (std::int64_t j = base; j < base + count; ++j) {
                const auto v = load(in[j]);
                out[j] = std::isinf(v) && ((v > 0 && positive) || (v < 0 && negative));
            }
        });
    });
    return std::nullopt;
}

std::string floatToBoolCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    if (!isFloatType(q.inputType(0)) || q.outputType(0) != ir::DType::Bool)
        return "expects a floating input and a bool output";
    return {};
}

// --- binary and variadic ops with numpy broadcasting ---

// out[o] = f(a[...], b[...]) with broadcasting; A, B the inputs' C++ types, U the output's.
template <class U, class A, class B, class F>
void map2(const KernelContext& ctx, const Tensor& a, const Tensor& b, F f) {
    const A* pa = a.data<A>();
    const B* pb = b.data<B>();
    U* out = ctx.output.data<U>();
    forEachBroadcast(ctx.outShape(), ctx.region, {&a.shape, &b.shape},
                     [&](std::int64_t o, const std::vector<std::int64_t>& off) {
                         out[o] = f(pa[off[0]], pb[off[1]]);
                     });
}

enum class Arith { Add, Sub, Mul, Div };

template <Arith K> Result arithKernel(const KernelContext& ctx) {
    bool divByZero = false;
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        map2<T, T, T>(ctx, ctx.in(0), ctx.in(1), [&](T x, T y) {
            const auto a = load(x), b = load(y);
            using C = std::remove_cv_t<decltype(a)>;
            if constexpr (K == Arith::Add)
                return store<T>(C(a + b));
            else if constexpr (K == Arith::Sub)
                return store<T>(C(a - b));
            else if constexpr (K == Arith::Mul)
                return store<T>(C(a * b));
            else {
                if constexpr (!kIsFloating<T>) {
                    if (b == 0) {
                        divByZero = true;
                        return T(0);
                    }
                }
                return store<T>(C(a / b));
            }
        });
    });
    if (divByZero)
        return "integer division by zero";
    return std::nullopt;
}

std::string sameTypeCheck(const SupportQuery& q, bool (*ok)(ir::DType)) {
    if (!q.graph)
        return {};
    const ir::DType t = q.outputType(0);
    if (!ok(t))
        return "dtype " + std::string(ir::dtypeName(t)) + " is not supported";
    for (std::size_t i = 0; i < q.op.inputs.size(); ++i)
        if (q.hasInput(i) && q.inputType(i) != t)
            return "inputs and output must share a dtype";
    return {};
}

std::string numericCheck(const SupportQuery& q) {
    return sameTypeCheck(q, isNumericType);
}
std::string floatCheck(const SupportQuery& q) {
    return sameTypeCheck(q, isFloatType);
}

Result modKernel(const KernelContext& ctx) {
    const bool cFmod = ctx.op.attrInt("fmod", 0) != 0;
    bool divByZero = false;
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        map2<T, T, T>(ctx, ctx.in(0), ctx.in(1), [&](T x, T y) {
            const auto a = load(x), b = load(y);
            using C = std::remove_cv_t<decltype(a)>;
            if constexpr (std::is_floating_point_v<C>) {
                C r = C(std::fmod(a, b));
                if (!cFmod && r != 0 && ((r < 0) != (b < 0)))
                    r += b;
                return store<T>(r);
            } else {
                if (b == 0) {
                    divByZero = true;
                    return T(0);
                }
                C r = C(a % b);
                if constexpr (std::is_signed_v<C>)
                    if (!cFmod && r != 0 && ((r < 0) != (b < 0)))
                        r = C(r + b);
                return r;
            }
        });
    });
    if (divByZero)
        return "integer modulo by zero";
    return std::nullopt;
}

std::string modCheck(const SupportQuery& q) {
    if (q.graph && isFloatType(q.outputType(0)) && q.op.attrInt("fmod", 0) == 0)
        return "fmod=0 on floating dtypes is invalid";
    return numericCheck(q);
}

Result powKernel(const KernelContext& ctx) {
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        visitNumeric(ctx.in(1).dtype, [&]<class E>(TypeTag<E>) {
            map2<T, T, E>(ctx, ctx.in(0), ctx.in(1), [](T x, E y) {
                return convertElement<T>(std::pow(double(load(x)), double(load(y))));
            });
        });
    });
    return std::nullopt;
}

std::string powCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    if (q.inputType(0) != q.outputType(0))
        return "base and output dtypes differ";
    return checkTypes(q, isNumericType);
}

Result preluKernel(const KernelContext& ctx) {
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        map2<T, T, T>(ctx, ctx.in(0), ctx.in(1), [](T x, T s) {
            const auto a = load(x), slope = load(s);
            using C = std::remove_cv_t<decltype(a)>;
            return store<T>(a < C(0) ? C(slope * a) : a);
        });
    });
    return std::nullopt;
}

Result bitShiftKernel(const KernelContext& ctx) {
    const bool left = attrString(ctx.op, "direction", "") == "LEFT";
    visitIntegral(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        map2<T, T, T>(ctx, ctx.in(0), ctx.in(1), [&](T x, T s) {
            if (std::uint64_t(s) >= sizeof(T) * 8)
                return T(0);
            return left ? T(x << s) : T(x >> s);
        });
    });
    return std::nullopt;
}

std::string bitShiftCheck(const SupportQuery& q) {
    const std::string dir = attrString(q.op, "direction", "");
    if (dir != "LEFT" && dir != "RIGHT")
        return "direction must be LEFT or RIGHT";
    return sameTypeCheck(q, [](ir::DType t) {
        return t == ir::DType::UInt8 || t == ir::DType::UInt16 || t == ir::DType::UInt32 ||
               t == ir::DType::UInt64;
    });
}

enum class Logic { And, Or, Xor };

template <Logic K> Result logicKernel(const KernelContext& ctx) {
    map2<bool, bool, bool>(ctx, ctx.in(0), ctx.in(1), [](bool a, bool b) {
        if constexpr (K == Logic::And)
            return a && b;
        else if constexpr (K == Logic::Or)
            return a || b;
        else
            return a != b;
    });
    return std::nullopt;
}

std::string boolCheck(const SupportQuery& q) {
    return sameTypeCheck(q, [](ir::DType t) { return t == ir::DType::Bool; });
}

enum class Cmp { Equal, Less, Greater, LessOrEqual, GreaterOrEqual };

template <Cmp K> Result compareKernel(const KernelContext& ctx) {
    visitAny(ctx.in(0).dtype, [&]<class T>(TypeTag<T>) {
        map2<bool, T, T>(ctx, ctx.in(0), ctx.in(1), [](T x, T y) {
            const auto a = load(x), b = load(y);
            if constexpr (K == Cmp::Equal)
                return a == b;
            else if constexpr (K == Cmp::Less)
                return a < b;
            else if constexpr (K == Cmp::Greater)
                return a > b;
            else if constexpr (K == Cmp::LessOrEqual)
                return a <= b;
            else
                return a >= b;
        });
    });
    return std::nullopt;
}

template <Cmp K> std::string compareCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    if (q.inputType(0) != q.inputType(1))
        return "inputs must share a dtype";
    if (q.outputType(0) != ir::DType::Bool)
        return "output must be bool";
    const ir::DType t = q.inputType(0);
    if (!(isNumericType(t) || (K == Cmp::Equal && t == ir::DType::Bool)))
        return "dtype " + std::string(ir::dtypeName(t)) + " is not supported";
    return {};
}

enum class Fold { Max, Min, Sum, Mean };

// Max/Min/Sum/Mean over any number of broadcast inputs.
template <Fold K> Result foldKernel(const KernelContext& ctx) {
    std::vector<const ir::Shape*> shapes;
    for (const Tensor* t : ctx.inputs)
        shapes.push_back(&t->shape);
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        std::vector<const T*> in;
        for (const Tensor* t : ctx.inputs)
            in.push_back(t->data<T>());
        T* out = ctx.output.data<T>();
        forEachBroadcast(ctx.outShape(), ctx.region, shapes,
                         [&](std::int64_t o, const std::vector<std::int64_t>& off) {
                             auto acc = load(in[0][off[0]]);
                             using C = decltype(acc);
                             for (std::size_t k = 1; k < in.size(); ++k) {
                                 const C v = load(in[k][off[k]]);
                                 if constexpr (K == Fold::Sum || K == Fold::Mean) {
                                     acc = C(acc + v);
                                 } else {
                                     if constexpr (std::is_floating_point_v<C>) {
                                         if (std::isnan(acc))
                                             continue; // numpy propagates NaN
                                         if (std::isnan(v)) {
                                             acc = v;
                                             continue;
                                         }
                                     }
                                     acc = K == Fold::Max ? std::max(acc, v) : std::min(acc, v);
                                 }
                             }
                             if constexpr (K == Fold::Mean)
                                 acc = C(acc / C(in.size()));
                             out[o] = store<T>(acc);
                         });
    });
    return std::nullopt;
}

Result whereKernel(const KernelContext& ctx) {
    const Tensor& c = ctx.in(0);
    const Tensor& x = ctx.in(1);
    const Tensor& y = ctx.in(2);
    visitBySize(ir::dtypeSize(ctx.output.dtype), [&]<class T>(TypeTag<T>) {
        const bool* pc = c.data<bool>();
        const T* px = x.data<T>();
        const T* py = y.data<T>();
        T* out = ctx.output.data<T>();
        forEachBroadcast(ctx.outShape(), ctx.region, {&c.shape, &x.shape, &y.shape},
                         [&](std::int64_t o, const std::vector<std::int64_t>& off) {
                             out[o] = pc[off[0]] ? px[off[1]] : py[off[2]];
                         });
    });
    return std::nullopt;
}

std::string whereCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    if (q.inputType(0) != ir::DType::Bool)
        return "condition must be bool";
    if (q.inputType(1) != q.outputType(0) || q.inputType(2) != q.outputType(0))
        return "X, Y and output must share a dtype";
    return {};
}

// Clip: bounds from inputs 1 and 2 (opset 11+) or the min/max attributes (before).
Result clipKernel(const KernelContext& ctx) {
    visitNumeric(ctx.output.dtype, [&]<class T>(TypeTag<T>) {
        using C = Compute<T>;
        C lo = std::numeric_limits<C>::lowest(), hi = std::numeric_limits<C>::max();
        if constexpr (std::is_floating_point_v<C>) {
            lo = -std::numeric_limits<C>::infinity();
            hi = std::numeric_limits<C>::infinity();
        }
        if (ctx.opset() < 11) {
            if (hasAttr(ctx.op, "min"))
                lo = C(attrFloat(ctx.op, "min", 0));
            if (hasAttr(ctx.op, "max"))
                hi = C(attrFloat(ctx.op, "max", 0));
        } else {
            if (ctx.has(1))
                lo = load(ctx.in(1).data<T>()[0]);
            if (ctx.has(2))
                hi = load(ctx.in(2).data<T>()[0]);
        }
        const T* in = ctx.in(0).data<T>();
        T* out = ctx.output.data<T>();
        const auto strides = stridesOf(ctx.outShape());
        forEachRow(ctx.region, [&](const Index& index, std::int64_t count) {
            const std::int64_t base = dot(index, strides);
            for (std::int64_t j = base; j < base + count; ++j) {
                C v = load(in[j]);
                if constexpr (std::is_floating_point_v<C>)
                    if (std::isnan(v)) {
                        out[j] = in[j];
                        continue;
                    }
                v = v < lo ? lo : v;
                v = v > hi ? hi : v;
                out[j] = store<T>(v);
            }
        });
    });
    return std::nullopt;
}

std::string clipCheck(const SupportQuery& q) {
    if (!q.graph)
        return {};
    for (std::size_t i = 1; i < q.op.inputs.size(); ++i)
        if (q.hasInput(i) && q.graph->value(q.op.inputs[i]).elements() != 1)
            return "min and max must be scalars";
    return numericCheck(q);
}

constexpr KernelInfo kElementwiseKernels[] = {
    {"Abs", unaryKernel<Abs>, unaryCheck<Abs>, true},
    {"Acos", unaryKernel<Acos>, unaryCheck<Acos>, true},
    {"Acosh", unaryKernel<Acosh>, unaryCheck<Acosh>, true},
    {"Add", arithKernel<Arith::Add>, numericCheck, true},
    {"And", logicKernel<Logic::And>, boolCheck, true},
    {"Asin", unaryKernel<Asin>, unaryCheck<Asin>, true},
    {"Asinh", unaryKernel<Asinh>, unaryCheck<Asinh>, true},
    {"Atan", unaryKernel<Atan>, unaryCheck<Atan>, true},
    {"Atanh", unaryKernel<Atanh>, unaryCheck<Atanh>, true},
    {"BitShift", bitShiftKernel, bitShiftCheck, true},
    {"Ceil", unaryKernel<Ceil>, unaryCheck<Ceil>, true},
    {"Celu", unaryKernel<Celu>, unaryCheck<Celu>, true},
    {"Clip", clipKernel, clipCheck, true},
    {"Cos", unaryKernel<Cos>, unaryCheck<Cos>, true},
    {"Cosh", unaryKernel<Cosh>, unaryCheck<Cosh>, true},
    {"Div", arithKernel<Arith::Div>, numericCheck, true},
    {"Elu", unaryKernel<Elu>, unaryCheck<Elu>, true},
    {"Equal", compareKernel<Cmp::Equal>, compareCheck<Cmp::Equal>, true},
    {"Erf", unaryKernel<Erf>, unaryCheck<Erf>, true},
    {"Exp", unaryKernel<Exp>, unaryCheck<Exp>, true},
    {"Floor", unaryKernel<Floor>, unaryCheck<Floor>, true},
    {"Greater", compareKernel<Cmp::Greater>, compareCheck<Cmp::Greater>, true},
    {"GreaterOrEqual", compareKernel<Cmp::GreaterOrEqual>, compareCheck<Cmp::GreaterOrEqual>, true},
    {"HardSigmoid", unaryKernel<HardSigmoid>, unaryCheck<HardSigmoid>, true},
    {"HardSwish", unaryKernel<HardSwish>, unaryCheck<HardSwish>, true},
    {"IsInf", isInfKernel, floatToBoolCheck, true},
    {"IsNaN", isNanKernel, floatToBoolCheck, true},
    {"LeakyRelu", unaryKernel<LeakyRelu>, unaryCheck<LeakyRelu>, true},
    {"Less", compareKernel<Cmp::Less>, compareCheck<Cmp::Less>, true},
    {"LessOrEqual", compareKernel<Cmp::LessOrEqual>, compareCheck<Cmp::LessOrEqual>, true},
    {"Log", unaryKernel<Log>, unaryCheck<Log>, true},
    {"Max", foldKernel<Fold::Max>, numericCheck, true},
    {"Mean", foldKernel<Fold::Mean>, floatCheck, true},
    {"Min", foldKernel<Fold::Min>, numericCheck, true},
    {"Mod", modKernel, modCheck, true},
    {"Mul", arithKernel<Arith::Mul>, numericCheck, true},
    {"Neg", unaryKernel<Neg>, unaryCheck<Neg>, true},
    {"Not", unaryKernel<Not>, unaryCheck<Not>, true},
    {"Or", logicKernel<Logic::Or>, boolCheck, true},
    {"Pow", powKernel, powCheck, true},
    {"PRelu", preluKernel, numericCheck, true},
    {"Reciprocal", unaryKernel<Reciprocal>, unaryCheck<Reciprocal>, true},
    {"Relu", unaryKernel<Relu>, unaryCheck<Relu>, true},
    {"Round", unaryKernel<Round>, unaryCheck<Round>, true},
    {"Selu", unaryKernel<Selu>, unaryCheck<Selu>, true},
    {"Shrink", unaryKernel<Shrink>, unaryCheck<Shrink>, true},
    {"Sigmoid", unaryKernel<Sigmoid>, unaryCheck<Sigmoid>, true},
    {"Sign", unaryKernel<Sign>, unaryCheck<Sign>, true},
    {"Sin", unaryKernel<Sin>, unaryCheck<Sin>, true},
    {"Sinh", unaryKernel<Sinh>, unaryCheck<Sinh>, true},
    {"Softplus", unaryKernel<Softplus>, unaryCheck<Softplus>, true},
    {"Softsign", unaryKernel<Softsign>, unaryCheck<Softsign>, true},
    {"Sqrt", unaryKernel<Sqrt>, unaryCheck<Sqrt>, true},
    {"Sub", arithKernel<Arith::Sub>, numericCheck, true},
    {"Sum", foldKernel<Fold::Sum>, numericCheck, true},
    {"Tan", unaryKernel<Tan>, unaryCheck<Tan>, true},
    {"Tanh", unaryKernel<Tanh>, unaryCheck<Tanh>, true},
    {"ThresholdedRelu", unaryKernel<ThresholdedRelu>, unaryCheck<ThresholdedRelu>, true},
    {"Where", whereKernel, whereCheck, true},
    {"Xor", logicKernel<Logic::Xor>, boolCheck, true},
};

} // namespace

std::span<const KernelInfo> elementwiseKernels() {
    return kElementwiseKernels;
}

} // namespace strata::reference::kernels

#include "compiler/emit/CppOps.h"

#include "ir/ConstantValues.h"
#include "reference/ResizeTaps.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

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

std::string windowText(const KernelCall& c) {
    const auto& w = c.window;
    return fmt::format("rt::Window2d{{{{{}, {}}}, {{{}, {}}}, {{{}, {}}}, {{{}, {}}}}}", w[0], w[1], w[2], w[3], w[4],
                       w[5], w[6], w[7]);
}

// The function (or function object) of a Map or Zip.
std::string scalarFnText(const KernelCall& c) {
    const std::string name = scalarFnName(c.fn);
    if (c.params.empty()) return "rt::" + name;
    std::vector<std::string> args;
    for (float p : c.params) args.push_back(floatLiteral(p));
    return fmt::format("rt::{}{{{}}}", name, fmt::join(args, ", "));
}

class Printer {
  public:
    Printer(const ir::Graph& g, const KernelCall& c, const std::string& scratch, std::size_t referenceIndex)
        : m_g(g), m_c(c), m_scratch(scratch), m_referenceIndex(referenceIndex) {
        if (c.kernel == Kernel::Reference)
            return; // reference() declares its views as bytes
        // Views in the order the calls name them: the output, then the inputs.
        if (c.outputs[0].present || c.kernel != Kernel::Split)
            declare("y0", c.outputs[0]);
        for (std::size_t i = 0; i < c.inputs.size(); ++i)
            if (c.inputs[i].value.valid()) declare("x" + std::to_string(i), c.inputs[i]);
    }

    std::vector<std::string> run() {
        const KernelCall& c = m_c;
        switch (c.kernel) {
        case Kernel::Map: call(fmt::format("rt::map(y0, x0, {})", scalarFnText(c))); break;
        case Kernel::Zip:
            if (c.outputBlock == kChannelsLast) // every operand walked in its memory order
                call(fmt::format("rt::zip(rt::inMemoryOrder(y0), rt::inMemoryOrder(x0), "
                                 "rt::inMemoryOrder(x1), {})",
                                 scalarFnText(c)));
            else
                call(fmt::format("rt::zip(y0, x0, x1, {})", scalarFnText(c)));
            break;
        case Kernel::Conv2d:
            // Constant weights get their value's id: a library build keeps them packed.
            if (c.inputBlock != 0 || c.outputBlock != 0) // channel-blocked boxes (docs/ISA.md)
                call(
                    fmt::format("rt::conv2dBlocked(y0, x0, x1, {}, {}, {}, {}, {}, {}, {})",
                                optional(2), windowText(c), c.group,
                                c.inputs[1].value.valid() && m_g.value(c.inputs[1].value).isConstant
                                    ? static_cast<std::int64_t>(c.inputs[1].value.index)
                                    : -1,
                                epilogueSteps(), c.inputBlock, c.outputBlock));
            else if (c.slicesChannels() || c.accumulate)
                call(fmt::format("rt::conv2dSlice(y0, x0, x1, {}, {}, {})", optional(2),
                                 windowText(c), c.accumulate));
            else if (!c.epilogue.empty())
                call(fmt::format("rt::conv2d(y0, x0, x1, {}, {}, {}, {}, {})", optional(2), windowText(c), c.group,
                                 c.inputs[1].value.valid() && m_g.value(c.inputs[1].value).isConstant
                                     ? static_cast<std::int64_t>(c.inputs[1].value.index)
                                     : -1,
                                 epilogueSteps()));
            else if (c.inputs[1].value.valid() && m_g.value(c.inputs[1].value).isConstant)
                call(fmt::format("rt::conv2d(y0, x0, x1, {}, {}, {}, {})", optional(2),
                                 windowText(c), c.group, c.inputs[1].value.index));
            else
                call(fmt::format("rt::conv2d(y0, x0, x1, {}, {}, {})", optional(2), windowText(c),
                                 c.group));
            break;
        case Kernel::Pool2d:
            m_lines.push_back(fmt::format("const rt::i64 padEnd[2] = {};", list(c.ints)));
            call(fmt::format("rt::pool2d(y0, x0, {}, {}, {}, padEnd)", windowText(c), c.isMax, c.countPad));
            break;
        case Kernel::GlobalPool:
            if (c.inputBlock == kChannelsLast)
                call(fmt::format("rt::globalPoolChannelsLast(rt::inMemoryOrder(y0), "
                                 "rt::inMemoryOrder(x0), {})",
                                 c.isMax));
            else
                call(fmt::format("rt::globalPool(y0, x0, {})", c.isMax));
            break;
        case Kernel::Gemm:
            call(fmt::format("rt::gemm(y0, x0, x1, {}, {}, {}, {}, {})", optional(2), c.transA, c.transB,
                             floatLiteral(c.params[0]), floatLiteral(c.params[1])));
            break;
        case Kernel::MatMul: call("rt::matmul(y0, x0, x1)"); break;
        case Kernel::BatchNorm:
            call(fmt::format("rt::batchNorm(y0, x0, x1, x2, x3, x4, {})", floatLiteral(c.params[0])));
            break;
        case Kernel::LayerNorm:
            call(fmt::format("rt::layerNorm(y0, x0, x1, {}, {}, {})", optional(2), c.axis, floatLiteral(c.params[0])));
            break;
        case Kernel::Softmax: call(fmt::format("rt::softmax(y0, x0, {})", c.axis)); break;
        case Kernel::Reduce:
            call(fmt::format("rt::reduce(y0, x0, 0x{:x}u, {}, rt::Reduce::{})", c.axesMask, c.keepDims,
                             reduceKindName(c.reduce)));
            break;
        case Kernel::Reshape:
            call("rt::reshapeBoxes(y0, x0)");
            break;
        case Kernel::Transpose:
            call(fmt::format("rt::transposeBoxes(y0, x0, {})", list(c.ints)));
            break;
        case Kernel::Concat: {
            std::vector<std::string> xs;
            for (std::size_t i = 0; i < c.inputs.size(); ++i) xs.push_back("x" + std::to_string(i));
            call(fmt::format("rt::concatBoxes(y0, {{{}}}, {})", fmt::join(xs, ", "), c.axis));
            break;
        }
        case Kernel::Slice: {
            const auto rank = static_cast<std::ptrdiff_t>(c.ints.size() / 2);
            call(fmt::format("rt::sliceBoxes(y0, x0, {}, {})",
                             list(Ints(c.ints.begin(), c.ints.begin() + rank)),
                             list(Ints(c.ints.begin() + rank, c.ints.end()))));
            break;
        }
        case Kernel::Pad:
            call(fmt::format("rt::padBoxes(y0, x0, {}, {})", list(c.ints),
                             floatLiteral(c.params[0])));
            break;
        case Kernel::Gather:
            call(fmt::format("rt::gatherRows(y0, x0, x1, {})", c.axis));
            break;
        case Kernel::Where:
            call("rt::where(y0, x0, x1, x2)");
            break;
        case Kernel::Split: {
            // One slice per output the tile writes, from its offset along the axis.
            const std::size_t rank = c.inputs[0].full.size();
            for (std::size_t k = 0; k < c.outputs.size(); ++k) {
                if (!c.outputs[k].present)
                    continue;
                const std::string y = "y" + std::to_string(k);
                if (k > 0)
                    declare(y, c.outputs[k]);
                Ints starts(rank, 0);
                starts[static_cast<std::size_t>(c.axis)] = c.ints[k];
                call(fmt::format("rt::sliceBoxes({}, x0, {}, {})", y, list(starts),
                                 list(Ints(rank, 1))));
            }
            break;
        }
        case Kernel::Resize:
            resize();
            break;
        case Kernel::Reorder:
            call(fmt::format("rt::reorder(y0, {}, {})", c.inputBlock, c.outputBlock));
            break;
        case Kernel::Reference:
            reference();
            break;
        }
        // Other kernels' epilogues run after them (a convolution's runs in its call).
        if (!c.epilogue.empty() && c.kernel != Kernel::Conv2d)
            call(fmt::format("rt::epilogue(y0, {})", epilogueSteps()));
        return std::move(m_lines);
    }

  private:
    // The reference evaluator's kernel on the tile's boxes, every operand as bytes (the op's
    // graph in the file knows the dtypes); an omitted optional input is an empty view.
    void reference() {
        std::vector<std::string> ys, xs;
        for (std::size_t k = 0; k < m_c.outputs.size(); ++k) {
            ys.push_back("y" + std::to_string(k));
            declare(ys.back(), m_c.outputs[k], "unsigned char");
        }
        for (std::size_t i = 0; i < m_c.inputs.size(); ++i) {
            if (!m_c.inputs[i].value.valid()) {
                xs.push_back("rt::View<unsigned char>{}");
                continue;
            }
            xs.push_back("x" + std::to_string(i));
            declare(xs.back(), m_c.inputs[i], "unsigned char");
        }
        std::string why = m_c.whyReference;
        std::replace(why.begin(), why.end(), '\n', ' ');
        m_lines.push_back("// " + why + ": the reference evaluator's kernel");
        call(fmt::format("rt::reference(referenceProgram(), {}, {{{}}}, {{{}}})", m_referenceIndex,
                         fmt::join(xs, ", "), fmt::join(ys, ", ")));
    }

    // The taps of every output coordinate of the tile, per dim, as tables in the generated code
    // (reference/ResizeTaps.h: the reference's own mapping, as the host runtime's Resize uses).
    void resize() {
        const ir::Op& op = m_g.op(m_g.value(m_c.outputs[0].value).producer);
        auto constant = [&](std::size_t i) {
            if (i >= op.inputs.size() || !op.inputs[i].valid())
                return std::vector<double>{};
            return ir::constantFloats(m_g, op.inputs[i]).value_or(std::vector<double>{});
        };
        const ir::Shape& in = m_g.value(op.inputs[0]).shape;
        const reference::ResizeParams params = reference::resizeParams(
            op, constant(1), constant(2), in, m_g.value(op.outputs[0]).shape);
        const KernelView& y = m_c.outputs[0];
        const std::size_t rank = y.full.size();
        std::vector<int> taps(rank, 1);
        std::vector<std::string> indexNames, weightNames;
        for (std::size_t d = 0; d < rank; ++d) {
            std::vector<std::vector<reference::ResizeTap>> perCoordinate;
            for (std::int64_t j = 0; j < y.ext[d]; ++j) {
                perCoordinate.push_back(reference::resizeTaps(params, d, y.lo[d] + j, in[d], rank));
                // Only tf_crop_and_resize extrapolates, and lowering refuses it: pad with weight 0.
                if (perCoordinate.back().empty())
                    perCoordinate.back().push_back({0, 0.0});
                taps[d] = std::max(taps[d], static_cast<int>(perCoordinate.back().size()));
            }
            Ints index;
            std::vector<std::string> weights;
            for (const auto& list : perCoordinate)
                for (std::size_t t = 0; t < static_cast<std::size_t>(taps[d]); ++t) {
                    index.push_back(list[std::min(t, list.size() - 1)].index);
                    weights.push_back(t < list.size() ? floatLiteral(list[t].weight) : "0.0f");
                }
            indexNames.push_back("index" + std::to_string(d));
            weightNames.push_back("weight" + std::to_string(d));
            m_lines.push_back(
                fmt::format("static const rt::i64 {}[] = {};", indexNames.back(), list(index)));
            m_lines.push_back(fmt::format("static const float {}[] = {{{}}};", weightNames.back(),
                                          fmt::join(weights, ", ")));
        }
        m_lines.push_back(fmt::format("const int taps[] = {{{}}};", fmt::join(taps, ", ")));
        m_lines.push_back(
            fmt::format("const rt::i64* const index[] = {{{}}};", fmt::join(indexNames, ", ")));
        m_lines.push_back(
            fmt::format("const float* const weight[] = {{{}}};", fmt::join(weightNames, ", ")));
        call("rt::resize(y0, x0, taps, index, weight)");
    }

    // A fused epilogue as strata_rt's steps, "{{rt::Act::Add, 0.0f, 0.0f, &e0}, {rt::Act::Relu}}",
    // declaring each step's further operand (e0, e1, ...) first.
    std::string epilogueSteps() {
        std::vector<std::string> steps;
        for (std::size_t i = 0; i < m_c.epilogue.size(); ++i) {
            const KernelCall& step = m_c.epilogue[i];
            const std::string act = actName(step.fn);
            if (step.kernel == Kernel::Map) {
                std::vector<std::string> params;
                for (float p : step.params) params.push_back(floatLiteral(p));
                steps.push_back(params.empty() ? "{" + act + "}"
                                               : fmt::format("{{{}, {}}}", act, fmt::join(params, ", ")));
                continue;
            }
            // A Zip: the operand not at the output box is the further one.
            const bool chainedFirst = step.inputs[0].offset == m_c.outputs[0].offset && step.inputs[0].present;
            const std::string other = "e" + std::to_string(i);
            declare(other, step.inputs[chainedFirst ? 1 : 0]);
            steps.push_back(fmt::format("{{{}, 0.0f, 0.0f, &{}{}}}", act, other, chainedFirst ? "" : ", true"));
        }
        return fmt::format("{{{}}}", fmt::join(steps, ", "));
    }

    static std::string actName(ScalarFn fn) {
        switch (fn) {
        case ScalarFn::Relu: return "rt::Act::Relu";
        case ScalarFn::LeakyRelu: return "rt::Act::LeakyRelu";
        case ScalarFn::Sigmoid: return "rt::Act::Sigmoid";
        case ScalarFn::Tanh: return "rt::Act::Tanh";
        case ScalarFn::Elu: return "rt::Act::Elu";
        case ScalarFn::Clip: return "rt::Act::Clip";
        case ScalarFn::HardSwish: return "rt::Act::HardSwish";
        case ScalarFn::Silu:
            return "rt::Act::Silu";
        case ScalarFn::HardSigmoid: return "rt::Act::HardSigmoid";
        case ScalarFn::Add: return "rt::Act::Add";
        case ScalarFn::Sub: return "rt::Act::Sub";
        case ScalarFn::Mul: return "rt::Act::Mul";
        default: return "rt::Act::Relu"; // FuseEpilogues folds none other (EpilogueRule.h)
        }
    }

    std::string optional(std::size_t i) const { return m_c.hasInput(i) ? "&x" + std::to_string(i) : "nullptr"; }
    void call(std::string text) { m_lines.push_back(std::move(text) + ";"); }

    void declare(const std::string& name, const KernelView& view, std::string type = {}) {
        const ir::Value& value = m_g.value(view.value);
        if (type.empty())
            type = elementType(view.dtype);
        if (!view.present) {
            m_lines.push_back(fmt::format("auto {} = rt::absent<{}>({}); // {}, not read by this tile", name, type,
                                          list(view.full), value.name));
            return;
        }
        tiling::Region region;
        for (std::size_t d = 0; d < view.lo.size(); ++d) region.push_back({view.lo[d], view.lo[d] + view.ext[d]});
        m_lines.push_back(fmt::format("auto {} = rt::view<{}>({} + 0x{:x}, {}, {}, {}); // {} {}", name, type, m_scratch,
                                      view.offset, list(view.lo), list(view.ext), list(view.full), value.name,
                                      tiling::regionToString(region)));
    }

    const ir::Graph& m_g;
    const KernelCall& m_c;
    const std::string& m_scratch;
    std::size_t m_referenceIndex;
    std::vector<std::string> m_lines;
};

} // namespace

std::vector<std::string> callStatements(const ir::Graph& graph, const KernelCall& call, const std::string& scratch,
                                        std::size_t referenceIndex) {
    return Printer(graph, call, scratch, referenceIndex).run();
}

Expected<std::vector<std::string>> computeStatements(const ir::Graph& graph, const ir::Op& op, const Compute& compute,
                                                     const std::string& scratch, ReferenceOps& references) {
    auto call = lowerCompute(graph, op, compute);
    if (!call) {
        std::vector<Diagnostic> out;
        for (Diagnostic d : call.diagnostics()) {
            d.message = "C++ emitter: " + d.message;
            out.push_back(std::move(d));
        }
        return out;
    }
    if (call->kernel == Kernel::Reference) {
        auto index = references.add(op, *call);
        if (!index)
            return index.takeDiagnostics();
        return callStatements(graph, *call, scratch, *index);
    }
    return callStatements(graph, *call, scratch);
}

const std::vector<std::string>& supportedOpTypes() { return kernelOpTypes(); }

} // namespace strata::compiler::cpp

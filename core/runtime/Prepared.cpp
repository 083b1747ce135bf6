#include "runtime/Prepared.h"

#include "compiler/MergedCopy.h"
#include "emulator/ProgramCheck.h"
#include "runtime/ResizeKernel.h"
#include "tiling/Region.h"

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace strata::runtime {
namespace {

constexpr std::size_t kMaxProblems = 20;

std::string name(std::uint32_t id) { return emulator::instructionName(id); }

// One past the last byte of a box, or nullopt on overflow or a negative extent or stride.
std::optional<std::uint64_t> boxEnd(std::uint64_t offset, const std::vector<std::int64_t>& shape,
                                    const std::vector<std::int64_t>& strides, std::size_t elementBytes) {
    std::int64_t last = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] < 0 || strides[d] < 0) return std::nullopt;
        if (shape[d] == 0) return offset;
        std::int64_t step = 0;
        if (__builtin_mul_overflow(shape[d] - 1, strides[d], &step) || __builtin_add_overflow(last, step, &last))
            return std::nullopt;
    }
    std::uint64_t bytes = 0, end = 0;
    if (__builtin_mul_overflow(static_cast<std::uint64_t>(last) + 1, elementBytes, &bytes) ||
        __builtin_add_overflow(offset, bytes, &end))
        return std::nullopt;
    return end;
}

// Row-major strides of `shape` when an access gives none.
std::vector<std::int64_t> stridesOf(const compiler::Access& a) {
    if (!a.strides.empty()) return a.strides;
    std::vector<std::int64_t> s(a.shape.size(), 1);
    for (std::size_t d = a.shape.size(); d-- > 1;) s[d - 1] = s[d] * a.shape[d];
    return s;
}

std::size_t elementBytesOf(const compiler::Transfer& t, const ir::Graph& graph) {
    if (t.value.valid() && t.value.index < graph.values.size()) return ir::dtypeSize(graph.value(t.value).dtype);
    std::int64_t elements = 1;
    for (std::int64_t n : t.source.shape) elements *= n;
    return elements > 0 && t.bytes % static_cast<std::uint64_t>(elements) == 0 && t.bytes > 0
               ? static_cast<std::size_t>(t.bytes / static_cast<std::uint64_t>(elements))
               : 1;
}

class Preparer {
  public:
    Preparer(const compiler::Program& p, const target::Target& t, const ir::Graph& g, const Memories& m,
             std::vector<Diagnostic>& d)
        : m_p(p), m_t(t), m_g(g), m_m(m), m_d(d) {}

    PreparedProgram run(const emulator::CheckedProgram* checked) {
        if (checked) {
            m_out.checked = *checked;
        } else {
            std::vector<Diagnostic> checks;
            m_out.checked = emulator::checkProgram(m_p, m_t, m_g, checks);
            for (Diagnostic& c : checks) m_d.push_back(std::move(c));
        }
        if (hasErrors(m_d)) return {};
        m_out.instructions.resize(m_p.instructions.size());
        for (const compiler::Instruction& in : m_p.instructions) {
            if (m_problems >= kMaxProblems) break;
            PreparedInstruction& out = m_out.instructions[in.id];
            out.kind = in.kind();
            if (const auto* t = std::get_if<compiler::Transfer>(&in.body)) transfer(in, *t, out);
            else if (const auto* c = std::get_if<compiler::Compute>(&in.body)) compute(in, *c, out);
        }
        for (const auto& stream : m_p.streams) m_out.streams.emplace_back(stream.begin(), stream.end());
        return std::move(m_out);
    }

  private:
    void problem(std::string message) {
        if (++m_problems <= kMaxProblems) m_d.push_back(error("host runtime: " + std::move(message)));
    }

    const Buffer* memoryOf(const compiler::Instruction& in, const compiler::Access& a) {
        const std::string& mainName = m_p.mainMemory.empty() ? m_t.mainMemory : m_p.mainMemory;
        const std::string& workName = m_p.workingMemory.empty() ? m_t.workingMemory : m_p.workingMemory;
        if (a.memory == mainName) return &m_m.main;
        if (a.memory == workName) {
            if (a.instance < 0 || static_cast<std::size_t>(a.instance) >= m_m.scratch.size()) {
                problem(fmt::format("{}: {} instance {} does not exist ({} cores)", name(in.id), a.memory, a.instance,
                                    m_m.scratch.size()));
                return nullptr;
            }
            return &m_m.scratch[static_cast<std::size_t>(a.instance)];
        }
        problem(fmt::format("{}: memory '{}' is neither main memory '{}' nor working memory '{}', the only ones the host "
                            "runtime has",
                            name(in.id), a.memory, mainName, workName));
        return nullptr;
    }

    // The address of a box in `memory`, after checking it lies inside.
    unsigned char* place(const compiler::Instruction& in, const compiler::Access& a, const Buffer& memory,
                         const std::vector<std::int64_t>& strides, std::size_t elementBytes, const char* what) {
        const auto end = boxEnd(a.offset, a.shape, strides, elementBytes);
        if (!end || *end > memory.size()) {
            problem(fmt::format("{}: the {} box at offset {} (shape {}) lies outside {} instance {} ({} bytes)", name(in.id),
                                what, a.offset, ir::shapeToString(a.shape), a.memory, a.instance, memory.size()));
            return nullptr;
        }
        return memory.data() + a.offset;
    }

    // The runtime writes the weights into main memory once, before the first pass (Runtime.cpp):
    // a store into one would change what every later pass reads.
    bool storesOutsideWeights(const compiler::Instruction& in, const compiler::Access& dst,
                              const std::vector<std::int64_t>& strides, std::size_t elementBytes) {
        const std::uint64_t end =
            boxEnd(dst.offset, dst.shape, strides, elementBytes).value_or(dst.offset);
        for (const compiler::DramBuffer& b : m_p.dram)
            if (b.role == compiler::DramBuffer::Role::Weight && dst.offset < b.offset + b.bytes &&
                b.offset < end) {
                problem(
                    fmt::format("{}: stores into the buffer of weight '{}'", name(in.id),
                                m_g.values.size() > b.value.index ? m_g.value(b.value).name : "?"));
                return false;
            }
        return true;
    }

    void transfer(const compiler::Instruction& in, const compiler::Transfer& t, PreparedInstruction& out) {
        const std::vector<std::int64_t> srcStrides = stridesOf(t.source), dstStrides = stridesOf(t.destination);
        if (srcStrides.size() != t.source.shape.size() || dstStrides.size() != t.source.shape.size() ||
            t.destination.shape.size() > t.source.shape.size()) {
            return problem(fmt::format("{}: source shape, source strides and destination strides differ in rank", name(in.id)));
        }
        const std::size_t e = elementBytesOf(t, m_g);
        const Buffer* from = memoryOf(in, t.source);
        const Buffer* to = memoryOf(in, t.destination);
        if (!from || !to) return;
        compiler::Access dst = t.destination;
        dst.shape = t.source.shape; // the box moved is the source's
        const unsigned char* src = place(in, t.source, *from, srcStrides, e, "source");
        unsigned char* d = place(in, dst, *to, dstStrides, e, "destination");
        if (!src || !d) return;
        if (to == &m_m.main && !storesOutsideWeights(in, dst, dstStrides, e))
            return;
        Copy copy = merged(t.source.shape, dstStrides, srcStrides, e);
        if (copy.rank < 0) return problem(fmt::format("{}: more than {} dims", name(in.id), rt::kMaxRank));
        copy.src = src;
        copy.dst = d;
        out.copies.push_back(copy);
        for (int core : t.alsoTo) {
            compiler::Access also = dst;
            also.instance = core;
            const Buffer* memory = memoryOf(in, also);
            if (!memory) return;
            unsigned char* a = place(in, also, *memory, dstStrides, e, "broadcast destination");
            if (!a) return;
            copy.dst = a;
            out.copies.push_back(copy);
        }
    }

    // Drops size-1 dims and merges neighbours contiguous on both sides (compiler/MergedCopy.h),
    // so most copies are one or a few long memcpy runs. rank -1 when more dims than strata_rt
    // handles remain.
    static Copy merged(const ir::Shape& shape, const std::vector<std::int64_t>& ds, const std::vector<std::int64_t>& ss,
                       std::size_t e) {
        const compiler::MergedCopy m = compiler::mergeCopyDims(shape, ds, ss);
        if (m.empty) return Copy{.rank = 1, .elementBytes = e}; // shape {0}: moves nothing
        Copy c;
        c.elementBytes = e;
        if (m.extents.size() > static_cast<std::size_t>(rt::kMaxRank)) {
            c.rank = -1;
            return c;
        }
        c.rank = static_cast<int>(m.extents.size());
        std::copy(m.extents.begin(), m.extents.end(), c.shape);
        std::copy(m.dstStrides.begin(), m.dstStrides.end(), c.dstStrides);
        std::copy(m.srcStrides.begin(), m.srcStrides.end(), c.srcStrides);
        return c;
    }

    void compute(const compiler::Instruction& in, const compiler::Compute& c, PreparedInstruction& out) {
        const ir::Op& op = m_g.op(in.from.op);
        auto call = compiler::lowerCompute(m_g, op, c);
        if (!call) {
            for (const Diagnostic& d : call.diagnostics())
                if (std::none_of(m_d.begin(), m_d.end(), [&](const Diagnostic& e) { return e.message == "host runtime: " + d.message; }))
                    problem(d.message);
            return;
        }
        PreparedCompute prepared;
        bool ok = true;
        bind(in, *call, prepared, ok);
        if (ok && call->kernel == compiler::Kernel::Resize) {
            std::string why;
            prepared.resize = planResize(m_g, op, prepared.output, prepared.inputs[0], why);
            // Bounds inference gives a tile every input element its taps read; a box without them
            // would be a compiler bug, reported rather than computed from elements it lacks.
            if (!prepared.resize)
                return problem(fmt::format("{}: {} '{}': {}", name(in.id), op.type, op.name, why));
        }
        if (!ok) return;
        if (call->kernel == compiler::Kernel::Conv2d && call->hasInput(1) &&
            m_g.value(call->inputs[1].value).isConstant)
            prepared.constantWeights = static_cast<std::int64_t>(call->inputs[1].value.index);
        prepared.call = std::move(*call);
        out.compute = static_cast<std::uint32_t>(m_out.computes.size());
        m_out.computes.push_back(std::move(prepared));
    }

    // The operand views of a lowered compute in the issuing core's scratch.
    void bind(const compiler::Instruction& in, const compiler::KernelCall& call,
              PreparedCompute& prepared, bool& ok) {
        const Buffer& scratch = m_m.scratch[static_cast<std::size_t>(in.core)];
        for (const compiler::KernelView& v : call.inputs)
            prepared.inputs.push_back(view(in, v, scratch, ok));
        prepared.output = view(in, call.outputs[0], scratch, ok);
        if (call.kernel == compiler::Kernel::Split || call.kernel == compiler::Kernel::Reference)
            for (const compiler::KernelView& v : call.outputs)
                prepared.outputs.push_back(view(in, v, scratch, ok));
        if (call.kernel == compiler::Kernel::Reference)
            reference(in, call, prepared, ok);
        for (const compiler::KernelCall& step : call.epilogue) {
            PreparedCompute& bound = prepared.epilogue.emplace_back();
            bind(in, step, bound, ok);
            bound.call = step;
        }
    }

    // What the reference evaluator needs beyond the operand views: the op and the constants the
    // tile holds no box of (decoded once per program, shared by its tiles).
    void reference(const compiler::Instruction& in, const compiler::KernelCall& call,
                   PreparedCompute& prepared, bool& ok) {
        prepared.graph = &m_g;
        prepared.op = &m_g.op(in.from.op);
        for (const compiler::KernelView& v : call.inputs) {
            std::shared_ptr<const reference::Tensor>& constant = prepared.constants.emplace_back();
            if (!v.value.valid() || v.present || !m_g.value(v.value).isConstant)
                continue;
            std::shared_ptr<const reference::Tensor>& decoded = m_constants[v.value];
            if (!decoded) {
                auto tensor = reference::constantTensor(m_g.value(v.value));
                if (!tensor) {
                    ok = false;
                    problem(
                        fmt::format("{}: {}", name(in.id), tensor.diagnostics().front().message));
                    return;
                }
                decoded = std::make_shared<const reference::Tensor>(std::move(*tensor));
            }
            constant = decoded;
        }
    }

    rt::View<unsigned char> view(const compiler::Instruction& in, const compiler::KernelView& v, const Buffer& scratch,
                                 bool& ok) {
        rt::View<unsigned char> out;
        if (!v.value.valid()) return out;
        const std::size_t rank = v.full.size();
        if (rank > static_cast<std::size_t>(rt::kMaxRank)) {
            ok = false;
            problem(fmt::format("{}: operand '{}' has more than {} dims", name(in.id), m_g.value(v.value).name, rt::kMaxRank));
            return out;
        }
        out.rank = static_cast<int>(rank);
        std::copy(v.full.begin(), v.full.end(), out.full);
        if (!v.present) return out;
        bool fits = v.lo.size() == rank && v.ext.size() == rank;
        std::uint64_t elements = 1;
        for (std::size_t d = 0; fits && d < rank; ++d) {
            fits = v.lo[d] >= 0 && v.ext[d] >= 0 && v.lo[d] + v.ext[d] <= v.full[d];
            elements *= static_cast<std::uint64_t>(std::max<std::int64_t>(v.ext[d], 0));
        }
        const std::uint64_t bytes = elements * ir::dtypeSize(v.dtype);
        if (!fits || v.offset > scratch.size() || bytes > scratch.size() - v.offset) {
            ok = false;
            problem(fmt::format("{}: operand '{}' ({} bytes at offset {}) does not fit its tensor or the {}-byte working "
                                "memory",
                                name(in.id), m_g.value(v.value).name, bytes, v.offset, scratch.size()));
            return out;
        }
        out.data = scratch.data() + v.offset;
        std::copy(v.lo.begin(), v.lo.end(), out.lo);
        std::copy(v.ext.begin(), v.ext.end(), out.ext);
        rt::i64 s = 1;
        for (int d = out.rank; d-- > 0;) {
            out.stride[d] = s;
            s *= out.ext[d];
        }
        return out;
    }

    const compiler::Program& m_p;
    const target::Target& m_t;
    const ir::Graph& m_g;
    const Memories& m_m;
    std::vector<Diagnostic>& m_d;
    PreparedProgram m_out;
    std::unordered_map<ir::ValueId, std::shared_ptr<const reference::Tensor>> m_constants;
    std::size_t m_problems = 0;
};

} // namespace

std::uint64_t mainMemoryBytes(const compiler::Program& program, const ir::Graph& graph) {
    std::uint64_t bytes = std::max<std::uint64_t>(program.dramBytes, 1);
    for (const compiler::DramBuffer& b : program.dram) bytes = std::max(bytes, b.offset + b.bytes);
    // A compiled program's accesses lie inside its plan (prepare() checks it); one without a
    // plan (a microbenchmark) gets the memory its transfers touch.
    if (program.dramBytes > 0 || !program.dram.empty()) return bytes;
    for (const compiler::Instruction& in : program.instructions) {
        const auto* t = std::get_if<compiler::Transfer>(&in.body);
        if (!t) continue;
        const std::size_t e = elementBytesOf(*t, graph);
        for (const compiler::Access* a : {&t->source, &t->destination}) {
            if (a->memory != program.mainMemory) continue;
            const std::vector<std::int64_t> strides = stridesOf(*a);
            if (strides.size() != t->source.shape.size()) continue; // prepare() reports it
            if (auto end = boxEnd(a->offset, t->source.shape, strides, e)) bytes = std::max(bytes, *end);
        }
    }
    return bytes;
}

PreparedProgram prepare(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                        const Memories& memories, std::vector<Diagnostic>& diagnostics,
                        const emulator::CheckedProgram* checked) {
    return Preparer(program, target, graph, memories, diagnostics).run(checked);
}

} // namespace strata::runtime

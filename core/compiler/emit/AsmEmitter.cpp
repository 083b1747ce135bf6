#include "compiler/emit/AsmEmitter.h"

#include "base/Units.h"

#include <fmt/format.h>

#include <cctype>

namespace strata::compiler {
namespace {

std::string dims(const ir::Shape& shape) { return shape.empty() ? "1" : ir::shapeToString(shape); }

std::string access(const Access& a, bool withStrides) {
    std::string out = fmt::format("{}.{}+0x{:x}[{}", a.memory, a.instance, a.offset, dims(a.shape));
    if (withStrides) {
        out += " s";
        for (std::size_t d = 0; d < a.strides.size(); ++d) out += (d ? "," : "") + std::to_string(a.strides[d]);
    }
    return out + "]";
}

// A blocked box names its layout: "L2BM.0+0x40[1x64x16x16 nhwc]" (row-major: nothing).
std::string operand(const Operand& o, const std::string& memory, int core) {
    return fmt::format("{}.{}+0x{:x}[{}{}]", memory, core, o.offset, dims([&] {
                           ir::Shape s;
                           for (const auto& i : o.region) s.push_back(i.size());
                           return s;
                       }()),
                       o.channelBlock != 0 ? " " + layoutName(o.channelBlock) : "");
}

std::string where(const Instruction& in, const ir::Graph& g) {
    std::string out;
    if (in.from.block >= 0) out += "B" + std::to_string(in.from.block);
    if (in.from.tile >= 0) out += " tile " + std::to_string(in.from.tile);
    if (in.from.op.valid()) out += " " + g.op(in.from.op).name;
    return out;
}

// The listing's name of a step: the op type in lower case ("relu", "hardswish", "add").
std::string epilogueName(const std::string& opType) {
    std::string out = opType;
    for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

std::string line(const Instruction& in, const Program& p, const ir::Graph& g) {
    return fmt::format("i{:06}  {}", in.id, instructionText(in, p, g));
}

} // namespace

std::string instructionText(const Instruction& in, const Program& p, const ir::Graph& g) {
    if (const auto* t = std::get_if<Transfer>(&in.body)) {
        bool load = t->destination.memory == p.workingMemory;
        const std::string kind = !load ? "store" : t->alsoTo.empty() ? "load" : "broadcast to every core:";
        // A channels-last box (and home) names its layout; its dims then run n, h, w, c.
        return fmt::format("{:<8} t{:<4} {} -> {}{}  ; {} {} {} · {}", t->path, t->tag,
                           access(t->source, load), access(t->destination, !load),
                           t->channelBlock != 0 ? " " + layoutName(t->channelBlock) : "", kind,
                           g.value(t->value).name, formatBytes(t->bytes), where(in, g));
    }
    if (const auto* w = std::get_if<Wait>(&in.body)) return fmt::format("{:<8} t{}", "wait", w->tag);
    if (const auto* c = std::get_if<Compute>(&in.body);
        c && c->isReorder() && c->inputs.size() == 1 && c->outputs.size() == 1) {
        // "reorder L2BM.0+0x40[1x64x16x16] nchw -> nhwc", in place.
        Operand box = c->inputs[0];
        box.channelBlock = 0;
        return fmt::format(
            "{:<8} {} {} -> {}  ; {} {} · {}", "reorder", operand(box, p.workingMemory, in.core),
            layoutName(c->inputs[0].channelBlock), layoutName(c->outputs[0].channelBlock),
            g.value(box.value).name,
            formatBytes(tiling::regionBytes(box.region, g.value(box.value).dtype)), where(in, g));
    }
    if (const auto* c = std::get_if<Compute>(&in.body)) {
        std::string outs, ins;
        for (const Operand& o : c->outputs) outs += (outs.empty() ? "" : ", ") + operand(o, p.workingMemory, in.core);
        for (const Operand& o : c->inputs) ins += (ins.empty() ? "" : ", ") + operand(o, p.workingMemory, in.core);
        // A fused epilogue: "+relu +add(scratch.0+0x2000[1x64x7x7])", each step in order.
        std::string steps;
        double flops = c->flops;
        for (const EpilogueStep& s : c->epilogue) {
            steps += " +" + epilogueName(s.opType);
            std::string others;
            for (const Operand& o : s.others) others += (others.empty() ? "" : ", ") + operand(o, p.workingMemory, in.core);
            if (!others.empty()) steps += "(" + others + ")";
            flops += s.flops;
        }
        std::string fused;
        for (const EpilogueStep& s : c->epilogue) fused += " +" + g.op(s.op).name;
        // An accumulating compute adds to its output: "+<-".
        return fmt::format("{:<8} {} {} {}{}  ; {} FLOP · {}{}", c->opType, outs, c->accumulate ? "+<-" : "<-", ins,
                           steps, formatCount(flops), where(in, g), fused);
    }
    return fmt::format("{:<8} b{}", "barrier", std::get<Barrier>(in.body).id);
}

std::string emitAssembly(const Program& p, const ir::Graph& g) {
    std::string out;
    out += fmt::format("; Strata assembly (docs/ISA.md)\n; model {} ({}), target {}, {} cores\n", p.modelName,
                       p.modelHash, p.targetName, p.cores);
    out += fmt::format("; {} instructions: {} transfers ({}), {} computes, {} waits, {} barriers\n",
                       p.instructions.size(), p.count(InstrKind::Transfer), formatBytes(p.transferredBytes()),
                       p.count(InstrKind::Compute), p.count(InstrKind::Wait), p.count(InstrKind::Barrier));
    out += fmt::format("; {} plan: {}\n", p.mainMemory, formatBytes(p.dramBytes));
    for (const DramBuffer& b : p.dram)
        out += fmt::format(";   {}+0x{:x} {:>10} {:<12} {}{}\n", p.mainMemory, b.offset,
                           formatBytes(b.bytes), dramRoleName(b.role), g.value(b.value).name,
                           b.layout != 0 ? " " + layoutName(b.layout) : "");
    for (const BlockCode& b : p.blocks) {
        std::string cores;
        for (int c : b.cores) cores += (cores.empty() ? "" : ",") + std::to_string(c);
        out += fmt::format("; B{}: tile {}, {} tiles on cores {}, {} of {} per core\n", b.block, dims(b.tile), b.tiles,
                           cores, formatBytes(b.sramBytes), p.workingMemory);
    }
    for (std::size_t core = 0; core < p.streams.size(); ++core) {
        out += fmt::format("\n.core {}\n", core);
        int block = -2;
        for (InstrId id : p.streams[core]) {
            const Instruction& in = p.instructions[id];
            if (in.from.block != block && in.from.block >= 0) {
                block = in.from.block;
                out += fmt::format("; --- B{}\n", block);
            }
            out += line(in, p, g) + "\n";
        }
    }
    return out;
}

} // namespace strata::compiler

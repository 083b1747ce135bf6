#include "compiler/Program.h"

#include <algorithm>

namespace strata::compiler {

const char* instrKindName(InstrKind kind) {
    switch (kind) {
    case InstrKind::Transfer:
        return "transfer";
    case InstrKind::Wait:
        return "wait";
    case InstrKind::Compute:
        return "compute";
    case InstrKind::Barrier:
        return "barrier";
    }
    return "?";
}

const char* dramRoleName(DramBuffer::Role role) {
    switch (role) {
    case DramBuffer::Role::Input:
        return "input";
    case DramBuffer::Role::Output:
        return "output";
    case DramBuffer::Role::Weight:
        return "weight";
    case DramBuffer::Role::Intermediate:
        return "intermediate";
    }
    return "?";
}

std::string layoutName(int channelBlock) {
    if (channelBlock == kChannelsLast) return "nhwc";
    return channelBlock > 1 ? "nChw" + std::to_string(channelBlock) + "c" : "nchw";
}

const DramBuffer* Program::dramOf(ir::ValueId value) const {
    auto it = std::find_if(dram.begin(), dram.end(),
                           [&](const DramBuffer& b) { return b.value == value; });
    return it == dram.end() ? nullptr : &*it;
}

std::size_t Program::count(InstrKind kind) const {
    return static_cast<std::size_t>(
        std::count_if(instructions.begin(), instructions.end(),
                      [&](const Instruction& i) { return i.kind() == kind; }));
}

std::uint64_t Program::transferredBytes() const {
    std::uint64_t bytes = 0;
    for (const Instruction& i : instructions)
        if (const auto* t = std::get_if<Transfer>(&i.body))
            bytes += t->bytes;
    return bytes;
}

bool Instruction::computes(ir::OpId op) const {
    if (from.op == op)
        return op.valid();
    const auto* c = std::get_if<Compute>(&body);
    return c && std::any_of(c->epilogue.begin(), c->epilogue.end(),
                            [&](const EpilogueStep& s) { return s.op == op; });
}

} // namespace strata::compiler

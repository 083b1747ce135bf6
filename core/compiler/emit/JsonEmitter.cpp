#include "compiler/emit/JsonEmitter.h"

namespace strata::compiler {

using Json = nlohmann::json;

namespace {

Json region(const tiling::Region& r) {
    Json out = Json::array();
    for (const auto& i : r) out.push_back({i.begin, i.end});
    return out;
}

Json access(const Access& a) {
    return {{"memory", a.memory}, {"instance", a.instance}, {"offset", a.offset}, {"shape", a.shape}, {"strides", a.strides}};
}

Json operands(const std::vector<Operand>& list, const ir::Graph& g) {
    Json out = Json::array();
    for (const Operand& o : list) {
        out.push_back(
            {{"value", g.value(o.value).name}, {"offset", o.offset}, {"region", region(o.region)}});
        if (o.channelBlock != 0)
            out.back()["layout"] = layoutName(o.channelBlock); // row-major: absent
    }
    return out;
}

} // namespace

Json programToJson(const Program& p, const ir::Graph& g) {
    Json dram = Json::array();
    for (const DramBuffer& b : p.dram)
        dram.push_back({{"value", g.value(b.value).name}, {"offset", b.offset}, {"bytes", b.bytes}, {"role", dramRoleName(b.role)},
                        {"first_block", b.firstBlock}, {"last_block", b.lastBlock}});
    for (std::size_t i = 0; i < p.dram.size(); ++i)
        if (p.dram[i].layout != 0)
            dram[i]["layout"] = layoutName(p.dram[i].layout); // row-major: absent
    Json blocks = Json::array();
    for (const BlockCode& b : p.blocks)
        blocks.push_back({{"block", b.block}, {"tile", b.tile}, {"tiles", b.tiles}, {"cores", b.cores}, {"sram_bytes", b.sramBytes}});
    Json instructions = Json::array();
    for (const Instruction& in : p.instructions) {
        Json j = {{"id", in.id}, {"core", in.core}, {"kind", instrKindName(in.kind())}, {"block", in.from.block},
                  {"tile", in.from.tile}, {"op", in.from.op.valid() ? Json(g.op(in.from.op).name) : Json()}};
        if (const auto* t = std::get_if<Transfer>(&in.body)) {
            j.update({{"path", t->path}, {"tag", t->tag}, {"bytes", t->bytes}, {"value", g.value(t->value).name},
                      {"region", region(t->region)}, {"src", access(t->source)}, {"dst", access(t->destination)}});
            if (!t->alsoTo.empty()) j["also_to"] = t->alsoTo; // a broadcast: further cores receiving it
            if (t->channelBlock != 0)
                j["layout"] = layoutName(t->channelBlock); // the box's; row-major: absent
        } else if (const auto* w = std::get_if<Wait>(&in.body)) {
            j["tag"] = w->tag;
        } else if (const auto* c = std::get_if<Compute>(&in.body)) {
            j.update({{"op_type", c->opType}, {"flops", c->flops}, {"inputs", operands(c->inputs, g)},
                      {"outputs", operands(c->outputs, g)}});
            if (c->accumulate)
                j["accumulate"] = true; // adds to its outputs (an input-channel slice)
            if (!c->epilogue.empty()) {
                // Elementwise ops run on the output box in place, in order (docs/ISA.md).
                Json steps = Json::array();
                for (const EpilogueStep& s : c->epilogue)
                    steps.push_back({{"op", g.op(s.op).name}, {"op_type", s.opType}, {"flops", s.flops},
                                     {"input", g.value(s.input).name}, {"others", operands(s.others, g)}});
                j["epilogue"] = std::move(steps);
            }
        } else {
            j["barrier"] = std::get<Barrier>(in.body).id;
        }
        instructions.push_back(std::move(j));
    }
    return {{"strata_program", kProgramSchemaVersion},
            {"model", {{"name", p.modelName}, {"content_hash", p.modelHash}}},
            {"target", p.targetName},
            {"cores", p.cores},
            {"main_memory", p.mainMemory},
            {"working_memory", p.workingMemory},
            {"dram_bytes", p.dramBytes},
            {"dram", dram},
            {"blocks", blocks},
            {"instructions", instructions},
            {"streams", p.streams}};
}

} // namespace strata::compiler

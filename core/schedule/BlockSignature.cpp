#include "schedule/BlockSignature.h"

#include <algorithm>
#include <cstring>

namespace strata::schedule {
namespace {

// Constants up to this size are part of the signature (Slice bounds, Reshape shapes, Gather
// indices change regions); bigger ones (weights) only by shape.
constexpr std::size_t kMaxSignedConstantBytes = 512;

class Writer {
  public:
    void integer(std::int64_t v) { m_out.append(reinterpret_cast<const char*>(&v), sizeof v); }
    void text(std::string_view s) {
        integer(static_cast<std::int64_t>(s.size()));
        m_out.append(s);
    }
    void bytes(const void* data, std::size_t size) {
        integer(static_cast<std::int64_t>(size));
        m_out.append(static_cast<const char*>(data), size);
    }
    void shape(const ir::Shape& shape) {
        integer(static_cast<std::int64_t>(shape.size()));
        for (std::int64_t d : shape) integer(d);
    }
    std::string take() { return std::move(m_out); }

  private:
    std::string m_out;
};

} // namespace

std::string blockSignature(const Block& block, const ir::Graph& graph) {
    Writer w;
    w.integer(block.mp);
    w.integer(block.buffering);
    w.integer(block.tile.isAuto() ? -1 : 1);
    if (block.tile.extents) w.shape(*block.tile.extents);

    auto inBlock = [&](ir::OpId op) { return std::binary_search(block.ops.begin(), block.ops.end(), op); };
    std::vector<ir::ValueId> externals;
    for (std::size_t p = 0; p < block.ops.size(); ++p) {
        const ir::Op& op = graph.op(block.ops[p]);
        w.text(op.type);
        w.text(op.domain);
        w.integer(static_cast<std::int64_t>(op.attributes.size()));
        for (const ir::Attribute& a : op.attributes) {
            w.text(a.name);
            w.text(ir::attributeToString(a.value));
        }
        w.integer(static_cast<std::int64_t>(op.inputs.size()));
        for (ir::ValueId in : op.inputs) {
            if (!in.valid()) {
                w.integer(-1);
                continue;
            }
            const ir::Value& v = graph.value(in);
            if (v.producer.valid() && inBlock(v.producer)) {
                // Inside: which op of the block and which of its outputs.
                auto at = std::lower_bound(block.ops.begin(), block.ops.end(), v.producer) - block.ops.begin();
                const auto& outs = graph.op(v.producer).outputs;
                w.integer(0);
                w.integer(at);
                w.integer(std::find(outs.begin(), outs.end(), in) - outs.begin());
                continue;
            }
            auto seen = std::find(externals.begin(), externals.end(), in);
            w.integer(1);
            w.integer(seen - externals.begin());
            if (seen != externals.end()) continue;
            externals.push_back(in);
            w.integer(static_cast<std::int64_t>(v.dtype));
            w.shape(v.shape);
            w.integer(v.isConstant ? 1 : 0);
            if (v.isConstant && v.data.size <= kMaxSignedConstantBytes) w.bytes(v.data.data, v.data.size);
        }
        w.integer(static_cast<std::int64_t>(op.outputs.size()));
        for (ir::ValueId out : op.outputs) {
            if (!out.valid()) {
                w.integer(-1);
                continue;
            }
            const ir::Value& v = graph.value(out);
            bool leaves = std::find(graph.outputs.begin(), graph.outputs.end(), out) != graph.outputs.end();
            for (ir::OpId c : v.consumers) leaves = leaves || !inBlock(c);
            w.integer(static_cast<std::int64_t>(v.dtype));
            w.shape(v.shape);
            w.integer(leaves ? 1 : 0);
            w.integer(v.consumers.empty() ? 0 : 1);
        }
    }
    return w.take();
}

} // namespace strata::schedule

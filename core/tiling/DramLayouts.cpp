#include "tiling/DramLayouts.h"

#include <algorithm>

namespace strata::tiling {
namespace {

// How an op treats the layouts of its operands (DramLayouts.h).
enum class Handling : std::uint8_t { Direct, Depthwise, Pointwise, Elementwise, Either, RowMajor };

bool isRank4(const ir::Graph& g, ir::ValueId v) {
    return v.valid() && v.index < g.values.size() && g.value(v).shape.size() == 4;
}

Handling convHandling(const ir::Graph& g, const ir::Op& op) {
    if (op.inputs.size() < 2 || op.outputs.empty() || !isRank4(g, op.inputs[0]) ||
        !isRank4(g, op.inputs[1]) || !isRank4(g, op.outputs[0]))
        return Handling::RowMajor;
    const ir::Shape& x = g.value(op.inputs[0]).shape;
    const ir::Shape& w = g.value(op.inputs[1]).shape;
    const std::int64_t group = op.attrInt("group", 1);
    if (group > 1 && group == x[1] && w[0] == group)
        return Handling::Depthwise;
    if (group != 1)
        return Handling::RowMajor;
    if (w[2] * w[3] > 1)
        return Handling::Direct;
    const auto nonZero = [](std::int64_t n) { return n != 0; };
    const auto notOne = [](std::int64_t n) { return n != 1; };
    const std::vector<std::int64_t> strides = op.attrInts("strides"), pads = op.attrInts("pads");
    if (std::any_of(pads.begin(), pads.end(), nonZero))
        return Handling::RowMajor;
    // A strided 1x1 (a downsampling projection) runs on the direct kernel channels-last.
    return std::any_of(strides.begin(), strides.end(), notOne) ? Handling::Direct
                                                               : Handling::Pointwise;
}

// A [N, C, 1, 1] value of y's batch and channels: the same bytes in either layout.
bool channelVectorOf(const ir::Shape& v, const ir::Shape& y) {
    return v.size() == 4 && v[0] == y[0] && v[1] == y[1] && v[2] == 1 && v[3] == 1;
}

// An elementwise op whose non-constant inputs all have its output's shape or are channel vectors
// (a squeeze-excite's scale), and some input has it (constants: scalars).
bool sameShapeElementwise(const ir::Graph& g, const ir::Op& op) {
    if (op.opClass != ir::OpClass::Elementwise || op.type == "Resize" || op.outputs.size() != 1 ||
        !isRank4(g, op.outputs[0]))
        return false;
    const ir::Shape& y = g.value(op.outputs[0]).shape;
    bool whole = false;
    for (ir::ValueId in : op.inputs) {
        if (!in.valid())
            continue;
        const ir::Value& v = g.value(in);
        whole = whole || (!v.isConstant && v.shape == y);
        if (v.isConstant ? v.elements() != 1 : v.shape != y && !channelVectorOf(v.shape, y))
            return false;
    }
    return whole;
}

Handling handlingOf(const ir::Graph& g, const ir::Op& op) {
    if (op.type == "Conv")
        return convHandling(g, op);
    // A global pool sums channels-last positions as fast as row-major planes.
    if ((op.type == "GlobalAveragePool" || op.type == "GlobalMaxPool") && op.inputs.size() == 1 &&
        isRank4(g, op.inputs[0]))
        return Handling::Either;
    return sameShapeElementwise(g, op) ? Handling::Elementwise : Handling::RowMajor;
}

class Chooser {
  public:
    Chooser(const ir::Graph& g, int granule)
        : m_g(g), m_layout(g.values.size(), 0), m_eligible(g.values.size(), 0),
          m_bytes(g.values.size(), 0) {
        for (const ir::Op& op : g.ops)
            m_handling.push_back(handlingOf(g, op));
        if (granule <= 1)
            return;
        for (std::size_t i = 0; i < g.values.size(); ++i) {
            const ir::Value& v = g.values[i];
            m_bytes[i] = static_cast<double>(v.bytes());
            const ir::ValueId id{static_cast<std::uint32_t>(i)};
            const bool boundary =
                std::find(g.inputs.begin(), g.inputs.end(), id) != g.inputs.end() ||
                std::find(g.outputs.begin(), g.outputs.end(), id) != g.outputs.end();
            m_eligible[i] = !boundary && !v.isConstant && v.producer.valid() &&
                            v.dtype == ir::DType::Float32 && v.shape.size() == 4 &&
                            v.shape[1] > 0 && v.shape[1] % granule == 0 &&
                            v.shape[2] * v.shape[3] > 1;
            m_layout[i] = m_eligible[i] ? kChannelsLast : 0;
        }
    }

    std::vector<int> run() {
        constexpr int kMaxSweeps = 20; // a guard: each sweep only lowers the total cost
        for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
            bool changed = false;
            for (std::size_t i = 0; i < m_layout.size(); ++i) {
                if (!m_eligible[i])
                    continue;
                const int best = cheaper(i);
                changed = changed || best != m_layout[i];
                m_layout[i] = best;
            }
            if (!changed)
                break;
        }
        return m_layout;
    }

  private:
    bool last(ir::ValueId v) const { return v.valid() && m_layout[v.index] == kChannelsLast; }
    double bytes(ir::ValueId v) const { return v.valid() ? m_bytes[v.index] : 0; }

    // The reordered (or copied) bytes `op` costs with the layouts as they are now.
    double cost(const ir::Op& op, Handling h) const {
        switch (h) {
        case Handling::Direct:
            return (last(op.inputs[0]) ? 0 : bytes(op.inputs[0])) +
                   (last(op.outputs[0]) ? 0 : bytes(op.outputs[0]));
        case Handling::Depthwise:
            return last(op.inputs[0]) ? 0 : bytes(op.inputs[0]);
        case Handling::Pointwise: {
            const ir::ValueId x = op.inputs[0], y = op.outputs[0];
            if (last(x) != last(y))
                return last(x) ? bytes(y) : bytes(x);
            return last(x) ? 0 : 0.25 * (bytes(x) + bytes(y));
        }
        case Handling::Elementwise: {
            double sum = 0;
            const ir::Shape& y = m_g.value(op.outputs[0]).shape;
            for (ir::ValueId in : op.inputs)
                if (in.valid() && !m_g.value(in).isConstant && m_g.value(in).shape == y &&
                    last(in) != last(op.outputs[0]))
                    sum += bytes(in);
            return sum;
        }
        case Handling::Either:
            return 0;
        case Handling::RowMajor: {
            double sum = 0;
            for (const auto* list : {&op.inputs, &op.outputs})
                for (ir::ValueId v : *list)
                    if (last(v))
                        sum += bytes(v);
            return sum;
        }
        }
        return 0;
    }

    // The cost of the ops that write and read value i.
    double around(std::size_t i) const {
        const ir::Value& v = m_g.values[i];
        double sum = cost(m_g.op(v.producer), m_handling[v.producer.index]);
        for (ir::OpId op : v.consumers)
            if (op != v.producer)
                sum += cost(m_g.op(op), m_handling[op.index]);
        return sum;
    }

    // The layout of lower cost for value i, the others as they are; ties row-major.
    int cheaper(std::size_t i) {
        const int now = m_layout[i];
        m_layout[i] = 0;
        const double rowMajor = around(i);
        m_layout[i] = kChannelsLast;
        const double channelsLast = around(i);
        m_layout[i] = now;
        return channelsLast < rowMajor ? kChannelsLast : 0;
    }

    const ir::Graph& m_g;
    std::vector<Handling> m_handling; // per op
    std::vector<int> m_layout;        // per value
    std::vector<std::uint8_t> m_eligible;
    std::vector<double> m_bytes;
};

} // namespace

std::vector<int> chooseDramLayouts(const ir::Graph& graph, int channelGranule) {
    return Chooser(graph, channelGranule).run();
}

} // namespace strata::tiling

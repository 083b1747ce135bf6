#include "runtime/ResizeKernel.h"

#include "ir/ConstantValues.h"
#include "reference/ResizeTaps.h"

#include <algorithm>

namespace strata::runtime {
namespace {

std::vector<double> constantOr(const ir::Graph& g, const ir::Op& op, std::size_t i) {
    if (i >= op.inputs.size() || !op.inputs[i].valid())
        return {};
    return ir::constantFloats(g, op.inputs[i]).value_or(std::vector<double>{});
}

} // namespace

std::shared_ptr<const ResizePlan> planResize(const ir::Graph& graph, const ir::Op& op,
                                             const rt::View<unsigned char>& y,
                                             const rt::View<unsigned char>& x, std::string& why) {
    const ir::Shape& in = graph.value(op.inputs[0]).shape;
    const ir::Shape& out = graph.value(op.outputs[0]).shape;
    const auto rank = static_cast<std::size_t>(y.rank);
    if (!x.data || x.rank != y.rank || in.size() != rank || out.size() != rank) {
        why = "operand boxes do not match the op's ranks";
        return nullptr;
    }
    const reference::ResizeParams params =
        reference::resizeParams(op, constantOr(graph, op, 1), constantOr(graph, op, 2), in, out);
    if (params.scales.size() != rank || params.lengths.size() != rank) {
        why = "scales do not match the rank";
        return nullptr;
    }
    auto plan = std::make_shared<ResizePlan>();
    plan->rank = y.rank;
    plan->taps.resize(rank);
    plan->offsets.resize(rank);
    plan->weights.resize(rank);
    for (std::size_t d = 0; d < rank; ++d) {
        std::vector<std::vector<reference::ResizeTap>> taps;
        std::size_t most = 1;
        for (rt::i64 j = 0; j < y.ext[d]; ++j) {
            taps.push_back(reference::resizeTaps(params, d, y.lo[d] + j, in[d], rank));
            if (taps.back().empty()) {
                why = "an output coordinate extrapolates";
                return nullptr;
            }
            most = std::max(most, taps.back().size());
        }
        plan->taps[d] = static_cast<int>(most);
        for (const auto& list : taps)
            for (std::size_t t = 0; t < most; ++t) {
                const reference::ResizeTap& tap = list[std::min(t, list.size() - 1)];
                if (tap.index < x.lo[d] || tap.index >= x.lo[d] + x.ext[d]) {
                    why = "a tap lies outside the input box";
                    return nullptr;
                }
                plan->offsets[d].push_back((tap.index - x.lo[d]) * x.stride[d]);
                plan->weights[d].push_back(t < list.size() ? static_cast<float>(tap.weight) : 0.0f);
            }
    }
    return plan;
}

void runResize(const ResizePlan& plan, const rt::View<float>& y, const rt::View<float>& x) {
    const int rank = plan.rank;
    if (rank == 0) {
        y.data[0] = x.data[0];
        return;
    }
    const int last = rank - 1;
    const rt::i64 n = y.ext[last];
    const int lastTaps = plan.taps[static_cast<std::size_t>(last)];
    const rt::i64* lastOffsets = plan.offsets[static_cast<std::size_t>(last)].data();
    const float* lastWeights = plan.weights[static_cast<std::size_t>(last)].data();
    // The input rows (offset, weight) an output row sums: one tap per outer dim.
    std::vector<std::pair<rt::i64, float>> rows;
    rt::i64 at[rt::kMaxRank] = {};
    for (int d = 0; d < last; ++d)
        if (y.ext[d] == 0)
            return;
    if (n == 0)
        return;
    float* out = y.data;
    while (true) {
        rows.assign(1, {0, 1.0f});
        for (int d = 0; d < last; ++d) {
            const auto dd = static_cast<std::size_t>(d);
            const int k = plan.taps[dd];
            const std::size_t first = static_cast<std::size_t>(at[d]) * static_cast<std::size_t>(k);
            const std::size_t count = rows.size();
            for (std::size_t r = 0; r < count; ++r) {
                const auto base = rows[r];
                rows[r] = {base.first + plan.offsets[dd][first],
                           base.second * plan.weights[dd][first]};
                for (int t = 1; t < k; ++t)
                    if (const float w = plan.weights[dd][first + static_cast<std::size_t>(t)];
                        w != 0.0f)
                        rows.push_back(
                            {base.first + plan.offsets[dd][first + static_cast<std::size_t>(t)],
                             base.second * w});
            }
        }
        for (rt::i64 j = 0; j < n; ++j) {
            const rt::i64* offsets = lastOffsets + j * lastTaps;
            const float* weights = lastWeights + j * lastTaps;
            float acc = 0.0f;
            for (const auto& [row, rowWeight] : rows) {
                const float* xr = x.data + row;
                float s = 0.0f;
                for (int t = 0; t < lastTaps; ++t)
                    s += weights[t] * xr[offsets[t]];
                acc += rowWeight * s;
            }
            out[j] = acc;
        }
        out += n;
        if (last == 0)
            return;
        int d = last;
        while (d > 0) {
            --d;
            if (++at[d] < y.ext[d])
                break;
            at[d] = 0;
            if (d == 0)
                return;
        }
    }
}

} // namespace strata::runtime

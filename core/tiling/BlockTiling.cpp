#include "tiling/BlockTiling.h"

#include "tiling/SlotPacking.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

namespace strata::tiling {

std::int64_t TileGrid::tileCount() const {
    std::int64_t n = 1;
    for (std::int64_t c : counts) {
        if (c == 0)
            return 0;
        if (n > std::numeric_limits<std::int64_t>::max() / c)
            return std::numeric_limits<std::int64_t>::max();
        n *= c;
    }
    return n;
}

std::vector<std::int64_t> TileGrid::position(std::int64_t index) const {
    std::vector<std::int64_t> pos(counts.size(), 0);
    for (std::size_t d = counts.size(); d-- > 0;) {
        pos[d] = index % counts[d];
        index /= counts[d];
    }
    return pos;
}

TileGrid makeGrid(const ir::Shape& anchorShape, const ir::Shape& extents,
                  std::int64_t sliceChannels) {
    assert(anchorShape.size() == extents.size());
    TileGrid grid;
    grid.extents = extents;
    grid.sliceChannels = std::max<std::int64_t>(0, sliceChannels);
    for (std::size_t d = 0; d < anchorShape.size(); ++d) {
        std::int64_t e = std::max<std::int64_t>(1, extents[d]);
        grid.extents[d] = e;
        grid.counts.push_back((anchorShape[d] + e - 1) / e);
    }
    return grid;
}

Region channelSlice(Region region, std::int64_t sliceChannels, std::int64_t index,
                    std::int64_t channels) {
    if (region.size() < 2 || sliceChannels <= 0)
        return region;
    region[1].begin = std::min(channels, index * sliceChannels);
    region[1].end = std::min(channels, region[1].begin + sliceChannels);
    return region;
}

namespace {

// Slice `position` of `counts` equal parts along each dimension of `shape`.
std::optional<Region> proportionalSlice(const ir::Shape& shape,
                                        const std::vector<std::int64_t>& counts,
                                        const std::vector<std::int64_t>& position) {
    Region r(shape.size());
    for (std::size_t d = 0; d < shape.size(); ++d) {
        r[d].begin = position[d] * shape[d] / counts[d];
        r[d].end = (position[d] + 1) * shape[d] / counts[d];
    }
    if (regionEmpty(r))
        return std::nullopt;
    return r;
}

} // namespace

struct BlockTiler::TileResult {
    double flops = 0;
    double elements = 0;
    std::uint64_t writeBytes = 0;
    std::uint64_t wholeWeightBytes = 0;
    std::uint64_t peakBytes = 0; // with this tile's whole inputs resident
    std::uint64_t slotBytes = 0;
    std::vector<std::optional<Region>> inputRegions; // per block input
    std::vector<std::size_t> wholeInputs;            // local indices of inputs read whole
    struct Item {
        std::size_t local;
        bool whole; // an input this tile reads whole
        Lifetime life;
    };
    std::vector<Item> items; // every value the tile holds, local order
};

BlockTiler::BlockTiler(const ir::Graph& graph, std::span<const ir::OpId> ops,
                       std::int64_t channelGranule)
    : m_graph(graph), m_ops(ops.begin(), ops.end()),
      m_granule(std::max<std::int64_t>(1, channelGranule)) {
    assert(!m_ops.empty());
    assert(std::is_sorted(m_ops.begin(), m_ops.end()));

    auto addLocal = [&](ir::ValueId id, int producedAt) {
        m_localIndex.emplace_back(id.index, static_cast<int>(m_localValues.size()));
        m_localValues.push_back(id);
        m_producedAt.push_back(producedAt);
    };
    std::vector<std::uint32_t> produced;
    for (ir::OpId opId : m_ops)
        for (ir::ValueId out : graph.op(opId).outputs)
            if (out.valid())
                produced.push_back(out.index);
    std::sort(produced.begin(), produced.end());

    for (ir::OpId opId : m_ops)
        for (ir::ValueId in : graph.op(opId).inputs) {
            if (!in.valid() || std::binary_search(produced.begin(), produced.end(), in.index))
                continue;
            if (std::find(m_inputs.begin(), m_inputs.end(), in) != m_inputs.end())
                continue;
            m_inputs.push_back(in);
            addLocal(in, -1);
        }
    for (std::size_t p = 0; p < m_ops.size(); ++p)
        for (ir::ValueId out : graph.op(m_ops[p]).outputs)
            if (out.valid())
                addLocal(out, static_cast<int>(p));
    std::sort(m_localIndex.begin(), m_localIndex.end());
    for (ir::ValueId id : m_localValues)
        m_fullRegions.push_back(fullRegion(graph.value(id).shape));
    findSlicedOp();

    for (std::size_t l = m_inputs.size(); l < m_localValues.size(); ++l) {
        ir::ValueId id = m_localValues[l];
        const ir::Value& v = graph.value(id);
        bool leaves =
            std::find(graph.outputs.begin(), graph.outputs.end(), id) != graph.outputs.end();
        for (ir::OpId c : v.consumers)
            leaves = leaves || !inBlock(c);
        if (!leaves)
            continue;
        m_outputs.push_back(id);
    }
    // The anchor is the output made last; a block whose results are all unused anchors on the
    // last op's first output.
    int anchorAt = -1;
    for (ir::ValueId out : m_outputs) {
        int at = m_producedAt[localIndex(out)];
        if (at > anchorAt) {
            anchorAt = at;
            m_anchor = out;
        }
    }
    if (!m_anchor.valid()) {
        for (ir::ValueId out : graph.op(m_ops.back()).outputs)
            if (out.valid()) {
                m_anchor = out;
                break;
            }
        m_outputs.push_back(m_anchor);
    }
    findChannelDim();
}

const ir::Shape& BlockTiler::anchorShape() const {
    return m_graph.value(m_anchor).shape;
}

int BlockTiler::localIndex(ir::ValueId id) const {
    auto it =
        std::lower_bound(m_localIndex.begin(), m_localIndex.end(), std::make_pair(id.index, -1));
    return it != m_localIndex.end() && it->first == id.index ? it->second : -1;
}

double BlockTiler::outputElements(ir::ValueId id) const {
    return static_cast<double>(std::max<std::int64_t>(0, m_graph.value(id).elements()));
}

bool BlockTiler::inBlock(ir::OpId op) const {
    return std::binary_search(m_ops.begin(), m_ops.end(), op);
}

void BlockTiler::findSlicedOp() {
    std::uint64_t largest = 0;
    for (std::size_t p = 0; p < m_ops.size(); ++p) {
        const ir::Op& op = m_graph.op(m_ops[p]);
        if (op.type != "Conv" || !op.domain.empty() || op.attrInt("group", 1) != 1 ||
            op.inputs.size() < 2)
            continue;
        const ir::ValueId x = op.inputs[0], w = op.inputs[1];
        if (!x.valid() || !w.valid() || x == w)
            continue;
        const int lx = localIndex(x), lw = localIndex(w);
        if (lx < 0 || lw < 0 || m_producedAt[static_cast<std::size_t>(lx)] >= 0 ||
            m_producedAt[static_cast<std::size_t>(lw)] >= 0)
            continue; // made in the block: its channels would have to be made slice by slice
        const ir::Value& xv = m_graph.value(x);
        const ir::Value& wv = m_graph.value(w);
        if (xv.shape.size() != 4 || wv.shape.size() != 4 || xv.dtype != ir::DType::Float32 ||
            wv.dtype != ir::DType::Float32 || xv.shape[1] < 2 || wv.shape[1] != xv.shape[1])
            continue;
        // Read by another op of the block, a slice would not be all that op needs.
        bool onlyHere = true;
        for (ir::ValueId v : {x, w})
            for (ir::OpId c : m_graph.value(v).consumers)
                onlyHere = onlyHere && (c == m_ops[p] || !inBlock(c));
        if (!onlyHere || wv.bytes() <= largest)
            continue;
        largest = wv.bytes();
        m_sliceAt = static_cast<int>(p);
        m_sliceInput = lx;
        m_sliceWeight = lw;
        m_sliceChannelCount = xv.shape[1];
    }
}

void BlockTiler::findChannelDim() {
    const ir::Shape& anchor = anchorShape();
    double most = -1;
    for (ir::OpId id : m_ops) {
        const ir::Op& op = m_graph.op(id);
        if (op.opClass != ir::OpClass::Conv && op.opClass != ir::OpClass::MatMul)
            continue;
        if (op.outputs.empty() || !op.outputs[0].valid())
            continue;
        const ir::Shape& out = m_graph.value(op.outputs[0]).shape;
        if (out.size() < 2 || out.size() != anchor.size())
            continue;
        // NCHW convolutions make channels in dimension 1, matrix products in the last.
        const std::size_t d = op.opClass == ir::OpClass::Conv ? 1 : out.size() - 1;
        if (out[d] != anchor[d] || op.cost.flops <= most)
            continue; // pooled or reshaped away
        most = op.cost.flops;
        m_channelDim = static_cast<int>(d);
    }
}

std::optional<std::size_t> BlockTiler::channelDim() const {
    if (m_channelDim < 0)
        return std::nullopt;
    return static_cast<std::size_t>(m_channelDim);
}

std::int64_t BlockTiler::halved(std::size_t d, std::int64_t extent, std::int64_t granule) const {
    if (extent <= 1)
        return extent;
    std::int64_t half = (extent + 1) / 2;
    if (granule > 1 && static_cast<int>(d) == m_channelDim) {
        half = (half + granule - 1) / granule * granule;
        if (half >= extent)
            return extent;
    }
    return half;
}

bool BlockTiler::isSlicedInput(std::size_t local, const TileGrid& grid) const {
    return grid.sliceChannels > 0 &&
           (static_cast<int>(local) == m_sliceInput || static_cast<int>(local) == m_sliceWeight);
}

Region BlockTiler::anchorRegion(const TileGrid& grid,
                                const std::vector<std::int64_t>& position) const {
    const ir::Shape& shape = anchorShape();
    Region r(shape.size());
    for (std::size_t d = 0; d < shape.size(); ++d) {
        r[d].begin = position[d] * grid.extents[d];
        r[d].end = std::min(shape[d], r[d].begin + grid.extents[d]);
    }
    return r;
}

BlockTiler::Demand BlockTiler::demand(const TileGrid& grid,
                                      const std::vector<std::int64_t>& position) const {
    Demand result;
    std::vector<std::optional<Region>>& demanded = result.regions;
    demanded.resize(m_localValues.size());

    // What this tile stores: its anchor tile and a proportional slice of the other outputs.
    for (ir::ValueId out : m_outputs) {
        const ir::Value& v = m_graph.value(out);
        std::optional<Region> slice;
        if (out == m_anchor)
            slice = anchorRegion(grid, position);
        else if (v.shape.size() == grid.counts.size())
            slice = proportionalSlice(v.shape, grid.counts, position);
        else if (std::all_of(position.begin(), position.end(),
                             [](std::int64_t p) { return p == 0; }))
            slice = fullRegion(v.shape);
        if (!slice || regionEmpty(*slice))
            continue;
        result.writeBytes += regionBytes(*slice, v.dtype);
        result.stores.emplace_back(out, *slice);
        demanded[localIndex(out)] = std::move(slice);
    }

    // Bounds inference, consumers before producers.
    std::vector<std::optional<Region>> outputRegions;
    for (std::size_t p = m_ops.size(); p-- > 0;) {
        const ir::Op& op = m_graph.op(m_ops[p]);
        outputRegions.clear();
        double fraction = 0;
        double elements = 0;
        for (ir::ValueId out : op.outputs) {
            outputRegions.push_back(out.valid() ? demanded[localIndex(out)] : std::nullopt);
            if (out.valid())
                elements += outputElements(out);
            if (const auto& r = outputRegions.back()) {
                std::int64_t total = m_graph.value(out).elements();
                if (total > 0)
                    fraction = std::max(fraction, static_cast<double>(regionElements(*r)) /
                                                      static_cast<double>(total));
            }
        }
        if (fraction == 0)
            continue; // nothing of this op is needed by this tile
        result.flops += op.cost.flops * fraction;
        result.elements += elements * fraction;
        result.computed.push_back(p);
        auto needs = inputRegions(m_graph, op, outputRegions);
        if (fraction >= 1.0)
            for (std::size_t i = 0; i < op.inputs.size() && i < needs.size(); ++i)
                if (op.inputs[i].valid() && needs[i] && m_graph.value(op.inputs[i]).isConstant)
                    result.wholeWeightBytes +=
                        regionBytes(*needs[i], m_graph.value(op.inputs[i]).dtype);
        if (grid.sliceChannels > 0 && static_cast<int>(p) == m_sliceAt)
            for (std::size_t i = 0; i < 2 && i < needs.size(); ++i)
                if (needs[i])
                    needs[i] = channelSlice(*needs[i], grid.sliceChannels, 0, m_sliceChannelCount);
        for (std::size_t i = 0; i < op.inputs.size() && i < needs.size(); ++i) {
            if (!op.inputs[i].valid() || !needs[i] || regionEmpty(*needs[i]))
                continue;
            auto& slot = demanded[localIndex(op.inputs[i])];
            slot = slot ? regionUnion(*slot, *needs[i]) : *needs[i];
        }
    }

    std::reverse(result.computed.begin(), result.computed.end());
    return result;
}

TilePlan BlockTiler::planTile(const TileGrid& grid, std::int64_t index) const {
    Demand d = demand(grid, grid.position(index));
    TilePlan plan;
    plan.anchor = anchorRegion(grid, grid.position(index));
    plan.flops = d.flops;
    plan.stores = std::move(d.stores);
    for (std::size_t l = 0; l < m_localValues.size(); ++l) {
        if (!d.regions[l])
            continue;
        if (l < m_inputs.size())
            plan.loads.emplace_back(m_localValues[l], *d.regions[l]);
        else
            plan.computed.emplace_back(m_localValues[l], *d.regions[l]);
    }
    for (std::size_t p : d.computed)
        plan.ops.push_back(m_ops[p]);
    if (grid.sliceChannels > 0 && m_sliceAt >= 0) {
        plan.slicedOp = m_ops[static_cast<std::size_t>(m_sliceAt)];
        plan.slicedChannels = m_sliceChannelCount;
        plan.sliceChannels = grid.sliceChannels;
    }
    return plan;
}

BlockTiler::TileResult BlockTiler::evaluateTile(const TileGrid& grid,
                                                const std::vector<std::int64_t>& position,
                                                int buffering) const {
    TileResult result;
    Demand d = demand(grid, position);
    result.flops = d.flops;
    result.elements = d.elements;
    result.writeBytes = d.writeBytes;
    result.wholeWeightBytes = d.wholeWeightBytes;
    const std::vector<std::optional<Region>>& demanded = d.regions;

    // Working memory, as the compiler lays it out (SlotPacking.h): inputs read whole stay
    // resident, loaded once; everything else of the tile is packed into a slot by lifetime
    // (positions among the ops the tile computes; stored values live to the end), and double
    // buffering keeps two slots so the next tile loads while this one computes.
    const int n = static_cast<int>(d.computed.size());
    std::vector<int> tilePosition(m_ops.size(), -1);
    for (int p = 0; p < n; ++p)
        tilePosition[d.computed[static_cast<std::size_t>(p)]] = p;
    std::vector<int> lastUse(m_localValues.size(), -1);
    for (int p = 0; p < n; ++p)
        for (ir::ValueId in : m_graph.op(m_ops[d.computed[static_cast<std::size_t>(p)]]).inputs)
            if (in.valid())
                lastUse[static_cast<std::size_t>(localIndex(in))] = p;
    std::vector<bool> stored(m_localValues.size(), false);
    for (const auto& [value, region] : d.stores)
        stored[static_cast<std::size_t>(localIndex(value))] = true;

    result.inputRegions.resize(m_inputs.size());
    std::uint64_t residentBytes = 0;
    for (std::size_t l = 0; l < m_localValues.size(); ++l) {
        if (!demanded[l])
            continue;
        const ir::Value& v = m_graph.value(m_localValues[l]);
        const bool isInput = l < m_inputs.size();
        const bool whole = isInput && *demanded[l] == m_fullRegions[l];
        // A sliced input is read from DRAM with all its channels, one slice at a time.
        if (isInput)
            result.inputRegions[l] =
                isSlicedInput(l, grid)
                    ? channelSlice(*demanded[l], m_sliceChannelCount, 0, m_sliceChannelCount)
                    : demanded[l];
        if (whole) {
            residentBytes += sramAligned(regionBytes(*demanded[l], v.dtype));
            result.wholeInputs.push_back(l);
        }
        int from =
            isInput ? 0 : std::max(0, tilePosition[static_cast<std::size_t>(m_producedAt[l])]);
        int to = stored[l] ? n - 1 : std::max(from, lastUse[l]);
        result.items.push_back({l, whole, Lifetime{regionBytes(*demanded[l], v.dtype), from, to}});
    }
    std::vector<Lifetime> items;
    for (const auto& item : result.items)
        if (!item.whole)
            items.push_back(item.life);
    result.slotBytes = packByLifetime(items).extent;
    result.peakBytes =
        residentBytes + result.slotBytes * static_cast<std::uint64_t>(std::max(1, buffering));
    return result;
}

BlockCost BlockTiler::evaluate(const TileGrid& grid, int buffering, int mp) const {
    BlockCost cost;
    cost.grid = grid;
    for (ir::OpId op : m_ops) {
        cost.unfusedFlops += m_graph.op(op).cost.flops;
        for (ir::ValueId out : m_graph.op(op).outputs)
            if (out.valid())
                cost.unfusedElements += outputElements(out);
    }

    const std::int64_t tiles = grid.tileCount();
    std::vector<std::uint64_t> readBytes(m_inputs.size(), 0);
    std::vector<std::optional<Region>> firstRegion(m_inputs.size());
    std::vector<bool> invariant(m_inputs.size(), true);
    std::vector<TileResult> all;
    all.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0, tiles)));
    for (std::int64_t t = 0; t < tiles; ++t) {
        all.push_back(evaluateTile(grid, grid.position(t), buffering));
        TileResult& tile = all.back();
        cost.flops += tile.flops;
        cost.elements += tile.elements;
        cost.dramWriteBytes += tile.writeBytes;
        // Each of the mp cores computes a whole op once anyway; the other tiles repeat it.
        if (t >= mp)
            cost.repeatedWeightBytes += tile.wholeWeightBytes;
        for (std::size_t i = 0; i < m_inputs.size(); ++i) {
            const auto& r = tile.inputRegions[i];
            if (t == 0)
                firstRegion[i] = r;
            else if (r != firstRegion[i])
                invariant[i] = false;
            if (r)
                readBytes[i] += regionBytes(*r, m_graph.value(m_inputs[i]).dtype);
        }
    }
    // Working memory as the compiler lays it out: the inputs every tile reads whole are resident
    // for the block; each tile packs the rest into its slot.
    std::vector<int> wholeIn(m_inputs.size(), 0);
    for (const TileResult& tile : all)
        for (std::size_t l : tile.wholeInputs)
            ++wholeIn[l];
    std::uint64_t residentBytes = 0;
    for (std::size_t l = 0; l < m_inputs.size(); ++l)
        if (tiles > 0 && wholeIn[l] == tiles)
            residentBytes +=
                sramAligned(regionBytes(m_fullRegions[l], m_graph.value(m_inputs[l]).dtype));
    std::uint64_t slotBytes = 0;
    std::vector<Lifetime> items;
    for (const TileResult& tile : all) {
        std::uint64_t extent = tile.slotBytes;
        bool partlyResident = false;
        for (std::size_t l : tile.wholeInputs)
            partlyResident = partlyResident || wholeIn[l] != tiles;
        if (partlyResident) {
            // An input whole in this tile but not in every tile is loaded into the slot after all.
            items.clear();
            for (const auto& item : tile.items)
                if (!item.whole || wholeIn[item.local] != tiles)
                    items.push_back(item.life);
            extent = packByLifetime(items).extent;
        }
        slotBytes = std::max(slotBytes, extent);
    }
    cost.sramResidentBytes = residentBytes;
    cost.sramSlotBytes = slotBytes;
    cost.sramSlots = std::max(1, buffering);
    cost.sramPeakBytes = residentBytes + slotBytes * static_cast<std::uint64_t>(cost.sramSlots);

    // An input every tile reads the same way is loaded once by each core that gets tiles; a
    // sliced one, slice after slice, by every tile.
    const std::uint64_t copies =
        static_cast<std::uint64_t>(std::clamp<std::int64_t>(tiles, 0, std::max(1, mp)));
    for (std::size_t i = 0; i < m_inputs.size(); ++i) {
        if (invariant[i] && firstRegion[i] && !isSlicedInput(i, grid))
            cost.dramReadBytes +=
                regionBytes(*firstRegion[i], m_graph.value(m_inputs[i]).dtype) * copies;
        else
            cost.dramReadBytes += readBytes[i];
    }
    return cost;
}

std::uint64_t BlockTiler::interiorFootprint(const TileGrid& grid, int buffering) const {
    if (grid.tileCount() == 0)
        return 0;
    // The middle tiles have the full extent and unclamped halos; with an even count the two
    // middle ones differ in which side is clamped, so take both.
    std::vector<std::int64_t> lower(grid.counts.size()), upper(grid.counts.size());
    for (std::size_t d = 0; d < grid.counts.size(); ++d) {
        lower[d] = (grid.counts[d] - 1) / 2;
        upper[d] = grid.counts[d] / 2;
    }
    std::uint64_t peak = evaluateTile(grid, lower, buffering).peakBytes;
    if (upper != lower)
        peak = std::max(peak, evaluateTile(grid, upper, buffering).peakBytes);
    return peak;
}

std::uint64_t BlockTiler::elementTileFootprint(int buffering) const {
    const ir::Shape& shape = anchorShape();
    const TileGrid grid = makeGrid(shape, ir::Shape(shape.size(), 1));
    if (grid.tileCount() == 0)
        return 0;
    // The middle tile, each dim moved to its first and last coordinate alone, and the two
    // corners: 2 * rank + 3 tiles, not every combination (fuse-max asks this of many blocks).
    std::vector<std::int64_t> middle(shape.size()), first(shape.size(), 0), last(shape.size());
    for (std::size_t d = 0; d < shape.size(); ++d) {
        middle[d] = grid.counts[d] / 2;
        last[d] = grid.counts[d] - 1;
    }
    std::vector<std::vector<std::int64_t>> positions{middle, first, last};
    for (std::size_t d = 0; d < shape.size(); ++d)
        for (std::int64_t at : {std::int64_t(0), last[d]}) {
            positions.push_back(middle);
            positions.back()[d] = at;
        }
    std::uint64_t peak = 0;
    for (const auto& position : positions)
        peak = std::max(peak, evaluateTile(grid, position, buffering).peakBytes);
    return peak;
}

BlockTiler::GridEstimate BlockTiler::estimate(const TileGrid& grid, int buffering, int mp) const {
    GridEstimate e;
    const std::int64_t tiles = grid.tileCount();
    if (tiles == 0)
        return e;
    std::vector<std::int64_t> lower(grid.counts.size()), upper(grid.counts.size());
    for (std::size_t d = 0; d < grid.counts.size(); ++d) {
        lower[d] = (grid.counts[d] - 1) / 2;
        upper[d] = grid.counts[d] / 2;
    }
    TileResult middle = evaluateTile(grid, lower, buffering);
    e.footprint = middle.peakBytes;
    if (upper != lower)
        e.footprint = std::max(e.footprint, evaluateTile(grid, upper, buffering).peakBytes);
    // A whole input is loaded once per core; anything else once per tile, as the middle one.
    const double copies = static_cast<double>(std::min<std::int64_t>(tiles, std::max(1, mp)));
    for (std::size_t i = 0; i < m_inputs.size(); ++i) {
        const auto& r = middle.inputRegions[i];
        if (!r)
            continue;
        const ir::Value& v = m_graph.value(m_inputs[i]);
        double bytes = static_cast<double>(regionBytes(*r, v.dtype));
        const bool once = *r == m_fullRegions[i] && !isSlicedInput(i, grid);
        e.dramBytes += once ? bytes * copies : bytes * static_cast<double>(tiles);
    }
    return e;
}

// Larger than any traffic or traffic-per-byte score a halving can have.
constexpr double kUnevenPenalty = 1e18;

double BlockTiler::coreImbalance(const TileGrid& grid, int mp) const {
    // Checking costs a bounds inference per tile; past a few tiles per core the deal evens out.
    constexpr std::int64_t kMaxCheckedTiles = 64;
    const std::int64_t tiles = grid.tileCount();
    if (mp < 2 || tiles < 2 || tiles > kMaxCheckedTiles)
        return 1.0;
    // The tiles' own spread, not the deal's: a tile count that is no multiple of the cores is
    // the traffic search's business; a tile doing none of the convolutions is not.
    std::vector<double> flops, elements;
    for (std::int64_t t = 0; t < tiles; ++t) {
        const Demand d = demand(grid, grid.position(t));
        flops.push_back(d.flops);
        elements.push_back(d.elements);
    }
    auto ratio = [](const std::vector<double>& work) {
        const double sum = std::accumulate(work.begin(), work.end(), 0.0);
        if (sum <= 0)
            return 1.0;
        return *std::max_element(work.begin(), work.end()) * static_cast<double>(work.size()) / sum;
    };
    return std::max(ratio(flops), ratio(elements));
}

std::optional<TileGrid> BlockTiler::chooseGrid(std::uint64_t capacityBytes, int buffering,
                                               std::int64_t minTiles) const {
    auto chosen = chooseAndEvaluate(capacityBytes, buffering, minTiles);
    if (!chosen)
        return std::nullopt;
    return chosen->grid;
}

std::optional<BlockCost> BlockTiler::chooseAndEvaluate(std::uint64_t capacityBytes, int buffering,
                                                       std::int64_t minTiles) const {
    if (auto cost = chooseAtGranule(capacityBytes, buffering, minTiles, m_granule))
        return cost;
    if (m_granule == 1 || m_channelDim < 0)
        return std::nullopt;
    // Whole vectors of channels single-buffered beat partial ones double-buffered: the caller
    // drops to single buffering.
    if (buffering > 1 && chooseAtGranule(capacityBytes, 1, minTiles, m_granule))
        return std::nullopt;
    auto cost = chooseAtGranule(capacityBytes, buffering, minTiles, 1);
    if (cost) {
        const auto d = static_cast<std::size_t>(m_channelDim);
        cost->partialVectors = cost->grid.counts[d] > 1 && cost->grid.extents[d] % m_granule != 0;
    }
    return cost;
}

std::optional<BlockCost> BlockTiler::chooseAtGranule(std::uint64_t capacityBytes, int buffering,
                                                     std::int64_t minTiles,
                                                     std::int64_t granule) const {
    auto whole = chooseWithSlices(capacityBytes, buffering, minTiles, 0, granule);
    if (whole || m_sliceAt < 0)
        return whole;
    // Slices are the last resort: where whole tiles fit single-buffered, those are better (the
    // weights stay resident, no slice waits for the one before), and the caller drops to them.
    if (buffering > 1 && chooseWithSlices(capacityBytes, 1, minTiles, 0, granule))
        return std::nullopt;
    // Halve the slice until a grid fits, then twice more: smaller slices allow larger tiles,
    // which re-read less, but cost more instructions.
    std::optional<BlockCost> best;
    int afterFit = 0;
    for (std::int64_t slice = (m_sliceChannelCount + 1) / 2;; slice = (slice + 1) / 2) {
        if (best && ++afterFit > 2)
            break;
        if (auto cost = chooseWithSlices(capacityBytes, buffering, minTiles, slice, granule);
            cost && (!best || cost->dramReadBytes < best->dramReadBytes))
            best = std::move(cost);
        if (slice == 1)
            break;
    }
    return best;
}

std::optional<BlockCost> BlockTiler::chooseWithSlices(std::uint64_t capacityBytes, int buffering,
                                                      std::int64_t minTiles,
                                                      std::int64_t sliceChannels,
                                                      std::int64_t granule) const {
    bool capped = false;
    auto start = shrinkToFit(capacityBytes, buffering, minTiles, sliceChannels, granule, capped);
    if (!start && capped)
        start = searchHalvedGrids(capacityBytes, buffering, minTiles, sliceChannels, granule);
    if (!start)
        return std::nullopt;
    return refine(std::move(*start), capacityBytes, buffering, minTiles, granule);
}

// Hill climbing from a grid that fits: grow one dimension, or grow one and shrink another,
// whichever lowers the estimated DRAM traffic most while every tile still fits and there are
// still enough tiles. Undoes the halving greedy's overshoot (e.g. splitting columns so far that
// a matmul's rows are re-read for each one).
BlockCost BlockTiler::refine(BlockCost best, std::uint64_t capacityBytes, int buffering,
                             std::int64_t minTiles, std::int64_t granule) const {
    const ir::Shape& shape = anchorShape();
    const int mp = static_cast<int>(std::clamp<std::int64_t>(minTiles, 1, 1 << 20));
    const std::int64_t wanted = std::min(minTiles, best.tiles());
    auto traffic = [](const BlockCost& c) { return static_cast<double>(c.dramReadBytes); };
    for (int step = 0; step < 64; ++step) {
        const double evenBound = std::max(kMaxCoreImbalance, coreImbalance(best.grid, mp));
        std::vector<std::pair<double, ir::Shape>> moves; // (estimated traffic, extents)
        const ir::Shape& at = best.grid.extents;
        auto consider = [&](ir::Shape extents) {
            TileGrid g = makeGrid(shape, extents, best.grid.sliceChannels);
            if (g.tileCount() < wanted || g.tileCount() > kMaxTilesPerBlock)
                return;
            GridEstimate e = estimate(g, buffering, mp);
            if (e.footprint <= capacityBytes && e.dramBytes < traffic(best))
                moves.emplace_back(e.dramBytes, std::move(extents));
        };
        for (std::size_t d = 0; d < at.size(); ++d) {
            if (at[d] >= shape[d])
                continue;
            ir::Shape grown = at;
            grown[d] = std::min(shape[d], at[d] * 2);
            consider(grown);
            for (std::size_t o = 0; o < at.size(); ++o) {
                if (o == d || halved(o, at[o], granule) == at[o])
                    continue;
                ir::Shape swapped = grown;
                swapped[o] = halved(o, at[o], granule);
                consider(swapped);
            }
        }
        std::sort(moves.begin(), moves.end());
        bool moved = false;
        for (auto& [estimated, extents] : moves) {
            BlockCost cost =
                evaluate(makeGrid(shape, extents, best.grid.sliceChannels), buffering, mp);
            if (cost.sramPeakBytes > capacityBytes || traffic(cost) >= traffic(best) ||
                coreImbalance(cost.grid, mp) > evenBound)
                continue;
            best = std::move(cost);
            moved = true;
            break;
        }
        if (!moved)
            break;
    }
    return best;
}

// The halving greedy takes the cut that saves the most working set per byte of extra traffic
// first; for a convolution with large weights that is output channels, down to one, after which
// its rows and columns must be cut so finely that the grid has too many tiles. A cut balanced
// between channels and rows can still fit (FCN's dilated 512-channel convs on 256 KiB: 2
// channels x 2 x 2 pixels, 50,176 tiles, where 1 channel needs 100,352). So when the greedy
// fails, every grid whose extents are the dims halved 0, 1, 2, ... times is estimated and the
// fitting one with the least traffic (enough tiles first) taken, checked tile by tile.
std::optional<BlockCost> BlockTiler::searchHalvedGrids(std::uint64_t capacityBytes, int buffering,
                                                       std::int64_t minTiles,
                                                       std::int64_t sliceChannels,
                                                       std::int64_t granule) const {
    constexpr std::size_t kMaxCandidates = 4096;
    const ir::Shape& shape = anchorShape();
    std::vector<std::vector<std::int64_t>> halvings; // per dim: its extent halved 0, 1, ... times
    std::size_t combinations = 1;
    for (std::size_t dim = 0; dim < shape.size(); ++dim) {
        std::vector<std::int64_t> e;
        for (std::int64_t x = std::max<std::int64_t>(1, shape[dim]);;) {
            e.push_back(x);
            const std::int64_t next = halved(dim, x, granule);
            if (next == x)
                break;
            x = next;
        }
        combinations *= e.size();
        if (combinations > kMaxCandidates)
            return std::nullopt;
        halvings.push_back(std::move(e));
    }
    const int mp = static_cast<int>(std::clamp<std::int64_t>(minTiles, 1, 1 << 20));
    std::vector<std::tuple<bool, double, ir::Shape>> fitting; // (too few tiles, traffic, extents)
    std::vector<std::size_t> at(shape.size(), 0);
    ir::Shape extents(shape.size());
    for (;;) {
        for (std::size_t d = 0; d < shape.size(); ++d)
            extents[d] = halvings[d][at[d]];
        const TileGrid grid = makeGrid(shape, extents, sliceChannels);
        if (grid.tileCount() <= kMaxTilesPerBlock) {
            const GridEstimate e = estimate(grid, buffering, mp);
            if (e.footprint <= capacityBytes)
                fitting.emplace_back(grid.tileCount() < minTiles, e.dramBytes, extents);
        }
        std::size_t d = shape.size();
        while (d > 0 && ++at[d - 1] == halvings[d - 1].size())
            at[--d] = 0;
        if (d == 0)
            break;
    }
    std::sort(fitting.begin(), fitting.end());
    // The estimate looks at the middle tiles; the first few candidates are checked whole.
    for (std::size_t i = 0; i < std::min<std::size_t>(fitting.size(), 8); ++i) {
        BlockCost cost =
            evaluate(makeGrid(shape, std::get<2>(fitting[i]), sliceChannels), buffering, mp);
        if (cost.sramPeakBytes <= capacityBytes)
            return cost;
    }
    return std::nullopt;
}

std::optional<BlockCost> BlockTiler::shrinkToFit(std::uint64_t capacityBytes, int buffering,
                                                 std::int64_t minTiles, std::int64_t sliceChannels,
                                                 std::int64_t granule, bool& capped) const {
    const ir::Shape& shape = anchorShape();
    ir::Shape extents = shape;
    for (auto& e : extents)
        e = std::max<std::int64_t>(1, e);
    TileGrid grid = makeGrid(shape, extents, sliceChannels);
    const int mp = static_cast<int>(std::clamp<std::int64_t>(minTiles, 1, 1 << 20));
    GridEstimate current = estimate(grid, buffering, mp);
    for (;;) {
        bool fits = current.footprint <= capacityBytes;
        if (fits && grid.tileCount() >= minTiles) {
            // The middle tiles are a heuristic; the grid is only taken when every tile fits.
            BlockCost cost = evaluate(grid, buffering, mp);
            if (cost.sramPeakBytes <= capacityBytes)
                return cost;
            fits = false;
        }
        // Halve one dimension. While the working set is too big, take the halving that costs
        // the least extra DRAM traffic per byte of working set saved (splitting output channels
        // re-reads inputs, splitting rows re-reads weights and halos); once it fits and only
        // more tiles are needed, the one that adds the least traffic.
        std::optional<TileGrid> best;
        capped = false;
        GridEstimate bestEstimate;
        double bestScore = 0;
        for (std::size_t d = 0; d < extents.size(); ++d) {
            const std::int64_t half = halved(d, extents[d], granule);
            if (half == extents[d])
                continue;
            ir::Shape candidate = extents;
            candidate[d] = half;
            TileGrid g = makeGrid(shape, candidate, sliceChannels);
            if (g.tileCount() > kMaxTilesPerBlock) {
                capped = true;
                continue;
            }
            GridEstimate e = estimate(g, buffering, mp);
            double extra = e.dramBytes - current.dramBytes;
            double saved =
                static_cast<double>(current.footprint) - static_cast<double>(e.footprint);
            double score;
            if (fits)
                score = extra;
            else if (saved > 0)
                score = extra / saved;
            else
                score = std::numeric_limits<double>::infinity(); // only if nothing saves
            // A cut that leaves the cores uneven work ranks after every even one.
            if (std::isfinite(score) && coreImbalance(g, mp) > kMaxCoreImbalance)
                score += kUnevenPenalty;
            // On a full tie, rows first for a channels-last anchor (preferRowCuts).
            const bool rows = m_rowCutsFirst && extents.size() == 4 && d == 2;
            bool better = !best || score < bestScore ||
                          (score == bestScore && (e.footprint < bestEstimate.footprint ||
                                                  (e.footprint == bestEstimate.footprint && rows)));
            if (better) {
                best = std::move(g);
                bestEstimate = e;
                bestScore = score;
            }
        }
        if (!best) {
            // Nothing left to halve: take the grid if it fits, though with fewer tiles than asked.
            if (current.footprint > capacityBytes)
                return std::nullopt;
            BlockCost cost = evaluate(grid, buffering, mp);
            if (cost.sramPeakBytes > capacityBytes)
                return std::nullopt;
            return cost;
        }
        grid = std::move(*best);
        extents = grid.extents;
        current = bestEstimate;
    }
}

} // namespace strata::tiling

#include "compiler/passes/ChooseLayouts.h"

#include "compiler/emit/KernelCall.h"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <unordered_map>

namespace strata::compiler {
namespace {

// The boxes of one core's working memory and their layouts, by value: a box not listed is
// row-major. A box is found by any offset inside it (a store may move part of it).
class LayoutState {
  public:
    struct Box {
        std::uint64_t begin = 0, end = 0;
        tiling::Region region;
        int block = 0;
    };

    const Box* find(ir::ValueId v, std::uint64_t offset) const {
        const auto it = m_boxes.find(v.index);
        if (it == m_boxes.end())
            return nullptr;
        for (const Box& b : it->second)
            if (b.begin <= offset && offset < b.end)
                return &b;
        return nullptr;
    }

    int layoutAt(ir::ValueId v, std::uint64_t offset) const {
        const Box* b = find(v, offset);
        return b ? b->block : 0;
    }

    // The bytes [begin, end) of v now hold `block` (0: row-major).
    void set(ir::ValueId v, std::uint64_t begin, std::uint64_t end, const tiling::Region& region,
             int block) {
        auto& boxes = m_boxes[v.index];
        std::erase_if(boxes, [&](const Box& b) { return b.begin < end && begin < b.end; });
        boxes.push_back({begin, end, region, block});
    }

  private:
    std::unordered_map<std::uint32_t, std::vector<Box>> m_boxes;
};

std::uint64_t bytesOf(const Operand& o, const ir::Graph& g) {
    return static_cast<std::uint64_t>(tiling::regionElements(o.region)) *
           ir::dtypeSize(g.value(o.value).dtype);
}

// Whether a rank-4 box holds one position per batch element ([N, C, 1, 1]): row-major and
// channels-last are the same bytes, so either is the other without a reorder.
bool onePosition(const tiling::Region& r) {
    return r.size() == 4 && r[2].end - r[2].begin == 1 && r[3].end - r[3].begin == 1;
}

// Whether two layouts of a box are the same bytes.
bool sameBytes(const tiling::Region& r, int a, int b) {
    return a == b ||
           (onePosition(r) && (a == 0 || a == kChannelsLast) && (b == 0 || b == kChannelsLast));
}

// Whether a box's channels (dim 1 of a rank-4 region) are whole blocks of `block`.
bool wholeBlocks(const tiling::Region& r, int block) {
    return r.size() == 4 && r[1].begin % block == 0 && (r[1].end - r[1].begin) % block == 0 &&
           r[1].end > r[1].begin;
}

// The layouts a convolution the blocked kernel runs reads and writes; nothing for any other
// compute (it reads and writes row-major boxes).
struct ConvLayouts {
    int input = 0, output = 0;
    bool everyInput = false; // an elementwise Zip: every input in `input`'s layout, not just x
};

// Whether every epilogue step of a compute runs on a box of another layout as it would on a
// row-major one: a Map, or a Zip with a box of the output's own region in the same layout (no
// broadcast).
bool stepsKeepLayout(const KernelCall& call, const Compute& c) {
    for (std::size_t i = 0; i < call.epilogue.size() && i < c.epilogue.size(); ++i) {
        const KernelCall& step = call.epilogue[i];
        if (step.kernel == Kernel::Map)
            continue;
        const auto& others = c.epilogue[i].others;
        if (step.kernel != Kernel::Zip || others.size() != 1 ||
            others[0].region != c.outputs[0].region)
            return false;
    }
    return true;
}

// A rank-4 convolution compute's kernel call (its whole input channels or a group's).
std::optional<KernelCall> convCall(const Instruction& in, const Compute& c, const ir::Graph& g) {
    if (c.opType != "Conv" || c.accumulate || c.outputs.size() != 1 || c.inputs.size() < 2 ||
        !in.from.op.valid())
        return std::nullopt;
    const ir::Op& op = g.op(in.from.op);
    if (op.inputs.empty() || c.inputs[0].value != op.inputs[0])
        return std::nullopt;
    auto call = lowerCompute(g, op, c);
    if (!call || call->kernel != Kernel::Conv2d || call->slicesChannels() ||
        c.inputs[0].region.size() != 4 || c.outputs[0].region.size() != 4)
        return std::nullopt;
    return std::optional<KernelCall>(std::move(*call));
}

// A pointwise convolution (1x1, stride 1, no padding, one group) whose input box holds all input
// channels and just the output's columns: one sgemm reads and writes either layout (the
// transposition is in its operand flags), so it takes its input as the last writer left it.
std::optional<KernelCall> pointwiseConv(const Instruction& in, const Compute& c,
                                        const ir::Graph& g) {
    auto call = convCall(in, c, g);
    if (!call || call->group != 1 || call->window[0] != 1 || call->window[1] != 1 ||
        call->window[2] != 1 || call->window[3] != 1 || call->window[4] != 0 ||
        call->window[5] != 0)
        return std::nullopt;
    const tiling::Region &x = c.inputs[0].region, &y = c.outputs[0].region;
    const ir::Shape& xShape = g.value(c.inputs[0].value).shape;
    if (xShape.size() == 4 && x[1].begin == 0 && x[1].end == xShape[1] && x[3] == y[3] &&
        x[2].begin <= y[2].begin && y[2].end <= x[2].end)
        return call;
    return std::nullopt;
}

// A depthwise convolution (one input and one output channel per group) of whole vectors of
// channels: channels-last, it sums its taps over vectors of channels with no plane copies
// (runtime/ChannelsLastConv.h). Its input box holds just the output box's channels.
bool depthwiseConv(const Instruction& in, const Compute& c, const ir::Graph& g, int granule) {
    const auto call = convCall(in, c, g);
    if (!call || granule <= 1 || call->group <= 1 || !stepsKeepLayout(*call, c))
        return false;
    const ir::Shape& xShape = g.value(c.inputs[0].value).shape;
    const ir::Shape& yShape = g.value(c.outputs[0].value).shape;
    return xShape.size() == 4 && yShape.size() == 4 && call->group == xShape[1] &&
           call->group == yShape[1] && wholeBlocks(c.outputs[0].region, granule) &&
           c.inputs[0].region[1] == c.outputs[0].region[1];
}

// An elementwise map (Relu, Clip, ...) over a box of its output's own region: it runs on a box of
// any layout as on a row-major one, so it keeps its input's layout.
bool elementwiseMap(const Instruction& in, const Compute& c, const ir::Graph& g) {
    if (c.outputs.size() != 1 || c.inputs.empty() || !c.epilogue.empty() || !in.from.op.valid() ||
        c.inputs[0].region != c.outputs[0].region || c.outputs[0].region.size() != 4)
        return false;
    const ir::Op& op = g.op(in.from.op);
    if (op.inputs.empty() || c.inputs[0].value != op.inputs[0])
        return false;
    const auto call = lowerCompute(g, op, c);
    return call && call->kernel == Kernel::Map;
}

// A box of a [N, C, 1, 1] value over the output box's batch and channels (a squeeze-excite's
// scale): its bytes are the same in either layout, so it is read as it lies.
bool channelVector(const Operand& o, const Operand& out, const ir::Graph& g) {
    const ir::Shape& shape = g.value(o.value).shape;
    return shape.size() == 4 && shape[2] == 1 && shape[3] == 1 && o.region.size() == 4 &&
           o.region[0] == out.region[0] && o.region[1] == out.region[1];
}

// An elementwise Zip (Add, Mul, ...) of boxes of its output's region, or of one such box and a
// channel vector: it runs on boxes of any one layout (the runtime walks them in memory order).
bool elementwiseZip(const Instruction& in, const Compute& c, const ir::Graph& g) {
    if (c.outputs.size() != 1 || c.inputs.size() < 2 || !c.epilogue.empty() ||
        !in.from.op.valid() || c.outputs[0].region.size() != 4)
        return false;
    bool whole = false;
    for (const Operand& o : c.inputs) {
        whole = whole || o.region == c.outputs[0].region;
        if (o.region != c.outputs[0].region && !channelVector(o, c.outputs[0], g))
            return false;
    }
    const auto call = lowerCompute(g, g.op(in.from.op), c);
    return whole && call && call->kernel == Kernel::Zip;
}

// The first input of a Zip that is a box of its output's region (a channel vector may come first:
// torchvision's squeeze-excite multiplies scale * x).
const Operand& zipBox(const Compute& c) {
    for (const Operand& o : c.inputs)
        if (o.region == c.outputs[0].region)
            return o;
    return c.inputs[0];
}

// A global average or max pool: channels-last, each position's channels are vectors added to
// the sums (strata_rt's globalPoolChannelsLast), as fast as row-major planes.
bool globalPool(const Instruction& in, const Compute& c, const ir::Graph& g, int granule) {
    if (granule <= 1 || c.outputs.size() != 1 || c.inputs.size() != 1 || !c.epilogue.empty() ||
        !in.from.op.valid() || c.inputs[0].region.size() != 4)
        return false;
    const auto call = lowerCompute(g, g.op(in.from.op), c);
    return call && call->kernel == Kernel::GlobalPool;
}

std::optional<ConvLayouts> blockedConv(const Instruction& in, const Compute& c, const ir::Graph& g,
                                       int granule) {
    if (granule <= 1)
        return std::nullopt;
    auto call = convCall(in, c, g);
    // A 1x1 window with a stride (ResNet's downsampling projection) runs on the direct kernel
    // too, between channels-last boxes only; stride 1 is pointwiseConv's.
    const bool oneByOne = call && call->window[0] * call->window[1] <= 1;
    if (!call || call->group != 1 || (oneByOne && call->window[2] == 1 && call->window[3] == 1) ||
        !stepsKeepLayout(*call, c))
        return std::nullopt;
    if (!wholeBlocks(c.outputs[0].region, granule))
        return std::nullopt;
    const tiling::Region& x = c.inputs[0].region;
    const ir::Shape& xShape = g.value(c.inputs[0].value).shape;
    const std::int64_t channels = xShape.size() == 4 ? xShape[1] : -1;
    bool wholeInput = wholeBlocks(x, granule) && x[1].begin == 0 && x[1].end == channels;
    // ... and the box holds just the rows and columns the taps read: the blocked kernel takes a
    // dense box only (one with a later reader's halo besides stays row-major).
    const tiling::Region& y = c.outputs[0].region;
    for (std::size_t d = 2; wholeInput && d < 4; ++d) {
        const std::int64_t k = call->window[d - 2], s = call->window[d], pad = call->window[d + 2],
                           dil = call->window[d + 4];
        const std::int64_t lo = std::max<std::int64_t>(y[d].begin * s - pad, 0);
        const std::int64_t hi = std::min((y[d].end - 1) * s - pad + (k - 1) * dil + 1, xShape[d]);
        wholeInput = x[d].begin == lo && x[d].end == hi;
    }
    if (oneByOne && !wholeInput)
        return std::nullopt;
    return ConvLayouts{wholeInput ? kChannelsLast : 0, kChannelsLast};
}

Compute reorder(const Operand& box, int from, int to) {
    Compute r;
    r.opType = kReorderOp;
    Operand in = box, out = box;
    in.channelBlock = from;
    out.channelBlock = to;
    r.inputs.push_back(std::move(in));
    r.outputs.push_back(std::move(out));
    return r;
}

class Chooser {
  public:
    Chooser(std::vector<Instruction>& instructions, std::vector<std::vector<InstrId>>& streams,
            const std::string& workingMemory, const ir::Graph& g, int granule)
        : m_instructions(instructions), m_streams(streams), m_workingMemory(workingMemory), m_g(g),
          m_granule(granule), m_before(instructions.size()) {}

    std::vector<std::int64_t> run() {
        if (m_granule > 1)
            for (std::size_t core = 0; core < m_streams.size(); ++core)
                walk(m_streams[core], static_cast<int>(core));
        return renumber();
    }

  private:
    // The stream positions of the computes after `at` that read `o` until something rewrites it,
    // each as its input 0 and the whole box where it lies; nothing when a transfer moves it out
    // or another read comes first, or when nothing reads it.
    std::optional<std::vector<std::size_t>>
    readers(const std::vector<InstrId>& stream, std::size_t at, const Operand& o, int core) const {
        const std::uint64_t end = o.offset + bytesOf(o, m_g);
        auto overlaps = [&](ir::ValueId v, std::uint64_t offset) {
            return v == o.value && o.offset <= offset && offset < end;
        };
        std::vector<std::size_t> found;
        auto done = [&]() -> std::optional<std::vector<std::size_t>> {
            if (found.empty())
                return std::nullopt;
            return found;
        };
        for (std::size_t i = at + 1; i < stream.size(); ++i) {
            const Instruction& in = m_instructions[stream[i]];
            if (const auto* t = std::get_if<Transfer>(&in.body)) {
                // A store into a channels-last home takes the box so (it stays as it is).
                if (t->source.memory == m_workingMemory && t->source.instance == core &&
                    overlaps(t->value, t->source.offset)) {
                    if (t->channelBlock != kChannelsLast)
                        return std::nullopt;
                    found.push_back(i);
                }
                if (t->destination.memory == m_workingMemory && t->destination.instance == core &&
                    overlaps(t->value, t->destination.offset))
                    return done();
                continue;
            }
            const auto* c = std::get_if<Compute>(&in.body);
            if (!c)
                continue;
            const Operand* read = nullptr;
            for (std::size_t k = 0; k < c->inputs.size(); ++k)
                if (overlaps(c->inputs[k].value, c->inputs[k].offset)) {
                    if (k != 0 && !elementwiseZip(in, *c, m_g))
                        return std::nullopt;
                    read = &c->inputs[k];
                }
            for (const EpilogueStep& step : c->epilogue)
                for (const Operand& other : step.others)
                    if (overlaps(other.value, other.offset))
                        return std::nullopt;
            if (read) {
                if (read->offset != o.offset || read->region != o.region)
                    return std::nullopt;
                found.push_back(i);
            }
            for (const Operand& w : c->outputs)
                if (overlaps(w.value, w.offset))
                    return done();
        }
        return done();
    }

    // Whether every reader of `o` after `at` gains by reading it channels-last (below).
    bool readersTakeChannelsLast(const std::vector<InstrId>& stream, std::size_t at,
                                 const Operand& o, int core, bool orPointwise,
                                 int depth = 0) const {
        const auto found = readers(stream, at, o, core);
        if (!found)
            return false;
        for (std::size_t i : *found)
            if (!takesChannelsLast(stream, i, core, orPointwise, depth))
                return false;
        return true;
    }

    // Whether the compute at stream position `at` gains by reading a channels-last box: a
    // convolution the blocked kernel runs on one, a depthwise convolution, a map passing it on to
    // such a reader; with `orPointwise`, a pointwise convolution too (it reads either layout at
    // no cost).
    bool takesChannelsLast(const std::vector<InstrId>& stream, std::size_t at, int core,
                           bool orPointwise, int depth = 0) const {
        const Instruction& in = m_instructions[stream[at]];
        if (const auto* t = std::get_if<Transfer>(&in.body))
            return t->channelBlock == kChannelsLast; // a store into a channels-last home
        const auto& c = std::get<Compute>(in.body);
        const auto conv = blockedConv(in, c, m_g, m_granule);
        if (conv && conv->input == kChannelsLast)
            return true;
        if (orPointwise && pointwiseConv(in, c, m_g))
            return true;
        // A depthwise convolution gains even when its output must be reordered for its reader
        // (a store, a squeeze-excite pool): the row-major kernel's plane copies cost more than
        // the reorder (MobileNetV2, EfficientNet-B0 fuse-max: 3-4x slower per tile).
        if (depthwiseConv(in, c, m_g, m_granule))
            return true;
        // A global pool reads either layout at the same speed; channels-last saves the reorder.
        if (orPointwise && globalPool(in, c, m_g, m_granule))
            return true;
        if (depth >= 3 || (!elementwiseMap(in, c, m_g) && !elementwiseZip(in, c, m_g)))
            return false;
        return readersTakeChannelsLast(stream, at, c.outputs[0], core, orPointwise, depth + 1);
    }

    // The layouts a compute reads (x) and writes: a blocked direct convolution's; a depthwise
    // convolution (writing what its readers want) or an elementwise map channels-last when its
    // input box already is; a pointwise one takes its input as it is and writes channels-last
    // when its next reader gains by it. Nothing for the rest.
    std::optional<ConvLayouts> layoutsOf(const Instruction& in, const Compute& c,
                                         const LayoutState& state,
                                         const std::vector<InstrId>& stream, std::size_t at,
                                         int core) const {
        if (auto conv = blockedConv(in, c, m_g, m_granule))
            return conv;
        if (m_granule <= 1)
            return std::nullopt;
        const int now = state.layoutAt(c.inputs[0].value, c.inputs[0].offset);
        // A depthwise convolution writes row-major for readers that want that (a store, a pool):
        // its kernel lays out each output row so while it is in cache, instead of a reorder of
        // the whole box after it.
        if (depthwiseConv(in, c, m_g, m_granule) && now == kChannelsLast)
            return ConvLayouts{
                kChannelsLast,
                readersTakeChannelsLast(stream, at, c.outputs[0], core, true) ? kChannelsLast : 0};
        if (elementwiseMap(in, c, m_g) && now == kChannelsLast)
            return ConvLayouts{kChannelsLast, kChannelsLast};
        // A Zip follows its first box's layout (a residual Add of two channels-last loads).
        if (elementwiseZip(in, c, m_g) &&
            state.layoutAt(zipBox(c).value, zipBox(c).offset) == kChannelsLast)
            return ConvLayouts{kChannelsLast, kChannelsLast, true};
        if (globalPool(in, c, m_g, m_granule) && now == kChannelsLast)
            return ConvLayouts{kChannelsLast, 0};
        if (const auto call = pointwiseConv(in, c, m_g)) {
            // Its steps run on the output box: a channels-last one takes Maps and same-box Zips.
            // A step's further box (a residual) would be reordered to the output's layout.
            bool othersLast = true;
            for (std::size_t i = 0; i < call->epilogue.size() && i < c.epilogue.size(); ++i)
                for (const Operand& o : c.epilogue[i].others)
                    othersLast = othersLast && (call->epilogue[i].kernel != Kernel::Zip ||
                                                state.layoutAt(o.value, o.offset) == kChannelsLast);
            const int out = stepsKeepLayout(*call, c) && othersLast &&
                                    readersTakeChannelsLast(stream, at, c.outputs[0], core, true)
                                ? kChannelsLast
                                : 0;
            if (now != kChannelsLast && out == 0)
                return std::nullopt;
            return ConvLayouts{now == kChannelsLast ? kChannelsLast : 0, out};
        }
        return std::nullopt;
    }

    void walk(const std::vector<InstrId>& stream, int core) {
        LayoutState state;
        for (std::size_t at = 0; at < stream.size(); ++at) {
            const InstrId id = stream[at];
            Instruction& in = m_instructions[id];
            if (auto* t = std::get_if<Transfer>(&in.body)) {
                // A store moves the box in its home's layout (the transfer's).
                if (t->source.memory == m_workingMemory && t->source.instance == core)
                    if (const LayoutState::Box* b = state.find(t->value, t->source.offset);
                        b && b->block != t->channelBlock) {
                        const Operand box{t->value, b->region, b->begin, b->block};
                        const LayoutState::Box now = *b;
                        if (!sameBytes(now.region, now.block, t->channelBlock))
                            insertBefore(id, in, box, t->channelBlock);
                        state.set(t->value, now.begin, now.end, now.region, t->channelBlock);
                    }
                if (t->destination.memory == m_workingMemory && t->destination.instance == core)
                    state.set(t->value, t->destination.offset, t->destination.offset + t->bytes,
                              t->region, t->channelBlock);
                continue;
            }
            auto* c = std::get_if<Compute>(&in.body);
            if (!c)
                continue;
            const std::optional<ConvLayouts> conv = layoutsOf(in, *c, state, stream, at, core);
            auto want = [&](Operand& o, int block) {
                const int now = state.layoutAt(o.value, o.offset);
                if (now != block) {
                    if (!sameBytes(o.region, now, block))
                        insertBefore(id, in, Operand{o.value, o.region, o.offset, now}, block);
                    state.set(o.value, o.offset, o.offset + bytesOf(o, m_g), o.region, block);
                }
                o.channelBlock = block;
            };
            // A channel vector a Zip reads is one position: relabelled, not reordered.
            for (std::size_t i = 0; i < c->inputs.size(); ++i)
                want(c->inputs[i], conv && (i == 0 || conv->everyInput) ? conv->input : 0);
            for (EpilogueStep& step : c->epilogue)
                for (Operand& o : step.others)
                    want(o, conv && o.region == c->outputs[0].region ? conv->output : 0);
            for (Operand& o : c->outputs) {
                o.channelBlock = conv ? conv->output : 0;
                state.set(o.value, o.offset, o.offset + bytesOf(o, m_g), o.region, o.channelBlock);
            }
        }
    }

    // A reorder of `box` (in its layout) to `to`, issued on the reader's core just before it.
    void insertBefore(InstrId reader, const Instruction& in, const Operand& box, int to) {
        Instruction r;
        r.core = in.core;
        r.from = in.from;
        // A store's provenance is the value's producer; a compute's, the op the box is read for.
        if (!r.from.op.valid())
            r.from.op = m_g.value(box.value).producer;
        r.body = reorder(box, box.channelBlock, to);
        m_before[reader].push_back(std::move(r));
        ++m_inserted;
    }

    // Ids are list positions: each reorder goes just before its reader, in the list and in the
    // stream, so every stream still issues rising ids.
    std::vector<std::int64_t> renumber() {
        std::vector<std::int64_t> newId(m_instructions.size(), -1);
        if (m_inserted == 0) {
            for (std::size_t i = 0; i < newId.size(); ++i)
                newId[i] = static_cast<std::int64_t>(i);
            return newId;
        }
        std::vector<Instruction> out;
        out.reserve(m_instructions.size() + m_inserted);
        std::vector<std::vector<InstrId>> added(m_instructions.size());
        for (std::size_t i = 0; i < m_instructions.size(); ++i) {
            for (Instruction& r : m_before[i]) {
                r.id = static_cast<InstrId>(out.size());
                added[i].push_back(r.id);
                out.push_back(std::move(r));
            }
            newId[i] = static_cast<std::int64_t>(out.size());
            m_instructions[i].id = static_cast<InstrId>(out.size());
            out.push_back(std::move(m_instructions[i]));
        }
        m_instructions = std::move(out);
        for (auto& stream : m_streams) {
            std::vector<InstrId> renamed;
            renamed.reserve(stream.size());
            for (InstrId id : stream) {
                renamed.insert(renamed.end(), added[id].begin(), added[id].end());
                renamed.push_back(static_cast<InstrId>(newId[id]));
            }
            stream = std::move(renamed);
        }
        return newId;
    }

    std::vector<Instruction>& m_instructions;
    std::vector<std::vector<InstrId>>& m_streams;
    const std::string& m_workingMemory;
    const ir::Graph& m_g;
    int m_granule;
    std::vector<std::vector<Instruction>> m_before; // per old id: the reorders issued before it
    std::size_t m_inserted = 0;
};

class Checker {
  public:
    Checker(const Program& p, const ir::Graph& g, std::vector<Diagnostic>& out)
        : m_p(p), m_g(g), m_out(out) {}

    void run() {
        for (std::size_t core = 0; core < m_p.streams.size(); ++core)
            walk(m_p.streams[core], static_cast<int>(core));
    }

  private:
    void walk(const std::vector<InstrId>& stream, int core) {
        LayoutState state;
        for (InstrId id : stream) {
            if (m_problems >= 10)
                return;
            const Instruction& in = m_p.instructions[id];
            if (const auto* t = std::get_if<Transfer>(&in.body)) {
                const LayoutState::Box* box = state.find(t->value, t->source.offset);
                if (t->source.memory == m_p.workingMemory && t->source.instance == core &&
                    !sameBytes(box ? box->region : t->region,
                               state.layoutAt(t->value, t->source.offset), t->channelBlock))
                    problem(in,
                            fmt::format("moves {} as {} while its box is {}", valueName(t->value),
                                        layoutName(t->channelBlock),
                                        layoutName(state.layoutAt(t->value, t->source.offset))));
                if (t->channelBlock != 0 && t->channelBlock != kChannelsLast)
                    problem(in, fmt::format("moves {} as {}: a transfer's box is nchw or nhwc",
                                            valueName(t->value), layoutName(t->channelBlock)));
                if (t->destination.memory == m_p.workingMemory && t->destination.instance == core)
                    state.set(t->value, t->destination.offset, t->destination.offset + t->bytes,
                              t->region, t->channelBlock);
                continue;
            }
            const auto* c = std::get_if<Compute>(&in.body);
            if (!c)
                continue;
            auto reads = [&](const Operand& o) {
                const int now = state.layoutAt(o.value, o.offset);
                if (!sameBytes(o.region, now, o.channelBlock))
                    problem(in, fmt::format("reads {} as {}, its box holds {}", valueName(o.value),
                                            layoutName(o.channelBlock), layoutName(now)));
                shaped(in, o);
            };
            for (const Operand& o : c->inputs)
                reads(o);
            for (const EpilogueStep& step : c->epilogue)
                for (const Operand& o : step.others)
                    reads(o);
            if (c->isReorder() && (c->inputs.size() != 1 || c->outputs.size() != 1 ||
                                   c->inputs[0].value != c->outputs[0].value ||
                                   c->inputs[0].offset != c->outputs[0].offset ||
                                   c->inputs[0].region != c->outputs[0].region))
                problem(in,
                        "a reorder rewrites one box in place: one input and one output, the same "
                        "value, region and offset");
            for (const Operand& o : c->outputs) {
                shaped(in, o);
                const std::uint64_t bytes =
                    static_cast<std::uint64_t>(tiling::regionElements(o.region)) *
                    ir::dtypeSize(m_g.value(o.value).dtype);
                state.set(o.value, o.offset, o.offset + bytes, o.region, o.channelBlock);
            }
        }
    }

    // A blocked box holds whole blocks of channels.
    void shaped(const Instruction& in, const Operand& o) {
        if (o.channelBlock > 1 && !wholeBlocks(o.region, o.channelBlock))
            problem(in, fmt::format("{} is {} but its box {} is not whole blocks of channels",
                                    valueName(o.value), layoutName(o.channelBlock),
                                    tiling::regionToString(o.region)));
        if (o.channelBlock == 1 || o.channelBlock < kChannelsLast)
            problem(in, fmt::format("{} has channel block {}", valueName(o.value), o.channelBlock));
    }

    std::string valueName(ir::ValueId v) const {
        return v.valid() && v.index < m_g.values.size() ? "'" + m_g.value(v).name + "'" : "a value";
    }

    void problem(const Instruction& in, const std::string& what) {
        ++m_problems;
        m_out.push_back(error(fmt::format("i{:06} on core {}: layout: {}", in.id, in.core, what)));
    }

    const Program& m_p;
    const ir::Graph& m_g;
    std::vector<Diagnostic>& m_out;
    int m_problems = 0;
};

} // namespace

std::vector<std::int64_t> chooseLayouts(std::vector<Instruction>& instructions,
                                        std::vector<std::vector<InstrId>>& streams,
                                        const std::string& workingMemory, const ir::Graph& graph,
                                        int channelGranule) {
    return Chooser(instructions, streams, workingMemory, graph, channelGranule).run();
}

void chooseLayouts(Program& program, const ir::Graph& graph, int channelGranule) {
    chooseLayouts(program.instructions, program.streams, program.workingMemory, graph,
                  channelGranule);
}

void checkLayouts(const Program& program, const ir::Graph& graph, std::vector<Diagnostic>& out) {
    Checker(program, graph, out).run();
}

} // namespace strata::compiler

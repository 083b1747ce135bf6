#include "calibrate/BenchPrograms.h"

#include "base/SplitMix64.h"
#include "ir/GraphHash.h"
#include "model/OpCost.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <tuple>

namespace strata::calibrate {
namespace {

compiler::Access access(const std::string& memory, int instance, std::uint64_t offset, std::uint64_t bytes) {
    compiler::Access a;
    a.memory = memory;
    a.instance = instance;
    a.offset = offset;
    a.shape = {static_cast<std::int64_t>(bytes)};
    return a;
}

compiler::Program emptyProgram(const target::Target& target, const std::string& name) {
    compiler::Program program;
    program.modelName = name;
    program.targetName = target.name;
    program.mainMemory = target.mainMemory;
    program.workingMemory = target.workingMemory;
    program.cores = target.cores();
    program.streams.assign(static_cast<std::size_t>(program.cores), {});
    std::vector<int> cores;
    for (int c = 0; c < program.cores; ++c) cores.push_back(c);
    program.blocks.push_back({0, {}, 1, cores, 0});
    return program;
}

void append(compiler::Program& program, int core, decltype(compiler::Instruction::body) body, std::int64_t tile) {
    compiler::Instruction in;
    in.id = static_cast<compiler::InstrId>(program.instructions.size());
    in.core = core;
    in.from = {0, {}, tile};
    in.body = std::move(body);
    program.streams[static_cast<std::size_t>(core)].push_back(in.id);
    program.instructions.push_back(std::move(in));
}

// Random weights every calibration graph takes its own from: at least `elements` of them, drawn
// once while any graph holds them (again, more, when a graph asks for more than there are).
// Calibration's models hold ~150 MB of weights, and drawing each its own took most of the half
// second building them took; their values change no time measured. Freed with the last graph
// holding them, so an app that calibrated keeps none.
// Uniform in [0.5, 1): a random mantissa under 0.5's exponent, normal numbers all (a denormal
// costs a microcode assist per use).
std::shared_ptr<const std::vector<float>> weightPool(std::size_t elements) {
    // At least this many, so that a graph's weights seldom wrap around to the pool's start.
    constexpr std::size_t kLeast = std::size_t{1} << 22;
    static std::mutex mutex;
    static std::weak_ptr<const std::vector<float>> held;
    const std::lock_guard lock(mutex);
    std::shared_ptr<const std::vector<float>> pool = held.lock();
    if (!pool || pool->size() < elements) {
        auto values = std::make_shared<std::vector<float>>(std::max(elements, kLeast));
        SplitMix64 random{7};
        for (float& v : *values)
            v = std::bit_cast<float>(0x3f000000u | static_cast<std::uint32_t>(random.next() >> 41));
        pool = std::move(values);
        held = pool;
    }
    return pool;
}

// Builds a small graph op by op: float32 values, weights as constants with random data.
class SmallGraph {
  public:
    explicit SmallGraph(std::string name) { m_graph->name = std::move(name); m_graph->opsetVersion = 17; }

    ir::ValueId input(const std::string& name, ir::Shape shape) {
        const ir::ValueId id = value(name, std::move(shape));
        m_graph->inputs.push_back(id);
        return id;
    }

    // The next `elements` values of the shared pool (weightPool), from the start again where
    // they would run past its end: a graph's weights are distinct from one another.
    ir::ValueId weight(const std::string& name, ir::Shape shape) {
        const ir::ValueId id = value(name, std::move(shape));
        ir::Value& v = m_graph->values[id.index];
        const auto n = static_cast<std::size_t>(v.elements());
        std::shared_ptr<const std::vector<float>> pool = weightPool(n);
        if (m_poolOffset + n > pool->size())
            m_poolOffset = 0;
        v.isConstant = true;
        v.isInitializer = true;
        v.data.data = reinterpret_cast<const std::byte*>(pool->data() + m_poolOffset);
        v.data.size = n * sizeof(float);
        v.data.owner = std::move(pool);
        m_poolOffset += n;
        m_graph->parameterCount += static_cast<std::uint64_t>(v.elements());
        return id;
    }

    ir::ValueId op(const std::string& type, std::vector<ir::ValueId> inputs, ir::Shape outShape,
                   std::vector<ir::Attribute> attributes = {}) {
        const std::string name = type + "_" + std::to_string(m_graph->ops.size());
        const ir::ValueId out = value(name + "_out", std::move(outShape));
        ir::Op op;
        op.name = name;
        op.type = type;
        op.inputs = std::move(inputs);
        op.outputs = {out};
        op.attributes = std::move(attributes);
        op.opClass = model::classifyOp(type);
        m_graph->values[out.index].producer = ir::OpId{static_cast<std::uint32_t>(m_graph->ops.size())};
        m_graph->ops.push_back(std::move(op));
        return out;
    }

    // Renames the last op added (its output value keeps its name).
    void nameLastOp(const std::string& name) { m_graph->ops.back().name = name; }

    // A constant of known values (a Resize's scales, a Gather's indices).
    template <class T>
    ir::ValueId constant(const std::string& name, ir::Shape shape, ir::DType dtype,
                         std::vector<T> values) {
        const ir::ValueId id = value(name, std::move(shape), dtype);
        ir::Value& v = m_graph->values[id.index];
        auto data = std::make_shared<std::vector<T>>(std::move(values));
        v.isConstant = true;
        v.isInitializer = true;
        v.data.data = reinterpret_cast<const std::byte*>(data->data());
        v.data.size = data->size() * sizeof(T);
        v.data.owner = data;
        return id;
    }

    std::size_t ops() const { return m_graph->ops.size(); }

    std::shared_ptr<const ir::Graph> finish(ir::ValueId output) {
        m_graph->outputs = {output};
        m_graph->finalize();
        for (ir::Op& op : m_graph->ops) op.cost = model::estimateCost(*m_graph, op);
        m_graph->contentHash = ir::contentHash(*m_graph);
        return m_graph;
    }

  private:
    ir::ValueId value(const std::string& name, ir::Shape shape,
                      ir::DType dtype = ir::DType::Float32) {
        ir::Value v;
        v.name = name;
        v.dtype = dtype;
        v.shape = std::move(shape);
        m_graph->values.push_back(std::move(v));
        return ir::ValueId{static_cast<std::uint32_t>(m_graph->values.size() - 1)};
    }

    std::shared_ptr<ir::Graph> m_graph = std::make_shared<ir::Graph>();
    std::size_t m_poolOffset = 0;
};

using Ints = std::vector<std::int64_t>;

// A strided transfer's main-memory box, shaped like a tile of an activation: up to kTileRows rows
// of `runBytes` two rows apart per plane, planes at least kPlaneBytes apart (a 64 x 64 float
// plane), so each plane's rows start on another page, as a tile's channels do. planes == 0: a
// contiguous copy. Whole rows only: a run that does not divide `bytes` (a column tile's 56 or 224
// bytes against sizes of 4^k x 64) moves the whole planes of rows that fit in it, a little less.
struct BoxShape {
    std::uint64_t planes = 0, planeRows = 0, planeStride = 0;
    std::uint64_t bytes(std::uint64_t runBytes) const { return planes * planeRows * runBytes; }
};

BoxShape boxShape(std::uint64_t bytes, std::uint64_t runBytes) {
    constexpr std::uint64_t kTileRows = 8, kPlaneBytes = 16384;
    if (runBytes == 0 || runBytes >= bytes) return {};
    const std::uint64_t rows = bytes / runBytes;
    const std::uint64_t planeRows = std::min(rows, kTileRows);
    return {rows / planeRows, planeRows, std::max(kPlaneBytes, 2 * planeRows * runBytes)};
}

} // namespace

std::uint64_t transferBoxBytes(std::uint64_t bytes, std::uint64_t runBytes) {
    const BoxShape box = boxShape(bytes, runBytes);
    return box.planes ? box.bytes(runBytes) : bytes;
}

std::uint64_t transferSpanBytes(std::uint64_t bytes, std::uint64_t runBytes) {
    const BoxShape box = boxShape(bytes, runBytes);
    return box.planes ? box.planes * box.planeStride : bytes;
}

namespace {

// Row lengths of the strided copies measured besides contiguous ones (0): compiled programs move
// tiles, whose rows are often short; with the contiguous ones they separate a path's per-row
// cost (row_overhead_cycles) from its latency and bandwidth. A copy into main memory that writes
// part of a cache line makes the core read the line first, which a read does not; a tile's rows
// (7-56 floats of a column tile) seldom fill whole lines. So writes are measured with rows of
// such lengths, 5-20x dearer per row than whole lines on this machine, and reads with whole lines.
constexpr std::uint64_t kReadRunBytes[] = {0, 1024, 256, 64};
constexpr std::uint64_t kWriteRunBytes[] = {0, 1024, 224, 112, 56};

} // namespace

std::span<const std::uint64_t> transferRunBytes(const target::TransferPath& path,
                                                const std::string& mainMemory) {
    if (path.destination == mainMemory)
        return kWriteRunBytes;
    return kReadRunBytes;
}

std::vector<std::uint64_t> transferSizes(std::uint64_t limit, std::uint64_t step) {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t b = 64; b <= limit; b *= step)
        sizes.push_back(b);
    if (sizes.empty() || sizes.back() == limit)
        return sizes;
    if (sizes.size() > 1 && limit < 2 * sizes.back())
        sizes.back() = limit;
    else
        sizes.push_back(limit);
    return sizes;
}

Expected<compiler::Program> transferProgram(const target::Target& target, const std::string& path,
                                            std::uint64_t bytes, int cores, int count,
                                            std::uint64_t runBytes, Priming priming) {
    if (cores < 1 || cores > target.cores())
        return error("cannot run on " + std::to_string(cores) + " cores (the target has " +
                     std::to_string(target.cores()) + ")");
    return transferProgramOn(target,
                             std::vector<std::string>(static_cast<std::size_t>(cores), path), bytes,
                             count, runBytes, priming);
}

Expected<compiler::Program> transferProgramOn(const target::Target& target,
                                              const std::vector<std::string>& paths,
                                              std::uint64_t bytes, int count,
                                              std::uint64_t runBytes, Priming priming) {
    const int cores = static_cast<int>(paths.size());
    if (cores < 1 || cores > target.cores())
        return error("cannot run on " + std::to_string(cores) + " cores (the target has " + std::to_string(target.cores()) + ")");
    if (bytes == 0 || count < 1) return error("transfers need at least one byte and one transfer");
    for (const std::string& path : paths) {
        const target::TransferPath* p = target.findPath(path);
        if (!p)
            return error("target '" + target.name + "' has no path '" + path + "'");
        for (const std::string& name : {p->source, p->destination}) {
            const target::MemorySpace* memory = target.findMemory(name);
            if (!memory)
                return error("path '" + path + "' names no memory '" + name + "'");
            if (bytes > memory->capacityBytes)
                return error("a " + std::to_string(bytes) + "-byte transfer does not fit '" + name +
                             "' (" + std::to_string(memory->capacityBytes) + " bytes)");
        }
    }
    compiler::Program program = emptyProgram(target, "calibrate-transfers");
    // Each core's path, and the memories it reads and writes.
    auto pathOf = [&](int core) { return target.findPath(paths[static_cast<std::size_t>(core)]); };
    auto fromOf = [&](int core) { return target.findMemory(pathOf(core)->source); };
    auto toOf = [&](int core) { return target.findMemory(pathOf(core)->destination); };
    const BoxShape box = boxShape(bytes, runBytes);
    const bool strided = box.planes > 0;
    if (strided) bytes = box.bytes(runBytes);
    const std::uint64_t planes = box.planes, planeRows = box.planeRows, planeStride = box.planeStride;
    const std::uint64_t span = transferSpanBytes(bytes, runBytes);
    // Regions at least 1 MiB apart: a model's transfers each read another tensor, so neither the
    // prefetcher nor the TLB has the next one ready, as they would for back-to-back regions.
    constexpr std::uint64_t kSpacing = 1ull << 20;
    const std::uint64_t stride = std::max(span, kSpacing);
    auto place = [&](const target::MemorySpace* memory, int core, int k) {
        // Working memory: the start of the core's own instance, contiguous.
        if (memory->scope == target::Scope::Core) {
            compiler::Access a = access(memory->name, core, 0, bytes);
            if (strided)
                a.shape = {static_cast<std::int64_t>(planes), static_cast<std::int64_t>(planeRows), static_cast<std::int64_t>(runBytes)};
            return a;
        }
        // Main memory: a fresh region per transfer and core.
        const std::uint64_t slot = static_cast<std::uint64_t>(core) * static_cast<std::uint64_t>(count) + static_cast<std::uint64_t>(k);
        const std::uint64_t room = memory->capacityBytes / stride;
        compiler::Access a = access(memory->name, 0, (slot % std::max<std::uint64_t>(room, 1)) * stride, bytes);
        if (strided) {
            a.shape = {static_cast<std::int64_t>(planes), static_cast<std::int64_t>(planeRows), static_cast<std::int64_t>(runBytes)};
            a.strides = {static_cast<std::int64_t>(planeStride), static_cast<std::int64_t>(2 * runBytes), 1};
        }
        return a;
    };
    // Before the measured transfers the next core moves every region the other way (tile
    // kPrimingTile), then all cores meet at a barrier. A path reading main memory so reads written
    // pages (untouched ones read as the kernel's shared zero page, from cache, far faster than the
    // tensors a model reads); a path writing it finds its lines in the other core's cache. Either
    // way the data is not in the measuring core's cache, as a model's tensors mostly are not: the
    // other core wrote them, or they left this core's cache long ago.
    auto reverseOf = [&](int core) {
        return target.pathBetween(pathOf(core)->destination, pathOf(core)->source);
    };
    bool anyReverse = false;
    for (int core = 0; core < cores; ++core)
        anyReverse = anyReverse || reverseOf(core);
    const bool ownPriming = priming == Priming::OwnCore;
    for (int core = 0; !ownPriming && core < cores; ++core) {
        const target::TransferPath* reverse = reverseOf(core);
        if (!reverse)
            continue;
        const target::MemorySpace* from = fromOf(core);
        const target::MemorySpace* to = toOf(core);
        const int other = (core + 1) % program.cores;
        auto owner = [&](const target::MemorySpace* memory) { return memory->scope == target::Scope::Core ? other : core; };
        for (int k = 0; k < count; ++k) {
            compiler::Transfer t;
            t.path = reverse->name;
            t.source = place(to, owner(to), k);
            t.destination = place(from, owner(from), k);
            t.bytes = bytes;
            t.tag = 0;
            append(program, other, std::move(t), kPrimingTile);
            append(program, other, compiler::Wait{0}, kPrimingTile);
        }
    }
    if (anyReverse && !ownPriming && program.cores > 1)
        for (int core = 0; core < program.cores; ++core) append(program, core, compiler::Barrier{0}, kPrimingTile);
    for (int core = 0; core < cores; ++core)
        for (int k = 0; k < count; ++k) {
            const std::string& path = paths[static_cast<std::size_t>(core)];
            const target::TransferPath* reverse = reverseOf(core);
            const target::MemorySpace* from = fromOf(core);
            const target::MemorySpace* to = toOf(core);
            if (ownPriming &&
                reverse) { // the same bytes, moved the other way by this core a moment before
                compiler::Transfer prime;
                prime.path = reverse->name;
                prime.source = place(to, core, k);
                prime.destination = place(from, core, k);
                prime.bytes = bytes;
                prime.tag = 2;
                append(program, core, std::move(prime), kPrimingTile);
                append(program, core, compiler::Wait{2}, kPrimingTile);
            }
            compiler::Transfer t;
            t.path = path;
            t.source = place(from, core, k);
            t.destination = place(to, core, k);
            t.bytes = bytes;
            t.tag = k % 2;
            append(program, core, std::move(t), k);
            append(program, core, compiler::Wait{k % 2}, k);
        }
    return program;
}

compiler::Program barrierProgram(const target::Target& target, int count) {
    compiler::Program program = emptyProgram(target, "calibrate-barriers");
    for (int k = 0; k < count; ++k)
        for (int core = 0; core < program.cores; ++core) {
            compiler::Barrier b;
            b.id = k;
            append(program, core, b, -1);
            program.instructions.back().from.block = -1;
        }
    return program;
}

constexpr const char* kLayoutSinkName = "layout-sink";

bool layoutSink(const ir::Op& op) {
    return op.name == kLayoutSinkName;
}

bool computesOnly(const ir::Graph& graph) {
    return graph.name == "calibrate-conv-pointwise-deep" ||
           graph.name == "calibrate-conv-pointwise-strided" ||
           graph.name == "calibrate-conv-depthwise-small" ||
           graph.name == "calibrate-elementwise-Erf" ||
           graph.name == "calibrate-elementwise-Sigmoid" ||
           graph.name == "calibrate-elementwise-HardSwish" ||
           graph.name == "calibrate-normalization-layer" ||
           graph.name == "calibrate-reduction-pool" || graph.name == "calibrate-reduction-rows" ||
           graph.name == "calibrate-resize" || graph.name == "calibrate-resize-linear" ||
           graph.name == "calibrate-resize-linear-small" || graph.name == "calibrate-gather" ||
           graph.name == "calibrate-global-pool-7x7" ||
           graph.name == "calibrate-global-pool-56x56" || graph.name == "calibrate-copy" ||
           graph.name == "calibrate-copy-rows" || graph.name == "calibrate-conv-grouped" ||
           graph.name == "calibrate-conv-grouped-narrow" ||
           graph.name == "calibrate-conv-grouped-strided" || graph.name == "calibrate-conv-thin" ||
           graph.name == "calibrate-matmul-thin" || graph.name == "calibrate-matmul-batched" ||
           graph.name == "calibrate-matmul-batched-wide" || graph.name == "calibrate-conv-far" ||
           graph.name == kFarMatMulName;
}

std::vector<std::shared_ptr<const ir::Graph>> readKindGraphs() {
    std::vector<std::shared_ptr<const ir::Graph>> out;
    {
        SmallGraph g("calibrate-weights-conv");
        struct Layer {
            std::int64_t channels, window;
            bool depthwise = false;
        };
        // 256 -> 256 -> 1024 -> 256 -> 512 -> 512 -> 256 channels: 19 MiB of weights; then an
        // inverted-residual pair of a MobileNet (1x1 down, 3x3 depthwise, 1x1 up, twice), whose
        // weights of 2..160 KiB are read as cold as the large ones.
        const Layer layers[] = {{256, 3}, {1024, 1}, {256, 1}, {512, 3},        {512, 3},
                                {256, 1}, {64, 1},   {64, 3, true}, {160, 1}, {160, 3, true}, {256, 1}};
        std::int64_t channels = 256;
        ir::ValueId x = g.input("x", {1, channels, 7, 7});
        for (const Layer& layer : layers) {
            const std::int64_t k = layer.window, pad = k / 2;
            const std::int64_t perGroup = layer.depthwise ? 1 : channels;
            auto w = g.weight("w" + std::to_string(g.ops()), {layer.channels, perGroup, k, k});
            auto bias = g.weight("b" + std::to_string(g.ops()), {layer.channels});
            x = g.op("Conv", {x, w, bias}, {1, layer.channels, 7, 7},
                     {{"kernel_shape", Ints{k, k}}, {"pads", Ints{pad, pad, pad, pad}},
                      {"group", layer.depthwise ? layer.channels : std::int64_t{1}}});
            channels = layer.channels;
        }
        out.push_back(g.finish(x));
    }
    {
        SmallGraph g("calibrate-weights-matmul");
        // 512 -> 2048 -> 512 -> 512 features over 64 tokens: 9 MiB of weights.
        const std::int64_t widths[] = {2048, 512, 512};
        std::int64_t features = 512;
        ir::ValueId x = g.input("x", {64, features});
        for (std::int64_t width : widths) {
            auto w = g.weight("w" + std::to_string(g.ops()), {features, width});
            auto bias = g.weight("b" + std::to_string(g.ops()), {width});
            x = g.op("Add", {g.op("MatMul", {x, w}, {64, width}), bias}, {64, width});
            features = width;
        }
        out.push_back(g.finish(x));
    }
    // Up to tiles of 4 MiB per core: three sizes past a 1 MiB L2, so a spill can be fitted.
    for (const std::int64_t width : {128, 256, 512, 1024, 2048, 4096, 8192, 16384}) {
        SmallGraph g("calibrate-cached-" + std::to_string(width));
        const ir::Shape shape{128, width};
        ir::ValueId x = g.input("x", shape);
        for (const char* type : {"Relu", "Neg", "Abs", "Neg", "Relu"}) x = g.op(type, {x}, shape);
        out.push_back(g.finish(x));
    }
    return out;
}

std::vector<std::shared_ptr<const ir::Graph>> sharedReadGraphs() {
    SmallGraph g("calibrate-shared-small");
    std::int64_t channels = 8;
    ir::ValueId x = g.input("x", {1, channels, 4, 4});
    for (const std::int64_t next : {16, 32, 64, 128, 64, 32, 16, 8}) {
        auto w = g.weight("w" + std::to_string(g.ops()), {next, channels, 1, 1});
        auto bias = g.weight("b" + std::to_string(g.ops()), {next});
        x = g.op("Conv", {x, w, bias}, {1, next, 4, 4}, {{"kernel_shape", Ints{1, 1}}});
        channels = next;
    }
    return {g.finish(x)};
}

std::vector<std::shared_ptr<const ir::Graph>> reuseDistanceGraphs() {
    std::vector<std::shared_ptr<const ir::Graph>> out;
    struct Chain {
        std::int64_t channels, size, layers;
    };
    // A layer moves ~0.3 MiB per core (64 channels on 28 x 28) or ~0.5 MiB (32 on 56 x 56):
    // skips of 1..16 layers put reads at 0.3..8 MiB.
    for (const Chain chain : {Chain{64, 28, 24}, Chain{32, 56, 20}}) {
        SmallGraph g("calibrate-reuse-" + std::to_string(chain.channels) + "x" +
                     std::to_string(chain.size));
        const ir::Shape shape{1, chain.channels, chain.size, chain.size};
        std::vector<ir::ValueId> outputs{g.op("Relu", {g.input("x", shape)}, shape)};
        for (std::int64_t i = 1; i <= chain.layers; ++i) {
            auto w = g.weight("w" + std::to_string(i), {chain.channels, chain.channels, 3, 3});
            const ir::ValueId conv =
                g.op("Conv", {outputs.back(), w}, shape,
                     {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}});
            const std::int64_t skip = std::int64_t{1} << (i % 5);
            const ir::ValueId earlier = outputs[std::size_t(std::max<std::int64_t>(0, i - skip))];
            outputs.push_back(g.op("Add", {conv, earlier}, shape));
        }
        out.push_back(g.finish(outputs.back()));
    }
    return out;
}

std::vector<std::shared_ptr<const ir::Graph>> farWeightGraphs(std::uint64_t privateCacheBytes,
                                                              std::uint64_t lastLevelBytes) {
    std::vector<std::shared_ptr<const ir::Graph>> out;
    if (privateCacheBytes == 0)
        return out;
    const double wanted = 8.0 * double(privateCacheBytes);
    {
        SmallGraph g("calibrate-conv-far");
        // channels^2 x 9 taps x 4 bytes ~ wanted, in whole vectors of 16 channels.
        const auto channels =
            std::max<std::int64_t>(64, std::int64_t(std::sqrt(wanted / 36) / 16) * 16);
        const double layerBytes = 36.0 * double(channels * channels);
        const auto layers = std::clamp<std::int64_t>(
            std::int64_t(std::ceil(1.5 * double(lastLevelBytes) / layerBytes)), 2, 16);
        ir::ValueId x = g.input("x", {1, channels, 4, 4});
        for (std::int64_t i = 0; i < layers; ++i) {
            auto w = g.weight("w" + std::to_string(i), {channels, channels, 3, 3});
            x = g.op("Conv", {x, w}, {1, channels, 4, 4},
                     {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}});
        }
        out.push_back(g.finish(x));
    }
    {
        SmallGraph g(kFarMatMulName);
        const std::int64_t k = 1024;
        const auto n = std::max<std::int64_t>(256, std::int64_t(wanted / (4 * k)) / 64 * 64);
        auto a = g.input("a", {1, k});
        auto b = g.weight("b", {k, n});
        out.push_back(g.finish(g.op("MatMul", {a, b}, {1, n})));
    }
    return out;
}

std::vector<std::shared_ptr<const ir::Graph>> reorderGraphs() {
    std::vector<std::shared_ptr<const ir::Graph>> out;
    for (const std::int64_t side : {128, 192}) {
        SmallGraph g("calibrate-reorder-" + std::to_string(side));
        ir::ValueId x = g.input("x", {1, 16, side, side});
        auto w = g.weight("w", {64, 16, 3, 3});
        out.push_back(g.finish(g.op("Conv", {x, w}, {1, 64, side, side},
                                    {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}})));
    }
    return out;
}

std::vector<std::shared_ptr<const ir::Graph>> warmWeightGraphs(std::uint64_t lastLevelBytes) {
    // Each chain's weights about a quarter of the cache: far more than the L2s, well within it.
    const std::uint64_t wanted = std::max<std::uint64_t>(lastLevelBytes / 4, 2ull << 20);
    std::vector<std::shared_ptr<const ir::Graph>> out;
    {
        SmallGraph g("calibrate-weights-warm-conv");
        struct Layer {
            std::int64_t channels;
            bool depthwise = false;
        };
        // Inverted residuals of growing width (expand 1x1, depthwise 3x3, project 1x1), then
        // the widest one again until the weights reach `wanted` (1.3 MiB each).
        std::vector<Layer> layers = {{576}, {576, true}, {96},  {384},       {384, true}, {64},
                                     {32},  {16},        {960}, {960, true}, {160}};
        std::uint64_t weightBytes = 0;
        std::int64_t channels = 96;
        ir::ValueId x = g.input("x", {1, channels, 14, 14});
        for (std::size_t i = 0; i < layers.size(); ++i) {
            const Layer layer = layers[i];
            const std::int64_t k = layer.depthwise ? 3 : 1, pad = k / 2;
            const std::int64_t perGroup = layer.depthwise ? 1 : channels;
            auto w = g.weight("w" + std::to_string(g.ops()), {layer.channels, perGroup, k, k});
            auto bias = g.weight("b" + std::to_string(g.ops()), {layer.channels});
            x = g.op("Conv", {x, w, bias}, {1, layer.channels, 14, 14},
                     {{"kernel_shape", Ints{k, k}},
                      {"pads", Ints{pad, pad, pad, pad}},
                      {"group", layer.depthwise ? layer.channels : std::int64_t{1}}});
            weightBytes += 4 * std::uint64_t(layer.channels * (perGroup * k * k + 1));
            channels = layer.channels;
            if (i + 1 == layers.size() && weightBytes < wanted && layers.size() < 64)
                layers.insert(layers.end(), {{960}, {960, true}, {160}});
        }
        out.push_back(g.finish(x));
    }
    {
        // A feed-forward pair over 64 tokens, 384 -> width -> 384 features with the width that
        // makes its weights `wanted` (1536 for 4.5 MiB), then a scalar scale and a per-feature
        // shift.
        SmallGraph g("calibrate-weights-warm-matmul");
        const std::int64_t width =
            std::max<std::int64_t>(256, std::int64_t(wanted / (2 * 384 * 4)) / 64 * 64);
        std::int64_t features = 384;
        ir::ValueId x = g.input("x", {64, features});
        for (const std::int64_t next : {width, std::int64_t{384}}) {
            auto w = g.weight("w" + std::to_string(g.ops()), {features, next});
            auto bias = g.weight("b" + std::to_string(g.ops()), {next});
            x = g.op("Add", {g.op("MatMul", {x, w}, {64, next}), bias}, {64, next});
            features = next;
        }
        x = g.op("Mul", {x, g.weight("scale", {1})}, {64, features});
        x = g.op("Add", {x, g.weight("shift", {features})}, {64, features});
        out.push_back(g.finish(x));
    }
    return out;
}

std::vector<std::shared_ptr<const ir::Graph>> opClassGraphs(int scale) {
    const std::int64_t s = scale < 1 ? 1 : scale;
    std::vector<std::shared_ptr<const ir::Graph>> out;
    // Convolutions down a CNN's staircase: channels double as the image halves (32 channels at
    // 112 x 112 for scale 1, 256 at 14 x 14 for scale 8), so the shapes span the ones CNNs run
    // (wide images with few channels, small ones with many) rather than one corner of them.
    const std::int64_t side = std::max<std::int64_t>(7, 112 / s);
    {
        SmallGraph g("calibrate-conv");
        const std::int64_t c = 32 * s;
        auto x = g.input("x", {1, c, side, side});
        auto w = g.weight("w", {c, c, 3, 3});
        out.push_back(g.finish(g.op("Conv", {x, w}, {1, c, side, side},
                                    {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{1, 1}}})));
    }
    {
        SmallGraph g("calibrate-conv-pointwise");
        const std::int64_t c = 32 * s;
        auto x = g.input("x", {1, c, side, side});
        auto w = g.weight("w", {2 * c, c, 1, 1});
        out.push_back(g.finish(g.op("Conv", {x, w}, {1, 2 * c, side, side}, {{"kernel_shape", Ints{1, 1}}})));
    }
    {
        // Pointwise with many input channels (256 x scale to 128 on 14 x 14, as a ResNet's last
        // stages): with the staircase's few-channel ones they pin both the rate the matrix product
        // reaches and the cost per output element (overhead_cycles.conv_output).
        SmallGraph g("calibrate-conv-pointwise-deep");
        const std::int64_t c = 256 * s;
        auto x = g.input("x", {1, c, 14, 14});
        auto w = g.weight("w", {128, c, 1, 1});
        out.push_back(g.finish(g.op("Conv", {x, w}, {1, 128, 14, 14}, {{"kernel_shape", Ints{1, 1}}})));
    }
    {
        // A downsampling shortcut (1x1 at stride 2, 64 x scale to 128 x scale channels): a
        // matrix product over a gathered input, in the pointwise class (emulator::isPointwiseConv).
        SmallGraph g("calibrate-conv-pointwise-strided");
        const std::int64_t c = 64 * s;
        const std::int64_t in = std::max<std::int64_t>(14, 56 / s);
        auto x = g.input("x", {1, c, in, in});
        auto w = g.weight("w", {2 * c, c, 1, 1});
        out.push_back(g.finish(g.op("Conv", {x, w}, {1, 2 * c, in / 2, in / 2},
                                    {{"kernel_shape", Ints{1, 1}}, {"strides", Ints{2, 2}}})));
    }
    // A depthwise convolution reads what a 1x1 expansion wrote and writes what a 1x1 projection
    // reads, as in a model: a graph input and a graph output stay row-major in main memory
    // (tiling/DramLayouts.h); on a row-major input box the depthwise kernel copies planes, 3-4x
    // slower than the channels-last kernel models' blocks run (fitted on that, depthwise
    // convolutions were predicted 32% too slow over the zoo), and into a row-major output box it
    // transposes every row, ~2x slower (fitted on that, MobileNetV2's and EfficientNet-B0's were
    // predicted 1.7-2x too slow). The projection's output goes to a global pool (layoutSink),
    // which reads either layout, so the projection and the depthwise output stay channels-last.
    auto expandedDepthwise = [&](const std::string& name, std::int64_t c, std::int64_t plane) {
        SmallGraph g(name);
        auto x = g.input("x", {1, c, plane, plane});
        auto e = g.op("Conv", {x, g.weight("e", {c, c, 1, 1})}, {1, c, plane, plane},
                      {{"kernel_shape", Ints{1, 1}}});
        auto w = g.weight("w", {c, 1, 3, 3});
        auto d = g.op("Conv", {e, w}, {1, c, plane, plane},
                      {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}, {"group", c}});
        auto p = g.op("Conv", {d, g.weight("p", {c, c, 1, 1})}, {1, c, plane, plane},
                      {{"kernel_shape", Ints{1, 1}}});
        auto pooled = g.op("GlobalAveragePool", {p}, {1, c, 1, 1});
        g.nameLastOp(kLayoutSinkName);
        return g.finish(pooled);
    };
    out.push_back(expandedDepthwise("calibrate-conv-depthwise", 32 * s, side));
    // Depthwise on small planes too (64 x scale channels on 14 x 14): its loop pays per output
    // row, which the staircase above alone cannot tell from its per-MAC rate.
    out.push_back(expandedDepthwise("calibrate-conv-depthwise-small", 64 * s, 14));
    // Grouped 3x3 convolutions (a RegNet's or ResNeXt's), fitted as their own class
    // (`grouped_conv`, emulator::isGroupedConv) with a cost per element of their input and output
    // planes (grouped_conv_element: oneDNN's kernel reorders both): 64 x scale channels in groups
    // of 16 on 28 x 28 (72 MACs per element), of 8 on 7 x 7 (36), and of 8 at stride 2 from
    // 28 x 28 (14 x 14 outputs: 14), so the elements vary apart from the MACs.
    auto grouped = [&](const std::string& name, std::int64_t width, std::int64_t plane,
                       std::int64_t stride) {
        SmallGraph g(name);
        const std::int64_t c = 64 * s;
        auto x = g.input("x", {1, c, plane, plane});
        auto w = g.weight("w", {c, width, 3, 3});
        return g.finish(g.op("Conv", {x, w}, {1, c, plane / stride, plane / stride},
                             {{"kernel_shape", Ints{3, 3}},
                              {"pads", Ints{1, 1, 1, 1}},
                              {"strides", Ints{stride, stride}},
                              {"group", c / width}}));
    };
    out.push_back(grouped("calibrate-conv-grouped", 16, 28, 1));
    out.push_back(grouped("calibrate-conv-grouped-narrow", 8, 7, 1));
    out.push_back(grouped("calibrate-conv-grouped-strided", 8, 28, 2));
    {
        // Thin work, whose weights outnumber its outputs (overhead_cycles.weight_byte): a 3x3
        // convolution of 128 channels on planes of 2 x scale (4..256 output positions per weight,
        // as a dilated network's or a late stage's small tiles), and a classifier's matrix-vector
        // product (scale rows of 512 features times 512 x 512 weights: 1..8 MACs per weight).
        SmallGraph g("calibrate-conv-thin");
        const std::int64_t p = 2 * s;
        auto x = g.input("x", {1, 128, p, p});
        auto w = g.weight("w", {128, 128, 3, 3});
        out.push_back(g.finish(g.op("Conv", {x, w}, {1, 128, p, p},
                                    {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}})));
    }
    {
        SmallGraph g("calibrate-matmul-thin");
        auto a = g.input("a", {s, 512});
        auto b = g.weight("b", {512, 512});
        out.push_back(g.finish(g.op("MatMul", {a, b}, {s, 512})));
    }
    {
        // Tiny ops, so some compute's time is almost all fixed cost: it bounds the shared
        // compute overhead (Fit.h), which the large ops' lines alone leave free to drift. Eight
        // in a chain, so each round gives eight samples of the shape: one per round left the
        // bound at 500-2,900 cycles from one calibration to the next (its median over the
        // rounds), and the overhead with it.
        SmallGraph g("calibrate-elementwise-tiny");
        const ir::Shape shape{1, 16};
        auto x = g.input("a", shape);
        auto b = g.input("b", shape);
        for (int i = 0; i < 7; ++i)
            x = g.op("Add", {x, b}, shape);
        out.push_back(g.finish(g.op("Add", {x, b}, shape)));
    }
    {
        // Batches of matrix pairs, as attention multiplies them (the host makes one sgemm call per
        // pair, overhead_cycles.matmul_product): 4 x scale windows of 49 x 49 x 32 (a Swin's or a
        // MaxViT's) and scale heads of 128 x 128 x 64 (a BERT's), 77 K and 1 M MACs per pair.
        auto batched = [&](const std::string& name, std::int64_t pairs, std::int64_t rows,
                           std::int64_t depth) {
            SmallGraph g(name);
            auto a = g.input("a", {1, pairs, rows, depth});
            auto b = g.input("b", {1, pairs, depth, rows});
            return g.finish(g.op("MatMul", {a, b}, {1, pairs, rows, rows}));
        };
        out.push_back(batched("calibrate-matmul-batched", 4 * s, 49, 32));
        out.push_back(batched("calibrate-matmul-batched-wide", s, 128, 64));
    }
    {
        SmallGraph g("calibrate-matmul");
        const std::int64_t n = 64 * s;
        auto a = g.input("a", {n, 256});
        auto b = g.weight("b", {256, 256});
        out.push_back(g.finish(g.op("MatMul", {a, b}, {n, 256})));
    }
    {
        SmallGraph g("calibrate-elementwise");
        const ir::Shape shape{1, 32 * s, 56, 56};
        auto a = g.input("a", shape);
        auto b = g.input("b", shape);
        out.push_back(g.finish(g.op("Add", {a, b}, shape)));
    }
    {
        // Activations are the commonest elementwise ops in CNNs, and a unary op's kernel runs at
        // its own rate: the class's figure is fitted over both.
        SmallGraph g("calibrate-elementwise-relu");
        const ir::Shape shape{1, 32 * s, 56, 56};
        auto a = g.input("a", shape);
        out.push_back(g.finish(g.op("Relu", {a}, shape)));
    }
    {
        // Erf (GELU in transformers): the `transcendental` figure; Sigmoid (SiLU in
        // EfficientNets): the `sigmoid` figure, its own vectorised kernel ~4x Erf's rate here;
        // HardSwish (MobileNetV3's), vectorised like a Relu: the `elementwise` figure.
        for (const char* type : {"Erf", "HardSwish", "Sigmoid"}) {
            SmallGraph g(std::string("calibrate-elementwise-") + type);
            const ir::Shape shape{1, 32 * s, 56, 56};
            auto a = g.input("a", shape);
            out.push_back(g.finish(g.op(type, {a}, shape)));
        }
    }
    {
        SmallGraph g("calibrate-pooling");
        const std::int64_t c = 32 * s;
        auto x = g.input("x", {1, c, 56, 56});
        out.push_back(g.finish(g.op("MaxPool", {x}, {1, c, 28, 28},
                                    {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}, {"strides", Ints{2, 2}}})));
    }
    {
        SmallGraph g("calibrate-normalization");
        const std::int64_t c = 32 * s;
        auto x = g.input("x", {1, c, 56, 56});
        auto scaleW = g.weight("scale", {c});
        auto bias = g.weight("bias", {c});
        auto mean = g.weight("mean", {c});
        auto var = g.weight("var", {c});
        out.push_back(g.finish(g.op("BatchNormalization", {x, scaleW, bias, mean, var}, {1, c, 56, 56},
                                    {{"epsilon", 1e-5}})));
    }
    {
        // Attention scores ([batch, heads, tokens, tokens] over the last axis), where models spend
        // their softmax time (a classifier's final one is tiny); the kernel's cost per element grows
        // with the rank it indexes.
        SmallGraph g("calibrate-softmax");
        const ir::Shape shape{1, 2 * s, 128, 128};
        auto x = g.input("x", shape);
        out.push_back(g.finish(g.op("Softmax", {x}, shape, {{"axis", std::int64_t{-1}}})));
    }
    {
        // Layer normalization over a transformer's hidden size, besides batch-norm: exported CNNs
        // fold their batch-norms into the convolutions, transformers keep their layer norms.
        SmallGraph g("calibrate-normalization-layer");
        const ir::Shape shape{1, 64 * s, 256};
        auto x = g.input("x", shape);
        auto scaleW = g.weight("scale", {256});
        auto bias = g.weight("bias", {256});
        out.push_back(g.finish(g.op("LayerNormalization", {x, scaleW, bias}, shape,
                                    {{"axis", std::int64_t{-1}}, {"epsilon", 1e-5}})));
    }
    {
        SmallGraph g("calibrate-reduction");
        const std::int64_t c = 32 * s;
        auto x = g.input("x", {1, c, 56, 56});
        out.push_back(g.finish(g.op("ReduceMean", {x}, {1, c, 1, 1}, {{"axes", Ints{2, 3}}, {"keepdims", std::int64_t{1}}})));
    }
    {
        // A global average pool written as ReduceMean over 7 x 7 planes of many channels (the end
        // of ShuffleNet, MNASNet): 49 reads per output, where the planes above have 3,136. With
        // them and the rows below it tells the cost per element read (`reduction`) from the cost
        // per output (overhead_cycles.reduction_output).
        SmallGraph g("calibrate-reduction-pool");
        const std::int64_t c = 256 * s;
        auto x = g.input("x", {1, c, 7, 7});
        out.push_back(g.finish(g.op("ReduceMean", {x}, {1, c, 1, 1},
                                    {{"axes", Ints{2, 3}}, {"keepdims", std::int64_t{1}}})));
    }
    {
        // A mean over rows (a transformer's hidden size of 768, as a layer norm written out in
        // ops).
        SmallGraph g("calibrate-reduction-rows");
        const std::int64_t tokens = 32 * s;
        auto x = g.input("x", {1, tokens, 768});
        out.push_back(g.finish(g.op("ReduceMean", {x}, {1, tokens, 1},
                                    {{"axes", Ints{-1}}, {"keepdims", std::int64_t{1}}})));
    }
    {
        // Segmentation heads' 2x upsamplings (the target's `resize` figure per tap weighed, a cost
        // per output row): nearest on 28 x 28 (one tap per output, rows of 56), bilinear on
        // 28 x 28 and on 7 x 7 (four taps, rows of 56 and of 14).
        auto resize = [&](const std::string& name, const char* mode, std::int64_t channels,
                          std::int64_t plane) {
            SmallGraph g(name);
            auto x = g.input("x", {1, channels, plane, plane});
            auto scales =
                g.constant<float>("scales", {4}, ir::DType::Float32, {1.0f, 1.0f, 2.0f, 2.0f});
            return g.finish(g.op("Resize", {x, ir::ValueId{}, scales},
                                 {1, channels, 2 * plane, 2 * plane},
                                 {{"mode", std::string(mode)}}));
        };
        out.push_back(resize("calibrate-resize", "nearest", 16 * s, 28));
        out.push_back(resize("calibrate-resize-linear", "linear", 16 * s, 28));
        out.push_back(resize("calibrate-resize-linear-small", "linear", 64 * s, 7));
    }
    {
        // An embedding lookup: rows of a 1000 x 256 table by index (the target's `gather` figure).
        SmallGraph g("calibrate-gather");
        const std::int64_t n = 64 * s;
        auto table = g.weight("table", {1000, 256});
        std::vector<std::int64_t> indices(static_cast<std::size_t>(n));
        for (std::size_t i = 0; i < indices.size(); ++i)
            indices[i] = static_cast<std::int64_t>((i * 379) % 1000);
        auto idx = g.constant<std::int64_t>("indices", {n}, ir::DType::Int64, std::move(indices));
        out.push_back(
            g.finish(g.op("Gather", {table, idx}, {n, 256}, {{"axis", std::int64_t{0}}})));
    }
    // Global average pools (the target's `global_pool` figure, per element read): a ResNet's or
    // EfficientNet's head over 7 x 7 planes of many channels, and a squeeze-excitation block's
    // over 56 x 56 planes of few.
    for (const auto& [name, c, side] :
         {std::tuple{"calibrate-global-pool-7x7", 256 * s, std::int64_t{7}},
          std::tuple{"calibrate-global-pool-56x56", 64 * s, std::int64_t{56}}}) {
        SmallGraph g(name);
        auto x = g.input("x", {1, c, side, side});
        out.push_back(g.finish(g.op("GlobalAveragePool", {x}, {1, c, 1, 1})));
    }
    {
        SmallGraph g("calibrate-data_movement");
        const std::int64_t c = 32 * s;
        auto x = g.input("x", {1, c, 56, 56});
        out.push_back(g.finish(g.op("Transpose", {x}, {1, 56, 56, c}, {{"perm", Ints{0, 2, 3, 1}}})));
    }
    {
        // Ops that copy contiguous runs (emulator::isCopy: a DenseNet's or SqueezeNet's channel
        // Concat) at their own figure, `copy`: row by row, several times a Transpose's rate.
        SmallGraph g("calibrate-copy");
        const std::int64_t c = 32 * s;
        auto a = g.input("a", {1, c, 28, 28});
        auto b = g.input("b", {1, c, 28, 28});
        out.push_back(
            g.finish(g.op("Concat", {a, b}, {1, 2 * c, 28, 28}, {{"axis", std::int64_t{1}}})));
    }
    {
        // The same figure on short runs, which pay per run (overhead_cycles.copy_run): a Transpose
        // keeping its last dim moves rows of 16 floats, as a window's rows in a Swin or a MaxViT.
        SmallGraph g("calibrate-copy-rows");
        const std::int64_t c = 16 * s;
        auto x = g.input("x", {1, 56, c, 16});
        out.push_back(
            g.finish(g.op("Transpose", {x}, {1, c, 56, 16}, {{"perm", Ints{0, 2, 1, 3}}})));
    }
    return out;
}

} // namespace strata::calibrate

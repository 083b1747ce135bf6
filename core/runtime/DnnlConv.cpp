#include "runtime/DnnlConv.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <dnnl.hpp>
#include <map>
#include <omp.h>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::runtime {
namespace {

using dnnl::memory;
using rt::i64;

bool holds(const rt::View<float>& v, int d, i64 lo, i64 n) {
    return v.lo[d] <= lo && lo + n <= v.lo[d] + v.ext[d];
}
bool whole(const rt::View<float>& v, int d) {
    return v.lo[d] == 0 && v.ext[d] == v.full[d];
}

template <class... I> float* at(const rt::View<float>& v, I... idx) {
    const i64 index[] = {idx...};
    return v.data + v.offset(index);
}

memory::desc plainDesc(memory::dims dims, memory::dims strides) {
    return memory::desc(dims, memory::data_type::f32, strides);
}

// One spatial dim of a tile: the input range [first, first + size) the output box reads inside
// the tensor, and the zero padding before and after it.
struct Span {
    i64 first = 0, size = 0, padBefore = 0, padAfter = 0;
};

std::optional<Span> inputSpan(i64 outLo, i64 outExt, i64 kernel, i64 stride, i64 pad, i64 dilation,
                              i64 full) {
    const i64 lo = outLo * stride - pad;
    const i64 hi = (outLo + outExt - 1) * stride - pad + (kernel - 1) * dilation + 1; // exclusive
    const i64 first = std::max<i64>(lo, 0), last = std::min(hi, full);
    if (last <= first)
        return std::nullopt; // the tile reads padding only
    return Span{first, last - first, first - lo, hi - last};
}

// Everything a primitive and its reorders are specialised to.
using Key = std::array<i64, 30>;

struct Entry {
    bool usable = false; // oneDNN offers a fast kernel for this shape
    dnnl::convolution_forward::primitive_desc pd;
    dnnl::convolution_forward conv;
    memory::desc srcPlain, dstPlain, weightsPlain, biasPlain;
    std::optional<dnnl::reorder> toBlocked, fromBlocked;
    memory srcBlocked, dstBlocked, weightsScratch;
    std::map<std::array<i64, 2>, memory> packedWeights; // by (weights key, first output channel)
    // A convolution cut into tiles of output channels reads one input box per tile: the blocked
    // input is kept with the box's address and bytes it came from, and the next tile over the
    // same bytes skips the reorder.
    const float* keptFrom = nullptr;
    std::vector<float> keptBytes;
    std::uint64_t reordersSkipped = 0;
};

// x's box in memory: from its first element to its last (strides are positive).
std::span<const float> boxBytes(const rt::View<float>& x) {
    i64 span = 1;
    for (int d = 0; d < x.rank; ++d)
        span += (x.ext[d] - 1) * x.stride[d];
    return {x.data, static_cast<std::size_t>(span)};
}

bool keptInputFits(const Entry& e, std::span<const float> bytes) {
    // Bits, not values: a -0.0 where a 0.0 was is another input.
    return e.keptFrom == bytes.data() && e.keptBytes.size() == bytes.size() &&
           std::memcmp(e.keptBytes.data(), bytes.data(), bytes.size_bytes()) == 0;
}

} // namespace

struct DnnlConvCache::State {
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
    std::map<Key, Entry> entries;
};

DnnlConvCache::DnnlConvCache() = default;
DnnlConvCache::~DnnlConvCache() = default;
DnnlConvCache::DnnlConvCache(DnnlConvCache&&) noexcept = default;
DnnlConvCache& DnnlConvCache::operator=(DnnlConvCache&&) noexcept = default;

void oneDnnOnThisThreadOnly() {
    static thread_local const bool once = [] {
        omp_set_num_threads(1);
        return true;
    }();
    (void)once;
}

std::uint64_t DnnlConvCache::inputReordersSkipped() const {
    std::uint64_t n = 0;
    if (state)
        for (const auto& [key, e] : state->entries)
            n += e.reordersSkipped;
    return n;
}

bool dnnlConvSuits(const compiler::KernelCall& call) {
    const auto& win = call.window;
    return call.group == 1 && win[0] * win[1] > 1;
}

namespace {

// The primitive for one tile shape, or an unusable entry when oneDNN has only its reference or
// gemm implementations for it (slower than the sgemm path).
void create(Entry& e, const dnnl::engine& engine, const memory::dims& src,
            const memory::dims& srcStrides, const memory::dims& dst, const memory::dims& dstStrides,
            const memory::dims& weights, const memory::dims& weightsStrides,
            std::optional<i64> biasStride, const memory::dims& strides, const memory::dims& dilates,
            const memory::dims& padBefore, const memory::dims& padAfter) {
    e.srcPlain = plainDesc(src, srcStrides);
    e.dstPlain = plainDesc(dst, dstStrides);
    e.weightsPlain = plainDesc(weights, weightsStrides);
    const auto any = memory::format_tag::any;
    const memory::desc srcAny(src, memory::data_type::f32, any),
        dstAny(dst, memory::data_type::f32, any), weightsAny(weights, memory::data_type::f32, any);
    try {
        std::optional<dnnl::convolution_forward::desc> d;
        if (biasStride) {
            e.biasPlain = plainDesc({weights[0]}, {*biasStride});
            d.emplace(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                      srcAny, weightsAny,
                      memory::desc({weights[0]}, memory::data_type::f32, memory::format_tag::a),
                      dstAny, strides, dilates, padBefore, padAfter);
        } else {
            d.emplace(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
                      srcAny, weightsAny, dstAny, strides, dilates, padBefore, padAfter);
        }
        e.pd = dnnl::convolution_forward::primitive_desc(*d, engine);
        const std::string impl = e.pd.impl_info_str();
        if (impl.find("brg") == std::string::npos && impl.find("jit") == std::string::npos)
            return;
        if (impl.find("gemm") != std::string::npos)
            return;
        e.conv = dnnl::convolution_forward(e.pd);
        if (e.pd.src_desc() != e.srcPlain) {
            e.srcBlocked = memory(e.pd.src_desc(), engine);
            e.toBlocked = dnnl::reorder(
                dnnl::reorder::primitive_desc(engine, e.srcPlain, engine, e.pd.src_desc()));
        }
        if (e.pd.dst_desc() != e.dstPlain) {
            e.dstBlocked = memory(e.pd.dst_desc(), engine);
            e.fromBlocked = dnnl::reorder(
                dnnl::reorder::primitive_desc(engine, e.pd.dst_desc(), engine, e.dstPlain));
        }
        e.usable = true;
    } catch (const dnnl::error&) {
        e.usable = false; // no implementation for this shape: the caller falls back
    }
}

// The weights as the primitive reads them: packed once per constant tile, else every call.
memory weightsFor(Entry& e, DnnlConvCache::State& s, float* plain, std::int64_t weightsKey,
                  i64 firstChannel) {
    memory user(e.weightsPlain, s.engine, plain);
    if (e.pd.weights_desc() == e.weightsPlain)
        return user;
    auto pack = [&](memory& into) { dnnl::reorder(user, into).execute(s.stream, user, into); };
    if (weightsKey < 0) {
        if (!e.weightsScratch)
            e.weightsScratch = memory(e.pd.weights_desc(), s.engine);
        pack(e.weightsScratch);
        return e.weightsScratch;
    }
    memory& packed = e.packedWeights[{weightsKey, firstChannel}];
    if (!packed) {
        packed = memory(e.pd.weights_desc(), s.engine);
        pack(packed);
    }
    return packed;
}

} // namespace

bool dnnlConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const compiler::KernelCall& call, std::int64_t weightsKey,
              DnnlConvCache& cache) {
    if (!dnnlConvSuits(call) || y.rank != 4 || x.rank != 4 || w.rank != 4)
        return false;
    const auto& win = call.window;
    const i64 kh = win[0], kw = win[1], sh = win[2], sw = win[3], ph = win[4], pw = win[5],
              dh = win[6], dw = win[7];
    if (kh < 1 || kw < 1 || sh < 1 || sw < 1 || dh < 1 || dw < 1)
        return false;
    const i64 channels = w.full[1];
    if (channels != x.full[1] || !whole(w, 1) || !whole(w, 2) || !whole(w, 3) ||
        !holds(w, 0, y.lo[1], y.ext[1]))
        return false;
    if (!holds(x, 0, y.lo[0], y.ext[0]) || !holds(x, 1, 0, channels))
        return false;
    if (b && (b->stride[0] != 1 || !holds(*b, 0, y.lo[1], y.ext[1])))
        return false;
    const auto rows = inputSpan(y.lo[2], y.ext[2], kh, sh, ph, dh, x.full[2]);
    const auto cols = inputSpan(y.lo[3], y.ext[3], kw, sw, pw, dw, x.full[3]);
    if (!rows || !cols || !holds(x, 2, rows->first, rows->size) ||
        !holds(x, 3, cols->first, cols->size))
        return false;
    if (y.count() == 0)
        return true;

    oneDnnOnThisThreadOnly();
    if (!cache.state)
        cache.state = std::make_unique<DnnlConvCache::State>();
    DnnlConvCache::State& s = *cache.state;

    const i64 n = y.ext[0], m = y.ext[1];
    const Key key{n,
                  channels,
                  rows->size,
                  cols->size,
                  m,
                  y.ext[2],
                  y.ext[3],
                  kh,
                  kw,
                  sh,
                  sw,
                  dh,
                  dw,
                  rows->padBefore,
                  rows->padAfter,
                  cols->padBefore,
                  cols->padAfter,
                  x.stride[0],
                  x.stride[1],
                  x.stride[2],
                  x.stride[3],
                  y.stride[0],
                  y.stride[1],
                  y.stride[2],
                  y.stride[3],
                  w.stride[0],
                  w.stride[1],
                  w.stride[2],
                  w.stride[3],
                  b ? 1 : 0};
    auto [it, created] = s.entries.try_emplace(key);
    Entry& e = it->second;
    if (created)
        create(e, s.engine, {n, channels, rows->size, cols->size},
               {x.stride[0], x.stride[1], x.stride[2], x.stride[3]}, {n, m, y.ext[2], y.ext[3]},
               {y.stride[0], y.stride[1], y.stride[2], y.stride[3]}, {m, channels, kh, kw},
               {w.stride[0], w.stride[1], w.stride[2], w.stride[3]},
               b ? std::optional<i64>(b->stride[0]) : std::nullopt, {sh, sw}, {dh - 1, dw - 1},
               {rows->padBefore, cols->padBefore}, {rows->padAfter, cols->padAfter});
    if (!e.usable)
        return false;

    memory src(e.srcPlain, s.engine, at(x, y.lo[0], i64{0}, rows->first, cols->first));
    memory dst(e.dstPlain, s.engine, y.data);
    memory weights = weightsFor(e, s, at(w, y.lo[1], i64{0}, i64{0}, i64{0}), weightsKey, y.lo[1]);
    if (e.toBlocked) {
        const auto bytes = boxBytes(x);
        const bool channelTile = y.ext[1] < y.full[1];
        if (channelTile && keptInputFits(e, bytes)) {
            ++e.reordersSkipped;
        } else {
            e.toBlocked->execute(s.stream, src, e.srcBlocked);
            e.keptFrom = channelTile ? bytes.data() : nullptr;
            if (channelTile)
                e.keptBytes.assign(bytes.begin(), bytes.end());
        }
    }
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, e.toBlocked ? e.srcBlocked : src},
                                         {DNNL_ARG_WEIGHTS, weights},
                                         {DNNL_ARG_DST, e.fromBlocked ? e.dstBlocked : dst}};
    if (b)
        args.emplace(DNNL_ARG_BIAS, memory(e.biasPlain, s.engine, at(*b, y.lo[1])));
    e.conv.execute(s.stream, args);
    if (e.fromBlocked)
        e.fromBlocked->execute(s.stream, e.dstBlocked, dst);
    s.stream.wait();
    return true;
}

} // namespace strata::runtime

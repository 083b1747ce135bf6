// strata_rt's oneDNN kernels: convolutions with a window on oneDNN's direct convolution
// (DnnlConvolutions, the class the host runtime calls too) and, in a generated file built with
// -DSTRATA_RT_DNNL, the other convolutions, Gemm and MatMul as matrix products on oneDNN's
// sgemm. Part of strata_rt.h, which includes it after View and Window2d (and the C++ emitter
// inlines it there); not a header of its own.
#pragma once

#if defined(STRATA_RT_DNNL) || defined(STRATA_RT_DNNL_KERNELS)
#include <array>
#include <dnnl.hpp>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#endif

namespace strata_rt {

#if defined(STRATA_RT_DNNL) || defined(STRATA_RT_DNNL_KERNELS)
// --- convolutions on oneDNN's direct kernels (the host runtime's too) ---------------------------

// Convolutions with a window (larger than 1x1; one group, or groups of several channels) on
// oneDNN's direct convolution (brgconv / jit kernels). Those want activations in a
// channel-blocked layout and weights packed to match; the boxes stay row-major, so each call
// reorders its input box into the blocked layout and the result back. One object per thread: it
// keeps a primitive per tile shape, constant weight tiles packed once (by the caller's key for
// the weights), and, for tiles of output channels over the same input bytes (one group), the
// reordered input.
// A fused epilogue step as a oneDNN post-op on the convolution's output while it is in cache:
// an eltwise kind with its alpha and beta, or (sum) adding `addend`, a box laid out as the
// output's (the same extents and strides). At most one sum.
struct ConvPostOp {
    bool sum = false;
    dnnl::algorithm eltwise = dnnl::algorithm::undef;
    float alpha = 0, beta = 0;
    const float* addend = nullptr;
};
constexpr int kMaxConvPostOps = 8;

// The longest prefix of a fused epilogue that oneDNN runs as post-ops on y: the activations it
// has an eltwise kind for and one add of a box laid out as y's (the sum). Returns its length.
inline int convPostOps(const View<float>& y, const EpilogueStep* steps, int count,
                       ConvPostOp* out) {
    int n = 0;
    bool summed = false;
    for (; n < count && n < kMaxConvPostOps; ++n) {
        const EpilogueStep& s = steps[n];
        ConvPostOp& op = out[n];
        op = {};
        op.alpha = s.alpha;
        op.beta = s.beta;
        switch (s.act) {
        case Act::Relu: op.eltwise = dnnl::algorithm::eltwise_relu; op.alpha = 0; break;
        case Act::LeakyRelu: op.eltwise = dnnl::algorithm::eltwise_relu; break;
        case Act::Sigmoid: op.eltwise = dnnl::algorithm::eltwise_logistic; break;
        case Act::Tanh: op.eltwise = dnnl::algorithm::eltwise_tanh; break;
        case Act::Elu: op.eltwise = dnnl::algorithm::eltwise_elu; break;
        case Act::Clip: op.eltwise = dnnl::algorithm::eltwise_clip; break;
        case Act::HardSwish: op.eltwise = dnnl::algorithm::eltwise_hardswish; break;
        // SiLU stops the post-ops: strata_rt's sigmoidRun over the output after the call costs
        // 0.15 ns per element where oneDNN 2.6's swish post-op costs 0.23 (one thread, a 16 -> 96
        // 1x1 convolution of 56 x 112 positions channels-last: 80 us plain, 215 with the
        // post-op, 168 with the pass after; docs/RUNTIME.md).
        case Act::Silu:
            return n;
        case Act::Add: {
            bool sameBox = !summed && s.other && s.other->rank == y.rank;
            for (int d = 0; sameBox && d < y.rank; ++d)
                sameBox = s.other->ext[d] == y.ext[d] && s.other->lo[d] == y.lo[d] &&
                          s.other->stride[d] == y.stride[d];
            if (!sameBox)
                return n;
            op.sum = true;
            op.addend = s.other->data;
            summed = true;
            break;
        }
        default: return n;
        }
    }
    return n;
}

// In-place layout rewrites of contiguous 4-D boxes (strata_rt's reorder, a Reorder
// instruction) on oneDNN's reorder: into a scratch buffer, then copied back over the box. One
// object per thread; a primitive per box shape and pair of layouts (0 row-major, -1 nhwc,
// 4/8/16 nChw<b>c). False where it has none (the caller's loops run).
class DnnlReorders {
  public:
    bool run(float* data, const i64* ext, i64 from, i64 to) {
        const auto fromTag = tag(from, ext[1]), toTag = tag(to, ext[1]);
        const auto none = dnnl::memory::format_tag::undef;
        if (fromTag == none || toTag == none)
            return false;
        if (!m_engine) {
            m_engine.emplace(dnnl::engine::kind::cpu, 0);
            m_stream.emplace(*m_engine);
        }
        auto [it, created] = m_entries.try_emplace({ext[0], ext[1], ext[2], ext[3], from, to});
        Entry& e = it->second;
        if (created) {
            try {
                const dnnl::memory::dims dims{ext[0], ext[1], ext[2], ext[3]};
                const auto f32 = dnnl::memory::data_type::f32;
                e.src = dnnl::memory::desc(dims, f32, fromTag);
                e.dst = dnnl::memory::desc(dims, f32, toTag);
                e.reorder = dnnl::reorder(
                    dnnl::reorder::primitive_desc(*m_engine, e.src, *m_engine, e.dst));
                e.usable = true;
            } catch (const dnnl::error&) {
                e.usable = false;
            }
        }
        if (!e.usable)
            return false;
        const std::size_t count = static_cast<std::size_t>(ext[0] * ext[1] * ext[2] * ext[3]);
        m_scratch.resize(count);
        dnnl::memory src(e.src, *m_engine, data), dst(e.dst, *m_engine, m_scratch.data());
        e.reorder.execute(*m_stream, src, dst);
        m_stream->wait();
        std::memcpy(data, m_scratch.data(), count * sizeof(float));
        return true;
    }

  private:
    // oneDNN's tag for a layout of `channels` whole blocks; undef for any other.
    static dnnl::memory::format_tag tag(i64 block, i64 channels) {
        using T = dnnl::memory::format_tag;
        if (block > 1 && channels % block != 0)
            return T::undef;
        switch (block) {
        case -1: return T::nhwc;
        case 0: return T::nchw;
        case 4: return T::nChw4c;
        case 8: return T::nChw8c;
        case 16: return T::nChw16c;
        default: return T::undef;
        }
    }

    struct Entry {
        bool usable = false;
        dnnl::memory::desc src, dst;
        dnnl::reorder reorder;
    };
    std::optional<dnnl::engine> m_engine;
    std::optional<dnnl::stream> m_stream;
    std::map<std::array<i64, 6>, Entry> m_entries;
    std::vector<float> m_scratch;
};

class DnnlConvolutions {
  public:
    // Whether oneDNN is this window's faster kernel (docs/RUNTIME.md has the measurements): a
    // 1x1 window over row-major boxes stays on sgemm, which needs no im2col there and for which
    // oneDNN has only its own gemm; between channels-last boxes (`xBlock`, `yBlock` -1) oneDNN's
    // 1x1 kernel with the bias and epilogue as post-ops beats sgemm and a pass after it. A
    // grouped window (run checks that its groups have several input channels: a depthwise one
    // has a kernel of its own) over row-major boxes: oneDNN's grouped kernel, reorders included,
    // ran RegNetY-400MF's groups of 8 channels 1.8-3x faster than im2col and an sgemm per group
    // (per op in a model, docs/RUNTIME.md).
    static bool suits(const Window2d& win, i64 group, i64 xBlock = 0, i64 yBlock = 0) {
        const bool window = win.kernel[0] * win.kernel[1] > 1;
        if (group != 1)
            return window && xBlock == 0 && yBlock == 0;
        return window || (xBlock == -1 && yBlock == -1);
    }

    // y = conv(x, w) + b on the operand boxes. `weightsKey` names constant weights (their packed
    // tiles are kept), or is negative. False, having written nothing, where the boxes lack what
    // the output box reads or oneDNN has no fast kernel for the shape.
    // `post`: `posts` epilogue steps applied to the result as post-ops, in order.
    // `xBlock`, `yBlock`: the layouts of x's box and of y's (and the sum's addend's), 0 row-major,
    // b > 1 nChw<b>c (docs/ISA.md, Layouts): the primitive reads and writes them as they are; a
    // row-major box is reordered into the layout the kernel wants inside the call.
    bool run(const View<float>& y, const View<float>& x, const View<float>& w, const View<float>* b,
             const Window2d& win, i64 group, i64 weightsKey, const ConvPostOp* post = nullptr,
             int posts = 0, i64 xBlock = 0, i64 yBlock = 0) {
        if (!suits(win, group, xBlock, yBlock) || y.rank != 4 || x.rank != 4 || w.rank != 4 ||
            posts < 0 || posts > kMaxConvPostOps)
            return false;
        if ((xBlock != 0 && ((xBlock > 1 && x.ext[1] % xBlock != 0) || x.lo[1] != 0 || x.lo[0] != y.lo[0] ||
                            x.ext[0] != y.ext[0])) ||
            (yBlock > 1 && y.ext[1] % yBlock != 0))
            return false;
        // A tile of whole groups reads their input channels: [firstChannel, + channels).
        const i64 groupChannels = w.full[1], outPerGroup = group > 0 ? y.full[1] / group : 0;
        if (group > 1 && (groupChannels < 2 || outPerGroup < 1 || y.full[1] % group != 0 ||
                          y.lo[1] % outPerGroup != 0 || y.ext[1] % outPerGroup != 0))
            return false;
        const i64 tileGroups = group > 1 ? y.ext[1] / outPerGroup : 1,
                  channels = tileGroups * groupChannels,
                  firstChannel = group > 1 ? y.lo[1] / outPerGroup * groupChannels : 0;
        const bool wholeTaps = w.lo[1] == 0 && w.ext[1] == groupChannels && w.lo[2] == 0 &&
                               w.ext[2] == w.full[2] && w.lo[3] == 0 && w.ext[3] == w.full[3];
        if (group * groupChannels != x.full[1] || !wholeTaps || !holds(w, 0, y.lo[1], y.ext[1]))
            return false;
        if (!holds(x, 0, y.lo[0], y.ext[0]) || !holds(x, 1, firstChannel, channels))
            return false;
        if (b && (b->stride[0] != 1 || !holds(*b, 0, y.lo[1], y.ext[1])))
            return false;
        Span rows, cols;
        if (!inputSpan(y, x, win, 0, rows) || !inputSpan(y, x, win, 1, cols))
            return false;
        if (y.count() == 0)
            return true;

        if (!m_engine) {
            m_engine.emplace(dnnl::engine::kind::cpu, 0);
            m_stream.emplace(*m_engine);
        }
        const std::array<i64, 34> shapeKey{
            y.ext[0],       channels,        rows.size,       cols.size,      y.ext[1],
            y.ext[2],       y.ext[3],        win.kernel[0],   win.kernel[1],  win.stride[0],
            win.stride[1],  win.dilation[0], win.dilation[1], rows.padBefore, rows.padAfter,
            cols.padBefore, cols.padAfter,   x.stride[0],     x.stride[1],    x.stride[2],
            x.stride[3],    y.stride[0],     y.stride[1],     y.stride[2],    y.stride[3],
            w.stride[0],    w.stride[1],     w.stride[2],     w.stride[3],    b ? 1 : 0,
            xBlock,         yBlock,          rows.first - x.lo[2], cols.first - x.lo[3]};
        Key key{}; // zeroed: the post-op slots past `posts` are part of the key too
        std::copy(shapeKey.begin(), shapeKey.end(), key.begin());
        key.back() = tileGroups;
        key[shapeKey.size()] = posts;
        const float* addend = nullptr;
        for (int i = 0; i < posts; ++i) {
            std::uint32_t alpha = 0, beta = 0;
            std::memcpy(&alpha, &post[i].alpha, sizeof alpha);
            std::memcpy(&beta, &post[i].beta, sizeof beta);
            key[shapeKey.size() + 1 + 2 * static_cast<std::size_t>(i)] =
                post[i].sum ? -1 : static_cast<i64>(post[i].eltwise);
            key[shapeKey.size() + 2 + 2 * static_cast<std::size_t>(i)] =
                static_cast<i64>((std::uint64_t{alpha} << 32) | beta);
            if (post[i].sum) {
                if (addend)
                    return false; // oneDNN takes one sum
                addend = post[i].addend;
            }
        }
        auto [it, created] = m_entries.try_emplace(key);
        Entry& e = it->second;
        if (created)
            create(e, y, x, w, b, win, tileGroups, rows, cols, post, posts, xBlock, yBlock);
        if (!e.usable)
            return false;

        const i64 xi[4] = {y.lo[0], firstChannel, rows.first, cols.first},
                  wi[4] = {y.lo[1], 0, 0, 0};
        dnnl::memory src(e.srcPlain, *m_engine,
                         xBlock != 0 ? x.data : const_cast<float*>(&x.at(xi)));
        dnnl::memory dst(e.dstPlain, *m_engine, y.data);
        dnnl::memory weights = weightsFor(e, &w.at(wi), weightsKey, y.lo[1]);
        // Tiles of a grouped convolution's output channels read other input channels.
        if (e.toBlocked)
            reorderInput(e, x, src, group == 1 && y.ext[1] < y.full[1]);
        if (addend) { // the sum post-op adds to what the destination holds
            if (e.fromBlocked) {
                dnnl::memory plainAddend(e.dstPlain, *m_engine, const_cast<float*>(addend));
                e.addendToBlocked->execute(*m_stream, plainAddend, e.dstBlocked);
            } else {
                i64 span = 1;
                for (int d = 0; d < y.rank; ++d)
                    span += (y.ext[d] - 1) * y.stride[d];
                std::memcpy(y.data, addend, static_cast<std::size_t>(span) * sizeof(float));
            }
        }
        std::unordered_map<int, dnnl::memory> args{
            {DNNL_ARG_SRC, e.toBlocked ? e.srcBlocked : src},
            {DNNL_ARG_WEIGHTS, weights},
            {DNNL_ARG_DST, e.fromBlocked ? e.dstBlocked : dst}};
        const i64 bi[1] = {y.lo[1]};
        if (b)
            args.emplace(DNNL_ARG_BIAS,
                         dnnl::memory(e.biasPlain, *m_engine, const_cast<float*>(&b->at(bi))));
        e.conv.execute(*m_stream, args);
        if (e.fromBlocked)
            e.fromBlocked->execute(*m_stream, e.dstBlocked, dst);
        m_stream->wait();
        return true;
    }

    // Tiles of output channels that found their input already reordered (tests, figures).
    std::uint64_t inputReordersSkipped() const {
        std::uint64_t n = 0;
        for (const auto& entry : m_entries)
            n += entry.second.reordersSkipped;
        return n;
    }

  private:
    // Everything a primitive and its reorders are specialised to: the shapes and strides, then
    // the post-ops (count, and per step its kind and its alpha and beta bits), last the groups.
    using Key = std::array<i64, 36 + 2 * kMaxConvPostOps>;
    using Dims = dnnl::memory::dims;

    struct Entry {
        bool usable = false; // oneDNN has a fast kernel for this shape
        dnnl::convolution_forward::primitive_desc pd;
        dnnl::convolution_forward conv;
        dnnl::memory::desc srcPlain, dstPlain, weightsPlain, biasPlain;
        std::optional<dnnl::reorder> toBlocked, fromBlocked, addendToBlocked;
        dnnl::memory srcBlocked, dstBlocked, weightsScratch;
        std::map<std::array<i64, 2>, dnnl::memory> packedWeights; // by (weights key, first channel)
        const float* keptFrom = nullptr; // the input box whose bytes srcBlocked holds reordered
        std::vector<float> keptBytes;
        std::uint64_t reordersSkipped = 0;
    };

    // One spatial dim of a tile: the input range [first, first + size) the output box reads
    // inside the tensor, and the zero padding before and after it.
    struct Span {
        i64 first = 0, size = 0, padBefore = 0, padAfter = 0;
    };

    static bool holds(const View<float>& v, int d, i64 lo, i64 n) {
        return v.lo[d] <= lo && lo + n <= v.lo[d] + v.ext[d];
    }

    static bool inputSpan(const View<float>& y, const View<float>& x, const Window2d& win, int d,
                          Span& out) {
        const i64 k = win.kernel[d], s = win.stride[d], dil = win.dilation[d];
        if (k < 1 || s < 1 || dil < 1)
            return false;
        const i64 lo = y.lo[2 + d] * s - win.padBegin[d];
        const i64 hi =
            (y.lo[2 + d] + y.ext[2 + d] - 1) * s - win.padBegin[d] + (k - 1) * dil + 1; // exclusive
        const i64 first = std::max<i64>(lo, 0), last = std::min(hi, x.full[2 + d]);
        if (last <= first)
            return false; // the tile reads padding only
        out = Span{first, last - first, first - lo, hi - last};
        return holds(x, 2 + d, out.first, out.size);
    }

    static dnnl::memory::desc plain(const Dims& dims, const Dims& strides) {
        return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, strides);
    }

    // The primitive for one tile shape; an unusable entry when oneDNN has only its reference or
    // gemm implementations for it (no faster than im2col + sgemm).
    void create(Entry& e, const View<float>& y, const View<float>& x, const View<float>& w,
                const View<float>* b, const Window2d& win, i64 groups, const Span& rows,
                const Span& cols, const ConvPostOp* post, int posts, i64 xBlock, i64 yBlock) {
        const Dims src{y.ext[0], groups * w.full[1], rows.size, cols.size},
            dst{y.ext[0], y.ext[1], y.ext[2], y.ext[3]};
        // Grouped weights as oneDNN takes them: (groups, outputs per group, inputs, taps).
        const i64 outPerGroup = y.ext[1] / groups;
        const Dims weights = groups == 1
                                 ? Dims{y.ext[1], w.full[1], w.full[2], w.full[3]}
                                 : Dims{groups, outPerGroup, w.full[1], w.full[2], w.full[3]};
        e.srcPlain = plain(src, {x.stride[0], x.stride[1], x.stride[2], x.stride[3]});
        e.dstPlain = plain(dst, {y.stride[0], y.stride[1], y.stride[2], y.stride[3]});
        const auto blockedTag = [](i64 block) {
            return block == -1  ? dnnl::memory::format_tag::nhwc
                   : block == 16 ? dnnl::memory::format_tag::nChw16c
                   : block == 8 ? dnnl::memory::format_tag::nChw8c
                   : block == 4 ? dnnl::memory::format_tag::nChw4c
                                : dnnl::memory::format_tag::undef;
        };
        if ((xBlock != 0 && blockedTag(xBlock) == dnnl::memory::format_tag::undef) ||
            (yBlock != 0 && blockedTag(yBlock) == dnnl::memory::format_tag::undef))
            return;
        // Blocked boxes as the program lays them out: the span x's taps read inside its box.
        if (xBlock != 0) {
            const dnnl::memory::desc box(Dims{x.ext[0], x.ext[1], x.ext[2], x.ext[3]},
                                         dnnl::memory::data_type::f32, blockedTag(xBlock));
            const bool whole = rows.first == x.lo[2] && rows.size == x.ext[2] &&
                               cols.first == x.lo[3] && cols.size == x.ext[3];
            e.srcPlain = whole ? box
                               : box.submemory_desc(src, {0, 0, rows.first - x.lo[2],
                                                          cols.first - x.lo[3]});
        }
        if (yBlock != 0)
            e.dstPlain =
                dnnl::memory::desc(dst, dnnl::memory::data_type::f32, blockedTag(yBlock));
        e.weightsPlain = groups == 1
                             ? plain(weights, {w.stride[0], w.stride[1], w.stride[2], w.stride[3]})
                             : plain(weights, {outPerGroup * w.stride[0], w.stride[0], w.stride[1],
                                               w.stride[2], w.stride[3]});
        const auto f32 = dnnl::memory::data_type::f32;
        const auto any = dnnl::memory::format_tag::any;
        const Dims strides{win.stride[0], win.stride[1]},
            dilates{win.dilation[0] - 1, win.dilation[1] - 1};
        const Dims padBefore{rows.padBefore, cols.padBefore},
            padAfter{rows.padAfter, cols.padAfter};
        try {
            const auto kind = dnnl::prop_kind::forward_inference;
            const auto algorithm = dnnl::algorithm::convolution_direct;
            // A blocked box is what the primitive gets; a row-major one, what it prefers.
            const dnnl::memory::desc srcAny = xBlock != 0 ? e.srcPlain : dnnl::memory::desc(src, f32, any),
                                     dstAny = yBlock != 0 ? e.dstPlain : dnnl::memory::desc(dst, f32, any),
                                     weightsAny(weights, f32, any);
            dnnl::post_ops ops;
            bool sums = false;
            for (int i = 0; i < posts; ++i) {
                if (post[i].sum)
                    ops.append_sum(1.0f);
                else
                    ops.append_eltwise(1.0f, post[i].eltwise, post[i].alpha, post[i].beta);
                sums = sums || post[i].sum;
            }
            dnnl::primitive_attr attr;
            attr.set_post_ops(ops);
            if (b) {
                e.biasPlain = plain({y.ext[1]}, {1});
                e.pd = dnnl::convolution_forward::primitive_desc(
                    dnnl::convolution_forward::desc(kind, algorithm, srcAny, weightsAny,
                                                    e.biasPlain, dstAny, strides, dilates,
                                                    padBefore, padAfter),
                    attr, *m_engine);
            } else {
                e.pd = dnnl::convolution_forward::primitive_desc(
                    dnnl::convolution_forward::desc(kind, algorithm, srcAny, weightsAny, dstAny,
                                                    strides, dilates, padBefore, padAfter),
                    attr, *m_engine);
            }
            const std::string impl = e.pd.impl_info_str();
            const bool fast =
                impl.find("brg") != std::string::npos || impl.find("jit") != std::string::npos;
            if (!fast || impl.find("gemm") != std::string::npos)
                return;
            e.conv = dnnl::convolution_forward(e.pd);
            if (e.pd.src_desc() != e.srcPlain) {
                e.srcBlocked = dnnl::memory(e.pd.src_desc(), *m_engine);
                e.toBlocked = dnnl::reorder(dnnl::reorder::primitive_desc(
                    *m_engine, e.srcPlain, *m_engine, e.pd.src_desc()));
            }
            if (e.pd.dst_desc() != e.dstPlain) {
                e.dstBlocked = dnnl::memory(e.pd.dst_desc(), *m_engine);
                e.fromBlocked = dnnl::reorder(dnnl::reorder::primitive_desc(
                    *m_engine, e.pd.dst_desc(), *m_engine, e.dstPlain));
                if (sums)
                    e.addendToBlocked = dnnl::reorder(dnnl::reorder::primitive_desc(
                        *m_engine, e.dstPlain, *m_engine, e.pd.dst_desc()));
            }
            e.usable = true;
        } catch (const dnnl::error&) {
            e.usable = false; // no implementation for this shape: the caller falls back
        }
    }

    // The weights as the primitive reads them: packed once per constant tile, else every call.
    dnnl::memory weightsFor(Entry& e, const float* plainWeights, i64 weightsKey, i64 firstChannel) {
        dnnl::memory user(e.weightsPlain, *m_engine, const_cast<float*>(plainWeights));
        if (e.pd.weights_desc() == e.weightsPlain)
            return user;
        auto pack = [&](dnnl::memory& into) {
            dnnl::reorder(user, into).execute(*m_stream, user, into);
        };
        if (weightsKey < 0) {
            if (!e.weightsScratch)
                e.weightsScratch = dnnl::memory(e.pd.weights_desc(), *m_engine);
            pack(e.weightsScratch);
            return e.weightsScratch;
        }
        dnnl::memory& packed = e.packedWeights[{weightsKey, firstChannel}];
        if (!packed) {
            packed = dnnl::memory(e.pd.weights_desc(), *m_engine);
            pack(packed);
        }
        return packed;
    }

    // Reorders the input box into the blocked layout, unless this is a tile of output channels
    // over the very bytes the previous call of this shape reordered (bits compared, not values:
    // a -0.0 where a 0.0 was is another input).
    void reorderInput(Entry& e, const View<float>& x, dnnl::memory& src, bool channelTile) {
        i64 span = 1;
        for (int d = 0; d < x.rank; ++d)
            span += (x.ext[d] - 1) * x.stride[d];
        const auto bytes = static_cast<std::size_t>(span) * sizeof(float);
        if (channelTile && e.keptFrom == x.data && e.keptBytes.size() * sizeof(float) == bytes &&
            std::memcmp(e.keptBytes.data(), x.data, bytes) == 0) {
            ++e.reordersSkipped;
            return;
        }
        e.toBlocked->execute(*m_stream, src, e.srcBlocked);
        e.keptFrom = channelTile ? x.data : nullptr;
        if (channelTile)
            e.keptBytes.assign(x.data, x.data + span);
    }

    std::optional<dnnl::engine> m_engine;
    std::optional<dnnl::stream> m_stream;
    std::map<Key, Entry> m_entries;
};
#endif

#ifdef STRATA_RT_DNNL
// --- matrix products on oneDNN (-DSTRATA_RT_DNNL) ----------------------------------------------

// y = alpha * op(A) op(B) + beta * y, row-major, on oneDNN's sgemm.
inline void sgemm(bool transA, bool transB, i64 m, i64 n, i64 k, float alpha, const float* a,
                  i64 lda, const float* b, i64 ldb, float beta, float* y, i64 ldy) {
    dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, y,
               ldy);
}

// Whether the box holds [lo, lo + n) of dim d.
template <class T> bool holdsRange(const View<T>& v, int d, i64 lo, i64 n) {
    return v.lo[d] <= lo && lo + n <= v.lo[d] + v.ext[d];
}

// The im2col matrix of `channels` input channels from `firstChannel` for batch n: a row per
// (channel, tap), a column per position of the output box; taps in the padding read zero.
inline void gatherColumns(const View<float>& y, const View<float>& x, const Window2d& win, i64 n,
                          i64 firstChannel, i64 channels, i64 kh, i64 kw, float* columns) {
    const i64 oh = y.ext[2], ow = y.ext[3];
    for (i64 c = 0; c < channels; ++c)
        for (i64 i = 0; i < kh; ++i)
            for (i64 j = 0; j < kw; ++j) {
                float* dst = columns + ((c * kh + i) * kw + j) * oh * ow;
                const i64 off = j * win.dilation[1] - win.padBegin[1];
                // The output columns whose tap lies inside the input: [first, last].
                i64 first = 0, last = ow - 1;
                while (first < ow && (y.lo[3] + first) * win.stride[1] + off < 0)
                    ++first;
                while (last >= first && (y.lo[3] + last) * win.stride[1] + off >= x.full[3])
                    --last;
                const i64 firstColumn = (y.lo[3] + first) * win.stride[1] + off;
                const float* plane = x.data + (n - x.lo[0]) * x.stride[0] +
                                     (firstChannel + c - x.lo[1]) * x.stride[1] +
                                     (firstColumn - x.lo[3]);
                for (i64 r = 0; r < oh; ++r) {
                    float* row = dst + r * ow;
                    const i64 ih =
                        (y.lo[2] + r) * win.stride[0] - win.padBegin[0] + i * win.dilation[0];
                    if (ih < 0 || ih >= x.full[2] || first > last) {
                        std::fill(row, row + ow, 0.0f);
                        continue;
                    }
#ifdef STRATA_RT_CHECK
                    i64 xi[4] = {n, firstChannel + c, ih, firstColumn};
                    (void)x.at(xi); // the row's first and last taps inside the box
                    xi[3] = (y.lo[3] + last) * win.stride[1] + off;
                    (void)x.at(xi);
#endif
                    // Short rows (7 to 56 floats) as plain loops: a library call each costs more.
                    const float* in = plane + (ih - x.lo[2]) * x.stride[2];
                    for (i64 q = 0; q < first; ++q)
                        row[q] = 0.0f;
                    if (win.stride[1] == 1)
                        for (i64 q = first; q <= last; ++q)
                            row[q] = in[q - first];
                    else
                        for (i64 q = first; q <= last; ++q)
                            row[q] = in[(q - first) * win.stride[1]];
                    for (i64 q = last + 1; q < ow; ++q)
                        row[q] = 0.0f;
                }
            }
}

// The bias and a fused epilogue's leading activations on `rows` rows of `rowLength` floats, in
// one pass over runs of a few thousand floats while they are in cache (the host runtime's
// biasAndMaps): `bias` holds a value per row, or with `perColumn` one per element of a row, or
// is null. Returns how many epilogue steps it ran.
inline int biasAndActivations(float* data, i64 rows, i64 rowLength, const float* bias,
                              bool perColumn, const EpilogueStep* steps, int count) {
    int activations = 0;
    while (activations < count && steps[activations].act != Act::Add &&
           steps[activations].act != Act::Sub && steps[activations].act != Act::Mul)
        ++activations;
    const i64 rowsPerRun = std::max<i64>(1, 4096 / std::max<i64>(rowLength, 1));
    for (i64 r0 = 0; r0 < rows; r0 += rowsPerRun) {
        const i64 r1 = std::min(rows, r0 + rowsPerRun);
        for (i64 r = r0; bias && r < r1; ++r) {
            float* values = data + r * rowLength;
            if (perColumn)
                for (i64 j = 0; j < rowLength; ++j)
                    values[j] += bias[j];
            else {
                const float v = bias[r];
                for (i64 j = 0; j < rowLength; ++j)
                    values[j] += v;
            }
        }
        if (activations == 0)
            continue;
        View<float> run;
        run.data = data + r0 * rowLength;
        run.rank = 1;
        run.ext[0] = run.full[0] = (r1 - r0) * rowLength;
        run.stride[0] = 1;
        epilogue(run, steps, activations);
    }
    return activations;
}

// The `n` values of a bias box from element `first`, contiguous (a scratch copy per thread when
// the box's are not).
inline const float* contiguousBias(const View<float>* b, i64 first, i64 n) {
    if (!b)
        return nullptr;
    const i64 bi[1] = {first};
    const float* p = &b->at(bi);
    if (b->stride[0] == 1)
        return p;
    static thread_local std::vector<float> copy;
    copy.resize(static_cast<std::size_t>(n));
    for (i64 i = 0; i < n; ++i)
        copy[static_cast<std::size_t>(i)] = p[i * b->stride[0]];
    return copy.data();
}

// The convolution as one matrix product per group: the weights (output channels x taps) times
// the im2col matrix, or the input box itself for a 1x1 stride-1 window over whole rows of the
// output's columns; the bias and the epilogue's leading activations then run on each output
// channel's rows in one pass. Returns how many epilogue steps it ran, or -1, having written
// nothing, where the boxes are not laid out for it (the loop runs instead).
inline int conv2dAsProduct(const View<float>& y, const View<float>& x, const View<float>& w,
                           const View<float>* b, const Window2d& win, i64 group,
                           const EpilogueStep* steps, int count) {
    const i64 cin = w.full[1], coutPerGroup = y.full[1] / group;
    const i64 kh = win.kernel[0], kw = win.kernel[1], oh = y.ext[2], ow = y.ext[3];
    const i64 positions = oh * ow, k = cin * kh * kw;
    const bool denseWeights = w.lo[1] == 0 && w.ext[1] == cin && w.ext[2] == kh && w.ext[3] == kw &&
                              w.stride[3] == 1 && w.stride[2] == kw && w.stride[1] == kh * kw;
    if (y.rank != 4 || x.rank != 4 || coutPerGroup < 1 || !denseWeights || x.stride[3] != 1 ||
        y.stride[3] != 1 || y.stride[2] != ow)
        return -1;
    if (y.count() == 0)
        return 0;
    const bool pointwise = kh == 1 && kw == 1 && win.stride[0] == 1 && win.stride[1] == 1 &&
                           win.padBegin[0] == 0 && win.padBegin[1] == 0 && x.lo[3] == y.lo[3] &&
                           x.ext[3] == ow && x.stride[2] == ow && holdsRange(x, 2, y.lo[2], oh);
    static thread_local std::vector<float> columns;
    if (!pointwise)
        columns.resize(static_cast<std::size_t>(k * positions));
    const i64 firstGroup = y.lo[1] / coutPerGroup,
              lastGroup = (y.lo[1] + y.ext[1] - 1) / coutPerGroup;
    // The epilogue's activations join the bias's pass where every output channel's rows are
    // one run (each product then leaves all its rows done); otherwise the caller runs them.
    int done = 0;
    if (y.stride[1] != positions)
        count = 0;
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n)
        for (i64 g = firstGroup; g <= lastGroup; ++g) {
            const float* matrix = columns.data();
            i64 ldm = positions;
            if (pointwise) {
                i64 xi[4] = {n, g * cin + cin - 1, y.lo[2] + oh - 1, y.lo[3] + ow - 1};
                (void)x.at(
                    xi); // the last element the product reads inside the box (checked builds)
                xi[1] = g * cin;
                xi[2] = y.lo[2];
                xi[3] = y.lo[3];
                matrix = &x.at(xi);
                ldm = x.stride[1];
            } else {
                gatherColumns(y, x, win, n, g * cin, cin, kh, kw, columns.data());
            }
            const i64 m0 = std::max(y.lo[1], g * coutPerGroup);
            const i64 m1 = std::min(y.lo[1] + y.ext[1], (g + 1) * coutPerGroup);
            i64 yi[4] = {n, m0, y.lo[2], y.lo[3]}, wi[4] = {m0, 0, 0, 0};
            float* out = &y.at(yi);
            sgemm(false, false, m1 - m0, positions, k, 1.0f, &w.at(wi), w.stride[0], matrix, ldm,
                  0.0f, out, y.stride[1]);
            const float* bias = contiguousBias(b, m0, m1 - m0);
            if (y.stride[1] == positions)
                done = biasAndActivations(out, m1 - m0, positions, bias, false, steps, count);
            else // rows apart: the bias only, the epilogue after
                for (i64 m = m0; bias && m < m1; ++m)
                    biasAndActivations(out + (m - m0) * y.stride[1], 1, positions, bias + (m - m0),
                                       false, steps, 0);
        }
    return done;
}

// W^T ([k][m] row-major) of the m output channels from `first`: packed once per constant weight
// value and channel tile and kept (per thread), other weights per call.
inline const float* transposedWeights(const float* weights, i64 m, i64 k, i64 constantWeights,
                                      i64 first) {
    static thread_local std::map<std::array<i64, 4>, std::vector<float>> packed;
    static thread_local std::vector<float> scratch;
    const std::array<i64, 4> key{constantWeights, first, m, k};
    if (constantWeights >= 0)
        if (const auto it = packed.find(key); it != packed.end())
            return it->second.data();
    std::vector<float>& out = constantWeights >= 0 ? packed[key] : scratch;
    out.resize(static_cast<std::size_t>(m * k));
    for (i64 c = 0; c < m; ++c)
        for (i64 j = 0; j < k; ++j)
            out[static_cast<std::size_t>(j * m + c)] = weights[c * k + j];
    return out.data();
}

// A pointwise convolution (1x1, stride 1, no padding, one group) over dense boxes laid out
// row-major (0) or channels-last (-1; docs/ISA.md, Layouts), as one sgemm per batch element
// with the transposition in its flags: Y[M][P] = W . X, or Y^T[P][M] = X^T . W^T for a
// channels-last output (the host runtime's runtime/ChannelsLastConv.h, W^T packed once per
// constant weight tile, named by `constantWeights` >= 0); then the bias and the epilogue's
// leading activations in one pass. Returns how many epilogue steps it ran, or -1, having written
// nothing, for anything else.
inline int pointwiseAnyLayout(const View<float>& y, const View<float>& x, const View<float>& w,
                              const View<float>* b, const Window2d& win, i64 group, i64 xBlock,
                              i64 yBlock, i64 constantWeights, const EpilogueStep* steps,
                              int count) {
    auto dense = [](const View<float>& v) {
        return v.rank == 4 && v.stride[3] == 1 && v.stride[2] == v.ext[3] &&
               v.stride[1] == v.ext[2] * v.ext[3];
    };
    const bool xLast = xBlock == -1, yLast = yBlock == -1;
    const i64 k = w.full[1], m = y.ext[1], positions = y.ext[2] * y.ext[3];
    if ((xBlock != 0 && !xLast) || (yBlock != 0 && !yLast) || group != 1 || win.kernel[0] != 1 ||
        win.kernel[1] != 1 || win.stride[0] != 1 || win.stride[1] != 1 || win.padBegin[0] != 0 ||
        win.padBegin[1] != 0 || !dense(x) || !dense(y) || w.rank != 4 || x.lo[1] != 0 ||
        x.ext[1] != k || x.lo[3] != y.lo[3] || x.ext[3] != y.ext[3] ||
        !holdsRange(x, 2, y.lo[2], y.ext[2]) || !holdsRange(w, 0, y.lo[1], m) || w.lo[1] != 0 ||
        w.ext[1] != k || w.ext[2] != 1 || w.ext[3] != 1 || w.stride[0] != k)
        return -1;
    const float* weights = w.data + (y.lo[1] - w.lo[0]) * w.stride[0];
    const float* transposed =
        yLast ? transposedWeights(weights, m, k, constantWeights, y.lo[1]) : nullptr;
    const float* bias = contiguousBias(b, y.lo[1], m);
    int done = 0;
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n) {
        const i64 firstRow = (y.lo[2] - x.lo[2]) * x.ext[3];
        const float* in = x.data + (n - x.lo[0]) * x.stride[0] + firstRow * (xLast ? k : 1);
        float* out = y.data + (n - y.lo[0]) * y.stride[0];
        const i64 lda = xLast ? k : x.stride[1];
        if (yLast)
            sgemm(!xLast, false, positions, m, k, 1.0f, in, lda, transposed, m, 0.0f, out, m);
        else
            sgemm(false, xLast, m, positions, k, 1.0f, weights, k, in, lda, 0.0f, out, positions);
        done = yLast ? biasAndActivations(out, positions, m, bias, true, steps, count)
                     : biasAndActivations(out, m, positions, bias, false, steps, count);
    }
    return done;
}
#endif

} // namespace strata_rt

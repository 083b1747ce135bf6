// strata_rt's channel-blocked boxes (docs/ISA.md, Layouts): positions, reorders between layouts and
// the kernels that read nChw<b>c and channels-last boxes. Part of strata_rt.h, which includes it
// after the convolution kernels (and the C++ emitter inlines it there); not a header of its own.
#pragma once

namespace strata_rt {

// --- channel-blocked boxes (docs/ISA.md, Layouts) ---------------------------------------------

// The position of element (n, c, h, w) in a contiguous box of extents `e` laid out as `block`:
// 0 row-major [N][C][H][W], -1 channels-last [N][H][W][C], b > 1 nChw<b>c [N][C/b][H][W][b]
// (C whole blocks).
inline i64 blockedIndex(const i64* e, i64 block, i64 n, i64 c, i64 h, i64 w) {
    if (block < 0)
        return ((n * e[2] + h) * e[3] + w) * e[1] + c;
    if (block <= 1)
        return ((n * e[1] + c) * e[2] + h) * e[3] + w;
    return (((n * (e[1] / block) + c / block) * e[2] + h) * e[3] + w) * block + c % block;
}

// A contiguous channels-last box seen in its memory order: dims (n, h, w, c), dense. An
// elementwise kernel given every operand so (a [N, C, 1, 1] one included: its bytes are the same
// in either layout) walks the box in runs of channels, as it walks a row-major box in runs of
// columns. Any other view is returned as it is.
template <class T> View<T> inMemoryOrder(const View<T>& v) {
    if (v.rank != 4)
        return v;
    View<T> out = v;
    constexpr int kOrder[4] = {0, 2, 3, 1};
    for (int d = 0; d < 4; ++d) {
        out.lo[d] = v.lo[kOrder[d]];
        out.ext[d] = v.ext[kOrder[d]];
        out.full[d] = v.full[kOrder[d]];
    }
    out.stride[3] = 1;
    for (int d = 2; d >= 0; --d)
        out.stride[d] = out.stride[d + 1] * out.ext[d + 1];
    return out;
}

// Rewrites a contiguous 4-D box in place from layout `from` to `to` (a Reorder instruction).
inline void reorder(const View<float>& box, i64 from, i64 to) {
    if (from == to || box.rank != 4 || box.count() == 0 || !box.data)
        return;
    static thread_local std::vector<float> copy;
    const i64* e = box.ext;
    if ((from == 0 && to == -1) || (from == -1 && to == 0)) {
        // Row-major and channels-last are transposes of each other per batch element.
        const i64 positions = e[2] * e[3];
        copy.resize(static_cast<std::size_t>(box.count()));
        transposeMatrices(copy.data(), box.data, e[0], from == 0 ? e[1] : positions,
                          from == 0 ? positions : e[1]);
        std::memcpy(box.data, copy.data(), copy.size() * sizeof(float));
        return;
    }
#if defined(STRATA_RT_DNNL) || defined(STRATA_RT_DNNL_KERNELS)
    static thread_local DnnlReorders library;
    if (library.run(box.data, box.ext, from, to))
        return;
#endif
    copy.assign(box.data, box.data + box.count());
    for (i64 n = 0; n < e[0]; ++n)
        for (i64 c = 0; c < e[1]; ++c)
            for (i64 h = 0; h < e[2]; ++h)
                for (i64 w = 0; w < e[3]; ++w)
                    box.data[blockedIndex(e, to, n, c, h, w)] =
                        copy[static_cast<std::size_t>(blockedIndex(e, from, n, c, h, w))];
}

// Runs `work` with a convolution's blocked boxes rewritten row-major (x in `xBlock`; y and the
// epilogue's further boxes in `yBlock`), then lays them out again as the program has them: the
// way kernels that only read row-major boxes run a blocked convolution.
template <class F>
void rowMajorDuring(const View<float>& y, const View<float>& x, const EpilogueStep* steps,
                    int count, i64 xBlock, i64 yBlock, F work) {
    auto others = [&](i64 from, i64 to) {
        for (int i = 0; i < count; ++i)
            if (steps[i].other && steps[i].other->data != x.data)
                reorder(*steps[i].other, from, to);
    };
    reorder(x, xBlock, 0);
    others(yBlock, 0);
    work();
    reorder(y, 0, yBlock);
    others(0, yBlock);
    reorder(x, 0, xBlock);
}

// conv2d on channel-blocked boxes (x in `xBlock`, y and the epilogue's further boxes in
// `yBlock`; 0 row-major): a library build's direct convolution reads and writes them as they
// are; otherwise, or where it has no kernel for the shape, the row-major kernels run on them
// rewritten row-major for the call.
inline void conv2dBlocked(const View<float>& y, const View<float>& x, const View<float>& w,
                          const View<float>* b, const Window2d& win, i64 group, i64 constantWeights,
                          std::initializer_list<EpilogueStep> steps, i64 xBlock, i64 yBlock) {
    const int count = static_cast<int>(steps.size());
#ifdef STRATA_RT_DNNL
    static thread_local DnnlConvolutions direct;
    ConvPostOp posts[kMaxConvPostOps];
    const int done = convPostOps(y, steps.begin(), count, posts);
    if (direct.run(y, x, w, b, win, group, constantWeights, posts, done, xBlock, yBlock))
        return epilogue(y, steps.begin(), count, done); // Maps and same-box Zips: any layout
    if (const int done = pointwiseAnyLayout(y, x, w, b, win, group, xBlock, yBlock, constantWeights,
                                            steps.begin(), count);
        done >= 0)
        return epilogue(y, steps.begin(), count, done);
#endif
    if (xBlock == -1 && yBlock == -1)
        if (const int done = depthwiseChannelsLast(y, x, w, b, win, group, steps.begin(), count);
            done >= 0)
            return epilogue(y, steps.begin(), count, done);
    if (xBlock == -1 && yBlock == 0) // a depthwise whose output is stored or pooled row-major
        if (const int done = depthwiseRowMajor(y, x, w, b, win, group, steps.begin(), count, true);
            done >= 0)
            return epilogue(y, steps.begin(), count, done);
    rowMajorDuring(y, x, steps.begin(), count, xBlock, yBlock,
                   [&] { conv2d(y, x, w, b, win, group, constantWeights, steps); });
}

// Max or average over each window. Average divides by the taps inside the input, or with
// countPad by the taps inside the padded input (never those past the end padding).
inline void pool2d(const View<float>& y, const View<float>& x, const Window2d& win, bool isMax,
                   bool countPad, const i64 padEnd[2]) {
    i64 yi[4], xi[4];
    for (yi[0] = y.lo[0]; yi[0] < y.lo[0] + y.ext[0]; ++yi[0])
        for (yi[1] = y.lo[1]; yi[1] < y.lo[1] + y.ext[1]; ++yi[1])
            for (yi[2] = y.lo[2]; yi[2] < y.lo[2] + y.ext[2]; ++yi[2]) {
                yi[3] = y.lo[3];
                float* out = &y.at(yi);
                for (i64 ow = 0; ow < y.ext[3]; ++ow) {
                    const i64 col = y.lo[3] + ow;
                    float acc = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
                    i64 inside = 0, padded = 0;
                    for (i64 kh = 0; kh < win.kernel[0]; ++kh) {
                        const i64 ih =
                            yi[2] * win.stride[0] - win.padBegin[0] + kh * win.dilation[0];
                        const bool hIn = ih >= 0 && ih < x.full[2];
                        const bool hPad = ih >= -win.padBegin[0] && ih < x.full[2] + padEnd[0];
                        const float* row = nullptr;
                        if (hIn) { // the row's element at column c is row[c]
                            xi[0] = yi[0];
                            xi[1] = yi[1];
                            xi[2] = ih;
                            xi[3] = x.lo[3];
                            row = &x.at(xi) - x.lo[3];
                        }
                        for (i64 kw = 0; kw < win.kernel[1]; ++kw) {
                            const i64 iw =
                                col * win.stride[1] - win.padBegin[1] + kw * win.dilation[1];
                            const bool wIn = iw >= 0 && iw < x.full[3];
                            const bool wPad = iw >= -win.padBegin[1] && iw < x.full[3] + padEnd[1];
                            padded += hPad && wPad;
                            if (!hIn || !wIn)
                                continue;
                            ++inside;
#ifdef STRATA_RT_CHECK
                            xi[3] = iw;
                            (void)x.at(xi);
#endif
                            const float v = row[iw];
                            acc = isMax ? std::max(acc, v) : acc + v;
                        }
                    }
                    out[ow] = isMax ? acc : acc / static_cast<float>(countPad ? padded : inside);
                }
            }
}

// Global pooling of a channels-last box: `x` and `y` in memory order (inMemoryOrder: x
// [N, H, W, C], y [N, 1, 1, C]). A position's channels are one contiguous run added to the sums,
// so each channel sums its positions in order: the bits of globalPool on planes shorter than
// runs::kVectorPlane (a longer plane it reduces in vectors, which rounds differently).
template <bool IsMax>
inline void globalPoolRuns(float* out, const float* x, i64 positions, i64 channels) {
    static thread_local std::vector<float> acc;
    acc.assign(static_cast<std::size_t>(channels),
               IsMax ? -std::numeric_limits<float>::infinity() : 0.0f);
    float* a = acc.data();
    for (i64 i = 0; i < positions; ++i, x += channels)
        for (i64 c = 0; c < channels; ++c)
            a[c] = IsMax ? std::max(a[c], x[c]) : a[c] + x[c];
    for (i64 c = 0; c < channels; ++c)
        out[c] = IsMax ? a[c] : a[c] / static_cast<float>(positions);
}

inline void globalPoolChannelsLast(const View<float>& y, const View<float>& x, bool isMax) {
    const i64 positions = x.ext[1] * x.ext[2], channels = x.ext[3];
    for (i64 n = 0; n < x.ext[0]; ++n) {
        float* out = y.data + n * y.stride[0];
        const float* in = x.data + n * x.stride[0];
        if (isMax)
            globalPoolRuns<true>(out, in, positions, channels);
        else
            globalPoolRuns<false>(out, in, positions, channels);
    }
}

// Mean or max over all spatial positions, per (n, c).
inline void globalPool(const View<float>& y, const View<float>& x, bool isMax) {
    i64 xi[kMaxRank];
    if (x.rank == 4 && y.rank == 4 && x.stride[3] == 1 && x.stride[2] == x.ext[3]) {
        // Each plane contiguous (a working-memory box): one run, reduced in vectors where it is
        // long (reduceRun), else summed in order, without the index arithmetic per element (the
        // host runtime's globalPoolPlanes is bit-identical to it).
        const i64 plane = x.ext[2] * x.ext[3];
        forEachIndex(y, [&](const i64* yi) {
            const i64 first[4] = {yi[0], yi[1], x.lo[2], x.lo[3]};
#ifdef STRATA_RT_CHECK
            const i64 last[4] = {yi[0], yi[1], x.lo[2] + x.ext[2] - 1, x.lo[3] + x.ext[3] - 1};
            (void)x.at(last);
#endif
            const float* p = &x.at(first);
            float acc = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
            if (plane >= runs::kVectorPlane)
                acc = runs::reduceRun(p, plane, isMax);
            else
                for (i64 i = 0; i < plane; ++i)
                    acc = isMax ? std::max(acc, p[i]) : acc + p[i];
            y.at(yi) = isMax ? acc : acc / static_cast<float>(plane);
        });
        return;
    }
    forEachIndex(y, [&](const i64* yi) {
        float acc = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
        View<float> spatial = x;
        spatial.lo[0] = yi[0];
        spatial.ext[0] = 1;
        spatial.lo[1] = yi[1];
        spatial.ext[1] = 1;
        i64 n = 0;
        forEachIndex(spatial, [&](const i64* si) {
            std::copy(si, si + x.rank, xi);
            const float v = x.at(xi);
            acc = isMax ? std::max(acc, v) : acc + v;
            ++n;
        });
        y.at(yi) = isMax ? acc : acc / static_cast<float>(n);
    });
}

} // namespace strata_rt

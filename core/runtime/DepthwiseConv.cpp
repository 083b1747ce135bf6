#include "runtime/DepthwiseConv.h"

#include "runtime/StridedCopy.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace strata::runtime {
namespace {

using strata_rt::i64;

// Eight floats; GCC lowers it to one AVX register or two SSE ones.
typedef float Vec __attribute__((vector_size(32)));
constexpr i64 kLanes = 8;

// Where the padded planes sit over the input and how big they are; the same for every channel.
struct Geometry {
    i64 kh, kw, sh, sw, ph, pw, dh, dw;
    i64 oh, ow;
    i64 rowBase, colBase; // input row and column of padded position (0, 0)
    i64 wq, hq;           // a plane's columns and rows
    i64 count;            // flattened output positions up to the last real one: (oh - 1) * wq + ow
    i64 vectorCount;      // count rounded up to whole vectors

    i64 plane() const { return wq * hq; }
    i64 phases() const { return sh * sw; }
};

Geometry geometryOf(const strata_rt::View<float>& y, const compiler::KernelCall& call) {
    const auto& win = call.window;
    Geometry g{win[0], win[1], win[2], win[3], win[4], win[5], win[6], win[7], y.ext[2], y.ext[3], 0, 0, 0, 0, 0, 0};
    g.rowBase = y.lo[2] * g.sh - g.ph;
    g.colBase = y.lo[3] * g.sw - g.pw;
    g.wq = g.ow + (g.kw - 1) * g.dw / g.sw;
    g.hq = g.oh + (g.kh - 1) * g.dh / g.sh;
    g.count = (g.oh - 1) * g.wq + g.ow;
    g.vectorCount = (g.count + kLanes - 1) / kLanes * kLanes;
    return g;
}

// Whether the boxes hold what y's channels read: their input channels, whole taps and biases.
bool holdsChannels(const strata_rt::View<float>& y, const strata_rt::View<float>& x, const strata_rt::View<float>& w,
                   const strata_rt::View<float>* b, i64 perGroup) {
    auto holds = [](const strata_rt::View<float>& v, int d, i64 lo, i64 n) {
        return v.lo[d] <= lo && lo + n <= v.lo[d] + v.ext[d];
    };
    const i64 first = y.lo[1] / perGroup, last = (y.lo[1] + y.ext[1] - 1) / perGroup;
    return y.rank == 4 && x.rank == 4 && w.rank == 4 && perGroup >= 1 && holds(x, 1, first, last - first + 1) &&
           holds(w, 0, y.lo[1], y.ext[1]) && w.ext[1] == 1 && w.lo[2] == 0 && w.ext[2] == w.full[2] && w.lo[3] == 0 &&
           w.ext[3] == w.full[3] && (!b || holds(*b, 0, y.lo[1], y.ext[1]));
}

// Whether x's box holds every input row and column inside the tensor that the outputs read.
bool holdsInputs(const strata_rt::View<float>& x, const Geometry& g) {
    auto covers = [&](int d, i64 first, i64 last) {
        first = std::max<i64>(first, 0);
        last = std::min(last, x.full[d] - 1);
        return first > last || (x.lo[d] <= first && last < x.lo[d] + x.ext[d]);
    };
    return covers(2, g.rowBase, g.rowBase + (g.oh - 1) * g.sh + (g.kh - 1) * g.dh) &&
           covers(3, g.colBase, g.colBase + (g.ow - 1) * g.sw + (g.kw - 1) * g.dw);
}

// Rows of small planes are short: inline moves, not a memcpy call each.
void copyRow(float* dst, const float* src, i64 n) {
    const auto bytes = static_cast<std::size_t>(n) * sizeof(float);
    if (bytes < kLongRow)
        copyShortRow(reinterpret_cast<unsigned char*>(dst), reinterpret_cast<const unsigned char*>(src), bytes);
    else
        std::memcpy(dst, src, bytes);
}

// The plane indices [first, last) whose position base + index * step + phase lies in [lo, hi).
std::pair<i64, i64> inside(i64 base, i64 step, i64 phase, i64 lo, i64 hi, i64 size) {
    const i64 from = lo - base - phase, to = hi - 1 - base - phase;
    const i64 first = std::clamp<i64>(from <= 0 ? 0 : (from + step - 1) / step, 0, size);
    const i64 last = std::clamp<i64>(to < 0 ? 0 : to / step + 1, first, size);
    return {first, last};
}

// Plane (pr, pc) holds padded position (R * sh + pr, T * sw + pc) at [R][T]. Writes the
// positions inside x's box (and the tensor) only: the rest, padding or rows no output reads,
// is the same for every channel and stays as the caller zeroed it.
void copyChannel(const strata_rt::View<float>& x, i64 n, i64 c, const Geometry& g, float* planes) {
    const i64 rowLo = std::max<i64>(x.lo[2], 0), rowHi = std::min(x.lo[2] + x.ext[2], x.full[2]);
    const i64 colLo = std::max<i64>(x.lo[3], 0), colHi = std::min(x.lo[3] + x.ext[3], x.full[3]);
    const float* channel = x.data + (n - x.lo[0]) * x.stride[0] + (c - x.lo[1]) * x.stride[1];
    for (i64 pr = 0; pr < g.sh; ++pr) {
        const auto [r0, r1] = inside(g.rowBase, g.sh, pr, rowLo, rowHi, g.hq);
        for (i64 pc = 0; pc < g.sw; ++pc) {
            const auto [t0, t1] = inside(g.colBase, g.sw, pc, colLo, colHi, g.wq);
            float* plane = planes + (pr * g.sw + pc) * g.plane();
            for (i64 r = r0; r < r1 && t0 < t1; ++r) {
                float* out = plane + r * g.wq;
                const float* in = channel + (g.rowBase + r * g.sh + pr - x.lo[2]) * x.stride[2] - x.lo[3] + g.colBase + pc;
                if (g.sw == 1)
                    copyRow(out + t0, in + t0, t1 - t0);
                else if (g.sw == 2) // a constant stride vectorises (loads and shuffles); a variable one does not
                    for (i64 t = t0; t < t1; ++t) out[t] = in[2 * t];
                else
                    for (i64 t = t0; t < t1; ++t) out[t] = in[t * g.sw];
            }
        }
    }
}

// out[t] = bias + sum over taps k of weights[k] * taps[k][t], for t < count (a multiple of the
// vector width). Four vectors at a time, so that four independent sums hide the latency of the
// multiply-adds. Cloned for AVX-512 and AVX2+FMA machines; the default clone runs SSE2 (other
// architectures build the one plain version).
#if defined(__x86_64__)
#define STRATA_CLONED_FOR_X86 __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define STRATA_CLONED_FOR_X86
#endif
STRATA_CLONED_FOR_X86 void sumTaps(float* out, const float* const* taps, const float* weights,
                                   i64 tapCount, i64 count, float bias, bool accumulate = false) {
    constexpr std::size_t kBytes = sizeof(Vec);
    i64 t = 0;
    for (; t + 4 * kLanes <= count; t += 4 * kLanes) {
        Vec s0 = Vec{} + bias, s1 = s0, s2 = s0, s3 = s0;
        if (accumulate) { // onto the sums of earlier input channels
            std::memcpy(&s0, out + t, kBytes);
            std::memcpy(&s1, out + t + kLanes, kBytes);
            std::memcpy(&s2, out + t + 2 * kLanes, kBytes);
            std::memcpy(&s3, out + t + 3 * kLanes, kBytes);
        }
        for (i64 k = 0; k < tapCount; ++k) {
            const float* p = taps[k] + t;
            const float c = weights[k];
            Vec v0, v1, v2, v3;
            std::memcpy(&v0, p, kBytes);
            std::memcpy(&v1, p + kLanes, kBytes);
            std::memcpy(&v2, p + 2 * kLanes, kBytes);
            std::memcpy(&v3, p + 3 * kLanes, kBytes);
            s0 += c * v0;
            s1 += c * v1;
            s2 += c * v2;
            s3 += c * v3;
        }
        std::memcpy(out + t, &s0, kBytes);
        std::memcpy(out + t + kLanes, &s1, kBytes);
        std::memcpy(out + t + 2 * kLanes, &s2, kBytes);
        std::memcpy(out + t + 3 * kLanes, &s3, kBytes);
    }
    for (; t < count; t += kLanes) {
        Vec s = Vec{} + bias;
        if (accumulate)
            std::memcpy(&s, out + t, kBytes);
        for (i64 k = 0; k < tapCount; ++k) {
            Vec v;
            std::memcpy(&v, taps[k] + t, kBytes);
            s += weights[k] * v;
        }
        std::memcpy(out + t, &s, kBytes);
    }
}

// Zeroes the planes (sized for `g`) and points each tap at its reads. Tap (i, j) reads padded
// position (r * sh + i * dh, q * sw + j * dw): plane ((i * dh) % sh, (j * dw) % sw) at
// [r + i * dh / sh][q + j * dw / sw]. Returns the planes.
float* preparePlanes(const Geometry& g, DepthwiseBuffers& buffers) {
    // The last tap's reads run up to a vector past the last plane (its dropped columns).
    const auto planeFloats = static_cast<std::size_t>(g.phases() * g.plane() + kLanes);
    if (buffers.planes.size() < planeFloats)
        buffers.planes.resize(planeFloats);
    std::fill_n(buffers.planes.begin(), planeFloats, 0.0f);
    buffers.taps.resize(static_cast<std::size_t>(g.kh * g.kw));
    float* planes = buffers.planes.data();
    for (i64 i = 0; i < g.kh; ++i)
        for (i64 j = 0; j < g.kw; ++j) {
            const i64 a = i * g.dh, c = j * g.dw;
            buffers.taps[static_cast<std::size_t>(i * g.kw + j)] =
                planes + ((a % g.sh) * g.sw + c % g.sw) * g.plane() + (a / g.sh) * g.wq + c / g.sw;
        }
    return planes;
}

bool windowDivides(const compiler::KernelCall& call) {
    for (int i : {0, 1, 2, 3, 6, 7}) // kernel, stride and dilation: the plane maths divides by them
        if (call.window[static_cast<std::size_t>(i)] < 1)
            return false;
    return true;
}

} // namespace

bool depthwiseConv(const strata_rt::View<float>& y, const strata_rt::View<float>& x,
                   const strata_rt::View<float>& w, const strata_rt::View<float>* b,
                   const compiler::KernelCall& call, i64 perGroup, DepthwiseBuffers& buffers,
                   const PlaneEpilogue* onPlane) {
    if (!windowDivides(call))
        return false;
    if (!holdsChannels(y, x, w, b, perGroup)) return false;
    const Geometry g = geometryOf(y, call);
    if (!holdsInputs(x, g)) return false;
    if (y.count() == 0) return true;

    if (buffers.sums.size() < static_cast<std::size_t>(g.vectorCount))
        buffers.sums.resize(static_cast<std::size_t>(g.vectorCount));

    float* planes = preparePlanes(g, buffers);

    i64 filled = -1; // the input channel the planes hold (a channel multiplier shares them)
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n, filled = -1)
        for (i64 m = y.lo[1]; m < y.lo[1] + y.ext[1]; ++m) {
            const i64 c = m / perGroup;
            if (c != filled) copyChannel(x, n, c, g, planes);
            filled = c;
            const float bias = b ? b->data[(m - b->lo[0]) * b->stride[0]] : 0.0f;
            const float* weights = w.data + (m - w.lo[0]) * w.stride[0]; // whole taps: kh * kw in a row
            sumTaps(buffers.sums.data(), buffers.taps.data(), weights, g.kh * g.kw, g.vectorCount, bias);
            if (onPlane)
                (*onPlane)(buffers.sums.data(), g.vectorCount);
            float* out = y.data + (n - y.lo[0]) * y.stride[0] + (m - y.lo[1]) * y.stride[1];
            for (i64 r = 0; r < g.oh; ++r) copyRow(out + r * y.stride[2], buffers.sums.data() + r * g.wq, g.ow);
        }
    return true;
}

bool fewChannelConv(const strata_rt::View<float>& y, const strata_rt::View<float>& x,
                    const strata_rt::View<float>& w, const strata_rt::View<float>* b,
                    const compiler::KernelCall& call, DepthwiseBuffers& buffers) {
    if (call.group != 1 || y.rank != 4 || x.rank != 4 || w.rank != 4 || !windowDivides(call))
        return false;
    const i64 channels = w.full[1];
    auto holds = [](const strata_rt::View<float>& v, int d, i64 lo, i64 n) {
        return v.lo[d] <= lo && lo + n <= v.lo[d] + v.ext[d];
    };
    if (channels > kFewChannels || !holds(x, 1, 0, channels) || !holds(w, 0, y.lo[1], y.ext[1]) ||
        w.lo[1] != 0 || w.ext[1] != channels || w.lo[2] != 0 || w.ext[2] != w.full[2] ||
        w.lo[3] != 0 || w.ext[3] != w.full[3] || (b && !holds(*b, 0, y.lo[1], y.ext[1])))
        return false;
    const Geometry g = geometryOf(y, call);
    if (!holdsInputs(x, g))
        return false;
    if (y.count() == 0)
        return true;

    float* planes = preparePlanes(g, buffers);
    const i64 outputs = y.ext[1];
    const auto sumFloats = static_cast<std::size_t>(outputs * g.vectorCount);
    if (buffers.sums.size() < sumFloats)
        buffers.sums.resize(sumFloats);
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n) {
        // Each input channel's planes once, added into every output channel's sums.
        for (i64 c = 0; c < channels; ++c) {
            copyChannel(x, n, c, g, planes);
            for (i64 m = 0; m < outputs; ++m) {
                const float bias = b ? b->data[(y.lo[1] + m - b->lo[0]) * b->stride[0]] : 0.0f;
                const float* weights =
                    w.data + (y.lo[1] + m - w.lo[0]) * w.stride[0] + c * w.stride[1];
                sumTaps(buffers.sums.data() + m * g.vectorCount, buffers.taps.data(), weights,
                        g.kh * g.kw, g.vectorCount, bias, c > 0);
            }
        }
        for (i64 m = 0; m < outputs; ++m) {
            float* out = y.data + (n - y.lo[0]) * y.stride[0] + m * y.stride[1];
            const float* sums = buffers.sums.data() + m * g.vectorCount;
            for (i64 r = 0; r < g.oh; ++r)
                copyRow(out + r * y.stride[2], sums + r * g.wq, g.ow);
        }
    }
    return true;
}

} // namespace strata::runtime

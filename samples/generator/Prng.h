#pragma once
// Sample weights from a tiny deterministic PRNG. std::uniform_real_distribution is not specified
// bit-for-bit by the standard, so the committed .onnx files would differ between standard
// libraries; splitmix64 plus an exact integer-to-float step does not.

#include "base/SplitMix64.h"

namespace strata::samples {

// Uniform in [-amplitude, amplitude). The top 24 bits make a float in [0, 1) exactly, and
// 2u - 1 is exact too, so the only rounding is the final IEEE multiply.
inline float symmetric(SplitMix64& random, float amplitude) {
    const float unit = static_cast<float>(random.next() >> 40) * 0x1p-24f;
    return (2.0f * unit - 1.0f) * amplitude;
}

} // namespace strata::samples

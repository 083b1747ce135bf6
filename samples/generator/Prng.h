#pragma once
// A tiny deterministic PRNG for sample weights. std::uniform_real_distribution is not specified
// bit-for-bit by the standard, so the committed .onnx files would differ between standard
// libraries; splitmix64 plus an exact integer-to-float step does not.

#include <cstdint>

namespace strata::samples {

class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    // Uniform in [-amplitude, amplitude). The top 24 bits make a float in [0, 1) exactly, and
    // 2u - 1 is exact too, so the only rounding is the final IEEE multiply.
    float symmetric(float amplitude) {
        const float unit = static_cast<float>(next() >> 40) * 0x1p-24f;
        return (2.0f * unit - 1.0f) * amplitude;
    }

  private:
    std::uint64_t m_state;
};

} // namespace strata::samples

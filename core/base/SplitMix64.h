#pragma once
// splitmix64 (Steele, Lea and Flood, 2014): a seeded stream of well-mixed 64-bit values at a few
// cycles each, for sample data (inputs, calibration's weights) whose values change no time
// measured, only whether the results can be checked.

#include <cstdint>

namespace strata {

class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

  private:
    std::uint64_t m_state;
};

} // namespace strata

#pragma once
// The search's random numbers: a seeded 64-bit Mersenne twister with its own bounded draws, so
// that a seed gives the same choices with every standard library (the std distributions are
// implementation-defined).

#include <cstdint>
#include <random>

namespace strata::search {

class Random {
  public:
    explicit Random(std::uint64_t seed) : m_engine(seed) {}
    // Uniform in [0, n); n > 0. The modulo bias is negligible for the small n the moves draw.
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(m_engine() % n); }
    // True with probability `p`.
    bool chance(double p) { return double(m_engine() >> 11) * 0x1.0p-53 < p; }
    std::uint64_t next() { return m_engine(); }

  private:
    std::mt19937_64 m_engine;
};

} // namespace strata::search

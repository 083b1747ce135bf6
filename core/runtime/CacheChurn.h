#pragma once
// Other work's lines in the caches. Calibration runs one small program pass after pass, so each
// pass finds the caches holding its own operands, workspaces and packed weights, and the room
// where its outputs were dropped (RunOptions::coldOutputs). A model's op finds them full of
// other ops' dirty lines instead: its own data must come back from further out, and every line
// it brings in evicts a dirty one, which goes back to memory first. So before each pass every
// core writes a buffer of its own as large as its caches (docs/CALIBRATION.md, "Caches that
// other work has passed through").

#include "runtime/Memory.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata::runtime {

class CacheChurn {
  public:
    // `bytesPerCore`: what one core's caches hold (a host target's working memory: its L2 plus
    // its share of the last-level cache); `cores`: how many cores may run.
    CacheChurn(std::uint64_t bytesPerCore, int cores);

    // Called on core `core`'s worker: writes one byte in every line of that core's buffer,
    // allocated on its first call (by that core, so its pages are near it). A core past the
    // count given writes nothing.
    void writeFrom(std::size_t core);

    std::uint64_t bytesPerCore() const { return m_bytes; }
    // The bytes its buffers take so far (only cores that wrote have one).
    std::uint64_t allocatedBytes() const;
    // How many buffers were written so far, over every core.
    std::uint64_t writes() const;

  private:
    std::uint64_t m_bytes = 0;
    std::vector<Buffer> m_buffers;       // per core
    std::vector<unsigned char> m_values; // per core, the value its next write stores
    std::vector<std::uint64_t> m_writes; // per core, how many times it wrote
};

} // namespace strata::runtime

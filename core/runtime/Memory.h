#pragma once
// The host runtime's memories: one main-memory byte buffer and one scratch buffer per core,
// 64-byte aligned (cache lines; vector loads of kernels). Buffers of 2 MiB and more are asked to
// sit on huge pages (Buffer's constructor).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace strata::runtime {

// Frees a Buffer's bytes the way they were allocated.
struct BufferFree {
    bool huge = false;
    void operator()(unsigned char* p) const;
};

class Buffer {
  public:
    Buffer() = default;
    explicit Buffer(std::uint64_t bytes);
    unsigned char* data() const { return m_data.get(); }
    std::uint64_t size() const { return m_bytes; }
    // Takes `bytes` as its size if it has room for them (its bytes as they are): a run that
    // reuses the buffer checks its boxes against what it asked for, not what an earlier run did.
    bool reuseFor(std::uint64_t bytes);
    // Whether the buffer was allocated in whole huge pages and the kernel asked to back it so.
    bool hugePages() const { return m_data.get_deleter().huge; }

  private:
    std::uint64_t m_bytes = 0;
    std::uint64_t m_capacity = 0;
    std::unique_ptr<unsigned char[], BufferFree> m_data;
};

// Writes [bytes, bytes + size) back to main memory and drops it from every cache (x86's clflush;
// elsewhere nothing): the next access finds the lines where a line untouched for a long time is.
void evictFromCaches(const unsigned char* bytes, std::size_t size);

struct Memories {
    Buffer main;
    std::vector<Buffer> scratch; // per core

    // Sized for a run: the buffers kept where they have room, replaced where not. A caller that
    // runs program after program (calibration, RunOptions::memories) so faults each page in once
    // rather than in every run's first pass.
    void sizeFor(std::uint64_t mainBytes, std::uint64_t scratchBytes, int cores);
};

} // namespace strata::runtime

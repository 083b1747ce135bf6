#pragma once
// The host runtime's memories: one main-memory byte buffer and one scratch buffer per core,
// 64-byte aligned (cache lines; vector loads of kernels).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace strata::runtime {

class Buffer {
  public:
    Buffer() = default;
    explicit Buffer(std::uint64_t bytes)
        : m_bytes(bytes), m_data(static_cast<unsigned char*>(::operator new[](bytes ? bytes : 1, std::align_val_t{64}))) {}
    unsigned char* data() const { return m_data.get(); }
    std::uint64_t size() const { return m_bytes; }

  private:
    struct Free {
        void operator()(unsigned char* p) const { ::operator delete[](p, std::align_val_t{64}); }
    };
    std::uint64_t m_bytes = 0;
    std::unique_ptr<unsigned char[], Free> m_data;
};

struct Memories {
    Buffer main;
    std::vector<Buffer> scratch; // per core
};

} // namespace strata::runtime

#include "runtime/CacheChurn.h"

namespace strata::runtime {

CacheChurn::CacheChurn(std::uint64_t bytesPerCore, int cores)
    : m_bytes(bytesPerCore), m_buffers(static_cast<std::size_t>(cores > 0 ? cores : 0)),
      m_values(m_buffers.size(), 0), m_writes(m_buffers.size(), 0) {}

void CacheChurn::writeFrom(std::size_t core) {
    if (m_bytes == 0 || core >= m_buffers.size())
        return;
    Buffer& buffer = m_buffers[core];
    if (buffer.size() < m_bytes)
        buffer = Buffer(m_bytes);
    // A new value each time, so every line is written, not merely read for ownership. One store
    // per line rather than memset: past a size glibc's memset stores around the caches.
    const unsigned char value = ++m_values[core];
    volatile unsigned char* bytes = buffer.data();
    for (std::uint64_t i = 0; i < m_bytes; i += 64)
        bytes[i] = value;
    ++m_writes[core];
}

std::uint64_t CacheChurn::allocatedBytes() const {
    std::uint64_t bytes = 0;
    for (const Buffer& buffer : m_buffers)
        bytes += buffer.size();
    return bytes;
}

std::uint64_t CacheChurn::writes() const {
    std::uint64_t total = 0;
    for (std::uint64_t n : m_writes)
        total += n;
    return total;
}

} // namespace strata::runtime

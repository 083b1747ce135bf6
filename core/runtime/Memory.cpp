#include "runtime/Memory.h"

#include <algorithm>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace strata::runtime {
namespace {

// A huge page of x86-64 and most Linux machines. Tiles of a strided box are rows in as many
// 4 KiB pages as they have rows: a core's TLB covers a few MiB of those, so boxes of a larger
// tensor miss it on every row, and a virtual machine's nested page walk makes each miss costly.
// Backed by 2 MiB pages, the same buffers stay within the TLB's reach.
constexpr std::uint64_t kHugePage = 2u << 20;

} // namespace

Buffer::Buffer(std::uint64_t bytes) : m_bytes(bytes), m_capacity(bytes) {
#if defined(__linux__)
    if (bytes >= kHugePage) {
        const std::uint64_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        if (void* p = std::aligned_alloc(kHugePage, rounded)) {
            // Advice only: where transparent huge pages are off, the buffer is as before.
            (void)madvise(p, rounded, MADV_HUGEPAGE);
            m_data = std::unique_ptr<unsigned char[], BufferFree>(static_cast<unsigned char*>(p),
                                                                  BufferFree{true});
            return;
        }
    }
#endif
    m_data = std::unique_ptr<unsigned char[], BufferFree>(
        static_cast<unsigned char*>(::operator new[](bytes ? bytes : 1, std::align_val_t{64})),
        BufferFree{false});
}

bool Buffer::reuseFor(std::uint64_t bytes) {
    if (!m_data || bytes > m_capacity)
        return false;
    m_bytes = bytes;
    return true;
}

void Memories::sizeFor(std::uint64_t mainBytes, std::uint64_t scratchBytes, int cores) {
    if (!main.reuseFor(mainBytes))
        main = Buffer(mainBytes);
    scratch.resize(static_cast<std::size_t>(std::max(cores, 1)));
    for (Buffer& buffer : scratch)
        if (!buffer.reuseFor(scratchBytes))
            buffer = Buffer(scratchBytes);
}

void BufferFree::operator()(unsigned char* p) const {
    if (huge)
        std::free(p);
    else
        ::operator delete[](p, std::align_val_t{64});
}

#if defined(__x86_64__) || defined(__i386__)
namespace {

constexpr std::size_t kLine = 64;

// clflushopt: the flushes of one buffer are not ordered among themselves, several times
// clflush's pace over MiBs (clflush took 15% of a calibration on a Xeon VM).
__attribute__((target("clflushopt"))) void flushOpt(const unsigned char* bytes, std::size_t size) {
    for (std::size_t i = 0; i < size; i += kLine)
        _mm_clflushopt(const_cast<unsigned char*>(bytes + i));
    _mm_clflushopt(const_cast<unsigned char*>(bytes + size - 1));
}

bool hasFlushOpt() {
    static const bool has = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        return __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((b >> 23) & 1u); // EBX bit 23
    }();
    return has;
}

} // namespace
#endif

void evictFromCaches(const unsigned char* bytes, std::size_t size) {
#if defined(__x86_64__) || defined(__i386__)
    if (size == 0)
        return;
    if (hasFlushOpt()) {
        flushOpt(bytes, size);
    } else {
        for (std::size_t i = 0; i < size; i += kLine)
            _mm_clflush(bytes + i);
        _mm_clflush(bytes + size - 1);
    }
    _mm_mfence();
#else
    (void)bytes;
    (void)size;
#endif
}

} // namespace strata::runtime

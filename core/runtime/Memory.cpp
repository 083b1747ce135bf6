#include "runtime/Memory.h"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace strata::runtime {
namespace {

// A huge page of x86-64 and most Linux machines. Tiles of a strided box are rows in as many
// 4 KiB pages as they have rows: a core's TLB covers a few MiB of those, so boxes of a larger
// tensor miss it on every row, and a virtual machine's nested page walk makes each miss costly.
// Backed by 2 MiB pages, the same buffers stay within the TLB's reach.
constexpr std::uint64_t kHugePage = 2u << 20;

} // namespace

Buffer::Buffer(std::uint64_t bytes) : m_bytes(bytes) {
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

void BufferFree::operator()(unsigned char* p) const {
    if (huge)
        std::free(p);
    else
        ::operator delete[](p, std::align_val_t{64});
}

} // namespace strata::runtime

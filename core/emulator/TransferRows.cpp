#include "emulator/TransferRows.h"

#include "compiler/MergedCopy.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace strata::emulator {
namespace {

// Row-major strides of the access's own shape when it gives none (as the runtime reads it).
std::vector<std::int64_t> stridesOf(const compiler::Access& a) {
    if (!a.strides.empty())
        return a.strides;
    std::vector<std::int64_t> s(a.shape.size(), 1);
    for (std::size_t d = a.shape.size(); d-- > 1;)
        s[d - 1] = s[d] * a.shape[d];
    return s;
}

} // namespace

std::uint64_t transferRows(const compiler::Transfer& transfer) {
    const ir::Shape& shape = transfer.source.shape;
    const std::vector<std::int64_t> ss = stridesOf(transfer.source),
                                    ds = stridesOf(transfer.destination);
    if (ss.size() != shape.size() || ds.size() != shape.size())
        return 1; // malformed: the runtime refuses it
    return compiler::copyRows(compiler::mergeCopyDims(shape, ds, ss));
}

std::uint64_t transferLines(const compiler::Transfer& transfer, bool sourceSide,
                            std::uint64_t lineBytes) {
    const ir::Shape& shape = transfer.source.shape;
    const std::vector<std::int64_t> ss = stridesOf(transfer.source),
                                    ds = stridesOf(transfer.destination);
    if (ss.size() != shape.size() || ds.size() != shape.size() || lineBytes == 0)
        return 0;
    const compiler::MergedCopy m = compiler::mergeCopyDims(shape, ds, ss);
    if (m.empty)
        return 0;
    std::int64_t elements = 1;
    for (std::int64_t e : m.extents)
        elements *= e;
    if (elements <= 0 || transfer.bytes == 0)
        return 0;
    const std::uint64_t elementBytes = transfer.bytes / static_cast<std::uint64_t>(elements);
    if (elementBytes == 0)
        return 0;
    const std::uint64_t offset = (sourceSide ? transfer.source : transfer.destination).offset;
    if (m.extents.empty())
        return (offset % lineBytes + elementBytes + lineBytes - 1) / lineBytes;
    const std::vector<std::int64_t>& strides = sourceSide ? m.srcStrides : m.dstStrides;
    const bool contiguous = m.dstStrides.back() == 1 && m.srcStrides.back() == 1;
    const std::size_t outer = m.extents.size() - (contiguous ? 1 : 0);
    const std::uint64_t rowBytes =
        contiguous ? static_cast<std::uint64_t>(m.extents.back()) * elementBytes : elementBytes;
    std::uint64_t rows = 1;
    for (std::size_t d = 0; d < outer; ++d)
        rows *= static_cast<std::uint64_t>(m.extents[d]);
    // Walk the outer index like an odometer; each row's first byte gives its lines.
    std::vector<std::int64_t> index(outer, 0);
    // A line the previous row ended in is not counted again (rows closer than a line apart).
    std::uint64_t lines = 0, walked = 0, lastLine = UINT64_MAX;
    for (; walked < rows && walked < kExactLineRows; ++walked) {
        std::int64_t at = 0;
        for (std::size_t d = 0; d < outer; ++d)
            at += index[d] * strides[d];
        const std::uint64_t first = offset + static_cast<std::uint64_t>(at) * elementBytes;
        const std::uint64_t firstLine = first / lineBytes,
                            endLine = (first + rowBytes - 1) / lineBytes;
        lines += endLine - firstLine + 1 - (firstLine == lastLine ? 1 : 0);
        lastLine = endLine;
        for (std::size_t d = outer; d-- > 0;) {
            if (++index[d] < m.extents[d])
                break;
            index[d] = 0;
        }
    }
    return walked == rows ? lines : (lines * rows + walked / 2) / walked;
}

ByteSpan transferSpan(const compiler::Transfer& transfer, bool sourceSide) {
    const compiler::Access& a = sourceSide ? transfer.source : transfer.destination;
    const std::vector<std::int64_t> strides = stridesOf(a);
    std::int64_t elements = 1, last = 0;
    for (std::size_t d = 0; d < a.shape.size() && d < strides.size(); ++d) {
        if (a.shape[d] <= 0) return {a.offset, a.offset};
        elements *= a.shape[d];
        last += (a.shape[d] - 1) * std::max<std::int64_t>(strides[d], 0);
    }
    if (a.shape.empty()) return {a.offset, a.offset + transfer.bytes};
    const std::uint64_t elementBytes = transfer.bytes / static_cast<std::uint64_t>(elements);
    return {a.offset, a.offset + static_cast<std::uint64_t>(last + 1) * elementBytes};
}

} // namespace strata::emulator

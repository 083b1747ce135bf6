#include "emulator/TransferRows.h"

#include "compiler/MergedCopy.h"

#include <vector>

namespace strata::emulator {
namespace {

// Row-major strides of the access's own shape when it gives none (as the runtime reads it).
std::vector<std::int64_t> stridesOf(const compiler::Access& a) {
    if (!a.strides.empty()) return a.strides;
    std::vector<std::int64_t> s(a.shape.size(), 1);
    for (std::size_t d = a.shape.size(); d-- > 1;) s[d - 1] = s[d] * a.shape[d];
    return s;
}

} // namespace

std::uint64_t transferRows(const compiler::Transfer& transfer) {
    const ir::Shape& shape = transfer.source.shape;
    const std::vector<std::int64_t> ss = stridesOf(transfer.source), ds = stridesOf(transfer.destination);
    if (ss.size() != shape.size() || ds.size() != shape.size()) return 1; // malformed: the runtime refuses it
    const compiler::MergedCopy m = compiler::mergeCopyDims(shape, ds, ss);
    if (m.empty) return 0;
    const std::vector<std::int64_t>& n = m.extents;
    if (n.empty()) return 1;
    const bool contiguous = m.dstStrides.back() == 1 && m.srcStrides.back() == 1;
    std::uint64_t rows = 1;
    for (std::size_t d = 0; d + (contiguous ? 1 : 0) < n.size(); ++d) rows *= static_cast<std::uint64_t>(n[d]);
    return rows;
}

} // namespace strata::emulator

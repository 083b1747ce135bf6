#include "compiler/MergedCopy.h"

namespace strata::compiler {

MergedCopy mergeCopyDims(const ir::Shape& shape, std::span<const std::int64_t> ds, std::span<const std::int64_t> ss) {
    MergedCopy m;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] <= 0) {
            m = MergedCopy{};
            m.empty = true;
            return m;
        }
        if (shape[d] == 1) continue;
        if (!m.extents.empty() && m.dstStrides.back() == ds[d] * shape[d] && m.srcStrides.back() == ss[d] * shape[d]) {
            m.extents.back() *= shape[d];
            m.dstStrides.back() = ds[d];
            m.srcStrides.back() = ss[d];
            continue;
        }
        m.extents.push_back(shape[d]);
        m.dstStrides.push_back(ds[d]);
        m.srcStrides.push_back(ss[d]);
    }
    return m;
}

std::uint64_t copyRows(const MergedCopy& m) {
    if (m.empty)
        return 0;
    const std::vector<std::int64_t>& n = m.extents;
    if (n.empty())
        return 1;
    const bool contiguous = m.dstStrides.back() == 1 && m.srcStrides.back() == 1;
    std::uint64_t rows = 1;
    for (std::size_t d = 0; d + (contiguous ? 1 : 0) < n.size(); ++d)
        rows *= static_cast<std::uint64_t>(n[d]);
    return rows;
}

} // namespace strata::compiler

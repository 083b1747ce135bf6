#include "emulator/TransferRows.h"

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
    // Merged dims (extent, destination stride, source stride), outermost first.
    std::vector<std::int64_t> n, a, b;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] <= 0) return 0;
        if (shape[d] == 1) continue;
        if (!n.empty() && a.back() == ds[d] * shape[d] && b.back() == ss[d] * shape[d]) {
            n.back() *= shape[d];
            a.back() = ds[d];
            b.back() = ss[d];
            continue;
        }
        n.push_back(shape[d]);
        a.push_back(ds[d]);
        b.push_back(ss[d]);
    }
    if (n.empty()) return 1;
    const bool contiguous = a.back() == 1 && b.back() == 1;
    std::uint64_t rows = 1;
    for (std::size_t d = 0; d + (contiguous ? 1 : 0) < n.size(); ++d) rows *= static_cast<std::uint64_t>(n[d]);
    return rows;
}

} // namespace strata::emulator

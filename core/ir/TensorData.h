#pragma once
// Bytes of a constant tensor, by reference: `owner` keeps the storage alive (a memory-mapped
// external-data file, the parsed model, or a buffer made by constant folding), so weights are
// never copied into the IR.

#include <cstddef>
#include <memory>
#include <span>

namespace strata::ir {

struct TensorData {
    std::shared_ptr<const void> owner;
    const std::byte* data = nullptr;
    std::size_t size = 0;

    bool empty() const { return size == 0; }
    std::span<const std::byte> bytes() const { return {data, size}; }
};

} // namespace strata::ir

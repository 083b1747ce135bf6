#pragma once
// Typed indices (heaptrack's Index<T>): an OpId cannot be passed where a ValueId is meant.

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace strata {

template <class Tag> struct StrongId {
    static constexpr std::uint32_t kInvalid = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t index = kInvalid;

    constexpr StrongId() = default;
    constexpr explicit StrongId(std::uint32_t i) : index(i) {}
    constexpr bool valid() const { return index != kInvalid; }
    constexpr explicit operator bool() const { return valid(); }
    constexpr auto operator<=>(const StrongId&) const = default;
};

} // namespace strata

template <class Tag> struct std::hash<strata::StrongId<Tag>> {
    std::size_t operator()(strata::StrongId<Tag> id) const noexcept {
        return std::hash<std::uint32_t>{}(id.index);
    }
};

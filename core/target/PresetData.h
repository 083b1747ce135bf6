#pragma once
// The preset JSON texts, compiled in from a file that EmbedPresets.cmake generates at build time.

#include <span>
#include <string_view>

namespace strata::target::detail {

struct EmbeddedPreset {
    std::string_view name; // file name without ".json"
    std::string_view json;
};

std::span<const EmbeddedPreset> embeddedPresets();

} // namespace strata::target::detail

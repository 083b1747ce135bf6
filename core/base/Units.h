#pragma once
// Human-readable quantities for diagnostics and text reports.

#include <cstdint>
#include <string>

namespace strata {

std::string formatBytes(std::uint64_t bytes);   // "512 B", "1.50 KiB", "24.0 MiB"
std::string formatCount(double count);          // "950", "3.54 M", "8.20 G"

} // namespace strata

#include "base/Excerpt.h"

#include <algorithm>

namespace strata {

std::string excerpt(std::string_view value, std::size_t limit) {
    std::string out;
    out.reserve(std::min(value.size(), limit) + 24);
    for (char c : value.substr(0, limit))
        out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (value.size() > limit)
        out += "... (" + std::to_string(value.size()) + " bytes)";
    return out;
}

} // namespace strata

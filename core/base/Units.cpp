#include "base/Units.h"

#include <cstdio>

namespace strata {

static std::string scaled(double value, const char* const* units, int unitCount, double step) {
    int u = 0;
    while (value >= step && u + 1 < unitCount) {
        value /= step;
        ++u;
    }
    char out[32];
    if (u == 0) std::snprintf(out, sizeof out, "%.0f%s", value, units[0]);
    else std::snprintf(out, sizeof out, value < 10 ? "%.2f%s" : value < 100 ? "%.1f%s" : "%.0f%s", value, units[u]);
    return out;
}

std::string formatBytes(std::uint64_t bytes) {
    static const char* const units[] = {" B", " KiB", " MiB", " GiB", " TiB", " PiB"};
    return scaled(static_cast<double>(bytes), units, 6, 1024.0);
}

std::string formatCount(double count) {
    static const char* const units[] = {"", " k", " M", " G", " T", " P"};
    return scaled(count, units, 6, 1000.0);
}

} // namespace strata

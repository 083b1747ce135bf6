#include "emulator/ConcurrentSlowdown.h"

#include <algorithm>

namespace strata::emulator {

ConcurrentSlowdown::ConcurrentSlowdown(const target::Target& target, int cores)
    : m_paths(target.paths.size()), m_minBytes(target.privateCacheBytes),
      m_factor(m_paths * m_paths, 1.0),
      m_moving(static_cast<std::size_t>(std::max(cores, 0)) * m_paths, 0), m_cores(m_paths, 0) {
    for (std::size_t p = 0; p < m_paths; ++p)
        for (const auto& [other, factor] : target.paths[p].concurrentSlowdown)
            for (std::size_t q = 0; q < m_paths; ++q)
                if (target.paths[q].name == other && factor > 1) {
                    m_factor[p * m_paths + q] = factor;
                    m_any = true;
                }
}

bool ConcurrentSlowdown::moving(int core, std::size_t path, int change) {
    int& count = m_moving[static_cast<std::size_t>(core) * m_paths + path];
    const bool was = count > 0;
    count += change;
    const bool is = count > 0;
    if (was != is)
        m_cores[path] += is ? 1 : -1;
    return was != is;
}

double ConcurrentSlowdown::factor(int core, std::size_t path) const {
    double out = 1;
    for (std::size_t q = 0; q < m_paths; ++q) {
        const double f = m_factor[path * m_paths + q];
        if (f <= out)
            continue;
        const bool own = m_moving[static_cast<std::size_t>(core) * m_paths + q] > 0;
        if (m_cores[q] - (own ? 1 : 0) > 0)
            out = f;
    }
    return out;
}

} // namespace strata::emulator

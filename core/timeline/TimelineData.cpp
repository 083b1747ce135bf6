#include "timeline/TimelineData.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace strata::timeline {

TimelineData::TimelineData(std::vector<std::shared_ptr<const trace::Trace>> traces,
                           std::vector<std::string> names)
    : m_traces(std::move(traces)), m_names(std::move(names)) {
    std::erase(m_traces, nullptr);
    m_names.resize(m_traces.size());
    for (std::size_t t = 0; t < m_traces.size(); ++t) {
        const trace::Trace& tr = *m_traces[t];
        if (m_names[t].empty())
            m_names[t] = std::string(trace::sourceName(tr.source));
        m_lanes.push_back(buildLanes(tr));
        auto& byId = m_byId.emplace_back();
        byId.reserve(tr.events.size());
        for (std::uint32_t i = 0; i < tr.events.size(); ++i)
            byId.emplace(tr.events[i].id, i); // the first event of an id wins
        m_endPs = std::max(m_endPs, tr.endPs());
    }
}

std::string TimelineData::pathName(LaneKey key, std::size_t trace) const {
    if (key.kind == LaneKind::Compute)
        return "compute";
    const trace::Trace& tr = *m_traces[trace];
    return key.path < tr.paths.size() ? tr.paths[key.path].name : "path " + std::to_string(key.path);
}

std::vector<Row> TimelineData::rows(RowMode mode) const {
    // Lanes of different traces are the same row when core, kind and path name agree.
    struct Slot {
        std::uint32_t core;
        int kindOrder;           // compute first
        std::string path;
        bool operator<(const Slot& o) const {
            return std::tie(core, kindOrder, path) < std::tie(o.core, o.kindOrder, o.path);
        }
    };
    std::map<Slot, std::vector<LaneRef>> slots;
    std::map<Slot, LaneKey> keys;
    std::map<Slot, std::uint16_t> pathOrder; // the first trace's path index sorts the paths
    for (std::uint32_t t = 0; t < m_lanes.size(); ++t)
        for (std::uint32_t l = 0; l < m_lanes[t].size(); ++l) {
            const LaneKey key = m_lanes[t][l].key;
            const Slot slot{key.core, key.kind == LaneKind::Compute ? 0 : 1,
                            key.kind == LaneKind::Compute ? std::string() : pathName(key, t)};
            slots[slot].push_back({t, l});
            keys.emplace(slot, key);
        }
    std::vector<std::pair<Slot, std::vector<LaneRef>>> ordered(slots.begin(), slots.end());
    std::stable_sort(ordered.begin(), ordered.end(), [&](const auto& a, const auto& b) {
        const LaneKey ka = keys.at(a.first);
        const LaneKey kb = keys.at(b.first);
        if (a.first.core != b.first.core || a.first.kindOrder != b.first.kindOrder)
            return a.first < b.first;
        return ka.path < kb.path;
    });

    std::vector<Row> rows;
    for (auto& [slot, refs] : ordered) {
        const std::string base = slot.kindOrder == 0 ? "core " + std::to_string(slot.core)
                                                     : "  " + slot.path;
        if (mode == RowMode::Overlaid || m_traces.size() == 1) {
            rows.push_back({keys.at(slot), refs, base});
            continue;
        }
        for (const LaneRef& ref : refs)
            rows.push_back({keys.at(slot), {ref}, base + " \u00b7 " + m_names[ref.trace]});
    }
    return rows;
}

std::int64_t TimelineData::findById(std::size_t trace, std::uint32_t id) const {
    if (trace >= m_byId.size())
        return -1;
    const auto it = m_byId[trace].find(id);
    return it == m_byId[trace].end() ? -1 : static_cast<std::int64_t>(it->second);
}

} // namespace strata::timeline

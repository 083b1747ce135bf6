#pragma once
// One or more traces on one time axis (e.g. an emulated run and a measured one): each trace's
// lanes, the rows they are shown in, and the matching of events across traces by instruction id.
// Built once per set of traces (off the UI thread if it must) and never changed: views hold it
// as std::shared_ptr<const TimelineData>.

#include "timeline/Lanes.h"
#include "trace/Trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::timeline {

// Paired: each trace's lane is a row of its own, the traces' rows of a lane side by side.
// Overlaid: one row per lane; the first trace fills it and the others are drawn over it.
enum class RowMode : std::uint8_t { Paired, Overlaid };

struct LaneRef {
    std::uint32_t trace = 0;    // index into TimelineData::traces()
    std::uint32_t lane = 0;     // index into that trace's lanes
};

struct Row {
    LaneKey key;
    std::vector<LaneRef> lanes; // one (paired) or one per trace that has the lane (overlaid)
    std::string label;          // "core 0", "  mvp" ...; the trace's name when paired
};

class TimelineData {
  public:
    // `names` label the traces ("emulated", "measured", a file name); missing names are
    // taken from each trace's source.
    explicit TimelineData(std::vector<std::shared_ptr<const trace::Trace>> traces,
                          std::vector<std::string> names = {});

    const std::vector<std::shared_ptr<const trace::Trace>>& traces() const { return m_traces; }
    const std::string& name(std::size_t trace) const { return m_names[trace]; }
    const std::vector<Lane>& lanes(std::size_t trace) const { return m_lanes[trace]; }
    const Lane& lane(LaneRef ref) const { return m_lanes[ref.trace][ref.lane]; }
    const trace::Event& event(LaneRef ref, std::size_t position) const {
        return m_traces[ref.trace]->events[lane(ref).events[position]];
    }

    // The rows for `mode`, grouped by core: per core its compute lane, then its paths.
    std::vector<Row> rows(RowMode mode) const;
    // The latest end over all traces (0 when empty).
    std::int64_t endPs() const { return m_endPs; }
    // Paths by name over all traces (a path's index differs between traces from different targets).
    std::string pathName(LaneKey key, std::size_t trace) const;

    // The event in `trace` with instruction id `id`: its index into Trace::events, or -1.
    std::int64_t findById(std::size_t trace, std::uint32_t id) const;

  private:
    std::vector<std::shared_ptr<const trace::Trace>> m_traces;
    std::vector<std::string> m_names;
    std::vector<std::vector<Lane>> m_lanes;
    std::vector<std::unordered_map<std::uint32_t, std::uint32_t>> m_byId;
    std::int64_t m_endPs = 0;
};

} // namespace strata::timeline

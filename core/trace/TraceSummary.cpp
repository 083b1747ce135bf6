#include "trace/TraceSummary.h"

#include <algorithm>
#include <future>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

namespace strata::trace {
namespace {

struct Interval {
    std::int64_t start;
    std::int64_t end;
};

// Length of the union of `intervals` (sorted here).
std::int64_t unionLength(std::vector<Interval>& intervals) {
    const auto byStart = [](const Interval& a, const Interval& b) { return a.start < b.start; };
    if (!std::is_sorted(intervals.begin(), intervals.end(), byStart)) std::sort(intervals.begin(), intervals.end(), byStart);
    std::int64_t total = 0, coveredTo = std::numeric_limits<std::int64_t>::min();
    for (const Interval& i : intervals) {
        const std::int64_t from = std::max(i.start, coveredTo);
        if (i.end > from) total += i.end - from;
        coveredTo = std::max(coveredTo, i.end);
    }
    return total;
}

bool touchesMainMemory(const Trace& trace, const Event& e) {
    if (trace.mainMemory.empty() || e.path >= trace.paths.size()) return true;
    const TracePath& p = trace.paths[e.path];
    return p.from == trace.mainMemory || p.to == trace.mainMemory;
}

std::vector<BlockSummary> summarizeBlocks(const Trace& trace) {
    struct Work {
        BlockSummary summary;
        std::int64_t first = std::numeric_limits<std::int64_t>::max();
        std::int64_t last = 0;
        std::vector<Interval> transfers, computes, stalls;
    };
    std::map<int, Work> blocks;
    Work* previous = nullptr; // events come grouped by block: look the block up when it changes
    for (const Event& e : trace.events) {
        if (e.kind == EventKind::Barrier || e.block < 0) continue;
        if (!previous || previous->summary.block != e.block) {
            previous = &blocks[e.block];
            previous->summary.block = e.block;
        }
        Work& w = *previous;
        w.first = std::min(w.first, e.startPs);
        w.last = std::max(w.last, e.endPs);
        switch (e.kind) {
        case EventKind::Transfer:
            w.transfers.push_back({e.startPs, e.endPs});
            if (touchesMainMemory(trace, e)) w.summary.dramBytes += e.bytes;
            break;
        case EventKind::Compute: w.computes.push_back({e.startPs, e.endPs}); break;
        case EventKind::Wait: w.stalls.push_back({e.startPs, e.endPs}); break;
        case EventKind::Barrier: break;
        }
    }
    std::vector<BlockSummary> out;
    for (auto& [id, w] : blocks) {
        w.summary.block = id;
        w.summary.timePs = w.last - w.first;
        w.summary.transferPs = unionLength(w.transfers);
        w.summary.computePs = unionLength(w.computes);
        w.summary.stallPs = unionLength(w.stalls);
        out.push_back(w.summary);
    }
    return out;
}

std::vector<PathSummary> summarizePaths(const Trace& trace, std::int64_t totalPs) {
    std::vector<PathSummary> out(trace.paths.size());
    std::vector<std::vector<Interval>> busy(trace.paths.size());
    for (std::size_t p = 0; p < out.size(); ++p) out[p].path = static_cast<std::uint16_t>(p);
    for (const Event& e : trace.events) {
        if (e.kind != EventKind::Transfer || e.path >= out.size()) continue;
        out[e.path].bytes += e.bytes;
        out[e.path].transfers += 1;
        busy[e.path].push_back({e.startPs, e.endPs});
    }
    for (std::size_t p = 0; p < out.size(); ++p) {
        out[p].busyPs = unionLength(busy[p]);
        out[p].busyFraction = totalPs > 0 ? double(out[p].busyPs) / double(totalPs) : 0;
    }
    return out;
}

class CriticalPathWalk {
  public:
    explicit CriticalPathWalk(const Trace& trace) : m_trace(trace), m_byCore(static_cast<std::size_t>(std::max(trace.cores, 1))) {
        const auto& events = trace.events;
        for (std::uint32_t i = 0; i < events.size(); ++i) {
            const Event& e = events[i];
            if (e.core >= m_byCore.size()) m_byCore.resize(e.core + 1);
            m_byCore[e.core].push_back({e.endPs, e.id, i});
            if (e.kind == EventKind::Transfer) m_transferById.push_back({e.id, i});
            if (e.kind == EventKind::Barrier) {
                auto [it, fresh] = m_lastArrival.emplace(e.link, i);
                if (!fresh && events[it->second].startPs < e.startPs) it->second = i;
            }
        }
        // Sorted copies of the keys rather than indices sorted through the events: the sort then
        // never leaves the lane's own memory.
        for (auto& lane : m_byCore) std::sort(lane.begin(), lane.end());
        if (!std::is_sorted(m_transferById.begin(), m_transferById.end())) std::sort(m_transferById.begin(), m_transferById.end());
    }

    CriticalPath walk() const {
        CriticalPath path;
        const auto& events = m_trace.events;
        if (events.empty()) return path;
        std::uint32_t current = 0;
        for (std::uint32_t i = 1; i < events.size(); ++i)
            if (events[i].endPs > events[current].endPs) current = i;
        std::vector<bool> visited(events.size(), false);
        for (;;) {
            if (events[current].kind == EventKind::Barrier) {
                if (auto it = m_lastArrival.find(events[current].link); it != m_lastArrival.end()) current = it->second;
            }
            if (visited[current]) break;
            visited[current] = true;
            path.events.push_back(current);
            auto previous = predecessor(current);
            if (!previous) break;
            current = *previous;
        }
        std::reverse(path.events.begin(), path.events.end());
        // Each event counts for the time it adds past the chain so far: a wait that overlaps
        // the transfer it waits on adds only what sticks out.
        std::int64_t cursor = 0, covered = 0;
        for (std::uint32_t i : path.events) {
            const Event& e = events[i];
            const std::int64_t added = std::max<std::int64_t>(0, e.endPs - std::max(e.startPs, cursor));
            cursor = std::max(cursor, e.endPs);
            covered += added;
            switch (e.kind) {
            case EventKind::Transfer: path.transferPs += added; break;
            case EventKind::Compute: path.computePs += added; break;
            case EventKind::Wait: path.waitPs += added; break;
            case EventKind::Barrier: path.barrierPs += added; break;
            }
        }
        path.gapPs = std::max<std::int64_t>(0, m_trace.endPs() - covered);
        return path;
    }

  private:
    std::optional<std::uint32_t> predecessor(std::uint32_t index) const {
        const Event& e = m_trace.events[index];
        if (e.kind == EventKind::Wait && e.link >= 0) {
            const std::pair<std::uint32_t, std::uint32_t> key{static_cast<std::uint32_t>(e.link), 0};
            auto it = std::lower_bound(m_transferById.begin(), m_transferById.end(), key);
            if (it != m_transferById.end() && it->first == key.first && m_trace.events[it->second].endPs > e.startPs)
                return it->second;
        }
        // The latest event on this core to end by e's start; on a tie, the stream's own
        // instruction, unless e is a transfer that waited for a slot on the same path.
        const auto& lane = m_byCore[e.core];
        const auto& events = m_trace.events;
        auto after = std::upper_bound(lane.begin(), lane.end(), e.startPs,
                                      [](std::int64_t t, const LaneEntry& l) { return t < l.endPs; });
        std::vector<std::uint32_t> tied; // the candidates that all end latest
        for (auto it = after; it != lane.begin();) {
            --it;
            if (it->index == index) continue;
            if (!tied.empty() && it->endPs != events[tied.front()].endPs) break;
            tied.push_back(it->index);
        }
        if (tied.empty()) return std::nullopt;
        std::optional<std::uint32_t> best;
        for (std::uint32_t i : tied) {
            const Event& candidate = events[i];
            const bool isTransfer = candidate.kind == EventKind::Transfer;
            if (e.kind == EventKind::Transfer && isTransfer && candidate.path == e.path) return i;
            if (!best || (!isTransfer && events[*best].kind == EventKind::Transfer)) best = i;
        }
        return best;
    }

    // An event of a core's lane, ordered by end then id.
    struct LaneEntry {
        std::int64_t endPs;
        std::uint32_t id;
        std::uint32_t index; // into Trace::events
        bool operator<(const LaneEntry& o) const { return endPs != o.endPs ? endPs < o.endPs : id < o.id; }
    };

    const Trace& m_trace;
    std::vector<std::vector<LaneEntry>> m_byCore;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_transferById; // (id, index), sorted
    std::unordered_map<std::int32_t, std::uint32_t> m_lastArrival;
};

} // namespace

TraceSummary summarize(const Trace& trace) {
    TraceSummary s;
    s.totalPs = trace.endPs();
    // The critical path (sorting every core's events) on a second thread for large traces: it
    // takes about as long as the block and path figures together, which need none of it.
    constexpr std::size_t kParallelFrom = 20000;
    std::future<CriticalPath> critical;
    if (trace.events.size() >= kParallelFrom)
        critical = std::async(std::launch::async, [&trace] { return CriticalPathWalk(trace).walk(); });
    s.blocks = summarizeBlocks(trace);
    s.paths = summarizePaths(trace, s.totalPs);
    s.critical = critical.valid() ? critical.get() : CriticalPathWalk(trace).walk();
    return s;
}

} // namespace strata::trace

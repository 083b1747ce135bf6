#include "analysis/TransferStats.h"

#include "trace/BlockError.h"
#include "trace/TraceSummary.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <unordered_map>

namespace strata::analysis {

int sizeBin(std::uint64_t bytes) { return bytes == 0 ? -1 : static_cast<int>(std::bit_width(bytes)) - 1; }

std::vector<PathThroughput> throughputBySize(const trace::Trace& trace) {
    struct Sums {
        double bytes = 0;
        double ps = 0;
        std::size_t count = 0;
    };
    std::map<std::uint16_t, std::map<int, Sums>> byPath;
    for (const trace::Event& e : trace.events) {
        if (e.kind != trace::EventKind::Transfer || e.bytes == 0 || e.durationPs() <= 0) continue;
        Sums& s = byPath[e.path][sizeBin(e.bytes)];
        s.bytes += double(e.bytes);
        s.ps += double(e.durationPs());
        ++s.count;
    }
    std::vector<PathThroughput> out;
    for (const auto& [path, bins] : byPath) {
        PathThroughput p;
        p.path = path;
        p.name = path < trace.paths.size() ? trace.paths[path].name : "path " + std::to_string(path);
        for (const auto& [bin, s] : bins)
            p.bins.push_back({bin, s.bytes / double(s.count), s.bytes * 1e3 / s.ps, s.count}); // B/ps * 1e3 = GB/s
        out.push_back(std::move(p));
    }
    return out;
}

double harmonicMean(const std::vector<double>& values) {
    double inverseSum = 0;
    std::size_t n = 0;
    for (double v : values)
        if (v > 0) {
            inverseSum += 1 / v;
            ++n;
        }
    return n ? double(n) / inverseSum : 0;
}

std::vector<SizeBinThroughput> sequentialIdeal(const std::vector<PathThroughput>& paths) {
    if (paths.size() < 2) return {};
    struct Collected {
        std::vector<double> gbps;
        double bytesSum = 0;
        std::size_t transfers = 0;
    };
    std::map<int, Collected> bins;
    for (const PathThroughput& p : paths)
        for (const SizeBinThroughput& b : p.bins) {
            Collected& c = bins[b.bin];
            c.gbps.push_back(b.gbps);
            c.bytesSum += b.meanBytes;
            c.transfers += b.transfers;
        }
    std::vector<SizeBinThroughput> out;
    for (const auto& [bin, c] : bins)
        if (c.gbps.size() >= 2) out.push_back({bin, c.bytesSum / double(c.gbps.size()), harmonicMean(c.gbps), c.transfers});
    return out;
}

std::vector<MatchedEvent> matchEvents(const trace::Trace& predicted, const trace::Trace& measured) {
    std::unordered_map<std::uint32_t, const trace::Event*> byId;
    byId.reserve(measured.events.size());
    for (const trace::Event& e : measured.events) byId.emplace(e.id, &e);
    std::vector<MatchedEvent> out;
    for (const trace::Event& e : predicted.events) {
        const auto it = byId.find(e.id);
        if (it == byId.end() || it->second->kind != e.kind) continue;
        MatchedEvent m;
        m.id = e.id;
        m.kind = e.kind;
        m.block = e.block;
        m.path = e.path;
        m.bytes = e.bytes;
        m.predictedNs = double(e.durationPs()) * 1e-3;
        m.measuredNs = double(it->second->durationPs()) * 1e-3;
        m.error = m.measuredNs > 0 ? (m.predictedNs - m.measuredNs) / m.measuredNs : 0;
        out.push_back(m);
    }
    return out;
}

std::vector<double> relativeErrors(const std::vector<MatchedEvent>& events, trace::EventKind kind) {
    std::vector<double> out;
    for (const MatchedEvent& m : events)
        if (m.kind == kind && m.hasError()) out.push_back(m.error);
    return out;
}

Histogram histogram(const std::vector<double>& values, double low, double high, int bins) {
    Histogram h;
    h.low = low;
    if (bins < 1 || !(high > low)) {
        for (double v : values) (v < low ? h.below : h.above) += 1;
        return h;
    }
    h.width = (high - low) / bins;
    h.counts.assign(static_cast<std::size_t>(bins), 0);
    for (double v : values) {
        if (v < low) {
            ++h.below;
            continue;
        }
        const double index = std::floor((v - low) / h.width);
        if (index >= bins)
            ++h.above;
        else
            ++h.counts[static_cast<std::size_t>(index)];
    }
    return h;
}

double quantile(std::vector<double> values, double q) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const double position = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, values.size() - 1);
    const double t = position - double(below);
    return values[below] + t * (values[above] - values[below]);
}

std::vector<BlockError> blockErrors(const trace::Trace& predicted, const trace::Trace& measured) {
    std::vector<BlockError> out;
    for (const trace::BlockError& e : trace::blockErrors(trace::summarize(predicted), trace::summarize(measured)))
        out.push_back({e.block, double(e.predictedPs) * 1e-3, double(e.measuredPs) * 1e-3, e.error});
    std::stable_sort(out.begin(), out.end(),
                     [](const BlockError& a, const BlockError& b) { return std::abs(a.error) > std::abs(b.error); });
    return out;
}

} // namespace strata::analysis

#include "trace/AccuracyReport.h"

#include "trace/BlockError.h"
#include "trace/TraceCompare.h"
#include "trace/TraceSummary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

namespace strata::trace {
namespace {

double& timeOf(KindTimes& times, EventKind kind) {
    switch (kind) {
    case EventKind::Transfer:
        return times.transferPs;
    case EventKind::Wait:
        return times.waitPs;
    case EventKind::Barrier:
        return times.barrierPs;
    case EventKind::Compute:
        break;
    }
    return times.computePs;
}

// The block each event of `trace` counts in: its own, or for a barrier (-1) the block of the
// event before it on its core.
std::vector<std::int32_t> blockOfEvents(const Trace& trace) {
    std::vector<std::int32_t> blocks(trace.events.size(), -1);
    std::vector<std::size_t> order(trace.events.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const Event &x = trace.events[a], &y = trace.events[b];
        return x.core != y.core ? x.core < y.core : x.startPs < y.startPs;
    });
    std::int32_t last = -1;
    std::uint32_t core = kNone;
    for (std::size_t i : order) {
        const Event& e = trace.events[i];
        if (e.core != core)
            last = -1, core = e.core;
        if (e.block >= 0)
            last = e.block;
        blocks[i] = e.block >= 0 ? e.block : last;
    }
    return blocks;
}

struct GroupSamples {
    std::vector<double> absErrors;
    double emulatedPs = 0, measuredPs = 0;
};

std::vector<GroupAccuracy> groupsOf(std::map<std::string, GroupSamples>& samples) {
    std::vector<GroupAccuracy> out;
    for (auto& [label, s] : samples) {
        GroupAccuracy g;
        g.label = label;
        g.events = s.absErrors.size();
        g.medianAbsError = quantile(s.absErrors, 0.5);
        g.p90AbsError = quantile(s.absErrors, 0.9);
        g.emulatedPs = s.emulatedPs;
        g.measuredPs = s.measuredPs;
        g.error = relativeError(s.emulatedPs, s.measuredPs);
        out.push_back(std::move(g));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.measuredPs > b.measuredPs; });
    return out;
}

} // namespace

double quantile(std::vector<double> values, double q) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double at = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
    const auto low = static_cast<std::size_t>(std::floor(at));
    const std::size_t high = std::min(low + 1, values.size() - 1);
    return values[low] + (values[high] - values[low]) * (at - double(low));
}

std::vector<double> averageRanks(const std::vector<double>& values) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
            ++j;
        const double rank = double(i + j) / 2 + 1; // the mean of ranks i+1 .. j+1
        for (std::size_t k = i; k <= j; ++k)
            ranks[order[k]] = rank;
        i = j + 1;
    }
    return ranks;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();
    if (a.size() != b.size() || a.size() < 2)
        return kUndefined;
    const std::vector<double> ra = averageRanks(a), rb = averageRanks(b);
    const double mean = double(a.size() + 1) / 2; // of ranks 1..n, ties included
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (ra[i] - mean) * (rb[i] - mean);
        saa += (ra[i] - mean) * (ra[i] - mean);
        sbb += (rb[i] - mean) * (rb[i] - mean);
    }
    if (saa <= 0 || sbb <= 0)
        return kUndefined;
    return sab / std::sqrt(saa * sbb);
}

// Per event of `reference`: the median of its id's durations over `repeats`, and (when asked)
// how many repeats have it.
static std::vector<double> medianDurationsOf(const Trace& reference,
                                             const std::vector<Trace>& repeats,
                                             std::vector<std::size_t>* present) {
    std::unordered_map<std::uint32_t, std::size_t> slotOfId;
    slotOfId.reserve(reference.events.size());
    for (std::size_t i = 0; i < reference.events.size(); ++i)
        slotOfId.emplace(reference.events[i].id, i);
    std::vector<std::vector<double>> durations(reference.events.size());
    for (const Trace& repeat : repeats)
        for (const Event& e : repeat.events)
            if (auto found = slotOfId.find(e.id); found != slotOfId.end())
                durations[found->second].push_back(double(e.durationPs()));
    std::vector<double> medians(durations.size());
    if (present)
        present->resize(durations.size());
    for (std::size_t i = 0; i < durations.size(); ++i) {
        if (present)
            (*present)[i] = durations[i].size();
        medians[i] = quantile(std::move(durations[i]), 0.5);
    }
    return medians;
}

std::vector<double> medianDurationsPs(const Trace& reference, const std::vector<Trace>& repeats) {
    return medianDurationsOf(reference, repeats, nullptr);
}

Expected<AccuracyReport> accuracyReport(const Trace& emulated,
                                        const std::vector<Trace>& measuredRepeats,
                                        const EventLabels& labels) {
    if (measuredRepeats.empty())
        return error("no measured run to compare the prediction with");
    AccuracyReport out;
    out.repeats = measuredRepeats.size();
    // Each repeat must be of the emulated program; compareTraces says why not.
    for (std::size_t r = 0; r < measuredRepeats.size(); ++r) {
        auto checked = compareTraces(emulated, measuredRepeats[r]);
        if (!checked)
            return checked.takeDiagnostics();
        if (r == 0)
            out.warnings = checked->warnings;
    }

    std::vector<std::size_t> present;
    const std::vector<double> medians = medianDurationsOf(emulated, measuredRepeats, &present);
    std::map<int, std::vector<double>> measuredSpans;
    for (const Trace& repeat : measuredRepeats) {
        const TraceSummary summary = summarize(repeat);
        out.measuredTotalsPs.push_back(double(summary.totalPs));
        for (const BlockSummary& b : summary.blocks)
            measuredSpans[b.block].push_back(double(b.timePs));
    }
    const double medianTotal = quantile(out.measuredTotalsPs, 0.5);
    const TraceSummary emulatedSummary = summarize(emulated);
    out.emulatedTotalPs = emulatedSummary.totalPs;
    out.measuredTotalPs = medianTotal;
    out.totalError = relativeError(double(out.emulatedTotalPs), medianTotal);
    out.totalSpread =
        medianTotal > 0
            ? (quantile(out.measuredTotalsPs, 0.75) - quantile(out.measuredTotalsPs, 0.25)) /
                  medianTotal
            : 0;

    const std::vector<std::int32_t> blockOf = blockOfEvents(emulated);
    std::map<int, BlockAccuracy> blocks;
    std::map<std::string, GroupSamples> computeGroups, transferGroups;
    std::vector<double> transferErrors, computeErrors;
    std::map<std::uint32_t, std::pair<double, double>> busyPerCore; // emulated, measured
    std::map<std::uint32_t, std::pair<double, double>> workPerCore; // computes and transfers
    for (std::size_t i = 0; i < emulated.events.size(); ++i) {
        if (present[i] == 0)
            continue;
        const Event& e = emulated.events[i];
        const double predicted = double(e.durationPs());
        const double measured = medians[i];
        busyPerCore[e.core].first += predicted;
        busyPerCore[e.core].second += measured;
        if (blockOf[i] >= 0) {
            BlockAccuracy& b = blocks[blockOf[i]];
            timeOf(b.emulated, e.kind) += predicted;
            timeOf(b.measured, e.kind) += measured;
        }
        if (e.kind != EventKind::Transfer && e.kind != EventKind::Compute)
            continue;
        const bool transfer = e.kind == EventKind::Transfer;
        workPerCore[e.core].first += predicted;
        workPerCore[e.core].second += measured;
        out.events.push_back({i, predicted, measured});
        std::string label = e.id < labels.size() ? labels[e.id] : std::string();
        if (label.empty())
            label = transfer ? std::string(emulated.pathName(e)) : "compute";
        GroupSamples& group = (transfer ? transferGroups : computeGroups)[label];
        group.emulatedPs += predicted;
        group.measuredPs += measured;
        if (measured <= 0)
            continue;
        const double absError = std::fabs(relativeError(predicted, measured));
        group.absErrors.push_back(absError);
        (transfer ? transferErrors : computeErrors).push_back(absError);
    }
    double emulatedBusy = 0, measuredBusy = 0;
    for (const auto& [core, busy] : busyPerCore) {
        emulatedBusy = std::max(emulatedBusy, busy.first);
        measuredBusy = std::max(measuredBusy, busy.second);
    }
    auto idleShare = [](double busy, double total) {
        return total > 0 ? std::clamp(1 - busy / total, 0.0, 1.0) : 0.0;
    };
    for (const auto& [core, work] : workPerCore)
        if (work.first > 0 && work.second > 0)
            out.corePace.push_back(work.second / work.first);
    out.emulatedIdleShare = idleShare(emulatedBusy, double(out.emulatedTotalPs));
    out.measuredIdleShare = idleShare(measuredBusy, medianTotal);
    out.transfers = transferErrors.size();
    out.transferMedianAbsError = quantile(transferErrors, 0.5);
    out.transferP90AbsError = quantile(transferErrors, 0.9);
    out.computes = computeErrors.size();
    out.computeMedianAbsError = quantile(computeErrors, 0.5);
    out.computeGroups = groupsOf(computeGroups);
    out.transferGroups = groupsOf(transferGroups);

    for (const BlockSummary& s : emulatedSummary.blocks) {
        auto spans = measuredSpans.find(s.block);
        if (spans == measuredSpans.end())
            continue;
        BlockAccuracy& b = blocks[s.block];
        b.emulatedSpanPs = s.timePs;
        b.measuredSpanPs = quantile(spans->second, 0.5);
        b.error = relativeError(double(b.emulatedSpanPs), b.measuredSpanPs);
    }
    for (auto& [id, b] : blocks) {
        b.block = id;
        out.blocks.push_back(b);
    }
    return out;
}

double corePaceSpread(const std::vector<double>& pace) {
    if (pace.size() < 2)
        return 0;
    const auto [low, high] = std::minmax_element(pace.begin(), pace.end());
    return *high / *low - 1;
}

} // namespace strata::trace

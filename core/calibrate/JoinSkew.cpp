#include "calibrate/JoinSkew.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace strata::calibrate {
namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

void collectJoinSamples(const compiler::Program& program, const trace::Trace& trace, double clockHz,
                        std::vector<JoinSample>& samples) {
    const std::size_t cores = std::size_t(std::max(1, program.cores));
    if (cores < 2 || clockHz <= 0)
        return;
    std::vector<const trace::Event*> events;
    for (const trace::Event& e : trace.events)
        if (e.core < cores && e.id < program.instructions.size())
            events.push_back(&e);
    if (events.empty())
        return;
    std::sort(events.begin(), events.end(),
              [](auto* a, auto* b) { return a->startPs < b->startPs; });
    // Per barrier number: each core's arrival; per core, whether it worked since its last barrier.
    std::map<std::int32_t, std::vector<std::int64_t>> arrivals;
    std::map<std::int32_t, std::int64_t> releases;
    std::map<std::int32_t, std::vector<bool>> worked;
    std::vector<bool> busy(cores, false);
    for (const trace::Event* e : events) {
        if (e->kind != trace::EventKind::Barrier) {
            busy[e->core] = true;
            continue;
        }
        auto& a = arrivals[e->link];
        auto& w = worked[e->link];
        if (a.empty()) {
            a.assign(cores, -1);
            w.assign(cores, false);
        }
        a[e->core] = e->startPs;
        w[e->core] = busy[e->core];
        busy[e->core] = false;
        releases[e->link] = std::max(releases[e->link], e->endPs);
    }
    const double cyclesPerPs = clockHz / 1e12;
    std::int64_t blockStart = events.front()->startPs;
    for (const auto& [id, a] : arrivals) {
        const std::vector<bool>& w = worked[id];
        double sum = 0, last = 0;
        int n = 0;
        bool complete = true;
        for (std::size_t c = 0; c < cores; ++c) {
            if (a[c] < 0)
                complete = false;
            else if (w[c]) {
                sum += double(a[c]);
                last = n == 0 ? double(a[c]) : std::max(last, double(a[c]));
                ++n;
            }
        }
        if (complete && n >= 2) {
            const double mean = sum / n;
            if (mean > double(blockStart))
                samples.push_back(
                    {id, (mean - double(blockStart)) * cyclesPerPs, (last - mean) * cyclesPerPs});
        }
        blockStart = releases[id];
    }
}

void appendExcessSkews(const std::vector<JoinSample>& measured,
                       const std::vector<JoinSample>& emulated, std::vector<JoinSample>& excess) {
    std::map<std::int32_t, double> predicted;
    for (const JoinSample& e : emulated)
        predicted[e.barrier] = e.skewCycles;
    for (const JoinSample& m : measured)
        if (auto it = predicted.find(m.barrier); it != predicted.end())
            excess.push_back({m.barrier, m.workCycles, m.skewCycles - it->second});
}

target::JoinSkew fitJoinSkew(const std::vector<JoinSample>& samples) {
    std::map<int, std::vector<const JoinSample*>> bins;
    for (const JoinSample& s : samples)
        if (s.workCycles >= 1 && s.skewCycles >= 0)
            bins[int(std::floor(std::log2(s.workCycles)))].push_back(&s);
    std::vector<double> xs, ys, weights; // a bin's median is as sure as it has members
    for (const auto& [bin, members] : bins) {
        if (members.size() < kMinJoinsPerBin)
            continue;
        std::vector<double> work, skew;
        for (const JoinSample* s : members) {
            work.push_back(s->workCycles);
            skew.push_back(s->skewCycles);
        }
        const double w = median(work), k = median(skew);
        if (k <= 0)
            continue;
        xs.push_back(std::log(w));
        ys.push_back(std::log(k));
        weights.push_back(double(members.size()));
    }
    if (xs.size() < 3 ||
        *std::max_element(xs.begin(), xs.end()) - *std::min_element(xs.begin(), xs.end()) <
            std::log(8.0))
        return {};
    double mx = 0, my = 0, total = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        mx += weights[i] * xs[i];
        my += weights[i] * ys[i];
        total += weights[i];
    }
    mx /= total;
    my /= total;
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        sxy += weights[i] * (xs[i] - mx) * (ys[i] - my);
        sxx += weights[i] * (xs[i] - mx) * (xs[i] - mx);
    }
    const double exponent = std::clamp(sxx > 0 ? sxy / sxx : 1.0, 0.25, 1.0);
    // With the exponent clamped, the coefficient that keeps the fit through the bins' centre.
    return {std::exp(my - exponent * mx), exponent};
}

} // namespace strata::calibrate

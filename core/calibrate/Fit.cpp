#include "calibrate/Fit.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace strata::calibrate {
namespace {

// Solves min |A x - 1|^2 where each row of A is a sample's regressors divided by its measured
// value: the relative-residual least squares of every fit here.
Eigen::VectorXd solveRelative(const Eigen::MatrixXd& a) {
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(a.rows());
    return a.colPivHouseholderQr().solve(ones);
}

double rms(const std::vector<double>& residuals) {
    if (residuals.empty()) return 0;
    double sum = 0;
    for (double r : residuals) sum += r * r;
    return std::sqrt(sum / double(residuals.size()));
}

} // namespace

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

TransferFit fitTransfer(const std::vector<TransferSample>& samples) {
    TransferFit fit;
    std::vector<TransferSample> used;
    for (const TransferSample& s : samples)
        if (s.cycles > 0 && s.bytes >= 0) used.push_back(s);
    fit.samples = used.size();
    if (used.size() < 2) return fit;
    const auto n = static_cast<Eigen::Index>(used.size());
    Eigen::MatrixXd a(n, 2);
    for (Eigen::Index i = 0; i < n; ++i) {
        a(i, 0) = 1 / used[std::size_t(i)].cycles;
        a(i, 1) = used[std::size_t(i)].bytes / used[std::size_t(i)].cycles;
    }
    Eigen::VectorXd x = solveRelative(a);
    double latency = x(0);
    double inverseRate = x(1);
    if (latency < 0) { // bandwidth alone explains it: refit through the origin
        latency = 0;
        inverseRate = solveRelative(a.col(1))(0);
    }
    if (!(inverseRate > 0)) return fit; // sizes do not change the time: no bandwidth to report
    fit.latencyCycles = latency;
    fit.bytesPerCycle = 1 / inverseRate;
    std::vector<double> residuals;
    for (const TransferSample& s : used) residuals.push_back((latency + s.bytes * inverseRate - s.cycles) / s.cycles);
    fit.rmsRelativeError = rms(residuals);
    return fit;
}

SharedBandwidthFit fitSharedBandwidth(const std::vector<ContendedSample>& samples, double latencyCycles,
                                      double pathBytesPerCycle) {
    SharedBandwidthFit fit;
    std::vector<ContendedSample> used;
    int maxConcurrency = 1;
    for (const ContendedSample& s : samples)
        if (s.concurrency > 1 && s.cycles > 0) {
            used.push_back(s);
            maxConcurrency = std::max(maxConcurrency, s.concurrency);
        }
    fit.samples = used.size();
    if (used.empty() || !(pathBytesPerCycle > 0)) return fit;
    auto residuals = [&](double shared) {
        std::vector<double> out;
        for (const ContendedSample& s : used) {
            const double rate = std::min(pathBytesPerCycle, shared / s.concurrency);
            out.push_back((latencyCycles + s.bytes / rate - s.cycles) / s.cycles);
        }
        return out;
    };
    // One parameter on a bounded range: a fine grid finds the global minimum where a local search
    // could stop on the flat part above k x path bandwidth.
    const double low = pathBytesPerCycle;
    const double high = pathBytesPerCycle * (maxConcurrency + 1);
    constexpr int kSteps = 2000;
    double best = high;
    double bestError = rms(residuals(high));
    for (int i = 0; i <= kSteps; ++i) {
        const double shared = low * std::pow(high / low, double(i) / kSteps);
        const double error = rms(residuals(shared));
        if (error < bestError - 1e-12) {
            best = shared;
            bestError = error;
        }
    }
    fit.bytesPerCycle = best;
    fit.rmsRelativeError = bestError;
    return fit;
}

ComputeFit fitCompute(const std::vector<ComputeSample>& samples) {
    ComputeFit fit;
    std::array<std::vector<ComputeSample>, kOpClasses> byClass;
    for (const ComputeSample& s : samples)
        if (s.cycles > 0 && s.work > 0 && s.opClass < kOpClasses) byClass[s.opClass].push_back(s);
    // The overhead: the median of each class's own intercept (a line through its samples), so a
    // class whose kernel is far from linear in its work cannot drag every other class with it.
    std::vector<double> intercepts;
    for (const auto& group : byClass) {
        fit.samples[static_cast<std::size_t>(&group - byClass.data())] = group.size();
        if (group.size() < 2) continue;
        const auto n = static_cast<Eigen::Index>(group.size());
        Eigen::MatrixXd a(n, 2);
        for (Eigen::Index i = 0; i < n; ++i) {
            a(i, 0) = 1 / group[std::size_t(i)].cycles;
            a(i, 1) = group[std::size_t(i)].work / group[std::size_t(i)].cycles;
        }
        intercepts.push_back(std::max(0.0, solveRelative(a)(0)));
    }
    fit.overheadCycles = median(intercepts);
    // Each class's inverse throughput with the overhead fixed: min sum ((o + w x - y) / y)^2 over x.
    constexpr double kMaxThroughput = 1e9; // a class whose time does not grow with its work
    std::vector<double> all;
    for (std::size_t c = 0; c < kOpClasses; ++c) {
        if (byClass[c].empty()) continue;
        double num = 0, den = 0;
        for (const ComputeSample& s : byClass[c]) {
            const double u = s.work / s.cycles;
            num += u * (1 - fit.overheadCycles / s.cycles);
            den += u * u;
        }
        const double inverse = den > 0 ? num / den : 0;
        fit.throughputPerCycle[c] = inverse > 1 / kMaxThroughput ? 1 / inverse : kMaxThroughput;
        std::vector<double> residuals;
        for (const ComputeSample& s : byClass[c]) {
            const double predicted = fit.overheadCycles + s.work / fit.throughputPerCycle[c];
            residuals.push_back((predicted - s.cycles) / s.cycles);
        }
        fit.rmsRelativeError[c] = rms(residuals);
        all.insert(all.end(), residuals.begin(), residuals.end());
    }
    fit.rmsRelativeErrorAll = rms(all);
    return fit;
}

} // namespace strata::calibrate

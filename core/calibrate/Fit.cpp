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
    std::vector<ComputeSample> used;
    for (const ComputeSample& s : samples)
        if (s.cycles > 0 && s.work > 0 && s.opClass < kOpClasses) {
            used.push_back(s);
            ++fit.samples[s.opClass];
        }
    // Columns: the shared overhead, then one inverse throughput per class that has samples.
    std::array<int, kOpClasses> column{};
    int columns = 1;
    for (std::size_t c = 0; c < kOpClasses; ++c) column[c] = fit.samples[c] ? columns++ : -1;
    if (used.size() < std::size_t(columns)) return fit;
    const auto n = static_cast<Eigen::Index>(used.size());
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, columns);
    for (Eigen::Index i = 0; i < n; ++i) {
        const ComputeSample& s = used[std::size_t(i)];
        a(i, 0) = 1 / s.cycles;
        a(i, column[s.opClass]) = s.work / s.cycles;
    }
    Eigen::VectorXd x = solveRelative(a);
    if (x(0) < 0) { // no overhead: refit the throughputs alone
        Eigen::VectorXd rest = solveRelative(a.rightCols(columns - 1));
        x(0) = 0;
        x.tail(columns - 1) = rest;
    }
    fit.overheadCycles = x(0);
    // A class whose time does not grow with its work gets the largest throughput a target allows.
    constexpr double kMaxThroughput = 1e9;
    for (std::size_t c = 0; c < kOpClasses; ++c)
        if (column[c] > 0) fit.throughputPerCycle[c] = x(column[c]) > 1 / kMaxThroughput ? 1 / x(column[c]) : kMaxThroughput;
    std::array<std::vector<double>, kOpClasses> perClass;
    std::vector<double> all;
    for (const ComputeSample& s : used) {
        const double predicted = fit.overheadCycles + s.work / fit.throughputPerCycle[s.opClass];
        const double r = (predicted - s.cycles) / s.cycles;
        perClass[s.opClass].push_back(r);
        all.push_back(r);
    }
    for (std::size_t c = 0; c < kOpClasses; ++c) fit.rmsRelativeError[c] = rms(perClass[c]);
    fit.rmsRelativeErrorAll = rms(all);
    return fit;
}

} // namespace strata::calibrate

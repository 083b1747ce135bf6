#include "calibrate/Fit.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace strata::calibrate {
namespace {

// Iterations of reweighted least squares, Huber's tuning constant (95% efficiency on normal
// noise) and the factor from a median absolute deviation to a standard deviation.
constexpr int kRobustIterations = 6;
constexpr double kHuber = 1.345;
constexpr double kMadToSigma = 1.4826;

// Solves min |A x - 1|^2 where each row of A is a sample's regressors divided by its measured
// value: the relative-residual least squares of every fit here.
Eigen::VectorXd solveRelative(const Eigen::MatrixXd& a) {
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(a.rows());
    return a.colPivHouseholderQr().solve(ones);
}

// The same with part of each time already explained: min |A x - rhs|^2.
Eigen::VectorXd solveRelative(const Eigen::MatrixXd& a, const Eigen::VectorXd& rhs) {
    return a.colPivHouseholderQr().solve(rhs);
}

// target::rampExtraCycles, here where the fits have no target: the cycles the first
// min(bytes, rampBytes) spend at the ramp's rate beyond the bandwidth's.
double rampExtra(double bytes, double rampBytes, double rampBytesPerCycle, double bytesPerCycle) {
    if (!(rampBytes > 0 && rampBytesPerCycle > 0 && bytesPerCycle > 0))
        return 0;
    const double ramped = std::min(bytes, rampBytes);
    return std::max(0.0, ramped / rampBytesPerCycle - ramped / bytesPerCycle);
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

// One sample per (bytes, rows): the median time of the samples of that shape. Relative least
// squares over scattered repeats of one shape would predict near the fastest of them (it
// minimises sum (p / y - 1)^2), while a timeline's transfers are typical ones.
static std::vector<TransferSample> medianPerShape(const std::vector<TransferSample>& samples) {
    std::map<std::pair<double, double>, std::vector<double>> byShape;
    for (const TransferSample& s : samples) byShape[{s.bytes, s.rows}].push_back(s.cycles);
    std::vector<TransferSample> out;
    for (auto& [shape, cycles] : byShape) out.push_back({shape.first, median(std::move(cycles)), shape.second});
    return out;
}

namespace {

// The transfer fit with the ramp's bytes fixed at `rampBytes` (0: no ramp): relative least
// squares over `used` (one sample per shape) of latency, row overhead, inverse bandwidth and the
// ramp's extra cycles per byte (the regressor min(bytes, rampBytes)), none negative; the RMS
// residual over `valid`. `meanAbsolute` gets the robustly weighted fit's mean absolute relative
// residual over the shapes, by which rampBytes are compared.
// With `spillBytes` > 0, a fifth regressor max(0, bytes - spillBytes): the extra cycles per byte
// past the spill's start (non-negative too).
TransferFit fitTransferAt(const std::vector<TransferSample>& used,
                          const std::vector<TransferSample>& valid, double fixedRowOverheadCycles,
                          double rampBytes, double* meanAbsolute = nullptr, double spillBytes = 0) {
    TransferFit fit;
    fit.samples = valid.size();
    const bool rowsFixed = fixedRowOverheadCycles >= 0;
    const bool withRamp = rampBytes > 0;
    const bool withSpill = spillBytes > 0;
    bool rowsVary = false;
    for (const TransferSample& s : used) rowsVary = rowsVary || s.rows != 1;
    if (used.size() < 2) return fit;
    const auto n = static_cast<Eigen::Index>(used.size());
    // Columns: latency, row overhead, inverse bandwidth, ramp, each regressor over the measured
    // time. A fixed row overhead moves to the right-hand side: it explains part of each time.
    Eigen::MatrixXd a(n, 5);
    Eigen::VectorXd rhs(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const TransferSample& s = used[std::size_t(i)];
        a(i, 0) = 1 / s.cycles;
        a(i, 1) = s.rows / s.cycles;
        a(i, 2) = s.bytes / s.cycles;
        a(i, 3) = std::min(s.bytes, rampBytes) / s.cycles;
        a(i, 4) = (withSpill ? std::max(0.0, s.bytes - spillBytes) : 0.0) / s.cycles;
        rhs(i) = 1 - (rowsFixed ? fixedRowOverheadCycles * s.rows / s.cycles : 0);
    }
    // Non-negative least squares by enumeration: every subset of {latency, row overhead, ramp}
    // with the bandwidth, keeping the feasible solution of least (weighted) residual; reweighted
    // a few times so that outlying shapes count less (Huber).
    std::vector<double> weights(used.size(), 1.0);
    Eigen::VectorXd best = Eigen::VectorXd::Zero(5);
    std::vector<Eigen::Index> bestColumns;
    for (int iteration = 0; iteration < kRobustIterations; ++iteration) {
        Eigen::VectorXd root(n);
        for (Eigen::Index i = 0; i < n; ++i)
            root(i) = std::sqrt(weights[std::size_t(i)]);
        double bestResidual = std::numeric_limits<double>::infinity();
        Eigen::VectorXd found = Eigen::VectorXd::Zero(5);
        std::vector<Eigen::Index> foundColumns;
        for (int subset = 0; subset < 16; ++subset) {
            const bool withLatency = subset & 1, withRows = subset & 2, ramped = subset & 4,
                       spilled = subset & 8;
            if ((withRows && (!rowsVary || rowsFixed)) || (ramped && !withRamp) ||
                (spilled && !withSpill))
                continue;
            std::vector<Eigen::Index> columns;
            if (withLatency)
                columns.push_back(0);
            if (withRows)
                columns.push_back(1);
            columns.push_back(2);
            if (ramped)
                columns.push_back(3);
            if (spilled)
                columns.push_back(4);
            Eigen::MatrixXd sub(n, static_cast<Eigen::Index>(columns.size()));
            for (std::size_t j = 0; j < columns.size(); ++j)
                sub.col(static_cast<Eigen::Index>(j)) = a.col(columns[j]);
            const Eigen::VectorXd x =
                solveRelative(root.asDiagonal() * sub, root.cwiseProduct(rhs));
            const std::size_t bandwidthAt = withLatency + withRows;
            if ((x.array() < 0).any() || !(x(Eigen::Index(bandwidthAt)) > 0))
                continue;
            const double residual = root.cwiseProduct(sub * x - rhs).squaredNorm();
            if (residual < bestResidual) {
                bestResidual = residual;
                found.setZero();
                for (std::size_t j = 0; j < columns.size(); ++j)
                    found(columns[j]) = x(static_cast<Eigen::Index>(j));
                foundColumns = columns;
            }
        }
        if (foundColumns.empty())
            break;
        best = found;
        bestColumns = foundColumns;
        const Eigen::VectorXd residuals = a * best - rhs;
        std::vector<double> magnitudes;
        for (Eigen::Index i = 0; i < n; ++i)
            magnitudes.push_back(std::abs(residuals(i)));
        const double scale = kMadToSigma * median(magnitudes);
        if (!(scale > 1e-9))
            break; // (nearly) exact: nothing to reweight
        for (Eigen::Index i = 0; i < n; ++i) {
            const double limit = kHuber * scale;
            weights[std::size_t(i)] =
                magnitudes[std::size_t(i)] <= limit ? 1.0 : limit / magnitudes[std::size_t(i)];
        }
    }
    if (!(best(2) > 0)) return fit; // sizes do not change the time: no bandwidth to report
    if (meanAbsolute)
        *meanAbsolute = (a * best - rhs).cwiseAbs().mean();
    // Standard errors of the chosen figures: sigma^2 (A' W A)^-1 of the weighted least squares.
    const auto p = static_cast<Eigen::Index>(bestColumns.size());
    if (n > p) {
        Eigen::MatrixXd sub(n, p);
        for (Eigen::Index j = 0; j < p; ++j)
            sub.col(j) = a.col(bestColumns[std::size_t(j)]);
        Eigen::VectorXd w(n);
        for (Eigen::Index i = 0; i < n; ++i)
            w(i) = weights[std::size_t(i)];
        const Eigen::VectorXd r = sub * [&] {
            Eigen::VectorXd x(p);
            for (Eigen::Index j = 0; j < p; ++j)
                x(j) = best(bestColumns[std::size_t(j)]);
            return x;
        }() - rhs;
        const double sigma2 = r.cwiseProduct(r).cwiseProduct(w).sum() / double(n - p);
        const Eigen::MatrixXd normal = sub.transpose() * w.asDiagonal() * sub;
        const Eigen::FullPivLU<Eigen::MatrixXd> lu(normal);
        if (lu.isInvertible()) {
            const Eigen::MatrixXd covariance = sigma2 * lu.inverse();
            for (Eigen::Index j = 0; j < p; ++j) {
                const Eigen::Index column = bestColumns[std::size_t(j)];
                const double relative =
                    best(column) > 0 ? std::sqrt(std::max(0.0, covariance(j, j))) / best(column)
                                     : 0;
                (column == 0   ? fit.latencyRelativeError
                 : column == 1 ? fit.rowOverheadRelativeError
                 : column == 2 ? fit.bandwidthRelativeError
                 : column == 3 ? fit.rampRelativeError
                               : fit.spillRelativeError) = relative;
            }
        }
    }
    for (double w : weights)
        fit.downweighted += w < 0.5 ? 1 : 0;
    if (rowsFixed) best(1) = fixedRowOverheadCycles;
    fit.latencyCycles = best(0);
    fit.rowOverheadCycles = best(1);
    fit.bytesPerCycle = 1 / best(2);
    if (best(4) > 0) {
        fit.spillBytes = spillBytes;
        fit.spillBytesPerCycle = 1 / (best(2) + best(4));
    }
    if (best(3) > 0) {
        fit.rampBytes = rampBytes;
        fit.rampBytesPerCycle = 1 / (best(2) + best(3));
    }
    std::vector<double> residuals;
    const auto predicted = [&](const TransferSample& s) {
        return best(0) + s.rows * best(1) + s.bytes * best(2) +
               std::min(s.bytes, rampBytes) * best(3) +
               (withSpill ? std::max(0.0, s.bytes - spillBytes) : 0.0) * best(4);
    };
    for (const TransferSample& s : valid)
        residuals.push_back((predicted(s) - s.cycles) / s.cycles);
    fit.rmsRelativeError = rms(residuals);
    residuals.clear();
    for (const TransferSample& s : used)
        residuals.push_back((predicted(s) - s.cycles) / s.cycles);
    fit.shapeRmsRelativeError = rms(residuals);
    return fit;
}

std::vector<TransferSample> validSamples(const std::vector<TransferSample>& samples) {
    std::vector<TransferSample> valid;
    for (const TransferSample& s : samples)
        if (s.cycles > 0 && s.bytes >= 0 && s.rows >= 0)
            valid.push_back(s);
    return valid;
}

} // namespace

TransferFit fitTransfer(const std::vector<TransferSample>& samples, double fixedRowOverheadCycles) {
    const std::vector<TransferSample> valid = validSamples(samples);
    return fitTransferAt(medianPerShape(valid), valid, fixedRowOverheadCycles, 0);
}

std::vector<double> rampGrid() {
    std::vector<double> grid;
    for (double bytes = kMinRampBytes; bytes <= kMaxRampBytes * (1 + 1e-9); bytes *= std::sqrt(2.0))
        grid.push_back(std::round(bytes));
    return grid;
}

TransferFit fitTransferWithRamp(const std::vector<TransferSample>& samples,
                                double fixedRowOverheadCycles) {
    const std::vector<TransferSample> valid = validSamples(samples);
    const std::vector<TransferSample> used = medianPerShape(valid);
    double bestScore = std::numeric_limits<double>::infinity();
    TransferFit best = fitTransferAt(used, valid, fixedRowOverheadCycles, 0, &bestScore);
    const double plain = bestScore;
    const double plainBandwidthError = best.bandwidthRelativeError;
    for (double rampBytes : rampGrid()) {
        // A ramp needs shapes on both sides of its end to be told from a latency or a bandwidth.
        std::size_t below = 0, above = 0;
        for (const TransferSample& s : used)
            (s.bytes < rampBytes ? below : above) += s.bytes != rampBytes ? 1 : 0;
        if (below < kMinShapesPerSegment || above < kMinShapesPerSegment)
            continue;
        double score = std::numeric_limits<double>::infinity();
        const TransferFit fit =
            fitTransferAt(used, valid, fixedRowOverheadCycles, rampBytes, &score);
        // A ramp the shapes do not pin down, or one that leaves the bandwidth less sure than the
        // fit without it (and unsure), is noise fitted: not kept.
        const bool pinned =
            fit.rampRelativeError <= kMaxFigureRelativeError &&
            fit.bandwidthRelativeError <= std::max(kMaxFigureRelativeError, plainBandwidthError);
        if (fit.rampBytes > 0 && fit.bytesPerCycle > 0 && pinned && score < bestScore &&
            score < (1 - kMinRampGain) * plain) {
            bestScore = score;
            best = fit;
        }
    }
    // Then the spill past the chosen ramp: the same test against the fit without one.
    const double unspilled = bestScore;
    const double unspilledBandwidthError = best.bandwidthRelativeError;
    const TransferFit ramped = best;
    for (double spillBytes : spillGrid()) {
        std::size_t below = 0, above = 0;
        for (const TransferSample& s : used)
            (s.bytes <= spillBytes ? below : above) += 1;
        if (spillBytes <= ramped.rampBytes || below < kMinShapesPerSegment ||
            above < kMinShapesPerSegment)
            continue;
        double score = std::numeric_limits<double>::infinity();
        const TransferFit fit = fitTransferAt(used, valid, fixedRowOverheadCycles, ramped.rampBytes,
                                              &score, spillBytes);
        const bool pinned = fit.spillRelativeError <= kMaxSpillRelativeError &&
                            fit.bandwidthRelativeError <=
                                std::max(kMaxFigureRelativeError, unspilledBandwidthError) &&
                            fit.rampBytes == ramped.rampBytes;
        if (fit.spillBytes > 0 && fit.bytesPerCycle > 0 && pinned && score < bestScore &&
            score < (1 - kMinRampGain) * unspilled) {
            bestScore = score;
            best = fit;
        }
    }
    return best;
}

std::vector<double> spillGrid() {
    std::vector<double> grid;
    for (double bytes = kMinSpillBytes; bytes <= kMaxSpillBytes * (1 + 1e-9); bytes *= 2)
        grid.push_back(bytes);
    return grid;
}

namespace {

std::string uncertainBy(const std::string& figure, double error) {
    return figure + " uncertain by +-" + std::to_string(int(std::lround(100 * error))) + "%";
}

} // namespace

bool trustworthy(const TransferFit& fit, std::string* why) {
    std::string problem;
    if (!(fit.bytesPerCycle > 0))
        problem = "no bandwidth fitted";
    else if (fit.shapeRmsRelativeError > kMaxTransferRms)
        problem = "RMS relative residual over shapes " +
                  std::to_string(int(std::lround(100 * fit.shapeRmsRelativeError))) + "%";
    else if (fit.bandwidthRelativeError > kMaxFigureRelativeError)
        problem = uncertainBy("bandwidth", fit.bandwidthRelativeError);
    if (why)
        *why = problem;
    return problem.empty();
}

std::string uncertainFigures(const TransferFit& fit) {
    std::string out;
    for (const auto& [name, error] : {std::pair{"latency", fit.latencyRelativeError},
                                      std::pair{"row overhead", fit.rowOverheadRelativeError}})
        if (error > kMaxFigureRelativeError)
            out += (out.empty() ? "" : ", ") + uncertainBy(name, error);
    return out;
}

SharedBandwidthFit fitSharedBandwidth(const std::vector<ContendedSample>& samples,
                                      double latencyCycles, double pathBytesPerCycle,
                                      double rowOverheadCycles, double rampBytes,
                                      double rampBytesPerCycle) {
    return fitSharedBandwidth(samples, {}, latencyCycles, pathBytesPerCycle, rowOverheadCycles,
                              rampBytes, rampBytesPerCycle);
}

SharedBandwidthFit fitSharedBandwidth(const std::vector<ContendedSample>& samples,
                                      const std::vector<TransferSample>& alone,
                                      double latencyCycles, double pathBytesPerCycle,
                                      double rowOverheadCycles, double rampBytes,
                                      double rampBytesPerCycle) {
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
    // Each used sample's time alone (the median of its shape's), 0 when that shape was not
    // measured alone.
    const std::vector<TransferSample> aloneShapes = medianPerShape(alone);
    std::vector<double> aloneCycles(used.size(), 0);
    for (std::size_t i = 0; i < used.size(); ++i)
        for (const TransferSample& a : aloneShapes)
            if (a.bytes == used[i].bytes && a.rows == used[i].rows && a.cycles > 0)
                aloneCycles[i] = a.cycles;
    auto residuals = [&](double shared) {
        std::vector<double> out;
        for (std::size_t i = 0; i < used.size(); ++i) {
            const ContendedSample& s = used[i];
            const double rate = std::min(pathBytesPerCycle, shared / s.concurrency);
            const double fixed =
                latencyCycles + s.rows * rowOverheadCycles +
                rampExtra(s.bytes, rampBytes, rampBytesPerCycle, pathBytesPerCycle);
            const double contended = fixed + s.bytes / rate;
            const double alone = fixed + s.bytes / pathBytesPerCycle;
            const double slowdown = contended / alone;
            const double predicted = aloneCycles[i] > 0 ? aloneCycles[i] * slowdown : contended;
            out.push_back((predicted - s.cycles) / s.cycles);
        }
        return out;
    };
    // The mean absolute relative residual, not the RMS: a contended program caught in a slow
    // spell of the machine (whose other work contends too) would otherwise pull R down alone.
    auto meanAbsolute = [](const std::vector<double>& r) {
        double sum = 0;
        for (double v : r)
            sum += std::abs(v);
        return sum / double(r.size());
    };
    // One parameter on a bounded range: a fine grid finds the global minimum where a local search
    // could stop on the flat part above k x path bandwidth.
    const double low = pathBytesPerCycle;
    const double high = pathBytesPerCycle * (maxConcurrency + 1);
    constexpr int kSteps = 2000;
    double best = high;
    double bestError = meanAbsolute(residuals(high));
    for (int i = 0; i <= kSteps; ++i) {
        const double shared = low * std::pow(high / low, double(i) / kSteps);
        const double error = meanAbsolute(residuals(shared));
        if (error < bestError - 1e-12) {
            best = shared;
            bestError = error;
        }
    }
    fit.bytesPerCycle = best;
    fit.rmsRelativeError = rms(residuals(best));
    fit.atCeiling = best >= high;
    return fit;
}

PathContentionFit fitPathContention(const std::vector<SlowdownSample>& samples,
                                    double latencyCycles, double rowOverheadCycles,
                                    double pathBytesPerCycle, double rampBytes,
                                    double rampBytesPerCycle) {
    PathContentionFit fit;
    std::vector<double> small, large;
    std::vector<const SlowdownSample*> used;
    for (const SlowdownSample& s : samples) {
        if (!(s.aloneCycles > 0 && s.contendedCycles > 0) || s.concurrency < 2)
            continue;
        if (s.bytes <= kContentionSmallBytes)
            small.push_back(s.contendedCycles / s.aloneCycles);
        if (s.bytes >= kContentionLargeBytes) {
            large.push_back(s.contendedCycles / s.aloneCycles);
            used.push_back(&s);
        }
    }
    if (small.empty() || large.empty() || !(pathBytesPerCycle > 0))
        return fit;
    fit.smallSlowdown = median(small);
    fit.largeSlowdown = median(large);
    if (fit.largeSlowdown <= 1 || fit.largeSlowdown < kContentionGrowth * fit.smallSlowdown)
        return fit;
    std::vector<double> shared;
    int concurrency = 2;
    for (const SlowdownSample* s : used) {
        concurrency = std::max(concurrency, s->concurrency);
        const double fixed = latencyCycles + s->rows * rowOverheadCycles +
                             rampExtra(s->bytes, rampBytes, rampBytesPerCycle, pathBytesPerCycle);
        const double contended =
            s->contendedCycles / s->aloneCycles * (fixed + s->bytes / pathBytesPerCycle);
        if (contended > fixed)
            shared.push_back(s->concurrency * s->bytes / (contended - fixed));
    }
    if (shared.empty())
        return fit;
    const double bytesPerCycle = median(shared);
    if (bytesPerCycle / concurrency >= pathBytesPerCycle) // no flow would be held below its rate
        return fit;
    fit.bytesPerCycle = bytesPerCycle;
    fit.samples = shared.size();
    return fit;
}

namespace {

// Each class's inverse throughput with the overhead fixed: min sum ((o + w x - y) / y)^2 over x.
double inverseThroughput(const std::vector<ComputeSample>& group, double overhead) {
    double num = 0, den = 0;
    for (const ComputeSample& s : group) {
        const double u = s.work / s.cycles;
        num += u * (1 - overhead / s.cycles);
        den += u * u;
    }
    return den > 0 ? num / den : 0;
}

// Whether some class of the group has samples whose units per work differ: only then can a unit
// cost be told apart from the throughput.
bool unitsVary(const UnitGroup& g, const std::array<std::vector<ComputeSample>, kComputeClasses>& byClass) {
    for (std::size_t k = 0; k < g.count; ++k) {
        const auto& samples = byClass[g.classes[k]];
        for (const ComputeSample& s : samples) {
            const double ratio = s.units / s.work, first = samples.front().units / samples.front().work;
            if (std::abs(ratio - first) > 1e-9 * std::max(ratio, first)) return true;
        }
    }
    return false;
}

// The inverse throughputs of `classes` and their shared unit cost (last) jointly, with the
// overhead fixed; nullopt when a figure comes out negative or zero.
std::optional<Eigen::VectorXd> jointUnitFit(const std::vector<std::size_t>& classes,
                                            const std::array<std::vector<ComputeSample>, kComputeClasses>& byClass, double overhead) {
    std::vector<std::pair<std::size_t, const ComputeSample*>> rows;
    for (std::size_t k = 0; k < classes.size(); ++k)
        for (const ComputeSample& s : byClass[classes[k]]) rows.emplace_back(k, &s);
    const auto n = static_cast<Eigen::Index>(rows.size());
    const auto unknowns = static_cast<Eigen::Index>(classes.size() + 1);
    if (n < unknowns + 1) return std::nullopt;
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, unknowns);
    Eigen::VectorXd rhs(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto& [k, s] = rows[std::size_t(i)];
        a(i, static_cast<Eigen::Index>(k)) = s->work / s->cycles;
        a(i, unknowns - 1) = s->units / s->cycles;
        rhs(i) = 1 - overhead / s->cycles;
    }
    const Eigen::VectorXd x = solveRelative(a, rhs);
    if (!(x.array() > 0).all()) return std::nullopt;
    return x;
}

} // namespace

namespace {

// Whether the samples reading weights differ in weight bytes per unit of work: only then can a
// cost per weight byte be told apart from the throughputs.
bool weightsVary(const std::vector<ComputeSample>& samples) {
    double low = std::numeric_limits<double>::infinity(), high = 0;
    for (const ComputeSample& s : samples)
        if (s.weightBytes > 0 && s.work > 0) {
            low = std::min(low, s.weightBytes / s.work);
            high = std::max(high, s.weightBytes / s.work);
        }
    return high > 2 * low;
}

ComputeFit fitComputeWithoutWeights(const std::vector<ComputeSample>& samples) {
    ComputeFit fit;
    // As for transfers, one sample per (class, work, units): the median time of its tiles and
    // repeats, not a line leaning to the fastest of them.
    std::map<std::tuple<std::size_t, double, double, double>, std::vector<double>> byShape;
    for (const ComputeSample& s : samples)
        if (s.cycles > 0 && s.work > 0 && s.units >= 0 && s.opClass < kComputeClasses) {
            byShape[{s.opClass, s.work, s.units, s.weightBytes}].push_back(s.cycles);
            ++fit.samples[s.opClass];
        }
    std::array<std::vector<ComputeSample>, kComputeClasses> byClass;
    double shortest = std::numeric_limits<double>::infinity();
    for (auto& [shape, cycles] : byShape) {
        const double typical = median(std::move(cycles));
        const auto& [opClass, work, units, weightBytes] = shape;
        byClass[opClass].push_back({opClass, work, typical, units, weightBytes});
        shortest = std::min(shortest, typical);
    }
    // The overhead: the median of each class's own intercept (a line through its samples), so a
    // class whose kernel is far from linear in its work cannot drag every other class with it. A
    // class reading weights in varying proportion to its work gets its weight bytes as a third
    // term of its line: thin samples, small work and many weight bytes, would otherwise lift its
    // intercept.
    std::vector<double> intercepts;
    for (const auto& group : byClass) {
        if (group.size() < 2) continue;
        const bool weights = group.size() > 3 && weightsVary(group);
        const auto n = static_cast<Eigen::Index>(group.size());
        Eigen::MatrixXd a(n, weights ? 3 : 2);
        for (Eigen::Index i = 0; i < n; ++i) {
            const ComputeSample& s = group[std::size_t(i)];
            a(i, 0) = 1 / s.cycles;
            a(i, 1) = s.work / s.cycles;
            if (weights)
                a(i, 2) = s.weightBytes / s.cycles;
        }
        intercepts.push_back(std::max(0.0, solveRelative(a)(0)));
    }
    fit.overheadCycles = intercepts.empty() ? 0 : std::min(median(intercepts), shortest);
    // Inverse throughputs: per class, then the unit groups jointly where their units tell.
    std::array<double, kComputeClasses> inverse{};
    for (std::size_t c = 0; c < kComputeClasses; ++c)
        if (!byClass[c].empty()) inverse[c] = inverseThroughput(byClass[c], fit.overheadCycles);
    for (const UnitGroup& g : kUnitGroups) {
        std::vector<std::size_t> present;
        for (std::size_t k = 0; k < g.count; ++k)
            if (!byClass[g.classes[k]].empty()) present.push_back(g.classes[k]);
        if (present.empty() || !unitsVary(g, byClass)) continue;
        const auto x = jointUnitFit(present, byClass, fit.overheadCycles);
        if (!x) continue;
        for (std::size_t k = 0; k < present.size(); ++k) {
            inverse[present[k]] = (*x)(static_cast<Eigen::Index>(k));
            fit.unitCycles[present[k]] = (*x)(x->size() - 1);
        }
    }
    std::vector<double> all;
    for (std::size_t c = 0; c < kComputeClasses; ++c) {
        if (byClass[c].empty()) continue;
        fit.throughputPerCycle[c] = inverse[c] > 1 / kMaxThroughput ? 1 / inverse[c] : kMaxThroughput;
        std::vector<double> residuals;
        for (const ComputeSample& s : byClass[c]) {
            const double predicted = fit.overheadCycles + s.work / fit.throughputPerCycle[c] + s.units * fit.unitCycles[c];
            residuals.push_back((predicted - s.cycles) / s.cycles);
        }
        fit.rmsRelativeError[c] = rms(residuals);
        all.insert(all.end(), residuals.begin(), residuals.end());
    }
    fit.rmsRelativeErrorAll = rms(all);
    return fit;
}

} // namespace

namespace {
ComputeFit fitWeightReadingCompute(const std::vector<ComputeSample>& samples);
} // namespace

ComputeFit fitCompute(const std::vector<ComputeSample>& samples) {
    return fitWeightReadingCompute(samples);
}

namespace {

// The classes reading weights: their throughputs, the shared cost per weight byte and each
// class's cost per far weight byte jointly. Fitted together, not the far samples apart: the
// largest dense convolutions of the staircase hold weights past the L2 too, and fitted without
// them the rate came out 8% slow (42.5 against 46 MACs per cycle), every convolution too slow.
ComputeFit fitWeightReadingCompute(const std::vector<ComputeSample>& samples) {
    // The overhead and unit costs from the samples without far bytes (a class line through
    // samples whose far bytes it does not know would drift its intercept).
    std::vector<ComputeSample> near;
    for (const ComputeSample& s : samples)
        if (!(s.farWeightBytes > 0))
            near.push_back(s);
    const ComputeFit plain = fitComputeWithoutWeights(near);
    if (!weightsVary(samples))
        return plain;
    // The classes reading weights, one row per shape (its median time, as above).
    std::map<std::tuple<std::size_t, double, double, double, double>, std::vector<double>> byShape;
    std::vector<std::size_t> classes, farClasses;
    auto add = [](std::vector<std::size_t>& list, std::size_t c) {
        if (std::find(list.begin(), list.end(), c) == list.end())
            list.push_back(c);
    };
    for (const ComputeSample& s : samples)
        if (s.weightBytes > 0 && s.cycles > 0 && s.work > 0 && s.opClass < kComputeClasses) {
            byShape[{s.opClass, s.work, s.units, s.weightBytes, s.farWeightBytes}].push_back(
                s.cycles);
            add(classes, s.opClass);
            if (s.farWeightBytes > 0)
                add(farClasses, s.opClass);
        }
    // Their inverse throughputs, the shared cost per byte and the far costs jointly, the overhead
    // and unit costs fixed: min sum ((o + units u + work x_c + bytes b + far f_c - y) / y)^2.
    const auto n = static_cast<Eigen::Index>(byShape.size());
    const auto perByteColumn = static_cast<Eigen::Index>(classes.size());
    const auto unknowns = static_cast<Eigen::Index>(classes.size() + 1 + farClasses.size());
    if (n < unknowns + 1)
        return plain;
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, unknowns);
    Eigen::VectorXd rhs(n);
    Eigen::Index i = 0;
    for (auto& [shape, cycles] : byShape) {
        const auto& [opClass, work, units, weightBytes, far] = shape;
        const double y = median(std::move(cycles));
        const auto k = std::find(classes.begin(), classes.end(), opClass) - classes.begin();
        a(i, static_cast<Eigen::Index>(k)) = work / y;
        a(i, perByteColumn) = weightBytes / y;
        if (far > 0)
            a(i, perByteColumn + 1 +
                     (std::find(farClasses.begin(), farClasses.end(), opClass) -
                      farClasses.begin())) = far / y;
        rhs(i) = 1 - (plain.overheadCycles + units * plain.unitCycles[opClass]) / y;
        ++i;
    }
    const Eigen::VectorXd x = solveRelative(a, rhs);
    const double perByte = x(perByteColumn);
    if (!(perByte > 0) || !(x.head(perByteColumn).array() > 0).all())
        return plain;
    // The joint solution's throughputs (a refit on the times less the weight part would divide
    // by the small, noisy remainders of the thinnest shapes), and their residuals.
    ComputeFit fit = plain;
    fit.weightByteCycles = perByte;
    for (std::size_t k = 0; k < classes.size(); ++k)
        fit.throughputPerCycle[classes[k]] = 1 / x(static_cast<Eigen::Index>(k));
    for (std::size_t k = 0; k < farClasses.size(); ++k) // none below 0: far bytes cost no less
        fit.farWeightByteCycles[farClasses[k]] =
            std::max(0.0, x(perByteColumn + 1 + static_cast<Eigen::Index>(k)));
    std::array<std::vector<double>, kComputeClasses> residuals;
    std::map<std::tuple<std::size_t, double, double, double, double>, std::vector<double>> all;
    for (const ComputeSample& s : samples)
        if (s.cycles > 0 && s.work > 0 && s.opClass < kComputeClasses)
            all[{s.opClass, s.work, s.units, s.weightBytes, s.farWeightBytes}].push_back(s.cycles);
    std::vector<double> every;
    for (auto& [shape, cycles] : all) {
        const auto& [opClass, work, units, weightBytes, far] = shape;
        const double y = median(std::move(cycles));
        const double predicted = fit.overheadCycles + work / fit.throughputPerCycle[opClass] +
                                 units * fit.unitCycles[opClass] + weightBytes * perByte +
                                 far * fit.farWeightByteCycles[opClass];
        residuals[opClass].push_back((predicted - y) / y);
        every.push_back((predicted - y) / y);
    }
    for (std::size_t c = 0; c < kComputeClasses; ++c)
        if (!residuals[c].empty())
            fit.rmsRelativeError[c] = rms(residuals[c]);
    fit.rmsRelativeErrorAll = rms(every);
    return fit;
}

} // namespace

double predictedCycles(const ComputeFit& fit, const ComputeSample& s) {
    if (s.opClass >= kComputeClasses || !(fit.throughputPerCycle[s.opClass] > 0))
        return 0;
    return fit.overheadCycles + s.work / fit.throughputPerCycle[s.opClass] +
           s.units * fit.unitCycles[s.opClass] + s.weightBytes * fit.weightByteCycles +
           s.farWeightBytes * fit.farWeightByteCycles[s.opClass];
}

double fitOneCoreWorkFactor(const ComputeFit& fit, const std::vector<ComputeSample>& oneCore) {
    double measured = 0, predicted = 0;
    for (const ComputeSample& s : oneCore) {
        const double work = predictedCycles(fit, s) - fit.overheadCycles;
        if (!(work >= 2 * fit.overheadCycles) || !(work > 0) || !(s.cycles > 0))
            continue;
        measured += s.cycles - fit.overheadCycles;
        predicted += work;
    }
    if (!(predicted > 0) || !(measured > 0))
        return 1;
    return std::clamp(measured / predicted, 0.5, 2.0);
}

} // namespace strata::calibrate

#include "views/Format.h"

#include <array>
#include <cmath>
#include <string_view>

namespace strata::views {

namespace {

// Scales `value` by `base` until it is below `base` (or the units run out) and prints it with
// three significant digits, dropping trailing zeros: 4.50 -> "4.5", 10.0 -> "10".
template <std::size_t N>
QString formatScaled(double value, double base, const std::array<std::string_view, N>& units) {
    if (!std::isfinite(value))
        return QStringLiteral("n/a");
    const bool negative = value < 0;
    double v = std::fabs(value);
    std::size_t unit = 0;
    while (v >= base && unit + 1 < N) {
        v /= base;
        ++unit;
    }
    // Whole counts print without decimals; scaled values keep three significant digits.
    auto decimalsAt = [](std::size_t u, double x) {
        return u == 0 ? 0 : x < 10 ? 2 : x < 100 ? 1 : 0;
    };
    int decimals = decimalsAt(unit, v);
    // Rounding may carry into the next unit: 999.996 kFLOP prints as "1 MFLOP", not "1000 kFLOP".
    const double scale = std::pow(10.0, decimals);
    if (std::round(v * scale) / scale >= base && unit + 1 < N) {
        v /= base;
        ++unit;
        decimals = decimalsAt(unit, v);
    }
    QString number = QString::number(v, 'f', decimals);
    if (number.contains(QLatin1Char('.'))) {
        while (number.endsWith(QLatin1Char('0')))
            number.chop(1);
        if (number.endsWith(QLatin1Char('.')))
            number.chop(1);
    }
    if (negative && number != QLatin1String("0"))
        number.prepend(QLatin1Char('-'));
    const std::string_view suffix = units[unit];
    if (suffix.empty())
        return number;
    return number + QLatin1Char(' ') +
           QLatin1String(suffix.data(), static_cast<qsizetype>(suffix.size()));
}

} // namespace

QString formatFlops(double flops) {
    static constexpr std::array<std::string_view, 6> kUnits = {"FLOP",  "kFLOP", "MFLOP",
                                                               "GFLOP", "TFLOP", "PFLOP"};
    return formatScaled(flops, 1000.0, kUnits);
}

QString formatBytes(std::uint64_t bytes) {
    static constexpr std::array<std::string_view, 6> kUnits = {"B",   "KiB", "MiB",
                                                               "GiB", "TiB", "PiB"};
    return formatScaled(static_cast<double>(bytes), 1024.0, kUnits);
}

QString formatCount(std::uint64_t count) {
    static constexpr std::array<std::string_view, 5> kUnits = {"", "k", "M", "G", "T"};
    return formatScaled(static_cast<double>(count), 1000.0, kUnits);
}

QString formatInteger(std::uint64_t count) {
    QString digits = QString::number(count);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3)
        digits.insert(i, QLatin1Char(','));
    return digits;
}

QString formatShape(const ir::Shape& shape) {
    return QString::fromStdString(ir::shapeToString(shape));
}

} // namespace strata::views

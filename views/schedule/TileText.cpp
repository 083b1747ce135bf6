#include "views/schedule/TileText.h"

#include <QRegularExpression>
#include <QStringList>

namespace strata::views::schedule {

QString tileSpecText(const strata::schedule::TileSpec& tile) {
    return QString::fromStdString(strata::schedule::tileToString(tile));
}

std::optional<strata::schedule::TileSpec> parseTileSpec(const QString& text) {
    QString compact = text.toLower();
    compact.remove(QRegularExpression(QStringLiteral("\\s")));
    if (compact.isEmpty() || compact == QLatin1String("auto"))
        return strata::schedule::TileSpec{};
    compact.replace(QChar(0x00D7), QLatin1Char('x')).replace(QLatin1Char(','), QLatin1Char('x'));
    const QStringList parts = compact.split(QLatin1Char('x'));
    ir::Shape extents;
    for (const QString& part : parts) {
        bool ok = false;
        const qlonglong extent = part.toLongLong(&ok);
        // Digits only: toLongLong would take "+3".
        if (!ok || extent < 1 || !part.front().isDigit())
            return std::nullopt;
        extents.push_back(extent);
    }
    return strata::schedule::TileSpec{std::move(extents)};
}

} // namespace strata::views::schedule

#pragma once
// A block's tile as the user reads and types it: "auto", or extents such as "1x16x8x8".

#include "schedule/Schedule.h"

#include <QString>
#include <optional>

namespace strata::views::schedule {

// "auto" or "1x16x8x8".
QString tileSpecText(const strata::schedule::TileSpec& tile);

// Parses what tileSpecText() writes, case-insensitively, with spaces ignored and '×' or ','
// accepted between extents. Extents must be whole numbers >= 1; nullopt for anything else.
// Whether the extents fit the block is the schedule check's business, not the parser's.
std::optional<strata::schedule::TileSpec> parseTileSpec(const QString& text);

} // namespace strata::views::schedule

#pragma once
// Human-readable numbers for tables and summaries. Pure functions: same input, same text,
// independent of the user's locale, so tests and screenshots are stable.

#include "ir/Graph.h"

#include <QString>
#include <cstdint>

namespace strata::views {

// SI-scaled FLOP count with three significant digits: "0 FLOP", "512 FLOP", "1.23 GFLOP",
// "45.6 TFLOP".
QString formatFlops(double flops);

// Binary-scaled byte count with three significant digits: "0 B", "512 B", "4.5 MiB", "1.23 GiB".
QString formatBytes(std::uint64_t bytes);

// SI-scaled count: "950", "11.7 k", "25.6 M", "1.2 G".
QString formatCount(std::uint64_t count);

// Exact count with thousands separators: "25,557,032".
QString formatInteger(std::uint64_t count);

// "1x3x224x224"; "scalar" for rank 0.
QString formatShape(const ir::Shape& shape);

} // namespace strata::views

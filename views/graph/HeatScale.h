#pragma once
// The heat overlay of the graph view: which figure colours the blocks, and the colour scale.
// A sequential scale (pale yellow through orange to dark red, after ColorBrewer's YlOrRd) so
// the hottest block reads at a glance and the order of colours needs no legend to be guessed.

#include <QColor>
#include <QString>

namespace strata::views::graph {

enum class HeatMode {
    Off,             // blocks in their own colours
    PredictedTime,   // the emulator's time per block
    DramBytes,       // DRAM traffic per block
    PredictionError, // measured over predicted time (needs a measured run)
};

// "Predicted time", "DRAM bytes", ...: how the mode reads in the combo and the legend.
QString heatModeName(HeatMode mode);

// The scale's colour at `t` in [0, 1] (clamped).
QColor heatColor(double t);

} // namespace strata::views::graph

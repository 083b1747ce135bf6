#pragma once
// The plots of an export bundle, drawn with QCustomPlot and saved by its own savers (PNG, PDF)
// and through QSvgGenerator (SVG): per-block time, predicted beside measured; and achieved
// throughput against transfer size for the run's own transfers (seed 004's figure, from a
// model). Either trace may be missing; a plot with nothing to show is not written.

#include "trace/Trace.h"

#include <QString>
#include <QStringList>

namespace strata::views::exporting {

struct PlotFiles {
    QStringList names;   // file names written into the folder
    QString error;       // the first file that could not be written; empty when all were
};

// Must run on the GUI thread (QCustomPlot is a widget). Sizes are in pixels (PNG) and points.
PlotFiles writeRunPlots(const trace::Trace* emulated, const trace::Trace* measured, const QString& folder,
                        int width = 1200, int height = 700);

} // namespace strata::views::exporting

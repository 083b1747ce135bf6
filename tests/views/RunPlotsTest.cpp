// The export plots: every file the writer lists exists and is what its extension says (PNG and
// PDF by their signatures, SVG by parsing it as XML with an <svg> root); a missing run, a run
// without transfers and a folder that cannot be written are handled.

#include "views/export/RunPlots.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <gtest/gtest.h>

namespace strata::views::exporting {
namespace {

trace::Trace runWithTransfers(trace::Source source, std::int64_t scale) {
    trace::Trace t;
    t.source = source;
    t.paths = {{"load", "dram", "scratch"}};
    t.ops = {"conv"};
    for (std::uint32_t i = 0; i < 12; ++i) {
        trace::Event e;
        e.id = i;
        e.block = int(i % 3);
        e.op = 0;
        e.startPs = std::int64_t(i) * 1000000 * scale;
        e.endPs = e.startPs + 400000 * scale * (1 + i % 4);
        if (i % 2 == 0) {
            e.kind = trace::EventKind::Transfer;
            e.path = 0;
            e.bytes = 1024u << (i % 5);
        }
        t.events.push_back(e);
    }
    return t;
}

QByteArray head(const QString& path, int n) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

TEST(RunPlots, WritesPngPdfAndSvgThatParse) {
    QTemporaryDir dir;
    const auto predicted = runWithTransfers(trace::Source::Emulated, 1);
    const auto measured = runWithTransfers(trace::Source::Measured, 2);
    const PlotFiles files = writeRunPlots(&predicted, &measured, dir.path(), 800, 500);
    EXPECT_TRUE(files.error.isEmpty()) << files.error.toStdString();
    ASSERT_EQ(files.names.size(), 6) << files.names.join(',').toStdString();
    for (const QString& name : files.names) {
        const QString path = QDir(dir.path()).filePath(name);
        ASSERT_TRUE(QFile::exists(path)) << name.toStdString();
        if (name.endsWith(".png")) {
            EXPECT_EQ(head(path, 8), QByteArray("\x89PNG\r\n\x1a\n", 8)) << name.toStdString();
        } else if (name.endsWith(".pdf")) {
            EXPECT_EQ(head(path, 5), QByteArray("%PDF-")) << name.toStdString();
        } else {
            ASSERT_TRUE(name.endsWith(".svg"));
            QFile f(path);
            ASSERT_TRUE(f.open(QIODevice::ReadOnly));
            QXmlStreamReader xml(&f);
            QString root;
            while (!xml.atEnd()) {
                xml.readNext();
                if (xml.isStartElement() && root.isEmpty()) root = xml.name().toString();
            }
            EXPECT_FALSE(xml.hasError()) << name.toStdString() << ": " << xml.errorString().toStdString();
            EXPECT_EQ(root, QStringLiteral("svg"));
        }
    }
    EXPECT_TRUE(files.names.contains("block_times.png"));
    EXPECT_TRUE(files.names.contains("transfer_throughput.svg"));
}

TEST(RunPlots, NothingToPlotWritesNothing) {
    QTemporaryDir dir;
    EXPECT_TRUE(writeRunPlots(nullptr, nullptr, dir.path()).names.isEmpty());
    trace::Trace noTransfers = runWithTransfers(trace::Source::Emulated, 1);
    for (auto& e : noTransfers.events) e.kind = trace::EventKind::Compute;
    const PlotFiles files = writeRunPlots(&noTransfers, nullptr, dir.path(), 640, 400);
    EXPECT_TRUE(files.names.contains("block_times.png"));
    EXPECT_FALSE(files.names.contains("transfer_throughput.png"));
}

TEST(RunPlots, AnUnwritableFolderIsReported) {
    const auto predicted = runWithTransfers(trace::Source::Emulated, 1);
    const PlotFiles files = writeRunPlots(&predicted, nullptr, "/proc/strata-no-such-folder", 640, 400);
    EXPECT_EQ(files.error, QStringLiteral("block_times.png"));
    EXPECT_TRUE(files.names.isEmpty());
}

} // namespace
} // namespace strata::views::exporting

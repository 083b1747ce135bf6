#pragma once
// Helpers shared by the GUI tests.

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>

namespace strata::gui::test {

inline constexpr int kLoadTimeoutMs = 30'000;

inline QString samplePath(const char* fileName) {
    return QStringLiteral(STRATA_SAMPLES_DIR "/") + QLatin1String(fileName);
}

// Writes bytes that are not an ONNX model to `dir`/garbage.onnx and returns its path.
inline QString writeGarbageModel(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("garbage.onnx"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    QByteArray bytes("this is not a protobuf \xff\xfe\x00\x01 model", 40);
    for (int i = 0; i < 64; ++i)
        bytes.append(static_cast<char>((i * 37) ^ 0xA5));
    file.write(bytes);
    return path;
}

} // namespace strata::gui::test

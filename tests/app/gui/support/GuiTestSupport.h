#pragma once
// Helpers shared by the GUI tests.

#include "ir/Graph.h"
#include "jobs/JobRunner.h"

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <memory>
#include <string>

namespace strata::gui::test {

inline constexpr int kLoadTimeoutMs = 30'000;
// Making a starting schedule and laying out its partition, on a loaded CI machine.
inline constexpr int kSettleTimeoutMs = 120'000;

// Waits until `busy()` is false; false on timeout.
template <class Busy> bool waitUntilIdle(Busy busy, int timeoutMs = kSettleTimeoutMs) {
    return QTest::qWaitFor([&] { return !busy(); }, timeoutMs);
}

// Waits until every background job of the app has ended and been delivered or dropped as stale
// (the one job runner's drain), so nothing more can arrive. A condition, not a sleep.
inline void drainTasks() {
    JobRunner::instance().drain();
}

inline QString samplePath(const char* fileName) {
    return QStringLiteral(STRATA_SAMPLES_DIR "/") + QLatin1String(fileName);
}

// Writes bytes that are not an ONNX model to `dir`/garbage.onnx and returns its path.
inline QString writeGarbageModel(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("garbage.onnx"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    static constexpr char kText[] = "this is not a protobuf \xff\xfe\x00\x01 model";
    QByteArray bytes(kText, sizeof kText - 1); // the NUL inside is meant, the one at the end is not
    for (int i = 0; i < 64; ++i)
        bytes.append(static_cast<char>((i * 37) ^ 0xA5));
    file.write(bytes);
    return path;
}

// input -> op0 -> ... -> op{n-1} -> output, alternating MatMul and Relu: a graph of any size
// for layout tests.
inline std::shared_ptr<const ir::Graph> makeChainGraph(int n) {
    auto g = std::make_shared<ir::Graph>();
    auto addValue = [&](std::string name) {
        ir::Value v;
        v.name = std::move(name);
        v.dtype = ir::DType::Float32;
        v.shape = {1, 64};
        g->values.push_back(std::move(v));
        return ir::ValueId(static_cast<std::uint32_t>(g->values.size() - 1));
    };
    ir::ValueId previous = addValue("input");
    g->inputs = {previous};
    for (int i = 0; i < n; ++i) {
        ir::Op op;
        op.name = "op" + std::to_string(i);
        op.type = i % 2 ? "Relu" : "MatMul";
        op.opClass = i % 2 ? ir::OpClass::Elementwise : ir::OpClass::MatMul;
        op.inputs = {previous};
        previous = addValue("t" + std::to_string(i));
        op.outputs = {previous};
        g->ops.push_back(std::move(op));
    }
    g->outputs = {previous};
    g->finalize();
    return g;
}

// Writes an executable shell script to `dir`/`name` (a stand-in for the layout helper).
inline QString writeScript(const QTemporaryDir& dir, const char* name, const char* body) {
    const QString path = dir.filePath(QLatin1String(name));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write("#!/bin/sh\n");
    file.write(body);
    file.write("\n");
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

} // namespace strata::gui::test

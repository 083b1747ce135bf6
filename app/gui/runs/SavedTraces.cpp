#include "runs/SavedTraces.h"

#include "schedule/ScheduleJson.h"
#include "trace/TraceJson.h"
#include "trace/TraceValidate.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace strata::gui {

namespace {

// Atomically: a crash mid-write leaves the previous file.
std::vector<Diagnostic> writeAtomically(const QString& path, const std::string& text) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !file.commit())
        return {error("cannot save the trace: " + file.errorString().toStdString(),
                      Location{.file = path.toStdString()})};
    return {};
}

} // namespace

std::string scheduleFingerprint(const schedule::Schedule& schedule, const ir::Graph& graph) {
    const std::string json = schedule::scheduleToJson(schedule, graph);
    const QByteArray digest =
        QCryptographicHash::hash(QByteArrayView(json.data(), static_cast<qsizetype>(json.size())),
                                 QCryptographicHash::Sha256);
    return digest.toHex().left(16).toStdString();
}

WrittenTraces writeRunTraces(const MeasuredRun& run, const std::string& scheduleHash,
                             const std::string& scheduleJson, int index,
                             const QString& projectFile) {
    WrittenTraces out;
    const QString dir = QString::fromStdString(project::savedTracesDir(projectFile.toStdString()));
    if (!QDir().mkpath(dir)) {
        out.problems.push_back(error("cannot create the folder for the project's traces",
                                     Location{.file = dir.toStdString()}));
        return out;
    }
    const struct {
        const trace::Trace* trace;
        const char* source;
        const char* label;
    } parts[] = {{&run.emulation->trace, "emulated", "prediction of the run on host"},
                 {&run.measured, "measured", "run on host"}};
    std::vector<project::TraceRef> refs;
    for (const auto& part : parts) {
        const std::string path =
            project::savedTraceFile(projectFile.toStdString(), index, part.source);
        auto problems =
            writeAtomically(QString::fromStdString(path), trace::traceToJson(*part.trace));
        if (!problems.empty()) {
            out.problems = std::move(problems);
            return out;
        }
        refs.push_back({path, part.source,
                        std::string(part.label) + " #" + std::to_string(index + 1), scheduleHash,
                        index, scheduleJson});
    }
    out.refs = std::move(refs);
    return out;
}

ReadTraces readSavedTraces(const std::vector<project::TraceRef>& refs) {
    ReadTraces out;
    for (const project::TraceRef& ref : refs) {
        auto loaded = trace::importTrace(ref.path);
        if (!loaded) {
            out.problems.insert(out.problems.end(), loaded.diagnostics().begin(),
                                loaded.diagnostics().end());
            continue;
        }
        out.loadedPaths << QString::fromStdString(ref.path);
        const bool measured = ref.source == "measured";
        if (loaded->trace.source !=
            (measured ? trace::Source::Measured : trace::Source::Emulated)) {
            out.problems.push_back(warning("the project calls this trace " + ref.source +
                                               " but it is " +
                                               std::string(trace::sourceName(loaded->trace.source)),
                                           Location{.file = ref.path}));
            continue;
        }
        (measured ? out.measured : out.emulated) = std::move(loaded->trace);
        if (measured)
            out.scheduleHash = ref.scheduleHash;
    }
    return out;
}

} // namespace strata::gui

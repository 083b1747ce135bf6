#include "controllers/ProjectController.h"

#include "controllers/EmulateController.h"
#include "controllers/MeasureController.h"
#include "document/ScheduleDocument.h"
#include "document/ScheduleEditor.h"
#include "jobs/Activity.h"
#include "project/Containment.h"
#include "schedule/ScheduleJson.h"
#include "tabs/CompareTab.h"
#include "tabs/GraphTab.h"
#include "tabs/TimelineTab.h"
#include "views/graph/GraphCanvas.h"
#include "views/graph/GraphView.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>
#include <utility>

namespace strata::gui {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

QString defaultRecoveryPath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("recovery.strata"));
}

// A preset name stays a name; a target file becomes an absolute path.
QString absoluteTarget(const QString& key) {
    return key.endsWith(QLatin1String(".json")) ? QFileInfo(key).absoluteFilePath() : key;
}

} // namespace

ProjectController::ProjectController(ProjectParts parts)
    : QObject(parts.window), m_parts(std::move(parts)), m_recoveryPath(defaultRecoveryPath()) {
    m_activity = new Activity(QStringLiteral("project"), this);
    QWidget* window = m_parts.window;
    m_save = new QAction(tr("&Save Project"), window);
    m_save->setObjectName(QStringLiteral("saveProjectAction"));
    m_save->setShortcut(QKeySequence::Save);
    m_save->setStatusTip(tr("Save the model, target, schedule and view as a project (.strata)"));
    connect(m_save, &QAction::triggered, this, [this] { save(); });
    m_saveAs = new QAction(tr("Save Project &As…"), window);
    m_saveAs->setObjectName(QStringLiteral("saveProjectAsAction"));
    m_saveAs->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(m_saveAs, &QAction::triggered, this, [this] { saveAs(); });

    m_relocate = [window](const QString& message) {
        if (QMessageBox::question(window, tr("Model Not Found"),
                                  message + tr("\n\nLocate the model?")) != QMessageBox::Yes)
            return QString();
        return QFileDialog::getOpenFileName(window, tr("Locate the Project's Model"), QString(),
                                            tr("ONNX models (*.onnx);;All files (*)"));
    };

    m_confirmOutside = [window](const QString& message) {
        QMessageBox box(QMessageBox::Warning, tr("Files Outside the Project"),
                        message + tr("\n\nA project handed over by someone else may point at "
                                     "files it should not read. Load it anyway?"),
                        QMessageBox::Cancel, window);
        QPushButton* load = box.addButton(tr("Load Anyway"), QMessageBox::AcceptRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == load;
    };

    m_autosave = new QTimer(this);
    m_autosave->setInterval(kAutosaveIntervalMs);
    connect(m_autosave, &QTimer::timeout, this, &ProjectController::autosave);
    m_autosave->start();
    connect(m_parts.measure, &MeasureController::measured, this, &ProjectController::keepRun);
    connect(m_parts.document, &ScheduleDocument::snapshotChanged, this,
            &ProjectController::applySchedule);
    // A starting schedule that could not be made: the project cannot be applied, and whoever
    // waits for projectOpened() (the headless app) must hear so.
    connect(m_parts.document, &ScheduleDocument::busyChanged, this, [this](bool busy) {
        const ScheduleDocument* document = m_parts.document;
        if (!busy && m_opening && m_waitingForSchedule && !document->schedule() &&
            !document->isMaking())
            finishOpening(false, tr("Could not make a schedule for the project's model"));
    });
}

bool ProjectController::isProjectFile(const QString& path) {
    return path.endsWith(QLatin1String(".strata"), Qt::CaseInsensitive);
}

void ProjectController::setRelocateHandler(std::function<QString(const QString&)> handler) {
    m_relocate = std::move(handler);
}

void ProjectController::setOutsideFilesHandler(std::function<bool(const QString&)> handler) {
    m_confirmOutside = std::move(handler);
}

bool ProjectController::acceptOutsideFiles(const project::Project& project, const QString& path) {
    std::vector<Diagnostic> outside = project::checkContainment(project, path.toStdString());
    if (outside.empty() || m_trustedOpen)
        return true;
    QStringList lines;
    for (const Diagnostic& d : outside)
        lines << fromStd(d.message);
    const QString message = tr("%1 names files outside its folder:\n%2")
                                .arg(QFileInfo(path).fileName(), lines.join(QLatin1Char('\n')));
    if (m_confirmOutside && m_confirmOutside(message)) {
        for (Diagnostic& d : outside) { // loaded anyway: said, but no longer an error
            d.severity = Severity::Warning;
            d.message += " (loaded anyway)";
        }
        m_outsideWarnings =
            std::move(outside); // reported once the model is in: loading clears the dock
        return true;
    }
    m_activity->report(outside);
    m_activity->showStatus(
        tr("Did not open %1: it names files outside its folder").arg(QFileInfo(path).fileName()),
        15000);
    return false;
}

std::optional<project::Project> ProjectController::currentProject() const {
    const ScheduleDocument& document = *m_parts.document;
    const auto graph = document.graph();
    if (!graph || m_parts.currentFile().isEmpty())
        return std::nullopt;
    project::Project p;
    p.modelPath = QFileInfo(m_parts.currentFile()).absoluteFilePath().toStdString();
    p.modelHash = graph->contentHash;
    p.target = absoluteTarget(document.targetKey()).toStdString();
    p.strategy = std::string(schedule::strategyName(document.strategy()));
    if (const auto schedule = document.schedule())
        p.scheduleJson = schedule::scheduleToJson(*schedule, *graph);
    views::graph::GraphView* view = m_parts.graph->view();
    p.view.tab = m_parts.currentTab().toStdString();
    p.view.zoom = view->isShowingGraph() ? view->canvas()->zoom() : 0;
    if (const auto op = view->selectedOp(); op && op->index < graph->ops.size())
        p.view.selectedOp = graph->ops[op->index].name;
    if (const std::vector<int> blocks = view->selectedBlocks(); !blocks.empty())
        p.view.selectedBlock = blocks.front();
    return p;
}

bool ProjectController::write(const QString& path, const project::Project& project,
                              QString* error) const {
    const QString dir = QFileInfo(path).absolutePath();
    const std::string text = project::projectToJson(project, dir.toStdString());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

void ProjectController::keepRun(std::shared_ptr<const MeasuredRun> run) {
    if (m_restoringRun || !run)
        return; // a saved run coming back is kept by onTracesRead
    const RevisionPtr revision = run->emulation ? run->emulation->revision : nullptr;
    KeptRun kept{std::move(run), {}, {}};
    if (revision && revision->schedule && revision->graph) {
        kept.scheduleJson = schedule::scheduleToJson(*revision->schedule, *revision->graph);
        kept.scheduleHash = scheduleFingerprint(*revision->schedule, *revision->graph);
    }
    m_runs.push_back(std::move(kept));
}

std::vector<project::TraceRef> ProjectController::tracesToSave(const QString& path) {
    const QString file = QFileInfo(path).absoluteFilePath();
    if (file != m_tracesPath) {
        // Another project file: every run is written beside it.
        m_traces.clear();
        m_tracesPath = file;
    }
    // The runs not written for this file yet, each under its own number.
    for (int index = project::runCount(m_traces); index < static_cast<int>(m_runs.size());
         ++index) {
        const KeptRun& kept = m_runs[static_cast<std::size_t>(index)];
        if (!kept.run) {
            m_activity->report(
                {warning("saved run #" + std::to_string(index + 1) +
                             " could not be read when the project opened: it is not saved with it",
                         Location{.file = file.toStdString()})});
            continue;
        }
        WrittenTraces written =
            writeRunTraces(*kept.run, kept.scheduleHash, kept.scheduleJson, index, file);
        if (!written.problems.empty()) {
            m_activity->report(written.problems); // the project is saved without them
            break;
        }
        m_traces.insert(m_traces.end(), written.refs.begin(), written.refs.end());
    }
    return m_traces;
}

bool ProjectController::saveTo(const QString& path) {
    auto project = currentProject();
    if (!project) {
        m_activity->showStatus(tr("Open a model before saving a project"), 5000);
        return false;
    }
    project->traces = tracesToSave(path);
    QString error;
    if (!write(path, *project, &error)) {
        m_activity->report({strata::error("cannot save the project: " + error.toStdString(),
                                          Location{.file = path.toStdString()})});
        m_activity->showStatus(tr("Could not save %1: %2").arg(QFileInfo(path).fileName(), error),
                               15000);
        return false;
    }
    m_path = QFileInfo(path).absoluteFilePath();
    m_activity->showStatus(tr("Saved %1").arg(QFileInfo(path).fileName()), 5000);
    emit pathChanged();
    emit saved(m_path);
    return true;
}

bool ProjectController::save() {
    return m_path.isEmpty() ? saveAs() : saveTo(m_path);
}

bool ProjectController::saveAs() {
    QString suggestion = m_path;
    if (suggestion.isEmpty() && !m_parts.currentFile().isEmpty()) {
        const QFileInfo model(m_parts.currentFile());
        suggestion =
            model.absoluteDir().filePath(model.completeBaseName() + QStringLiteral(".strata"));
    }
    QString path = QFileDialog::getSaveFileName(m_parts.window, tr("Save Project"), suggestion,
                                                tr("Strata projects (*.strata)"));
    if (path.isEmpty())
        return false;
    if (!isProjectFile(path))
        path += QStringLiteral(".strata");
    return saveTo(path);
}

bool ProjectController::open(const QString& path) {
    m_refusedOutside = false;
    m_outsideWarnings.clear();
    auto loaded = project::loadProjectFile(path.toStdString());
    if (!loaded) {
        m_activity->report(loaded.diagnostics());
        m_activity->showStatus(
            tr("Could not open %1: %2")
                .arg(QFileInfo(path).fileName(), fromStd(loaded.diagnostics().front().message)),
            15000);
        emit projectOpened(path, false);
        return false;
    }
    project::Project p = std::move(loaded).value();
    if (!acceptOutsideFiles(p, path)) {
        m_refusedOutside = true;
        emit projectOpened(path, false);
        return false;
    }
    if (!QFileInfo::exists(fromStd(p.modelPath))) {
        const QString message =
            tr("The project's model %1 is not there any more: it was moved or deleted.")
                .arg(QDir::toNativeSeparators(fromStd(p.modelPath)));
        m_activity->report({warning(message.toStdString(), Location{.file = p.modelPath})});
        const QString relocated = m_relocate ? m_relocate(message) : QString();
        if (relocated.isEmpty()) {
            m_activity->showStatus(message, 15000);
            emit projectOpened(path, false);
            return false;
        }
        p.modelPath = QFileInfo(relocated).absoluteFilePath().toStdString();
    }
    ScheduleDocument* document = m_parts.document;
    if (!p.target.empty())
        document->setTarget(fromStd(p.target)); // a failure keeps the target and says why
    if (const auto strategy = schedule::parseStrategy(p.strategy))
        document->setStrategy(*strategy);
    m_opening = std::move(p);
    m_openingPath = QFileInfo(path).absoluteFilePath();
    m_runs.clear();
    m_traces.clear();
    m_tracesPath.clear();
    m_waitingForSchedule = false;
    m_parts.openModel(fromStd(m_opening->modelPath));
    return true;
}

void ProjectController::onModelLoaded(const QString& path, bool ok) {
    if (!m_opening && ok) {
        // A model opened on its own starts a new document: its runs start afresh, and Save
        // must not overwrite the project that was open with it.
        m_runs.clear();
        m_traces.clear();
        m_tracesPath.clear();
        if (!m_path.isEmpty()) {
            m_path.clear();
            emit pathChanged();
        }
        return;
    }
    if (!m_opening || QFileInfo(path).absoluteFilePath() != fromStd(m_opening->modelPath))
        return;
    if (!m_outsideWarnings.empty())
        m_activity->report(std::exchange(m_outsideWarnings, {}));
    if (!ok) {
        finishOpening(false, tr("Could not open the project's model %1").arg(path));
        return;
    }
    const auto graph = m_parts.document->graph();
    if (!m_opening->modelHash.empty() && graph && graph->contentHash != m_opening->modelHash) {
        const QString message =
            tr("The model %1 changed since the project was saved (content hash %2, now %3): "
               "its saved schedule no longer fits, so a new one is made.")
                .arg(QFileInfo(path).fileName(), fromStd(m_opening->modelHash),
                     fromStd(graph->contentHash));
        m_activity->report({warning(message.toStdString(), Location{.file = path.toStdString()})});
        m_activity->showStatus(message, 15000);
        m_opening->scheduleJson.clear();
    }
    m_waitingForSchedule = true;
    applySchedule();
}

void ProjectController::applySchedule() {
    ScheduleDocument* document = m_parts.document;
    if (!m_opening || !m_waitingForSchedule || !document->schedule() || document->isMaking() ||
        document->snapshot().revision != document->revision()->number)
        return; // the starting schedule is still on its way
    m_waitingForSchedule = false;
    if (!m_opening->scheduleJson.empty()) {
        const std::string label = m_openingPath.toStdString() + " (schedule)";
        auto schedule = schedule::parseSchedule(m_opening->scheduleJson, label, *document->graph());
        if (!schedule) {
            m_activity->report(schedule.diagnostics());
        } else if (*schedule != *document->schedule()) {
            const EditOutcome outcome =
                document->openSchedule(std::move(schedule).value(), tr("Open saved schedule"));
            if (outcome.refused())
                m_activity->showStatus(outcome.reason, 15000);
        }
    }
    // The view needs the layout of the schedule just applied.
    if (m_parts.graph->isLayingOut() || document->isBusy()) {
        auto* once = new QObject(this);
        connect(m_parts.graph, &GraphTab::layoutFinished, once, [this, once] {
            once->deleteLater();
            applyView();
        });
    } else {
        applyView();
    }
}

void ProjectController::applyView() {
    if (!m_opening)
        return;
    const project::ViewState& view = m_opening->view;
    m_parts.showTab(fromStd(view.tab));
    views::graph::GraphView* graphView = m_parts.graph->view();
    const auto graph = m_parts.document->graph();
    if (view.selectedBlock >= 0)
        graphView->selectBlock(view.selectedBlock);
    else if (graph && !view.selectedOp.empty())
        if (const auto op = graph->findOp(view.selectedOp))
            graphView->selectOp(*op);
    if (view.zoom > 0 && graphView->isShowingGraph())
        graphView->canvas()->setZoom(view.zoom);
    restoreTraces();
}

void ProjectController::restoreTraces() {
    if (!m_opening)
        return;
    if (m_opening->traces.empty()) {
        finishOpening(true, tr("Opened project %1").arg(QFileInfo(m_openingPath).fileName()));
        return;
    }
    m_traceReads.start<std::vector<ReadTraces>>(
        [runs = project::tracesByRun(m_opening->traces)](const Proceed&) {
            std::vector<ReadTraces> read;
            for (const auto& refs : runs)
                read.push_back(readSavedTraces(refs));
            return read;
        },
        [this](const std::vector<ReadTraces>& runs) { onTracesRead(runs); });
}

std::shared_ptr<const MeasuredRun> ProjectController::savedRun(const ReadTraces& read) const {
    if (!read.emulated || !read.measured)
        return nullptr;
    ScheduleDocument* document = m_parts.document;
    auto emulation = std::make_shared<EmulationRun>();
    emulation->graph = document->graph();
    emulation->trace = *read.emulated;
    emulation->targetName = document->targetKey();
    auto run = std::make_shared<MeasuredRun>();
    run->emulation = std::move(emulation);
    run->measured = *read.measured;
    return run;
}

void ProjectController::onTracesRead(const std::vector<ReadTraces>& runs) {
    if (!m_opening)
        return;
    const QString name = QFileInfo(m_openingPath).fileName();
    ScheduleDocument* document = m_parts.document;
    const auto graph = document->graph();
    const auto schedule = document->schedule();
    const auto refs = project::tracesByRun(m_opening->traces);
    // The latest run may be this schedule's own; the earlier ones go to the run list.
    static const ReadTraces kNone;
    const ReadTraces& read = runs.empty() ? kNone : runs.back();
    bool sameModel = false;
    bool sameSchedule = false;
    if (read.emulated && read.measured && graph && schedule) {
        sameModel =
            read.measured->modelHash.empty() || read.measured->modelHash == graph->contentHash;
        sameSchedule = !read.scheduleHash.empty() &&
                       read.scheduleHash == scheduleFingerprint(*schedule, *graph);
        EmulateController* emulate = m_parts.emulate;
        if (sameModel && sameSchedule && emulate->isEmulating()) {
            // The prediction of this schedule is on its way: its program goes with the run.
            auto* once = new QObject(this);
            connect(emulate, &EmulateController::busyChanged, once, [this, once, runs](bool busy) {
                if (busy)
                    return;
                once->deleteLater();
                onTracesRead(runs);
            });
            return;
        }
    }

    std::vector<Diagnostic> problems;
    for (const ReadTraces& r : runs)
        problems.insert(problems.end(), r.problems.begin(), r.problems.end());
    QString message = tr("Opened project %1").arg(name);
    // Kept in the project when it is saved again: the files are already there.
    m_traces = m_opening->traces;
    m_tracesPath = m_openingPath;
    m_runs.clear();
    auto keep = [&](std::size_t index, std::shared_ptr<const MeasuredRun> run) {
        const project::TraceRef* ref = refs[index].empty() ? nullptr : &refs[index].front();
        m_runs.push_back({run, ref ? ref->scheduleHash : std::string(),
                          ref ? ref->scheduleJson : std::string()});
    };
    for (std::size_t i = 0; i + 1 < runs.size(); ++i) {
        auto run = savedRun(runs[i]);
        keep(i, run);
        if (run)
            m_parts.compare->addHostRun(run);
    }

    if (read.emulated && read.measured && graph && schedule) {
        if (sameModel && sameSchedule) {
            EmulateController* emulate = m_parts.emulate;
            auto emulation = std::make_shared<EmulationRun>();
            emulation->revision = document->revision();
            emulation->graph = graph;
            emulation->trace = *read.emulated;
            emulation->targetName = document->targetKey();
            // The saved prediction is of the program compiled now when every instruction id
            // matches: the run then has its program (the listing link, Export).
            if (emulate->isCurrent() && emulate->last()->program &&
                std::equal(
                    read.emulated->events.begin(), read.emulated->events.end(),
                    emulate->last()->trace.events.begin(), emulate->last()->trace.events.end(),
                    [](const trace::Event& x, const trace::Event& y) { return x.id == y.id; }))
                emulation->program = emulate->last()->program;
            auto run = std::make_shared<MeasuredRun>();
            run->emulation = std::move(emulation);
            run->measured = *read.measured;
            keep(runs.size() - 1, run);
            m_restoringRun = true; // kept above, not a new run
            m_parts.measure->restore(run);
            m_restoringRun = false;
            message = tr("Opened project %1 with its saved run on host").arg(name);
        } else {
            auto run = savedRun(read);
            keep(runs.size() - 1, run);
            m_parts.compare->addHostRun(run);
            problems.push_back(warning(
                (sameModel ? "the saved run is of another schedule than the project's now"
                           : "the saved run is of another version of the model") +
                    std::string(": it is shown in the Timeline only, not as this schedule's run"),
                Location{.file = m_openingPath.toStdString()}));
            message = tr("Opened project %1; its saved run is stale (another schedule or model)")
                          .arg(name);
        }
    } else if (!runs.empty()) {
        keep(runs.size() - 1, savedRun(read));
    }
    if (!read.loadedPaths.isEmpty() && !m_parts.measure->isCurrent())
        m_parts.timeline->openTraceFiles(read.loadedPaths);
    if (hasErrors(problems))
        message = tr("Opened project %1; some saved traces could not be read (see Diagnostics)")
                      .arg(name);
    if (!problems.empty())
        m_activity->report(problems);
    finishOpening(true, message);
}

void ProjectController::finishOpening(bool ok, const QString& message) {
    const QString path = m_openingPath;
    if (ok && m_path != path) {
        m_path = path;
        emit pathChanged();
    }
    m_opening.reset();
    m_waitingForSchedule = false;
    m_activity->showStatus(message, ok ? 8000 : 15000);
    emit projectOpened(path, ok);
}

bool ProjectController::autosave() {
    const auto project = currentProject();
    if (!project)
        return false;
    QDir().mkpath(QFileInfo(m_recoveryPath).absolutePath());
    return write(m_recoveryPath, *project, nullptr);
}

bool ProjectController::hasRecovery() const {
    return QFileInfo::exists(m_recoveryPath);
}

bool ProjectController::restoreRecovery() {
    if (!hasRecovery())
        return false;
    const QString saved = m_path;
    m_trustedOpen = true;
    const bool ok = open(m_recoveryPath);
    m_trustedOpen = false;
    // The recovery file is not the user's project: Save asks where to save.
    connect(
        this, &ProjectController::projectOpened, this,
        [this, saved](const QString& path, bool) {
            if (path == QFileInfo(m_recoveryPath).absoluteFilePath() && m_path != saved) {
                m_path = saved;
                emit pathChanged();
            }
        },
        Qt::SingleShotConnection);
    return ok;
}

void ProjectController::offerRecovery() {
    if (!hasRecovery())
        return;
    const auto answer = QMessageBox::question(
        m_parts.window, tr("Restore Last Session?"),
        tr("Strata did not close cleanly last time. Restore the model, schedule and view it had "
           "open?"),
        QMessageBox::Yes | QMessageBox::Discard, QMessageBox::Yes);
    if (answer == QMessageBox::Yes)
        restoreRecovery();
    else
        discardRecovery();
}

void ProjectController::discardRecovery() {
    QFile::remove(m_recoveryPath);
}

} // namespace strata::gui

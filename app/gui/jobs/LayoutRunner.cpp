#include "jobs/LayoutRunner.h"

#include "layout/DotLayout.h"
#include "layout/LayoutProtocol.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>
#include <exception>
#include <optional>
#include <string>

namespace strata::gui {

struct LayoutRunner::Prepared {
    layout::LayoutInput input;
    bool overview = false;
    std::optional<layout::LayoutRequest> request;
    QByteArray encoded;
    std::vector<Diagnostic> diagnostics; // errors when there is no request, else notes
};

struct LayoutRunner::Run {
    std::uint64_t generation = 0;
    LayoutJob job;
    QElapsedTimer clock;
    std::shared_ptr<const Prepared> prepared;
    std::vector<Diagnostic> notes; // why the layout fell back, carried into the outcome
    bool triedOverview = false;
};

namespace {

std::string withThousands(std::size_t n) {
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

} // namespace

std::shared_ptr<const LayoutRunner::Prepared> LayoutRunner::prepareRequest(const LayoutJob& job,
                                                                           bool forceOverview) {
    auto out = std::make_shared<Prepared>();
    try {
        const ir::Graph& graph = *job.graph;
        if (auto problems = layout::validateInput(graph, job.input); !problems.empty()) {
            out->diagnostics = std::move(problems);
            return out;
        }
        const std::size_t fullNodes = layout::layoutNodeCount(graph, job.input);
        const bool useOverview =
            job.allowOverview && (forceOverview || fullNodes > job.overviewAbove);
        out->input =
            useOverview ? layout::overviewInput(graph, job.input, job.limits.maxNodes) : job.input;
        out->overview = useOverview;
        auto request = layout::buildLayoutRequest(graph, out->input, job.metrics, job.limits);
        if (!request) {
            out->diagnostics = request.takeDiagnostics();
            return out;
        }
        if (useOverview && !forceOverview)
            out->diagnostics.push_back(
                note("the graph has " + withThousands(graph.ops.size()) + " ops (" +
                     withThousands(fullNodes) + " nodes), more than a full layout shows at once (" +
                     withThousands(job.overviewAbove) + "): showing an overview of " +
                     withThousands(request->nodes.size()) +
                     " nodes; double-click a collapsed node to expand it"));
        const std::string encoded = layout::encodeRequest(*request);
        out->encoded = QByteArray(encoded.data(), static_cast<qsizetype>(encoded.size()));
        out->request = std::move(*request);
    } catch (const std::exception& e) {
        out->request.reset();
        out->diagnostics = {error(std::string("could not prepare the layout: ") + e.what())};
    }
    return out;
}

LayoutRunner::LayoutRunner(QObject* parent)
    : QObject(parent), m_generation(std::make_shared<std::atomic<std::uint64_t>>(0)),
      m_helperPath(defaultHelperPath()) {
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
}

LayoutRunner::~LayoutRunner() {
    cancel(); // m_jobs then waits for a preparing or reading worker
}

QString LayoutRunner::defaultHelperPath() {
    const QString fromEnvironment = qEnvironmentVariable("STRATA_LAYOUT_HELPER");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    const QString besideApp =
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("strata-layout"));
    if (QFileInfo(besideApp).isExecutable())
        return besideApp;
#ifdef STRATA_LAYOUT_HELPER_BUILD_PATH
    return QStringLiteral(STRATA_LAYOUT_HELPER_BUILD_PATH);
#else
    return besideApp;
#endif
}

bool LayoutRunner::isCurrent(const std::shared_ptr<Run>& run) const {
    return run && run == m_run && run->generation == m_generation->load();
}

std::uint64_t LayoutRunner::start(LayoutJob job) {
    cancel();
    auto run = std::make_shared<Run>();
    run->generation = ++*m_generation;
    run->job = std::move(job);
    run->clock.start();
    m_run = run;
    m_running.set(true);
    emit started(run->generation);
    if (!run->job.graph) {
        finish(run, {.diagnostics = {error("there is no graph to lay out")}});
        return run->generation;
    }
    prepare(run, false);
    return run->generation;
}

void LayoutRunner::cancel() {
    ++*m_generation;
    stopProcess();
    m_timer->stop();
    m_timer->disconnect(this);
    m_run.reset();
    m_jobs.cancel();
    m_running.set(false);
}

void LayoutRunner::stopProcess() {
    if (!m_process)
        return;
    QProcess* process = m_process;
    m_process = nullptr;
    process->disconnect(this);
    if (process->state() != QProcess::NotRunning) {
        process->kill();
        process->waitForFinished(2000);
    }
    process->deleteLater(); // may be inside one of its own signals
}

void LayoutRunner::prepare(std::shared_ptr<Run> run, bool overview) {
    run->triedOverview = run->triedOverview || overview;
    emit progress(run->generation,
                  overview ? tr("Preparing an overview\u2026") : tr("Preparing the layout\u2026"));
    m_jobs.start<std::shared_ptr<const Prepared>>(
        [job = run->job, overview](const Proceed&) { return prepareRequest(job, overview); },
        [this, run](std::shared_ptr<const Prepared> prepared) {
            if (isCurrent(run)) // else superseded or cancelled
                onPrepared(run, std::move(prepared));
        });
}

void LayoutRunner::onPrepared(std::shared_ptr<Run> run, std::shared_ptr<const Prepared> prepared) {
    run->prepared = prepared;
    if (!prepared->request) {
        LayoutOutcome outcome;
        outcome.diagnostics = prepared->diagnostics;
        finish(run, std::move(outcome));
        return;
    }
    if (prepared->request->nodes.empty()) {
        // Nothing to ask Graphviz: an empty graph has an empty layout.
        LayoutOutcome outcome;
        outcome.input = prepared->input;
        outcome.overview = prepared->overview;
        outcome.layout = std::make_shared<const layout::GraphLayout>();
        finish(run, std::move(outcome));
        return;
    }
    startHelper(run);
}

void LayoutRunner::startHelper(std::shared_ptr<Run> run) {
    const auto& request = *run->prepared->request;
    emit progress(run->generation,
                  tr("Laying out %1 nodes and %2 edges\u2026")
                      .arg(QString::fromStdString(withThousands(request.nodes.size())),
                           QString::fromStdString(withThousands(request.edges.size()))));

    if (!QFileInfo(m_helperPath).isExecutable()) {
        // Without the helper, lay out in-process: still off the UI thread, but it cannot be
        // killed. Say so, since the time bound is gone.
        run->notes.push_back(warning("the layout helper " + m_helperPath.toStdString() +
                                     " is missing; laying out in the app, without a time limit"));
        auto layOut = [prepared = run->prepared](const Proceed&) {
            std::string reply;
            try {
                reply = layout::encodeLayout(layout::layoutWithDot(*prepared->request));
            } catch (const std::exception& e) {
                reply = layout::encodeLayout(error(std::string("layout failed: ") + e.what()));
            }
            return QByteArray(reply.data(), static_cast<qsizetype>(reply.size()));
        };
        m_jobs.start<QByteArray>(std::move(layOut), [this, run](QByteArray reply) {
            if (isCurrent(run))
                readBack(run, std::move(reply));
        });
        return;
    }

    auto* process = new QProcess(this);
    process->setProgram(m_helperPath);
    process->setProcessChannelMode(QProcess::SeparateChannels);
    m_process = process;
    connect(process, &QProcess::started, this, [process, data = run->prepared->encoded] {
        process->write(data);
        process->closeWriteChannel();
    });
    connect(
        process, &QProcess::finished, this,
        [this, run, process](int exitCode, QProcess::ExitStatus status) {
            if (!isCurrent(run) || process != m_process)
                return;
            m_timer->stop();
            if (status == QProcess::CrashExit) {
                const QByteArray err = process->readAllStandardError().trimmed().right(400);
                onHelperDone(run, tr("the layout helper crashed%1")
                                      .arg(err.isEmpty()
                                               ? QString()
                                               : QStringLiteral(": ") + QString::fromUtf8(err)));
                return;
            }
            const QByteArray reply = process->readAllStandardOutput();
            if (reply.trimmed().isEmpty()) {
                onHelperDone(
                    run, tr("the layout helper exited with status %1 and no reply").arg(exitCode));
                return;
            }
            stopProcess();
            readBack(run, reply);
        });
    connect(process, &QProcess::errorOccurred, this,
            [this, run, process](QProcess::ProcessError error) {
                if (error != QProcess::FailedToStart || !isCurrent(run) || process != m_process)
                    return;
                m_timer->stop();
                onHelperDone(run, tr("could not start the layout helper %1: %2")
                                      .arg(m_helperPath, process->errorString()));
            });
    m_timer->disconnect(this);
    connect(m_timer, &QTimer::timeout, this, [this, run] {
        if (!isCurrent(run))
            return;
        onHelperDone(run, tr("the layout took longer than %1 s and was stopped")
                              .arg(m_timeoutMs / 1000.0, 0, 'g', 3));
    });
    m_timer->start(m_timeoutMs);
    process->start(QIODevice::ReadWrite);
}

void LayoutRunner::onHelperDone(std::shared_ptr<Run> run, const QString& failure) {
    stopProcess();
    retryAsOverview(run, {error(failure.toStdString())});
}

void LayoutRunner::readBack(std::shared_ptr<Run> run, QByteArray reply) {
    emit progress(run->generation, tr("Reading the layout\u2026"));
    auto decode = [prepared = run->prepared, reply](const Proceed&) {
        auto outcome = std::make_shared<LayoutOutcome>();
        try {
            auto decoded = layout::decodeLayout(
                std::string_view(reply.constData(), static_cast<std::size_t>(reply.size())),
                *prepared->request);
            if (decoded) {
                outcome->layout = std::make_shared<const layout::GraphLayout>(std::move(*decoded));
                outcome->diagnostics = outcome->layout->warnings;
            } else {
                outcome->diagnostics = decoded.takeDiagnostics();
            }
        } catch (const std::exception& e) {
            outcome->diagnostics = {error(std::string("could not read the layout: ") + e.what())};
        }
        return outcome;
    };
    m_jobs.start<std::shared_ptr<LayoutOutcome>>(
        std::move(decode), [this, run](std::shared_ptr<LayoutOutcome> outcome) {
            if (!isCurrent(run))
                return;
            if (!outcome->ok()) {
                retryAsOverview(run, std::move(outcome->diagnostics));
                return;
            }
            finish(run, std::move(*outcome));
        });
}

void LayoutRunner::retryAsOverview(std::shared_ptr<Run> run, std::vector<Diagnostic> why) {
    run->notes.insert(run->notes.end(), why.begin(), why.end());
    if (run->job.allowOverview && !run->triedOverview && !run->prepared->overview) {
        run->notes.push_back(note("showing an overview of the graph instead"));
        prepare(run, true);
        return;
    }
    finish(run, {});
}

void LayoutRunner::finish(std::shared_ptr<Run> run, LayoutOutcome outcome) {
    if (!isCurrent(run))
        return;
    stopProcess();
    m_timer->stop();
    outcome.generation = run->generation;
    outcome.graph = run->job.graph;
    if (run->prepared && outcome.ok()) {
        outcome.input = run->prepared->input;
        outcome.overview = run->prepared->overview;
        // The prepare stage's notes (why an overview) come first.
        std::vector<Diagnostic> all =
            run->prepared->request ? run->prepared->diagnostics : std::vector<Diagnostic>{};
        all.insert(all.end(), run->notes.begin(), run->notes.end());
        all.insert(all.end(), outcome.diagnostics.begin(), outcome.diagnostics.end());
        outcome.diagnostics = std::move(all);
    } else {
        run->notes.insert(run->notes.end(), outcome.diagnostics.begin(), outcome.diagnostics.end());
        outcome.diagnostics = std::move(run->notes);
        if (outcome.diagnostics.empty())
            outcome.diagnostics.push_back(error("the layout failed without saying why"));
    }
    outcome.elapsedMs = run->clock.elapsed();
    m_run.reset();
    m_running.set(false);
    emit finished(outcome);
}

} // namespace strata::gui

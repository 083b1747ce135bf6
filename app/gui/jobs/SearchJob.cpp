#include "jobs/SearchJob.h"

#include "compiler/Pipeline.h"
#include "emulator/Emulator.h"

#include <QMetaObject>
#include <exception>

namespace strata::gui {
namespace {

// `schedule` compiled and emulated with its counters, as Emulate (F5) would; null when it fails.
std::shared_ptr<const EmulationRun> timeline(const Revision& from,
                                             const schedule::Schedule& schedule) {
    const ir::Graph& graph = *from.graph;
    const target::Target& target = *from.machine();
    auto compiled = compiler::compile(graph, target, schedule);
    if (!compiled)
        return nullptr;
    auto program = std::make_shared<const compiler::Program>(std::move(compiled->program));
    auto trace = emulator::emulate(*program, target, graph);
    if (!trace)
        return nullptr;
    auto candidate = std::make_shared<Revision>(from);
    candidate->number = 0;
    candidate->schedule = std::make_shared<const schedule::Schedule>(schedule);
    auto run = std::make_shared<EmulationRun>();
    run->revision = std::move(candidate);
    run->graph = from.graph;
    run->program = std::move(program);
    run->trace = std::move(trace).value();
    run->targetName = from.targetName();
    return run;
}

struct Outcome {
    std::shared_ptr<const search::SearchResult> result;
    QString error;
    bool measuring = false;
    std::vector<search::MeasuredCandidate> measured;
    QString measureError;
    std::shared_ptr<const EmulationRun> start, best; // timelines, when both could be made
};

// Runs the search's leaders and best start on this computer; the fastest's schedule, or null
// when nothing could be measured (the reason in outcome.measureError).
const schedule::Schedule* measure(const Revision& from, const search::SearchOptions& options,
                                  int rounds, std::stop_token token, Outcome& outcome) {
    outcome.measuring = true;
    auto measured = search::measureCandidates(
        *from.graph, *from.machine(),
        search::candidatesToMeasure(*outcome.result, options.objective), rounds, std::move(token));
    if (!measured) {
        outcome.measureError = QString::fromStdString(measured.diagnostics().front().message);
        return nullptr;
    }
    outcome.measured = std::move(*measured);
    if (outcome.measured.empty())
        return nullptr;
    return &outcome.measured[search::fastestMeasured(outcome.measured)].candidate.schedule;
}

} // namespace

SearchJob::SearchJob(QObject* parent) : QObject(parent) {}

SearchJob::~SearchJob() {
    m_stop.request_stop(); // the lane then waits for the search to return
}

void SearchJob::start(RevisionPtr from, search::SearchOptions options, int measureRounds) {
    m_stop.request_stop(); // an older search ends; the lane drops its result
    m_stop = std::stop_source();
    const std::uint64_t mine = m_jobs.generation() + 1; // the generation start() gives below
    // The search reports from its own workers after every batch; only while it is the newest.
    auto work = [this, mine, from = std::move(from), options = std::move(options), measureRounds,
                 token = m_stop.get_token()](const Proceed& proceed) -> Outcome {
        auto report = [this, mine, &proceed](const search::SearchProgress& p) {
            if (!proceed(QString()))
                return;
            QMetaObject::invokeMethod(
                this,
                [this, mine, p] {
                    if (m_jobs.isRunning() && m_jobs.generation() == mine)
                        emit progress(p);
                },
                Qt::QueuedConnection);
        };
        auto result = std::make_shared<search::SearchResult>();
        Outcome outcome;
        outcome.result = result;
        // Nothing may reach the event loop: a failure is reported as text.
        try {
            *result =
                search::searchSchedules(*from->graph, *from->machine(), options, token, report);
            const schedule::Schedule* best = result->best ? &result->best->schedule : nullptr;
            if (best && measureRounds > 0 && !result->cancelled)
                if (const schedule::Schedule* fastest =
                        measure(*from, options, measureRounds, token, outcome))
                    best = fastest;
            if (best && !options.starts.empty()) {
                outcome.start = timeline(*from, options.starts.front());
                outcome.best = timeline(*from, *best);
            }
        } catch (const std::exception& e) {
            outcome.error = QString::fromUtf8(e.what());
            outcome.start = outcome.best = nullptr;
        }
        return outcome;
    };
    m_jobs.start<Outcome>(std::move(work), [this](const Outcome& outcome) {
        if (outcome.measuring)
            emit measured(outcome.measured, outcome.measureError);
        if (outcome.start && outcome.best)
            emit timed(outcome.start, outcome.best);
        emit finished(outcome.result, outcome.error);
    });
}

void SearchJob::cancel() {
    m_stop.request_stop(); // finished() still reports what the search found
}

} // namespace strata::gui

#include "jobs/MeasureJob.h"

#include "jobs/EmulateJob.h"
#include "jobs/GenerationalTask.h"
#include "reference/Evaluator.h"

namespace strata::gui {

namespace {

constexpr std::uint64_t kInputSeed = 1; // the inputs `strata-cli run` uses

} // namespace

MeasureJob::MeasureJob(QObject* parent)
    : QObject(parent), m_generation(std::make_shared<std::atomic<std::uint64_t>>(0)) {
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("MeasureJob"));
}

MeasureJob::~MeasureJob() {
    ++*m_generation;
    m_pool.waitForDone();
}

MeasureOutcome MeasureJob::run(const CompileRequest& request, const Proceed& proceed) {
    MeasureOutcome outcome;
    outcome.request = request;
    if (!request.graph || !request.target || !request.schedule) {
        outcome.failure = {error("nothing to run: no model, target or schedule")};
        return outcome;
    }
    // Predicted and run through one flow: the program is checked once for both.
    flow::Options options;
    options.proceed = EmulateJob::proceedByName(proceed);
    options.run.repeat = kRepeats;
    flow::Result measured =
        flow::measure({*request.graph, *request.target, *request.schedule},
                      reference::sampleInputs(*request.graph, kInputSeed), options);
    outcome.cancelled = measured.cancelled;
    if (!measured.ok()) {
        if (!measured.cancelled)
            outcome.failure = std::move(measured.diagnostics);
        return outcome;
    }
    auto run = std::make_shared<MeasuredRun>();
    run->emulation = EmulateJob::takeEmulation(request, measured);
    run->measured = std::move(measured.measured->trace);
    run->totalsNs = std::move(measured.measured->totalsNs);
    run->blockErrors = std::move(measured.blockErrors);
    outcome.run = std::move(run);
    return outcome;
}

std::uint64_t MeasureJob::start(CompileRequest request) {
    m_running = true;
    return startGenerational<MeasureOutcome>(
        this, m_pool, m_generation,
        [request = std::move(request)](const Proceed& proceed) { return run(request, proceed); },
        [this](const QString& stage) { emit progress(stage); },
        [this](MeasureOutcome outcome) {
            m_running = false;
            outcome.generation = m_generation->load();
            emit finished(outcome);
        });
}

void MeasureJob::cancel() {
    ++*m_generation;
    m_running = false;
}

} // namespace strata::gui

#include "search/SearchRun.h"

#include "schedule/Strategies.h"

#include <algorithm>
#include <array>
#include <functional>
#include <thread>

namespace strata::search {
namespace {

// Batches in a row that bring no unseen candidate before the search takes the space as seen.
constexpr int kMaxBatchesWithoutNews = 200;
// Draws of a random edit before giving up on a schedule (edits are refused when they would break
// convexity, or have nothing to change).
constexpr int kMutationAttempts = 12;

} // namespace

SearchRun::SearchRun(const ir::Graph& graph, const target::Target& target,
                     const SearchOptions& options, std::stop_token stop,
                     const ProgressCallback& progress)
    : m_graph(graph), m_target(target), m_options(options), m_stop(std::move(stop)),
      m_progress(progress), m_pool(graph, target, options.threads, options.reuse),
      m_random(options.seed),
      m_analysis(graph, target), m_start(std::chrono::steady_clock::now()) {
    m_options.batch = std::max(1, m_options.batch);
    m_options.keep = std::max(1, m_options.keep);
}

double SearchRun::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

std::uint64_t SearchRun::hashOf(const schedule::Schedule& schedule) {
    // Block ids do not change what is compiled; the order, the ops and the knobs do.
    std::string key;
    for (const schedule::Block& b : schedule.blocks) {
        for (ir::OpId op : b.ops)
            key += std::to_string(op.index) + ',';
        key += '|' + std::to_string(b.mp) + '|' + schedule::tileToString(b.tile) + '|' +
               std::to_string(b.buffering) + ';';
    }
    return std::hash<std::string>{}(key);
}

std::vector<Candidate> SearchRun::evaluateStarts() {
    std::vector<schedule::Schedule> starts = m_options.starts;
    if (starts.empty()) {
        // The strategies tile many trial blocks each (seconds on a large model): with more than
        // one worker, fuse-max is made on a thread of its own.
        const std::array strategies = {schedule::Strategy::FuseMax, schedule::Strategy::PerOp,
                                       schedule::Strategy::Rules};
        std::array<schedule::Schedule, strategies.size()> made;
        auto make = [&](std::size_t i) {
            made[i] = schedule::makeSchedule(m_graph, m_target, strategies[i]);
        };
        {
            std::jthread fuseMax;
            if (m_pool.threads() > 1)
                fuseMax = std::jthread(make, 0);
            else
                make(0);
            for (std::size_t i = 1; i < strategies.size(); ++i)
                make(i);
        }
        starts = {made[1], made[2], made[0]}; // per-op, rules, fuse-max
    }
    const auto evaluations = evaluate(starts, Admit::Any);
    std::vector<Candidate> valid;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        m_result.baselines.push_back({starts[i].strategy, starts[i], evaluations[i]});
        if (evaluations[i])
            valid.push_back({starts[i], *evaluations[i]});
    }
    return valid;
}

std::vector<std::optional<Evaluation>>
SearchRun::evaluate(const std::vector<schedule::Schedule>& candidates) {
    return evaluate(candidates,
                    m_options.space.slicedFusion ? Admit::Any : Admit::WithoutSlicedFusion);
}

std::vector<std::optional<Evaluation>>
SearchRun::evaluate(const std::vector<schedule::Schedule>& candidates, Admit admit) {
    std::vector<std::optional<Evaluation>> out(candidates.size());
    std::vector<std::uint64_t> hashes(candidates.size());
    std::vector<std::size_t> fresh; // indices of unseen candidates, first occurrence only
    std::unordered_map<std::uint64_t, std::size_t> inBatch;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        hashes[i] = hashOf(candidates[i]);
        if (m_seen.contains(hashes[i]) || inBatch.contains(hashes[i]))
            continue;
        inBatch.emplace(hashes[i], i);
        fresh.push_back(i);
    }
    // The evaluation budget cuts the batch at a fixed place, so the result stays deterministic.
    if (m_options.maxEvaluations > 0) {
        const auto left = static_cast<std::size_t>(
            std::max<std::int64_t>(0, m_options.maxEvaluations - m_result.evaluated));
        if (fresh.size() > left)
            fresh.resize(left);
    }
    std::vector<schedule::Schedule> batch;
    for (std::size_t i : fresh)
        batch.push_back(candidates[i]);
    const std::vector<Outcome> outcomes =
        batch.empty() ? std::vector<Outcome>{} : m_pool.evaluate(batch, m_stop, admit);
    bool news = false;
    for (std::size_t k = 0; k < fresh.size(); ++k) {
        const Outcome& o = outcomes[k];
        if (o.status == Outcome::Status::NotRun)
            continue;
        news = true;
        if (o.status == Outcome::Status::Invalid || o.status == Outcome::Status::LeftOut) {
            ++(o.status == Outcome::Status::Invalid ? m_result.invalid : m_result.leftOut);
            m_seen.emplace(hashes[fresh[k]], std::nullopt);
            continue;
        }
        m_seen.emplace(hashes[fresh[k]], o.evaluation);
        record(candidates[fresh[k]], o.evaluation);
    }
    m_batchesWithoutNews = news ? 0 : m_batchesWithoutNews + 1;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (auto it = m_seen.find(hashes[i]); it != m_seen.end())
            out[i] = it->second;
    if (m_progress)
        m_progress({elapsed(), m_result.evaluated,
                    m_result.best ? std::optional(m_result.best->evaluation) : std::nullopt});
    return out;
}

void SearchRun::record(const schedule::Schedule& schedule, const Evaluation& evaluation) {
    ++m_result.evaluated;
    Candidate c{schedule, evaluation};
    // Pareto's single best is its fastest point: better() ranks latency first for it.
    if (!m_result.best || better(m_options.objective, evaluation, m_result.best->evaluation)) {
        m_result.best = c;
        m_result.history.push_back({elapsed(), m_result.evaluated, evaluation.emulatedNs()});
    }
    m_front.offer(c);
    auto& leaders = m_result.leaders;
    auto at = std::upper_bound(leaders.begin(), leaders.end(), c,
                               [&](const Candidate& x, const Candidate& y) {
                                   return better(m_options.objective, x.evaluation, y.evaluation);
                               });
    if (static_cast<int>(at - leaders.begin()) < m_options.keep) {
        leaders.insert(at, c);
        if (static_cast<int>(leaders.size()) > m_options.keep)
            leaders.pop_back();
    }
}

std::optional<schedule::Schedule> SearchRun::mutated(const schedule::Schedule& from) {
    for (int attempt = 0; attempt < kMutationAttempts; ++attempt)
        if (auto s = mutate(from, m_graph, m_target, m_options.space, m_random, m_analysis)) {
            s->strategy = "search";
            return s;
        }
    return std::nullopt;
}

bool SearchRun::done() const {
    if (m_stop.stop_requested())
        return true;
    if (m_options.maxEvaluations > 0 && m_result.evaluated >= m_options.maxEvaluations)
        return true;
    if (m_options.budgetSeconds > 0 && elapsed() >= m_options.budgetSeconds)
        return true;
    return m_batchesWithoutNews >= kMaxBatchesWithoutNews;
}

SearchResult SearchRun::finish() {
    m_result.pareto = m_front.points();
    m_result.seconds = elapsed();
    m_result.cancelled = m_stop.stop_requested();
    if (m_result.best)
        m_result.best->schedule.strategy = "search";
    return std::move(m_result);
}

} // namespace strata::search

#include "emulator/Emulator.h"

#include "emulator/ConcurrentSlowdown.h"
#include "emulator/Contention.h"
#include "emulator/ProgramCheck.h"
#include "emulator/TraceSkeleton.h"
#include "emulator/WeightRegime.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <queue>
#include <span>

namespace strata::emulator {
namespace {

using compiler::InstrKind;
constexpr double kForever = std::numeric_limits<double>::infinity();

// std::llround without the library call (two per instruction): x - trunc(x) is exact, so
// comparing it with 0.5 rounds halves away from zero exactly as llround does.
std::int64_t roundHalfAway(double x) {
    const auto whole = static_cast<std::int64_t>(x);
    const double fraction = x - static_cast<double>(whole);
    return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole;
}

// A core resuming its stream, or a transfer whose latency part is over. Ordered by time, then by
// sequence number (ties in time go in the order they were scheduled: deterministic). Times are
// never negative, and the bits of non-negative doubles order as the doubles do, so the time's
// bits and the key form one 128-bit number whose order is the wakeups' order: one comparison
// without branches in the heap's inner loop.
__extension__ using Order = unsigned __int128; // GCC and Clang; __extension__: not ISO C++

struct Wakeup {
    Order order; // time's bits << 64 | sequence << 33 | latencyOver << 32 | core or transfer id

    Wakeup(double time, std::uint64_t key) : order(static_cast<Order>(std::bit_cast<std::uint64_t>(time)) << 64 | key) {}
    double time() const { return std::bit_cast<double>(static_cast<std::uint64_t>(order >> 64)); }
    std::uint32_t what() const { return static_cast<std::uint32_t>(order); }
    bool latencyOver() const { return (order >> 32) & 1; }
    bool operator>(const Wakeup& o) const { return order > o.order; }
};

// A transfer in its throughput part, in its flow class. `order` numbers the transfers in the
// order they started moving: transfers finishing at one time complete in that order.
struct Member {
    double target;           // the class's `served` at which this transfer has moved its bytes
    std::uint64_t order;
    std::uint32_t transfer;
    bool operator>(const Member& o) const { return target != o.target ? target > o.target : order > o.order; }
};

// The transfers moving on one path along one route (Contention::flowClass) that read one kind of
// data (target::ReadKind: a path may give each kind its own bandwidth). Fair sharing gives
// identical flows one rate, so the class keeps one rate for all its members and a virtual clock,
// the bytes each member has moved since the class was last empty: a member that joins when the
// clock reads S, with B bytes to move, finishes when it reads S + B. Re-sharing bandwidth then
// costs per class, however many transfers each holds.
struct FlowClass {
    std::uint16_t path = 0;
    std::uint16_t core = 0;
    std::span<const ResourceUse> route;
    double bytesPerCycle = 0;    // of one member on its own (the path's figure for its kind of read)
    double served = 0;           // bytes per member, as of settledAt
    double settledAt = 0;
    double rate = 0;             // bytes/cycle per member
    double finishAt = kForever;  // of its first member
    bool large = false;          // slowed by other cores' transfers (ConcurrentSlowdown::slows)
    bool affected = false;       // to be re-shared at the next shareBandwidth
    bool active = false;         // has members (listed in m_active)
    std::vector<Member> members; // min-heap: the first to finish on top

    // When a member moving toward `target` finishes at the current rate.
    double finishOf(double target) const { return std::max(settledAt, settledAt + (target - served) / rate); }
    void settle(double now) {
        served += rate * (now - settledAt);
        settledAt = now;
    }
};

// Time is in cycles of the target's clock here; events get picoseconds.
class Simulation {
  public:
    Simulation(const compiler::Program& program, const target::Target& target,
               const CheckedProgram& checked, const EmulateOptions& options, trace::Trace& out)
        : m_program(program), m_target(target), m_steps(checked.steps),
          m_deliveries(checked.deliveries), m_pathsUsed(checked.pathsUsed), m_options(options),
          m_trace(out), m_contention(target), m_sharing(m_contention.capacities()),
          m_slowdown(target, program.cores), m_psPerCycle(1e12 / target.clockHz),
          m_cores(static_cast<std::size_t>(program.cores)),
          m_inFlight(static_cast<std::size_t>(program.cores) * target.paths.size(), 0),
          m_done(program.instructions.size(), 0),
          m_classes(2 * target::kReadKinds * m_contention.flowClasses()),
          m_changedInstance(m_contention.capacities().size(), 0),
          m_pathRate(target.paths.size(), 0) {
        for (std::size_t p = 0; p < target.paths.size(); ++p)
            for (int c = 0; c < program.cores; ++c) {
                for (std::size_t k = 0; k < 2 * target::kReadKinds; ++k) {
                    const auto kind = static_cast<target::ReadKind>(k % target::kReadKinds);
                    const bool large = k >= target::kReadKinds;
                    FlowClass& cls = m_classes[classOf(p, c, kind, large)];
                    cls.path = static_cast<std::uint16_t>(p);
                    cls.core = static_cast<std::uint16_t>(c);
                    cls.large = large;
                    // A cached read, or a store into cached lines, is served by the core's own
                    // cache, a read of rows another core stored by the caches: none occupies the
                    // path's shared resources (markCachedReads, markSharedReads).
                    if (kind != target::ReadKind::Cached && kind != target::ReadKind::CachedWrite &&
                        kind != target::ReadKind::Shared)
                        cls.route = m_contention.route(p, c);
                    cls.bytesPerCycle = target.paths[p].bytesPerCycleFor(kind);
                }
            }
        for (const compiler::BlockCode& b : program.blocks) {
            if (b.block < 0) continue;
            if (static_cast<std::size_t>(b.block) >= m_sramOfBlock.size()) m_sramOfBlock.resize(static_cast<std::size_t>(b.block) + 1, 0);
            m_sramOfBlock[static_cast<std::size_t>(b.block)] = b.sramBytes;
        }
        if (m_options.counters) makeCounters();
    }

    // Runs to the end; false (with diagnostics) when cores are left blocked forever.
    bool run(std::vector<Diagnostic>& diagnostics) {
        for (std::uint32_t c = 0; c < m_cores.size(); ++c) schedule(0, c);
        for (;;) {
            if (m_dirty && (m_wakeups.empty() || m_wakeups.top().time() > m_now)) shareBandwidth();
            const double nextWakeup = m_wakeups.empty() ? kForever : m_wakeups.top().time();
            const double nextFinish = m_active.empty() || m_dirty ? kForever : m_nextFinish;
            if (nextWakeup == kForever && nextFinish == kForever) break;
            if (nextFinish <= nextWakeup) {
                m_now = nextFinish;
                finishTransfers();
                continue;
            }
            const Wakeup w = m_wakeups.top();
            m_wakeups.pop();
            m_now = w.time();
            if (w.latencyOver())
                startMoving(w.what());
            else
                runCore(w.what(), m_now, true);
        }
        return reportBlocked(diagnostics);
    }

  private:
    enum class Blocked : std::uint8_t { No, Wait, Barrier, Slot, Busy, Done };
    struct Core {
        std::size_t pc = 0;
        Blocked blocked = Blocked::No;
        std::uint16_t slotPath = 0;     // Slot: the path it needs a free slot on
        std::uint32_t waitingOn = 0;    // Wait, Busy: the transfer
        double busyUntil = 0;           // Busy: the end of the issue overhead, the earliest resume
        int block = INT_MIN;            // for the SRAM counter
        double arrivedAt = 0;           // Barrier: when it reached the barrier
        bool worked = false;            // ran an instruction since the last barrier
    };

    std::int64_t ps(double cycles) const { return m_originPs + roundHalfAway(cycles * m_psPerCycle); }

    // Sequences below 2^31: far more wakeups than a program that fits in memory has. `time` is
    // never negative (see Wakeup); + 0.0 turns a -0.0 into +0.0.
    void schedule(double time, std::uint32_t what, bool latencyOver = false) {
        m_wakeups.emplace(time + 0.0, m_sequence++ << 33 | std::uint64_t(latencyOver) << 32 | what);
    }

    // True when nothing else happens up to and including time t: no pending re-sharing, no
    // transfer finishing and no wakeup queued at or before t.
    bool nothingBefore(double t) const {
        return !m_dirty && (m_active.empty() || t < m_nextFinish) && (m_wakeups.empty() || t < m_wakeups.top().time());
    }

    // Issues the core's instructions from time t until one must wait for something global. Only
    // computes run ahead of the simulation clock; anything that touches shared state (a transfer
    // issue, a wait, a barrier) happens when the clock reaches it. Called from the event loop
    // (`fromLoop`), the core needs no wakeup when nothing else happens before it resumes: the
    // clock moves on to it directly, as the wakeup would have been the next event.
    void runCore(std::uint32_t c, double t, bool fromLoop = false) {
        Core& core = m_cores[c];
        const auto& stream = m_program.streams[c];
        core.blocked = Blocked::No;
        while (core.pc < stream.size()) {
            const compiler::InstrId id = stream[core.pc];
            const Step& step = m_steps[id];
            trace::Event& event = m_trace.events[id];
            const InstrKind kind = step.kind;
            if (kind != InstrKind::Compute && t > m_now) {
                if (!fromLoop || !nothingBefore(t)) return schedule(t, c);
                m_now = t;
            }
            if (kind != InstrKind::Barrier) {
                enterBlock(c, step.block, t);
                core.worked = true;
            }
            switch (kind) {
            case InstrKind::Compute:
                event.startPs = ps(t);
                t += step.amount / m_options.computeSpeed;
                event.endPs = ps(t);
                break;
            case InstrKind::Transfer: {
                const std::uint16_t p = step.path;
                int& inFlight = m_inFlight[c * m_target.paths.size() + p];
                if (inFlight >= m_target.paths[p].maxInFlight) {
                    core.blocked = Blocked::Slot;
                    core.slotPath = p;
                    return;
                }
                ++inFlight;
                ++m_inFlightTotal;
                event.startPs = ps(t);
                if (m_target.paths[p].broadcast && m_sramCounter >= 0) deliver(id, step.block, t);
                schedule(t + step.amount, id, true); // latency and rows' overhead (ProgramCheck)
                t += m_target.overheads.transferIssueCycles;
                if (m_target.paths[p].issuerBusy) {
                    // The core copies the bytes itself: its stream resumes when they have moved.
                    core.blocked = Blocked::Busy;
                    core.waitingOn = id;
                    core.busyUntil = t;
                    return;
                }
                break;
            }
            case InstrKind::Wait:
                event.startPs = ps(t);
                if (!m_done[step.link]) {
                    core.blocked = Blocked::Wait;
                    core.waitingOn = step.link;
                    return;
                }
                t += m_target.overheads.waitCycles;
                event.endPs = ps(t);
                break;
            case InstrKind::Barrier:
                event.startPs = ps(t);
                core.blocked = Blocked::Barrier;
                core.arrivedAt = t;
                if (++m_arrived == m_cores.size()) releaseBarrier(t);
                return;
            }
            ++core.pc;
        }
        core.blocked = Blocked::Done;
        sample(m_sramCounter, c, t, 0);
    }

    // When the last core is expected at the barrier reached at `t`: cores that all worked do not
    // finish together on real hardware, and the last of them comes at least the target's join
    // skew after their mean arrival (target::JoinSkew); a block whose own work is uneven by more
    // keeps its emulated last arrival.
    double expectedLastArrival(double t) const {
        double sum = 0;
        int working = 0;
        for (const Core& core : m_cores)
            if (core.worked) {
                sum += core.arrivedAt;
                ++working;
            }
        if (working < 2)
            return t;
        const double mean = sum / working;
        return std::max(t, mean + m_target.joinSkew.cycles(mean - m_blockStart));
    }

    void releaseBarrier(double t) {
        m_arrived = 0;
        double release = expectedLastArrival(t) + m_target.overheads.barrierCycles;
        for (Core& core : m_cores)
            core.worked = false;
        for (std::uint32_t c = 0; c < m_cores.size(); ++c) {
            Core& core = m_cores[c];
            m_trace.events[m_program.streams[c][core.pc]].endPs = ps(release);
        }
        // Nothing in flight: the clock restarts here (Emulator.h), so what follows is timed the
        // same wherever the stretch sits in the program.
        if (m_inFlightTotal == 0 && m_wakeups.empty() && m_active.empty()) {
            m_originPs = ps(release);
            m_now = release = 0;
            if (m_options.restarts)
                m_options.restarts->push_back(m_steps[m_program.streams[0][m_cores[0].pc]].link);
        }
        m_blockStart = release;
        for (std::uint32_t c = 0; c < m_cores.size(); ++c) {
            Core& core = m_cores[c];
            ++core.pc;
            core.blocked = Blocked::No;
            schedule(release, c);
        }
    }

    // Transfers large enough to slow other cores' down (ConcurrentSlowdown) get classes of their
    // own.
    std::uint32_t classOf(std::size_t path, int core, target::ReadKind kind, bool large) const {
        const std::size_t flow = 2 * m_contention.flowClass(path, core) + (large ? 1 : 0);
        return static_cast<std::uint32_t>(target::kReadKinds * flow +
                                          static_cast<std::size_t>(kind));
    }
    std::uint32_t classOf(const Step& step) const {
        return classOf(step.path, static_cast<int>(step.core), step.read,
                       m_slowdown.slows(step.bytes));
    }

    void startMoving(std::uint32_t transfer) {
        const Step& step = m_steps[transfer];
        if (step.bytes == 0) return finish(transfer);
        const std::uint32_t c = classOf(step);
        FlowClass& cls = m_classes[c];
        if (!cls.active) {
            cls.active = true;
            cls.served = 0;
            cls.settledAt = m_now;
            m_active.push_back(c);
        }
        cls.settle(m_now);
        cls.members.push_back({cls.served + double(step.bytes), m_started++, transfer});
        std::push_heap(cls.members.begin(), cls.members.end(), std::greater<>{});
        cls.affected = true;
        markChanged(cls.route);
        noteMoving(cls, 1);
    }

    // A transfer of `cls` started (+1) or stopped (-1) moving: when its core starts or stops
    // using the path, other cores' transfers slowed by it (ConcurrentSlowdown) are re-shared.
    void noteMoving(const FlowClass& cls, int change) {
        if (!cls.large || !m_slowdown.moving(cls.core, cls.path, change))
            return;
        m_dirty = true;
        for (const std::uint32_t c : m_active) {
            FlowClass& other = m_classes[c];
            if (other.core == cls.core || other.affected)
                continue;
            other.affected = true;
            markChanged(other.route);
        }
    }

    // Completes every transfer whose bytes have all moved by now, in the order they started.
    void finishTransfers() {
        m_finished.clear();
        std::size_t kept = 0;
        for (const std::uint32_t c : m_active) {
            FlowClass& cls = m_classes[c];
            if (cls.finishAt <= m_now) {
                while (!cls.members.empty() && cls.finishOf(cls.members.front().target) <= m_now) {
                    std::pop_heap(cls.members.begin(), cls.members.end(), std::greater<>{});
                    m_finished.push_back(cls.members.back());
                    cls.members.pop_back();
                }
                markChanged(cls.route);
                cls.affected = true; // its next member's finish, even on an empty route (a cached read)
                cls.active = !cls.members.empty();
            }
            if (cls.active) m_active[kept++] = c;
        }
        m_active.resize(kept);
        m_dirty = true;
        for (const Member& m : m_finished) {
            const Step& step = m_steps[m.transfer];
            noteMoving(m_classes[classOf(step)], -1);
        }
        std::sort(m_finished.begin(), m_finished.end(), [](const Member& a, const Member& b) { return a.order < b.order; });
        for (const Member& m : m_finished) finish(m.transfer);
    }

    // A transfer on `route` started or ended: the rates of transfers sharing its resources
    // (directly or through others) may change; nothing else does.
    void markChanged(std::span<const ResourceUse> route) {
        m_dirty = true;
        for (const ResourceUse& u : route) markInstance(u.instance);
    }

    void markInstance(std::uint32_t instance) {
        if (m_changedInstance[instance]) return;
        m_changedInstance[instance] = 1;
        m_changedList.push_back(instance);
    }

    // A transfer completed: its slot frees, and its core resumes if it was waiting for it.
    void finish(std::uint32_t transfer) {
        m_done[transfer] = 1;
        m_trace.events[transfer].endPs = ps(m_now);
        const std::uint32_t c = m_steps[transfer].core;
        const std::uint16_t p = m_steps[transfer].path;
        --m_inFlight[c * m_target.paths.size() + p];
        --m_inFlightTotal;
        Core& core = m_cores[c];
        if (core.blocked == Blocked::Busy && core.waitingOn == transfer) {
            ++core.pc;
            runCore(c, std::max(m_now, core.busyUntil));
        } else if (core.blocked == Blocked::Wait && core.waitingOn == transfer) {
            const double resume = m_now + m_target.overheads.waitCycles;
            m_trace.events[m_program.streams[c][core.pc]].endPs = ps(resume);
            ++core.pc;
            runCore(c, resume);
        } else if (core.blocked == Blocked::Slot && core.slotPath == p) {
            runCore(c, m_now);
        }
    }

    // Re-shares bandwidth among the flow classes connected (through shared resource instances)
    // to one whose transfers started or ended; the others keep their rates and finish times.
    void shareBandwidth() {
        m_dirty = false;
        markConnected();
        m_demands.clear();
        m_affected.clear();
        // The earliest finish: unaffected classes keep theirs, affected ones are added below.
        // (Locals: the compiler cannot keep members in registers across the stores below.)
        const double now = m_now;
        double nextFinish = kForever;
        for (const std::uint32_t c : m_active) {
            FlowClass& cls = m_classes[c];
            if (!cls.affected) {
                nextFinish = std::min(nextFinish, cls.finishAt);
                continue;
            }
            cls.settle(now);
            m_affected.push_back(c);
            const double slower = cls.large ? m_slowdown.factor(cls.core, cls.path) : 1.0;
            const double members = double(cls.members.size());
            m_demands.push_back({cls.bytesPerCycle / slower, cls.route, members});
        }
        m_rates.resize(m_demands.size());
        m_sharing.share(m_demands, m_rates);
        for (std::size_t k = 0; k < m_affected.size(); ++k) {
            FlowClass& cls = m_classes[m_affected[k]];
            cls.affected = false;
            cls.rate = m_rates[k];
            cls.finishAt = cls.finishOf(cls.members.front().target);
            nextFinish = std::min(nextFinish, cls.finishAt);
        }
        m_nextFinish = nextFinish;
        for (std::uint32_t instance : m_changedList) m_changedInstance[instance] = 0;
        m_changedList.clear();
        if (m_options.counters) samplePathBandwidth();
    }

    // Marks every class sharing a changed instance as affected, and its instances as changed,
    // to a fixed point. Another pass is needed only when a pass marked new instances.
    void markConnected() {
        for (std::size_t marked = 0; marked != m_changedList.size();) {
            marked = m_changedList.size();
            for (const std::uint32_t c : m_active) {
                FlowClass& cls = m_classes[c];
                if (cls.affected || !touchesChanged(cls.route)) continue;
                cls.affected = true;
                for (const ResourceUse& u : cls.route) markInstance(u.instance);
            }
        }
    }

    bool touchesChanged(std::span<const ResourceUse> route) const {
        for (const ResourceUse& u : route)
            if (m_changedInstance[u.instance]) return true;
        return false;
    }

    void makeCounters() {
        const std::vector<std::uint8_t>& used = m_pathsUsed;
        m_pathCounter.assign(m_target.paths.size(), -1);
        for (std::size_t p = 0; p < used.size(); ++p) {
            if (!used[p]) continue;
            m_pathCounter[p] = static_cast<int>(m_trace.counters.size());
            m_trace.counters.push_back({trace::Counter::Kind::PathBandwidth, static_cast<std::uint32_t>(p), {{0, 0}}});
        }
        m_sramCounter = static_cast<int>(m_trace.counters.size());
        for (std::size_t c = 0; c < m_cores.size(); ++c)
            m_trace.counters.push_back({trace::Counter::Kind::SramBytes, static_cast<std::uint32_t>(c), {{0, 0}}});
        m_lastPathRate.assign(m_target.paths.size(), 0);
    }

    // Appends a sample to counter `first + offset`; a later sample at the same time replaces it.
    void sample(int first, std::uint32_t offset, double cycles, double value) {
        if (!m_options.counters || first < 0) return;
        auto& samples = m_trace.counters[static_cast<std::size_t>(first) + offset].samples;
        const std::int64_t at = ps(cycles);
        if (!samples.empty() && samples.back().timePs == at)
            samples.back().value = value;
        else if (samples.empty() || samples.back().value != value)
            samples.push_back({at, value});
    }

    void samplePathBandwidth() {
        std::fill(m_pathRate.begin(), m_pathRate.end(), 0.0);
        for (const std::uint32_t c : m_active)
            m_pathRate[m_classes[c].path] += m_classes[c].rate * double(m_classes[c].members.size());
        const double gbPerSecondPerBytePerCycle = m_target.clockHz / 1e9;
        for (std::size_t p = 0; p < m_pathRate.size(); ++p) {
            if (m_pathRate[p] == m_lastPathRate[p] || m_pathCounter[p] < 0) continue;
            m_lastPathRate[p] = m_pathRate[p];
            sample(m_pathCounter[p], 0, m_now, m_pathRate[p] * gbPerSecondPerBytePerCycle);
        }
    }

    void enterBlock(std::uint32_t c, int block, double t) {
        Core& core = m_cores[c];
        if (block < 0 || block == core.block) return;
        core.block = block;
        const auto b = static_cast<std::size_t>(block);
        sample(m_sramCounter, c, t, b < m_sramOfBlock.size() ? double(m_sramOfBlock[b]) : 0.0);
    }

    // A broadcast's bytes land in its further cores' working memory where its block's plan puts
    // them: from its issue, those cores hold that block's working memory. (The compiler issues
    // it once they are done with their previous block; a core still in it would switch back.)
    void deliver(std::uint32_t transfer, int block, double t) {
        auto it = std::lower_bound(m_deliveries.begin(), m_deliveries.end(), transfer,
                                   [](const Delivery& d, std::uint32_t id) { return d.transfer < id; });
        for (; it != m_deliveries.end() && it->transfer == transfer; ++it) enterBlock(it->core, block, t);
    }

    bool reportBlocked(std::vector<Diagnostic>& diagnostics) const {
        bool ok = true;
        for (std::size_t c = 0; c < m_cores.size(); ++c) {
            const Core& core = m_cores[c];
            if (core.blocked == Blocked::Done) continue;
            ok = false;
            if (diagnostics.size() >= 20) continue;
            const compiler::InstrId id = m_program.streams[c][core.pc];
            const bool onTransfer = core.blocked == Blocked::Wait || core.blocked == Blocked::Busy;
            const char* why = core.blocked == Blocked::Barrier ? "at a barrier that not every core reaches"
                              : onTransfer                     ? "waiting on a transfer that never completes"
                                                               : "waiting for a transfer slot that never frees";
            diagnostics.push_back(error(fmt::format("program deadlocks: core {} is stuck at {} {}", c, instructionName(id), why)));
        }
        return ok;
    }

    const compiler::Program& m_program;
    const target::Target& m_target;
    const std::vector<Step>& m_steps;
    const std::vector<Delivery>& m_deliveries;
    const std::vector<std::uint8_t>& m_pathsUsed;
    const EmulateOptions& m_options;
    trace::Trace& m_trace;
    Contention m_contention;
    BandwidthSharing m_sharing;
    ConcurrentSlowdown m_slowdown; // other cores' transfers slowing a path's
    double m_psPerCycle;

    double m_now = 0;                       // cycles since the origin
    std::int64_t m_originPs = 0;            // the last restart (Emulator.h), in picoseconds
    std::size_t m_inFlightTotal = 0;        // transfers issued and not finished
    std::uint64_t m_sequence = 0;
    std::priority_queue<Wakeup, std::vector<Wakeup>, std::greater<>> m_wakeups;
    std::vector<Core> m_cores;
    std::vector<int> m_inFlight;            // per (core, path)
    std::vector<std::uint8_t> m_done;       // per instruction: transfer complete
    std::size_t m_arrived = 0;              // cores at the current barrier
    double m_blockStart = 0;                // the last barrier's release (the run's start first)

    std::vector<FlowClass> m_classes;       // per flow class and kind of read (classOf)
    std::vector<std::uint32_t> m_active;    // the classes with members
    std::uint64_t m_started = 0;            // transfers that started moving so far
    bool m_dirty = false;                   // the moving set changed since rates were shared
    double m_nextFinish = kForever;
    std::vector<std::uint8_t> m_changedInstance; // per resource instance: touched by a change
    std::vector<std::uint32_t> m_changedList;    // the instances marked, to unmark them
    std::vector<std::uint32_t> m_affected;
    std::vector<FlowDemand> m_demands;
    std::vector<double> m_rates;
    std::vector<Member> m_finished;

    std::vector<std::uint64_t> m_sramOfBlock;
    std::vector<int> m_pathCounter;         // per path: counter index, -1 when unused
    int m_sramCounter = -1;                 // first of the per-core SRAM counters
    std::vector<double> m_pathRate;         // per path: bandwidth in use now, bytes/cycle (counters)
    std::vector<double> m_lastPathRate;     // per path: as last sampled
};

} // namespace

Expected<trace::Trace> emulate(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                               const EmulateOptions& options) {
    std::vector<Diagnostic> diagnostics;
    if (!(target.clockHz > 0)) return error("target '" + target.name + "' has no clock");
    const CheckedProgram checked = checkProgram(program, target, graph, diagnostics);
    if (hasErrors(diagnostics)) return diagnostics;
    return emulate(program, checked, target, graph, options);
}

Expected<trace::Trace> emulate(const compiler::Program& program, const CheckedProgram& checked,
                               const target::Target& target, const ir::Graph& graph,
                               const EmulateOptions& options) {
    std::vector<Diagnostic> diagnostics;
    if (!(target.clockHz > 0)) return error("target '" + target.name + "' has no clock");
    if (!(options.computeSpeed > 0) || !std::isfinite(options.computeSpeed))
        return error("the compute speed must be a positive number");
    std::optional<target::Target> regime; // the weight figures checkProgram priced (WeightRegime.h)
    const target::Target& priced = withWeightRegime(target, graph, regime);
    trace::Trace trace = traceSkeleton(program, priced, graph, checked, trace::Source::Emulated);
    Simulation simulation(program, priced, checked, options, trace);
    if (!simulation.run(diagnostics)) return diagnostics;
    return trace;
}

} // namespace strata::emulator

#include "runtime/Executor.h"

#include "runtime/CacheChurn.h"
#include "runtime/CoreWorkers.h"
#include "runtime/SpinBarrier.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <exception>
#include <mutex>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace strata::runtime {
namespace {

// Flush denormal results to zero and read denormal operands as zero in this thread. A denormal
// costs a microcode assist per operation, 20-100x its normal time: the late layers of a randomly
// initialised EfficientNet decay into them, and their sigmoids took 20-300 ns per element against
// 1.3 ns early on, so a measured time said more about the weights than about the program.
// Inference libraries (oneDNN, TensorFlow) run this way. x86 only; elsewhere denormals stay.
void flushDenormals() {
#if defined(__SSE__)
    _mm_setcsr(_mm_getcsr() | 0x8040); // FTZ (bit 15) and DAZ (bit 6)
#endif
}

std::int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// One core's timestamps, in the order of its stream: (start, end) per instruction. Each core
// writes only its own buffer, padded to whole cache lines at both ends: written straight into
// the per-instruction arrays, neighbouring ids of two cores share cache lines, and a timestamp
// could wait for the line to come back from the other core.
class CoreClock {
  public:
    explicit CoreClock(std::size_t instructions) : m_ns(2 * instructions + 2 * kPad, 0) {}
    void start(std::size_t k) noexcept { m_ns[kPad + 2 * k] = nowNs(); }
    void end(std::size_t k) noexcept { m_ns[kPad + 2 * k + 1] = nowNs(); }
    std::int64_t startOf(std::size_t k) const { return m_ns[kPad + 2 * k]; }
    std::int64_t endOf(std::size_t k) const { return m_ns[kPad + 2 * k + 1]; }

  private:
    static constexpr std::size_t kPad = 64 / sizeof(std::int64_t);
    std::vector<std::int64_t> m_ns;
};

} // namespace

Timing execute(const PreparedProgram& program, bool timestamps, std::vector<Workspace>& workspaces,
               CacheChurn* churn) {
    const auto cores = static_cast<std::ptrdiff_t>(program.streams.size());
    Timing timing;
    if (timestamps) {
        timing.startNs.assign(program.instructions.size(), 0);
        timing.endNs.assign(program.instructions.size(), 0);
    }
    // Every worker woken and waiting (ready, which blocks), then every worker awake (sync,
    // which spins): the run starts when they leave it together. Started from `ready` alone, a
    // core woken from its futex began ~10 us after the others, a sixth of a small model's run.
    std::barrier ready(cores);
    SpinBarrier sync(static_cast<int>(cores), SpinBarrier::defaultSpin(static_cast<int>(cores)));
    std::vector<std::int64_t> begins(static_cast<std::size_t>(cores), 0);
    std::vector<std::int64_t> ends(static_cast<std::size_t>(cores), 0);
    std::vector<CoreClock> clocks;
    if (timestamps)
        for (const auto& stream : program.streams)
            clocks.emplace_back(stream.size());
    std::mutex failureMutex;

    auto worker = [&](std::size_t core) {
        Workspace& workspace = workspaces[core];
        bool failed = false;
        flushDenormals();
        if (churn)
            churn->writeFrom(core);
        ready.arrive_and_wait();
        sync.arriveAndWait();
        begins[core] = nowNs();
        const std::vector<std::uint32_t>& stream = program.streams[core];
        for (std::size_t k = 0; k < stream.size(); ++k) {
            const PreparedInstruction& in = program.instructions[stream[k]];
            if (timestamps)
                clocks[core].start(k);
            if (in.kind == compiler::InstrKind::Barrier) {
                sync.arriveAndWait();
            } else if (!failed) {
                // After a failure the worker still meets every barrier, so no other one hangs.
                try {
                    if (in.kind == compiler::InstrKind::Transfer)
                        for (const Copy& copy : in.copies) copy.run();
                    else if (in.kind == compiler::InstrKind::Compute)
                        runCompute(program.computes[in.compute], workspace);
                } catch (const std::exception& e) {
                    failed = true;
                    std::lock_guard lock(failureMutex);
                    if (timing.failure.empty()) timing.failure = e.what();
                }
            }
            if (timestamps)
                clocks[core].end(k);
        }
        ends[core] = nowNs();
    };

    CoreWorkers::shared().run(static_cast<std::size_t>(cores), worker);

    const std::int64_t start = begins.empty() ? 0 : *std::min_element(begins.begin(), begins.end());
    for (std::int64_t end : ends) timing.totalNs = std::max(timing.totalNs, end - start);
    if (timestamps)
        for (std::size_t core = 0; core < clocks.size(); ++core)
            for (std::size_t k = 0; k < program.streams[core].size(); ++k) {
                const std::uint32_t id = program.streams[core][k];
                timing.startNs[id] = clocks[core].startOf(k) - start;
                timing.endNs[id] = clocks[core].endOf(k) - start;
            }
    return timing;
}

} // namespace strata::runtime

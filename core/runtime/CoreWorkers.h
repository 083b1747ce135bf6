#pragma once
// The threads that run a program's streams, one per core, each pinned to its CPU (where the OS
// allows), kept from one run to the next. Created for every run, two threads cost ~0.1 ms to
// start, pin and join: on a small model's run that is a tenth of its time, and over the 4,000
// passes of a calibration half a second.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>

namespace strata::runtime {

class CoreWorkers {
  public:
    // The process's workers. Never destroyed: a run still going when the process exits (the
    // app's background work) must not find them gone.
    static CoreWorkers& shared();

    // Runs job(core) on workers 0..cores-1 at once and returns when every one has. One run at
    // a time: a second caller waits for the first (two programs sharing cores would measure
    // each other). `job` must not throw.
    void run(std::size_t cores, const std::function<void(std::size_t)>& job);

  private:
    CoreWorkers() = default;
    void grow(std::size_t cores); // under m_runMutex
    void work(std::size_t index);

    std::mutex m_runMutex; // one run at a time
    std::mutex m_mutex;    // what follows
    std::condition_variable m_wake, m_done;
    const std::function<void(std::size_t)>* m_job = nullptr;
    std::size_t m_active = 0;    // workers taking part in the current run
    std::size_t m_remaining = 0; // of them, still running it
    std::uint64_t m_generation = 0;
    std::size_t m_workers = 0; // started so far
};

} // namespace strata::runtime

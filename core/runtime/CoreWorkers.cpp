#include "runtime/CoreWorkers.h"

#include <algorithm>
#include <pthread.h>
#include <sched.h>
#include <thread>

namespace strata::runtime {
namespace {

// Best effort: a container or a busy machine may refuse, and the run is still correct.
void pinToCpu(std::thread& thread, std::size_t core) {
    const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(static_cast<int>(core % cpus), &set);
    (void)pthread_setaffinity_np(thread.native_handle(), sizeof(set), &set);
}

} // namespace

CoreWorkers& CoreWorkers::shared() {
    static CoreWorkers* workers = new CoreWorkers; // never destroyed (CoreWorkers.h says why)
    return *workers;
}

void CoreWorkers::grow(std::size_t cores) {
    for (; m_workers < cores; ++m_workers) {
        std::thread worker([this, index = m_workers] { work(index); });
        pinToCpu(worker, m_workers);
        worker.detach(); // kept for the process's life
    }
}

void CoreWorkers::run(std::size_t cores, const std::function<void(std::size_t)>& job) {
    if (cores == 0)
        return;
    std::lock_guard one(m_runMutex);
    grow(cores);
    std::unique_lock lock(m_mutex);
    m_job = &job;
    m_active = cores;
    m_remaining = cores;
    ++m_generation;
    m_wake.notify_all();
    m_done.wait(lock, [this] { return m_remaining == 0; });
    m_job = nullptr;
}

void CoreWorkers::work(std::size_t index) {
    std::uint64_t seen = 0;
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_generation != seen; });
        seen = m_generation;
        if (index >= m_active)
            continue; // not in this run
        const auto* job = m_job;
        lock.unlock();
        (*job)(index);
        lock.lock();
        if (--m_remaining == 0)
            m_done.notify_one();
    }
}

} // namespace strata::runtime

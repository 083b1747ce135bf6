#pragma once
// Runs a prepared program once: one worker thread per core (CoreWorkers.h: pinned to a CPU where
// the OS allows, kept between runs), each issuing its stream in order; transfers are copies done by
// the issuing thread, computes run their kernels, barriers are one reusable SpinBarrier. Timestamps
// come from std::chrono::steady_clock, in nanoseconds from the moment every worker was ready.

#include "runtime/ComputeKernels.h"
#include "runtime/Prepared.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata::runtime {

class CacheChurn;

struct Timing {
    std::vector<std::int64_t> startNs, endNs; // per instruction id; empty without timestamps
    std::int64_t totalNs = 0;                 // ready to the last worker's end
    std::string failure;                      // a kernel threw (out of memory); empty when fine
};

// `workspaces` holds one per core and persists across runs (their buffers are reused). With
// `churn`, each worker first writes its buffer (CacheChurn::writeFrom), before the clock starts.
Timing execute(const PreparedProgram& program, bool timestamps, std::vector<Workspace>& workspaces,
               CacheChurn* churn = nullptr);

} // namespace strata::runtime

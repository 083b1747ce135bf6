#pragma once
// How fast this machine runs computes now, against when it was calibrated. A virtual machine's
// speed moves: on the development host every cycle figure of five calibrations in a row agreed
// within 3%, and calibrations an hour apart differed by a third (the convolution figure 26 and 35
// MAC/cycle, the gap between instructions 33 and 25 ns), while the zoo's measured times moved 5%
// (docs/ACCURACY.md, "The machine's speed"). A prediction made with a calibration from another
// spell is off by as much, whatever the emulator's model. The speed check: a short fixed workload
// (a CNN's 3x3 convolution and a matrix product, on every core) timed when calibrating and again
// when measuring; the ratio says how much of an error is the machine. It runs on one core and on
// every core: a virtual machine can lose much of one CPU to another tenant, which slows a
// schedule on two cores and not one on one (accuracy, 2026-11-28: ResNet-18's schedules on two
// cores took as long as on one, the check on two cores took 1.63x its calibrated time).

#include "base/Expected.h"
#include "flow/Flow.h"
#include "ir/Graph.h"
#include "reference/Tensor.h"
#include "schedule/Schedule.h"
#include "target/Target.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace strata::calibrate {

// The check's time per core count it ran on (1 and every core), ns: target::SpeedCheckTimes.
using SpeedTimes = target::SpeedCheckTimes;

// The speed check's programs, compiled once for one host, run as often as asked.
class SpeedCheck {
  public:
    // Errors: a program does not compile for `host`.
    static Expected<SpeedCheck> prepare(const target::Target& host);

    // One run of every program on each core count (a warm-up pass and a measured one, the faster
    // kept): per core count, their computes' durations summed. Errors: a run failed.
    Expected<SpeedTimes> measure() const;

  private:
    struct Check {
        std::shared_ptr<const ir::Graph> graph;
        int cores = 1;
        schedule::Schedule schedule;
        flow::Result compiled;
        std::vector<reference::Tensor> inputs;
    };
    std::shared_ptr<const target::Target> m_host;
    std::vector<std::shared_ptr<Check>> m_checks;
};

// Per core count, the median of several checks' times (one caught by a preemption does not
// decide).
SpeedTimes medianTimes(const std::vector<SpeedTimes>& checks);

// This machine's speed now against calibration's for a schedule on `cores` cores: the ratio of
// the check's times (calibrated / now, above 1 when faster now) on the most cores not above
// `cores`; 0 when either lacks it.
double speedRatio(const SpeedTimes& calibrated, const SpeedTimes& now, int cores);

// Past this change either way a prediction is off by about as much for the machine alone. The
// check's own scatter: three calibrations within 30 s timed it 1.90-2.09 ms on two cores (10%),
// six over two hours 1.70-2.09 ms on one core or two; a margin above that (the 15%), not
// a fitted figure.
inline constexpr double kSpeedChange = 0.15;

// The speed per core count in words: "1.02x on one core, 0.61x on 2 cores".
std::string speedText(const SpeedTimes& calibrated, const SpeedTimes& now);

// What to tell a user when the speed on some core count is further from 1 than kSpeedChange
// `when` ("while this model's runs were measured"), ending with `consequence`; empty otherwise.
std::string speedChangeWarning(const SpeedTimes& calibrated, const SpeedTimes& now,
                               std::string_view when, std::string_view consequence);

// What to tell a user when the checks timed before calibration's rounds spread by more than
// kSpeedChange on some core count (the slowest over the fastest; of kChecksForSpread checks or
// more, the second slowest over the second fastest), ending with `consequence`; empty otherwise.
// The figures then mix the machine's speeds. Why it matters: on the EPYC VM of 2026-11-29 two
// calibrations 13 minutes apart (whose rounds' checks were not kept) priced the zoo's computes at
// 0.89 and 1.04 of their measured times.
inline constexpr std::size_t kChecksForSpread = 5;
std::string unsteadySpeedWarning(const std::vector<SpeedTimes>& checks,
                                 std::string_view consequence);

} // namespace strata::calibrate

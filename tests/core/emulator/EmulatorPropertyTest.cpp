// Properties every emulated timeline must have, over the bundled samples compiled for every
// preset and over randomised small programs on the tiny target:
//  - the total time is never below the busiest resource instance's work (its bytes over its
//    bandwidth), nor below any core's compute time;
//  - more bandwidth never makes a program slower;
//  - the same input always gives the same trace.

#include "EmulatorFixtures.h"
#include "compiler/Pipeline.h"
#include "emulator/ComputeCost.h"
#include "emulator/Contention.h"
#include "emulator/Emulator.h"
#include "model/OnnxImporter.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"
#include "trace/TraceJson.h"

#include <gtest/gtest.h>

#include <random>

namespace strata::emulator {
namespace {

struct Case {
    std::string name;
    std::shared_ptr<const ir::Graph> graph; // null for the tiny graph
    target::Target target;
    compiler::Program program;
    const ir::Graph& model() const { return graph ? *graph : test::tinyGraph(); }
};

std::vector<Case> sampleCases() {
    std::vector<Case> cases;
    for (const char* sample : {"mobilenet_tiny.onnx", "resnet_tiny.onnx", "transformer_block.onnx"}) {
        auto imported = model::importOnnxFile(std::string(STRATA_SAMPLES_DIR) + "/" + sample);
        EXPECT_TRUE(imported.ok()) << sample;
        if (!imported) continue;
        for (const char* preset : {"mncore2", "mlu100", "host"}) {
            auto target = target::resolveTarget(preset);
            EXPECT_TRUE(target.ok()) << preset;
            if (!target) continue;
            auto s = schedule::makeSchedule(*imported->graph, *target, schedule::Strategy::Rules);
            auto compiled = compiler::compile(*imported->graph, *target, s);
            EXPECT_TRUE(compiled.ok()) << sample << " on " << preset;
            if (!compiled) continue;
            cases.push_back({std::string(sample) + "/" + preset, imported->graph, *target, std::move(compiled->program)});
        }
    }
    return cases;
}

// Two cores, a random mix of transfers on every path, computes, waits on the oldest transfer
// in flight, and barriers; everything waited by the end.
compiler::Program randomProgram(std::uint32_t seed) {
    std::mt19937 random(seed);
    test::ProgramBuilder b(2);
    const char* paths[] = {"load", "store", "aux", "bcast"};
    std::vector<std::vector<int>> outstanding(2);
    std::vector<int> nextTag(2, 0);
    auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(random); };
    const int steps = 10 + pick(30);
    for (int step = 0; step < steps; ++step) {
        const int core = pick(2);
        auto& pending = outstanding[static_cast<std::size_t>(core)];
        switch (pick(7)) {
        case 0:
        case 1:
        case 2:
            b.transfer(core, paths[pick(4)], static_cast<std::uint64_t>(pick(8000)), nextTag[static_cast<std::size_t>(core)]);
            pending.push_back(nextTag[static_cast<std::size_t>(core)]++);
            break;
        case 3:
        case 4:
            b.conv(core, pick(500));
            break;
        case 5:
            if (!pending.empty()) {
                b.wait(core, pending.front());
                pending.erase(pending.begin());
            }
            break;
        case 6:
            if (pick(3) == 0) {
                for (int c = 0; c < 2; ++c)
                    for (int tag : outstanding[static_cast<std::size_t>(c)]) b.wait(c, tag);
                outstanding[0].clear();
                outstanding[1].clear();
                b.barrier();
            }
            break;
        }
    }
    for (int c = 0; c < 2; ++c)
        for (int tag : outstanding[static_cast<std::size_t>(c)]) b.wait(c, tag);
    return b.program();
}

std::vector<Case> randomCases() {
    std::vector<Case> cases;
    for (std::uint32_t seed = 1; seed <= 200; ++seed)
        cases.push_back({"random seed " + std::to_string(seed), nullptr, test::tinyTarget(), randomProgram(seed)});
    return cases;
}

double totalCycles(const Case& c) {
    auto trace = emulate(c.program, c.target, c.model(), {.counters = false});
    EXPECT_TRUE(trace.ok()) << c.name << ": " << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() ? double(trace->endPs()) * c.target.clockHz * 1e-12 : 0;
}

// The least time any schedule of the program's transfers and computes could take.
double lowerBoundCycles(const Case& c) {
    Contention contention(c.target);
    std::vector<double> work(contention.capacities().size(), 0);
    std::vector<double> compute(static_cast<std::size_t>(c.program.cores), 0);
    double longestTransfer = 0;
    for (const compiler::Instruction& in : c.program.instructions) {
        if (const auto* t = std::get_if<compiler::Transfer>(&in.body)) {
            const target::TransferPath* path = c.target.findPath(t->path);
            const auto p = static_cast<std::size_t>(path - c.target.paths.data());
            for (const ResourceUse& u : contention.route(p, in.core)) work[u.instance] += double(t->bytes) * u.weight;
            longestTransfer = std::max(longestTransfer, path->latencyCycles + double(t->bytes) / path->bytesPerCycle);
        } else if (const auto* k = std::get_if<compiler::Compute>(&in.body)) {
            const ir::OpClass opClass = in.from.op.valid() ? c.model().op(in.from.op).opClass : ir::OpClass::Other;
            compute[static_cast<std::size_t>(in.core)] += computeCycles(*k, opClass, c.target);
        }
    }
    double bound = longestTransfer;
    for (std::size_t i = 0; i < work.size(); ++i) bound = std::max(bound, work[i] / contention.capacities()[i]);
    for (double busy : compute) bound = std::max(bound, busy);
    return bound;
}

target::Target withMoreBandwidth(target::Target t, double factor) {
    for (auto& r : t.resources) r.bytesPerCycle *= factor;
    for (auto& p : t.paths) p.bytesPerCycle *= factor;
    return t;
}

void expectNeverBelowBusiestResource(const std::vector<Case>& cases) {
    for (const Case& c : cases) {
        const double total = totalCycles(c);
        EXPECT_GE(total * (1 + 1e-9), lowerBoundCycles(c)) << c.name;
    }
}

void expectMoreBandwidthNeverSlower(const std::vector<Case>& cases) {
    for (Case c : cases) {
        const double before = totalCycles(c);
        c.target = withMoreBandwidth(c.target, 2);
        EXPECT_LE(totalCycles(c), before * (1 + 1e-9)) << c.name;
    }
}

TEST(EmulatorProperties, SamplesNeverBeatTheBusiestResource) { expectNeverBelowBusiestResource(sampleCases()); }
TEST(EmulatorProperties, RandomProgramsNeverBeatTheBusiestResource) { expectNeverBelowBusiestResource(randomCases()); }
TEST(EmulatorProperties, SamplesAreNeverSlowerWithMoreBandwidth) { expectMoreBandwidthNeverSlower(sampleCases()); }
TEST(EmulatorProperties, RandomProgramsAreNeverSlowerWithMoreBandwidth) { expectMoreBandwidthNeverSlower(randomCases()); }

TEST(EmulatorProperties, SameInputSameTrace) {
    for (const Case& c : sampleCases()) {
        auto first = emulate(c.program, c.target, c.model());
        auto second = emulate(c.program, c.target, c.model());
        ASSERT_TRUE(first.ok() && second.ok()) << c.name;
        EXPECT_TRUE(*first == *second) << c.name;
        EXPECT_EQ(trace::traceToJson(*first), trace::traceToJson(*second)) << c.name;
    }
}

TEST(EmulatorProperties, EveryEventIsTimedAndOrdered) {
    for (const Case& c : sampleCases()) {
        auto t = emulate(c.program, c.target, c.model());
        ASSERT_TRUE(t.ok()) << c.name;
        ASSERT_EQ(t->events.size(), c.program.instructions.size());
        for (const auto& stream : c.program.streams) {
            std::int64_t previousStart = 0;
            for (compiler::InstrId id : stream) {
                const trace::Event& e = t->events[id];
                EXPECT_GE(e.endPs, e.startPs) << c.name << " i" << id;
                EXPECT_GE(e.startPs, previousStart) << c.name << " i" << id << ": issued before its predecessor";
                previousStart = e.startPs;
            }
        }
    }
}

} // namespace
} // namespace strata::emulator

// libFuzzer target: a schedule file parsed against a real model, validated and, when valid,
// analysed and checked against the resource budget (what the CLI does before compiling).

#include "model/OnnxImporter.h"
#include "schedule/Analysis.h"
#include "schedule/ResourceBudget.h"
#include "schedule/ScheduleJson.h"
#include "schedule/Validate.h"
#include "target/TargetLoader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

struct Fixture {
    std::shared_ptr<const strata::ir::Graph> graph;
    strata::target::Target target;
};

const Fixture& fixture() {
    static const Fixture f = [] {
        Fixture made;
        auto imported = strata::model::importOnnxFile(STRATA_SAMPLES_DIR "/resnet_tiny.onnx");
        auto target = strata::target::resolveTarget("mncore2");
        if (!imported || !target)
            std::abort(); // the fixture itself is broken
        made.graph = imported->graph;
        made.target = *target;
        return made;
    }();
    return f;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const Fixture& f = fixture();
    auto parsed = strata::schedule::parseSchedule(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json", *f.graph);
    if (!parsed)
        return 0;
    if (strata::hasErrors(strata::schedule::validate(*parsed, *f.graph, f.target)))
        return 0;
    (void)strata::schedule::checkResourceBudget(*parsed, *f.graph, f.target);
    return 0;
}

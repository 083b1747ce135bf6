// libFuzzer target: a project file parsed, checked for containment and written back.

#include "project/Containment.h"
#include "project/Project.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string file = "/fuzz/project/session.strata";
    auto project = strata::project::parseProject(
        std::string_view(reinterpret_cast<const char*>(data), size), file);
    if (!project)
        return 0;
    (void)strata::project::checkContainment(*project, file);
    (void)strata::project::projectToJson(*project, "/fuzz/project");
    return 0;
}

#include "target/CalibratedHost.h"

#include <cstdlib>
#include <filesystem>

namespace strata::target {

std::string defaultCalibratedHostFile() {
    std::filesystem::path config;
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        config = xdg;
    else if (const char* home = std::getenv("HOME"); home && *home)
        config = std::filesystem::path(home) / ".config";
    else
        return {};
    return (config / "strata" / "host.calibrated.json").string();
}

ResolveOptions userResolveOptions() {
    ResolveOptions options;
    options.calibratedHostFile = defaultCalibratedHostFile();
    return options;
}

} // namespace strata::target

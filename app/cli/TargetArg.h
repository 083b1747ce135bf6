#pragma once
// --target: a preset name or a target file.

#include "target/Target.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace strata::cli {

void addTargetOption(CLI::App* cmd, std::string& target);

// The resolved target, or nullopt after printing why not. Warnings go to stderr unless quiet.
std::optional<target::Target> loadTarget(const std::string& presetOrPath, bool quiet);

} // namespace strata::cli

#pragma once
// The target presets: resources/targets/*.json, embedded in the binary at build time so an
// installed strata-cli needs no resource folder.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::target {

// "mncore2", "mlu100", "host", in that order.
std::vector<std::string> presetNames();

// The embedded JSON text of a preset, or nothing for an unknown name.
std::optional<std::string_view> presetJson(std::string_view name);

} // namespace strata::target

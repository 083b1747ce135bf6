#include "target/Presets.h"

#include "target/PresetData.h"

namespace strata::target {

std::vector<std::string> presetNames() {
    std::vector<std::string> names;
    for (const detail::EmbeddedPreset& preset : detail::embeddedPresets())
        names.emplace_back(preset.name);
    return names;
}

std::optional<std::string_view> presetJson(std::string_view name) {
    for (const detail::EmbeddedPreset& preset : detail::embeddedPresets())
        if (preset.name == name) return preset.json;
    return std::nullopt;
}

} // namespace strata::target

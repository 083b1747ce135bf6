#include "schedule/ScheduleJson.h"

#include "base/JsonReader.h"
#include "base/SafeFiles.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace strata::schedule {

using Json = nlohmann::json;

std::string scheduleToJson(const Schedule& schedule, const ir::Graph& graph) {
    Json blocks = Json::array();
    for (const Block& b : schedule.blocks) {
        Json ops = Json::array();
        for (ir::OpId op : b.ops) ops.push_back(graph.op(op).name);
        Json tile = b.tile.isAuto() ? Json("auto") : Json(*b.tile.extents);
        blocks.push_back({{"id", b.id}, {"ops", ops}, {"mp", b.mp}, {"tile", tile}, {"buffering", b.buffering}});
    }
    Json doc = {{"strata_schedule", kScheduleSchemaVersion},
                {"model", {{"name", schedule.modelName}, {"content_hash", schedule.modelHash}}},
                {"target", schedule.targetName},
                {"strategy", schedule.strategy},
                {"blocks", blocks}};
    return doc.dump(2) + "\n";
}

namespace {

// "auto" (or absent) or an array of positive integers.
std::optional<TileSpec> readTile(const Json& block, json::FieldReader& r) {
    auto it = block.find("tile");
    if (it == block.end() || *it == "auto") return TileSpec{};
    if (!it->is_array()) {
        r.error("tile", "expected \"auto\" or an array of extents, got " + it->dump());
        return std::nullopt;
    }
    ir::Shape extents;
    for (std::size_t i = 0; i < it->size(); ++i) {
        const Json& e = (*it)[i];
        if (!e.is_number_integer() || e.get<std::int64_t>() < 1) {
            r.error("tile", "extent " + std::to_string(i) + " must be a positive integer, got " + e.dump());
            return std::nullopt;
        }
        extents.push_back(e.get<std::int64_t>());
    }
    return TileSpec{std::move(extents)};
}

} // namespace

static Expected<Schedule> scheduleFromDocument(const Json& doc, const std::string& file, const ir::Graph& graph) {
    std::vector<Diagnostic> diags;
    json::FieldReader root(doc, "", file, diags);
    if (!root.isObject()) return diags;

    auto version = root.integer("strata_schedule");
    if (!version) return diags; // not a schedule at all: say only that
    if (*version > kScheduleSchemaVersion) {
        root.error("strata_schedule", "written by a newer Strata (schedule schema " + std::to_string(*version) +
                                          ", this build reads " + std::to_string(kScheduleSchemaVersion) + ")");
        return diags;
    }
    if (*version < 1) root.error("strata_schedule", "schema version must be at least 1");
    root.warnUnknownKeys({"strata_schedule", "model", "target", "strategy", "blocks"});

    Schedule s;
    json::FieldReader model = root.object("model");
    s.modelName = model.stringOr("name", "");
    if (auto hash = model.string("content_hash")) {
        s.modelHash = *hash;
        if (!graph.contentHash.empty() && *hash != graph.contentHash)
            model.error("content_hash", "schedule was made for another model (content hash " + *hash +
                                            ", model '" + graph.name + "' has " + graph.contentHash + ")");
    }
    s.targetName = root.stringOr("target", "");
    s.strategy = root.stringOr("strategy", "");

    const Json* blocks = root.array("blocks");
    if (blocks)
        for (std::size_t i = 0; i < blocks->size(); ++i) {
            json::FieldReader r = root.element(*blocks, i, "blocks");
            if (!r.isObject()) continue;
            r.warnUnknownKeys({"id", "ops", "mp", "tile", "buffering"});
            Block b;
            auto id = r.integer("id");
            if (id && (*id < 0 || *id > 1'000'000)) r.error("id", "block id must be within 0..1000000");
            b.id = id ? static_cast<int>(std::clamp<std::int64_t>(*id, 0, 1'000'000)) : static_cast<int>(i);
            auto mp = r.integer("mp");
            // Knobs within int are kept as they are so validate() names a bad one; beyond int
            // they are reported here with the value as written (not as int's limit).
            auto toInt = [&r](std::string_view key, std::int64_t v) {
                if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
                    r.error(key, "out of range, got " + std::to_string(v));
                return static_cast<int>(std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(),
                                                                  std::numeric_limits<int>::max()));
            };
            b.mp = mp ? toInt("mp", *mp) : 1;
            b.buffering = toInt("buffering", r.integerOr("buffering", 1));
            if (auto tile = readTile((*blocks)[i], r)) b.tile = std::move(*tile);
            if (const Json* ops = r.array("ops")) {
                for (std::size_t k = 0; k < ops->size(); ++k) {
                    const Json& name = (*ops)[k];
                    std::string field = r.fieldPath("ops") + "[" + std::to_string(k) + "]";
                    if (!name.is_string()) {
                        diags.push_back(error("expected an op name, got " + json::describeType(name),
                                              Location{.file = file, .field = field}));
                        continue;
                    }
                    auto op = graph.findOp(name.get<std::string>());
                    if (!op) {
                        diags.push_back(error("model '" + graph.name + "' has no op named '" +
                                                  name.get<std::string>() + "'",
                                              Location{.file = file, .node = name.get<std::string>(), .field = field}));
                        continue;
                    }
                    b.ops.push_back(*op);
                }
                std::sort(b.ops.begin(), b.ops.end());
            }
            s.blocks.push_back(std::move(b));
        }
    if (hasErrors(diags)) return diags;
    return s;
}

Expected<Schedule> parseSchedule(std::string_view text, const std::string& file, const ir::Graph& graph) {
    auto doc = json::parseDocument(text, file);
    if (!doc) return doc.takeDiagnostics();
    return scheduleFromDocument(*doc, file, graph);
}

Expected<Schedule> loadScheduleFile(const std::string& path, const ir::Graph& graph) {
    auto doc = json::readDocument(path);
    if (!doc) return doc.takeDiagnostics();
    return scheduleFromDocument(*doc, path, graph);
}

std::vector<Diagnostic> saveScheduleFile(const std::string& path, const Schedule& schedule, const ir::Graph& graph) {
    if (auto failed = writeFileAtomically(path, scheduleToJson(schedule, graph)))
        return {*failed};
    return {};
}

} // namespace strata::schedule

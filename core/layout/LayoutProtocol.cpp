#include "layout/LayoutProtocol.h"

#include "base/JsonReader.h"

#include <cmath>
#include <optional>

namespace strata::layout {

namespace {

using Json = nlohmann::json;
using strata::json::FieldReader;

const std::string kRequestSource = "<layout request>";
const std::string kReplySource = "<strata-layout output>";

std::optional<NodeKind> parseKind(std::string_view name) {
    for (NodeKind kind : {NodeKind::Op, NodeKind::Block, NodeKind::Input, NodeKind::Output})
        if (nodeKindName(kind) == name)
            return kind;
    return std::nullopt;
}

Json rectJson(const Rect& r) {
    return Json::array({r.x, r.y, r.width, r.height});
}

// A [x, y, width, height] array of finite numbers with a non-negative size.
std::optional<Rect> readRect(FieldReader& reader, std::string_view key) {
    const Json* array = reader.array(key);
    if (!array)
        return std::nullopt;
    if (array->size() != 4) {
        reader.error(key, "expected [x, y, width, height]");
        return std::nullopt;
    }
    double v[4];
    for (std::size_t i = 0; i < 4; ++i) {
        if (!(*array)[i].is_number() || !std::isfinite((*array)[i].get<double>())) {
            reader.error(key, "expected finite numbers");
            return std::nullopt;
        }
        v[i] = (*array)[i].get<double>();
    }
    if (v[2] < 0 || v[3] < 0) {
        reader.error(key, "width and height must not be negative");
        return std::nullopt;
    }
    return Rect{v[0], v[1], v[2], v[3]};
}

std::optional<std::uint32_t> readIndex(FieldReader& reader, std::string_view key) {
    const auto value = reader.integer(key);
    if (!value)
        return std::nullopt;
    if (*value < 0 || *value > std::int64_t{UINT32_MAX}) {
        reader.error(key, "out of range");
        return std::nullopt;
    }
    return static_cast<std::uint32_t>(*value);
}

std::optional<int> readBlock(FieldReader& reader, std::string_view key) {
    const auto value = reader.integerOr(key, -1);
    if (value < -1 || value > std::int64_t{INT32_MAX}) {
        reader.error(key, "out of range");
        return std::nullopt;
    }
    return static_cast<int>(value);
}

std::optional<NodeRef> readRef(FieldReader& reader) {
    const auto kindName = reader.string("kind");
    const auto id = readIndex(reader, "id");
    if (!kindName || !id)
        return std::nullopt;
    const auto kind = parseKind(*kindName);
    if (!kind) {
        reader.error("kind", "unknown node kind '" + *kindName + "'");
        return std::nullopt;
    }
    return NodeRef{*kind, *id};
}

// Checks the envelope shared by requests and replies.
bool checkVersion(FieldReader& root) {
    const auto version = root.integer("strata_layout");
    if (!version)
        return false;
    if (*version != kProtocolVersion) {
        root.error("strata_layout", "protocol version " + std::to_string(*version) + ", expected " +
                                        std::to_string(kProtocolVersion));
        return false;
    }
    return true;
}

Json diagnosticJson(const Diagnostic& d) {
    Json where = Json::object();
    if (!d.where.file.empty())
        where["file"] = d.where.file;
    if (d.where.offset)
        where["offset"] = *d.where.offset;
    if (!d.where.node.empty())
        where["node"] = d.where.node;
    if (!d.where.value.empty())
        where["value"] = d.where.value;
    if (!d.where.block.empty())
        where["block"] = d.where.block;
    if (!d.where.field.empty())
        where["field"] = d.where.field;
    return {{"severity", severityName(d.severity)}, {"message", d.message}, {"where", where}};
}

std::optional<Diagnostic> readDiagnostic(FieldReader& reader) {
    const auto severity = reader.string("severity");
    const auto message = reader.string("message");
    if (!severity || !message)
        return std::nullopt;
    Diagnostic d{Severity::Error, *message, {}};
    if (*severity == severityName(Severity::Warning))
        d.severity = Severity::Warning;
    else if (*severity == severityName(Severity::Note))
        d.severity = Severity::Note;
    if (reader.has("where")) {
        FieldReader where = reader.object("where");
        d.where.file = where.stringOr("file", "");
        d.where.node = where.stringOr("node", "");
        d.where.value = where.stringOr("value", "");
        d.where.block = where.stringOr("block", "");
        d.where.field = where.stringOr("field", "");
        if (where.has("offset")) {
            const auto offset = where.integer("offset");
            if (offset && *offset >= 0)
                d.where.offset = static_cast<std::uint64_t>(*offset);
        }
    }
    return d;
}

std::vector<Diagnostic> readDiagnostics(FieldReader& root, std::string_view key) {
    std::vector<Diagnostic> out;
    const Json* array = root.optionalArray(key);
    if (!array)
        return out;
    for (std::size_t i = 0; i < array->size(); ++i) {
        FieldReader item = root.element(*array, i, key);
        if (auto d = readDiagnostic(item))
            out.push_back(std::move(*d));
    }
    return out;
}

// A Bézier curve as a flat [x0, y0, x1, y1, ...] array: 3k+1 finite points.
std::optional<std::vector<Point>> readCurve(FieldReader& reader) {
    const Json* array = reader.array("points");
    if (!array)
        return std::nullopt;
    const std::size_t n = array->size();
    if (n % 2 != 0 || n / 2 < 4 || (n / 2 - 1) % 3 != 0) {
        reader.error("points", "expected 3k+1 points (k >= 1) as x, y pairs");
        return std::nullopt;
    }
    std::vector<Point> points;
    points.reserve(n / 2);
    for (std::size_t i = 0; i < n; i += 2) {
        const Json& x = (*array)[i];
        const Json& y = (*array)[i + 1];
        if (!x.is_number() || !y.is_number() || !std::isfinite(x.get<double>()) ||
            !std::isfinite(y.get<double>())) {
            reader.error("points", "expected finite numbers");
            return std::nullopt;
        }
        points.push_back({x.get<double>(), y.get<double>()});
    }
    return points;
}

} // namespace

std::string encodeRequest(const LayoutRequest& request) {
    Json nodes = Json::array();
    for (const auto& node : request.nodes)
        nodes.push_back({{"kind", nodeKindName(node.ref.kind)},
                         {"id", node.ref.id},
                         {"width", node.width},
                         {"height", node.height},
                         {"cluster", node.cluster}});
    Json edges = Json::array();
    for (const auto& edge : request.edges)
        edges.push_back({{"from", edge.from},
                         {"to", edge.to},
                         {"value", edge.value.index},
                         {"value_count", edge.valueCount}});
    Json clusters = Json::array();
    for (const auto& cluster : request.clusters)
        clusters.push_back({{"block", cluster.block},
                            {"label_width", cluster.labelWidth},
                            {"label_height", cluster.labelHeight}});
    const Json document = {{"strata_layout", kProtocolVersion}, {"node_sep", request.nodeSep},
                           {"rank_sep", request.rankSep},       {"nodes", std::move(nodes)},
                           {"edges", std::move(edges)},         {"clusters", std::move(clusters)}};
    return document.dump();
}

Expected<LayoutRequest> decodeRequest(std::string_view text) {
    auto document = strata::json::parseDocument(text, kRequestSource);
    if (!document)
        return document.takeDiagnostics();
    std::vector<Diagnostic> problems;
    FieldReader root(*document, "", kRequestSource, problems);
    if (!checkVersion(root))
        return problems;

    LayoutRequest request;
    request.nodeSep = root.numberOr("node_sep", request.nodeSep);
    request.rankSep = root.numberOr("rank_sep", request.rankSep);
    if (const Json* nodes = root.array("nodes")) {
        for (std::size_t i = 0; i < nodes->size(); ++i) {
            FieldReader item = root.element(*nodes, i, "nodes");
            const auto ref = readRef(item);
            const auto width = item.number("width");
            const auto height = item.number("height");
            const auto cluster = readBlock(item, "cluster");
            if (ref && width && height && cluster)
                request.nodes.push_back({*ref, *width, *height, *cluster});
        }
    }
    if (const Json* edges = root.array("edges")) {
        for (std::size_t i = 0; i < edges->size(); ++i) {
            FieldReader item = root.element(*edges, i, "edges");
            const auto from = readIndex(item, "from");
            const auto to = readIndex(item, "to");
            const auto value = readIndex(item, "value");
            const auto count = item.integerOr("value_count", 1);
            if (from && to && value)
                request.edges.push_back({*from, *to, ir::ValueId(*value),
                                         static_cast<std::uint32_t>(std::max<std::int64_t>(
                                             1, std::min<std::int64_t>(count, UINT32_MAX)))});
        }
    }
    if (const Json* clusters = root.array("clusters")) {
        for (std::size_t i = 0; i < clusters->size(); ++i) {
            FieldReader item = root.element(*clusters, i, "clusters");
            const auto block = readBlock(item, "block");
            const auto width = item.number("label_width");
            const auto height = item.number("label_height");
            if (block && width && height)
                request.clusters.push_back({*block, *width, *height});
        }
    }
    if (!problems.empty())
        return problems;
    if (auto invalid = validateRequest(request); !invalid.empty())
        return invalid;
    return request;
}

std::string encodeLayout(const Expected<GraphLayout>& result) {
    Json document = {{"strata_layout", kProtocolVersion}, {"ok", result.ok()}};
    if (!result.ok()) {
        Json diagnostics = Json::array();
        for (const Diagnostic& d : result.diagnostics())
            diagnostics.push_back(diagnosticJson(d));
        document["diagnostics"] = std::move(diagnostics);
        return document.dump();
    }
    const GraphLayout& layout = *result;
    Json nodes = Json::array();
    for (const auto& node : layout.nodes)
        nodes.push_back({{"kind", nodeKindName(node.ref.kind)},
                         {"id", node.ref.id},
                         {"box", rectJson(node.box)},
                         {"cluster", node.cluster}});
    Json edges = Json::array();
    for (const auto& edge : layout.edges) {
        Json points = Json::array();
        for (const Point& p : edge.points) {
            points.push_back(p.x);
            points.push_back(p.y);
        }
        edges.push_back({{"from", edge.from},
                         {"to", edge.to},
                         {"value", edge.value.index},
                         {"value_count", edge.valueCount},
                         {"points", std::move(points)}});
    }
    Json clusters = Json::array();
    for (const auto& cluster : layout.clusters)
        clusters.push_back({{"block", cluster.block},
                            {"box", rectJson(cluster.box)},
                            {"label", rectJson(cluster.label)}});
    Json warnings = Json::array();
    for (const Diagnostic& d : layout.warnings)
        warnings.push_back(diagnosticJson(d));
    document["bounds"] = rectJson(layout.bounds);
    document["nodes"] = std::move(nodes);
    document["edges"] = std::move(edges);
    document["clusters"] = std::move(clusters);
    document["warnings"] = std::move(warnings);
    return document.dump();
}

Expected<GraphLayout> decodeLayout(std::string_view text, const LayoutRequest& request) {
    auto document = strata::json::parseDocument(text, kReplySource);
    if (!document)
        return document.takeDiagnostics();
    std::vector<Diagnostic> problems;
    FieldReader root(*document, "", kReplySource, problems);
    if (!checkVersion(root))
        return problems;
    const auto ok = root.boolean("ok");
    if (!ok)
        return problems;
    if (!*ok) {
        auto diagnostics = readDiagnostics(root, "diagnostics");
        if (diagnostics.empty())
            diagnostics.push_back(error("the layout helper failed without saying why"));
        return diagnostics;
    }

    GraphLayout layout;
    if (auto bounds = readRect(root, "bounds"))
        layout.bounds = *bounds;
    if (const Json* nodes = root.array("nodes")) {
        if (nodes->size() != request.nodes.size())
            root.error("nodes", "has " + std::to_string(nodes->size()) + " nodes, the request " +
                                    std::to_string(request.nodes.size()));
        for (std::size_t i = 0; i < nodes->size() && i < request.nodes.size(); ++i) {
            FieldReader item = root.element(*nodes, i, "nodes");
            const auto ref = readRef(item);
            const auto box = readRect(item, "box");
            const auto cluster = readBlock(item, "cluster");
            if (!ref || !box || !cluster)
                continue;
            if (*ref != request.nodes[i].ref || *cluster != request.nodes[i].cluster)
                item.error("", "is not the node the request has at this index");
            layout.nodes.push_back({*ref, *box, *cluster});
        }
    }
    if (const Json* edges = root.array("edges")) {
        if (edges->size() != request.edges.size())
            root.error("edges", "has " + std::to_string(edges->size()) + " edges, the request " +
                                    std::to_string(request.edges.size()));
        for (std::size_t i = 0; i < edges->size() && i < request.edges.size(); ++i) {
            FieldReader item = root.element(*edges, i, "edges");
            const auto from = readIndex(item, "from");
            const auto to = readIndex(item, "to");
            auto points = readCurve(item);
            if (!from || !to || !points)
                continue;
            const auto& expected = request.edges[i];
            if (*from != expected.from || *to != expected.to)
                item.error("", "is not the edge the request has at this index");
            layout.edges.push_back({expected.from, expected.to, expected.value, expected.valueCount,
                                    std::move(*points)});
        }
    }
    if (const Json* clusters = root.array("clusters")) {
        if (clusters->size() != request.clusters.size())
            root.error("clusters", "has " + std::to_string(clusters->size()) +
                                       " clusters, the request " +
                                       std::to_string(request.clusters.size()));
        for (std::size_t i = 0; i < clusters->size() && i < request.clusters.size(); ++i) {
            FieldReader item = root.element(*clusters, i, "clusters");
            const auto block = readBlock(item, "block");
            const auto box = readRect(item, "box");
            const auto label = readRect(item, "label");
            if (!block || !box || !label)
                continue;
            if (*block != request.clusters[i].block)
                item.error("block", "is not the cluster the request has at this index");
            layout.clusters.push_back({*block, *box, *label});
        }
    }
    layout.warnings = readDiagnostics(root, "warnings");
    if (!problems.empty()) {
        problems.insert(problems.begin(), error("the layout helper's reply is malformed"));
        return problems;
    }
    return layout;
}

} // namespace strata::layout

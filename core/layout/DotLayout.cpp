#include "layout/DotLayout.h"

#include <cmath>
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>

namespace strata::layout {

namespace {

constexpr double kPointsPerInch = 72.0;

// Graphviz's error handler and symbol tables are process-wide, so the lock must be too. This is
// the one static in core/layout; it guards a C library's globals, not Strata state.
std::mutex& graphvizMutex() {
    static std::mutex mutex;
    return mutex;
}

// Messages Graphviz reports through agerr while a layout holds the mutex.
std::string* g_messages = nullptr;

int collectMessage(char* text) {
    if (g_messages && text)
        g_messages->append(text);
    return 0;
}

struct ContextDeleter {
    void operator()(GVC_t* gvc) const { gvFreeContext(gvc); }
};
struct GraphDeleter {
    void operator()(Agraph_t* graph) const { agclose(graph); }
};
using ContextPtr = std::unique_ptr<GVC_t, ContextDeleter>;
using GraphPtr = std::unique_ptr<Agraph_t, GraphDeleter>;

// Frees a layout's data before its graph is closed; declared after the graph it guards.
class LayoutGuard {
  public:
    LayoutGuard(GVC_t* gvc, Agraph_t* graph) : m_gvc(gvc), m_graph(graph) {}
    ~LayoutGuard() { gvFreeLayout(m_gvc, m_graph); }
    LayoutGuard(const LayoutGuard&) = delete;
    LayoutGuard& operator=(const LayoutGuard&) = delete;

  private:
    GVC_t* m_gvc;
    Agraph_t* m_graph;
};

// Installs the message collector for one layout and restores Graphviz's defaults after it.
class MessageCapture {
  public:
    explicit MessageCapture(std::string& sink) {
        g_messages = &sink;
        m_previous = agseterrf(collectMessage);
        m_previousLevel = agseterr(AGWARN);
        agreseterrors();
    }
    ~MessageCapture() {
        agseterrf(m_previous);
        agseterr(m_previousLevel);
        g_messages = nullptr;
    }
    MessageCapture(const MessageCapture&) = delete;
    MessageCapture& operator=(const MessageCapture&) = delete;

  private:
    agusererrf m_previous = nullptr;
    agerrlevel_t m_previousLevel = AGWARN;
};

// cgraph predates const: it takes char* for names and values it only reads.
char* cstr(const std::string& text) {
    return const_cast<char*>(text.c_str());
}

std::string inches(double points) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(6);
    out << points / kPointsPerInch;
    return out.str();
}

Agsym_t* declare(Agraph_t* graph, int kind, const std::string& name, const std::string& value) {
    return agattr(graph, kind, cstr(name), cstr(value));
}

// An empty HTML table of a fixed size: it reserves room for the badge that the graph view
// draws there, without asking Graphviz to measure any text.
std::string labelPlaceholder(double width, double height) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"0\" "
           "FIXEDSIZE=\"TRUE\" WIDTH=\""
        << std::lround(width) << "\" HEIGHT=\"" << std::lround(height)
        << "\"><TR><TD></TD></TR></TABLE>";
    return out.str();
}

std::vector<Diagnostic> messagesToDiagnostics(const std::string& messages, Severity severity) {
    std::vector<Diagnostic> out;
    std::istringstream lines(messages);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty())
            continue;
        out.push_back({severity, "graphviz: " + line, {}});
    }
    return out;
}

// Converts Graphviz's y-up coordinates (origin at the bounding box's lower left) to y-down
// coordinates with the origin at its upper left.
struct Flip {
    boxf bb;
    Point operator()(pointf p) const { return {p.x - bb.LL.x, bb.UR.y - p.y}; }
    Rect box(boxf b) const {
        return {b.LL.x - bb.LL.x, bb.UR.y - b.UR.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y};
    }
};

GraphLayout readLayout(const LayoutRequest& request, Agraph_t* graph,
                       const std::vector<Agnode_t*>& nodes, const std::vector<Agedge_t*>& edges,
                       const std::vector<Agraph_t*>& clusters) {
    const Flip flip{GD_bb(graph)};
    GraphLayout layout;
    layout.bounds = {0, 0, GD_bb(graph).UR.x - GD_bb(graph).LL.x,
                     GD_bb(graph).UR.y - GD_bb(graph).LL.y};

    layout.nodes.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Point centre = flip(ND_coord(nodes[i]));
        const double width = ND_width(nodes[i]) * kPointsPerInch;
        const double height = ND_height(nodes[i]) * kPointsPerInch;
        layout.nodes.push_back({request.nodes[i].ref,
                                {centre.x - width / 2, centre.y - height / 2, width, height},
                                request.nodes[i].cluster});
    }

    layout.edges.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto& in = request.edges[i];
        EdgeRoute route{in.from, in.to, in.value, in.valueCount, {}};
        const splines* spl = ED_spl(edges[i]);
        if (spl) {
            for (int b = 0; b < spl->size; ++b) {
                const bezier& curve = spl->list[b];
                // A second piece continues the first: skip its repeated start point.
                for (int p = route.points.empty() ? 0 : 1; p < curve.size; ++p)
                    route.points.push_back(flip(curve.list[p]));
            }
        }
        if (route.points.size() < 4 || (route.points.size() - 1) % 3 != 0) {
            // dot found no route (it says so in a warning): a straight line from the tail's
            // bottom to the head's top, as a degenerate cubic.
            const Rect& tail = layout.nodes[in.from].box;
            const Rect& head = layout.nodes[in.to].box;
            const Point a{tail.centre().x, tail.bottom()};
            const Point b{head.centre().x, head.y};
            route.points = {a, a, b, b};
        }
        layout.edges.push_back(std::move(route));
    }

    layout.clusters.reserve(clusters.size());
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        ClusterBox box{request.clusters[i].block, flip.box(GD_bb(clusters[i])), {}};
        box.label = {box.box.x, box.box.y, 0, 0};
        if (const textlabel_t* label = GD_label(clusters[i])) {
            const Point centre = flip(label->pos);
            box.label = {centre.x - label->dimen.x / 2, centre.y - label->dimen.y / 2,
                         label->dimen.x, label->dimen.y};
        }
        layout.clusters.push_back(box);
    }
    return layout;
}

} // namespace

Expected<GraphLayout> layoutWithDot(const LayoutRequest& request) {
    if (auto problems = validateRequest(request); !problems.empty())
        return problems;
    if (request.nodes.empty())
        return GraphLayout{};

    std::lock_guard lock(graphvizMutex());
    std::string messages;
    MessageCapture capture(messages);

    ContextPtr gvc(gvContext());
    if (!gvc)
        return error("graphviz: cannot create a context");
    GraphPtr graph(agopen(cstr("strata"), Agdirected, nullptr));
    if (!graph)
        return error("graphviz: cannot create a graph");
    Agraph_t* g = graph.get();

    declare(g, AGRAPH, "rankdir", "TB");
    declare(g, AGRAPH, "nodesep", inches(request.nodeSep));
    declare(g, AGRAPH, "ranksep", inches(request.rankSep));
    declare(g, AGRAPH, "splines", "spline");
    declare(g, AGRAPH, "labeljust", "l");
    declare(g, AGRAPH, "labelloc", "t");
    declare(g, AGRAPH, "margin", "0");
    // Crossing minimisation dominates dot's time on big graphs; fewer passes there keep a
    // layout of a few thousand nodes in seconds at a small cost in crossings.
    if (request.nodes.size() > 800)
        declare(g, AGRAPH, "mclimit", "0.3");
    Agsym_t* clusterLabel = declare(g, AGRAPH, "label", "");

    declare(g, AGNODE, "shape", "box");
    declare(g, AGNODE, "fixedsize", "true");
    declare(g, AGNODE, "label", "");
    Agsym_t* width = declare(g, AGNODE, "width", "1");
    Agsym_t* height = declare(g, AGNODE, "height", "0.5");

    declare(g, AGEDGE, "arrowhead", "none");
    declare(g, AGEDGE, "tailport", "s");
    declare(g, AGEDGE, "headport", "n");

    std::vector<Agnode_t*> nodes;
    nodes.reserve(request.nodes.size());
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        Agnode_t* node = agnode(g, cstr("n" + std::to_string(i)), 1);
        agxset(node, width, cstr(inches(request.nodes[i].width)));
        agxset(node, height, cstr(inches(request.nodes[i].height)));
        nodes.push_back(node);
    }

    std::vector<Agraph_t*> clusters;
    clusters.reserve(request.clusters.size());
    for (const auto& cluster : request.clusters) {
        Agraph_t* sub = agsubg(g, cstr("cluster_" + std::to_string(cluster.block)), 1);
        if (cluster.labelWidth > 0 && cluster.labelHeight > 0) {
            char* html =
                agstrdup_html(g, cstr(labelPlaceholder(cluster.labelWidth, cluster.labelHeight)));
            agxset(sub, clusterLabel, html);
            agstrfree(g, html);
        }
        clusters.push_back(sub);
    }
    std::map<int, Agraph_t*> clusterOfBlock;
    for (std::size_t c = 0; c < clusters.size(); ++c)
        clusterOfBlock[request.clusters[c].block] = clusters[c];
    for (std::size_t i = 0; i < request.nodes.size(); ++i)
        if (const auto it = clusterOfBlock.find(request.nodes[i].cluster);
            it != clusterOfBlock.end())
            agsubnode(it->second, nodes[i], 1);

    std::vector<Agedge_t*> edges;
    edges.reserve(request.edges.size());
    for (std::size_t i = 0; i < request.edges.size(); ++i) {
        const auto& edge = request.edges[i];
        edges.push_back(
            agedge(g, nodes[edge.from], nodes[edge.to], cstr("e" + std::to_string(i)), 1));
    }

    if (gvLayout(gvc.get(), g, "dot") != 0) {
        auto diagnostics = messagesToDiagnostics(messages, Severity::Error);
        diagnostics.insert(diagnostics.begin(), error("graphviz could not lay out the graph"));
        return diagnostics;
    }
    LayoutGuard guard(gvc.get(), g);
    GraphLayout layout = readLayout(request, g, nodes, edges, clusters);
    layout.warnings = messagesToDiagnostics(messages, Severity::Warning);
    return layout;
}

} // namespace strata::layout

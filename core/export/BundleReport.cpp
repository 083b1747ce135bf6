#include "export/BundleReport.h"

#include "trace/TraceSummary.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

namespace strata::exporting {
namespace {

constexpr std::size_t kReportBlocks = 20; // the slowest blocks; the CSVs hold everything

std::string duration(std::int64_t ps) {
    const double v = double(ps);
    if (v >= 1e9) return fmt::format("{:.3f} ms", v / 1e9);
    if (v >= 1e6) return fmt::format("{:.2f} us", v / 1e6);
    return fmt::format("{:.0f} ns", v / 1e3);
}

std::string relativeError(std::int64_t predicted, std::int64_t measured) {
    if (measured <= 0) return "";
    return fmt::format("{:+.1f}%", 100.0 * double(predicted - measured) / double(measured));
}

std::map<int, std::int64_t> blockTimes(const trace::TraceSummary& s) {
    std::map<int, std::int64_t> times;
    for (const auto& b : s.blocks) times[b.block] = b.timePs;
    return times;
}

std::map<int, std::size_t> opsPerBlock(const schedule::Schedule& s) {
    std::map<int, std::size_t> ops;
    for (const auto& b : s.blocks) ops[b.id] = b.ops.size();
    return ops;
}

} // namespace

std::string bundleReport(const BundleInput& in, const std::vector<BundleFile>& files) {
    const compiler::Program& p = *in.program;
    std::string md = fmt::format("# {} on {}\n\n", in.graph->name, in.target->name);
    md += fmt::format("Schedule: {} ({} blocks). Program: {} instructions on {} cores, {} transfers moving {} "
                      "bytes.\n\n",
                      in.schedule->strategy, in.schedule->blocks.size(), p.instructions.size(), p.cores,
                      p.count(compiler::InstrKind::Transfer), p.transferredBytes());

    std::optional<trace::TraceSummary> emulated, measured;
    if (in.emulated) emulated = trace::summarize(*in.emulated);
    if (in.measured) measured = trace::summarize(*in.measured);
    md += "## Totals\n\n| run | total |\n|---|---:|\n";
    if (emulated) md += fmt::format("| emulated (predicted) | {} |\n", duration(emulated->totalPs));
    if (measured) md += fmt::format("| measured on {} | {} |\n", in.measured->target, duration(measured->totalPs));
    if (emulated && measured)
        md += fmt::format("| prediction error | {} |\n", relativeError(emulated->totalPs, measured->totalPs));
    if (!emulated && !measured) md += "| (no timeline exported) | |\n";

    if (emulated || measured) {
        const trace::TraceSummary& lead = emulated ? *emulated : *measured;
        const auto predictedTimes = emulated ? blockTimes(*emulated) : std::map<int, std::int64_t>{};
        const auto measuredTimes = measured ? blockTimes(*measured) : std::map<int, std::int64_t>{};
        const auto ops = opsPerBlock(*in.schedule);
        std::vector<trace::BlockSummary> blocks = lead.blocks;
        std::stable_sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.timePs > b.timePs; });
        md += fmt::format("\n## Slowest blocks\n\n| block | ops | predicted | measured | error | DRAM bytes |\n"
                          "|---|---:|---:|---:|---:|---:|\n");
        for (std::size_t i = 0; i < std::min(blocks.size(), kReportBlocks); ++i) {
            const int id = blocks[i].block;
            const auto pred = predictedTimes.find(id);
            const auto meas = measuredTimes.find(id);
            const auto n = ops.find(id);
            md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", schedule::blockName(id),
                              n != ops.end() ? std::to_string(n->second) : "",
                              pred != predictedTimes.end() ? duration(pred->second) : "",
                              meas != measuredTimes.end() ? duration(meas->second) : "",
                              pred != predictedTimes.end() && meas != measuredTimes.end()
                                  ? relativeError(pred->second, meas->second)
                                  : "",
                              blocks[i].dramBytes);
        }
        if (blocks.size() > kReportBlocks)
            md += fmt::format("\n{} more blocks in the CSV files.\n", blocks.size() - kReportBlocks);

        const trace::Trace& t = emulated ? *in.emulated : *in.measured;
        md += "\n## Transfer paths\n\n| path | transfers | bytes | busy |\n|---|---:|---:|---:|\n";
        for (const auto& path : lead.paths)
            if (path.transfers > 0)
                md += fmt::format("| {} | {} | {} | {:.1f}% |\n", t.paths[path.path].name, path.transfers, path.bytes,
                                  100 * path.busyFraction);
    }

    if (!in.plots.empty()) {
        md += "\n## Plots\n\n";
        for (const std::string& plot : in.plots)
            if (plot.ends_with(".png")) md += fmt::format("![{}]({})\n\n", plot, plot);
    }
    md += "\n## Files\n\n";
    for (const auto& f : files) md += fmt::format("- `{}`: {}\n", f.name, f.what);
    md += "- `report.md`: this report\n";
    return md;
}

} // namespace strata::exporting

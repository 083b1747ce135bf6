#include "document/SchedulePresentation.h"

#include "views/Format.h"

#include <QFileInfo>
#include <unordered_map>
#include <unordered_set>

namespace strata::gui {

std::vector<int> partitionOf(const views::schedule::ScheduleSnapshot& snapshot) {
    if (!snapshot.schedule || !snapshot.graph)
        return {};
    std::vector<int> blockOf(snapshot.graph->ops.size(), -1);
    for (const schedule::Block& block : snapshot.schedule->blocks)
        for (ir::OpId op : block.ops)
            if (op.index < blockOf.size())
                blockOf[op.index] = block.id;
    return blockOf;
}

std::vector<views::graph::BlockBadge> badgesOf(const views::schedule::ScheduleSnapshot& snapshot) {
    std::vector<views::graph::BlockBadge> badges;
    if (!snapshot.schedule)
        return badges;
    std::unordered_map<int, const schedule::BlockAnalysis*> analysisOf;
    if (snapshot.check)
        for (const schedule::BlockAnalysis& a : snapshot.check->analysis.blocks)
            analysisOf[a.blockId] = &a;
    std::unordered_set<std::string> broken;
    if (snapshot.check)
        for (const Diagnostic& d : snapshot.check->diagnostics)
            if (d.severity == Severity::Error && !d.where.block.empty())
                broken.insert(d.where.block);
    for (const schedule::Block& block : snapshot.schedule->blocks) {
        views::graph::BlockBadge badge;
        badge.block = block.id;
        badge.mp = block.mp;
        badge.invalid = broken.count(schedule::blockName(block.id)) > 0;
        if (auto it = analysisOf.find(block.id); it != analysisOf.end() && it->second->analysed)
            badge.dramBytes = it->second->dramBytes();
        badges.push_back(badge);
    }
    return badges;
}

QString totalsText(const views::schedule::ScheduleSnapshot& snapshot, const QString& targetKey,
                   const QString& strategy) {
    if (!snapshot.schedule)
        return {};
    const QString target =
        targetKey.endsWith(QLatin1String(".json")) ? QFileInfo(targetKey).fileName() : targetKey;
    QString how = strategy.toHtmlEscaped();
    if (snapshot.schedule->strategy == "edited")
        how += QObject::tr(", edited");
    QStringList parts{target.toHtmlEscaped(), how};
    const std::size_t blocks = snapshot.schedule->blocks.size();
    parts << (blocks == 1 ? QObject::tr("1 block") : QObject::tr("%1 blocks").arg(blocks));
    if (snapshot.check) {
        parts << QObject::tr("DRAM %1").arg(views::formatBytes(snapshot.check->analysis.dramBytes));
        int errors = 0;
        for (const Diagnostic& d : snapshot.check->diagnostics)
            errors += d.severity == Severity::Error ? 1 : 0;
        parts << (errors == 0
                      ? QObject::tr("<span style='color:#2e7d32'>\u2713 valid</span>")
                      : QObject::tr("<span style='color:#c62828'>\u2717 invalid (%1)</span>")
                            .arg(errors == 1 ? QObject::tr("1 error")
                                             : QObject::tr("%1 errors").arg(errors)));
    }
    return parts.join(QStringLiteral(" \u00b7 "));
}

} // namespace strata::gui

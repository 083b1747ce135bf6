#pragma once
// The bundle's report.md: what was compiled, the totals, the slowest blocks with their predicted
// and measured times, the paths, the plots and the files. Plain Markdown, readable as text.

#include "export/Bundle.h"

#include <string>

namespace strata::exporting {

std::string bundleReport(const BundleInput& input, const std::vector<BundleFile>& files);

} // namespace strata::exporting

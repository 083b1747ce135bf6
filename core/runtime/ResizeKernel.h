#pragma once
// Resize on float32 boxes (nearest, linear, cubic; every coordinate mode but
// tf_crop_and_resize). The taps of every output coordinate come from the reference evaluator's
// own mapping (reference/ResizeTaps.h), computed once per compute when the program is prepared
// and stored per dim as offsets into the input box with weights. A tile then sums, per output
// row, its rows' taps (the product of the outer dims' taps, usually only H's) along the last
// dim's taps: no coordinate arithmetic while running.

#include "ir/Graph.h"
#include "runtime/Prepared.h"

#include <memory>
#include <string>
#include <vector>

namespace strata::runtime {

struct ResizePlan {
    int rank = 0;
    // Per dim: taps per output coordinate, then for coordinate j of the output box the taps
    // j*taps[d] .. : element offsets in the input box along d (already times its stride) and
    // weights (0 pads a coordinate with fewer taps).
    std::vector<int> taps;
    std::vector<std::vector<rt::i64>> offsets;
    std::vector<std::vector<float>> weights;
};

// The plan for computing `y`'s box of `op` from `x`'s box; null with `why` set when a tap falls
// outside x's box (bounds inference should never allow it).
std::shared_ptr<const ResizePlan> planResize(const ir::Graph& graph, const ir::Op& op,
                                             const rt::View<unsigned char>& y,
                                             const rt::View<unsigned char>& x, std::string& why);

void runResize(const ResizePlan& plan, const rt::View<float>& y, const rt::View<float>& x);

} // namespace strata::runtime

// BlockCost::repeatedWeightBytes: the weights of an op that tiles compute whole, read again by
// every tile past one per core. A squeeze-excite block cut by rows runs its excite step (a 1x1
// convolution of the pooled vector) whole in every tile; its FLOPs are few, its weights are not.

#include "tiling/BlockTiling.h"

#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::tiling {
namespace {

// S[1,16,1,1] -> E = Conv(S, We) -> M = Mul(X, E) -> Y = Conv(M, Wp), with We and Wp constants.
ir::Graph exciteAndProject() {
    auto m = test::importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
se (float[1, 16, 1, 1] S, float[1, 16, 8, 8] X, float[16, 16, 1, 1] We, float[8, 16, 1, 1] Wp)
    => (float[1, 8, 8, 8] Y) {
    E = Conv (S, We)
    M = Mul (X, E)
    Y = Conv (M, Wp)
}
)");
    EXPECT_TRUE(m.ok()) << test::joined(m.diagnostics());
    ir::Graph g = *m->graph;
    for (ir::Value& v : g.values)
        if (v.name == "We" || v.name == "Wp")
            v.isConstant = true;
    return g;
}

std::vector<ir::OpId> allOps(const ir::Graph& g) {
    std::vector<ir::OpId> ops;
    for (std::uint32_t i = 0; i < g.ops.size(); ++i)
        ops.push_back(ir::OpId(i));
    return ops;
}

constexpr std::uint64_t kExciteWeights = 16 * 16 * 4;

TEST(RepeatedWeights, RowTilesRecomputeTheExciteStepWhole) {
    const ir::Graph g = exciteAndProject();
    BlockTiler tiler(g, allOps(g));
    const TileGrid rows = makeGrid(tiler.anchorShape(), {1, 8, 2, 8}); // 4 tiles of 2 rows
    // Each core's first tile reads We anyway; the other two tiles read it again. Wp's tiles
    // each compute a part of Y, so its reads are the work itself, not repeated.
    EXPECT_EQ(tiler.evaluate(rows, 1, 2).repeatedWeightBytes, 2 * kExciteWeights);
    EXPECT_EQ(tiler.evaluate(rows, 1, 1).repeatedWeightBytes, 3 * kExciteWeights);
    EXPECT_EQ(tiler.evaluate(rows, 1, 4).repeatedWeightBytes, 0u);
}

TEST(RepeatedWeights, NoneWhereTilesSplitTheExciteStep) {
    const ir::Graph g = exciteAndProject();
    // Without the projection, a tile of M's channels needs only its channels of E.
    BlockTiler head(g, std::vector<ir::OpId>{ir::OpId(0), ir::OpId(1)});
    const TileGrid channels = makeGrid(head.anchorShape(), {1, 4, 8, 8}); // 4 tiles
    EXPECT_EQ(head.evaluate(channels, 1, 1).repeatedWeightBytes, 0u);
    // Nor where the whole block is one tile.
    BlockTiler all(g, allOps(g));
    EXPECT_EQ(all.evaluate(makeGrid(all.anchorShape(), {1, 8, 8, 8}), 1, 1).repeatedWeightBytes,
              0u);
}

} // namespace
} // namespace strata::tiling

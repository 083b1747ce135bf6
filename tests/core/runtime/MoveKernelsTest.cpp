// The runtime's row-wise Reshape, Transpose and Slice, and its plane-wise global pooling, against
// strata_rt's element loops, on whole tensors and on tiles (output boxes that are part of the
// tensor, input boxes holding more).

#include "KernelBoxes.h"
#include "runtime/MoveKernels.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

void expectSame(const Box& a, const Box& b) {
    ASSERT_EQ(a.data.size(), b.data.size());
    for (std::size_t i = 0; i < a.data.size(); ++i) ASSERT_EQ(a.data[i], b.data[i]) << "element " << i;
}

// Runs both on copies of `y`.
void checkReshape(const Box& y, const Box& x) {
    Box rows = y, loop = y;
    rows.view.data = rows.data.data();
    loop.view.data = loop.data.data();
    runtime::reshapeRows(rows.view, x.view);
    rt::reshape(loop.view, x.view);
    expectSame(rows, loop);
}

void checkTranspose(const Box& y, const Box& x, std::vector<i64> perm) {
    Box rows = y, loop = y;
    rows.view.data = rows.data.data();
    loop.view.data = loop.data.data();
    runtime::transposeRows(rows.view, x.view, perm.data());
    rt::transpose(loop.view, x.view, perm.data());
    expectSame(rows, loop);
}

TEST(MoveKernels, ReshapeSplittingTheLastDim) {
    std::mt19937 rng(1);
    // [2, 6, 64] -> [2, 6, 4, 16] (heads): rows of 16 from rows of 64.
    checkReshape(Box::whole({2, 6, 4, 16}, rng), Box::whole({2, 6, 64}, rng));
}

TEST(MoveKernels, ReshapeMergingDimsOnATile) {
    std::mt19937 rng(2);
    // [2, 6, 4, 16] -> [2, 6, 64], tokens 1..4 of the output; the input box holds tokens 0..4.
    Box x({2, 6, 4, 16}, {0, 0, 0, 0}, {2, 5, 4, 16}, rng);
    Box y({2, 6, 64}, {0, 1, 0}, {2, 4, 64}, rng);
    checkReshape(y, x);
}

TEST(MoveKernels, ReshapeWhoseRowsCrossInputRows) {
    std::mt19937 rng(3);
    // Rows of 10 read from rows of 4: segments of 4, 4, 2 and partial ones at odd offsets.
    checkReshape(Box::whole({6, 10}, rng), Box::whole({3, 5, 4}, rng));
    checkReshape(Box::whole({60}, rng), Box::whole({3, 5, 4}, rng));
}

TEST(MoveKernels, TransposeOfHeads) {
    std::mt19937 rng(4);
    // [2, 6, 4, 16] -> [2, 4, 6, 16] (perm 0 2 1 3): contiguous rows, one memcpy each.
    checkTranspose(Box::whole({2, 4, 6, 16}, rng), Box::whole({2, 6, 4, 16}, rng), {0, 2, 1, 3});
}

TEST(MoveKernels, TransposeOfTheLastDimOnATile) {
    std::mt19937 rng(5);
    // NCHW -> NHWC (perm 0 2 3 1), rows 1..3 of the output; strided reads along channels.
    Box x({1, 8, 5, 6}, {0, 0, 1, 0}, {1, 8, 3, 6}, rng);
    Box y({1, 5, 6, 8}, {0, 1, 0, 0}, {1, 3, 6, 8}, rng);
    checkTranspose(y, x, {0, 2, 3, 1});
    checkTranspose(Box::whole({7, 3}, rng), Box::whole({3, 7}, rng), {1, 0});
}

TEST(MoveKernels, SliceWithStepsStartsAndTiles) {
    std::mt19937 rng(6);
    Box x = Box::whole({4, 10, 12}, rng);
    // Every other column from 1, rows 2..7: strided rows.
    {
        Box rows = Box::whole({4, 6, 6}, rng), loop = rows;
        loop.view.data = loop.data.data();
        const i64 starts[] = {0, 2, 1}, steps[] = {1, 1, 2};
        runtime::sliceRows(rows.view, x.view, starts, steps);
        rt::slice(loop.view, x.view, starts, steps);
        expectSame(rows, loop);
    }
    // Unit steps on a tile of the output (the q, k, v split of a fused projection): memcpy rows.
    {
        Box rows({4, 10, 4}, {1, 3, 0}, {2, 5, 4}, rng), loop = rows;
        loop.view.data = loop.data.data();
        const i64 starts[] = {0, 0, 8}, steps[] = {1, 1, 1};
        runtime::sliceRows(rows.view, x.view, starts, steps);
        rt::slice(loop.view, x.view, starts, steps);
        expectSame(rows, loop);
    }
    // Reversed (negative step) along the last dim.
    {
        Box rows = Box::whole({4, 10, 12}, rng), loop = rows;
        loop.view.data = loop.data.data();
        const i64 starts[] = {0, 0, 11}, steps[] = {1, 1, -1};
        runtime::sliceRows(rows.view, x.view, starts, steps);
        rt::slice(loop.view, x.view, starts, steps);
        expectSame(rows, loop);
    }
}

TEST(GlobalPoolPlanes, MatchesStrataRtOnAChannelTile) {
    std::mt19937 rng(7);
    Box x({2, 16, 7, 7}, {0, 4, 0, 0}, {2, 8, 7, 7}, rng);
    for (bool isMax : {false, true}) {
        Box fast({2, 16, 1, 1}, {0, 4, 0, 0}, {2, 8, 1, 1}, rng), loop = fast;
        loop.view.data = loop.data.data();
        runtime::globalPoolPlanes(fast.view, x.view, isMax);
        rt::globalPool(loop.view, x.view, isMax);
        expectSame(fast, loop);
    }
}

} // namespace
} // namespace strata::test

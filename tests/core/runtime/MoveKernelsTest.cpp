// The runtime's row-wise Reshape, Transpose, Slice, Gather, Concat and Pad, and its plane-wise
// global pooling, against strata_rt's element loops, on whole tensors and on tiles (output boxes
// that are part of the tensor, input boxes holding more).

#include "runtime/MoveKernels.h"

#include "KernelBoxes.h"

#include <algorithm>
#include <array>
#include <gtest/gtest.h>
#include <random>

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
    rt::reshapeRows(rows.view, x.view);
    rt::reshape(loop.view, x.view);
    expectSame(rows, loop);
}

void checkTranspose(const Box& y, const Box& x, std::vector<i64> perm) {
    Box rows = y, loop = y;
    rows.view.data = rows.data.data();
    loop.view.data = loop.data.data();
    rt::transposeRows(rows.view, x.view, perm.data());
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
    // Rows of 20 from rows of 5: each row's segments carry across two dims of x.
    checkReshape(Box::whole({2, 3, 20}, rng), Box::whole({2, 6, 2, 5}, rng));
    checkReshape(Box({2, 3, 20}, {1, 1, 0}, {1, 2, 20}, rng), Box::whole({2, 6, 2, 5}, rng));
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
        rt::sliceRows(rows.view, x.view, starts, steps);
        rt::slice(loop.view, x.view, starts, steps);
        expectSame(rows, loop);
    }
    // Unit steps on a tile of the output (the q, k, v split of a fused projection): memcpy rows.
    {
        Box rows({4, 10, 4}, {1, 3, 0}, {2, 5, 4}, rng), loop = rows;
        loop.view.data = loop.data.data();
        const i64 starts[] = {0, 0, 8}, steps[] = {1, 1, 1};
        rt::sliceRows(rows.view, x.view, starts, steps);
        rt::slice(loop.view, x.view, starts, steps);
        expectSame(rows, loop);
    }
    // Reversed (negative step) along the last dim.
    {
        Box rows = Box::whole({4, 10, 12}, rng), loop = rows;
        loop.view.data = loop.data.data();
        const i64 starts[] = {0, 0, 11}, steps[] = {1, 1, -1};
        rt::sliceRows(rows.view, x.view, starts, steps);
        rt::slice(loop.view, x.view, starts, steps);
        expectSame(rows, loop);
    }
}

// Concat of `xs` along `axis` into copies of `y`, both ways.
void checkConcat(const Box& y, const std::vector<Box>& xs, int axis) {
    Box boxes = y, loop = y;
    boxes.view.data = boxes.data.data();
    loop.view.data = loop.data.data();
    std::vector<rt::View<float>> views;
    for (const Box& x : xs) views.push_back(x.view);
    runtime::concatBoxes(boxes.view, views.data(), views.size(), axis);
    rt::concat(loop.view, views.data(), views.size(), axis);
    expectSame(boxes, loop);
}

TEST(MoveKernels, ConcatOfChannelsWholeAndOnTiles) {
    std::mt19937 rng(8);
    // DenseNet: [1, 64 + 32 + 32, 7, 7] along channels; each input one contiguous run.
    checkConcat(Box::whole({1, 128, 7, 7}, rng),
                {Box::whole({1, 64, 7, 7}, rng), Box::whole({1, 32, 7, 7}, rng), Box::whole({1, 32, 7, 7}, rng)}, 1);
    // A tile of rows 2..4 and channels 50..99: the first input's tail, all of the second, the
    // third's head; the input boxes hold more rows than the tile.
    checkConcat(Box({1, 128, 7, 7}, {0, 50, 2, 0}, {1, 50, 3, 7}, rng),
                {Box({1, 64, 7, 7}, {0, 0, 1, 0}, {1, 64, 5, 7}, rng), Box({1, 32, 7, 7}, {0, 0, 2, 0}, {1, 32, 3, 7}, rng),
                 Box({1, 32, 7, 7}, {0, 0, 0, 0}, {1, 32, 7, 7}, rng)},
                1);
}

TEST(MoveKernels, ConcatAlongTheLastDim) {
    std::mt19937 rng(9);
    // Rows made of pieces of three inputs; the output tile starts inside the first.
    checkConcat(Box({3, 20}, {1, 2}, {2, 15}, rng),
                {Box::whole({3, 5}, rng), Box::whole({3, 7}, rng), Box::whole({3, 8}, rng)}, 1);
}

// Pad of x into copies of y, both ways.
void checkPad(const Box& y, const Box& x, std::vector<i64> padBegin, float value) {
    Box boxes = y, loop = y;
    boxes.view.data = boxes.data.data();
    loop.view.data = loop.data.data();
    runtime::padBoxes(boxes.view, x.view, padBegin.data(), value);
    rt::pad(loop.view, x.view, padBegin.data(), value);
    expectSame(boxes, loop);
}

// Slice and Transpose as sub-box moves (sliceBoxes, transposeBoxes) against the element loops,
// with strata_rt's copy (the generated C++'s) and the runtime's strided copy.
void checkSliceBoxes(const Box& y, const Box& x, std::vector<i64> starts, std::vector<i64> steps) {
    Box viaRt = y, viaRuntime = y, loop = y;
    viaRt.view.data = viaRt.data.data();
    viaRuntime.view.data = viaRuntime.data.data();
    loop.view.data = loop.data.data();
    rt::sliceBoxes(viaRt.view, x.view, starts.data(), steps.data());
    rt::sliceBoxes(viaRuntime.view, x.view, starts.data(), steps.data(),
                   runtime::MergedStridedCopy{});
    rt::slice(loop.view, x.view, starts.data(), steps.data());
    expectSame(viaRt, loop);
    expectSame(viaRuntime, loop);
}

void checkTransposeBoxes(const Box& y, const Box& x, std::vector<i64> perm) {
    Box viaRt = y, viaRuntime = y, loop = y;
    viaRt.view.data = viaRt.data.data();
    viaRuntime.view.data = viaRuntime.data.data();
    loop.view.data = loop.data.data();
    rt::transposeBoxes(viaRt.view, x.view, perm.data());
    rt::transposeBoxes(viaRuntime.view, x.view, perm.data(), runtime::MergedStridedCopy{});
    rt::transpose(loop.view, x.view, perm.data());
    expectSame(viaRt, loop);
    expectSame(viaRuntime, loop);
}

TEST(MoveKernels, SliceBoxesOfChannelHalvesStepsAndTiles) {
    std::mt19937 rng(11);
    // ShuffleNetV2's split: the second 58 of 116 channels, whole and on a two-row tile whose
    // input box holds rows 1..4 only.
    checkSliceBoxes(Box::whole({1, 58, 6, 7}, rng), Box::whole({1, 116, 6, 7}, rng), {0, 58, 0, 0},
                    {1, 1, 1, 1});
    checkSliceBoxes(Box({1, 58, 6, 7}, {0, 0, 2, 0}, {1, 58, 2, 7}, rng),
                    Box({1, 116, 6, 7}, {0, 0, 1, 0}, {1, 116, 4, 7}, rng), {0, 58, 0, 0},
                    {1, 1, 1, 1});
    // Every other row from 1 (a step outside the last dim keeps the box move).
    checkSliceBoxes(Box::whole({4, 5, 12}, rng), Box::whole({4, 10, 12}, rng), {0, 1, 0},
                    {1, 2, 1});
    // A step along the last dim and a reversed dim fall back to the row loop.
    checkSliceBoxes(Box::whole({4, 10, 6}, rng), Box::whole({4, 10, 12}, rng), {0, 0, 1},
                    {1, 1, 2});
    checkSliceBoxes(Box::whole({4, 10, 12}, rng), Box::whole({4, 10, 12}, rng), {0, 9, 0},
                    {1, -1, 1});
}

TEST(MoveKernels, TransposeBoxesKeepingTheLastDimAndNot) {
    std::mt19937 rng(12);
    // ShuffleNetV2's shuffle [1, 2, 58, 7, 7] -> [1, 58, 2, 7, 7]: planes of 49 stay together;
    // on a tile of the output whose input box holds what it reads.
    checkTransposeBoxes(Box::whole({1, 58, 2, 7, 7}, rng), Box::whole({1, 2, 58, 7, 7}, rng),
                        {0, 2, 1, 3, 4});
    checkTransposeBoxes(Box({1, 58, 2, 7, 7}, {0, 10, 0, 3, 0}, {1, 20, 2, 2, 7}, rng),
                        Box({1, 2, 58, 7, 7}, {0, 0, 8, 2, 0}, {1, 2, 30, 4, 7}, rng),
                        {0, 2, 1, 3, 4});
    // The last dim moved, rows of 8: the box move, element by element.
    checkTransposeBoxes(Box::whole({1, 5, 6, 8}, rng), Box::whole({1, 8, 5, 6}, rng), {0, 2, 3, 1});
    // MaxViT's grid partition, rows of 2 gathered across planes, on a tile.
    checkTransposeBoxes(Box({1, 4, 7, 2, 7, 2}, {0, 1, 0, 0, 0, 0}, {1, 2, 7, 2, 7, 2}, rng),
                        Box::whole({1, 4, 2, 7, 2, 7}, rng), {0, 1, 3, 2, 5, 4});
    // Long gathered rows: the strided row loop.
    checkTransposeBoxes(Box::whole({1, 5, 32}, rng), Box::whole({1, 32, 5}, rng), {0, 2, 1});
}

// reshapeBoxes with strata_rt's copy and the runtime's, against the element loop.
void checkReshapeBoxes(const Box& y, const Box& x) {
    Box viaRt = y, viaRuntime = y, loop = y;
    viaRt.view.data = viaRt.data.data();
    viaRuntime.view.data = viaRuntime.data.data();
    loop.view.data = loop.data.data();
    rt::reshapeBoxes(viaRt.view, x.view);
    rt::reshapeBoxes(viaRuntime.view, x.view, runtime::MergedStridedCopy{});
    rt::reshape(loop.view, x.view);
    expectSame(viaRt, loop);
    expectSame(viaRuntime, loop);
}

TEST(MoveKernels, ReshapeBoxesOverTheShapesCommonFactors) {
    std::mt19937 rng(14);
    // MaxViT's windows back to planes: [1, 4, 2, 7, 2, 7] -> [1, 4, 14, 14], whole and on the
    // first or second half of the rows (a box over the factors 2 x 7 of a 14).
    const Box windows = Box::whole({1, 4, 2, 7, 2, 7}, rng);
    checkReshapeBoxes(Box::whole({1, 4, 14, 14}, rng), windows);
    checkReshapeBoxes(Box({1, 4, 14, 14}, {0, 0, 0, 0}, {1, 4, 7, 14}, rng), windows);
    checkReshapeBoxes(Box({1, 4, 14, 14}, {0, 1, 7, 0}, {1, 2, 7, 14}, rng),
                      Box({1, 4, 2, 7, 2, 7}, {0, 1, 1, 0, 0, 0}, {1, 3, 1, 7, 2, 7}, rng));
    // Rows 3..9 straddle the factor 2: not a box over them, row by row.
    checkReshapeBoxes(Box({1, 4, 14, 14}, {0, 0, 3, 0}, {1, 4, 7, 14}, rng), windows);
    // No common factors ([2, 3] and [3, 2]); heads split off the last dim.
    checkReshapeBoxes(Box::whole({3, 2}, rng), Box::whole({2, 3}, rng));
    checkReshapeBoxes(Box({2, 6, 4, 16}, {0, 1, 0, 0}, {2, 4, 4, 16}, rng),
                      Box({2, 6, 64}, {0, 1, 0}, {2, 5, 64}, rng));
}

TEST(MoveKernels, ReshapeOfGaplessRunsIsOneCopy) {
    std::mt19937 rng(13);
    // The shuffle's Reshape on two cores: half of [1, 2, 58, 7, 7] from [1, 116, 7, 7], the
    // input box whole or holding only the channels read.
    Box y({1, 2, 58, 7, 7}, {0, 1, 0, 0, 0}, {1, 1, 58, 7, 7}, rng);
    checkReshape(y, Box::whole({1, 116, 7, 7}, rng));
    checkReshape(y, Box({1, 116, 7, 7}, {0, 50, 0, 0}, {1, 66, 7, 7}, rng));
    // Rows 2..3 of a matrix out of a tile holding rows 1..4 of another shape's run.
    checkReshape(Box({6, 10}, {2, 0}, {2, 10}, rng), Box({3, 20}, {0, 0}, {3, 20}, rng));
    // A box with a partial dim before a whole one that is not the first: not a gapless run.
    checkReshape(Box({4, 6, 5}, {1, 2, 0}, {2, 3, 5}, rng), Box::whole({4, 30}, rng));
}

TEST(MoveKernels, PadWholeOnTilesAndCropping) {
    std::mt19937 rng(10);
    // [1, 3, 5, 6] padded by 1 row and 2 columns each side.
    checkPad(Box::whole({1, 3, 7, 10}, rng), Box::whole({1, 3, 5, 6}, rng), {0, 0, 1, 2}, 0.5f);
    // A tile at the bottom right of the output: part padding, part input.
    checkPad(Box({1, 3, 7, 10}, {0, 1, 4, 5}, {1, 2, 3, 5}, rng), Box({1, 3, 5, 6}, {0, 1, 3, 3}, {1, 2, 2, 3}, rng),
             {0, 0, 1, 2}, -1.0f);
    // A tile wholly in the padding.
    checkPad(Box({1, 3, 7, 10}, {0, 0, 0, 0}, {1, 3, 1, 10}, rng), Box::whole({1, 3, 5, 6}, rng), {0, 0, 1, 2}, 2.0f);
    // A negative pad crops.
    checkPad(Box::whole({2, 4}, rng), Box::whole({2, 7}, rng), {0, -2}, 0.0f);
}

// Whole index tensor of the given shape and values (row-major), for Gather.
struct Indices {
    std::vector<std::int64_t> data;
    rt::View<std::int64_t> view;
    Indices(std::vector<i64> shape, std::vector<std::int64_t> values) : data(std::move(values)) {
        view.rank = static_cast<int>(shape.size());
        for (int d = view.rank, s = 1; d-- > 0;) {
            view.full[d] = view.ext[d] = shape[static_cast<std::size_t>(d)];
            view.lo[d] = 0;
            view.stride[d] = s;
            s *= static_cast<int>(shape[static_cast<std::size_t>(d)]);
        }
        view.data = data.data();
    }
};

// Gather of x into copies of y, both ways; y's untouched elements stay equal too.
void checkGather(const Box& y, const Box& x, const Indices& indices, int axis) {
    Box rows = y, loop = y;
    rows.view.data = rows.data.data();
    loop.view.data = loop.data.data();
    rt::gatherRows(rows.view, x.view, indices.view, axis);
    rt::gather(loop.view, x.view, indices.view, axis);
    expectSame(rows, loop);
}

TEST(MoveKernels, GatherOfOneIndexSplitsQueriesKeysAndValues) {
    std::mt19937 rng(11);
    // Swin's qkv[1]: [3, 4, 3, 5, 8] -> [4, 3, 5, 8], a scalar index on the first dim.
    const Box x = Box::whole({3, 4, 3, 5, 8}, rng);
    for (std::int64_t k : {0, 1, 2, -1})
        checkGather(Box::whole({4, 3, 5, 8}, rng), x, Indices({}, {k}), 0);
    // A tile of the output, rows 1..3 of dim 2, from an input box holding only those rows.
    checkGather(Box({4, 3, 5, 8}, {0, 0, 1, 0}, {4, 3, 3, 8}, rng),
                Box({3, 4, 3, 5, 8}, {0, 0, 0, 1, 0}, {3, 4, 3, 3, 8}, rng), Indices({}, {2}), 0);
}

TEST(MoveKernels, GatherOfIndexRowsOnATileWithIndicesOutsideTheBox) {
    std::mt19937 rng(12);
    // Embedding-like: x [2, 6, 7] gathered along dim 1 by a [2, 3] index tensor -> [2, 2, 3, 7];
    // index 5 lies outside the input box (channels 0..3), -2 counts from the end (4, also out).
    const Box x({2, 6, 7}, {0, 0, 0}, {2, 4, 7}, rng);
    const Indices indices({2, 3}, {0, 3, 1, 5, -2, 2});
    checkGather(Box::whole({2, 2, 3, 7}, rng), x, indices, 1);
    checkGather(Box({2, 2, 3, 7}, {1, 0, 1, 2}, {1, 2, 2, 4}, rng), x, indices, 1);
}

TEST(MoveKernels, GatherAlongTheLastDimKeepsTheElementLoop) {
    std::mt19937 rng(13);
    checkGather(Box::whole({3, 4}, rng), Box::whole({3, 9}, rng), Indices({4}, {8, 0, -1, 3}), 1);
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

// The same box channels-last (its bytes transposed per batch element): on planes shorter than
// strata_rt's vector reduction (35 positions) the pool sums each channel's positions in the same
// order, so the results are the same bits; 24 channels are a vector and a rest.
TEST(GlobalPoolPlanes, ChannelsLastMatchesRowMajorBitForBit) {
    std::mt19937 rng(8);
    const Box x({2, 24, 5, 7}, {0, 0, 0, 0}, {2, 24, 5, 7}, rng);
    Box last = x;
    last.view.data = last.data.data();
    for (std::int64_t n = 0; n < 2; ++n)
        for (std::int64_t c = 0; c < 24; ++c)
            for (std::int64_t p = 0; p < 35; ++p)
                last.data[static_cast<std::size_t>((n * 35 + p) * 24 + c)] =
                    x.data[static_cast<std::size_t>((n * 24 + c) * 35 + p)];
    for (bool isMax : {false, true}) {
        Box rowMajor = Box::whole({2, 24, 1, 1}, rng), channelsLast = rowMajor;
        channelsLast.view.data = channelsLast.data.data();
        runtime::globalPoolPlanes(rowMajor.view, x.view, isMax);
        runtime::globalPoolNhwc(channelsLast.view, last.view, isMax);
        expectSame(rowMajor, channelsLast);
    }
}

// strata_rt's plane reduction (64 partial results in vectors, folded in a fixed order), which
// the runtime's global pools and the generated C++'s share: every element counts at any length,
// the partial last vector's missing lanes add nothing and never win a max, and the sum is the
// exact one within float rounding. The runtime's pools over planes of 5 x 13 (summed in order)
// and 14 x 14 (reduced in vectors) give strata_rt's values bit for bit.
TEST(ReduceRun, SumsAndMaxesEveryElementOfAnyLength) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> dist(-3.0f, 1.0f);
    for (const i64 n : {1, 15, 16, 17, 63, 64, 65, 130, 196, 3136}) {
        SCOPED_TRACE(n);
        std::vector<float> v(static_cast<std::size_t>(n));
        for (float& e : v)
            e = dist(rng);
        v.back() = 7.0f; // the max in the last, possibly partial, vector
        double sum = 0;
        for (float e : v)
            sum += e;
        EXPECT_NEAR(rt::runs::reduceRun(v.data(), n, false), sum, 1e-5 * n);
        EXPECT_EQ(rt::runs::reduceRun(v.data(), n, true), 7.0f);
        std::fill(v.begin(), v.end(), -2.0f);
        EXPECT_EQ(rt::runs::reduceRun(v.data(), n, true), -2.0f);
        EXPECT_EQ(rt::runs::reduceRun(v.data(), n, false), -2.0f * static_cast<float>(n));
    }
    for (const std::array<i64, 2> hw : {std::array<i64, 2>{5, 13}, std::array<i64, 2>{14, 14}}) {
        Box x({1, 8, hw[0], hw[1]}, {0, 0, 0, 0}, {1, 8, hw[0], hw[1]}, rng);
        for (bool isMax : {false, true}) {
            Box fast({1, 8, 1, 1}, {0, 0, 0, 0}, {1, 8, 1, 1}, rng), loop = fast;
            loop.view.data = loop.data.data();
            runtime::globalPoolPlanes(fast.view, x.view, isMax);
            rt::globalPool(loop.view, x.view, isMax);
            expectSame(fast, loop);
        }
    }
}

} // namespace
} // namespace strata::test

// The runtime's strided copy (runtime/StridedCopy.h) against strata_rt::moveBox, the generated
// C++'s copy: boxes of every rank up to four, rows shorter and longer than the inline-copy limit
// in every length mod 32 bytes, element sizes 1 to 8, a last dim that is not contiguous
// (transposing copies), a broadcast source, and empty boxes. Bytes outside the destination box
// stay as they were.

#include "compiler/emit/cpp/strata_rt.h"
#include "runtime/StridedCopy.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <vector>

namespace strata::test {
namespace {

using i64 = std::int64_t;

// Copies `shape` with both copies from a random source into two destinations filled alike and
// expects the same bytes everywhere.
void expectSameAsMoveBox(std::vector<i64> shape, std::vector<i64> dstStrides, std::vector<i64> srcStrides,
                         std::size_t elementBytes, std::mt19937& rng) {
    auto span = [&](const std::vector<i64>& strides) {
        i64 last = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) last += (std::max<i64>(shape[d], 1) - 1) * strides[d];
        return static_cast<std::size_t>(last + 1) * elementBytes;
    };
    std::vector<unsigned char> src(span(srcStrides) + 64), expected(span(dstStrides) + 64);
    for (auto& b : src) b = static_cast<unsigned char>(rng());
    for (auto& b : expected) b = static_cast<unsigned char>(rng());
    std::vector<unsigned char> actual = expected;
    const int rank = static_cast<int>(shape.size());
    strata_rt::moveBox(expected.data() + 7, dstStrides.data(), src.data() + 5, srcStrides.data(), shape.data(), rank,
                       elementBytes);
    runtime::copyBox(actual.data() + 7, dstStrides.data(), src.data() + 5, srcStrides.data(), shape.data(), rank,
                     elementBytes);
    ASSERT_EQ(actual, expected) << "rank " << rank << ", " << elementBytes << "-byte elements";
}

std::vector<i64> rowMajor(const std::vector<i64>& extents) {
    std::vector<i64> s(extents.size(), 1);
    for (std::size_t d = extents.size(); d-- > 1;) s[d - 1] = s[d] * extents[d];
    return s;
}

TEST(StridedCopy, TileRowsOfEveryLengthIntoAndOutOfALargerTensor) {
    std::mt19937 rng(21);
    for (std::size_t e : {1u, 2u, 4u, 8u})
        for (i64 cols = 1; cols <= 80; ++cols) {
            const std::vector<i64> box{3, 5, cols}, tensor{4, 9, cols + 11};
            expectSameAsMoveBox(box, rowMajor(tensor), rowMajor(box), e, rng); // a store
            expectSameAsMoveBox(box, rowMajor(box), rowMajor(tensor), e, rng); // a load
        }
}

TEST(StridedCopy, EveryRankAndLongRows) {
    std::mt19937 rng(22);
    expectSameAsMoveBox({}, {}, {}, 4, rng);
    expectSameAsMoveBox({1000}, {1}, {1}, 4, rng);
    expectSameAsMoveBox({7, 300}, {310, 1}, {300, 1}, 4, rng);
    expectSameAsMoveBox({2, 3, 4, 70}, {3000, 900, 80, 1}, rowMajor({2, 3, 4, 70}), 4, rng);
    expectSameAsMoveBox({2, 2, 2, 2, 2, 2, 2, 9}, rowMajor({2, 2, 2, 2, 2, 2, 3, 12}), rowMajor({2, 2, 2, 2, 2, 2, 2, 9}), 2,
                        rng);
}

TEST(StridedCopy, TransposingBroadcastAndEmptyBoxes) {
    std::mt19937 rng(23);
    expectSameAsMoveBox({5, 6}, {1, 5}, {6, 1}, 4, rng); // a transpose: single-element rows
    expectSameAsMoveBox({4, 6}, {6, 1}, {0, 1}, 4, rng); // one source row into every destination row
    expectSameAsMoveBox({3, 0, 4}, {4, 4, 1}, {4, 4, 1}, 4, rng);
}

} // namespace
} // namespace strata::test

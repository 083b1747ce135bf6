// Main-memory layouts (tiling/DramLayouts.h) on small graphs: a convolution chain with a
// residual add lives channels-last between its ops, a tensor whose readers mostly want row-major
// stays so, and nothing changes with a granule of 1, channels that are not whole vectors, or at
// the graph's inputs and outputs.

#include "tiling/DramLayouts.h"

#include "compiler/Program.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>
#include <string>

namespace strata::test {
namespace {

// A 3x3 convolution of `c` to `c` channels, weights zero (only shapes matter here).
std::string conv(const std::string& out, const std::string& in, const std::string& w) {
    return "    " + out + " = Conv <pads = [1, 1, 1, 1]> (" + in + ", " + w + ")\n";
}

// An initializer's declaration with `count` zeros.
std::string zeros(const std::string& declaration, int count) {
    std::string values;
    for (int i = 0; i < count; ++i)
        values += i ? ", 0" : "0";
    return declaration + " = {" + values + "}";
}

std::shared_ptr<const ir::Graph> graph(int c, const std::string& outputs, const std::string& body,
                                       const std::string& weights) {
    const std::string text = "<ir_version: 8, opset_import: [\"\" : 17]>\ng (float[1, " +
                             std::to_string(c) + ", 8, 8] X) => (" + outputs + ")\n<" + weights +
                             "> {\n" + body + "}\n";
    auto m = importText(text);
    EXPECT_TRUE(m) << joined(m.diagnostics()) << "\n" << text;
    return m ? m->graph : nullptr;
}

int layoutOf(const ir::Graph& g, const std::vector<int>& layouts, const std::string& name) {
    for (std::size_t i = 0; i < g.values.size(); ++i)
        if (g.values[i].name == name)
            return layouts[i];
    ADD_FAILURE() << "no value " << name;
    return -2;
}

// X -> A = Conv -> E = Relu -> Y = Conv -> S = Add(Y, E) -> T = Conv 1x1 -> Z = Relu.
std::shared_ptr<const ir::Graph> residualChain(int c) {
    const std::string cc = std::to_string(c);
    const std::string w = zeros("float[" + cc + ", " + cc + ", 3, 3] W", c * c * 9);
    const std::string p = zeros("float[" + cc + ", " + cc + ", 1, 1] P", c * c);
    return graph(c, "float[1, " + std::to_string(c) + ", 8, 8] Z",
                 conv("A", "X", "W") + "    E = Relu (A)\n" + conv("Y", "E", "W") +
                     "    S = Add (Y, E)\n    T = Conv (S, P)\n    Z = Relu (T)\n",
                 w + ", " + p);
}

TEST(DramLayouts, AConvolutionChainWithAResidualAddLivesChannelsLast) {
    auto g = residualChain(16);
    ASSERT_TRUE(g);
    const std::vector<int> layouts = tiling::chooseDramLayouts(*g, 16);
    for (const char* v : {"A", "E", "Y", "S"})
        EXPECT_EQ(layoutOf(*g, layouts, v), compiler::kChannelsLast) << v;
    // T, between a pointwise convolution and the output's Relu, costs one layout change either
    // way: a tie, which row-major takes.
    EXPECT_EQ(layoutOf(*g, layouts, "T"), 0);
    // The graph's input and output, and the weights, stay row-major.
    for (const char* v : {"X", "Z", "W", "P"})
        EXPECT_EQ(layoutOf(*g, layouts, v), 0) << v;
}

TEST(DramLayouts, NoneWithAGranuleOfOneOrChannelsThatAreNotWholeVectors) {
    auto g = residualChain(16);
    ASSERT_TRUE(g);
    for (int layout : tiling::chooseDramLayouts(*g, 1))
        EXPECT_EQ(layout, 0);
    auto odd = residualChain(24);
    ASSERT_TRUE(odd);
    for (int layout : tiling::chooseDramLayouts(*odd, 16))
        EXPECT_EQ(layout, 0);
}

// A (a convolution's output) is read by two pools, which want row-major: one reorder after the
// convolution costs less than one before each pool. B, read by a convolution and one pool, is
// written and read channels-last by the convolutions: one reorder, before the pool.
TEST(DramLayouts, ATensorMostReadersWantRowMajorStaysRowMajor) {
    const std::string w = zeros("float[16, 16, 3, 3] W", 16 * 16 * 9);
    auto g = graph(16, "float[1, 16, 8, 8] Z",
                   conv("A", "X", "W") +
                       "    P = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (A)\n"
                       "    Q = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (A)\n"
                       "    R = Add (P, Q)\n" +
                       conv("B", "R", "W") + conv("C", "B", "W") +
                       "    D = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (B)\n"
                       "    Z = Add (C, D)\n",
                   w);
    ASSERT_TRUE(g);
    const std::vector<int> layouts = tiling::chooseDramLayouts(*g, 16);
    for (const char* v : {"A", "P", "Q", "R", "C", "D"})
        EXPECT_EQ(layoutOf(*g, layouts, v), 0) << v;
    EXPECT_EQ(layoutOf(*g, layouts, "B"), compiler::kChannelsLast);
}

// A depthwise convolution gains by a channels-last input; a pointwise one follows its neighbours
// (MobileNetV2's expansion -> depthwise -> projection).
TEST(DramLayouts, AnInvertedResidualBlockLivesChannelsLast) {
    auto g = graph(16, "float[1, 16, 8, 8] Z",
                   "    E = Conv (X, P)\n    F = Clip (E)\n"
                   "    D = Conv <pads = [1, 1, 1, 1], group = 32> (F, K)\n    G = Clip (D)\n"
                   "    Y = Conv (G, Q)\n    Z = Add (Y, X)\n",
                   zeros("float[32, 16, 1, 1] P", 512) + ", " + zeros("float[32, 1, 3, 3] K", 288) +
                       ", " + zeros("float[16, 32, 1, 1] Q", 512));
    ASSERT_TRUE(g);
    const std::vector<int> layouts = tiling::chooseDramLayouts(*g, 16);
    for (const char* v : {"E", "F", "D", "G"})
        EXPECT_EQ(layoutOf(*g, layouts, v), compiler::kChannelsLast) << v;
}

// EfficientNet's squeeze-excite: the depthwise output E is read by a global pool and by the
// multiply with the [1, C, 1, 1] scale; both read channels-last at no cost, so E and the scaled
// M (a pointwise convolution's input) live channels-last with no reorder at either.
TEST(DramLayouts, ASqueezeExciteBlockLivesChannelsLast) {
    auto g = graph(32, "float[1, 16, 8, 8] Z",
                   "    D = Conv <pads = [1, 1, 1, 1], group = 32> (X, K)\n    A = Sigmoid (D)\n"
                   "    E = Mul (D, A)\n    P = GlobalAveragePool (E)\n    F = Conv (P, R)\n"
                   "    G = Relu (F)\n    H = Conv (G, U)\n    S = Sigmoid (H)\n"
                   "    M = Mul (S, E)\n    Z = Conv (M, Q)\n",
                   zeros("float[32, 1, 3, 3] K", 288) + ", " + zeros("float[8, 32, 1, 1] R", 256) +
                       ", " + zeros("float[32, 8, 1, 1] U", 256) + ", " +
                       zeros("float[16, 32, 1, 1] Q", 512));
    ASSERT_TRUE(g);
    const std::vector<int> layouts = tiling::chooseDramLayouts(*g, 16);
    for (const char* v : {"D", "A", "E", "M"})
        EXPECT_EQ(layoutOf(*g, layouts, v), compiler::kChannelsLast) << v;
    for (const char* v : {"P", "F", "S"}) // one position: never a layout of its own
        EXPECT_EQ(layoutOf(*g, layouts, v), 0) << v;
}

} // namespace
} // namespace strata::test

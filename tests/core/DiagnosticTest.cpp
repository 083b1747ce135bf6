#include "base/Diagnostic.h"
#include "base/Expected.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(Diagnostic, FormatsWhereAndWhat) {
    Diagnostic d = error("bad stride", {.file = "m.onnx", .node = "conv1"});
    EXPECT_EQ(d.toString(), "error: m.onnx: node 'conv1': bad stride");
    EXPECT_EQ(warning("w").toString(), "warning: w");
    EXPECT_EQ(error("x", {.file = "f", .offset = 12}).toString(), "error: f:12: x");
}

TEST(Diagnostic, ExpectedHoldsValueOrDiagnostics) {
    Expected<int> good = 3;
    ASSERT_TRUE(good.ok());
    EXPECT_EQ(*good, 3);
    Expected<int> bad = error("nope");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.diagnostics().size(), 1u);
    EXPECT_TRUE(hasErrors(bad.diagnostics()));
    EXPECT_FALSE(hasErrors({warning("w"), note("n")}));
}

} // namespace
} // namespace strata

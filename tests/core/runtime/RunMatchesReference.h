#pragma once
// The check a compiled model's runtime tests end with: the program verifies, emulates, and runs
// on the host to the reference evaluator's first output, within float tolerances.

#include "compiler/Program.h"
#include "compiler/passes/Verify.h"
#include "emulator/Emulator.h"
#include "ir/Graph.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "runtime/Runtime.h"
#include "support/TestModels.h"
#include "target/Target.h"

#include <gtest/gtest.h>

namespace strata::test {

inline void expectRunMatchesReference(const compiler::Program& program, const target::Target& t,
                                      const ir::Graph& g) {
    EXPECT_TRUE(compiler::verifyProgram(program, g, t).empty());
    auto emulated = emulator::emulate(program, t, g);
    ASSERT_TRUE(emulated) << joined(emulated.diagnostics());

    const auto inputs = reference::sampleInputs(g, 5);
    auto expected = reference::evaluate(g, inputs);
    ASSERT_TRUE(expected) << joined(expected.diagnostics());
    auto result = runtime::run(program, t, g, inputs);
    ASSERT_TRUE(result) << joined(result.diagnostics());
    auto c = reference::compare(result->outputs[0], (*expected)[0], 1e-4, 1e-3);
    EXPECT_TRUE(c.ok) << c.message;
}

} // namespace strata::test

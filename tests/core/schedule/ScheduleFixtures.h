#pragma once
// Models and targets the schedule tests share.

#include "ir/Graph.h"
#include "target/Target.h"

#include <memory>
#include <string>

namespace strata::test {

// X[1,4,8,8] -> Conv_0 (3x3, pad 1) -> Relu_1 -> Conv_2 (3x3, pad 1) -> Relu_3 -> Y.
std::shared_ptr<const ir::Graph> convChain();

// A diamond: Relu_0 feeds Sigmoid_1 and Tanh_2, which Add_3 joins; Relu_4 ends it.
std::shared_ptr<const ir::Graph> diamond();

// A bundled sample ("resnet_tiny.onnx", ...).
std::shared_ptr<const ir::Graph> sample(const std::string& file);

target::Target preset(const std::string& name);

// mncore2 with its working memory (L2BM) shrunk or grown to `bytes`.
target::Target withWorkingMemory(target::Target target, std::uint64_t bytes);

ir::OpId opNamed(const ir::Graph& graph, const std::string& name);

} // namespace strata::test

#pragma once
// The models strata_make_samples writes. Each is deterministic: same program, same bytes.
// All use ir_version 8, opset 17 and a symbolic batch dim "N" on the graph input.

#include <onnx/onnx_pb.h>

namespace strata::samples {

// ResNet-style CNN on "image" [N,3,64,64] -> "logits" [N,10]; flattens through a shape-only
// subgraph (Shape, Gather, Unsqueeze, Concat, Reshape) for the importer's constant folding.
onnx::ModelProto makeResnetTiny();

// MobileNetV2-style CNN on "image" [N,3,64,64] -> "logits" [N,10]: inverted residual blocks
// with depthwise convs and relu6 as Clip(0, 6).
onnx::ModelProto makeMobilenetTiny();

// `layers` pre-norm transformer blocks (hidden 64, 4 heads, FFN 256) on "tokens" [N,16,64]
// -> "hidden" [N,16,64]. One layer is the transformer_block sample; many make the big
// benchmark model. Requires layers >= 1.
onnx::ModelProto makeTransformer(int layers);

} // namespace strata::samples

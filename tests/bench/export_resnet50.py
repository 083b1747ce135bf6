#!/usr/bin/python3
"""Exports torchvision's ResNet-50 with random weights to ONNX (opset 17, dynamic batch "N").

Usage: export_resnet50.py OUTPUT.onnx

Run with Debian's /usr/bin/python3 (python3-torch, python3-torchvision, python3-onnx). Weights
are seeded so repeated exports match in size and structure; they are not meant to classify.
"""

import os
import sys

import onnx
import torch
import torchvision

OPSET = 17
SEED = 0


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    output = sys.argv[1]

    torch.manual_seed(SEED)
    model = torchvision.models.resnet50(weights=None).eval()
    example = torch.randn(1, 3, 224, 224)
    torch.onnx.export(
        model,
        example,
        output,
        opset_version=OPSET,
        input_names=["image"],
        output_names=["logits"],
        dynamic_axes={"image": {0: "N"}, "logits": {0: "N"}},
    )

    # By path, so the C++ checker reads the file itself rather than a second in-memory copy.
    onnx.checker.check_model(output, full_check=True)
    nodes = len(onnx.load(output, load_external_data=False).graph.node)
    print(f"{output}: {nodes} nodes, {os.path.getsize(output)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Exports benchmark models to ONNX (opset 17, dynamic batch "N"), with seeded random weights.

Usage: export_models.py MODEL OUTPUT.onnx
  MODEL: a torchvision model name (resnet50, mobilenet_v2, densenet121, ...), or transformer (a pre-norm encoder written
         out in plain torch ops: 4 layers, d_model 256, 8 heads, sequence 128; PyTorch's own
         TransformerEncoder exports a fused fast-path op in eval mode that ONNX cannot express)

Run with Debian's /usr/bin/python3 (python3-torch, python3-torchvision, python3-onnx). The
weights are not meant to classify; repeated exports match in size and structure.
"""

import os
import sys

import onnx
import torch

OPSET = 17
SEED = 0


class EncoderLayer(torch.nn.Module):
    def __init__(self, d_model, heads, ffn):
        super().__init__()
        self.heads = heads
        self.norm1 = torch.nn.LayerNorm(d_model)
        self.qkv = torch.nn.Linear(d_model, 3 * d_model)
        self.proj = torch.nn.Linear(d_model, d_model)
        self.norm2 = torch.nn.LayerNorm(d_model)
        self.up = torch.nn.Linear(d_model, ffn)
        self.down = torch.nn.Linear(ffn, d_model)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        split = lambda t: t.reshape(b, s, self.heads, d // self.heads).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        attention = torch.softmax(q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5, dim=-1)
        x = x + self.proj((attention @ v).transpose(1, 2).reshape(b, s, d))
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm2(x))))


def transformer():
    model = torch.nn.Sequential(*[EncoderLayer(256, 8, 1024) for _ in range(4)])
    return model, torch.randn(1, 128, 256), ["tokens"], ["hidden"]


def torchvision_model(name):
    import torchvision
    model = getattr(torchvision.models, name)(weights=None)
    return model, torch.randn(1, 3, 224, 224), ["image"], ["logits"]


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    name, output = sys.argv[1], sys.argv[2]

    torch.manual_seed(SEED)
    model, example, inputs, outputs = transformer() if name == "transformer" else torchvision_model(name)
    model = model.eval()
    with torch.no_grad():
        torch.onnx.export(model, example, output, opset_version=OPSET, input_names=inputs,
                          output_names=outputs,
                          dynamic_axes={inputs[0]: {0: "N"}, outputs[0]: {0: "N"}})

    # By path, so the C++ checker reads the file itself rather than a second in-memory copy.
    onnx.checker.check_model(output, full_check=True)
    nodes = len(onnx.load(output, load_external_data=False).graph.node)
    print(f"{output}: {nodes} nodes, {os.path.getsize(output)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

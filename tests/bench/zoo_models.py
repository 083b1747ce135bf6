#!/usr/bin/python3
"""Exports Strata's model zoo: architectures users bring, as ONNX files (opset 17, seeded
random weights, static shapes). Not committed; regenerate with make_zoo.sh.

Usage: zoo_models.py list
       zoo_models.py export NAME OUTPUT.onnx

Run with Debian's /usr/bin/python3 (python3-torch, python3-torchvision, python3-onnx). The
weights are not meant to classify; repeated exports match in size and structure.
"""

import math
import os
import re
import sys

import onnx
import torch

OPSET = 17
SEED = 0


# --- transformer stacks written with torch.nn, the way GPT- and BERT-style code is -----------

class FusedQkvAttention(torch.nn.Module):
    """Self-attention with one fused QKV projection, split into heads (torch.split -> Split)."""

    def __init__(self, d_model, heads):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(d_model, 3 * d_model)
        self.proj = torch.nn.Linear(d_model, d_model)

    def forward(self, x, additive_mask):
        b, s, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        heads = lambda t: t.view(b, s, self.heads, d // self.heads).permute(0, 2, 1, 3)
        q, k, v = heads(q), heads(k), heads(v)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(d // self.heads)
        weights = torch.softmax(scores + additive_mask, dim=-1)
        out = torch.matmul(weights, v).permute(0, 2, 1, 3).reshape(b, s, d)
        return self.proj(out)


class GptBlock(torch.nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.ln1 = torch.nn.LayerNorm(d_model)
        self.attn = FusedQkvAttention(d_model, heads)
        self.ln2 = torch.nn.LayerNorm(d_model)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(d_model, 4 * d_model), torch.nn.GELU(),
                                       torch.nn.Linear(4 * d_model, d_model))

    def forward(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        return x + self.mlp(self.ln2(x))


class Gpt(torch.nn.Module):
    """A GPT-2-style decoder: token and position embeddings, causal mask, pre-norm blocks."""

    def __init__(self, vocab=8192, seq=128, d_model=256, heads=8, layers=4):
        super().__init__()
        self.tokens = torch.nn.Embedding(vocab, d_model)
        self.positions = torch.nn.Embedding(seq, d_model)
        self.blocks = torch.nn.ModuleList([GptBlock(d_model, heads) for _ in range(layers)])
        self.ln = torch.nn.LayerNorm(d_model)
        self.head = torch.nn.Linear(d_model, vocab, bias=False)

    def forward(self, ids):
        s = ids.shape[1]
        pos = torch.arange(s, device=ids.device).unsqueeze(0)
        x = self.tokens(ids) + self.positions(pos)
        causal = torch.full((s, s), float("-inf")).triu(1)
        for block in self.blocks:
            x = block(x, causal)
        return self.head(self.ln(x))


class BertLayer(torch.nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.attn = FusedQkvAttention(d_model, heads)
        self.ln1 = torch.nn.LayerNorm(d_model)
        self.up = torch.nn.Linear(d_model, 4 * d_model)
        self.down = torch.nn.Linear(4 * d_model, d_model)
        self.ln2 = torch.nn.LayerNorm(d_model)

    def forward(self, x, mask):
        x = self.ln1(x + self.attn(x, mask))
        return self.ln2(x + self.down(torch.nn.functional.gelu(self.up(x))))


class Bert(torch.nn.Module):
    """A BERT-style encoder: embeddings, a padding mask from the attention_mask input, post-norm."""

    def __init__(self, vocab=8192, seq=128, d_model=256, heads=4, layers=4):
        super().__init__()
        self.tokens = torch.nn.Embedding(vocab, d_model)
        self.positions = torch.nn.Parameter(torch.randn(1, seq, d_model) * 0.02)
        self.ln = torch.nn.LayerNorm(d_model)
        self.layers = torch.nn.ModuleList([BertLayer(d_model, heads) for _ in range(layers)])
        self.pool = torch.nn.Linear(d_model, d_model)

    def forward(self, ids, attention_mask):
        x = self.ln(self.tokens(ids) + self.positions)
        additive = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -10000.0
        for layer in self.layers:
            x = layer(x, additive)
        return torch.tanh(self.pool(x[:, 0]))


class EncoderLayer(torch.nn.Module):
    """The pre-norm encoder of export_models.py's `transformer` (chunk -> Split, GELU)."""

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


class FpnBackbone(torch.nn.Module):
    """A detection backbone: ResNet-18 with torchvision's feature pyramid (upsampling adds)."""

    def __init__(self):
        super().__init__()
        from torchvision.models.detection.backbone_utils import resnet_fpn_backbone
        self.body = resnet_fpn_backbone(backbone_name="resnet18", weights=None, trainable_layers=5)

    def forward(self, x):
        return tuple(self.body(x).values())


class Segmentation(torch.nn.Module):
    """A torchvision segmentation model's `out` map (the dict output is not exportable as is)."""

    def __init__(self, name):
        super().__init__()
        import torchvision
        kwargs = {"weights": None, "weights_backbone": None}
        if name != "lraspp_mobilenet_v3_large":
            kwargs["aux_loss"] = False
        self.model = getattr(torchvision.models.segmentation, name)(**kwargs)

    def forward(self, x):
        return self.model(x)["out"]


# --- the zoo ------------------------------------------------------------------------------------

def image(size=224, batch=1):
    return (torch.randn(batch, 3, size, size),), ["image"]


def tokens(batch=1, seq=128, vocab=8192, mask=False):
    ids = torch.randint(0, vocab, (batch, seq), dtype=torch.int64)
    if not mask:
        return (ids,), ["ids"]
    attention = torch.ones(batch, seq, dtype=torch.int64)
    attention[:, seq * 3 // 4:] = 0
    return (ids, attention), ["ids", "attention_mask"]


def torchvision_model(name, **kwargs):
    import torchvision
    return getattr(torchvision.models, name)(weights=None, **kwargs)


# name -> (builder of the module, builder of (example inputs, input names))
ZOO = {
    "resnet18": (lambda: torchvision_model("resnet18"), image),
    "resnet50": (lambda: torchvision_model("resnet50"), image),
    "resnext50_32x4d": (lambda: torchvision_model("resnext50_32x4d"), image),
    "wide_resnet50_2": (lambda: torchvision_model("wide_resnet50_2"), image),
    "regnet_y_400mf": (lambda: torchvision_model("regnet_y_400mf"), image),
    "regnet_x_800mf": (lambda: torchvision_model("regnet_x_800mf"), image),
    "mobilenet_v2": (lambda: torchvision_model("mobilenet_v2"), image),
    "mobilenet_v3_large": (lambda: torchvision_model("mobilenet_v3_large"), image),
    "mobilenet_v3_small": (lambda: torchvision_model("mobilenet_v3_small"), image),
    "efficientnet_b0": (lambda: torchvision_model("efficientnet_b0"), image),
    "efficientnet_v2_s": (lambda: torchvision_model("efficientnet_v2_s"), image),
    "mnasnet1_0": (lambda: torchvision_model("mnasnet1_0"), image),
    "shufflenet_v2_x1_0": (lambda: torchvision_model("shufflenet_v2_x1_0"), image),
    "squeezenet1_1": (lambda: torchvision_model("squeezenet1_1"), image),
    "densenet121": (lambda: torchvision_model("densenet121"), image),
    "googlenet": (lambda: torchvision_model("googlenet", aux_logits=False, init_weights=True), image),
    "inception_v3": (lambda: torchvision_model("inception_v3", aux_logits=False, init_weights=True),
                     lambda: image(299)),
    "vgg11_bn": (lambda: torchvision_model("vgg11_bn"), image),
    "alexnet": (lambda: torchvision_model("alexnet"), image),
    "convnext_tiny": (lambda: torchvision_model("convnext_tiny"), image),
    "vit_b_16": (lambda: torchvision_model("vit_b_16"), image),
    "swin_t": (lambda: torchvision_model("swin_t"), image),
    "maxvit_t": (lambda: torchvision_model("maxvit_t"), image),
    "fcn_resnet50": (lambda: Segmentation("fcn_resnet50"), image),
    "deeplabv3_mobilenet_v3_large": (lambda: Segmentation("deeplabv3_mobilenet_v3_large"), image),
    "lraspp_mobilenet_v3_large": (lambda: Segmentation("lraspp_mobilenet_v3_large"), image),
    "fpn_resnet18": (FpnBackbone, lambda: image(256)),
    "gpt": (Gpt, tokens),
    "bert": (Bert, lambda: tokens(mask=True)),
    "transformer": (lambda: torch.nn.Sequential(*[EncoderLayer(256, 8, 1024) for _ in range(4)]),
                    lambda: ((torch.randn(1, 128, 256),), ["tokens"])),
    "resnet18_b8": (lambda: torchvision_model("resnet18"), lambda: image(batch=8)),
}


def export(name, output):
    build_model, build_inputs = ZOO[name]
    torch.manual_seed(SEED)
    model = build_model().eval()
    example, input_names = build_inputs()
    tmp = output + ".partial"
    # Dynamic batch, as most exports users bring are; a name ending in _bN keeps its batch static.
    dynamic = None if re.search(r"_b\d+$", name) else {n: {0: "N"} for n in input_names}
    # Gradients stay enabled: under no_grad, eval-mode nn.MultiheadAttention (ViT, the encoders)
    # takes a fused fast path that has no ONNX export.
    torch.onnx.export(model, example, tmp, opset_version=OPSET, input_names=input_names,
                      dynamic_axes=dynamic, do_constant_folding=True)
    onnx.checker.check_model(tmp, full_check=True)
    os.replace(tmp, output)
    nodes = len(onnx.load(output, load_external_data=False).graph.node)
    print(f"{output}: {nodes} nodes, {os.path.getsize(output)} bytes")


def main() -> int:
    if len(sys.argv) == 2 and sys.argv[1] == "list":
        print("\n".join(ZOO))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "export" and sys.argv[2] in ZOO:
        export(sys.argv[2], sys.argv[3])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())

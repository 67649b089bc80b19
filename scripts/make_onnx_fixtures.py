#!/usr/bin/python3
"""Make the weightless ONNX fixtures in tests/models/data/onnx/ (run once; tests never need torch).

Run with Debian's interpreter, which has torch 1.13, torchvision and onnx:

    /usr/bin/python3 scripts/make_onnx_fixtures.py [--out DIR] [--weights] [--only NAME ...]

Each fixture is exported with torch.onnx.export (opset 13, do_constant_folding=True, eval mode,
static shapes, seed 0) and then stripped so the committed file stays small:

  * Every FLOATING-POINT initializer with more than 64 elements becomes an ONNX external-data
    reference (TensorProto.data_location = EXTERNAL; external_data keys "location",
    "offset", "length"), with its dims and data_type kept and no raw_data / *_data fields. The
    location is "<fixture>.weights.bin" beside the .onnx file; that file is NOT committed and
    is only written with --weights (offsets are the same either way). An importer that reads
    the ModelProto with libonnx 1.12 gets every initializer's name, dims and data_type without
    opening the data file; only a functional run that asks for values needs it. onnx 1.12's
    checker rejects the stripped files (it wants the external file): do not run it on them.
  * Everything else stays inline: float initializers of at most 64 elements (scalars such as
    eps, 0.5, sqrt(2), biases of tiny layers), float additive attention masks of at most 4096
    elements (every value 0 or <= -1e4), every integer and bool initializer (shape tensors,
    gather indices, boolean causal masks: their values carry structure), and every Constant
    node. A graph pass that folds a causal mask into an attention op needs these values.

Expected MACs and parameter counts are computed here from the torch modules, independently of
the ONNX files: forward hooks on nn.Conv2d, nn.Linear, nn.MultiheadAttention, this script's
TiedLmHead (counted as linear) and its MatMul module count multiply-accumulates during one
forward pass on the export input (a tuple for a model with several inputs).
"params" is sum(p.numel()) over the torch module's parameters; "initializer_elements" is the
element count of the exported initializers (differs: export folds BatchNorm into Conv,
transposes Linear weights into new initializers, and turns buffers into initializers).
Both go to expected.json and README.md.
"""

import argparse
import json
import math
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from onnx import external_data_helper, numpy_helper

OPSET = 13
INLINE_MAX_ELEMENTS = 64
MASK_MAX_ELEMENTS = 4096
FLOAT_TYPES = {
    onnx.TensorProto.FLOAT,
    onnx.TensorProto.FLOAT16,
    onnx.TensorProto.BFLOAT16,
    onnx.TensorProto.DOUBLE,
}


class MatMul(nn.Module):
    """torch.matmul as a module, so a forward hook can count attention MACs."""

    def forward(self, a, b):
        return torch.matmul(a, b)


# ---------------------------------------------------------------------------------------------
# Small transformer models written here (the decomposed patterns are the point of them).


class GptBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(d, eps=1e-5)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d, eps=1e-5)
        self.fc = nn.Linear(d, 4 * d)
        self.fc_out = nn.Linear(4 * d, d)
        self.gelu = nn.GELU()  # erf form
        self.score = MatMul()
        self.context = MatMul()

    def forward(self, x, masked):
        b, s, d = x.shape
        hd = d // self.heads
        q, k, v = self.qkv(self.ln_1(x)).split(d, dim=2)
        q = q.view(b, s, self.heads, hd).transpose(1, 2)
        k = k.view(b, s, self.heads, hd).transpose(1, 2)
        v = v.view(b, s, self.heads, hd).transpose(1, 2)
        att = self.score(q, k.transpose(-2, -1)) / math.sqrt(hd)
        att = att.masked_fill(masked, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = self.context(att, v).transpose(1, 2).reshape(b, s, d)
        x = x + self.proj(y)
        return x + self.fc_out(self.gelu(self.fc(self.ln_2(x))))


class TinyGpt(nn.Module):
    """2 layers, d=64, 4 heads, vocab 256, context 16; untied LM head."""

    def __init__(self, vocab=256, d=64, heads=4, layers=2, seq=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(seq, d)
        self.blocks = nn.ModuleList([GptBlock(d, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d, eps=1e-5)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        # One causal mask for every block (the exporter still gives the second block's folded
        # copy as an Identity of the first's).
        self.register_buffer("mask", torch.tril(torch.ones(seq, seq, dtype=torch.bool)))

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], dtype=torch.long).unsqueeze(0)
        x = self.wte(ids) + self.wpe(pos)
        s = ids.shape[1]
        masked = ~self.mask[:s, :s]  # True above the diagonal
        for block in self.blocks:
            x = block(x, masked)
        return self.lm_head(self.ln_f(x))


class RmsNorm(nn.Module):
    """Decomposed on purpose: pow 2, mean, add eps, rsqrt, mul, mul weight (Llama's form)."""

    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaBlock(nn.Module):
    """One Llama-style block: RMSNorm, RoPE (rotate_half), GQA 4 query / 2 KV heads, SwiGLU."""

    def __init__(self, d=64, heads=4, kv_heads=2, ffn=128, seq=16, theta=10000.0):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, d // heads
        self.input_norm = RmsNorm(d)
        self.q_proj = nn.Linear(d, heads * self.hd, bias=False)
        self.k_proj = nn.Linear(d, kv_heads * self.hd, bias=False)
        self.v_proj = nn.Linear(d, kv_heads * self.hd, bias=False)
        self.o_proj = nn.Linear(heads * self.hd, d, bias=False)
        self.post_norm = RmsNorm(d)
        self.gate_proj = nn.Linear(d, ffn, bias=False)
        self.up_proj = nn.Linear(d, ffn, bias=False)
        self.down_proj = nn.Linear(ffn, d, bias=False)
        self.score = MatMul()
        self.context = MatMul()
        inv = 1.0 / theta ** (torch.arange(0, self.hd, 2).float() / self.hd)
        freqs = torch.outer(torch.arange(seq).float(), inv)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos", emb.cos())
        self.register_buffer("sin", emb.sin())
        causal = torch.full((seq, seq), float("-inf")).triu(1)  # additive mask
        self.register_buffer("mask", causal)

    def forward(self, x):
        b, s, _ = x.shape
        h = self.input_norm(x)
        q = self.q_proj(h).view(b, s, self.heads, self.hd).transpose(1, 2)
        k = self.k_proj(h).view(b, s, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v_proj(h).view(b, s, self.kv_heads, self.hd).transpose(1, 2)
        cos, sin = self.cos[:s], self.sin[:s]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        group = self.heads // self.kv_heads
        # Hugging Face's repeat_kv: expand then reshape (repeat_interleave exports poorly).
        k = k[:, :, None].expand(b, self.kv_heads, group, s, self.hd).reshape(b, -1, s, self.hd)
        v = v[:, :, None].expand(b, self.kv_heads, group, s, self.hd).reshape(b, -1, s, self.hd)
        att = self.score(q, k.transpose(2, 3)) / math.sqrt(self.hd)
        att = F.softmax(att + self.mask[:s, :s], dim=-1)
        y = self.context(att, v).transpose(1, 2).reshape(b, s, self.heads * self.hd)
        x = x + self.o_proj(y)
        h = self.post_norm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


class Gpt2Block(nn.Module):
    """Hugging Face GPT-2's block: pre-LN, fused qkv, causal mask, GELU tanh (NewGELU)."""

    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(d, eps=1e-5)
        self.qkv = nn.Linear(d, 3 * d)  # HF's c_attn (a Conv1D [d, 3d]: same MACs and params)
        self.proj = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d, eps=1e-5)
        self.fc = nn.Linear(d, 4 * d)
        self.fc_out = nn.Linear(4 * d, d)
        self.gelu = nn.GELU(approximate="tanh")
        self.score = MatMul()
        self.context = MatMul()

    def forward(self, x, masked):
        b, s, d = x.shape
        hd = d // self.heads
        q, k, v = self.qkv(self.ln_1(x)).split(d, dim=2)
        q = q.view(b, s, self.heads, hd).transpose(1, 2)
        k = k.view(b, s, self.heads, hd).transpose(1, 2)
        v = v.view(b, s, self.heads, hd).transpose(1, 2)
        att = self.score(q, k.transpose(-2, -1)) / math.sqrt(hd)
        att = att.masked_fill(masked, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = self.context(att, v).transpose(1, 2).reshape(b, s, d)
        x = x + self.proj(y)
        return x + self.fc_out(self.gelu(self.fc(self.ln_2(x))))


class TiedLmHead(nn.Module):
    """Logits against the [V, d] token embedding (no parameter of its own).

    Written as wte @ x^T so the exported MatMul reads the wte initializer itself (as its A
    operand, plus two small Transposes). nn.Linear / F.linear without a bias export as MatMul
    with a constant-folded transposed COPY of wte, a second 38.6M-element initializer that
    would break the tie (and torch 1.13 only emits Gemm transB=1 when there is a bias)."""

    def __init__(self, wte):
        super().__init__()
        self.wte = wte

    def forward(self, x):
        b, s, d = x.shape
        return torch.matmul(self.wte.weight, x.reshape(b * s, d).t()).t().reshape(b, s, -1)


class Gpt2Small(nn.Module):
    """Hugging Face GPT-2 small: d 768, 12 layers, 12 heads, vocab 50257, context 1024; the LM
    head is tied to wte and computes the last position only (tessel's gpt2 prefill)."""

    def __init__(self, vocab=50257, d=768, heads=12, layers=12, context=1024):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(context, d)
        self.h = nn.ModuleList([Gpt2Block(d, heads) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d, eps=1e-5)
        self.lm_head = TiedLmHead(self.wte)
        self.register_buffer("bias", torch.tril(torch.ones(context, context, dtype=torch.bool)))

    def forward(self, ids):
        s = ids.shape[1]
        pos = torch.arange(s, dtype=torch.long).unsqueeze(0)
        x = self.wte(ids) + self.wpe(pos)
        masked = ~self.bias[:s, :s]  # True above the diagonal
        for block in self.h:
            x = block(x, masked)
        return self.lm_head(self.ln_f(x)[:, -1:, :])


class BertLayer(nn.Module):
    """Hugging Face BertLayer: q/k/v/o Linear, no mask, post-LN (eps 1e-12), erf GELU FFN."""

    def __init__(self, d, heads, ffn, eps=1e-12):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(d, d)
        self.key = nn.Linear(d, d)
        self.value = nn.Linear(d, d)
        self.output = nn.Linear(d, d)
        self.attn_ln = nn.LayerNorm(d, eps=eps)
        self.intermediate = nn.Linear(d, ffn)
        self.gelu = nn.GELU()  # erf form
        self.out = nn.Linear(ffn, d)
        self.ffn_ln = nn.LayerNorm(d, eps=eps)
        self.score = MatMul()
        self.context = MatMul()

    def forward(self, x):
        b, s, d = x.shape
        hd = d // self.heads
        q = self.query(x).view(b, s, self.heads, hd).transpose(1, 2)
        k = self.key(x).view(b, s, self.heads, hd).transpose(1, 2)
        v = self.value(x).view(b, s, self.heads, hd).transpose(1, 2)
        att = F.softmax(self.score(q, k.transpose(-1, -2)) / math.sqrt(hd), dim=-1)
        y = self.context(att, v).transpose(1, 2).reshape(b, s, d)
        x = self.attn_ln(x + self.output(y))
        return self.ffn_ln(x + self.out(self.gelu(self.intermediate(x))))


class BertBase(nn.Module):
    """BertModel's embeddings and encoder (bert-base-uncased sizes) without the pooler."""

    def __init__(self, vocab=30522, d=768, heads=12, layers=12, ffn=3072, positions=512,
                 types=2, eps=1e-12):
        super().__init__()
        self.word = nn.Embedding(vocab, d)
        self.position = nn.Embedding(positions, d)
        self.token_type = nn.Embedding(types, d)
        self.ln = nn.LayerNorm(d, eps=eps)
        self.layer = nn.ModuleList([BertLayer(d, heads, ffn, eps) for _ in range(layers)])

    def forward(self, ids, token_types):
        pos = torch.arange(ids.shape[1], dtype=torch.long).unsqueeze(0)
        x = self.word(ids) + self.position(pos) + self.token_type(token_types)
        x = self.ln(x)
        for layer in self.layer:
            x = layer(x)
        return x


# ---------------------------------------------------------------------------------------------
# Counting.


def count_macs(model, example):
    """MACs of one forward pass, from hooks on the modules that multiply."""
    total = {"conv": 0, "linear": 0, "matmul": 0}

    def conv_hook(m, inp, out):
        k = (m.in_channels // m.groups) * m.kernel_size[0] * m.kernel_size[1]
        total["conv"] += out.numel() * k

    def linear_hook(m, inp, out):
        total["linear"] += out.numel() * m.in_features

    def matmul_hook(m, inp, out):
        total["matmul"] += out.numel() * inp[0].shape[-1]

    def tied_hook(m, inp, out):
        total["linear"] += out.numel() * m.wte.embedding_dim

    def mha_hook(m, inp, out):
        # torchvision's ViT calls nn.MultiheadAttention(query=x, key=x, value=x) by keyword
        # (torch 1.13 hooks see no keyword inputs), batch_first: self-attention, so T = S.
        # Its projections run as F.linear inside, so no Linear hook sees them.
        assert m.batch_first and m._qkv_same_embed_dim
        b, s, e = out[0].shape
        t = s
        total["linear"] += b * s * e * 3 * e + b * s * e * e
        total["matmul"] += 2 * b * s * t * e

    hooks = []
    for mod in model.modules():
        if isinstance(mod, nn.Conv2d):
            hooks.append(mod.register_forward_hook(conv_hook))
        elif isinstance(mod, nn.MultiheadAttention):
            hooks.append(mod.register_forward_hook(mha_hook))
        elif isinstance(mod, nn.Linear) and not _inside_mha(model, mod):
            hooks.append(mod.register_forward_hook(linear_hook))
        elif isinstance(mod, MatMul):
            hooks.append(mod.register_forward_hook(matmul_hook))
        elif isinstance(mod, TiedLmHead):
            hooks.append(mod.register_forward_hook(tied_hook))
    with torch.no_grad():
        model(*example) if isinstance(example, tuple) else model(example)
    for h in hooks:
        h.remove()
    return total


def _inside_mha(model, linear):
    return any(
        isinstance(m, nn.MultiheadAttention) and m.out_proj is linear for m in model.modules()
    )


# ---------------------------------------------------------------------------------------------
# Export and strip.


def is_mask(array):
    """An additive attention mask: only 0 and very negative values (structure, not weights)."""
    return array.size <= MASK_MAX_ELEMENTS and bool(np.all((array == 0) | (array <= -1e4)))


def strip_weights(model_proto, location):
    """Large float initializers -> external-data references; returns bytes for --weights."""
    blob = bytearray()
    for init in model_proto.graph.initializer:
        n = int(np.prod(init.dims)) if len(init.dims) else 1
        if init.data_type not in FLOAT_TYPES or n <= INLINE_MAX_ELEMENTS:
            continue
        array = numpy_helper.to_array(init)
        if is_mask(array):
            continue
        raw = array.tobytes()
        while len(blob) % 4096:  # onnx's own alignment for external data
            blob.append(0)
        offset = len(blob)
        blob.extend(raw)
        external_data_helper.set_external_data(init, location, offset=offset, length=len(raw))
        init.ClearField("raw_data")
        for field in ("float_data", "double_data", "int32_data"):
            init.ClearField(field)
        init.data_location = onnx.TensorProto.EXTERNAL
    return bytes(blob)


def initializer_elements(model_proto):
    return sum(int(np.prod(i.dims)) if len(i.dims) else 1 for i in model_proto.graph.initializer)


def export(name, model, example, input_name, out_dir, write_weights):
    model.eval()
    path = os.path.join(out_dir, name + ".onnx")
    macs = count_macs(model, example)
    torch.onnx.export(
        model,
        example,
        path,
        opset_version=OPSET,
        do_constant_folding=True,
        input_names=list(input_name) if isinstance(input_name, tuple) else [input_name],
        output_names=["output"],
    )
    proto = onnx.load(path)
    onnx.checker.check_model(proto)  # before stripping: the export itself is valid
    elements = initializer_elements(proto)
    blob = strip_weights(proto, name + ".weights.bin")
    onnx.save(proto, path)
    if write_weights:
        with open(os.path.join(out_dir, name + ".weights.bin"), "wb") as f:
            f.write(blob)
    ops = {}
    for node in proto.graph.node:
        ops[node.op_type] = ops.get(node.op_type, 0) + 1
    if isinstance(example, tuple):  # several inputs: a list under "inputs"
        inputs = {"inputs": [{"name": n, "shape": list(e.shape), "dtype": str(e.dtype)}
                             for n, e in zip(input_name, example)]}
    else:
        inputs = {"input": {"name": input_name, "shape": list(example.shape),
                            "dtype": str(example.dtype)}}
    return {
        "file": name + ".onnx",
        **inputs,
        "macs": sum(macs.values()),
        "macs_by_kind": macs,
        "params": sum(p.numel() for p in model.parameters()),
        "initializer_elements": elements,
        "nodes": len(proto.graph.node),
        "node_types": dict(sorted(ops.items())),
        "bytes": os.path.getsize(path),
    }


def fixtures():
    """name -> (description, constructor, example input factory, input name)."""
    tv = torchvision.models
    image = lambda: torch.randn(1, 3, 224, 224)
    ids = lambda: torch.randint(0, 256, (1, 16), dtype=torch.long)
    return {
        "mobilenet_v2": ("torchvision mobilenet_v2, 224x224, batch 1", tv.mobilenet_v2, image,
                         "image"),
        "resnet18": ("torchvision resnet18, 224x224, batch 1", tv.resnet18, image, "image"),
        "shufflenet_v2_x0_5": (
            "torchvision shufflenet_v2_x0_5, 224x224, batch 1 (channel shuffle: "
            "Reshape/Transpose/Reshape)", tv.shufflenet_v2_x0_5, image, "image"),
        "vit_b_16": ("torchvision vit_b_16, 224x224, batch 1", tv.vit_b_16, image, "image"),
        "tiny_gpt": ("GPT-style decoder: 2 layers, d=64, 4 heads, vocab 256, 16 tokens, causal "
                     "mask (Where), GELU-erf, LayerNorm (decomposed at opset 13), untied head",
                     TinyGpt, ids, "input_ids"),
        "tiny_llama_block": (
            "one Llama-style block on hidden states [1, 16, 64]: RMSNorm (decomposed, "
            "eps 1e-6), RoPE (rotate_half), GQA 4 query / 2 KV heads of 16, additive causal "
            "mask, SwiGLU FFN 128", LlamaBlock, lambda: torch.randn(1, 16, 64), "hidden"),
        # The networks tessel also builds by hand (tests/models/onnx/builders_match_test.cpp).
        "resnet50": ("torchvision resnet50 (v1.5), 224x224, batch 1", tv.resnet50, image,
                     "image"),
        "gpt2_small": (
            "GPT-2 small (HF layout): 12 pre-LN layers, d=768, 12 heads, vocab 50257, context "
            "1024, fused qkv, causal mask (Where), GELU-tanh, ln_f, LM head tied to wte on the "
            "last position only (MatMul wte @ x^T), 512 tokens", Gpt2Small,
            lambda: torch.randint(0, 50257, (1, 512), dtype=torch.long), "input_ids"),
        "bert_base": (
            "BERT-base encoder (HF BertModel without pooler): word/position/token-type "
            "embeddings + LayerNorm eps 1e-12, 12 post-LN layers, q/k/v/o Linear, no attention "
            "mask, GELU-erf FFN 3072, 128 tokens", BertBase,
            lambda: (torch.randint(0, 30522, (1, 128), dtype=torch.long),
                     torch.randint(0, 2, (1, 128), dtype=torch.long)),
            ("input_ids", "token_type_ids")),
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.join(here, "..", "tests", "models", "data", "onnx")
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=default_out)
    ap.add_argument("--weights", action="store_true", help="also write <name>.weights.bin")
    ap.add_argument("--only", nargs="*", help="fixture names (default: all)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    expected_path = os.path.join(args.out, "expected.json")
    expected = {}
    if os.path.exists(expected_path):
        with open(expected_path) as f:
            expected = json.load(f)
    for name, (desc, make, example, input_name) in fixtures().items():
        if args.only and name not in args.only:
            continue
        torch.manual_seed(0)
        model = make()
        with torch.no_grad():
            # Distinct values everywhere: the exporter merges equal initializers (every
            # LayerNorm's ones) into one, which would hide parameters from an importer's count.
            for p in model.parameters():
                p.add_(torch.randn_like(p) * 1e-3)
        torch.manual_seed(1)
        record = export(name, model, example(), input_name, args.out, args.weights)
        record["description"] = desc
        expected[name] = record
        print(f"{name}: {record['macs']:,} MACs, {record['params']:,} params, "
              f"{record['bytes']:,} bytes", file=sys.stderr)
    expected["_meta"] = {
        "opset": OPSET,
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "onnx": onnx.__version__,
        "inline_max_float_elements": INLINE_MAX_ELEMENTS,
        "script": "scripts/make_onnx_fixtures.py",
    }
    with open(expected_path, "w") as f:
        json.dump(dict(sorted(expected.items())), f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()

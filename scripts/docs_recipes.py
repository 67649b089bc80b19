"""Recipes for the figures the docs quote: `<!-- fig NAME -->` or `<!-- fig NAME:ARG -->`.

A recipe is a tessel command line (without `tessel`, run from the repository root in a sandbox)
and a function from what it prints (stdout and stderr) to the figure's exact text. Figures are
taken from the printed table where tessel formats them, from `--json -` where the doc rounds
differently. Add one with @recipe('name'); a function of ARG makes a family (one per table row).
"""

import json
import re
from dataclasses import dataclass
from typing import Callable


@dataclass
class Recipe:
    command: str
    extract: Callable[[str], str]
    exit: int = 0
    slow: bool = False


_RECIPES = {}


def recipe(name):
    def add(fn):
        _RECIPES[name] = fn
        return fn
    return add


def lookup(spec):
    name, _, arg = spec.partition(':')
    fn = _RECIPES.get(name)
    if fn is None:
        return None
    try:
        return fn(arg) if arg else fn()
    except (KeyError, TypeError):
        return None


# ---------------------------------------------------------------- reading what tessel prints

def total(out, label):
    """A value of `tessel run`'s Totals, as printed: total(out, 'time') -> '1.52 s'."""
    return re.search(rf'^  {re.escape(label)}\s{{2,}}(.+)$', out, re.M).group(1).strip()


def row(out, first, col, section=None):
    """Column `col` (0 = the first cell) of the first row starting with `first` (whitespace
    separated), after the line containing `section` if given."""
    if section:
        out = out[out.index(section):]
    for line in out.split('\n'):
        cells = line.split()
        if cells and cells[0] == first:
            return cells[col]
    raise KeyError(first)


def sig3(printed):
    """'202.70 ms' -> '203 ms', '1.514 s' -> '1.51 s': three significant figures."""
    value, unit = printed.split()
    return f'{float(value):.3g} {unit}'


def num(text):
    return float(text.replace(',', ''))


def jtotals(out):
    """The totals of a `--json -` report (warnings on stderr may follow it)."""
    return json.JSONDecoder().raw_decode(out[out.index('{'):])[0]['totals']


def mib(b):
    return f'{round(b / 2**20):,} MiB'


def mcycles(c):
    return f'{round(c / 1e6)} M'


def pct(fraction, digits=0):
    return f'{fraction * 100:.{digits}f}%'


def cls(out, name):
    """Cycles of an op class, from `By op class`."""
    return num(row(out, name, 1, 'By op class'))


def cause_pct(out, name):
    return num(row(out, name, 2, 'By cause'))


def energy(out, comp):
    return row(out, comp, 1, 'Energy by component') + ' ' + row(out, comp, 2, 'Energy by component')


# ---------------------------------------------------------------- README: a worked example

DEMO = 'run --arch configs/arch/gemmini-default.yaml --workload gpt2-small --phase prefill --seq 512'


@recipe('demo')
def _demo(field):
    """Figures of make demo's run (the same command without --json)."""
    get = {
        'dram': lambda o: total(o, 'DRAM bytes').split(' (')[0],
        'qd_pct': lambda o: f'{num(row(o, "QuantDequant", 2, "By op class")):.0f}%',
        'host_pct': lambda o: f'{cause_pct(o, "host"):.0f}%',
        'host_mj': lambda o: f'{num(row(o, "host", 1, "Energy by component")):.0f}',
        'energy_mj': lambda o: f'{num(total(o, "energy").split()[0]):.0f} mJ',
        'dram_mj': lambda o: f'{num(row(o, "dram", 1, "Energy by component")):.0f} mJ',
        'noc_mj': lambda o: f'{num(row(o, "noc", 1, "Energy by component")):.1f} mJ',
        'static_mj': lambda o: f'{num(row(o, "static", 1, "Energy by component")) / 1e3:.2f} mJ',
        'tensor': lambda o: re.search(r'by tensor, array ops: (.*)$', o, re.M).group(1),
        'offchip': lambda o: re.search(r'off-chip ([\d.]+ B/cycle)', o).group(1),
    }[field]
    return Recipe(DEMO, get)


@recipe('demo.tensors')
def _demo_tensors(which):
    i = ['inputs', 'weights', 'outputs'].index(which)

    def get(o):
        parts = re.search(r'by tensor, array ops: (.*)$', o, re.M).group(1).split(', ')
        return f'{num(parts[i].split()[1]):.0f} mJ'
    return Recipe(DEMO, get)


@recipe('sfu')
def _sfu(which):
    cmd = {'survey': 'run --arch configs/arch/gemmini-survey-model.yaml --workload gpt2-small --seq 512',
           'ideal': 'run --arch configs/arch/gemmini-default.yaml --workload gpt2-small --ideal-memory',
           'ideal.host': 'run --arch configs/arch/gemmini-default.yaml --workload gpt2-small --ideal-memory'}[which]
    if which == 'ideal.host':
        return Recipe(cmd, lambda o: f'{cause_pct(o, "host"):.0f}%')
    return Recipe(cmd, lambda o: sig3(total(o, 'time')))


# BERT-base seq 512 on gemmini-default: mapper x SRAM split x DRAM bandwidth.
BERT = 'run --arch configs/arch/gemmini-default.yaml --workload bert-base --seq 512'
REBAL = '-p accumulator.capacity=256KiB -p scratchpad.capacity=64KiB'


@recipe('bert')
def _bert(spec):
    """spec = MAPPER.SPLIT.BW.FIELD, e.g. auto.default.16.dram; fields dram (MiB), mm (matmul
    M cycles)."""
    mapper, split, bw, fieldname = spec.split('.')
    cmd = BERT
    if bw == '4':
        cmd += ' -p dram.bandwidth=4B/cycle'
    if split == 'rebal':
        cmd += ' ' + REBAL
    if mapper == 'auto':
        cmd += ' --mapper gemmini-auto'
    get = {'dram': lambda o: mib(num(re.search(r'\(([\d,]+) B\)', total(o, 'DRAM bytes')).group(1))),
           'mm': lambda o: mcycles(cls(o, 'MatMul'))}[fieldname]
    return Recipe(cmd, get)


# ---------------------------------------------------------------- README: Llama on every design

@recipe('llama.prefill')
def _llama_prefill(arch):
    cmd = f'run --arch configs/arch/{arch}.yaml --workload llama-3.1-8b --seq 2048 --json -'
    if arch == 'tpu-v1-like':
        def infeasible(o):
            m = re.search(r'weights ([\d.]+) GiB.*?activations ([\d.]+) GiB\); dram.capacity is '
                          r'(\d+) GiB', o)
            w, a, cap = float(m.group(1)), float(m.group(2)), m.group(3)
            return (f'infeasible (exit 3): {w:.1f} GiB of weights and {a:.1f} GiB of '
                    f'activations do not fit its {cap} GiB')
        return Recipe(cmd, infeasible, exit=3, slow=True)

    def get(o):
        t = jtotals(o)
        return f'{t["seconds"]:.2f} s, {pct(t["utilization"], 1)}'
    return Recipe(cmd, get, slow=True)


# ---------------------------------------------------------------- README: fusion across ops

def _fusion_run(arch, seq, mode):
    cores = ' --cores fused' if arch in ('tpu-v4-like', 'npu-3core') else ''
    # npu-3core's 8 GiB hold the INT8 weights, not an 8K prompt's activations besides.
    memory = " -p 'dram.capacity=16 GiB'" if arch == 'npu-3core' else ''
    return (f'run --arch configs/arch/{arch}.yaml --workload llama-3.1-8b --phase prefill '
            f'--seq {seq}{cores}{memory} --fusion {mode}')


@recipe('capacity')
def _capacity(size):
    """DRAM bytes of configs/sweeps/attention-capacity.yaml's point at this scratchpad size."""
    cmd = ("run --arch configs/arch/tpu-v4-like.yaml --workload "
           "attention:S=8192,T=8192,H=32,KV=8,D=128,causal=1 -p l2.capacity=1MiB "
           f"-p scratchpad.capacity={size} --budget 2000 --objective energy --json -")

    def get(o):
        b = jtotals(o)['dram_bytes']
        return f'{b / 2**30:.2f} GiB' if b >= 2**30 else f'{b / 2**20:,.0f} MiB'
    return Recipe(cmd, get, slow=True)


@recipe('ffncap')
def _ffn_capacity(size):
    """DRAM bytes of configs/sweeps/ffn-capacity.yaml's point at this L2 size."""
    cmd = ("run --arch configs/arch/tpu-v4-like.yaml --workload "
           f"ffn:S=8192,D=4096,F=14336,gated=1 -p l2.capacity={size} --budget 2000 "
           "--objective energy --json -")

    def get(o):
        b = jtotals(o)['dram_bytes']
        return f'{b / 2**30:.2f} GiB' if b >= 2**30 else f'{b / 2**20:,.0f} MiB'
    return Recipe(cmd, get, slow=True)


@recipe('fusion.groups')
def _fusion_groups(spec):
    """`fusion.groups:ARCH/SEQ[/KIND]`: the table's line for the KIND (attention) groups under
    auto."""
    arch, seq, kind = (spec.split('/') + ['attention'])[:3]

    def get(o):
        return next(l.strip() for l in o.split('\n') if f' x {kind} ' in l)
    return Recipe(_fusion_run(arch, seq, 'auto') + ' --top 0', get, slow=True)


@recipe('fusion')
def _fusion(spec):
    """`fusion:ARCH/SEQ/MODE[/OBJECTIVE]`: time, DRAM bytes, energy of a Llama-3.1-8B prefill."""
    arch, seq, mode, *rest = spec.split('/')
    objective = f' --objective {rest[0]}' if rest else ''
    cmd = _fusion_run(arch, seq, mode) + objective + ' --json -'

    def get(o):
        t = jtotals(o)
        return (f'{t["seconds"] * 1e3:,.0f} ms, {t["dram_bytes"] / 2**30:.1f} GiB, '
                f'{t["energy_pj"] * 1e-12:.1f} J')
    return Recipe(cmd, get, slow=True)


@recipe('fusion.dram')
def _fusion_dram(spec):
    """`fusion.dram:ARCH/SEQ/MODE[/OBJECTIVE]`: DRAM bytes of that Llama-3.1-8B prefill."""
    arch, seq, mode, *rest = spec.split('/')
    objective = f' --objective {rest[0]}' if rest else ''
    return Recipe(_fusion_run(arch, seq, mode) + objective + ' --json -',
                  lambda o: f'{jtotals(o)["dram_bytes"] / 2**30:.2f} GiB', slow=True)


@recipe('fusion.split')
def _fusion_split(spec):
    """`fusion.split:ARCH/SEQ/MODE/PART`: DRAM bytes of that prefill (latency) by what moves:
    `weights` (weight reads), `reads` (activation reads), `writes` (everything written)."""
    arch, seq, mode, part = spec.split('/')

    def get(o):
        j = json.loads(o[o.index('{'):o.rindex('}') + 1])
        total = 0
        for op in j['ops']:
            dram = op['traffic'][0]
            if part == 'weights':
                total += dram['read']['weight']
            elif part == 'reads':
                total += dram['read']['input'] + dram['read']['output']
            else:
                total += sum(dram['write'].values())
        return f'{total / 2**30:.2f} GiB'
    return Recipe(_fusion_run(arch, seq, mode) + ' --json -', get, slow=True)


@recipe('llama.decode')
def _llama_decode(arch):
    cmd = f'run --arch configs/arch/{arch}.yaml --workload llama-3.1-8b --phase decode --seq 8192 --json -'

    def get(o):
        t = jtotals(o)
        return f'{t["seconds"] * 1e3:.1f} ms, {t["dram_bytes"] / 2**30:.2f} GiB'
    return Recipe(cmd, get, slow=True)


@recipe('llama.npu-decode')
def _llama_npu(fieldname):
    cmd = 'run --arch configs/arch/npu-3core.yaml --workload llama-3.1-8b --phase decode --seq 8192'
    get = {'time': lambda o: f'{num(total(o, "cycles")) / 1e6:.2f} ms',
           'fill': lambda o: f'{cause_pct(o, "fill_drain"):.2f}%'}[fieldname]
    return Recipe(cmd, get)


# ---------------------------------------------------------------- README: imported models

ONNX_RUNS = {
    'mobilenet': 'run --arch configs/arch/eyeriss-like.yaml --workload tests/models/data/onnx/mobilenet_v2.onnx',
    'vit': 'run --arch configs/arch/tpu-v1-like.yaml --workload tests/models/data/onnx/vit_b_16.onnx',
    'moe': 'run --arch configs/arch/gemmini-default.yaml --workload qwen1.5-moe-a2.7b --phase decode --seq 4096',
}


@recipe('import')
def _import(spec):
    """spec = RUN.FIELD: time, macs, dram (as printed), host (% of cycles), nonlinear (% of
    cycles in Softmax, GELU and LayerNorm)."""
    which, fieldname = spec.split('.')
    get = {'time': lambda o: total(o, 'time'),
           'macs': lambda o: total(o, 'MACs'),
           'dram': lambda o: total(o, 'DRAM bytes').split(' (')[0],
           'host': lambda o: f'{cause_pct(o, "host"):.0f}%',
           'nonlinear': lambda o: '{:.0f}%'.format(sum(
               num(row(o, c, 2, 'By op class')) for c in ('Softmax', 'GELU', 'LayerNorm')))}[fieldname]
    return Recipe(ONNX_RUNS[which], get)


@recipe('import.moe.ms')
def _moe_ms():
    return Recipe(ONNX_RUNS['moe'] + ' --json -', lambda o: f'{jtotals(o)["seconds"] * 1e3:.2f} ms')


@recipe('import.moe.gib')
def _moe_gib():
    return Recipe(ONNX_RUNS['moe'] + ' --json -', lambda o: f'{jtotals(o)["dram_bytes"] / 2**30:.2f} GiB')


# ---------------------------------------------------------------- README: compare, hierarchies

COMPARE = 'compare --arch configs/arch/eyeriss-like.yaml'


@recipe('compare')
def _compare(spec):
    """spec = DATAFLOW.FIELD: energy, static, dynamic (energy - static), ResNet-50 section."""
    df, fieldname = spec.split('.')

    def get(o):
        res = o[o.index('resnet50'):]
        e = num(row(res, df, 4))
        s = num(row(res, df, -2, 'energy by component'))
        return {'energy': f'{e:.2f} mJ', 'static': f'{s:.2f} mJ',
                'dynamic': f'{e - s:.2f} mJ'}[fieldname]
    return Recipe(COMPARE, get)


SIMBA_CONV = 'conv:H=28,W=28,C=128,K=128,R=3,S=3,stride=1,pad=1'


@recipe('simba.pinned')
def _simba_pinned(fieldname):
    """Re-pinning the mapping the README's run emitted: the cycles and energy of the run."""
    run = f'run --arch configs/arch/simba-like.yaml --workload {SIMBA_CONV}'
    cmd = f'{run} --accesses --emit-mapping conv.map.yaml && {run} --mapping conv.map.yaml'
    get = {'cycles': lambda o: total(o, 'cycles'),
           'energy': lambda o: total(o, 'energy').split(' (')[0]}[fieldname]
    return Recipe(cmd, get)


# ---------------------------------------------------------------- README: number formats

@recipe('w4')
def _w4(spec):
    """spec = PLAN.FIELD on tpu-v4-like's Llama-3.1-8B decode step: dram, ms, mj."""
    plan, fieldname = spec.rsplit('.', 1)
    cmd = ('run --arch configs/arch/tpu-v4-like.yaml --workload llama-3.1-8b --phase decode '
           f'--precision-plan configs/precision/{plan}.yaml --json -')
    get = {'dram': lambda t: f'{t["dram_bytes"] / 2**30:.2f} GiB',
           'ms': lambda t: f'{t["seconds"] * 1e3:.2f} ms',
           'mj': lambda t: f'{t["energy_pj"] / 1e9:.2f} mJ'}[fieldname]
    return Recipe(cmd, lambda o: get(jtotals(o)))


@recipe('w4.gemmini')
def _w4_gemmini(plan):
    cmd = ('run --arch configs/arch/gemmini-default.yaml --workload llama-3.1-8b --phase decode '
           f'--precision-plan configs/precision/{plan}.yaml --json -')
    return Recipe(cmd, lambda o: f'{jtotals(o)["seconds"] * 1e3:.2f} ms')


TINY_FORMATS = ('validate --workload tests/serve/llm/data/tiny-llama.json --seq 16 --precision '
                'bf16,fp8_e4m3,fp8_e5m2,mxfp8_e4m3,mxfp6_e2m3,mxfp4,nvfp4,int8,'
                'configs/precision/w8a16.yaml,configs/precision/w4a16.yaml')


@recipe('formats')
def _formats(fmt):
    """A row of the README's format table: rel L2 | SQNR | cosine | KL, as validate prints them."""
    def get(o):
        name = f'configs/precision/{fmt}' if fmt.endswith('.yaml') else fmt
        cells = next(l.split() for l in o.split('\n') if l.split()[:1] == [name])
        _, _, rel, cos, sqnr, _, kl, _ = cells
        return f'{rel} | {sqnr} dB | {cos} | {kl}'
    return Recipe(TINY_FORMATS, get)


# ---------------------------------------------------------------- README: validate

VALIDATE = {
    'gpt2-int8': 'gpt2 --seq 128 --all-logits --precision int8',
    'gpt2-int8-inl': 'gpt2 --seq 128 --all-logits --precision int8 --integer-nonlinear',
    'gpt2-fp16': 'gpt2 --seq 128 --all-logits --precision fp16',
    'gpt2-bf16': 'gpt2 --seq 128 --all-logits --precision bf16',
    'bert-int8': 'bert --seq 128 --precision int8',
    'bert-int8-inl': 'bert --seq 128 --precision int8 --integer-nonlinear',
    'resnet-int8': 'resnet50 --batch 4 --precision int8',
}


def short(x):
    """KL as the README writes it: two significant figures, 1.1e-6 rather than 1.1e-06."""
    return re.sub(r'e([-+])0*(\d)', lambda m: 'e' + m.group(1).replace('+', '') + m.group(2),
                  f'{x:.2g}')


@recipe('validate')
def _validate(case):
    """A row of the README's validate table: SQNR | cosine | task metric."""
    def get(o):
        m = re.search(r'^output \S+: .*cosine ([\d.e+-]+), SQNR ([\d.e+-]+) dB', o, re.M)
        text = f'{float(m.group(2)):.1f} dB | {float(m.group(1)):.4f} | '
        t = re.search(r'^top-1 agreement ([\d.e+-]+) over (\d+) rows, KL ([\d.e+-]+)', o, re.M)
        if t is None:
            return text + '—'
        agree, rows = float(t.group(1)), int(t.group(2))
        if case.startswith('resnet'):
            return text + f'top-1 {round(agree * rows)}/{rows}'
        return text + f'top-1 {agree * 100:.3g}%, KL {short(float(t.group(3)))}'
    return Recipe('validate --workload ' + VALIDATE[case], get, slow=True)


# ---------------------------------------------------------------- docs/dataflows.md

def _short_time(printed):
    value, unit = printed.split()
    return f'{float(value):.1f} ms' if unit == 'ms' else printed


def _short_energy(printed):
    value, unit = printed.split()
    return f'{float(value):.1f} mJ' if unit == 'mJ' else printed


def _gib(printed):
    value, unit = printed.split()
    return f'{float(value) / {"MiB": 1024, "GiB": 1}[unit]:.2f} GiB'


@recipe('compare.row')
def _compare_row(df):
    """A row of docs/dataflows.md's table: ResNet-50 time | energy | GB bytes | NoC bytes |
    GPT-2 small time | energy, from its `tessel compare` on eyeriss-like."""
    def get(o):
        res, gpt = o[o.index('\nresnet50'):o.index('\ngpt2')], o[o.index('\ngpt2'):]
        c = next(l.split() for l in res.split('\n') if l.split()[:1] == [df])
        acc = res[res.index('accesses'):]
        a = next(l.split() for l in acc.split('\n') if l.split()[:1] == [df])
        g = next(l.split() for l in gpt.split('\n') if l.split()[:1] == [df])
        return ' | '.join([_short_time(f'{c[2]} {c[3]}'), _short_energy(f'{c[4]} {c[5]}'),
                           _gib(f'{a[3]} {a[4]}'), _gib(f'{a[7]} {a[8]}'),
                           f'{g[2]} {g[3]}', f'{g[4]} {g[5]}'])
    return Recipe(COMPARE + ' --dataflows ws,os,is,rs,nlr --workloads resnet50,gpt2', get)


@recipe('scalesim')
def _scalesim(timing):
    """Total cycles of SCALE-Sim's AlexNet topology on its 32x32 OS example config, imported by
    `tessel arch import`: `scalesim` = --scalesim-timing (SCALE-Sim v2's closed forms), a knob
    `overlap` = --scalesim-timing fold_overlap=on, `tessel` = tessel's own timing."""
    option = {'scalesim': ' --scalesim-timing', 'overlap': ' --scalesim-timing fold_overlap=on',
              'tessel': ''}[timing]
    cmd = ('arch import tests/arch/data/scalesim/v2_scale.cfg -o out/scale.yaml && '
           'run --arch out/scale.yaml --workload tests/models/scalesim/data/v2_alexnet.csv '
           f'--mapper gemmini-auto{option} --json -')
    return Recipe(cmd, lambda out: f"{round(jtotals(out)['cycles']):,}")


# The recipes of the README's later sections (systems, sparsity) and of the published chips
# register from their own modules.
import docs_recipes_sections  # noqa: E402,F401
import docs_recipes_chips  # noqa: E402,F401

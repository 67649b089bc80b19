"""Recipes for the README's sections on systems of many chips and sparse tensors: see
docs_recipes.py for what a recipe is."""
import json
import re

from docs_recipes import Recipe, jtotals, recipe


@recipe('system')
def _system(spec):
    """`system:SYSTEM/MODEL/PHASE/SEQ/BATCH/SPLIT` (SPLIT as tp8pp2ep8): latency, collectives and
    memory per chip of a model split over a system."""
    system, model, phase, seq, batch, split = spec.split('/')
    flags = ' '.join(f'--{k} {v}' for k, v in re.findall(r'(tp|pp|ep|dp)(\d+)', split))
    cmd = (f'run --system configs/systems/{system}.yaml --workload {model} --phase {phase} '
           f'--seq {seq} --batch {batch} {flags} --json -')

    def get(o):
        j = json.loads(o[o.index('{'):o.rindex('}') + 1])
        return (f'{j["latency_seconds"] * 1e3:,.1f} ms ({j["communication_seconds"] * 1e3:,.1f} ms '
                f'collectives), {j["memory_per_chip_bytes"] / 2**30:.1f} GiB per chip')
    return Recipe(cmd, get, slow=True)


@recipe('systemserve')
def _system_serve(spec):
    """`systemserve:SYSTEM/MODEL/RATE/SPLIT` (SPLIT as tp8dp2): throughput, TTFT and TPOT p50 of an
    LLM service on a system, 300 requests."""
    system, model, rate, split = spec.split('/')
    flags = ' '.join(f'--{k} {v}' for k, v in re.findall(r'(tp|ep|dp)(\d+)', split))
    cmd = (f'serve --system configs/systems/{system}.yaml --workload {model} {flags} '
           f'--rate {rate} --requests 300 --json -')

    def get(o):
        p = json.loads(o[o.index('{'):o.rindex('}') + 1])['points'][0]
        return (f'{p["output_tokens_per_s"]:,.0f} tokens/s, TTFT {p["ttft_s"]["p50"] * 1e3:,.0f} ms, '
                f'TPOT {p["tpot_s"]["p50"] * 1e3:.1f} ms')
    return Recipe(cmd, get, slow=True)



@recipe('llmserve')
def _llm_serve(spec):
    """`llmserve:TARGET/MODEL/RATES/SPLIT/K`: TTFT, TPOT and E2E p50 of the K-th rate (from 0) of
    an LLM service at constant request rates (RATES as 1+2+4), 500 requests of 128-2,048 prompt
    and 32-512 output tokens; TARGET a shipped design (configs/arch) or, with SPLIT (tp4; `-`
    for none), a system (configs/systems)."""
    target, model, rates, split, k = spec.split('/')
    rates = rates.replace('+', ',')
    flags = ' '.join(f'--{a} {v}' for a, v in re.findall(r'(tp|ep|dp)(\d+)', split))
    where = (f'--system configs/systems/{target}.yaml {flags}' if flags
             else f'--arch configs/arch/{target}.yaml')
    cmd = (f'serve {where} --workload {model} --rate {rates} --requests 500 '
           f'--prompt-len uniform:128:2048 --output-len uniform:32:512 --json -')

    def get(o):
        p = json.loads(o[o.index('{'):o.rindex('}') + 1])['points'][int(k)]
        return (f'{p["ttft_s"]["p50"] * 1e3:,.0f} ms | {p["tpot_s"]["p50"] * 1e3:.1f} ms | '
                f'{p["e2e_s"]["p50"]:.2f} s | {p["output_tokens_per_s"]:,.0f}')
    return Recipe(cmd, get, slow=True)

# Designs for docs/sparsity.md and the README's sparse rows: a shipped design with `-p` what-ifs.
SPARSE_DESIGNS = {
    'dense': [],
    # a 2:4 datapath (as NVIDIA's sparse tensor cores) and the weights kept as 2:4 values + indices
    '2to4': ['sparsity.structured=[2:4]', 'sparsity.formats.dram.weights=nm_indices',
             'sparsity.formats.l2.weights=nm_indices',
             'sparsity.formats.scratchpad.weights=nm_indices'],
    # and twice VMEM's ports and the feed into the MXUs (a 2:4 MXU reads two input rows a cycle)
    '2to4wide': ['sparsity.structured=[2:4]', 'sparsity.formats.dram.weights=nm_indices',
                 'sparsity.formats.l2.weights=nm_indices',
                 'sparsity.formats.scratchpad.weights=nm_indices', 'scratchpad.banks=16',
                 'accumulator.banks=16', 'scratchpad.fanout.bandwidth=2048B/cycle'],
    # eyeriss-like without its zero gating and run-length coding
    'nogate': ['sparsity.gate=[]', 'sparsity.formats.dram.inputs=none'],
    # eyeriss-like skipping zero inputs instead of gating them
    'skip': ['sparsity.gate=[]', 'sparsity.skip=[inputs]'],
    # eyeriss-like's global buffer skipping, or gating, its reads of weights on the inputs' zeros
    'skipgb': ['sparsity.skip_reads.global_buffer.weights=inputs'],
    'gategb': ['sparsity.gate_reads.global_buffer.weights=inputs'],
}


@recipe('sparse')
def _sparse(spec):
    """`sparse:ARCH/DESIGN/WORKLOAD/PHASE/SEQ/BATCH/SPARSITY`: time, energy and DRAM bytes of a
    run on a shipped design with the SPARSE_DESIGNS overrides named DESIGN; PHASE, SEQ and BATCH
    `-` to leave out, SPARSITY `w2:4` (weights), `i0.4` (inputs) or `-` (dense)."""
    arch, design, workload, phase, seq, batch, sparsity = spec.split('/')
    args = [f'--{k} {v}' for k, v in (('phase', phase), ('seq', seq), ('batch', batch)) if v != '-']
    if sparsity != '-':
        args.append(f"--sparsity {'weights' if sparsity[0] == 'w' else 'inputs'}={sparsity[1:]}")
    overrides = ' '.join(f"-p '{o}'" for o in SPARSE_DESIGNS[design])
    cmd = (f'run --arch configs/arch/{arch}.yaml --workload {workload} {" ".join(args)} '
           f'{overrides} --json -')

    def get(o):
        t = jtotals(o)
        ms = t['seconds'] * 1e3
        time = f'{ms:,.1f} ms' if ms < 1000 else f'{ms / 1e3:,.2f} s'
        return f'{time}, {t["energy_pj"] / 1e12:,.2f} J, {t["dram_bytes"] / 2**30:,.2f} GiB'
    return Recipe(cmd, get, slow=True)


@recipe('sparse.cycles')
def _sparse_cycles(spec):
    """`sparse.cycles:ARCH/DESIGN/WORKLOAD/SPARSITY`: cycles and energy of such a run."""
    arch, design, workload, sparsity = spec.split('/')
    run = _sparse(f'{arch}/{design}/{workload}/-/-/-/{sparsity}')
    return Recipe(run.command, lambda o: f'{jtotals(o)["cycles"]:,.0f} cycles and '
                                         f'{jtotals(o)["energy_pj"] / 1e9:,.2f} mJ', slow=True)

"""Recipes for the published chips' figures (docs/published-chips.md and the README's comparison):
a design's area by component, the chip's power, energy per MAC and area on a stated workload, and
a component's share of the chip's energy. See docs_recipes.py for what a recipe is."""
import re

from docs_recipes import SIMBA_CONV, Recipe, jtotals, recipe, total


def _components_mm2(o, components):
    """The area of `a+b+...` components, or of the whole die for `total`, or of the die
    without its I/O for `core`."""
    t = jtotals(o)
    if components == 'total':
        return t['area_mm2']
    if components == 'core':
        return t['area_mm2'] - t['area_by_component'].get('io', 0)
    return sum(t['area_by_component'].get(c, 0) for c in components.split('+'))


def _mm2(v):
    return f'{v:.1f} mm²' if v >= 1 else f'{v:.3f} mm²'


def _silicon_cmd(arch):
    """The run that reports a design's silicon; `ARCH@NODE` costs it in another node."""
    arch, _, node = arch.partition('@')
    other = f' -p technology.node={node}' if node else ''
    return f'run --arch configs/arch/{arch}.yaml --workload gemm:M=16,K=16,N=16{other} --json -'


@recipe('area')
def _area(spec):
    """`area:ARCH/COMPONENTS`: components' area in mm2 (`a+b`, `total`, `core` = without I/O);
    `ARCH@NODE` in another node."""
    arch, component = spec.split('/')
    return Recipe(_silicon_cmd(arch), lambda o: _mm2(_components_mm2(o, component)))


@recipe('area.ratio')
def _area_ratio(spec):
    """`area.ratio:ARCH/COMPONENTS/MM2`: their area over a published MM2, rounded down (the
    published shares are upper bounds, so the ratio is a lower bound)."""
    arch, component, published = spec.split('/')
    cmd = f'run --arch configs/arch/{arch}.yaml --workload gemm:M=16,K=16,N=16 --json -'

    def get(o):
        r = _components_mm2(o, component) / float(published)
        return f'≥ {int(r * 100) / 100:.2f}'
    return Recipe(cmd, get)


@recipe('area.vs')
def _area_vs(spec):
    """`area.vs:ARCH/COMPONENTS/MM2`: their area over a published MM2, two decimals;
    `ARCH@NODE` in another node."""
    arch, component, published = spec.split('/')
    return Recipe(_silicon_cmd(arch), lambda o: f'{_components_mm2(o, component) / float(published):.2f}')


@recipe('gates')
def _gates(spec):
    """`gates:ARCH`: the design's logic in thousands of NAND2-equivalent gates."""
    cmd = f'run --arch configs/arch/{spec}.yaml --workload gemm:M=16,K=16,N=16 --json -'
    return Recipe(cmd, lambda o: f'{jtotals(o)["logic_gates"] / 1e3:,.0f} k')


@recipe('sram')
def _sram(spec):
    """`sram:ARCH/COMPONENTS`: those components' on-chip SRAM (`a+b`) in KiB or MiB, and macros."""
    arch, components = spec.split('/')
    cmd = f'run --arch configs/arch/{arch}.yaml --workload gemm:M=16,K=16,N=16 --json -'

    def get(o):
        by = jtotals(o)['sram_by_component']
        parts = [by[c] for c in components.split('+') if c in by]
        kib = sum(p['bytes'] for p in parts) / 1024
        macros = sum(p['macros'] for p in parts)
        size = f'{kib / 1024:,.1f} MiB' if kib >= 1024 else f'{kib:,.1f} KiB'
        return f'{size} in {macros:,.0f} macros'
    return Recipe(cmd, get)


@recipe('gates.vs')
def _gates_vs(spec):
    """`gates.vs:ARCH/KGATES`: the design's gate count over a published one in thousands."""
    arch, published = spec.split('/')
    cmd = f'run --arch configs/arch/{arch}.yaml --workload gemm:M=16,K=16,N=16 --json -'
    return Recipe(cmd, lambda o: f'{jtotals(o)["logic_gates"] / 1e3 / float(published):.2f}')


# ---------------------------------------------------------------- README: the published chips

CHIPS = {
    'eyeriss': 'eyeriss-like.yaml --workload conv:H=27,W=27,C=96,K=256,R=5,S=5,stride=1,pad=2 --dataflow rs',
    'eyeriss-zeros': 'eyeriss-like.yaml --workload conv:H=27,W=27,C=96,K=256,R=5,S=5,stride=1,pad=2 --dataflow rs '
                     '--sparsity inputs=0.56',
    'shidiannao': 'shidiannao-like.yaml --workload conv:H=32,W=32,C=64,K=64,R=3,S=3,stride=1,pad=1 --dataflow os',
    'tpu-v1': 'tpu-v1-like.yaml --workload gemm:M=2048,K=4096,N=4096',
    'tpu-v4i': 'tpu-v4i-like.yaml --workload bert-base --seq 512 --batch 8',
    'simba': f'simba-like.yaml --workload {SIMBA_CONV}',
    'h100': 'h100-sxm-like.yaml --workload gemm:M=8192,K=8192,N=8192',
}


@recipe('chip')
def _chip(name):
    def get(o):
        power = re.search(r'accelerator chip ([\d.]+ W)', total(o, 'power')).group(1)
        return f'{power} · {total(o, "energy per MAC")} · {total(o, "area").replace("mm2", "mm²")}'
    return Recipe('run --arch configs/arch/' + CHIPS[name], get)


@recipe('chip.power.vs')
def _chip_power_vs(spec):
    """`chip.power.vs:CHIP/WATTS`: the chip's power (DRAM and host left out) over a published one."""
    name, watts = spec.split('/')
    return Recipe('run --arch configs/arch/' + CHIPS[name] + ' --json -',
                  lambda o: f'{jtotals(o)["chip_power_w"] / float(watts):.2f}')


@recipe('card.power.vs')
def _card_power_vs(spec):
    """`card.power.vs:CHIP/WATTS`: the chip's power with its DRAM's (the host left out) over a
    published one measured at the card: TPU v1's 40 W is the server's power per card added."""
    name, watts = spec.split('/')
    return Recipe('run --arch configs/arch/' + CHIPS[name] + ' --json -',
                  lambda o: f'{jtotals(o)["power_w"] / float(watts):.2f}')


# A floor plan's shares of its die (percent) for the blocks a design describes as the paper does:
# [ISCA17] Figure 2 gives TPU v1's as shares of a die whose area it bounds (at most 331 mm2).
FLOORPLAN_SHARES = {'tpu-v1-like': {'scratchpad': 29, 'array': 24, 'accumulator': 6, 'io': 10}}


def _blocks_mm2(o, arch):
    return {b: _components_mm2(o, b) for b in FLOORPLAN_SHARES[arch]}


@recipe('share')
def _share(spec):
    """`share:ARCH/BLOCK`: the block's share of the blocks FLOORPLAN_SHARES lists for ARCH, in percent."""
    arch, block = spec.split('/')

    def get(o):
        mm2 = _blocks_mm2(o, arch)
        return f'{100 * mm2[block] / sum(mm2.values()):.0f} %'
    return Recipe(_silicon_cmd(arch), get)


@recipe('share.vs')
def _share_vs(spec):
    """`share.vs:ARCH/BLOCK`: the block's share of the blocks FLOORPLAN_SHARES lists for ARCH,
    over the floor plan's share of the same blocks: 1.00 when the model splits them as the die
    does, whatever the die's area."""
    arch, block = spec.split('/')
    shares = FLOORPLAN_SHARES[arch]

    def get(o):
        mm2 = _blocks_mm2(o, arch)
        model = mm2[block] / sum(mm2.values())
        return f'{model / (shares[block] / sum(shares.values())):.2f}'
    return Recipe(_silicon_cmd(arch), get)


@recipe('die.implied')
def _die_implied(spec):
    """`die.implied:ARCH`: the die the model's FLOORPLAN_SHARES blocks make at the floor plan's
    shares: their area over the fraction of the die the plan gives them."""
    shares = FLOORPLAN_SHARES[spec]
    return Recipe(_silicon_cmd(spec),
                  lambda o: _mm2(sum(_blocks_mm2(o, spec).values()) / (sum(shares.values()) / 100)))


@recipe('chip.share')
def _chip_share(spec):
    """`chip.share:CHIP/COMPONENTS`: the share of the chip's energy (DRAM and host left out) in
    `a+b` components of energy_by_component ("static" is leakage), in percent."""
    name, components = spec.split('/')

    def get(o):
        t = jtotals(o)
        energy = t['energy_by_component']
        dram = next(iter(t['bytes_by_level']))
        chip = sum(v for k, v in energy.items() if k not in (dram, 'host'))
        return f'{100 * sum(energy.get(c, 0) for c in components.split("+")) / chip:.0f} %'
    return Recipe('run --arch configs/arch/' + CHIPS[name] + ' --json -', get)

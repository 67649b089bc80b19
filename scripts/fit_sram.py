#!/usr/bin/env python3
"""Fit tessel's SRAM read-energy closed form and derive its per-node coefficients.

    e(C) = fixed_pj_per_bit + sqrt_pj_per_bit * sqrt(C)      [pJ per bit read]
    C    = bits in one bank

1. Least-squares fit of (fixed, sqrt) to the three Horowitz (ISSCC 2014, 45 nm, 0.9 V)
   64-bit read energies: 10 pJ @ 8 KB, 20 pJ @ 32 KB, 100 pJ @ 1 MB.
2. Comparison with CACTI 7 numbers published as Accelergy/Timeloop reference outputs
   (repository Accelergy-Project/timeloop-accelergy-exercises), evaluated both with
   C = one bank and C = the whole array, because CACTI's UCA bank count does not remove
   the routing to the banks.
3. The per-node coefficients shipped in configs/tech/<node>.yaml (rule in
   docs/technology.md, "Node scaling").

Python 3 standard library only. Run: python3 scripts/fit_sram.py
"""
import math
import statistics

# ---------------------------------------------------------------- 1. the fit
KB = 8 * 1024  # bits per KiB
HOROWITZ = [  # (capacity in bits, energy of one 64-bit read in pJ)
    (8 * KB, 10.0),
    (32 * KB, 20.0),
    (1024 * KB, 100.0),
]


def lsq_line(xs, ys):
    """Ordinary least squares y = a + b x; returns (a, b)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx
    return my - b * mx, b


xs = [math.sqrt(c) for c, _ in HOROWITZ]
ys = [e / 64.0 for _, e in HOROWITZ]  # pJ per bit
FIXED, SQRT = lsq_line(xs, ys)


def e_bit(c_bits, fixed=FIXED, sq=SQRT):
    return fixed + sq * math.sqrt(c_bits)


print("SRAM read energy fit to Horowitz ISSCC 2014 (45 nm, 0.9 V), least squares in pJ/bit")
print(f"  fixed_pj_per_bit = {FIXED:.6f}")
print(f"  sqrt_pj_per_bit  = {SQRT:.6e}   (per sqrt(bit))")
print("  point        C [bits]   published     fit   residual (fit - published)")
rss = 0.0
for (c, e64), y in zip(HOROWITZ, ys):
    f = e_bit(c)
    rss += (f - y) ** 2
    print(f"  {c // KB:>5} KB  {c:>10}  {e64:6.1f} pJ  {f * 64:6.2f} pJ"
          f"   {(f - y) * 64:+6.2f} pJ per 64 b ({(f - y) / y * 100:+5.1f} %)")
print(f"  RMS residual: {math.sqrt(rss / len(ys)) * 64:.2f} pJ per 64-bit read")
print()

# ------------------------------------------------------ 2. per-node coefficients
# Stillmaker & Baas 2017, HP energy polynomials E(V) = a V^2 + b V + c (relative units),
# as transcribed in UCLA NanoCAD nodeScale (wromaszkan/nodeScale, nodeScale.py).
# 65 nm is the paper's single 65 nm fit (it splits HP/LP only from 45 nm down).
STILLMAKER_HP = {65: (3.755, -4.398, 1.975),
                 45: (1.018, -0.3107, 0.1539), 32: (0.8367, -0.4341, 0.1701),
                 20: (0.373, -0.1582, 0.04104), 16: (0.2958, -0.1241, 0.03024),
                 7: (0.1776, -0.09097, 0.02447)}


def poly(node, v):
    a, b, c = STILLMAKER_HP[node]
    return a * v * v + b * v + c


def energy_at(node, v):
    if node in STILLMAKER_HP:
        return poly(node, v)
    # 28 nm is not in the paper: log-log interpolation in feature size between 32 and 20 nm
    t = math.log(node / 32) / math.log(20 / 32)
    return math.exp((1 - t) * math.log(poly(32, v)) + t * math.log(poly(20, v)))


NOMINAL_V = {65: 1.0, 45: 0.9, 28: 0.9, 16: 0.8, 7: 0.75}
CELL_UM2 = {65: 0.57, 45: 0.37, 28: 0.127, 16: 0.07, 7: 0.027}  # sources in docs/technology.md
print("Per-node SRAM coefficients (fixed term scales like logic: Stillmaker HP energy factor;")
print("sqrt term scales like wire: sqrt(cell area ratio) * (V/0.9)^2)")
COEF = {}
print("  node  V     logic factor  wire factor  fixed_pj_per_bit  sqrt_pj_per_bit   "
      "8KB/32KB/1MB 64-bit read [pJ]")
for node in (65, 45, 28, 16, 7):
    v = NOMINAL_V[node]
    logic = energy_at(node, v) / energy_at(45, 0.9)
    wire = math.sqrt(CELL_UM2[node] / CELL_UM2[45]) * (v / 0.9) ** 2
    fx, sq = FIXED * logic, SQRT * wire
    COEF[node] = (fx, sq)
    reads = "/".join(f"{e_bit(c, fx, sq) * 64:.2f}" for c, _ in HOROWITZ)
    print(f"  {node:>3}  {v:.2f}  {logic:10.4f}   {wire:10.4f}   {fx:14.6f}   {sq:14.6e}   {reads}")
print()

# ------------------------------------------------- 3. CACTI (Accelergy) points
# (label, node nm, total bits, banks, width bits, read pJ per access, write pJ, source)
EX = "Accelergy-Project/timeloop-accelergy-exercises"
CACTI = [
    ("simba_like GlobalBuffer 64 KB", 45, 2048 * 256, 4, 256, 51.843193, 66.283193,
     "workspace/example_designs/example_designs/simba_like/ref_outputs/default_problem/"
     "timeloop-mapper.ERT_summary.yaml"),
    ("simple_weight_stationary shared_glb 128 KB", 45, 16384 * 64, 32, 64, 32.342452,
     26.121552,
     "workspace/example_designs/example_designs/simple_weight_stationary/ref_outputs/"
     "default_problem/timeloop-mapper.ERT_summary.yaml"),
    ("simple_weight_stationary pe_spad 384 B", 45, 192 * 16, 2, 16, 0.660171, 1.562612,
     "same file as above"),
    ("2020.ispass eyeriss float32 shared_glb 128 KB (older plug-in)", 45, 16384 * 64, 32, 64,
     51.918, 52.667,
     "workspace/exercises/2020.ispass/timeloop+accelergy/ref-output/float32/"
     "timeloop-mapper.ERT.yaml (address_delta 0, data_delta 1)"),
    ("eyeriss_like shared_glb 128 KB", 32, 16384 * 64, 32, 64, 18.183829, 14.137929,
     "workspace/example_designs/example_designs/eyeriss_like/ref_outputs/default_problem/"
     "timeloop-mapper.ERT_summary.yaml"),
]
print("CACTI 7 points from Accelergy reference outputs (repo " + EX + ")")
print("  (each point against the shipped table of the nearest node: 45 nm -> 45nm.yaml, 32 nm -> 28nm.yaml)")
print("  array                                        node table  CACTI pJ/bit  model(C=bank)  model(C=all)  write/read")
ratios = []
for label, node, bits, banks, width, rd, wr, _src in CACTI:
    per_bit = rd / width
    ratios.append(wr / rd)
    table = 45 if node >= 40 else 28
    fx, sq = COEF[table]
    print(f"  {label[:44]:<44} {node:>3}  {table:>4}  {per_bit:10.4f}   {e_bit(bits / banks, fx, sq):11.4f}"
          f"  {e_bit(bits, fx, sq):11.4f}  {wr / rd:8.2f}")
ratios.sort()
print(f"  write/read ratios: {', '.join(f'{r:.2f}' for r in ratios)}; "
      f"median {statistics.median(ratios):.2f}")
print()

# Array efficiency from the CACTI areas (CACTI's SRAM cell is 146 F^2).
for label, node, bits, area_um2 in [
    ("simba_like GlobalBuffer 64 KB, 4 banks", 45, 2048 * 256, 199069.98324),
    ("eyeriss_like shared_glb 128 KB, 32 banks", 32, 16384 * 64, 217363.36892),
]:
    cell = 146 * (node / 1000.0) ** 2
    print(f"  CACTI area {label} @{node} nm: {area_um2 / bits:.3f} um2/bit, "
          f"cell 146F^2 = {cell:.4f} um2 -> array efficiency {cell / (area_um2 / bits):.2f}")
print()


# ------------------------------------------ 4. The macro model against foundry-compiled macros
# tech::sramMacros: a macro of r rows x c columns of cells plus a periphery strip of P cells
# along each side, P the strip that gives a square 64 KiB macro CACTI's 0.75 efficiency; the
# column mux (a power of two) that makes it closest to square.
P = math.sqrt(524288) * (1 / math.sqrt(0.75) - 1)


def model_efficiency(bits, word):
    best = (bits / word, word)
    mux = 2
    while mux <= 256:
        cols = word * mux
        rows = bits / cols
        if rows < 1:
            break
        if abs(math.log(rows / cols)) < abs(math.log(best[0] / best[1])):
            best = (rows, cols)
        mux *= 2
    r, c = best
    return r * c / ((r + P) * (c + P))


# GlobalFoundries' SRAM macros for GF180MCU (repo google/globalfoundries-pdk-ip-gf180mcu_fd_ip_sram,
# cells/*/<name>.lef SIZE; the datasheet (<name>.rst): a 13.5 um2 6T bitcell, 8-bit words,
# column mux 8).
GF180 = [("sram64x8m8wm1", 64, 431.86, 232.88), ("sram128x8m8wm1", 128, 431.86, 268.88),
         ("sram256x8m8wm1", 256, 431.86, 340.88), ("sram512x8m8wm1", 512, 431.86, 484.88)]
print("Compiled macros of an open PDK against the macro model (efficiency = cells / macro area)")
for name, words, w_um, h_um in GF180:
    bits = words * 8
    real = bits * 13.5 / (w_um * h_um)
    print(f"  GF180MCU {name:<16} {bits:5d} bits: compiled {real:.3f}, model {model_efficiency(bits, 8):.3f}")
print("  (in cell units the model's small macros are larger than these: a 5 V 180 nm cell is large")
print("   against its periphery, so this bounds the model's periphery from one side only)")

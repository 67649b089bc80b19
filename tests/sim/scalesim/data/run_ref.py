# Runs SCALE-Sim v2 (PYTHONPATH=<snapshot>) on each (array, dataflow, topology) and times it.
import os, sys, time
from scalesim.scale_sim import scalesim
arrays = [(32, 32), (16, 8), (8, 16), (4, 4)]
out = sys.argv[1]
timing = open(os.path.join(out, 'timing.csv'), 'w')
timing.write('run,layers,wall_seconds,seconds_per_layer\n')
for rows, cols in arrays:
    for df in ('os', 'ws', 'is'):
        for topo, gemm in (('conv_layers.csv', False), ('gemm_layers.csv', True)):
            name = '%s_%dx%d_%s' % (topo.split('_')[0], rows, cols, df)
            cfg = os.path.join(out, name + '.cfg')
            with open(cfg, 'w') as f:
                f.write('[general]\nrun_name = %s\n\n[architecture_presets]\n' % name)
                f.write('ArrayHeight:    %d\nArrayWidth:     %d\n' % (rows, cols))
                f.write('IfmapSramSzkB:   64\nFilterSramSzkB:  64\nOfmapSramSzkB:   64\n')
                f.write('IfmapOffset:    0\nFilterOffset:   10000000\nOfmapOffset:    20000000\n')
                f.write('Bandwidth : 10\nDataflow : %s\nMemoryBanks:   1\n\n' % df)
                f.write('[run_presets]\nInterfaceBandwidth: CALC\n')
            s = scalesim(save_disk_space=True, verbose=False, config=cfg, topology=topo,
                         input_type_gemm=gemm)
            t0 = time.time()
            s.run_scale(top_path=out)
            wall = time.time() - t0
            n = 5 if not gemm else 4
            timing.write('%s,%d,%.3f,%.4f\n' % (name, n, wall, wall / n))
            timing.flush()
            print(name, wall, flush=True)

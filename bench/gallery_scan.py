"""What the gallery scans share (ladder_input_copy_scan.py, ladder_r47_scan.py): their command line `TREE SEEDS OUT PART`
(the checkout whose ntrain and gallery they read, seeds as `0,1`, the JSON file they write, and which half of the programs,
0 or 1, so that two processes take one each), and the programs they read, halves still held out left out."""
import sys, importlib

def scan_setup(held_out:tuple)->tuple:
    "(seeds, out, the gallery module, ntrain.ladder.small_data, [(name, 'healthy' or 'broken')] of this part) from sys.argv."
    tree, seeds, out, part = sys.argv[1], [int(s) for s in sys.argv[2].split(',')], sys.argv[3], int(sys.argv[4])
    sys.path.insert(0, tree + '/bench'); sys.path.insert(0, tree)
    G, S = importlib.import_module('ladder_gallery'), importlib.import_module('ntrain.ladder.small_data')
    names = [(n, 'healthy') for n in G.HEALTHY] + [(n, 'broken') for n in G.BROKEN]
    return seeds, out, G, S, [(n, k) for n, k in names if G.HALF[n] not in held_out][part::2]

def programs(G, names:list, seeds:list):
    "Each (factory, record) of a scan, seed by seed: the record starts with the program's name, kind, half and the seed."
    for seed in seeds:
        for name, kind in names:
            yield (G.HEALTHY[name] if name in G.HEALTHY else G.BROKEN[name][0]), dict(name=name, kind=kind, half=G.HALF[name], seed=seed)

def ladder_bench(kw:dict, rd:str):
    "The bench `ntrain.ladder.ladder` builds for a gallery factory's keywords `kw`, in the run directory `rd`."
    from ntrain.ladder.session import LadderSession
    from ntrain.ladder.kernel import bench
    s = LadderSession(run_dir=rd, **kw)
    b = bench(s.config(s._settings(None)), task=s.task, run_dir=rd, optimizer=s.optimizer, step=s.step, settings=s.thresholds)
    if s.plain: b.target_sets = s.task._user_sets
    return b

def program_bench(f, d:dict):
    "The bench `ntrain.ladder.ladder` builds for factory `f` at the record's seed, in a fresh temporary run directory."
    import tempfile
    return ladder_bench(f(d['seed']), tempfile.mkdtemp())

def print_rows(rs:list, line):
    "A line for each record of `rs`, sorted by kind, name and seed: its kind, half, name and seed, then `line(record)`."
    for d in sorted(rs, key=lambda d: (d['kind'], d['name'], d['seed'])):
        print(f"  {d['kind']:7} {d['half']:3} {d['name']:45} seed {d['seed']}  {line(d)}")

def print_errors(rs:list):
    "The scan's records that hold an error, a line each."
    for d in rs:
        if 'error' in d: print(f"  error {d['name']} seed {d['seed']}: {d['error']}")

def run_scan(G, names:list, seeds:list, out:str, fill, show):
    """`fill(factory, record)` over every program and seed (`programs`), each record timed, with an error kept as one, saved
    to `out` (JSON) after each, and printed when `show(record)`."""
    import json, time
    res = []
    for f, d in programs(G, names, seeds):
        t0 = time.time()
        try: fill(f, d)
        except Exception as e: d['error'] = repr(e)[:200]
        d['s'] = round(time.time() - t0, 2); res.append(d); json.dump(res, open(out, 'w'))
        if show(d): print(d, flush=True)
    print('done', flush=True)

def scan_main(fill, show, table):
    """A scan's command line: `--table FILES` prints `table(records)` (the records of every JSON file, then their errors);
    else `TREE SEEDS OUT PART` runs `fill(factory, record)` over that part's programs (`run_scan`), printing the records
    `show` picks. `fill` imports ntrain inside: the tree's checkout is on the path only once `scan_setup` has run. Halves
    still held out are named in `HELD_OUT` (comma-separated: `HELD_OUT=AZ,BA`) and left out; `ONLY=name,name` scans those programs alone."""
    import json, os
    if sys.argv[1] == '--table':
        rs = [d for f in sys.argv[2:] for d in json.load(open(f))]
        table(rs); print_errors(rs); return
    seeds, out, G, S, names = scan_setup(tuple(h for h in os.environ.get('HELD_OUT', '').split(',') if h))
    if (only := os.environ.get('ONLY')): names = [(n, k) for n, k in names if n in only.split(',')]
    run_scan(G, names, seeds, out, fill, show)

"""Round 43's check: rungs 1-4 on the seen programs that ever failed rung 4 `labels` with a control and a fit no better than
a permutation (every stored sweep under bench/results), one seed each (the last such seed), and on the programs whose loss
takes class indices under NLLLoss. Only a blame judged by the loss alone can change (`_permuted_blame` asks the validation
split), and its old verdict is known without running the old tree: `fail(labels)`; every other run must come out as its
stored sweeps say.

    python bench/ladder_labels_scan.py --jobs JOBS.json                                  (the job list, from bench/results)
    OMP_NUM_THREADS=1 PYTHONPATH=TREE:TREE/bench python bench/ladder_labels_scan.py JOBS.json PART PARTS OUT.json
    python bench/ladder_labels_scan.py --table OUT.json...

Writes a list of runs (name, seed, each rung's verdict, causes, diagnosis and rung 4's `validation_fit`) after each run."""
import sys, json, time, re, glob, os
from pathlib import Path
HERE = Path(__file__).parent
SLOW = {'piano_roll_at_100_fps', 'dgcnn_labels_sorted', 'tasnet_sources_listdir_order'}  # 7-30 min a run
NLL = ['mnist_nll', 'gat', 'fc_siam_diff_changes', 'stn_digits', 'stn_labels_off_by_one', 'gat_lr_x1000']

def jobs(out:str):
    want = {}
    for f in sorted(glob.glob(str(HERE/'results'/'ladder_sweep*.json')), key=os.path.getmtime):
        try: rows = json.loads(Path(f).read_text()).get('rows', [])
        except ValueError: continue
        for row in rows:
            for run in row.get('runs', []):
                r4 = (run.get('rungs') or {}).get('4')
                if r4 and r4['verdict'] == 'fail' and 'labels' in r4['causes'] and 'no_control' not in r4['causes'] and \
                   'fits its training targets better than permuted' not in r4['diagnosis']: want.setdefault(row['name'], {})[run['seed']] = 1
    js = [(n, list(s)[-1]) for n, s in want.items() if n not in SLOW] + [(n, s) for n in NLL for s in (0, 1)]
    js += [('matching_net_glyphs', 5), ('matching_net_glyphs', 6), ('deephit_survival', 2), ('deephit_survival', 3)]
    Path(out).write_text(json.dumps(list(dict.fromkeys(map(tuple, js)))))

def scan(job_file:str, part:int, parts:int, out:str):
    import ladder_gallery as G
    res = []
    for name, seed in json.loads(Path(job_file).read_text())[part::parts]:
        t = time.time()
        try:
            r = G.run(name, seed, rungs='1-4')
            rec = dict(name=name, seed=seed, rungs={x.rung: dict(verdict=x.verdict, causes=x.causes, diagnosis=x.diagnosis[:1500],
                       witness=x.numbers.get('validation_fit'), fits_own=x.numbers.get('fits_own')) for x in r.rungs})
        except Exception as e: rec = dict(name=name, seed=seed, error=repr(e)[:300])
        rec['seconds'] = time.time() - t; res.append(rec)
        print(name, seed, rec.get('error') or [(k, v['verdict'], v['causes']) for k, v in rec['rungs'].items()], f"{rec['seconds']:.0f}s", flush=True)
        Path(out).write_text(json.dumps(res, indent=1, default=str))

def table(files:list):
    import ladder_gallery as G
    rows = [r for f in files for r in json.loads(Path(f).read_text())]
    print(f'{len(rows)} runs; rung 4 changed by round 43 (a blame by the loss alone, judged by the validation split):')
    for r in sorted(rows, key=lambda r: (r['name'] in G.BROKEN, r['name'], r['seed'])):
        r4 = r.get('rungs', {}).get('4')
        if not r4 or not r4.get('witness') or 'was no better than with permuted' not in r4['diagnosis'] and 'validation\'s targets follow from the inputs, and the training' not in r4['diagnosis']: continue
        w = r4['witness']
        print(f"  {'healthy' if r['name'] in G.HEALTHY else 'broken'} {r['name']} seed {r['seed']}: fail(labels) -> {r4['verdict']}({','.join(r4['causes'])}); "
              f"validation's fit {w['verdict']}, its train loss {w['train_loss_end']:.4g} against {min(w['control_train_ends']):.4g}-{max(w['control_train_ends']):.4g}")

if __name__ == '__main__':
    a = sys.argv[1:]
    if a[0] == '--jobs': jobs(a[1])
    elif a[0] == '--table': table(a[1:])
    else: scan(a[0], int(a[1]), int(a[2]), a[3])

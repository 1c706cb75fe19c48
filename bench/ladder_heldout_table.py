"""The RESULTS.md table of a held-out half's sweep: the JSON files `ladder_sweep.py --out` wrote (one per seed range, e.g.
seeds 0-4 and 5-9), merged by program, in the form the "Half X" sections use: wrong / runs, the seeds, the verdicts seen
(rungs not passed, or rung 3 with its curve), the seconds of each run; then the false fail and not caught totals.
    python bench/ladder_heldout_table.py /tmp/h_AQ_0.json /tmp/h_AQ_5.json"""
import sys, json


def merged(files:list)->list:
    rows, seeds = {}, {}
    for f in files:
        d = json.load(open(f)); first = d.get('first_seed', 0)
        for r in d['rows']:
            m = rows.setdefault(r['name'], dict(r, runs=[], wrong=0, n=0)); ss = seeds.setdefault(r['name'], [])
            for i, x in enumerate(r['runs']):
                m['runs'].append(x); ss.append(x.get('seed', first + i))
            m['wrong'] += r['wrong']; m['n'] += r['n']
    for name, m in rows.items(): m['seeds'] = seeds[name]
    return list(rows.values())


def verdicts(x)->str:
    if 'error' in x: return 'error'
    return ' '.join(f"{k}:{v['verdict']}" + (f"({','.join(v['causes'])})" if v['causes'] else '') for k, v in x['rungs'].items()
                    if v['verdict'] != 'pass' or str(k) == '3' and v.get('curve') and v['curve'] not in ('steep', 'floor', None)) or 'all pass'


def table(rows:list)->str:
    out = ['| program | kind | wrong / runs | seeds | verdicts seen (not pass, or rung 3 on its curve omitted) | seconds |', '|---|---|---|---|---|---|']
    for kind in ('healthy', 'broken'):
        for r in [r for r in rows if r['kind'] == kind]:
            seen = {}
            for x in r['runs']: seen[verdicts(x)] = seen.get(verdicts(x), 0) + 1
            exp = r.get('expect') or {}
            name = r['name'] + (f" (declared rung {exp.get('rung')}: {','.join(exp.get('causes') or [])})" if kind == 'broken' else '')
            out.append(f"| {name} | {kind} | {r['wrong']} / {r['n']} | {','.join(map(str, r['seeds']))} | " +
                       '; '.join(f'{k} x{v}' for k, v in sorted(seen.items(), key=lambda kv: -kv[1])) + ' | ' +
                       ' '.join(f"{x.get('seconds', 0):.0f}" for x in r['runs']) + ' |')
    for kind, word in (('healthy', 'false fail'), ('broken', 'not caught')):
        ks = [r for r in rows if r['kind'] == kind]
        out.append(f"| **all {kind}** | {word} | {sum(r['wrong'] for r in ks)} / {sum(r['n'] for r in ks)} | | | |")
    return '\n'.join(out)


if __name__ == '__main__': print(table(merged(sys.argv[1:])))

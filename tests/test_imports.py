"""The import graph of ntrain/: no cycle, no import upwards against the floors below, no private name imported across
modules, no module `__getattr__` that re-exports names from elsewhere. Every ntrain/*.py is parsed with ast: imports at
the top and inside functions alike, relative (`from .core import x`, `from . import card`) and absolute
(`from ntrain.core import x`, `import ntrain.card`, `from ntrain import card`). `ntrain/__init__` reaches the other
modules by name on first use (`importlib`, PEP 562): those are not imports of the graph; its own imports are.
`python tests/test_imports.py` prints the floors and the graph. No module binds one top-level name twice
(`duplicate_definitions`): the second definition silently replaces the first for every caller."""
import ast, pathlib, sys

PKG = pathlib.Path(__file__).resolve().parents[1]/'ntrain'

FLOORS = [  # (floor, what it holds, its modules), lowest first: a module imports from its own floor or a lower one
    ('foundation', 'torch-free: errors, config, records, run directories, the run-state machine (EXIT_CODES, STATES), '
                   'display hooks; the package front, which imports only `display` (its other imports are by name); '
                   'the subpackages `engine` and `notebook`, which import nothing; the trackers (MLflow on a thread of its own, imported there)',
     ['__init__', '_modidx', 'core', 'config', 'display', 'events', 'lifecycle', 'loggers', 'rundir', 'engine', 'notebook', 'trackers']),
    ('readers', "torch-free renderers of a run's records and files: the console's lines, the plots, the view-model, the comparison of runs",
     ['console', 'plots', 'notebook.viewmodel', 'notebook.compare']),
    ('engine', 'data, the trainer and its parts, the card, the API, launching under torchrun (and Slurm) and run handles',
     ['metrics', 'engine.optim', 'engine.device', 'engine.checkpoint', 'data', 'examples', 'ladder.gallery', 'ladder.user_tasks',
      'engine.distributed', 'engine.sharded', 'engine.faults', 'engine.guards', 'engine.checks', 'engine.trainstate', 'engine.runfiles', 'card',
      'engine.trainer', 'engine.api', 'engine.resume_check', 'ladder.speed', 'slurm', 'launch', 'handle']),
    ('ladder', 'the sanity ladder: its kernel (results, thresholds, user-code errors), diagnoses, the rungs (one module each, the LR '
               'range test rungs 3 and 4 share, `RUNGS` by number) and the session',
     ['ladder.kernel', 'ladder.diagnose', 'ladder.one_step', 'ladder.init_loss', 'ladder.range_test', 'ladder.overfit',
      'ladder.small_data', 'ladder.full_run', 'ladder.rungs', 'ladder.session', 'ladder']),
    ('views', 'widgets: the run dashboard and the ladder panel', ['notebook.dashboard', 'notebook.ladder_panel']),
    ('front', 'the command line', ['cli', '__main__']),
]

def private(name:str)->bool: return name.startswith('_') and not (name.startswith('__') and name.endswith('__'))

def module_names(pkg:pathlib.Path)->dict:
    "{dotted name under the package: path}: `engine.trainer` for engine/trainer.py, `engine` for engine/__init__.py, `__init__` for the front."
    out = {}
    for p in sorted(pkg.rglob('*.py')):
        parts = list(p.relative_to(pkg).with_suffix('').parts)
        if parts[-1] == '__init__' and len(parts) > 1: parts = parts[:-1]
        out['.'.join(parts)] = p
    return out

def parse_imports(pkg:pathlib.Path, pkg_name:str='ntrain')->dict:
    """{module: [(target module, name imported or None, line, where)]} for every module of package directory `pkg` (its
    subpackages included, modules named dotted: `engine.trainer`); `where` is 'top' or the function the import is in. A
    name taken from the package itself (`from ntrain import __version__`) targets `__init__`; a submodule imported by
    name (`from . import card`, `from ..engine import checkpoint`) targets that module; a private attribute of a
    module bound by an import (`card._x`) counts as a name taken from it."""
    paths = module_names(pkg)
    mods = set(paths)
    def resolve(dotted:str)->str: return dotted if dotted else '__init__'
    out = {}
    for src, path in paths.items():
        tree, found, bound = ast.parse(path.read_text(encoding='utf-8'), str(path)), [], {}
        is_pkg = path.name == '__init__.py'
        here = ([] if src == '__init__' else src.split('.')) if is_pkg else src.split('.')[:-1]  # the package the module is in
        def visit(node, where):
            for n in ast.iter_child_nodes(node):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)): visit(n, getattr(n, 'name', 'lambda'))
                else:
                    take(n, where); visit(n, where)
        def take(n, where):
            if isinstance(n, ast.Import):
                for a in n.names:
                    parts = a.name.split('.')
                    if parts[0] != pkg_name: continue
                    t = resolve('.'.join(parts[1:]))
                    found.append((t, None, n.lineno, where))
                    if a.asname: bound[a.asname] = t
            elif isinstance(n, ast.ImportFrom):
                if n.level:
                    if n.level - 1 > len(here): raise AssertionError(f'{path}:{n.lineno}: an import from above the package')
                    base = '.'.join(here[:len(here) - (n.level - 1)] + ([n.module] if n.module else []))
                elif n.module == pkg_name or (n.module or '').startswith(pkg_name + '.'): base = n.module[len(pkg_name) + 1:]
                else: return
                for a in n.names:
                    sub = f'{base}.{a.name}' if base else a.name
                    if sub in mods:  # a submodule: `from . import card`
                        found.append((sub, None, n.lineno, where)); bound[a.asname or a.name] = sub
                    else: found.append((resolve(base), a.name, n.lineno, where))
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in bound and private(n.attr):
                found.append((bound[n.value.id], n.attr, n.lineno, where))
        visit(tree, 'top')
        if any(isinstance(n, ast.FunctionDef) and n.name == '__getattr__' for n in tree.body) and src != '__init__':
            found.append((src, '__getattr__', 0, 'top'))  # (flagged by `problems`)
        out[src] = found
    return out

def edges_of(imports:dict)->dict:
    "{module: {modules it imports}} (a module's imports of itself left out)."
    return {m: {t for t, *_ in imps if t != m} for m, imps in imports.items()}

def find_cycles(edges:dict)->list:
    "One cycle (a list of modules, the first one again at its end) in each strongly connected part of the graph that has one."
    index, low, stack, on, parts = {}, {}, [], set(), []
    def strong(v):  # Tarjan
        index[v] = low[v] = len(index); stack.append(v); on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index: strong(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop(); on.discard(w); part.add(w)
                if w == v: break
            if len(part) > 1: parts.append(part)
    limit = sys.getrecursionlimit()  # raised for this search only: a limit left raised lets the worker's later tests recurse deeper
    sys.setrecursionlimit(max(limit, 10000))  # (test_bad_inputs' YAML nested 3000 deep then parsed, and was not "nested too deeply")
    try:
        for v in sorted(edges):
            if v not in index: strong(v)
    finally: sys.setrecursionlimit(limit)
    cycles = []
    for part in parts:  # the shortest way back to its first module, through the part
        start = min(part); prev, todo = {start: None}, [start]
        while todo:
            v = todo.pop(0)
            for w in sorted(edges.get(v, ()) & part):
                if w == start:
                    path = [v]
                    while prev[path[-1]] is not None: path.append(prev[path[-1]])
                    cycles.append(path[::-1] + [start]); todo = []; break
                if w not in prev: prev[w] = v; todo.append(w)
    return sorted(cycles)

def problems(imports:dict, floors=FLOORS)->list:
    "Everything wrong with a graph (as `parse_imports` gives it), one line each; [] for a clean one."
    level = {m: i for i, (_, _, mods) in enumerate(floors) for m in mods}
    name = {i: f for i, (f, _, _) in enumerate(floors)}
    out = [f'{m}: no floor (add it to FLOORS)' for m in sorted(imports) if m not in level]
    out += [f'{m}: in FLOORS, but there is no such module' for m in sorted(level) if m not in imports]
    out += ['a cycle: ' + ' -> '.join(c) for c in find_cycles(edges_of(imports))]
    for m, imps in sorted(imports.items()):
        for t, n, line, where in imps:
            if n == '__getattr__' and t == m: out.append(f'{m}: a module __getattr__ (names re-exported from elsewhere: import them from their module)'); continue
            if t == m: continue
            if m in level and t in level and level[t] > level[m]:
                out.append(f"{m}:{line} ({where}) imports {t}{'.' + n if n else ''}: upwards, from {name[level[m]]} to {name[level[t]]}")
            if n is not None and private(n): out.append(f'{m}:{line} ({where}) takes the private name {t}.{n}')
    return out

def floors_text(imports:dict, floors=FLOORS)->str:
    "The floors, top first, each module with the modules it imports: the graph as text."
    edges, lines = edges_of(imports), []
    for f, what, mods in reversed(floors):
        lines.append(f'{f}: {what}')
        lines += [f"  {m:<21} -> {', '.join(sorted(edges.get(m, ()))) or '(nothing of ntrain)'}" for m in mods]
    return '\n'.join(lines)

_GRAPH = None
def graph()->dict:
    global _GRAPH
    if _GRAPH is None: _GRAPH = parse_imports(PKG)
    return _GRAPH

# --- the package ---------------------------------------------------------------------------------------------------------
def test_every_module_has_a_floor():
    assert not [p for p in problems(graph()) if 'floor' in p or 'no such module' in p]

def test_no_import_cycle():
    assert find_cycles(edges_of(graph())) == []

def test_no_upward_import():
    assert [p for p in problems(graph()) if 'upwards' in p] == []

def test_no_private_name_crosses_a_module_line():
    assert [p for p in problems(graph()) if 'private' in p or '__getattr__' in p] == []

def test_the_floors_as_text():
    text = floors_text(graph())
    print('\n' + text)
    assert all(f'  {m} ' in text for m in graph())

# --- the checker itself: negative controls ----------------------------------------------------------------------------
def test_the_checker_fails_a_graph_with_a_cycle_an_upward_import_and_a_private_name():
    floors = [('low', '', ['a', 'b', 'c']), ('high', '', ['d'])]
    g = dict(a=[('b', 'x', 1, 'top')], b=[('c', None, 2, 'f')], c=[('a', 'y', 3, 'top'), ('d', 'z', 4, 'g')],
             d=[('a', '_secret', 5, 'top')])
    ps = problems(g, floors)
    assert 'a cycle: a -> b -> c -> a' in ps
    assert 'c:4 (g) imports d.z: upwards, from low to high' in ps
    assert 'd:5 (top) takes the private name a._secret' in ps
    assert len(ps) == 3, ps
    g['e'] = []
    assert 'e: no floor (add it to FLOORS)' in problems(g, floors)
    clean = dict(a=[], b=[('a', 'x', 1, 'top')], c=[('b', None, 1, 'top')], d=[('c', 'y', 1, 'top'), ('a', '__version__', 2, 'top')])
    assert problems(clean, floors) == []

def test_the_parser_sees_every_form_of_import(tmp_path):
    "A package of five modules: relative and absolute imports, at the top and in functions; a cycle, an upward import, private names."
    pkg = tmp_path/'ntrain'; pkg.mkdir()
    (pkg/'__init__.py').write_text('__version__ = "0"\n')
    (pkg/'a.py').write_text('from .b import x\n')
    (pkg/'b.py').write_text('x = 1\ndef f():\n    import ntrain.c\n')
    (pkg/'c.py').write_text('from ntrain import a, __version__\ndef g():\n    from . import top\n    return top\n')
    (pkg/'top.py').write_text('from ntrain.a import _secret\nimport ntrain.b as bb\nbb._hidden\n')
    (pkg/'d.py').write_text('from . import c as cc\ndef h(): return cc._also\ndef __getattr__(name): return getattr(cc, name)\n')
    (pkg/'sub').mkdir(); (pkg/'sub'/'__init__.py').write_text('')  # a subpackage: imports two levels up, and of its own modules
    (pkg/'sub'/'m.py').write_text('from ..b import x\nfrom . import n\nfrom ntrain.sub.n import y\nimport ntrain.a\n')
    (pkg/'sub'/'n.py').write_text('y = 1\n')
    floors = [('low', '', ['__init__', 'a', 'b', 'c', 'd', 'sub', 'sub.n', 'sub.m']), ('high', '', ['top'])]
    g = parse_imports(pkg)
    assert ('c', None, 3, 'f') in g['b'] and ('__init__', '__version__', 1, 'top') in g['c'] and ('top', None, 3, 'g') in g['c']
    assert g['sub.m'] == [('b', 'x', 1, 'top'), ('sub.n', None, 2, 'top'), ('sub.n', 'y', 3, 'top'), ('a', None, 4, 'top')], g['sub.m']
    assert g['sub'] == [] and g['sub.n'] == []
    ps = problems(g, floors)
    assert ps == ['a cycle: a -> b -> c -> a',
                  'c:3 (g) imports top: upwards, from low to high',
                  'd:2 (h) takes the private name c._also',
                  'd: a module __getattr__ (names re-exported from elsewhere: import them from their module)',
                  'top:1 (top) takes the private name a._secret',
                  'top:3 (top) takes the private name b._hidden'], ps

if __name__ == '__main__':
    print(floors_text(graph()))
    for p in problems(graph()): print('PROBLEM', p)


def undefined_names(src:str)->set:
    """Names a module reads that nothing in it binds (an import, a def or class, an assignment, an argument, an `except
    ... as`) and that are not builtins: what a merge that moved code leaves behind (a NameError at run time)."""
    import ast, builtins
    t = ast.parse(src)
    bound = set(dir(builtins)) | {'__file__', '__name__', '__spec__', 'get_ipython'}
    for n in ast.walk(t):
        if isinstance(n, (ast.Import, ast.ImportFrom)): bound |= {(a.asname or a.name).split('.')[0] for a in n.names}
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): bound.add(n.name)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)): bound.add(n.id)
        elif isinstance(n, ast.arg): bound.add(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name: bound.add(n.name)
    return {n.id for n in ast.walk(t) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound


def test_no_module_reads_a_name_it_never_binds():
    found = {m: sorted(undefined_names(p.read_text())) for m, p in module_names(PKG).items()}
    assert not {m: n for m, n in found.items() if n}, found
    # the negative control: the card before its import of first_line was carried over in a merge
    assert undefined_names("from .core import NtrainError\ndef f(e):\n    raise NtrainError(first_line(e))\n") == {'first_line'}
    assert undefined_names("import os\ndef f(x, *a, k=1):\n    try: y = [z for z in a]\n    except OSError as e: return e\n    return os.sep, x, y, k\n") == set()


def test_old_and_new_module_paths_in_a_fresh_interpreter():
    """The public paths (`ntrain.fit`, `ntrain.Task`, `ntrain.examples.digits`, `ntrain.Ladder`, `ntrain.ladder`) and every
    new module path import with no warning; every module path of 0.1.0 before the subpackages (`_MOVED`) imports with
    one DeprecationWarning naming where it went, and holds the same objects."""
    import subprocess, json
    code = r'''
import importlib, json, sys, warnings
warnings.simplefilter('error')  # a warning on a new path fails here
import ntrain, ntrain.examples
from ntrain import fit, Task, Ladder, ladder, launch
from ntrain.examples import digits
from ntrain.ladder import LadderSession
new = {m: importlib.import_module(m) for m in sorted(set(ntrain._MOVED.values()))}
out = dict(public=[callable(fit), isinstance(Task, type), callable(digits), isinstance(Ladder, type), callable(ladder), callable(launch)], old={})
for old, target in sorted(ntrain._MOVED.items()):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always'); m = importlib.import_module(old)
    same = all(getattr(m, k) is v for k, v in vars(new[target]).items() if not k.startswith('__'))
    out['old'][old] = [[str(x.message).split(':')[0] for x in w if x.category is DeprecationWarning], same]
print(json.dumps(out))'''
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=180, cwd=PKG.parent)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out['public'] == [True] * 6
    import ntrain
    assert set(out['old']) == set(ntrain._MOVED) and len(out['old']) >= 20
    bad = {old: got for old, got in out['old'].items() if got != [[f'{old} moved to {ntrain._MOVED[old]}'], True]}
    assert not bad, bad


def _decorators(fn)->list: return [ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in fn.decorator_list]

def _may_repeat(fn)->bool:
    "A definition that repeats a name on purpose: typing.overload's signatures, a property's setter, singledispatch's register."
    return any(d in ('overload', 'typing.overload') or d.endswith(('.setter', '.getter', '.deleter', '.register')) for d in _decorators(fn))

def _patched_class(fn):
    "The class a `@patch` function is a method of (`def m(self:Cls)`, see `ntrain.core.patch`), as written; None otherwise."
    if not any(d == 'patch' or d.endswith('.patch') for d in _decorators(fn)): return None
    first = (fn.args.posonlyargs + fn.args.args)[:1]
    return ast.unparse(first[0].annotation).strip('\'"') if first and first[0].annotation is not None else None

def _names(target):
    if isinstance(target, ast.Name): yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for t in target.elts: yield from _names(t)
    elif isinstance(target, ast.Starred): yield from _names(target.value)

def duplicate_definitions(src:str, name:str='<src>')->list:
    """A name bound twice at a module's top level by a def, a class or an assignment, or twice in one class, one line each:
    the second silently replaces the first. A `@patch` function (`def m(self:Cls)`) is Cls's method `m`: two classes may
    each have one, but it also binds the module's `m`, so a plain `m` beside it repeats that. Overloads, property
    setters and singledispatch registrations may repeat a name; augmented assignments and imports are not definitions."""
    seen, plain, patched, out = {}, {}, {}, []
    def bind(cls, n, line):
        key = (cls, n)
        if n == '_': return
        if key in seen: out.append(f"{name}:{line}: {cls + '.' if cls else ''}{n} is defined again (first at line {seen[key]})")
        else: seen[key] = line
    for node in ast.parse(src).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if _may_repeat(node): continue
            cls = _patched_class(node)
            bind(cls, node.name, node.lineno)
            mine, other = (patched, plain) if cls else (plain, patched)
            if node.name in other:
                out.append(f"{name}:{node.lineno}: {node.name} is defined again (first at line {other[node.name]}, "
                           f"{'a plain name' if cls else 'a @patch method'}): the module's {node.name} is rebound")
            mine.setdefault(node.name, node.lineno)
        elif isinstance(node, ast.ClassDef):
            bind(None, node.name, node.lineno); plain.setdefault(node.name, node.lineno)
            for m in node.body:  # its methods (and nested classes), which `@patch` methods of it join
                if isinstance(m, ast.ClassDef) or isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _may_repeat(m):
                    bind(node.name, m.name, m.lineno)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and getattr(node, 'value', None) is not None:
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for n in _names(t):
                    bind(None, n, node.lineno)
                    if n in patched: out.append(f"{name}:{node.lineno}: {n} is defined again (first at line {patched[n]}, a @patch method): the module's {n} is rebound")
                    plain.setdefault(n, node.lineno)
    return out


def test_no_module_defines_a_name_twice():
    found = [line for m, p in module_names(PKG).items()
             for line in duplicate_definitions(p.read_text(encoding='utf-8'), p.relative_to(PKG.parent).as_posix())]
    assert found == [], found


def test_the_duplicate_checker_names_each_repeat():
    "Its negative control: a module with each kind of repeat (the last `_same` as in ntrain/ladder/rungs.py before the rungs' split) and each legitimate one."
    src = '''from typing import overload
from ntrain.core import patch
class A:
    def f(self): pass
    def f(self): return 1
    @property
    def p(self): return 1
    @p.setter
    def p(self, v): pass
class B: pass
def _same(x, y): return x == y
@overload
def g(x:int)->int: ...
@overload
def g(x:str)->str: ...
def g(x): return x
@patch
def draw(self:A): pass
@patch
def draw(self:B): pass
@patch
def f(self:A): pass
X, (Y, Z) = 1, (2, 3)
X += 1
Y = 4
def _same(x, y): return bool((x == y).all())
class B: pass
def draw(): pass
'''
    assert duplicate_definitions(src, 'm.py') == [
        'm.py:5: A.f is defined again (first at line 4)',
        'm.py:22: A.f is defined again (first at line 4)',
        'm.py:25: Y is defined again (first at line 23)',
        'm.py:26: _same is defined again (first at line 11)',
        'm.py:27: B is defined again (first at line 10)',
        "m.py:28: draw is defined again (first at line 18, a @patch method): the module's draw is rebound"], duplicate_definitions(src, 'm.py')
    assert duplicate_definitions('def f(): pass\nclass C:\n    def f(self): pass\nf2 = f\n') == []

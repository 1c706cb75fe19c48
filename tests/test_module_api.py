"""The model users hold: an nn.Module wherever a model goes, with the rule of Keras' and Lightning's `fit`.

A full run (`fit`, `resume`, `Task(model=net)`) trains the module in place, with the same numbers a factory making the
same module gives; the ladder's rungs leave it exactly as it was (weights and buffers); the README's Python lines run
as written with a module; a wrong kind of argument is one line and leaves nothing behind."""
import copy, os, re, subprocess, sys, threading
from pathlib import Path
import pytest
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader
import ntrain
from ntrain.core import TaskError, ConfigError
from ntrain.engine import checkpoint as ckpt
from ntrain.examples import load_digits_arrays

ROOT = Path(__file__).resolve().parents[1]
OPTS = dict(epochs=2, num_workers=0, deterministic=True, quiet=True, log_every=1)

def digits():
    x, y = load_digits_arrays()
    x = x.flatten(1)
    return TensorDataset(x[:1200], y[:1200]), TensorDataset(x[1200:], y[1200:])

class Net(nn.Module):
    "An MLP with dropout and BatchNorm: buffers and random state a careless copy or mode would get wrong."
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(64, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 10))
    def forward(self, x): return self.body(x)

def made(seed=0)->Net:
    torch.manual_seed(seed); return Net()

def state(m)->dict: return {k: v.detach().clone() for k, v in m.state_dict().items()}
def same(a:dict, b:dict)->bool: return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
def losses(rd)->list: return [r['loss'] for r in ntrain.watch(rd).poll() if r['kind'] == 'step']

@pytest.fixture(scope='module')
def data(): return digits()

def test_fit_trains_the_module_in_place_with_a_factory_s_numbers(tmp_path, data, one_thread):
    tr, va = data
    net = made(); twin = copy.deepcopy(net)
    init = state(net)
    a = ntrain.fit(model=net, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=10, run_dir=tmp_path/'module', **OPTS)
    # a factory that draws nothing from the RNG (a copy), as the ladder's plain models were made before
    b = ntrain.fit(model=lambda: copy.deepcopy(twin), train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=10,
                   run_dir=tmp_path/'factory', **OPTS)
    assert (a.status, a.in_place, b.in_place) == ('finished', True, False)
    assert losses(tmp_path/'module') == losses(tmp_path/'factory')  # in place changes nothing in the numbers
    assert same(state(net), ckpt.load(tmp_path/'module'/'ckpt'/'last.pt')['model'])  # the module holds the last weights
    assert not same(state(net), init)
    best, _ = ntrain.load(a.run_dir, model=net)
    assert best is not net and same(state(best), ckpt.load(tmp_path/'module'/'ckpt'/'best.pt')['model'])
    assert same(state(net), ckpt.load(tmp_path/'module'/'ckpt'/'last.pt')['model'])  # load left net alone

def test_task_of_a_module_and_an_exact_resume(tmp_path, data, one_thread):
    "Task(model=net) trains net; a run stopped at step 7 and resumed with the same module ends as the run left alone."
    tr, va = data
    alone = made(1)
    ntrain.fit(task=ntrain.Task(model=alone, train=tr, valid=va, num_classes=10), run_dir=tmp_path/'alone', **OPTS)
    net = made(1)
    stop = threading.Event()
    r = ntrain.fit(task=ntrain.Task(model=net, train=tr, valid=va, num_classes=10), run_dir=tmp_path/'run', stop=stop,
                   callbacks=[lambda rec: stop.set() if rec['kind'] == 'step' and rec['step'] == 7 else None], **OPTS)
    assert (r.status, r.steps) == ('stopped', 7)
    done = ntrain.resume(tmp_path/'run', model=net, train=tr, valid=va, num_classes=10, quiet=True)
    assert (done.status, done.in_place) == ('finished', True)
    assert same(state(net), state(alone))
    assert losses(tmp_path/'run')[-5:] == losses(tmp_path/'alone')[-5:]

def test_the_ladder_leaves_the_module_and_hands_it_to_the_full_run(tmp_path, data, one_thread):
    tr, va = data
    net = made(2)
    init = state(net)
    lad = ntrain.ladder(model=net, train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=10, rungs='1-4', run_dir=tmp_path/'lad')
    assert [r.verdict for r in lad.rungs] == ['pass'] * 4, lad.table()
    assert same(state(net), init) and net.training  # weights, BatchNorm's statistics and its counter, and the mode: as given
    res = lad.fit(epochs=1, num_workers=0, quiet=True)
    assert (res.status, res.in_place, Path(res.run_dir)) == ('finished', True, tmp_path/'lad')
    assert same(state(net), ckpt.load(tmp_path/'lad'/'ckpt'/'last.pt')['model'])
    s = ntrain.LadderSession(task=ntrain.Task(model=net, train=tr, valid=va, num_classes=10), run_dir=tmp_path/'again')
    trained = state(net)
    s.run('1-2')
    assert same(state(net), trained)

@pytest.mark.parametrize('call, line', [
    (lambda tr, net: ntrain.fit(model=tr, train=tr), "task 'run': model is a TensorDataset (data): expected an nn.Module, its class, or a function that returns one"),
    (lambda tr, net: ntrain.fit(model=net, train=tr, loss=net), "task 'run': loss is a Net (a model) with"),
    (lambda tr, net: ntrain.fit(model=net, train=torch.zeros(8, 64)), "task 'run': train is a Tensor of shape (8, 64): expected a dataset of samples or a DataLoader (for arrays x and y: TensorDataset(x, y))"),
    (lambda tr, net: ntrain.fit(model=net, train=tr, num_classes='10'), "task 'run': num_classes is the str '10': expected a whole number of classes"),
    (lambda tr, net: ntrain.fit(model=net, train=tr, metrics=['accuracy']), "task 'run': metrics[0] is the str 'accuracy': expected a metric object"),
    (lambda tr, net: ntrain.fit(valid=tr), "fit: valid= needs model="),
    (lambda tr, net: ntrain.fit(net), "config is a Net: expected a built-in example's name, a YAML path, a dict or a Config; a model goes in as model="),
    (lambda tr, net: ntrain.fit(task=net), "task is a Net (a model): expected an ntrain Task or 'module:function'"),
    (lambda tr, net: ntrain.resume('nowhere', model=net), "nowhere"),
    (lambda tr, net: ntrain.launch(model=net, train=tr), "launch: model= is an object of this process"),
    (lambda tr, net: ntrain.ladder(model=net, train=DataLoader(tr), valid=net), "task 'run': valid is a Net (a model): expected a dataset of samples or a DataLoader"),
])
def test_a_wrong_kind_is_one_line_and_leaves_nothing(call, line, tmp_path, data, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises((TaskError, ConfigError, ntrain.NtrainError)) as e:
        call(data[0], Net())
    msg = str(e.value)
    assert line in msg and '\n' not in msg, msg
    assert list(tmp_path.iterdir()) == [], 'a refused call wrote files'

def readme_module_block()->str:
    text = (ROOT/'README.md').read_text()
    m = re.search(r'<!-- python-module -->\n```python\n(.*?)```', text, re.S)
    assert m, 'README.md has no <!-- python-module --> block'
    return m.group(1)

def test_readme_python_lines_run_as_written_with_a_module(tmp_path):
    "The README's module lines, as written, after a user's own net and datasets (a small MLP on digits; 3 epochs)."
    prelude = ('import torch\nfrom torch import nn\nfrom torch.utils.data import TensorDataset\nfrom ntrain.examples import load_digits_arrays\n'
               'x, y = load_digits_arrays(); x = x.flatten(1)\ntrain_ds, val_ds = TensorDataset(x[:1400], y[:1400]), TensorDataset(x[1400:], y[1400:])\n'
               'torch.manual_seed(0); net = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))\n'
               'w0 = net[0].weight.detach().clone()\n')
    check = ('\nassert [r.verdict for r in lad.rungs] == ["pass"] * 4, lad.table()\n'
             'assert res.status == "finished" and res.in_place and not torch.equal(w0, net[0].weight)\n'
             'assert model is not net and type(model) is type(net)\nprint("README OK", res)\n')
    script = tmp_path/'readme_lines.py'
    script.write_text(prelude + readme_module_block() + check)
    env = dict(os.environ, OMP_NUM_THREADS='1', NTRAIN_PLOTTER='0')
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=400)
    assert r.returncode == 0 and 'README OK' in r.stdout, f'exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}'


def test_a_task_field_given_with_the_model_goes_to_the_task(tmp_path, data, one_thread):
    """`collate_fn=` (and a Task's other fields: `groups=`, `count_items=`, ...) beside `model=` builds the task with it in
    `fit` and `ladder`, as `Task(collate_fn=...)` would; it was refused as an unknown config key (half AO's DiffPool)."""
    tr, va = data
    calls = []
    def collate(samples):
        calls.append(len(samples)); return torch.stack([s[0] for s in samples]), torch.stack([s[1] for s in samples])
    r = ntrain.fit(model=made(), train=tr, valid=va, num_classes=10, collate_fn=collate, run_dir=tmp_path/'f', **OPTS)
    assert r.status == 'finished' and 64 in calls, calls[:5]  # the training batches (validation's are larger)
    calls.clear()
    lad = ntrain.ladder(model=made, train=tr, valid=va, num_classes=10, collate_fn=collate, rungs='1', run_dir=tmp_path/'l', write=False)
    assert lad.rung(1).verdict == 'pass' and calls
    with pytest.raises(ConfigError, match="'colate_fn' is not a config key; the Task field is 'collate_fn'"):
        ntrain.ladder(model=made, train=tr, valid=va, num_classes=10, colate_fn=collate, rungs='1', run_dir=tmp_path/'m', write=False)
    with pytest.raises(TaskError, match='collate_fn= needs model='):
        ntrain.fit(collate_fn=collate, run_dir=tmp_path/'n', **OPTS)
    with pytest.raises(TaskError, match=r'pass task=, or a model and its data \(collate_fn=\), not both'):
        ntrain.fit(task=ntrain.Task(model=made, train=tr, valid=va, num_classes=10), collate_fn=collate, run_dir=tmp_path/'t', **OPTS)

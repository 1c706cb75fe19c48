"""ntrain tasks for the benchmarks, named in a config from the repository root (which is on sys.path for
`python -m ntrain` run there, or through PYTHONPATH=.):

    ntrain fit digits task=bench.bench_tasks:mlp epochs=3                    # the MLP on the digits data
    ntrain fit digits task=bench.bench_tasks:resnet50_synth precision=bf16   # ResNet-50 on synthetic images

The models are the very classes the other sides use (bench/reference_fit.py's `MLP`, bench/resnet50.py), so both
sides train the same network on the same data.
"""
import sys
from pathlib import Path
from ntrain.data import Task
from ntrain.examples import digits

_HERE = Path(__file__).resolve().parent
if str(_HERE) not in sys.path: sys.path.insert(0, str(_HERE))


def mlp(width:int=1024, depth:int=4)->Task:
    "The digits task (same split, same shift augmentation, accuracy and macro F1) with reference_fit's wide MLP."
    from reference_fit import MLP
    t = digits()
    t.model = lambda: MLP(width, depth)
    t.name = 'mlp'
    return t


def resnet50_synth(train_samples:int=256 * 40, valid_samples:int=512, image_size:int=224)->Task:
    "ResNet-50 on synthetic uint8 ImageNet-shaped images, 1000 classes (bench/resnet50.py)."
    from resnet50 import resnet50, SynthImages
    return Task(model=resnet50, train=SynthImages(train_samples, image_size, seed=0), valid=SynthImages(valid_samples, image_size, seed=1),
                num_classes=1000, name='resnet50_synth')

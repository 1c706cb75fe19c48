"""ResNet-50 (torchvision's layout, written out so the lent machine needs no torchvision) and synthetic
ImageNet-shaped data, shared by both sides of the GPU comparisons (bench/reference_fit.py --model resnet50 and
bench/bench_tasks.py:resnet50_synth). Imports nothing from ntrain.

Images are uint8 (3, S, S), as a decoding pipeline hands them over, so the loader moves a quarter of the bytes of
float32; the model converts and normalises them on the device (`x.float() / 255`, then ImageNet mean and std), and
when its weights are channels_last it makes its input channels_last too, so `channels_last` needs nothing from the
loop on either side.
"""
import torch
from torch import nn
from torch.utils.data import Dataset


class Bottleneck(nn.Module):
    expansion = 4
    def __init__(self, inp:int, planes:int, stride:int=1):
        super().__init__()
        out = planes * self.expansion
        self.conv1 = nn.Conv2d(inp, planes, 1, bias=False); self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False); self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, out, 1, bias=False); self.bn3 = nn.BatchNorm2d(out)
        self.relu = nn.ReLU(inplace=True)
        self.down = (nn.Sequential(nn.Conv2d(inp, out, 1, stride, bias=False), nn.BatchNorm2d(out))
                     if stride != 1 or inp != out else None)
    def forward(self, x):
        idt = x if self.down is None else self.down(x)
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.relu(self.bn2(self.conv2(x)))
        return self.relu(self.bn3(self.conv3(x)) + idt)


class ResNet50(nn.Module):
    "ResNet-50 (layers 3, 4, 6, 3) taking uint8 or float images."
    def __init__(self, num_classes:int=1000):
        super().__init__()
        self.register_buffer('mean', torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1) * 255, persistent=False)
        self.register_buffer('std', torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1) * 255, persistent=False)
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False); self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True); self.pool = nn.MaxPool2d(3, 2, 1)
        layers, inp = [], 64
        for planes, n, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
            blocks = []
            for i in range(n):
                blocks.append(Bottleneck(inp, planes, stride if i == 0 else 1)); inp = planes * 4
            layers.append(nn.Sequential(*blocks))
        self.layer1, self.layer2, self.layer3, self.layer4 = layers
        self.fc = nn.Linear(2048, num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d): nn.init.kaiming_normal_(m.weight, mode='fan_out', nonlinearity='relu')
        for m in self.modules():
            if isinstance(m, Bottleneck): nn.init.zeros_(m.bn3.weight)
    def forward(self, x):
        x = (x.to(self.mean.dtype) - self.mean) / self.std
        if self.conv1.weight.is_contiguous(memory_format=torch.channels_last) and not self.conv1.weight.is_contiguous():
            x = x.contiguous(memory_format=torch.channels_last)
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


def resnet50(num_classes:int=1000)->nn.Module: return ResNet50(num_classes)


class SynthImages(Dataset):
    "`n` synthetic uint8 images of (3, size, size) with labels in [0, classes): a bank of 64 random images, cycled."
    def __init__(self, n:int, size:int=224, classes:int=1000, seed:int=0, bank:int=64):
        g = torch.Generator(); g.manual_seed(seed)
        self.n = n
        self.images = torch.randint(0, 256, (bank, 3, size, size), dtype=torch.uint8, generator=g)
        self.labels = torch.randint(0, classes, (n,), generator=g)
    def __len__(self): return self.n
    def __getitem__(self, i): return self.images[i % len(self.images)], self.labels[i]

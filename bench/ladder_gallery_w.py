"""Half W of the ladder's gallery: held out from the rules frozen at b3c6150 (round 29), and run once on them.
Families not in halves A-V: DeepBind (Alipanahi et al.: motif-detector convolutions over one-hot DNA, a global max pool,
dropout, one logit, BCEWithLogits) finding a transcription factor's binding sites in ChIP-like sequences, the training set
doubled with reverse complements; a small Conv-TasNet (Luo and Mesgarani: a learnt encoder, a TCN separator of dilated
depthwise convolutions with global layer norm and PReLU, sigmoid masks, a transposed-convolution decoder) separating two
synthetic voiced talkers, trained with utterance-level permutation-invariant SI-SNR in a custom step that clips the gradient
norm at 5 as the recipe; a p4 group-equivariant CNN (Cohen and Welling: a lifting convolution with four rotated copies of
each filter, group convolutions that rotate and cycle their filters, a max over rotations) on randomly rotated digits;
non-negative PU learning (Kiryo et al.'s nnPU: the sigmoid loss, the class prior known, gradient ascent on the negative risk
when it dips below zero, in a custom step) of even against odd digits from 300 labelled positives and unlabelled rows, validated
by the same PU risk; VoxelMorph (Balakrishnan et al.: a U-Net predicting a dense displacement field, a spatial transformer
warping the moving image, MSE plus a smoothness penalty on the field's gradients, a tuple output, Adam 1e-4) registering pairs
of same-class digits in 2-D; a categorical VAE with the Gumbel-softmax (Jang et al.: ten 10-way latents, BCE plus the KL to
the uniform prior, the temperature annealed every 100 steps in a custom step, as the PyTorch port); learning time-series
shapelets (Grabocka et al., as tslearn's ShapeletModel: learnt shapelets of two lengths initialised from training segments,
the minimum distance over sliding windows, a linear classifier; Adam 1e-2) of synthetic series with class motifs and a
distractor; an LSTM allocating a portfolio of four assets that is trained on minus the annualised Sharpe ratio of its next-day
returns over a batch (Zhang, Zohren and Roberts), split by date; Noise2Noise (Lehtinen et al.: a small U-Net trained from one
noisy capture of a digit to another independent capture, Adam with beta2 0.99, validated against the clean digits); a Tensor
Fusion Network (Zadeh et al.: an LSTM text subnetwork over fixed GloVe-like word vectors and batch-normalised MLP
subnetworks for the acoustic and visual features, the three-fold outer product of [1; h] vectors, a sigmoid output
rescaled to [-3, 3], the L1 loss) regressing the sentiment of synthetic opinion segments with sarcasm that only the tone
of voice reveals (a batch of four tensors); a biaffine dependency parser (Dozat and Manning: word and tag embeddings, a BiLSTM over packed sequences, arc MLPs and a biaffine
arc scorer, the cross-entropy over each word's head; Adam 2e-3 with betas (0.9, 0.9)) of sentences from a toy grammar whose
prepositional attachments depend on the preposition, a collate_fn that pads and returns dict batches; and conditional flow
matching (Lipman et al.; torchcfm's: a SELU MLP on (x, t) regressing the straight-line velocity x1 - x0, with x0, t drawn
afresh in the forward) from a Gaussian to two moons. Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its
decorators; ladder_gallery imports this module after half V.

Protocol: written by a helper in a worktree at 15e3556, held out from the rules frozen at b3c6150 (round 29): the maintainer
read nothing of it before the freeze, and the helper wrote it without reading the ladder's rules (ntrain/ladder/*.py,
nbs/02_ladder and the rung notebooks, bench/RESULTS.md, CHANGELOG.md, AGENTS.md, the rule tests) or any earlier sweep's
results; only `ntrain.ladder`'s public signature and docstring and the factory format of halves A-V (their @broken lines for
the rung and cause conventions) were read. Each program was checked by hand only with a plain torch loop of its author's kind
(shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), never with the ladder. Committed before
any ladder run, then run once, rungs 1-4:
`OMP_NUM_THREADS=1 nice -n 15 python bench/ladder_sweep.py --rungs 1-4 --seeds 5 [--first-seed 5] --half W`.
No program changes after the run starts; every verdict is reported, wrong ones read one by one.

Plain-loop checks (seed 0, a few epochs, OMP_NUM_THREADS=1): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one  # noqa: F401

# ---------------------------------------------------------------- DeepBind on ChIP-like DNA sequences
L_DNA, K_MOTIF = 101, 12

def _rc(x): return x.flip(1, 2)  # the reverse complement of one-hot (N, 4, L) sequences in ACGT order: reversed, A<->T and C<->G

def _chip_seqs(seed, n=3000, n_valid=600, rc_before_split=False):
    """Sequences of 101 bases with a per-sequence GC content of 35-65%; half of them bound: one site drawn from a 12-base
    position weight matrix planted on either strand at a random position; 5% of the labels flipped (ChIP noise). One-hot
    (N, 4, 101) in ACGT order, labels (N, 1) floats. Healthy: split, then the training sequences doubled with their reverse
    complements (the usual augmentation)."""
    g = _gen(seed * 1409)
    pwm = torch.softmax(4.0 * torch.randn(K_MOTIF, 4, generator=g), 1)
    gc = 0.35 + 0.3 * torch.rand(n, 1, generator=g)
    probs = torch.stack([(1 - gc) / 2, gc / 2, gc / 2, (1 - gc) / 2], -1).expand(n, L_DNA, 4)
    seq = torch.multinomial(probs.reshape(-1, 4), 1, generator=g).view(n, L_DNA)
    bound = torch.rand(n, generator=g) < 0.5
    site = torch.multinomial(pwm.repeat(n, 1), 1, generator=g).view(n, K_MOTIF)
    minus = torch.rand(n, generator=g) < 0.5
    site = torch.where(minus[:, None], 3 - site.flip(1), site)
    pos = torch.randint(0, L_DNA - K_MOTIF + 1, (n,), generator=g)
    for k in bound.nonzero()[:, 0].tolist(): seq[k, pos[k]:pos[k] + K_MOTIF] = site[k]
    y = (bound ^ (torch.rand(n, generator=g) < 0.05)).float()[:, None]
    x = F.one_hot(seq, 4).transpose(1, 2).float()
    if rc_before_split:  # the reverse complements added to the whole table first, then shuffled and split 80/20
        x, y = torch.cat([x, _rc(x)]), torch.cat([y, y]); p = torch.randperm(len(y), generator=g); x, y = x[p], y[p]
        k = len(y) // 5
        return TensorDataset(x[k:], y[k:]), TensorDataset(x[:k], y[:k])
    tr, va = (x[n_valid:], y[n_valid:]), (x[:n_valid], y[:n_valid])
    return TensorDataset(torch.cat([tr[0], _rc(tr[0])]), torch.cat([tr[1], tr[1]])), TensorDataset(*va)

class DeepBind(nn.Module):  # 16 motif detectors of width 24 (1.5 times the motif), ReLU, a global max pool, dropout 0.5, a 32-unit hidden layer, one logit
    def __init__(self, detectors=16, width=24, hidden=32):
        super().__init__()
        self.conv = nn.Conv1d(4, detectors, width); self.drop = nn.Dropout(0.5)
        self.fc = nn.Sequential(nn.Linear(detectors, hidden), nn.ReLU(), nn.Linear(hidden, 1))
    def forward(self, x): return self.fc(self.drop(F.relu(self.conv(x)).amax(-1)))

@healthy('W')
def deepbind_chip(seed, rc_before_split=False):  # BCEWithLogitsLoss, Adam 1e-3, batches of 64
    tr, va = _chip_seqs(seed, rc_before_split=rc_before_split)
    return dict(model=DeepBind, train=tr, valid=va, loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a small Conv-TasNet separating two talkers
SR_S, T_S = 8000, 2048

def _talkers(seed, n, g):
    "n voiced 'utterances': 12 harmonics of a gliding f0 (90-300 Hz) shaped by two formants, a syllable-rate envelope, unit RMS."
    t = torch.arange(T_S) / SR_S
    f0 = (90 + 210 * torch.rand(n, 1, generator=g)) * (1 + 0.4 * (torch.rand(n, 1, generator=g) - 0.5) * t / t[-1])
    F1, F2 = 300 + 600 * torch.rand(n, 1, generator=g), 900 + 1500 * torch.rand(n, 1, generator=g)
    env = torch.sin(math.pi * (2 + 4 * torch.rand(n, 1, generator=g)) * t + 2 * math.pi * torch.rand(n, 1, generator=g)).abs() ** 1.5 + 0.05
    phase = 2 * math.pi * torch.cumsum(f0 / SR_S, 1); s = torch.zeros(n, T_S)
    for h in range(1, 13):
        fh = f0 * h
        amp = (torch.exp(-((fh - F1) / 150) ** 2) + 0.6 * torch.exp(-((fh - F2) / 200) ** 2) + 0.05) / h ** 0.5 * (fh < SR_S / 2)
        s += amp * torch.sin(h * phase + 2 * math.pi * torch.rand(n, 1, generator=g))
    s = s * env; return s / s.pow(2).mean(1, keepdim=True).sqrt()

def _mixtures(seed, n=1000, n_valid=200, listdir_sources=False):
    """Two-talker mixtures at -5 to 5 dB, scaled to an RMS of 0.1: (mixture (N, 2048), sources (N, 2, 2048))."""
    g = _gen(seed * 1423)
    s1, s2 = _talkers(seed, n, g), _talkers(seed, n, g)
    snr = -5 + 10 * torch.rand(n, 1, generator=g)
    s2 = s2 * 10 ** (-snr / 20); src = torch.stack([s1, s2], 1)
    mix = src.sum(1); scale = 0.1 / mix.pow(2).mean(1, keepdim=True).sqrt(); mix, src = mix * scale, src * scale[:, None]
    if listdir_sources:  # mixtures from sorted(glob('mix/*.wav')), the s1/ and s2/ folders zipped in os.listdir's arbitrary order
        src = src[torch.randperm(n, generator=g)]
    return TensorDataset(mix[n_valid:], src[n_valid:]), TensorDataset(mix[:n_valid], src[:n_valid])

class GlobalLayerNorm(nn.Module):  # gLN: normalised over channels and time, a per-channel gain and bias
    def __init__(self, c): super().__init__(); self.gamma, self.beta = nn.Parameter(torch.ones(1, c, 1)), nn.Parameter(torch.zeros(1, c, 1))
    def forward(self, x):
        m = x.mean((1, 2), keepdim=True); v = (x - m).pow(2).mean((1, 2), keepdim=True)
        return self.gamma * (x - m) / (v + 1e-8).sqrt() + self.beta

class TCNBlock(nn.Module):  # 1x1 conv, PReLU, gLN, dilated depthwise conv, PReLU, gLN, 1x1 conv back; a residual
    def __init__(self, B, H, P, d):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(B, H, 1), nn.PReLU(), GlobalLayerNorm(H), nn.Conv1d(H, H, P, dilation=d, padding=d * (P - 1) // 2, groups=H),
                                 nn.PReLU(), GlobalLayerNorm(H), nn.Conv1d(H, B, 1))
    def forward(self, x): return x + self.net(x)

class ConvTasNet(nn.Module):  # N=64 filters of L=16 samples (stride 8), B=32 bottleneck, H=64, P=3, X=4 blocks, R=2 repeats, C=2 talkers
    def __init__(self, N=64, L=16, B=32, H=64, P=3, X=4, R=2, C=2):
        super().__init__(); self.C = C
        self.encoder = nn.Conv1d(1, N, L, stride=L // 2, bias=False)
        self.separator = nn.Sequential(GlobalLayerNorm(N), nn.Conv1d(N, B, 1), *[TCNBlock(B, H, P, 2 ** x) for _ in range(R) for x in range(X)],
                                       nn.PReLU(), nn.Conv1d(B, C * N, 1))
        self.decoder = nn.ConvTranspose1d(N, 1, L, stride=L // 2, bias=False)
    def forward(self, mix):
        w = F.relu(self.encoder(mix[:, None]))
        m = torch.sigmoid(self.separator(w)).view(len(mix), self.C, w.size(1), w.size(2))
        s = self.decoder((w[:, None] * m).flatten(0, 1)).view(len(mix), self.C, -1)
        return F.pad(s, (0, mix.size(-1) - s.size(-1)))

def si_snr(est, ref, eps=1e-8):  # scale-invariant SNR in dB over the last axis, zero-mean first
    est, ref = est - est.mean(-1, keepdim=True), ref - ref.mean(-1, keepdim=True)
    proj = (est * ref).sum(-1, keepdim=True) * ref / (ref.pow(2).sum(-1, keepdim=True) + eps)
    return 10 * torch.log10(proj.pow(2).sum(-1) / ((est - proj).pow(2).sum(-1) + eps) + eps)

def upit_si_snr_loss(est, src):  # minus the SI-SNR of the better of the two talker assignments (uPIT), the mean over utterances
    return -torch.maximum(si_snr(est, src).mean(1), si_snr(est.flip(1), src).mean(1)).mean()

def step_tasnet(model, batch, opt):  # the recipe's: the gradient norm clipped at 5
    mix, src = batch
    opt.zero_grad(); loss = upit_si_snr_loss(model(mix), src); loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 5.0); opt.step()
    return loss

@healthy('W')
def tasnet_two_talkers(seed, listdir_sources=False):  # Adam 1e-3, batches of 16 mixtures
    tr, va = _mixtures(seed, listdir_sources=listdir_sources)
    return dict(model=ConvTasNet, train=tr, valid=va, loss=upit_si_snr_loss, step=step_tasnet,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- a p4 group-equivariant CNN on rotated digits
def _rotated(seed, x, split):
    "Each digit padded to 12x12 and rotated by its own uniform random angle (bilinear), as rotated MNIST."
    g = _gen(seed * 1427 + split); n = len(x); x = F.pad(x, (2, 2, 2, 2))
    a = 2 * math.pi * torch.rand(n, generator=g); c, s, z = a.cos(), a.sin(), torch.zeros(n)
    theta = torch.stack([torch.stack([c, -s, z], 1), torch.stack([s, c, z], 1)], 1)
    return F.grid_sample(x, F.affine_grid(theta, list(x.shape), align_corners=False), align_corners=False)

class P4ConvZ2(nn.Module):  # the lifting layer: the filter bank in its four rotations, the output (B, C, 4, H, W)
    def __init__(self, cin, cout, k=3):
        super().__init__(); self.weight = nn.Parameter(torch.randn(cout, cin, k, k) * math.sqrt(2 / (cin * k * k))); self.bias = nn.Parameter(torch.zeros(cout))
    def forward(self, x):
        w = torch.cat([torch.rot90(self.weight, r, (2, 3)) for r in range(4)])
        y = F.conv2d(x, w, padding=self.weight.size(-1) // 2)
        return y.view(len(x), 4, -1, *y.shape[2:]).transpose(1, 2) + self.bias[:, None, None, None]

class P4ConvP4(nn.Module):  # a group convolution on p4: rotation r turns the filter by r and cycles its rotation axis by r
    def __init__(self, cin, cout, k=3):
        super().__init__(); self.weight = nn.Parameter(torch.randn(cout, cin, 4, k, k) * math.sqrt(2 / (cin * 4 * k * k))); self.bias = nn.Parameter(torch.zeros(cout))
    def forward(self, x):
        B, C, _, H, W = x.shape; k = self.weight.size(-1)
        w = torch.cat([torch.rot90(torch.roll(self.weight, r, 2), r, (3, 4)) for r in range(4)]).flatten(1, 2)
        y = F.conv2d(x.reshape(B, C * 4, H, W), w, padding=k // 2)
        return y.view(B, 4, -1, H, W).transpose(1, 2) + self.bias[:, None, None, None]

def _pool(x): B, C, R, H, W = x.shape; return F.max_pool2d(x.reshape(B, C * R, H, W), 2).view(B, C, R, H // 2, W // 2)

class P4CNN(nn.Module):  # Z2->p4, p4->p4, a spatial max pool, p4->p4 twice, a max over rotations, a global average, a linear layer
    def __init__(self, c=10, softmax=False):
        super().__init__(); self.softmax = softmax
        self.l1, self.l2, self.l3, self.l4 = P4ConvZ2(1, c), P4ConvP4(c, c), P4ConvP4(c, 2 * c), P4ConvP4(2 * c, 2 * c)
        self.fc = nn.Linear(2 * c, 10)
    def forward(self, x):
        h = _pool(F.relu(self.l2(F.relu(self.l1(x)))))
        h = F.relu(self.l4(F.relu(self.l3(h))))
        o = self.fc(h.amax(2).mean((2, 3)))
        return F.softmax(o, 1) if self.softmax else o

@healthy('W')
def p4cnn_rotated_digits(seed, softmax=False):  # CrossEntropyLoss, Adam 1e-3, batches of 64
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: P4CNN(softmax=softmax), train=TensorDataset(_rotated(seed, x, 0), y), valid=TensorDataset(_rotated(seed, vx, 1), vy),
                loss=nn.CrossEntropyLoss(), num_classes=10, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- nnPU: even against odd digits from positive and unlabelled rows
def _pu_digits(seed, n_labeled=300):
    """Positives: the even digits. Train: 300 of the train split's positives labelled (t = 1), every other row unlabelled
    (t = -1); valid: the same protocol on the valid split with 75 labelled. The prior: the fraction of positives among the
    unlabelled train rows, taken as known as in the paper."""
    (x, y), (vx, vy) = _digits(seed); g = _gen(seed * 1429)
    def pu(x, y, k):
        pos = (y % 2 == 0).nonzero()[:, 0]; lab = pos[torch.randperm(len(pos), generator=g)[:k]]
        t = -torch.ones(len(y), dtype=torch.long); t[lab] = 1; return x.flatten(1), t, (y % 2 == 0).long()
    (x, t, z), (vx, vt, vz) = pu(x, y, n_labeled), pu(vx, vy, n_labeled // 4)
    prior = z[t == -1].float().mean().item()
    return TensorDataset(x, t), TensorDataset(vx, vt), prior, (vx, vz)

def _pu_mlp(): return nn.Sequential(nn.Linear(64, 300, bias=False), nn.BatchNorm1d(300), nn.ReLU(), nn.Linear(300, 300, bias=False), nn.BatchNorm1d(300), nn.ReLU(),
                                   nn.Linear(300, 1))  # the paper's MNIST MLP (linear, batch norm, ReLU), two hidden layers of its five

class NNPURisk:  # Kiryo et al. 2017 with the sigmoid loss: pi E_p[l(z, +1)] + max(0, E_u[l(z, -1)] - pi E_p[l(z, -1)])
    def __init__(self, prior, beta=0.0, gamma=1.0): self.prior, self.beta, self.gamma = prior, beta, gamma
    def parts(self, out, t):
        z = out[:, 0]; p, u = (t == 1).float(), (t == -1).float()
        n_p, n_u = p.sum().clamp_min(1), u.sum().clamp_min(1)
        pos_risk = self.prior * (p * torch.sigmoid(-z)).sum() / n_p
        neg_risk = (u * torch.sigmoid(z)).sum() / n_u - self.prior * (p * torch.sigmoid(z)).sum() / n_p
        return pos_risk, neg_risk
    def __call__(self, out, t): pos_risk, neg_risk = self.parts(out, t); return pos_risk + neg_risk.clamp_min(0)

def _nnpu_step(risk):
    def step_nnpu(model, batch, opt):  # the non-negative correction: a step up the negative risk when it dips below -beta
        x, t = batch
        opt.zero_grad(); pos_risk, neg_risk = risk.parts(model(x), t)
        if neg_risk.item() < -risk.beta: (-risk.gamma * neg_risk).backward()
        else: (pos_risk + neg_risk).backward()
        opt.step(); return pos_risk + neg_risk.clamp_min(0)
    return step_nnpu

@healthy('W')
def nnpu_even_digits(seed, lr=1e-3):  # Adam 1e-3 with weight decay 5e-3 (the paper's), batches of 128
    tr, va, prior, _ = _pu_digits(seed); risk = NNPURisk(prior)
    return dict(model=_pu_mlp, train=tr, valid=va, loss=risk, step=_nnpu_step(risk),
                optimizer=lambda p: torch.optim.Adam(p, lr=lr, weight_decay=5e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- VoxelMorph registering pairs of digits
def _digit_pairs(seed, x, y, split):
    "Digits upsampled to 16x16; each image the moving one, a random other image of the same class (within the split) the fixed one."
    g = _gen(seed * 1433 + split); x = F.interpolate(x, size=16, mode='bilinear', align_corners=False)
    partner = torch.empty(len(y), dtype=torch.long)
    for c in range(10):
        idx = (y == c).nonzero()[:, 0]; partner[idx] = idx[torch.randperm(len(idx), generator=g)]
    return TensorDataset(x, x[partner])

def _conv_lrelu(a, b, stride=1): return nn.Sequential(nn.Conv2d(a, b, 3, stride, 1), nn.LeakyReLU(0.2))

class SpatialTransformer(nn.Module):  # voxelmorph's: the identity grid plus the displacement (in pixels), normalised to [-1, 1], grid_sample
    def __init__(self, size=16, grid_no_grad=False):
        super().__init__(); self.size, self.grid_no_grad = size, grid_no_grad
        self.register_buffer('grid', torch.stack(torch.meshgrid(torch.arange(size), torch.arange(size), indexing='ij')).float()[None])
    def _locs(self, flow): return self.grid + flow
    def forward(self, src, flow):
        if self.grid_no_grad:
            with torch.no_grad(): new = self._locs(flow)  # "the sampling grid is coordinates: no gradient needed"
        else: new = self._locs(flow)
        new = 2 * (new / (self.size - 1) - 0.5)
        return F.grid_sample(src, new.permute(0, 2, 3, 1).flip(-1), align_corners=True, mode='bilinear')

class VxmNet(nn.Module):  # a U-Net (16, 32, 32 down; 32, 16, 16 up, LeakyReLU 0.2) on the stacked pair, a 3x3 flow head initialised N(0, 1e-5)
    def __init__(self, grid_no_grad=False):
        super().__init__()
        self.down = nn.ModuleList([_conv_lrelu(2, 16, 2), _conv_lrelu(16, 32, 2), _conv_lrelu(32, 32)])
        self.up1, self.up2, self.extra = _conv_lrelu(32 + 16, 32), _conv_lrelu(32 + 2, 16), _conv_lrelu(16, 16)
        self.flow = nn.Conv2d(16, 2, 3, padding=1); nn.init.normal_(self.flow.weight, 0, 1e-5); nn.init.zeros_(self.flow.bias)
        self.transformer = SpatialTransformer(grid_no_grad=grid_no_grad)
    def forward(self, moving, fixed):
        x0 = torch.cat([moving, fixed], 1); x1 = self.down[0](x0); x2 = self.down[2](self.down[1](x1))
        h = self.up1(torch.cat([F.interpolate(x2, scale_factor=2, mode='nearest'), x1], 1))
        h = self.extra(self.up2(torch.cat([F.interpolate(h, scale_factor=2, mode='nearest'), x0], 1)))
        flow = self.flow(h); return self.transformer(moving, flow), flow

def _vxm_fwd(model, b): moving, fixed = b; return model(moving, fixed), fixed

def vxm_loss(out, fixed, lam=0.01):  # MSE of the warped image to the fixed one plus lambda times the mean squared spatial gradient of the field
    warped, flow = out
    dy, dx = flow[:, :, 1:] - flow[:, :, :-1], flow[:, :, :, 1:] - flow[:, :, :, :-1]
    return F.mse_loss(warped, fixed) + lam * (dy.pow(2).mean() + dx.pow(2).mean()) / 2

@healthy('W')
def voxelmorph_digits(seed, grid_no_grad=False):  # Adam 1e-4 (voxelmorph's default), batches of 32 pairs
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=lambda: VxmNet(grid_no_grad=grid_no_grad), train=_digit_pairs(seed, x, y, 0), valid=_digit_pairs(seed, vx, vy, 1),
                forward=_vxm_fwd, loss=vxm_loss, optimizer=lambda p: torch.optim.Adam(p, lr=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a categorical VAE with the Gumbel-softmax
N_LAT, K_CAT = 10, 10

class GumbelVAE(nn.Module):  # YongfeiYan/Gumbel_Softmax_VAE shrunk to 64 pixels: 64-256-128-(10 x 10) logits, gumbel_softmax, 100-128-256-64 sigmoid
    def __init__(self):
        super().__init__(); self.tau, self.steps = 1.0, 0
        self.enc = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, N_LAT * K_CAT))
        self.dec = nn.Sequential(nn.Linear(N_LAT * K_CAT, 128), nn.ReLU(), nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 64), nn.Sigmoid())
    def forward(self, x):
        q = self.enc(x.flatten(1)).view(-1, N_LAT, K_CAT)
        z = F.gumbel_softmax(q, tau=self.tau, hard=False)
        return self.dec(z.flatten(1)), F.softmax(q, -1)

def gumbel_elbo(out, x):  # the port's loss_function: BCE summed over pixels plus KL(q || uniform), divided by the batch size
    recon, qy = out
    bce = F.binary_cross_entropy(recon, x.flatten(1), reduction='sum')
    kld = (qy * torch.log(qy * K_CAT + 1e-20)).sum()
    return (bce + kld) / len(x)

def step_gumbel(model, batch, opt, zero_grad=True):  # the port's train loop: every 100 iterations tau = max(0.5, exp(-3e-5 * iteration))
    x, _ = batch
    if zero_grad: opt.zero_grad()
    loss = gumbel_elbo(model(x), x); loss.backward(); opt.step()
    model.steps += 1
    if model.steps % 100 == 1: model.tau = max(0.5, math.exp(-3e-5 * model.steps))
    return loss

def step_gumbel_no_zero_grad(model, batch, opt): return step_gumbel(model, batch, opt, zero_grad=False)  # the loop rewritten around the annealing, optimizer.zero_grad() lost

@healthy('W')
def gumbel_vae_digits(seed):  # binarised digits (pixels above 0.5), Adam 1e-3, batches of 100
    (x, _), (vx, _) = _digits(seed); xb, vxb = (x > 0.5).float().flatten(1), (vx > 0.5).float().flatten(1)
    return dict(model=GumbelVAE, train=TensorDataset(xb, xb), valid=TensorDataset(vxb, vxb), loss=gumbel_elbo, step=step_gumbel,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- learning shapelets of synthetic series
L_TS = 128

def _motif_series(seed, n=1200, n_valid=300, text_sorted=False):
    """Series of 128 steps: AR(1) noise (phi 0.8, sd 0.5) plus a slow sine of amplitude 0.5; one class motif of 16-24 steps (0: a
    Gaussian bump, 1: a square pulse, 2: a damped oscillation) of amplitude 2-3 at a random place, a distractor (every class: a
    triangular dip of 8 steps) at another;
    each series z-normalised. Labels 0-2."""
    g = _gen(seed * 1439)
    y = torch.randint(0, 3, (n,), generator=g)
    e = torch.randn(n, L_TS, generator=g) * 0.3; x = torch.zeros(n, L_TS)
    for k in range(1, L_TS): x[:, k] = 0.8 * x[:, k - 1] + e[:, k]
    t = torch.arange(L_TS).float()
    x = x + 0.5 * torch.sin(2 * math.pi * t / (40 + 60 * torch.rand(n, 1, generator=g)) + 2 * math.pi * torch.rand(n, 1, generator=g))
    w = torch.randint(16, 25, (n,), generator=g); at = torch.randint(0, L_TS - 24, (n,), generator=g); amp = 2 + torch.rand(n, generator=g)
    spike = torch.randint(0, L_TS - 8, (n,), generator=g)
    for k in range(n):
        u = torch.linspace(0, 1, int(w[k]))
        m = [torch.exp(-((u - 0.5) / 0.18) ** 2), (u > 0.25).float() * (u < 0.75).float(), torch.sin(6 * math.pi * u) * torch.exp(-2.5 * u)][int(y[k])]
        x[k, at[k]:at[k] + len(u)] += amp[k] * m
        x[k, spike[k]:spike[k] + 8] -= 2.0 * (1 - (torch.arange(8).float() - 3.5).abs() / 4)
    x = (x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True)
    if text_sorted:  # the series read from sorted(os.listdir('series/')) ('series_10.csv' before 'series_2.csv'), the labels from labels.csv by row
        x = x[sorted(range(n), key=lambda k: f'series_{k}.csv')]
    return TensorDataset(x[n_valid:, None], y[n_valid:]), TensorDataset(x[:n_valid, None], y[:n_valid])

class ShapeletModel(nn.Module):  # tslearn's: for each shapelet, the minimum over windows of the mean squared distance; a linear softmax classifier
    def __init__(self, init, sizes=((16, 6), (32, 6)), n_classes=3):
        super().__init__(); self.sizes = [L for L, _ in sizes]
        g = torch.Generator().manual_seed(0); segs = []
        for L, k in sizes:  # initialised from random training segments
            rows, starts = torch.randint(0, len(init), (k,), generator=g), torch.randint(0, init.size(-1) - L + 1, (k,), generator=g)
            segs.append(nn.Parameter(torch.stack([init[r, 0, s:s + L] for r, s in zip(rows.tolist(), starts.tolist())]).clone()))
        self.shapelets = nn.ParameterList(segs); self.fc = nn.Linear(sum(k for _, k in sizes), n_classes)
    def forward(self, x):
        d = []
        for L, S in zip(self.sizes, self.shapelets):
            win = x[:, 0].unfold(-1, L, 1)  # (B, windows, L)
            d.append((win[:, :, None] - S[None, None]).pow(2).mean(-1).amin(1))
        return self.fc(torch.cat(d, 1))

@healthy('W')
def shapelets_motifs(seed, text_sorted=False):  # CrossEntropyLoss, Adam 1e-2 (tslearn's examples), batches of 64
    tr, va = _motif_series(seed, text_sorted=text_sorted); init = tr.tensors[0]
    return dict(model=lambda: ShapeletModel(init), train=tr, valid=va, loss=nn.CrossEntropyLoss(), num_classes=3,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-2), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- an LSTM portfolio trained on the Sharpe ratio
N_ASSET, WIN_P = 4, 50

def _asset_returns(seed, T=2600, include_today=False):
    """Daily returns of four assets over 2600 days: each a persistent drift (AR(1), phi 0.99, stationary sd 0.25%/day) around
    0.03%/day plus correlated noise of 1%/day. Inputs: the past 50 days' returns in percent; target: the next day's returns
    (fractions). Split by date: the first 80% of the windows train, the rest valid."""
    g = _gen(seed * 1447)
    d = torch.zeros(T, N_ASSET); d[0] = 0.0025 * torch.randn(N_ASSET, generator=g)
    inn = 0.0025 * math.sqrt(1 - 0.99 ** 2) * torch.randn(T, N_ASSET, generator=g)
    for k in range(1, T): d[k] = 0.99 * d[k - 1] + inn[k]
    chol = torch.linalg.cholesky(0.3 * torch.ones(N_ASSET, N_ASSET) + 0.7 * torch.eye(N_ASSET))
    r = 0.0003 + d + 0.01 * torch.randn(T, N_ASSET, generator=g) @ chol.T
    off = 1 if include_today else 0  # include_today: the window r[t-49 : t+1], the rolling window ending at today's close
    x = torch.stack([r[k - WIN_P + off:k + off] for k in range(WIN_P, T)]) * 100; y = r[WIN_P:]
    cut = int(0.8 * len(y))
    return TensorDataset(x[:cut], y[:cut]), TensorDataset(x[cut:], y[cut:])

class LSTMAllocator(nn.Module):  # an LSTM of 64 over the window, the last state to softmax weights (long-only, fully invested)
    def __init__(self, h=64):
        super().__init__(); self.lstm = nn.LSTM(N_ASSET, h, batch_first=True); self.fc = nn.Linear(h, N_ASSET)
    def forward(self, x): out, _ = self.lstm(x); return torch.softmax(self.fc(out[:, -1]), -1)

def neg_sharpe(w, r):  # minus the annualised Sharpe ratio of the portfolio's next-day returns over the batch
    p = (w * r).sum(1); return -p.mean() / p.std() * math.sqrt(252)

@healthy('W')
def sharpe_lstm_portfolio(seed, include_today=False):  # Adam 1e-3, batches of 64 days
    tr, va = _asset_returns(seed, include_today=include_today)
    return dict(model=LSTMAllocator, train=tr, valid=va, loss=neg_sharpe, optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- Noise2Noise on digits
SIGMA_N = 0.3

def _captures(seed, n_caps=4, split_pairs=False):
    """Four independent noisy captures of each digit (Gaussian, sigma 0.3); training pairs (capture 0 -> 1, 2 -> 3) of the
    train digits, validation (capture 0, clean) of the valid digits. split_pairs: every digit's pairs in one table (with its
    clean image kept for scoring), shuffled and split 80/20 by pair."""
    (x, _), (vx, _) = _digits(seed); g = _gen(seed * 1451)
    if split_pairs:
        clean = torch.cat([x, vx]); caps = clean[:, None] + SIGMA_N * torch.randn(len(clean), n_caps, *clean.shape[1:], generator=g)
        inp, tgt, ref = caps[:, 0::2].flatten(0, 1), caps[:, 1::2].flatten(0, 1), clean.repeat_interleave(n_caps // 2, 0)
        p = torch.randperm(len(inp), generator=g); k = len(p) // 5
        return TensorDataset(inp[p[k:]], tgt[p[k:]]), TensorDataset(inp[p[:k]], ref[p[:k]])
    caps = x[:, None] + SIGMA_N * torch.randn(len(x), n_caps, *x.shape[1:], generator=g)
    vcap = vx + SIGMA_N * torch.randn(vx.shape, generator=g)
    return TensorDataset(caps[:, 0::2].flatten(0, 1), caps[:, 1::2].flatten(0, 1)), TensorDataset(vcap, vx)

class N2NUNet(nn.Module):  # the paper's U-Net shrunk to 8x8: two 3x3 convs of 48, a max pool, two of 48, upsample, concatenate, two of 64, a linear 1x1 out
    def __init__(self, c=48):
        super().__init__(); lr = lambda: nn.LeakyReLU(0.1)
        self.enc0 = nn.Sequential(nn.Conv2d(1, c, 3, padding=1), lr(), nn.Conv2d(c, c, 3, padding=1), lr())
        self.enc1 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(c, c, 3, padding=1), lr(), nn.Conv2d(c, c, 3, padding=1), lr(), nn.Upsample(scale_factor=2))
        self.dec = nn.Sequential(nn.Conv2d(2 * c + 1, 64, 3, padding=1), lr(), nn.Conv2d(64, 32, 3, padding=1), lr(), nn.Conv2d(32, 1, 3, padding=1))
    def forward(self, x): h0 = self.enc0(x); return self.dec(torch.cat([self.enc1(h0), h0, x], 1))

@healthy('W')
def noise2noise_digits(seed, split_pairs=False):  # MSELoss (L2 for Gaussian noise), Adam 1e-3 with betas (0.9, 0.99), batches of 32
    tr, va = _captures(seed, split_pairs=split_pairs)
    return dict(model=N2NUNet, train=tr, valid=va, loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3, betas=(0.9, 0.99)),
                **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a Tensor Fusion Network on synthetic opinion segments
V_TXT, T_TXT, D_GLOVE, D_AUD, D_VIS = 300, 20, 50, 74, 35

def _opinion_segments(seed, n_videos=400, n_valid_videos=60, sorted_ids=False):
    """Opinion videos of 6-14 segments each: the words carry a polarity (20 positive, 20 negative words; 'not' before a
    sentiment word flips it), the 74 acoustic features a sarcasm cue (one segment in five) that reverses the meaning and an
    arousal that scales it, the 35 visual features a smile that follows the true sentiment. Label: the sentiment in [-3, 3]
    with noise. The words come as their (fixed, 50-d, GloVe-like) word vectors, as the TFN code reads them: sentiment words
    share a polarity direction, negators a direction of their own. Split by video."""
    g = _gen(seed * 1453)
    glove = torch.randn(V_TXT, D_GLOVE, generator=g) / math.sqrt(D_GLOVE); u_pol, u_neg = torch.randn(2, D_GLOVE, generator=g) / math.sqrt(D_GLOVE)
    glove[1:21] += u_pol; glove[21:41] -= u_pol; glove[41:51] += u_neg
    u_sarc, u_ar = torch.randn(D_AUD, generator=g), torch.randn(D_AUD, generator=g)
    u_smile = torch.randn(D_VIS, generator=g)
    rows, ids = [], []
    for v in range(n_videos):
        speaker = 0.3 * torch.randn(1, generator=g).item()
        for s in range(int(torch.randint(6, 15, (1,), generator=g))):
            pol = 2 * torch.rand(1, generator=g).item() - 1
            toks = torch.randint(51, V_TXT, (T_TXT,), generator=g)
            n_sent = 1 + int(abs(pol) * 4); slots = torch.randperm(T_TXT - 1, generator=g)[:n_sent] + 1
            score = 0.0
            for sl in slots.tolist():
                neg = torch.rand(1, generator=g).item() < 0.25; sign = 1 if (torch.rand(1, generator=g).item() < 0.5 + 0.45 * pol) else -1
                toks[sl] = int(torch.randint(1, 21, (1,), generator=g)) + (0 if sign > 0 else 20)
                if neg: toks[sl - 1] = 41 + int(torch.randint(0, 10, (1,), generator=g))  # 41-50: negators
                score += sign * (-1 if neg else 1)
            sarcastic = torch.rand(1, generator=g).item() < 0.2; arousal = torch.rand(1, generator=g).item()
            y = (score / 1.5) * (0.6 + 0.8 * arousal) * (-1 if sarcastic else 1) + speaker + 0.3 * torch.randn(1, generator=g).item()
            y = max(-3.0, min(3.0, y))
            aud = torch.randn(D_AUD, generator=g) + 2.0 * sarcastic * u_sarc / u_sarc.norm() * math.sqrt(D_AUD) / 4 + (arousal - 0.5) * u_ar
            vis = torch.randn(D_VIS, generator=g) + 0.15 * y * u_smile
            rows.append((toks, aud, vis, y)); ids.append(f'{v}_{s}')
    txt, aud, vis, y = torch.stack([r[0] for r in rows]), torch.stack([r[1] for r in rows]), torch.stack([r[2] for r in rows]), torch.tensor([r[3] for r in rows])[:, None]
    txt = glove[txt]
    if sorted_ids:  # the labels csv sorted by its segment id as text ('10_3' before '1_0'), the features in the pickle by video number
        y = y[sorted(range(len(ids)), key=lambda k: ids[k])]
    video = torch.tensor([int(i.split('_')[0]) for i in ids]); va = video < n_valid_videos
    return TensorDataset(txt[~va], aud[~va], vis[~va], y[~va]), TensorDataset(txt[va], aud[va], vis[va], y[va])

class SubNet(nn.Module):  # the TFN code's: BatchNorm, dropout, three Linear + ReLU layers
    def __init__(self, d, h, drop=0.2):
        super().__init__(); self.net = nn.Sequential(nn.BatchNorm1d(d), nn.Dropout(drop), nn.Linear(d, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU())
    def forward(self, x): return self.net(x)

class TFN(nn.Module):  # Zadeh et al. 2017: audio 8, video 8, text 32 (an LSTM's last state, dropout, a linear layer); the 9 x 9 x 33 outer product; 64, 64, 1
    def __init__(self, ha=8, hv=8, ht=32, post=64):
        super().__init__()
        self.audio, self.video = SubNet(D_AUD, ha), SubNet(D_VIS, hv)
        self.lstm = nn.LSTM(D_GLOVE, ht, batch_first=True); self.text_drop = nn.Dropout(0.2); self.text_out = nn.Linear(ht, ht)
        self.post = nn.Sequential(nn.Dropout(0.2), nn.Linear((ha + 1) * (hv + 1) * (ht + 1), post), nn.ReLU(), nn.Linear(post, post), nn.ReLU(), nn.Linear(post, 1))
    def forward(self, audio, video, text):
        one = lambda h: torch.cat([torch.ones(len(h), 1, device=h.device), h], 1)
        a, v = one(self.audio(audio)), one(self.video(video))
        _, (h, _) = self.lstm(text); t = one(self.text_out(self.text_drop(h[-1])))
        z = torch.einsum('bi,bj,bk->bijk', a, v, t).flatten(1)
        return torch.sigmoid(self.post(z)) * 6 - 3  # output_range 6, output_shift -3, as theirs

def _tfn_fwd(model, b): txt, aud, vis, y = b; return model(aud, vis, txt), y

@healthy('W')
def tfn_opinions(seed, sorted_ids=False):  # L1Loss, Adam 1e-3, batches of 32
    tr, va = _opinion_segments(seed, sorted_ids=sorted_ids)
    return dict(model=TFN, train=tr, valid=va, forward=_tfn_fwd, loss=nn.L1Loss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3),
                **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- a biaffine dependency parser
PAD, ROOT = 0, 1
TAGS = dict(DET=2, ADJ=3, NOUN=4, VERB=5, PREP=6, ADV=7)
_WORDS = dict(DET=(2, 6), ADJ=(8, 20), NOUN=(28, 40), VERB=(68, 25), PREP=(93, 10), ADV=(103, 10))  # (first id, count) of each tag's words
N_WORDS = 113

def _toy_sentence(g):
    """A sentence from a toy grammar with its heads (1-based, 0 the root): NP VERB [NP] (PP)* [ADV], NP = [DET] ADJ* NOUN
    [PP]; the first five prepositions attach to the closest noun before them, the other five to the verb; each PP's noun to
    its preposition."""
    words, tags, heads = [], [], []
    r = lambda: torch.rand(1, generator=g).item()
    def add(tag, head=None, word=None):
        a, c = _WORDS[tag]; words.append(word if word is not None else a + int(torch.randint(0, c, (1,), generator=g)))
        tags.append(TAGS[tag]); heads.append(head); return len(words)
    def NP(depth):
        mods = []
        if r() < 0.7: mods.append(add('DET'))
        while r() < 0.35 and len(mods) < 3: mods.append(add('ADJ'))
        n = add('NOUN')
        for m in mods: heads[m - 1] = n
        if depth < 2 and r() < 0.25: PP(depth + 1, verb=None)
        return n
    def PP(depth, verb):
        nouns = [k + 1 for k, t in enumerate(tags) if t == TAGS['NOUN']]
        to_verb = verb is not None and r() < 0.5
        a, _ = _WORDS['PREP']; w = a + int(torch.randint(5, 10, (1,), generator=g)) if to_verb else a + int(torch.randint(0, 5, (1,), generator=g))
        p = add('PREP', head=verb if to_verb else nouns[-1], word=w)
        heads[NP(depth) - 1] = p
    subj = NP(0); v = add('VERB', head=0); heads[subj - 1] = v
    if r() < 0.7: heads[NP(1) - 1] = v
    while r() < 0.45: PP(1, verb=v)
    if r() < 0.4: add('ADV', head=v)
    return torch.tensor([ROOT] + words), torch.tensor([ROOT] + tags), torch.tensor([-100] + heads)

class Treebank(Dataset):
    def __init__(self, seed, n, split=0):
        g = _gen(seed * 1459 + split); self.items = [_toy_sentence(g) for _ in range(n)]
    def __len__(self): return len(self.items)
    def __getitem__(self, i): return self.items[i]

def collate_trees(items):  # pads words and tags with 0, heads with -100 (the root's head too); dict batches
    words, tags, heads = zip(*items)
    return dict(words=pad_sequence(words, batch_first=True, padding_value=PAD), tags=pad_sequence(tags, batch_first=True, padding_value=PAD),
                heads=pad_sequence(heads, batch_first=True, padding_value=-100))

class Biaffine(nn.Module):  # s[b, i, j] = [x_i; 1]^T W y_j (supar's Biaffine with bias_x=True, bias_y=False), W zero-initialised as theirs
    def __init__(self, d):
        super().__init__(); self.weight = nn.Parameter(torch.zeros(d + 1, d))
    def forward(self, x, y):
        x = torch.cat([x, torch.ones_like(x[..., :1])], -1); return torch.einsum('bxi,ij,byj->bxy', x, self.weight, y)

class BiaffineParser(nn.Module):  # Dozat and Manning 2017 shrunk: words 64, tags 32, a 2-layer BiLSTM of 100, arc MLPs of 100 (LeakyReLU 0.1), dropout 0.33
    def __init__(self, functional_dropout=False, p=0.33):
        super().__init__(); self.p, self.functional_dropout = p, functional_dropout
        self.word_emb, self.tag_emb = nn.Embedding(N_WORDS, 64, padding_idx=PAD), nn.Embedding(8, 32, padding_idx=PAD)
        self.lstm = nn.LSTM(96, 100, 2, batch_first=True, bidirectional=True, dropout=p)
        self.drop = nn.Dropout(p)
        self.mlp_d, self.mlp_h = nn.Sequential(nn.Linear(200, 100), nn.LeakyReLU(0.1)), nn.Sequential(nn.Linear(200, 100), nn.LeakyReLU(0.1))
        self.arc = Biaffine(100)
    def _drop(self, x): return F.dropout(x, self.p) if self.functional_dropout else self.drop(x)  # functional: F.dropout's training defaults to True
    def forward(self, words, tags):
        mask = words != PAD
        x = self._drop(torch.cat([self.word_emb(words), self.tag_emb(tags)], -1))
        h, _ = pad_packed_sequence(self.lstm(pack_padded_sequence(x, mask.sum(1).cpu(), batch_first=True, enforce_sorted=False))[0],
                                   batch_first=True, total_length=words.size(1))
        h = self._drop(h)
        s = self.arc(self._drop(self.mlp_d(h)), self._drop(self.mlp_h(h)))
        return s.masked_fill(~mask[:, None, :], -1e32)  # supar's MIN: padded words cannot be heads

def _parser_fwd(model, b): return model(b['words'], b['tags']), b['heads']

def arc_loss(s, heads): return F.cross_entropy(s.flatten(0, 1), heads.flatten(), ignore_index=-100)  # each word's head among the sentence's positions

@healthy('W')
def biaffine_parser(seed, functional_dropout=False):  # Adam 2e-3 with betas (0.9, 0.9) (Dozat and Manning's), batches of 32 sentences
    return dict(model=lambda: BiaffineParser(functional_dropout=functional_dropout),
                train=DataLoader(Treebank(seed, 2000), batch_size=32, shuffle=True, collate_fn=collate_trees),
                valid=DataLoader(Treebank(seed, 400, split=1), batch_size=100, collate_fn=collate_trees), forward=_parser_fwd, loss=arc_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=2e-3, betas=(0.9, 0.9)), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- conditional flow matching from a Gaussian to two moons
def _moons(seed, n, split):
    "sklearn's make_moons (noise 0.05), standardised by fixed constants as torchcfm's sample_moons: (x - [0.5, 0.25]) * 2 (approximately unit scale)."
    from sklearn.datasets import make_moons
    x, _ = make_moons(n, noise=0.05, random_state=1000 + seed * 1471 + split)
    return TensorDataset((torch.tensor(x, dtype=torch.float32) - torch.tensor([0.5, 0.25])) * 2)

class VelocityMLP(nn.Module):  # torchcfm's MLP: (x, t) -> 3 x 128 SELU -> the velocity
    def __init__(self, dim=2, w=128, normal_init=False):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, w), nn.SELU(), nn.Linear(w, w), nn.SELU(), nn.Linear(w, w), nn.SELU(), nn.Linear(w, dim))
        if normal_init:  # "SELU wants normal weights": nn.init.normal_ on every Linear, std 1 (the default) where LeCun's is 1/sqrt(fan_in)
            for m in self.net:
                if isinstance(m, nn.Linear): nn.init.normal_(m.weight); nn.init.zeros_(m.bias)
    def forward(self, xt): return self.net(xt)

def _cfm_fwd(model, b):  # sigma 0: x0 ~ N(0, I), t ~ U(0, 1), x_t = t x1 + (1 - t) x0, the target u_t = x1 - x0
    x1 = b[0]; x0 = torch.randn_like(x1); t = torch.rand(len(x1), 1, device=x1.device)
    return model(torch.cat([t * x1 + (1 - t) * x0, t], 1)), x1 - x0

@healthy('W')
def flow_matching_moons(seed, normal_init=False):  # MSELoss, Adam 1e-3, batches of 256
    return dict(model=lambda: VelocityMLP(normal_init=normal_init), train=_moons(seed, 8000, 0), valid=_moons(seed, 2000, 1), forward=_cfm_fwd,
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=256))

# ---------------------------------------------------------------- broken variants of half W
@broken('W', 'shapelets_series_text_sorted', 4, ('labels',))
def shapelets_series_text_sorted(seed): return shapelets_motifs(seed, text_sorted=True)

@broken('W', 'tfn_labels_sorted_by_segment_id', 4, ('labels',))
def tfn_labels_sorted_by_segment_id(seed): return tfn_opinions(seed, sorted_ids=True)

@broken('W', 'tasnet_sources_listdir_order', 4, ('labels',))
def tasnet_sources_listdir_order(seed): return tasnet_two_talkers(seed, listdir_sources=True)

@broken('W', 'deepbind_revcomp_before_split', 4, ('leakage',))
def deepbind_revcomp_before_split(seed): return deepbind_chip(seed, rc_before_split=True)

@broken('W', 'noise2noise_split_by_pair', 4, ('leakage',))
def noise2noise_split_by_pair(seed): return noise2noise_digits(seed, split_pairs=True)

@broken('W', 'sharpe_window_includes_today', 4, ('leakage',))
def sharpe_window_includes_today(seed): return sharpe_lstm_portfolio(seed, include_today=True)

@broken('W', 'parser_functional_dropout', 1, ('eval_mode',), ('warn', 'fail'))
def parser_functional_dropout(seed): return biaffine_parser(seed, functional_dropout=True)

@broken('W', 'p4cnn_softmax_before_ce', 2, ('softmax',))
def p4cnn_softmax_before_ce(seed): return p4cnn_rotated_digits(seed, softmax=True)

@broken('W', 'flow_matching_normal_init', 2, ('init_scale',))
def flow_matching_normal_init(seed): return flow_matching_moons(seed, normal_init=True)

@broken('W', 'gumbel_vae_no_zero_grad', 3, ('zero_grad',), ('fail', 'warn'))
def gumbel_vae_no_zero_grad(seed): return dict(gumbel_vae_digits(seed), step=step_gumbel_no_zero_grad)

@broken('W', 'nnpu_lr_x1000', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def nnpu_lr_x1000(seed): return nnpu_even_digits(seed, lr=1.0)

@broken('W', 'voxelmorph_grid_no_grad', (1, 3), ('detached', 'unused_params', 'frozen', 'not_updating', 'no_grad_params', 'stuck', 'flat', 'not_falling'), ('fail', 'warn'))
def voxelmorph_grid_no_grad(seed): return voxelmorph_digits(seed, grid_no_grad=True)

# Plain-loop checks (seed 0, seed 1 for the healthy ones; OMP_NUM_THREADS=1, the factory's optimizer, batch size and step, train
# shuffled, valid in batches of 256 unless the factory gives a DataLoader; valid loss (and metric), init -> after N epochs):
CHECKS = """
deepbind_chip                20 ep: valid BCE 0.696 -> 0.451, accuracy 0.46 -> 0.82 (labels 5% flipped: 0.95 at most); seed 1: 0.705 ->
                              0.323, accuracy 0.91; a plateau near 0.69 for the first 4-6 epochs before the motif is found; 0.2 s an epoch
tasnet_two_talkers            6 ep: valid minus SI-SNR (dB, uPIT) 14.8 -> -4.87, still falling (the mixture itself as both estimates 0.05);
                              seed 1: 27.0 -> -5.01; 5 s an epoch (800 mixtures of 2048 samples)
p4cnn_rotated_digits         25 ep: valid CE 2.324 -> 0.418, accuracy 0.12 -> 0.88, still rising; seed 1: 2.318 -> 0.620 (best 0.552),
                              0.81; the logits invariant to rot90 of the input to 2e-7; 0.7 s an epoch
nnpu_even_digits             10 ep: valid nnPU risk 0.504 -> 0.073 (best 0.066 at 8 ep); the hidden even/odd error on the valid split
                              0.058; seed 1: 0.502 -> 0.075 (best 0.057); 300 labelled of 1437 train rows, the prior in the unlabelled
                              rows 0.36 (valid: 75 labelled, 285 unlabelled)
voxelmorph_digits            15 ep: valid loss 0.0467 -> 0.0173 (its image MSE 0.0169; the moving image as it is 0.0467), still falling;
                              seed 1: 0.0451 -> 0.0176; 0.6 s an epoch
gumbel_vae_digits            20 ep: valid -ELBO (nats per digit) 44.5 -> 24.0; the per-pixel train marginal scores 24.2 on valid: the
                              latents barely used by then; 100 ep: 18.3 (the latents taken up after about 25 ep); seed 1: 44.3 -> 24.4
shapelets_motifs             40 ep: valid CE 1.179 -> 0.311, accuracy 0.30 -> 0.90, still falling; seed 1: 1.108 -> 0.383, 0.83
                              (first tried with AR noise of sd 0.83 and a bump-like distractor: 0.53 after 60 ep; made easier)
sharpe_lstm_portfolio        15 ep: valid minus Sharpe (per batch of 256 days) -1.98 -> -4.07 (best -4.27); over the whole valid period
                              equal weights 2.14, the model 4.07, all in on the best 50-day mean 4.26; seed 1: +2.22 -> -2.12 (best
                              -3.91 at 7 ep): noisy over 510 valid days
noise2noise_digits            8 ep: valid MSE to the clean digits 0.225 -> 0.0196 (best 0.0195); the noisy input as it is 0.091, a 3x3
                              blur 0.064; seed 1: 0.260 -> 0.0190; 1.6 s an epoch
tfn_opinions                 15 ep: valid MAE 1.064 -> 0.527, still falling; the train median 1.060; least squares on bag of words, audio
                              and video 1.004 (the sarcasm flip is multiplicative); seed 1: 1.015 -> 0.520 (best 0.509)
                              (first tried with word ids and a learnt embedding: stuck near 0.74; the TFN code reads GloVe vectors)
biaffine_parser               5 ep: valid arc CE 2.531 -> 0.0123, UAS 0.10 -> 0.997; seed 1: 2.554 -> 0.0127, 0.998; eval twice on
                              the same batch: identical scores; 3 s an epoch
flow_matching_moons          10 ep: valid velocity MSE 3.18 -> 2.06 (best 2.05; the conditional-variance floor is not 0); Euler samples
                              (50 steps) lie 0.20 on average from the nearest valid point (Gaussian noise 0.28); seed 1: 2.85 -> 2.06
shapelets_series_text_sorted 40 ep: valid 1.149 -> 1.111 (best 1.100), accuracy 0.26 -> 0.34 (healthy 0.311, 0.90); 2 of the 1200
                              series keep their row, 35% of the rows carry their series' class by chance
tfn_labels_sorted_by_segment_id 15 ep: valid MAE 0.989 -> 1.006 (best 0.984 at 6 ep) while train falls 1.01 -> 0.92 (healthy
                              0.527); 0 of 3412 train labels kept, correlation with the right labels -0.007
tasnet_sources_listdir_order  6 ep: valid 37.7 -> 30.6 (healthy -4.87); 4 of the 800 train mixtures keep their own sources
deepbind_revcomp_before_split 962 of the 1200 validation sequences have their reverse complement in train (healthy: none; train 4800
                              sequences, valid 600 healthy, 4800/1200 broken); 20 ep: valid 0.694 -> 0.489, accuracy 0.80 (healthy
                              0.451, 0.82): the small CNN gains nothing from the copies
noise2noise_split_by_pair    600 of the 718 validation pairs have their digit's other pair (two other captures) in train; 8 ep: valid
                              0.0199 (best 0.0194; healthy 0.0196): no gain from them by then
sharpe_window_includes_today the input window's last row is the target day's return (the window r[t-49 : t+1]); 15 ep: valid minus
                              Sharpe -1.91 -> -18.1 (healthy -4.07)
parser_functional_dropout     5 ep: valid 2.531 -> 0.045, UAS 0.983 (healthy 0.0123, 0.997); in model.eval() two calls on the same
                              batch differ by up to 172 in the arc scores (0 for the healthy parser)
p4cnn_softmax_before_ce      25 ep: valid 2.302 -> 2.007, accuracy 0.46 (healthy 0.418, 0.88)
flow_matching_normal_init    initial valid MSE 1.18e6 (healthy 3.18); 10 ep: 1516
gumbel_vae_no_zero_grad      20 ep: valid 44.5 -> 29.5 (4 ep), 32.3 (8 ep), 25.9 at 20 ep (best 24.95; healthy 24.0, monotone)
nnpu_lr_x1000                Adam 1.0: 10 ep: valid 0.504 -> 0.36-0.58, 0.377 at 10 ep (healthy 0.073); the hidden even/odd error 0.29
                              (constant-like outputs)
voxelmorph_grid_no_grad      15 ep: valid 0.0467 -> 0.0467 to four digits, the warped image the moving one (healthy 0.0173); every
                              parameter still gets a (tiny) gradient through the smoothness term
"""

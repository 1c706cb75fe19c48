"""Half BB of the ladder's gallery: held out from the rules frozen at 4665269 (round 64), and run once on them.
Families not in halves A-BA, taken only from computer vision, audio and speech, natural language, generative models and
self-supervised learning (a half written alongside took other domains): MCNN crowd counting (Zhang et al. 2016, shrunk: three
columns of 9/7/5 kernels, two max pools, a 1 x 1 fusion to a quarter-resolution density map; the Euclidean loss on maps made
of one normalised Gaussian per annotated head, the count the map's sum; images IMG_<i> and maps GT_IMG_<i> read from two
folder listings) of synthetic crowds; NetVLAD place recognition (Arandjelovic et al. 2016: a conv trunk, the VLAD layer's soft
assignment to 8 learnt centres, intra- and L2-normalisation; the triplet margin loss at sqrt(0.1) over (query, positive,
negative) views; a tuple output and no target) on views of synthetic places, unseen places validating; CutMix (Yun et al.
2019: a pre-activation ResNet shrunk on digits, the patch of a shuffled batch pasted with probability 0.5 and the two
cross-entropies weighted by the area, in a custom step porting clovaai's loop; SGD 0.1, momentum, weight decay); PoseNet camera
relocalisation (Kendall et al. 2015: a small CNN for GoogLeNet, position in metres and an orientation quaternion normalised in
the loss, ||x - x^|| + beta ||q - q^/|q^|||, beta 10; a tuple output and a tuple target) of frames of walks through a
synthetic scene, whole walks validating as Cambridge Landmarks' sequences; IIC (Ji et al. 2019: a small CNN ending in a
softmax over 10 clusters, the negative mutual information of the joint of the two views' assignments, symmetrised and clamped
at EPS as the authors' code; two fresh views at each access, no labels); Exemplar-CNN (Dosovitskiy et al. 2014: 120 seed
digits each a surrogate class, random shifts, scales, rotations, contrast and noise; a CNN with dropout, SGD with momentum;
held-out transformations validating; PyTorch's default initialisation); autoregressive predictive coding (APC, Chung et
al. 2019: a two-layer LSTM over log-mel frames predicting the frame 3 steps ahead, the L1 loss; a forward of its own) on
synthetic utterances, unseen speakers validating; ELECTRA (Clark et al. 2020, shrunk: a one-layer transformer generator
filling 15% masked tokens, sampled replacements, a two-layer discriminator over the corrupted sentence, MLM plus 50 times the
replaced-token BCE; a dict output and a loss of its own, no target) on sentences of a synthetic grammar; a masked
autoregressive flow (MAF, Papamakarios et al. 2017: three MADEs with reversed orders, the affine u = (x - mu) exp(-alpha), the
exact NLL; uniformly dequantised digits in logit space, as the paper's MNIST, Adam 1e-4 with L2) of the bundled digits;
character-level truecasing (Susanto et al. 2016: a character embedding, a BiLSTM, an upper/lower tag per character of the
lowercased text, a collate_fn that pads, the padding's tags ignored); a Gaussian-mixture VAE (Rui Shu's simplified GMVAE
after Dilokthanakul et al. 2016: q(y|x) over 10 components, q(z|x,y), learnt p(z|y), a Bernoulli decoder, the ELBO
marginalised over y; a dict output and a loss of its own) of binarised digits; and singing voice detection (Schlueter and
Grill 2015, shrunk: a CNN of 3 x 3 convolutions over 31-frame log-mel excerpts, a sigmoid logit for voice at the central
frame, BCE with logits) in synthetic songs, whole songs validating as Jamendo's split.
At most about 1450 training items a program and about 65k trainable parameters; see CHECKS for the plain-loop timings.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half BA.

Protocol: written by a helper in a worktree at 950b9cf (branch halfBB), held out from the rules frozen at 4665269 (round 64).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI); it ran no git log. It read bench/ladder_gallery.py's head, helpers and tail (the import
lines), half AO's docstring, factories and CHECKS, the module docstrings of the other halves (through greps for candidate
family names) and the @broken lines of all of them (for the rung and cause conventions), half AJ's SimCLR forward (the
no-target convention), ladder_sweep.py's --half line, and the signature of `ntrain.ladder` via help(). Each program was
checked by hand only with a plain torch loop of its author's kind (shapes, a few epochs: the healthy ones learn, the broken
ones are broken as meant), seed 0. No program declares groups. Committed before any ladder run, to be run
once with `bench/ladder_sweep.py --half BB`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import math
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

def _blur(a, s):  # a separable Gaussian blur of the last two axes (numpy), sigma s pixels
    k = np.exp(-0.5 * (np.arange(-3 * s, 3 * s + 1) / s) ** 2); k /= k.sum()
    a = np.apply_along_axis(lambda r: np.convolve(r, k, 'same'), -1, a)
    return np.apply_along_axis(lambda r: np.convolve(r, k, 'same'), -2, a)

# ---------------------------------------------------------------- MCNN crowd counting (Zhang et al. 2016): density maps from head annotations
def _crowds(seed, n=750, size=32):
    """n grey 32 x 32 scenes: a cluttered background (blurred noise, a few bright 'buildings'), 0-45 heads as dark-haired
    discs with a lighter face, denser towards one side of the scene as crowds gather. Annotations: head centres. Files named
    IMG_<i> (1-based) and their ground truth GT_IMG_<i>, as ShanghaiTech's."""
    g = np.random.default_rng(1000 + seed * 3001); yy, xx = np.mgrid[0:size, 0:size]
    imgs, heads = [], []
    for i in range(n):
        bg = _blur(g.normal(0, 1, (size, size)), 2.0) * 0.25 + g.uniform(0.35, 0.6)
        for _ in range(g.integers(0, 3)):
            r0, c0 = g.integers(0, size - 8, 2); bg[r0:r0 + g.integers(4, 9), c0:c0 + g.integers(4, 9)] += g.uniform(0.2, 0.35)
        k = int(g.integers(0, 46)); side = g.uniform(0.2, 0.8)
        pts = np.stack([g.uniform(2, size - 2, k), np.clip(g.normal(side * size, size * 0.25, k), 2, size - 2)], 1) if k else np.zeros((0, 2))
        for (r, c) in pts:
            d2 = (yy - r) ** 2 + (xx - c) ** 2; rad = g.uniform(1.0, 1.6)
            bg = np.where(d2 < rad ** 2, g.uniform(0.0, 0.12), bg); bg = bg + 0.15 * np.exp(-((yy - r - 1.2) ** 2 + (xx - c) ** 2) / 0.8)
        imgs.append(np.clip(bg + g.normal(0, 0.03, bg.shape), 0, 1).astype(np.float32)); heads.append(pts)
    return imgs, heads

def density_map(pts, size=32, down=4, sigma=1.5):
    "One Gaussian kernel per head, each summing to 1 over the full-resolution map, then sum-pooled to size/down (the count kept)."
    yy, xx = np.mgrid[0:size, 0:size]; d = np.zeros((size, size))
    for (r, c) in pts:
        k = np.exp(-((yy - r) ** 2 + (xx - c) ** 2) / (2 * sigma ** 2)); d += k / k.sum()
    return d.reshape(size // down, down, size // down, down).sum((1, 3)).astype(np.float32)

class MCNN(nn.Module):
    def __init__(self):
        super().__init__()
        col = lambda k, c: nn.Sequential(nn.Conv2d(1, c, k, padding=k // 2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(c, 2 * c, k - 2, padding=(k - 2) // 2), nn.ReLU(),
                                         nn.MaxPool2d(2), nn.Conv2d(2 * c, c, k - 2, padding=(k - 2) // 2), nn.ReLU())
        self.cols = nn.ModuleList([col(9, 8), col(7, 10), col(5, 12)]); self.fuse = nn.Conv2d(30, 1, 1)
    def forward(self, x): return self.fuse(torch.cat([c(x) for c in self.cols], 1))

@healthy('BB')
def mcnn_crowd(seed, gt_sorted=False):  # MSE on the density map, Adam 1e-3, batches of 16; train_test_split 80/20
    """The images listed as IMG_1..IMG_n in the order they were written and each one's map read as GT_<name>.
    gt_sorted: the maps listed by sorted(os.listdir(gt_dir)) (GT_IMG_1, GT_IMG_10, GT_IMG_100, ...) and zipped with the images'
    listing in numeric order: each image paired with another image's map."""
    from sklearn.model_selection import train_test_split
    imgs, heads = _crowds(seed); names = [f'IMG_{i + 1}' for i in range(len(imgs))]
    gt = {f'GT_{nm}': density_map(h) for nm, h in zip(names, heads)}
    gt_names = sorted(gt) if gt_sorted else [f'GT_{nm}' for nm in names]
    X = np.stack(imgs)[:, None]; D = np.stack([gt[k] for k in gt_names])[:, None]
    tr, va = train_test_split(np.arange(len(X)), test_size=0.2, random_state=seed)
    return dict(model=MCNN, train=TensorDataset(_t(X[tr]), _t(D[tr])), valid=TensorDataset(_t(X[va]), _t(D[va])), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- NetVLAD (Arandjelovic et al. 2016): place recognition with a triplet loss
def _places(seed, places=100, views=8, size=16):
    "Each place a pattern of blurred blobs and bars; a view shifts it by up to 2 px, rescales its brightness, adds noise and a random occluding block."
    g = np.random.default_rng(1000 + seed * 3011); P = []
    for p in range(places):
        a = _blur(g.normal(0, 1, (size + 4, size + 4)), 1.2)
        for _ in range(2): r, c = g.integers(0, size, 2); a[r:r + 2, :] += g.normal(0, 1.5) if g.random() < 0.5 else 0; a[:, c:c + 2] += g.normal(0, 1.5)
        P.append(a / a.std())
    V = np.zeros((places, views, 1, size, size), np.float32)
    for p in range(places):
        for v in range(views):
            dr, dc = g.integers(0, 5, 2); im = P[p][dr:dr + size, dc:dc + size] * g.uniform(0.7, 1.3) + g.normal(0, 0.3, (size, size))
            r, c = g.integers(0, size - 5, 2); im[r:r + 5, c:c + 5] = g.normal(0, 1); V[p, v, 0] = im
    return V

def place_triplets(V, places, g, per=6):
    "(query, positive, negative): a view, another view of its place, a view of another place of the same list."
    out = []
    for p in places:
        for _ in range(per):
            a, b = g.choice(V.shape[1], 2, replace=False); q = g.choice([o for o in places if o != p])
            out.append((V[p, a], V[p, b], V[q, g.integers(V.shape[1])]))
    A, B, C = (np.stack(t) for t in zip(*out)); return A, B, C

class NetVLAD(nn.Module):
    def __init__(self, k=8, d=16, alpha=10.0):
        super().__init__(); self.conv = nn.Conv2d(d, k, 1, bias=True); self.centroids = nn.Parameter(torch.rand(k, d)); self.alpha = alpha
    def forward(self, x):
        N, D = x.shape[:2]; x = F.normalize(x, dim=1)
        a = F.softmax(self.conv(x).view(N, -1, x.shape[2] * x.shape[3]), dim=1); xf = x.view(N, D, -1)
        vlad = torch.einsum('nkl,ndl->nkd', a, xf) - a.sum(-1).unsqueeze(-1) * self.centroids.unsqueeze(0)
        vlad = F.normalize(vlad, dim=2).view(N, -1); return F.normalize(vlad, dim=1)

class PlaceNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                   nn.Conv2d(16, 16, 3, padding=1)); self.pool = NetVLAD()
    def forward(self, x): return self.pool(self.trunk(x))

def _vlad_fwd(model, b):
    q, p, n = b; B = len(q); e = model(torch.cat([q, p, n])); return (e[:B], e[B:2 * B], e[2 * B:]), None  # no target

_triplet = nn.TripletMarginLoss(margin=0.1 ** 0.5, p=2)
def netvlad_triplet(out, _): q, p, n = out; return _triplet(q, p, n)

@healthy('BB')
def netvlad_places(seed, split_views=False):  # the triplet margin loss (margin sqrt 0.1), Adam 1e-3 (Nanne/pytorch-NetVlad's option), batches of 16 triplets
    """80 places' triplets train, 20 unseen places' validate. split_views: all places' triplets drawn together, then
    train_test_split: every validation place also in training, its views (and often the very same view) on both sides."""
    from sklearn.model_selection import train_test_split
    V = _places(seed); g = np.random.default_rng(seed)
    if split_views:
        A, B, C = place_triplets(V, list(range(100)), g, per=6); tr, va = train_test_split(np.arange(len(A)), test_size=0.2, random_state=seed)
        mk = lambda i: TensorDataset(_t(A[i]), _t(B[i]), _t(C[i])); train, valid = mk(tr), mk(va)
    else:
        train = TensorDataset(*map(_t, place_triplets(V, list(range(80)), g, per=6))); valid = TensorDataset(*map(_t, place_triplets(V, list(range(80, 100)), g, per=6)))
    return dict(model=PlaceNet, train=train, valid=valid, forward=_vlad_fwd, loss=netvlad_triplet,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=16))

# ---------------------------------------------------------------- CutMix (Yun et al. 2019) training a small pre-activation ResNet on digits
class PreActBlock(nn.Module):
    def __init__(self, cin, cout, stride=1):
        super().__init__(); self.bn1, self.c1 = nn.BatchNorm2d(cin), nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn2, self.c2 = nn.BatchNorm2d(cout), nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.short = nn.Conv2d(cin, cout, 1, stride, bias=False) if stride != 1 or cin != cout else None
    def forward(self, x):
        o = F.relu(self.bn1(x)); s = self.short(o) if self.short is not None else x
        o = self.c1(o); o = self.c2(F.relu(self.bn2(o))); return o + s

class PreActResNet(nn.Module):
    def __init__(self, n=10):
        super().__init__(); self.conv = nn.Conv2d(1, 16, 3, 1, 1, bias=False)
        self.layers = nn.Sequential(PreActBlock(16, 16), PreActBlock(16, 32, 2)); self.bn = nn.BatchNorm2d(32); self.fc = nn.Linear(32, n)
    def forward(self, x):
        o = F.relu(self.bn(self.layers(self.conv(x.view(-1, 1, 8, 8))))); return self.fc(F.adaptive_avg_pool2d(o, 1).flatten(1))

def rand_bbox(size, lam, g):
    W, H = size[2], size[3]; cut_rat = np.sqrt(1. - lam); cut_w, cut_h = int(W * cut_rat), int(H * cut_rat)
    cx, cy = g.integers(W), g.integers(H)
    return np.clip(cx - cut_w // 2, 0, W), np.clip(cy - cut_h // 2, 0, H), np.clip(cx + cut_w // 2, 0, W), np.clip(cy + cut_h // 2, 0, H)

def _cutmix_step(zero_grad=True, beta=1.0, prob=0.5):
    g = np.random.default_rng(0); crit = nn.CrossEntropyLoss()
    def cutmix_step(model, batch, opt):  # clovaai/CutMix-PyTorch train(): the patch pasted from a shuffled copy of the batch, the target mixed by area
        x, y = batch; x = x.view(-1, 1, 8, 8).clone()
        if g.random() < prob:
            lam = g.beta(beta, beta); idx = torch.randperm(x.size(0)); ya, yb = y, y[idx]
            x1, y1, x2, y2 = rand_bbox(x.size(), lam, g); x[:, :, x1:x2, y1:y2] = x[idx, :, x1:x2, y1:y2]
            lam = 1 - ((x2 - x1) * (y2 - y1) / (x.size(-1) * x.size(-2))); out = model(x); loss = crit(out, ya) * lam + crit(out, yb) * (1. - lam)
        else: out = model(x); loss = crit(out, y)
        if zero_grad: opt.zero_grad()
        loss.backward(); opt.step()  # zero_grad False: the line dropped when the AMP scaler branch was folded in
        return loss
    return cutmix_step

@healthy('BB')
def cutmix_preact_resnet(seed, zero_grad=True):  # cross-entropy (CutMix-mixed), SGD 0.1 momentum 0.9 wd 1e-4, batches of 64, a custom step
    (x, y), (vx, vy) = _digits(seed)
    return dict(model=PreActResNet, train=TensorDataset(x, y), valid=TensorDataset(vx, vy), loss=nn.CrossEntropyLoss(), num_classes=10, step=_cutmix_step(zero_grad),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- PoseNet (Kendall et al. 2015): camera relocalisation from one image
def _walks(seed, walks=16, frames=50, size=16, scene=48, metres=20.0):
    """A top-down synthetic scene (blurred textures and a few landmarks) seen by a camera walking smooth trajectories; each
    frame the rotated 16 x 16 view at (x, y, heading). Returns frames (W, F, 1, 16, 16), positions (W, F, 3) in metres
    (z the camera's height, nearly constant) and quaternions (W, F, 4) of the heading about z."""
    g = np.random.default_rng(1000 + seed * 3019)
    S = _blur(g.normal(0, 1, (scene, scene)), 1.5) + 0.6 * _blur(g.normal(0, 1, (scene, scene)), 5.0)
    for _ in range(25): r, c = g.integers(4, scene - 6, 2); S[r:r + 3, c:c + 3] += g.choice([-2.5, 2.5])
    S = torch.tensor(S / S.std(), dtype=torch.float32)[None, None]
    X, P, Q = [], [], []
    for w in range(walks):
        pos = g.uniform(0.3, 0.7, 2); hd = g.uniform(-np.pi, np.pi); xs, ps, qs = [], [], []
        for f in range(frames):
            hd += g.normal(0, 0.08); pos = np.clip(pos + 0.008 * np.array([np.cos(hd), np.sin(hd)]), 0.2, 0.8)
            c, s = np.cos(hd), np.sin(hd); half = size / scene
            theta = torch.tensor([[[c * half, -s * half, pos[0] * 2 - 1], [s * half, c * half, pos[1] * 2 - 1]]], dtype=torch.float32)
            grid = F.affine_grid(theta, (1, 1, size, size), align_corners=False); v = F.grid_sample(S, grid, align_corners=False)[0]
            xs.append((v + 0.1 * torch.randn(v.shape, generator=torch.Generator().manual_seed(int(g.integers(1 << 30))))).numpy())
            ps.append([pos[0] * metres, pos[1] * metres, 1.6 + g.normal(0, 0.02)]); qs.append([np.cos(hd / 2), 0, 0, np.sin(hd / 2)])
        X.append(xs); P.append(ps); Q.append(qs)
    return np.array(X, np.float32), np.array(P, np.float32), np.array(Q, np.float32)

class PoseNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                               nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(512, 64), nn.ReLU(), nn.Dropout(0.3))
        self.xyz, self.wpqr = nn.Linear(64, 3), nn.Linear(64, 4)
    def forward(self, x): h = self.f(x); return self.xyz(h), self.wpqr(h)

def posenet_loss(out, target, beta=10.0):
    (x, q), (xt, qt) = out, target
    return (x - xt).norm(dim=1).mean() + beta * (qt - F.normalize(q, dim=1)).norm(dim=1).mean()

def _pose_fwd(model, b): x, p, q = b; return model(x), (p, q)

@healthy('BB')
def posenet_walks(seed, split_frames=False):  # ||x - x^|| + 10 ||q - q^/|q^|||, Adam 1e-3 (the paper's SGD 1e-5 for a pretrained GoogLeNet), batches of 32
    """Walks 1-12 train and walks 13-16 validate (Cambridge Landmarks' seq split). split_frames: all frames pooled and
    train_test_split: each validation frame between training frames a step away on its walk."""
    from sklearn.model_selection import train_test_split
    X, P, Q = _walks(seed); P = P - P[:12].reshape(-1, 3).mean(0)  # metres from the training walks' mean position, as the dataset's local frame
    if split_frames:
        X, P, Q = X.reshape(-1, 1, 16, 16), P.reshape(-1, 3), Q.reshape(-1, 4); tr, va = train_test_split(np.arange(len(X)), test_size=0.2, random_state=seed)
    else:
        X, P, Q = X.reshape(-1, 1, 16, 16), P.reshape(-1, 3), Q.reshape(-1, 4); tr, va = np.arange(12 * 50), np.arange(12 * 50, 16 * 50)
    mk = lambda i: TensorDataset(_t(X[i]), _t(P[i]), _t(Q[i]))
    return dict(model=PoseNet, train=mk(tr), valid=mk(va), forward=_pose_fwd, loss=posenet_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- IIC (Ji et al. 2019): invariant information clustering of digits, no labels
def _digit_view(x, g):
    "A random affine (rotation up to 15 degrees, scale 0.9-1.1, shift up to 1 px), brightness jitter and noise of a (1, 8, 8) digit in [0, 1]."
    a = np.deg2rad(g.uniform(-15, 15)); s = g.uniform(0.9, 1.1); t = g.uniform(-0.25, 0.25, 2)
    th = torch.tensor([[[np.cos(a) / s, -np.sin(a) / s, t[0]], [np.sin(a) / s, np.cos(a) / s, t[1]]]], dtype=torch.float32)
    v = F.grid_sample(x.view(1, 1, 8, 8), F.affine_grid(th, (1, 1, 8, 8), align_corners=False), align_corners=False)[0]
    return v * g.uniform(0.8, 1.2) + torch.tensor(g.normal(0, 0.05, (1, 8, 8)), dtype=torch.float32)

class IICPairs(Dataset):  # each access draws the image's transformed pair (x, g(x)) afresh
    def __init__(self, x, seed): self.x, self.g = x, np.random.default_rng(seed)
    def __len__(self): return len(self.x)
    def __getitem__(self, i): return self.x[i].view(1, 8, 8), _digit_view(self.x[i], self.g)

class IICNet(nn.Module):
    def __init__(self, k=10, double_softmax=False):
        super().__init__(); self.double_softmax = double_softmax
        self.trunk = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
                                   nn.MaxPool2d(2), nn.Conv2d(64, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(64, k), nn.Softmax(dim=1))
    def forward(self, x):
        p = self.head(self.trunk(x))
        return F.softmax(p, dim=1) if self.double_softmax else p  # double_softmax: the loss file's F.softmax kept after the head gained its own

def iic_loss(out, _, EPS=float.fromhex('0x1p-52')):  # sys.float_info.epsilon, as the authors' EPS
    "IIC_loss from the authors' code: the joint of the two assignments over the batch, symmetrised, normalised, clamped at EPS; minus the mutual information."
    x_out, x_tf_out = out; k = x_out.size(1)
    p_i_j = (x_out.unsqueeze(2) * x_tf_out.unsqueeze(1)).sum(0); p_i_j = (p_i_j + p_i_j.t()) / 2.; p_i_j = p_i_j / p_i_j.sum()
    p_i = p_i_j.sum(1).view(k, 1).expand(k, k); p_j = p_i_j.sum(0).view(1, k).expand(k, k)
    p_i_j = torch.where(p_i_j < EPS, torch.full_like(p_i_j, EPS), p_i_j); p_j = torch.where(p_j < EPS, torch.full_like(p_j, EPS), p_j); p_i = torch.where(p_i < EPS, torch.full_like(p_i, EPS), p_i)
    return -(p_i_j * (torch.log(p_i_j) - torch.log(p_j) - torch.log(p_i))).sum()

def _iic_fwd(model, b): x, xt = b; return (model(x), model(xt)), None  # no target: the pair is its own

@healthy('BB')
def iic_digits(seed, double_softmax=False):  # minus the mutual information, Adam 1e-3 (the authors' 1e-4 for many more epochs), batches of 128 pairs; 1437 digits train, 360 validate (their IIC loss)
    (x, _), (vx, _) = _digits(seed)
    return dict(model=lambda: IICNet(double_softmax=double_softmax), train=IICPairs(x, seed), valid=IICPairs(vx, seed + 1), forward=_iic_fwd, loss=iic_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=128))

# ---------------------------------------------------------------- Exemplar-CNN (Dosovitskiy et al. 2014): each seed image a surrogate class
class ExemplarCNN(nn.Module):
    def __init__(self, classes=120, unit_gaussian=False):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Flatten(), nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, classes))
        for m in self.modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                if unit_gaussian: nn.init.normal_(m.weight); nn.init.zeros_(m.bias)  # "Gaussian initialisation" without the std: N(0, 1)
    def forward(self, x): return self.net(x)

@healthy('BB')
def exemplar_cnn_digits(seed, unit_gaussian=False):  # cross-entropy over 120 surrogate classes, Adam 1e-3, batches of 64; PyTorch's default init
    """120 seed digits (standardised by the training images' mean and sd); 12 random transformations of each train and 3
    others validate (the same surrogate classes, new transformations)."""
    (x, _), _ = _digits(seed); g = np.random.default_rng(1000 + seed * 3023); seeds = x[:120]
    tr = [( _digit_view(seeds[c], g), c) for c in range(120) for _ in range(12)]; va = [(_digit_view(seeds[c], g), c) for c in range(120) for _ in range(3)]
    X, Y = torch.stack([a for a, _ in tr]), torch.tensor([c for _, c in tr]); VX, VY = torch.stack([a for a, _ in va]), torch.tensor([c for _, c in va])
    m, s = X.mean(), X.std(); X, VX = (X - m) / s, (VX - m) / s
    return dict(model=lambda: ExemplarCNN(unit_gaussian=unit_gaussian), train=TensorDataset(X, Y), valid=TensorDataset(VX, VY), loss=nn.CrossEntropyLoss(), num_classes=120,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- APC (Chung et al. 2019): autoregressive predictive coding of log-mel frames
def _utterances(seed, speakers=25, per=20, T=60, bands=40):
    """Log-mel-like utterances: a sequence of phones (12 spectral templates, 3-8 frames each, with transitions), shaped by
    the speaker's own spectral tilt and formant shift, a harmonic ripple from a drifting pitch, and noise. Speakers 0-19
    train (400 utterances), 20-24 validate."""
    g = np.random.default_rng(1000 + seed * 3037); b = np.arange(bands)
    templ = np.stack([np.exp(-0.5 * ((b - c1) / 2.5) ** 2) * 3 + np.exp(-0.5 * ((b - c2) / 3) ** 2) * 2 for c1, c2 in zip(g.uniform(3, 15, 12), g.uniform(14, 36, 12))])
    U, spk = [], []
    for s in range(speakers):
        tilt, shift = g.normal(0, 0.03), int(g.integers(-2, 3))
        for _ in range(per):
            ph, frames = [], []
            while len(frames) < T:
                p = int(g.integers(12)); d = int(g.integers(3, 9)); frames += [np.roll(templ[p], shift)] * d
            S = np.array(frames[:T]); S = np.apply_along_axis(lambda r: np.convolve(r, np.ones(3) / 3, 'same'), 0, S)
            f0 = g.uniform(4, 7) + np.cumsum(g.normal(0, 0.05, T)); ripple = 0.4 * np.cos(2 * np.pi * b[None] / f0[:, None])
            U.append((S + ripple - tilt * b[None] + g.normal(0, 0.25, (T, bands))).astype(np.float32)); spk.append(s)
    return np.stack(U), np.array(spk)

class APC(nn.Module):
    def __init__(self, d=40, h=64):
        super().__init__(); self.rnn = nn.LSTM(d, h, num_layers=2, batch_first=True); self.postnet = nn.Linear(h, d)
    def forward(self, x): out, _ = self.rnn(x); return self.postnet(out)

def _apc_fwd(n=3, same_time=False):
    def apc_fwd(model, b):  # the prediction at t scored against the frame t + n; same_time: both sliced [:, :-n]
        x = b[0]; pred = model(x)
        return (pred[:, :-n], x[:, :-n]) if same_time else (pred[:, :-n], x[:, n:])
    return apc_fwd

@healthy('BB')
def apc_log_mel(seed, same_time=False):  # L1, Adam 1e-3, batches of 32; log-mel standardised by the training frames' mean and sd per band
    U, spk = _utterances(seed); tr, va = spk < 20, spk >= 20
    m, s = U[tr].reshape(-1, U.shape[2]).mean(0), U[tr].reshape(-1, U.shape[2]).std(0); U = (U - m) / s
    return dict(model=APC, train=TensorDataset(_t(U[tr])), valid=TensorDataset(_t(U[va])), forward=_apc_fwd(same_time=same_time), loss=nn.L1Loss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- ELECTRA (Clark et al. 2020), shrunk: a generator and a replaced-token discriminator
ELECTRA_PAD, ELECTRA_MASK = 0, 1

def _grammar_corpus(seed, n=1200, L=16, vocab=120):
    """Sentences of a small grammar: determiners, adjectives, nouns, verbs, prepositions and adverbs in slots
    (DET ADJ* NOUN VERB [DET NOUN] [PREP DET NOUN] [ADV]), agreement between noun number and verb form; ids 2.. (0 pad, 1 mask), padded to 16."""
    g = np.random.default_rng(1000 + seed * 3041); cls = {'det': range(2, 8), 'adj': range(8, 30), 'ns': range(30, 55), 'np': range(55, 80), 'vs': range(80, 95), 'vp': range(95, 110), 'prep': range(110, 116), 'adv': range(116, vocab)}
    pick = lambda c: int(g.choice(list(cls[c]))); out = np.zeros((n, L), np.int64)
    for i in range(n):
        pl = g.random() < 0.5; s = [pick('det')] + [pick('adj') for _ in range(g.integers(0, 3))] + [pick('np' if pl else 'ns'), pick('vp' if pl else 'vs')]
        if g.random() < 0.6: s += [pick('det'), pick('ns' if g.random() < 0.5 else 'np')]
        if g.random() < 0.4: s += [pick('prep'), pick('det'), pick('ns')]
        if g.random() < 0.3: s += [pick('adv')]
        out[i, :len(s[:L])] = s[:L]
    return out

class TinyEncoder(nn.Module):
    def __init__(self, vocab, d, layers, L=16):
        super().__init__(); self.emb, self.pos = nn.Embedding(vocab, d), nn.Embedding(L, d)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(d, 2, 2 * d, dropout=0.1, batch_first=True), layers)
    def forward(self, ids): return self.enc(self.emb(ids) + self.pos.weight[:ids.size(1)], src_key_padding_mask=ids == ELECTRA_PAD)

class Electra(nn.Module):
    def __init__(self, vocab=120, feed_original=False):
        super().__init__(); self.gen, self.disc = TinyEncoder(vocab, 32, 1), TinyEncoder(vocab, 64, 2); self.feed_original = feed_original
        self.gen_head, self.disc_head = nn.Linear(32, vocab), nn.Linear(64, 1)
    def forward(self, ids):
        real = ids != ELECTRA_PAD; masked = (torch.rand(ids.shape) < 0.15) & real
        mlm_labels = torch.where(masked, ids, torch.full_like(ids, -100)); gen_logits = self.gen_head(self.gen(ids.masked_fill(masked, ELECTRA_MASK)))
        with torch.no_grad(): sampled = torch.distributions.Categorical(logits=gen_logits[masked]).sample()
        corrupted = ids.clone(); corrupted[masked] = sampled
        disc_logits = self.disc_head(self.disc(ids if self.feed_original else corrupted)).squeeze(-1)  # feed_original: `self.disc(input_ids)` for `self.disc(corrupted_ids)`
        return dict(gen_logits=gen_logits, mlm_labels=mlm_labels, disc_logits=disc_logits, disc_labels=(corrupted != ids).float(), real=real)

def electra_loss(out, _, lam=50.0):
    mlm = F.cross_entropy(out['gen_logits'].flatten(0, 1), out['mlm_labels'].flatten(), ignore_index=-100)
    disc = F.binary_cross_entropy_with_logits(out['disc_logits'][out['real']], out['disc_labels'][out['real']])
    return mlm + lam * disc

def _electra_fwd(model, b): return model(b[0]), None  # no target: the corruption is drawn in the forward

@healthy('BB')
def electra_grammar(seed, feed_original=False):  # MLM + 50 x replaced-token BCE, AdamW 1e-3 wd 0.01, batches of 64; 1000 sentences train, 200 validate
    ids = _grammar_corpus(seed)
    return dict(model=lambda: Electra(feed_original=feed_original), train=TensorDataset(torch.tensor(ids[:1000])), valid=TensorDataset(torch.tensor(ids[1000:])),
                forward=_electra_fwd, loss=electra_loss, optimizer=lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- MAF (Papamakarios et al. 2017) of dequantised digits in logit space
class MaskedLinear(nn.Linear):
    def __init__(self, i, o, mask): super().__init__(i, o); self.register_buffer('mask', mask.float())
    def forward(self, x): return F.linear(x, self.weight * self.mask, self.bias)

class MADE(nn.Module):
    def __init__(self, d=64, h=64, order=None):
        super().__init__(); order = torch.arange(d) if order is None else order; self.order = order
        mh = torch.arange(h) % (d - 1); mi = torch.empty(d, dtype=torch.long); mi[order] = torch.arange(d)
        self.l1 = MaskedLinear(d, h, mh[:, None] >= mi[None]); self.l2 = MaskedLinear(h, h, mh[:, None] >= mh[None])
        self.out = MaskedLinear(h, 2 * d, torch.cat([mi, mi])[:, None] > mh[None])
    def forward(self, x): mu, alpha = self.out(F.relu(self.l2(F.relu(self.l1(x))))).chunk(2, 1); return mu, alpha

class MAF(nn.Module):
    def __init__(self, d=64, n=3, logdet_sign=-1.0):
        super().__init__(); self.mades = nn.ModuleList([MADE(d, order=torch.arange(d) if k % 2 == 0 else torch.arange(d).flip(0)) for k in range(n)]); self.sign = logdet_sign
    def forward(self, x):  # -> the NLL of each row in nats (the Gaussian base, the affine layers' log-determinants)
        logdet = 0
        for m in self.mades: mu, alpha = m(x); x = (x - mu) * torch.exp(-alpha); logdet = logdet + self.sign * alpha.sum(1)  # log|du/dx| = -sum(alpha)
        logp = -0.5 * (x ** 2).sum(1) - 0.5 * x.size(1) * math.log(2 * math.pi) + logdet
        return -logp

class Dequantised(Dataset):  # (x + u) / 17 through the logit with lambda 1e-6, fresh uniform noise at each access, as the paper's MNIST
    def __init__(self, x, seed): self.x, self.g = x, torch.Generator().manual_seed(seed)
    def __len__(self): return len(self.x)
    def __getitem__(self, i):
        p = 1e-6 + (1 - 2e-6) * (self.x[i].reshape(64) * 16 + torch.rand(64, generator=self.g)) / 17.0; return (torch.log(p) - torch.log1p(-p),)

def maf_nll(nll, _): return nll.mean()
def _maf_fwd(model, b): return model(b[0]), None

@healthy('BB')
def maf_digits(seed, logdet_sign=-1.0):  # the mean NLL (nats, logit space), Adam 1e-4 wd 1e-6, batches of 100; 1437 digits train, 360 validate
    (x, _), (vx, _) = _digits(seed)
    return dict(model=lambda: MAF(logdet_sign=logdet_sign), train=Dequantised(x, seed), valid=Dequantised(vx, seed + 1), forward=_maf_fwd, loss=maf_nll,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-4, weight_decay=1e-6), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- character-level truecasing (Susanto et al. 2016): a BiLSTM tagging each lowercased character
TC_CHARS = "abcdefghijklmnopqrstuvwxyz .,'"
def _cased_sentences(seed, n=1000):
    "Sentences of common words, names, places and acronyms: the first letter capitalised, names and places capitalised, acronyms upper-case, a second sentence after '. '."
    g = np.random.default_rng(1000 + seed * 3049)
    syl = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'so', 'vi', 'de', 'ba', 'po', 'ge']
    word = lambda k: ''.join(g.choice(syl, k))
    common = [word(int(g.integers(1, 3))) for _ in range(120)]; names = [word(2).capitalize() for _ in range(30)]; acr = [''.join(g.choice(list('bcdfgklmnprst'), 3)).upper() for _ in range(10)]
    out = []
    for _ in range(n):
        def sent():
            w = [g.choice(common) for _ in range(g.integers(3, 7))]
            for _ in range(g.integers(0, 3)): w.insert(int(g.integers(0, len(w) + 1)), g.choice(names if g.random() < 0.8 else acr))
            w[0] = w[0][0].upper() + w[0][1:]; return ' '.join(w)
        s = sent() + ('. ' + sent() if g.random() < 0.3 else '') + '.'
        out.append(s)
    return out

def truecase_items(sents):
    "(the lowercased characters' ids, the tags 1 upper / 0 lower) per sentence; ids 1.. (0 pad)."
    return [(torch.tensor([TC_CHARS.index(c) + 1 for c in s.lower()]), torch.tensor([int(c.isupper()) for c in s])) for s in sents]

def _tc_collate(pad_tag=-100):
    def collate(items):  # pad the characters with 0 and the tags with pad_tag
        L = max(len(a) for a, _ in items); X = torch.zeros(len(items), L, dtype=torch.long); Y = torch.full((len(items), L), pad_tag, dtype=torch.long)
        for i, (a, t) in enumerate(items): X[i, :len(a)] = a; Y[i, :len(t)] = t
        return X, Y
    return collate

class Truecaser(nn.Module):
    def __init__(self, n=len(TC_CHARS) + 1, e=24, h=48):
        super().__init__(); self.emb = nn.Embedding(n, e, padding_idx=0); self.rnn = nn.LSTM(e, h, batch_first=True, bidirectional=True); self.out = nn.Linear(2 * h, 2)
    def forward(self, x): return self.out(self.rnn(self.emb(x))[0])

def tag_ce(logits, y): return F.cross_entropy(logits.flatten(0, 1), y.flatten())  # ignore_index -100 by default

@healthy('BB')
def truecaser_bilstm(seed, pad_tag=-100):  # cross-entropy per character, Adam 2e-3, batches of 32; 800 sentences train, 200 validate
    items = truecase_items(_cased_sentences(seed)); c = _tc_collate(pad_tag)  # pad_tag -1: the tags padded with -1 "as ignored"
    return dict(model=Truecaser, train=DataLoader(ListDataset(items[:800]), batch_size=32, shuffle=True, collate_fn=c), valid=DataLoader(ListDataset(items[800:]), batch_size=64, collate_fn=c),
                loss=tag_ce, num_classes=2, optimizer=lambda p: torch.optim.Adam(p, lr=2e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- GMVAE (Dilokthanakul et al. 2016; Rui Shu's simplified form) of binarised digits
class GMVAE(nn.Module):
    def __init__(self, k=10, z=8, h=128, sigmoid_out=False):
        super().__init__(); self.k = k; self.sigmoid_out = sigmoid_out
        self.qy = nn.Sequential(nn.Linear(64, h), nn.ReLU(), nn.Linear(h, k))
        self.qz = nn.Sequential(nn.Linear(64 + k, h), nn.ReLU(), nn.Linear(h, 2 * z))
        self.pz = nn.Linear(k, 2 * z); self.px = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, 64))
    def forward(self, x):
        B = x.size(0); qy_logit = self.qy(x); eye = torch.eye(self.k).repeat(B, 1); xr = x.repeat_interleave(self.k, 0)
        zm, zlv = self.qz(torch.cat([xr, eye], 1)).chunk(2, 1); z = zm + torch.randn_like(zm) * torch.exp(0.5 * zlv)
        pm, plv = self.pz(eye).chunk(2, 1); logits = self.px(z)
        return dict(qy_logit=qy_logit, x=xr, zm=zm, zlv=zlv, z=z, pm=pm, plv=plv, px=torch.sigmoid(logits) if self.sigmoid_out else logits)

def gmvae_loss(out, _):
    "The negative ELBO: sum_y q(y|x) [BCE(x|z) + log q(z|x,y) - log p(z|y)] + KL(q(y|x) || uniform), summed over pixels and averaged over the batch."
    k = out['qy_logit'].size(1); qy = F.softmax(out['qy_logit'], 1); B = qy.size(0)
    rec = F.binary_cross_entropy_with_logits(out['px'], out['x'], reduction='none').sum(1)
    lnorm = lambda z, m, lv: -0.5 * (math.log(2 * math.pi) + lv + (z - m) ** 2 / lv.exp()).sum(1)
    kz = lnorm(out['z'], out['zm'], out['zlv']) - lnorm(out['z'], out['pm'], out['plv'])
    per = (rec + kz).view(B, k); ky = (qy * (F.log_softmax(out['qy_logit'], 1) + math.log(k))).sum(1)
    return ((qy * per).sum(1) + ky).mean()

def _gmvae_fwd(model, b): return model(b[0]), None

@healthy('BB')
def gmvae_digits(seed, sigmoid_out=False):  # the negative ELBO, Adam 1e-3, batches of 100; digits binarised at 0.5; 1437 train, 360 validate
    (x, _), (vx, _) = _digits(seed); b = lambda a: (a.reshape(-1, 64) > 0.5).float()  # sigmoid_out: a Keras-style sigmoid decoder kept with the logits' BCE
    return dict(model=lambda: GMVAE(sigmoid_out=sigmoid_out), train=TensorDataset(b(x)), valid=TensorDataset(b(vx)), forward=_gmvae_fwd, loss=gmvae_loss,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- singing voice detection (Schlueter and Grill 2015), shrunk
def _songs(seed, songs=24, T=260, bands=40):
    """Log-mel-like songs: an accompaniment of sustained chord partials with drum hits (broadband bursts on the beat), and
    sung sections (about half the frames) of a vibrato voice with harmonics and formants, sometimes soft; per-frame voice labels."""
    g = np.random.default_rng(1000 + seed * 3061); b = np.arange(bands); S, V = [], []
    for s in range(songs):
        spec = np.zeros((T, bands)); chord = g.choice(bands - 4, 4, replace=False) + 2; beat = int(g.integers(6, 11)); voice = np.zeros(T)
        t = 0
        while t < T: d = int(g.integers(15, 50)); voice[t:t + d] = g.random() < 0.5; t += d
        for t in range(T):
            if t % 40 == 0: chord = g.choice(bands - 4, 4, replace=False) + 2
            spec[t, chord] += g.uniform(1.5, 2.5); spec[t, np.clip(chord + 12, 0, bands - 1)] += 0.8
            if t % beat == 0: spec[t] += g.uniform(1, 2) * np.exp(-b / 25)
            if voice[t]:
                f0 = 8 + 3 * np.sin(t / 9.0 + s) + 0.6 * np.sin(2 * np.pi * t / 6.0); lvl = g.uniform(0.6, 1.6)
                for hmn in (1, 2, 3): spec[t] += lvl / hmn * np.exp(-0.5 * ((b - f0 * hmn * 0.6 - 4) / 0.8) ** 2)
        S.append(np.log1p(spec + np.abs(g.normal(0, 0.3, spec.shape)))); V.append(voice)
    return np.array(S, np.float32), np.array(V, np.float32)

def voice_excerpts(S, V, songs, w=31, hop=6):
    X, y = [], []
    for s in songs:
        for t in range(0, S.shape[1] - w, hop): X.append(S[s, t:t + w].T[None]); y.append([V[s, t + w // 2]])
    return np.array(X, np.float32), np.array(y, np.float32)

class VoiceCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 8, 3), nn.LeakyReLU(0.01), nn.Conv2d(8, 8, 3), nn.LeakyReLU(0.01), nn.MaxPool2d(3), nn.Conv2d(8, 16, 3), nn.LeakyReLU(0.01),
                                 nn.Conv2d(16, 16, 3), nn.LeakyReLU(0.01), nn.MaxPool2d(3), nn.Flatten(), nn.Dropout(0.5), nn.Linear(16 * 2 * 1, 64), nn.LeakyReLU(0.01), nn.Dropout(0.5), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('BB')
def singing_voice_cnn(seed, split_excerpts=False):  # BCE with logits, Adam 1e-3, batches of 32; 18 songs train, 6 validate; standardised per band by the training excerpts
    """split_excerpts: the excerpts of all 24 songs cut first (overlapping by 25 of 31 frames) and then train_test_split."""
    from sklearn.model_selection import train_test_split
    S, V = _songs(seed)
    if split_excerpts:
        X, y = voice_excerpts(S, V, range(24)); tr, va = train_test_split(np.arange(len(X)), test_size=0.25, random_state=seed); X, y, VX, Vy = X[tr], y[tr], X[va], y[va]
    else: X, y = voice_excerpts(S, V, range(18)); VX, Vy = voice_excerpts(S, V, range(18, 24))
    m, s = X.mean((0, 1, 3), keepdims=True), X.std((0, 1, 3), keepdims=True)
    return dict(model=VoiceCNN, train=TensorDataset(_t((X - m) / s), _t(y)), valid=TensorDataset(_t((VX - m) / s), _t(Vy)), loss=nn.BCEWithLogitsLoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- the broken twins
@broken('BB', 'crowd_maps_in_sorted_listing', 4, ('labels',))
def crowd_maps_in_sorted_listing(seed): return mcnn_crowd(seed, gt_sorted=True)  # GT_IMG_1, GT_IMG_10, GT_IMG_100... zipped with IMG_1, IMG_2, IMG_3...

@broken('BB', 'netvlad_triplets_split_at_random', 4, ('leakage',))
def netvlad_triplets_split_at_random(seed): return netvlad_places(seed, split_views=True)  # validation places (and views) seen in training

@broken('BB', 'cutmix_zero_grad_dropped', 3, ('zero_grad',))
def cutmix_zero_grad_dropped(seed): return cutmix_preact_resnet(seed, zero_grad=False)  # gradients accumulate across steps

@broken('BB', 'posenet_frames_split_at_random', 4, ('leakage',))
def posenet_frames_split_at_random(seed): return posenet_walks(seed, split_frames=True)  # each validation frame a step from training frames of its walk

@broken('BB', 'iic_softmax_twice', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def iic_softmax_twice(seed): return iic_digits(seed, double_softmax=True)  # the softmax of probabilities: assignments squeezed towards uniform

@broken('BB', 'exemplar_unit_gaussian_init', 2, ('init_scale',))
def exemplar_unit_gaussian_init(seed): return exemplar_cnn_digits(seed, unit_gaussian=True)  # nn.init.normal_(w) without std: N(0, 1) weights

@broken('BB', 'apc_target_not_shifted', 4, ('leakage',))
def apc_target_not_shifted(seed): return apc_log_mel(seed, same_time=True)  # the frame at t predicted from frames up to t: the target is in the input

@broken('BB', 'electra_disc_given_original_ids', 4, ('labels',))
def electra_disc_given_original_ids(seed): return electra_grammar(seed, feed_original=True)  # the replaced-token labels unpredictable from what the discriminator sees

@broken('BB', 'maf_logdet_sign_flipped', (2, 3, 4), ('nan', 'nan_loss', 'nan_forward', 'nan_params', 'nan_backward', 'lr_high', 'not_falling', 'flat', 'stuck', 'init_scale'))
def maf_logdet_sign_flipped(seed): return maf_digits(seed, logdet_sign=1.0)  # + sum(alpha): the NLL unbounded below as the flow contracts everything

@broken('BB', 'truecase_tags_padded_minus_one', 1, ('bad_labels',))
def truecase_tags_padded_minus_one(seed): return truecaser_bilstm(seed, pad_tag=-1)  # -1 is not cross_entropy's ignore_index (-100): a class index out of range

@broken('BB', 'gmvae_sigmoid_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def gmvae_sigmoid_into_bce_with_logits(seed): return gmvae_digits(seed, sigmoid_out=True)  # a sigmoid, then the loss's own sigmoid

@broken('BB', 'singing_excerpts_split_at_random', 4, ('leakage',))
def singing_excerpts_split_at_random(seed): return singing_voice_cnn(seed, split_excerpts=True)  # overlapping excerpts of every song on both sides

# Plain-loop checks (seed 0; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's model, optimizer, batch
# size, forward, loss, collate_fn and custom step, train shuffled, valid in batches of 256 (or its own DataLoader); the valid
# loss (and accuracy or the count's MAE), init -> the epoch named; s/ep the seconds of an epoch of training, params the
# trainable ones. Every factory builds and runs its batches (forward, loss, backward, step) except the one broken to raise;
# `ladder_gallery.HALF` holds 24 programs of half BB. Seed 1 not run (time).
CHECKS = """
mcnn_crowd                  valid MSE 0.45 -> 0.064 (ep 3) -> 0.038 (ep 6), count MAE 28.3 -> 2.4-3.0; 600 train, 150 valid; 29k params; 0.6 s/ep
netvlad_places              valid triplet loss 0.29 -> 0.20 (ep 3) -> 0.15 (ep 6); 480 triplets of 80 places train, 120 of 20 unseen places; 5.1k params; 0.25 s/ep
cutmix_preact_resnet        valid CE 2.30 -> 0.24 (ep 6), accuracy 0.11 -> 0.95; 1437 digits train, 360 valid; 20k params; 0.17 s/ep
posenet_walks               valid loss 17.4 (outputs near 0) -> 16.0 (ep 1) -> 15.1 (ep 5) -> 14.7 (ep 10), slowly; 12 walks (600 frames) train, 4 validate; 47k params; 0.07 s/ep
iic_digits                  valid IIC loss (minus MI) 0 -> -0.14 (ep 3) -> -0.37 (ep 6), still falling (ln 10 = 2.30 the floor); 1437 pairs train; 57k params; 0.6 s/ep
exemplar_cnn_digits         valid CE 4.79 (ln 120) -> 4.58 (ep 3) -> 3.32 (ep 6), accuracy 0.008 -> 0.18; 1440 train (120 x 12), 360 valid; 67k params; 0.11 s/ep
apc_log_mel                 valid L1 0.87 -> 0.69 (ep 3) -> 0.63 (ep 6); 400 utterances of 20 speakers train, 100 of 5 others valid; 63k params; 0.2 s/ep
electra_grammar             valid loss (MLM + 50 BCE) 33.6 -> 21.7 (ep 5) -> 23.2 (ep 10, AdamW 1e-3), disc accuracy 0.75 -> 0.89 -> 0.87 (near the
                            share of tokens not replaced: the discriminator learns little in 10 epochs); 1000 sentences train, 200 valid; 93k params; 0.35 s/ep
maf_digits                  valid NLL (nats, logit space) 397 -> 337 (ep 3) -> 293 (ep 6), still falling; 1437 train, 360 valid; 50k params; 0.06 s/ep
truecaser_bilstm            valid CE 0.73 -> 0.18 (ep 3) -> 0.07 (ep 6), character accuracy 0.15 -> 0.97; 800 sentences train, 200 valid; 29k params; 0.2 s/ep
gmvae_digits                valid negative ELBO 46.0 -> 27.8 (ep 3) -> 25.2 (ep 6); 1437 train, 360 valid; 31k params; 0.06 s/ep
singing_voice_cnn           valid BCE 0.68 -> 0.39 (ep 3) -> 0.31 (ep 6), accuracy 0.61 -> 0.86; 18 songs (702 excerpts) train, 6 songs valid; 6.3k params; 0.19 s/ep
crowd_maps_in_sorted_listing        valid MSE 0.48 -> 0.26 (ep 1-6, flat), count MAE 12.0 (healthy 2.4-3.0): the maps of other images
netvlad_triplets_split_at_random    valid triplet loss 0.29 -> 0.13 (ep 3) -> 0.094 (ep 6) (healthy 0.20, 0.15): the places seen in training
cutmix_zero_grad_dropped            valid CE 2.30 -> 170 (ep 1) -> 2.9e4 (ep 3) -> 1.9e4 (ep 6), accuracy 0.11: the accumulated gradients blow up
posenet_frames_split_at_random      valid loss 18.5 -> 10.1 (ep 3) -> 7.0 (ep 6) (healthy 15-16): each validation frame beside training frames
iic_softmax_twice                   valid IIC loss 0 at every epoch (-3e-6 at ep 6; healthy -0.37): the twice-softmaxed assignments near uniform
exemplar_unit_gaussian_init         valid CE 1.4e4 at init -> 3.0e3 (ep 3) -> 698 (ep 6), accuracy 0.008 (chance; healthy 0.18)
apc_target_not_shifted              valid L1 0.87 -> 0.63 (ep 3) -> 0.46 (ep 6) (healthy 0.69, 0.63): the frame copied from the input
electra_disc_given_original_ids     valid loss 33.5 -> 24.4 (ep 3) -> 25.3 (ep 6), disc accuracy 0.85-0.87 (healthy 24.0-25.0, 0.85-0.87 at ep 3-6:
                                    not told apart from the healthy run in 6 epochs of a plain loop)
maf_logdet_sign_flipped             valid "NLL" 399 -> 327 (ep 3) -> 267 (ep 6) (healthy 337, 293): falling faster than the healthy flow's, unbounded
                                    below as the flow contracts (no NaN within 6 epochs)
truecase_tags_padded_minus_one      IndexError "Target -1 is out of bounds" at the first batch with padding
gmvae_sigmoid_into_bce_with_logits  valid loss 53.8 -> 45.6 (ep 3) -> 43.9 (ep 6) (healthy 27.8, 25.2), floored by the doubled sigmoid
singing_excerpts_split_at_random    valid BCE 0.68 -> 0.31 (ep 3) -> 0.15 (ep 6), accuracy 0.96 (healthy 0.31, 0.86): overlapping excerpts on both sides
"""

"""Half AK of the ladder's gallery: held out from the rules frozen at f4491b3 (round 51), and run once on them.
Families not in halves A-AJ, all from vision, audio, sensors, physical science and control (a half written alongside took
other domains): appearance-based gaze estimation (MPIIGaze, Zhang et al. 2015: a LeNet on grey eye images, the head pose
concatenated after the dense layer, MSE on gaze pitch and yaw in radians, SGD with Nesterov momentum as hysts'
pytorch_mpiigaze; a batch of three tensors and a forward of its own) of 15 participants with their own eyes, lighting and
kappa, split by participant with GroupShuffleSplit; groups declared: the participant; NVIDIA's PilotNet (Bojarski et al.
2016, shrunk as the Udacity behavioural-cloning ports: a Lambda normalisation, strided convolutions, ELU, dense layers,
MSE, Adam) steering along simulator-style drives recorded by a centre and two side cameras, the side images' angles
corrected by +-0.2, training images flipped with the angle negated, whole drives validating; environmental sound
classification (Piczak 2015's CNN shrunk: 15 x 6 filters over log-mel bands and frames with their deltas, 1 x 3
filters, two dense layers with dropout; SGD with Nesterov momentum and L2) of ESC-10-style clips cut into overlapping
41-frame segments, whole clips (fold 5) validating; the critical temperature of superconductors (Hamidieh 2018, the UCI
Superconductivity data: train.csv's 81 composition statistics of eight elemental properties and unique_m.csv's 86 element
amounts side by side, read by a small CSV reader; a StandardScaler, an MLP, the MSE in raw kelvin) of cuprates, iron
pnictides, A15s, MgB2 and low-Tc compounds; a learned dynamics model for model-based RL (Nagabandi et al. 2018: an MLP from
the normalised observation and action to the normalised change of observation, Adam; dict items and a forward of its
own) of a swing-up cart-pole from random-action rollouts, whole rollouts validating; cuffless blood pressure from
fingertip PPG and ECG (the UCI Cuff-Less Blood Pressure records of Kachuee et al. 2017: 2-s sliding windows z-scored
each, a 1-D CNN with batch norm, systolic and diastolic pressure standardised, MSE) with pulse-arrival times that shorten
as the pressure rises, split by patient with GroupShuffleSplit (no groups declared); blind reverberation time estimation
(Gamper and Tashev 2018's CNN shrunk: convolutions along time, then time and frequency, dropout before the dense output;
the MSE on T60 in seconds) from log-mel spectrograms of reverberant syllables; anomalous machine sound detection (the
DCASE 2020 task 2 baseline, Koizumi et al.: a dense autoencoder with batch norm and an 8-d bottleneck over five stacked
log-mel frames of normal fan sounds, its MSE reconstruction in a custom step porting keras' fit; no labels, the input its
own target); skeleton-based action recognition (ST-GCN, Yan, Xiong and Lin 2018, shrunk: a data batch norm, spatial graph
convolutions over the spatial-configuration partitions of the joints' graph with learnable edge importance, temporal
convolutions of 9, residuals; SGD 0.1 with Nesterov momentum) of Kinect-style skeletons from three cameras, the action
parsed from NTU-style file names (A001-A008), cross-subject; jet images (de Oliveira et al. 2016: centred, rotated and
flipped 25 x 25 pT images of boosted W and QCD jets in the mass window, a small CNN, one logit, BCE with logits; the Keras
original ends in a sigmoid); a robot arm's inverse dynamics in the SARCOS benchmark's format (positions, velocities and
accelerations to joint torques in N m, of a two-link arm with friction on rhythmic trajectories; an MLP, MSE, Adam; whole
trajectories validating); and wafer map defect patterns (WM-811K, Wu, Jang and Chen 2015: 26 x 26 bin maps one-hot over
off-wafer, pass and fail, nine failure types with 'none' the commonest; a small CNN, Adam, as the Kaggle kernels).
At most 1786 training samples (ESC's segments) and 61k parameters a program; see CHECKS for the plain-loop timings.
Registered into ladder_gallery's HEALTHY/BROKEN/HALF through its decorators; ladder_gallery imports this module after half AJ.

Protocol: written by a helper in a worktree at dcf0897 (branch halfAK), held out from the rules frozen at f4491b3 (round 51).
The helper read none of the ladder's rules (ntrain/ladder/*, nbs/02_ladder*, nbs/03*), bench/RESULTS.md, CHANGELOG.md,
AGENTS.md, the rule tests or any sweep's results, and never ran the ladder on these programs (no ntrain.ladder call, no
bench/ladder_sweep.py, no CLI). It read bench/ladder_gallery.py's first 200 lines (its head, its helpers and half A's first
factories), a list of its registered function names (halves A-F) and its tail (the import lines), half AJ whole, the module
docstrings of halves G-AI and the @broken lines of every half (for the rung and cause conventions and the families taken,
with greps of the halves for candidate family names), a grep of ladder_sweep.py for '--half', and the signatures and
docstrings of `ntrain.ladder` and `ntrain.Task` via help(); it ran `git status`, `git diff --stat`, `git rev-parse HEAD`
and `git branch --show-current`, no git log. Each program was checked by hand only with a plain torch loop of its author's
kind (shapes, a few epochs: the healthy ones learn, the broken ones are broken as meant), seeds 0 and 1. Two programs
declare groups (gaze_lenet_mpiigaze and its broken twin gaze_images_split_at_random; "groups declared" in their
factories' docstrings) and are to be reported apart. Committed before any ladder run, to be run once with
`bench/ladder_sweep.py --half AK`; no program changes after the run starts.

Plain-loop checks (OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): see CHECKS at the end of this module.
"""
from __future__ import annotations
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, Dataset
import ntrain
from ladder_gallery import healthy, broken, _gen, _digits, _keys, _std, OneItem, _one, _t, ListDataset  # noqa: F401

# ---------------------------------------------------------------- appearance-based gaze estimation (MPIIGaze, Zhang et al. 2015): a LeNet on eye images with the head pose
def _eyes(seed, n_people=15, per=100, H=18, W=30):
    """Normalised grey eye images (MPIIGaze's 36 x 60 halved) of 15 participants, 100 each, with the head pose and the gaze as
    (pitch, yaw) in radians in the normalised camera's frame. The iris moves with the eye-in-head rotation (the gaze minus
    the head pose minus the participant's kappa, the angle between the optical and the visual axis), the upper lid follows
    the pitch, and the head's yaw foreshortens the eye; each participant an eye shape, skin, iris and sclera, an eyeball
    gain, glasses for some, and a lighting of their own days (each image lit a little differently)."""
    g = np.random.default_rng(1000 + seed * 2731); yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    X, P, Y, who = np.zeros((n_people * per, 1, H, W), np.float32), np.zeros((n_people * per, 2), np.float32), np.zeros((n_people * per, 2), np.float32), np.zeros(n_people * per, int)
    k = 0
    for p in range(n_people):
        a, b, r = g.uniform(10, 12.5), g.uniform(4.2, 6.0), g.uniform(3.2, 4.2); skin, sclera, iris = g.uniform(0.35, 0.7), g.uniform(0.75, 0.95), g.uniform(0.05, 0.3)
        kappa, gain, light = g.normal(0, 0.05, 2), g.uniform(0.85, 1.15), g.normal(0, 0.15, 2); glasses = g.random() < 0.3; tilt = g.normal(0, 0.08)
        for _ in range(per):
            head = g.normal(0, 0.18, 2); eye = np.clip(g.normal(0, 0.22, 2), -0.5, 0.5); gaze = head + eye + kappa
            cx, cy = 15 + g.normal(0, 0.8), 9 + g.normal(0, 0.6); aa = a * np.cos(head[1]) ** 0.5
            u, v = (xx - cx) * np.cos(tilt) + (yy - cy) * np.sin(tilt), -(xx - cx) * np.sin(tilt) + (yy - cy) * np.cos(tilt)
            lid = -b * (0.85 + 0.8 * eye[0]); low = b * 0.8
            opening = (np.abs(u) < aa) & (v > lid * (1 - (u / aa) ** 2)) & (v < low * (1 - (u / aa) ** 2))
            ix, iy = cx + gain * 9.0 * np.sin(eye[1]), cy - gain * 7.0 * np.sin(eye[0])
            d2 = (xx - ix) ** 2 + (yy - iy) ** 2
            img = skin * (1 + light[0] * (xx - 15) / 15 + light[1] * (yy - 9) / 9 + g.normal(0, 0.05)) - 0.12 * np.exp(-((v - lid - 2.5) ** 2) / 2) * (np.abs(u) < aa + 2)
            eyeimg = np.where(d2 < r ** 2, iris + 0.1 * np.sqrt(d2) / r, sclera) - 0.05 * (d2 < (0.45 * r) ** 2)
            img = np.where(opening, eyeimg * (1 + light[0] * (xx - 15) / 15), img)
            gx, gy = ix + g.normal(1.2, 0.4), iy - g.normal(1.2, 0.4); img += 0.35 * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / 0.6) * opening
            if glasses: img -= 0.2 * (np.abs(yy - (cy - b - 3.5)) < 0.8) + 0.15 * (np.abs(xx - 1) < 0.8)
            X[k, 0] = np.clip(img + g.normal(0, 0.03, img.shape), 0, 1); P[k], Y[k], who[k] = head, gaze, p; k += 1
    return X, P, Y, who

class GazeLeNet(nn.Module):  # Zhang et al.'s LeNet: conv 20, pool, conv 50, pool, fc 500 (here 128) ReLU, the head pose concatenated, a linear layer to (pitch, yaw)
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 20, 5), nn.Conv2d(20, 50, 5)
        self.fc1, self.fc2 = nn.Linear(50 * 1 * 4, 128), nn.Linear(128 + 2, 2)
    def forward(self, x, y):
        x = F.max_pool2d(self.conv1(x), 2, 2); x = F.max_pool2d(self.conv2(x), 2, 2)
        x = F.relu(self.fc1(x.flatten(1)))
        return self.fc2(torch.cat([x, y], 1))

def _gaze_fwd(model, b): images, poses, gazes = b; return model(images, poses), gazes  # hysts/pytorch_mpiigaze's train loop: outputs = model(images, poses)

@healthy('AK')
def gaze_lenet_mpiigaze(seed, random_split=False):  # MSE on (pitch, yaw), SGD 0.01 with Nesterov momentum 0.9 and weight decay 1e-4 (hysts' config), batches of 32; 12 participants train, 3 validate
    "groups declared: the participant. Split with GroupShuffleSplit (random_split: train_test_split of the images)."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, P, Y, who = _eyes(seed); idx = np.arange(len(Y))
    if random_split: tr, va = train_test_split(idx, test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(idx, groups=who))
    keys = {'train': list(who[tr]), 'valid': list(who[va])}
    task = ntrain.Task(model=GazeLeNet, train=TensorDataset(_t(X[tr]), _t(P[tr]), _t(Y[tr])), valid=TensorDataset(_t(X[va]), _t(P[va]), _t(Y[va])), loss=nn.MSELoss(),
                       forward=_gaze_fwd, groups=lambda split: keys[split])
    return dict(task=task, optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True, weight_decay=1e-4), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- end-to-end steering (NVIDIA's PilotNet, Bojarski et al. 2016) on simulator-style drives with three cameras
def _drives(seed, n_drives=8, frames=80, every=3, H=24, W=64):
    """Udacity-simulator-style recordings: each drive a stretch of winding road (its own curvature profile, grass, sky and
    light), the car at 10 m/s steered by a human who follows the curve and corrects the car's lateral offset and heading
    with a little lag and wobble. Each kept frame (every 0.3 s) rendered from the centre camera and from the left and right
    ones, 1 m to either side; as driving_log.csv: center, left and right images (RGB, 0-255) and the steering angle (-1 to 1,
    positive to the right)."""
    g = np.random.default_rng(1000 + seed * 2741); f, h, hor = 40.0, 1.5, 5; v, dt, kmax = 10.0, 0.1, 0.05
    rows = np.arange(hor + 1, H) + 0.5 - hor; z = (h * f / rows)[:, None]; cols = (np.arange(W) + 0.5 - W / 2)[None]
    out = []
    for k in range(n_drives):
        n = frames * every; knots = g.normal(0, 0.012, n // 40 + 3); c_road = np.interp(np.arange(n + 80), np.arange(len(knots)) * 40, knots)
        grass, sky, road, light = g.uniform([60, 110, 30], [110, 170, 80]), g.uniform([120, 150, 190], [200, 210, 250]), g.uniform(80, 140), g.uniform(0.75, 1.2)
        shade = g.random(n + 80) < 0.04; d, psi, noise, lag = g.normal(0, 0.5), 0.0, 0.0, 0.0; imgs, angles = [], []
        for t in range(n):
            noise = 0.9 * noise + g.normal(0, 0.03); want = (c_road[t] - 0.01 * d - 0.1 * psi) / kmax + noise; lag = 0.6 * lag + 0.4 * want; steer = float(np.clip(lag, -1, 1))
            psi += v * dt * (steer * kmax - c_road[t]); d += v * dt * psi + g.normal(0, 0.06)  # gusts and camber push the car sideways
            if t % every: continue
            cams = []
            for off in (0.0, -1.0, 1.0):  # centre, left, right
                s_ahead = np.clip(np.round(z[:, 0]).astype(int), 0, 79); cz = np.array([c_road[t:t + s + 1].mean() for s in s_ahead])[:, None]
                xr = cols * z / f - (-(d + off) - psi * z + 0.5 * cz * z ** 2); px = z / f
                on = np.clip((3.5 - np.abs(xr)) / px + 0.5, 0, 1); line = np.clip(1 - np.abs(np.abs(xr) - 3.3) / np.maximum(px, 0.15), 0, 1) * np.minimum(1, 0.3 / px)
                dash = (np.clip(1 - np.abs(xr) / np.maximum(px, 0.1), 0, 1) * np.minimum(1, 0.15 / px)) * ((np.floor(z / 3) % 2) == 0)
                sh = np.where(shade[np.clip(t + np.round(z).astype(int), 0, n + 79)], 0.55, 1.0)
                img = np.zeros((H, W, 3)); img[:hor + 1] = sky * np.linspace(0.8, 1.0, hor + 1)[:, None, None]
                ground = (1 - on)[..., None] * grass * (0.9 + 0.2 * g.random((H - hor - 1, W, 1))) + on[..., None] * road * (0.95 + 0.1 * g.random((H - hor - 1, W, 1)))
                ground = ground * (1 - line[..., None]) + line[..., None] * 235 + dash[..., None] * (np.array([230, 200, 40]) - ground) * on[..., None]
                img[hor + 1:] = ground * sh[..., None]; cams.append(np.clip(img * light, 0, 255).astype(np.float32).transpose(2, 0, 1))
            imgs.append(cams); angles.append(steer)
        out.append((np.array(imgs), np.array(angles, np.float32)))
    return out

class DrivingLog(Dataset):  # (image, angle) samples; training images flipped left-right half the time with the angle negated, as the Udacity projects' generator
    def __init__(self, images, angles, train=False): self.x, self.y, self.train = torch.tensor(images), torch.tensor(angles), train
    def __len__(self): return len(self.y)
    def __getitem__(self, i):
        x, y = self.x[i], self.y[i]
        if self.train and torch.rand(1).item() < 0.5: x, y = x.flip(-1), -y
        return x, y[None]

class PilotNet(nn.Module):  # PilotNet shrunk for 24 x 64 images: the Lambda normalisation, three strided/plain convolutions, dense 64, 32, 1; ELU as the Udacity ports
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 5, 2), nn.ELU(), nn.Conv2d(16, 24, 5, 2), nn.ELU(), nn.Conv2d(24, 32, 3), nn.ELU(), nn.Flatten(), nn.Dropout(0.3),
                                 nn.Linear(32 * 1 * 11, 64), nn.ELU(), nn.Linear(64, 32), nn.ELU(), nn.Linear(32, 1))
    def forward(self, x): return self.net(x / 127.5 - 1.0)

@healthy('AK')
def pilotnet_steering(seed, correction=0.2):  # MSE, Adam 1e-3, batches of 32; drives 1-6 train on all three cameras (1440 images), drives 7-8 validate on the centre camera (160)
    "The side cameras' angles corrected by +0.2 (left: steer right) and -0.2 (right), as the driving_log's center, left, right columns (correction -0.2: the two swapped)."
    drives = _drives(seed); tr, va = drives[:6], drives[6:]
    Xtr = np.concatenate([im[:, c] for im, _ in tr for c in range(3)]); ytr = np.concatenate([a + (0.0, correction, -correction)[c] for _, a in tr for c in range(3)])
    Xva, yva = np.concatenate([im[:, 0] for im, _ in va]), np.concatenate([a for _, a in va])
    return dict(model=PilotNet, train=DrivingLog(Xtr, ytr, train=True), valid=DrivingLog(Xva, yva), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- environmental sound classification (Piczak 2015's CNN on ESC-10-style clips, segment-level)
ESC10 = ['dog', 'rooster', 'rain', 'sea_waves', 'crackling_fire', 'crying_baby', 'sneezing', 'clock_tick', 'helicopter', 'chainsaw']

def _esc_clips(seed, per_class=24, B=20, T=216):
    """Five-second clips as 20 mel-band power spectrograms of 216 frames (23 ms hops), 24 a class of ESC-10's ten: barks,
    crowing, rain, surf, crackle, cries, sneezes, ticks, rotor blades and saws, from harmonic stacks, noise beds, impulses
    and their rhythms; each clip recorded by someone else (its own gain, room colouring of the bands, background and
    pitch). Five folds by clip, as ESC's."""
    g = np.random.default_rng(1000 + seed * 2749); bands = np.arange(B)[:, None]; t = np.arange(T)[None]
    def harm(f0, bw=0.7, tilt=0.25, n=6):  # a harmonic stack's band profile: harmonics k * f0 on a mel-like (log) axis
        return sum(np.exp(-(bands - np.log2((k + 1) * f0) * 4) ** 2 / (2 * bw ** 2)) * np.exp(-tilt * k) for k in range(n))
    def noise(centre, width): return np.exp(-(bands - centre) ** 2 / (2 * width ** 2))
    def events(n, length, jitter=True):
        env = np.zeros((1, T)); starts = np.sort(g.integers(0, T - length, n))
        for s in starts: L = int(length * (g.uniform(0.7, 1.3) if jitter else 1)); env[0, s:s + L] += np.exp(-np.arange(min(L, T - s)) / max(1, L / 3))
        return env
    X, y, clip = [], [], []
    for k, name in enumerate(ESC10):
        for c in range(per_class):
            f0 = g.uniform(0.75, 1.35); eq = np.interp(np.arange(B), np.linspace(0, B - 1, 6), g.normal(0, 0.5, 6))[:, None]
            bg = 10 ** g.uniform(-3, -1.5) * noise(g.uniform(0, 8), g.uniform(3, 8)) * (1 + 0.2 * g.random((B, T)))
            bg = bg + 10 ** g.uniform(-1.5, -0.3) * (harm(g.uniform(0.8, 3), 0.5, 0.5, 3) if g.random() < 0.5 else noise(g.uniform(0, 19), g.uniform(1, 3))) * (1 + 0.3 * np.sin(t / g.uniform(5, 40) + g.uniform(0, 6)))  # the recording's own hum, traffic or birds
            if name == 'dog': S = harm(1.6 * f0, 1.2) * events(g.integers(2, 7), 8) * 3 + noise(10, 4) * events(3, 5) * 0.3
            elif name == 'rooster': S = harm(2.0 * f0 * (1 + 0.15 * np.sin(np.pi * np.clip((t - 40) / 50, 0, 1))), 0.6) * events(g.integers(1, 3), 50, False) * 2
            elif name == 'rain': S = noise(14, 5) * (0.5 + 0.2 * g.random((B, T))) + noise(16, 3) * (g.random((1, T)) < 0.3) * g.random((1, T))
            elif name == 'sea_waves': S = noise(6, 6) * (0.3 + np.sin(np.pi * (t / g.uniform(60, 100) + g.random())) ** 4)
            elif name == 'crackling_fire': S = noise(12, 7) * (g.random((1, T)) < 0.12) * g.uniform(0.3, 2, (1, T)) + noise(3, 3) * 0.15
            elif name == 'crying_baby': S = harm(3.2 * f0 * (1 + 0.03 * np.sin(t / 2)), 0.5, 0.15) * events(g.integers(2, 4), 35) * 2
            elif name == 'sneezing': S = (noise(8, 6) * events(g.integers(1, 3), 10) * 3 + noise(5, 3) * events(1, 20) * 0.3)
            elif name == 'clock_tick':
                per = g.uniform(20, 24); S = noise(15, 4) * (((t + g.uniform(0, per)) % per) < 1.5) * 2 + noise(9, 3) * (((t + per / 2) % per) < 1) * 0.5
            elif name == 'helicopter':
                per = g.uniform(3, 5); S = noise(3, 3) * (0.4 + (((t + g.uniform(0, per)) % per) < 1.2)) * (0.6 + 0.4 * np.clip(t / T * g.uniform(0.5, 2), 0, 1))
            else: S = harm(2.4 * f0 * (1 + 0.1 * np.sin(t / g.uniform(10, 30))), 0.9, 0.1, 8) * (0.6 + 0.4 * (g.random() < 0.5)) * events(g.integers(1, 3), 90, False) * 1.5
            P = S * 10 ** (eq + g.normal(0, 0.3)) + bg
            X.append(10 * np.log10(P + 1e-6).astype(np.float32)); y.append(k); clip.append(len(clip))
    return np.array(X), np.array(y), np.array(clip)

def _segments(L, frames=41, hop=20):
    "Piczak's short segments: 41 frames with 50% overlap, the log-mel and its deltas as two channels; segments quieter than the clip's loudness less 25 dB dropped as silence."
    keep = []
    for s in range(0, L.shape[1] - frames + 1, hop):
        seg = L[:, s:s + frames]
        if seg.max() > L.max() - 25: keep.append(np.stack([seg, np.gradient(seg, axis=1)]))
    return keep

class PiczakCNN(nn.Module):  # Piczak's network shrunk: 24 filters of 15 x 6 over (bands, frames), max pooling 3 x 3 with stride 1 x 3, 24 filters of 1 x 3, pooling 1 x 3, two dense layers of 128 with dropout 0.5
    def __init__(self, n=len(ESC10)):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(2, 24, (15, 6)), nn.ReLU(), nn.MaxPool2d((3, 3), (1, 3)), nn.Conv2d(24, 24, (1, 3)), nn.ReLU(), nn.MaxPool2d((1, 3), (1, 3)))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(24 * 4 * 3, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, n))
    def forward(self, x): return self.classifier(self.features(x))

@healthy('AK')
def esc_piczak_segments(seed, split_segments=False):  # cross-entropy, SGD 0.01 with Nesterov momentum 0.9 and L2 1e-3 (Piczak's), batches of 64; fold 5's clips validate
    "Segments of the clips in folds 1-4 train, of fold 5 validate (split_segments: every clip's segments pooled first, then train_test_split of the segments); standardised by the training segments' band means and deviations."
    from sklearn.model_selection import train_test_split
    X, y, clip = _esc_clips(seed); fold = np.empty(len(y), int)
    for k in range(len(ESC10)): fold[y == k] = np.random.default_rng(seed + k).permutation(np.arange(np.sum(y == k)) % 5)
    segs = [(s, y[i], fold[i]) for i in range(len(y)) for s in _segments(X[i])]
    S, Y, Fd = np.array([s for s, _, _ in segs]), np.array([k for _, k, _ in segs]), np.array([f for *_, f in segs])
    if split_segments: tr, va = train_test_split(np.arange(len(Y)), test_size=0.2, stratify=Y, random_state=seed)
    else: tr, va = np.where(Fd != 4)[0], np.where(Fd == 4)[0]
    m, s = S[tr].mean((0, 3), keepdims=True), S[tr].std((0, 3), keepdims=True); S = (S - m) / s
    return dict(model=PiczakCNN, train=TensorDataset(_t(S[tr]), torch.tensor(Y[tr])), valid=TensorDataset(_t(S[va]), torch.tensor(Y[va])), loss=nn.CrossEntropyLoss(),
                num_classes=len(ESC10), optimizer=lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True, weight_decay=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- superconductors' critical temperature (Hamidieh 2018, the UCI Superconductivity data): an MLP in raw kelvin
ELEMENTS = ('H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I '
            'Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn').split()  # unique_m.csv's 86 columns
PROPERTIES = ['atomic_mass', 'fie', 'atomic_radius', 'Density', 'ElectronAffinity', 'FusionHeat', 'ThermalConductivity', 'Valence']
_PROP = {  # mass (u), first ionisation energy (kJ/mol), radius (pm), density (kg/m^3), electron affinity (kJ/mol), heat of fusion (kJ/mol), thermal conductivity (W/m K), valence
    'H': (1.008, 1312, 53, 0.09, 72.8, 0.117, 0.18, 1), 'Li': (6.94, 520, 167, 534, 59.6, 3.0, 85, 1), 'B': (10.81, 801, 87, 2340, 26.7, 50.2, 27, 3),
    'C': (12.01, 1086, 67, 2267, 121.8, 117, 140, 4), 'N': (14.01, 1402, 56, 1.25, 0.07, 0.36, 0.026, 5), 'O': (16.0, 1314, 48, 1.43, 141, 0.22, 0.027, 2),
    'F': (19.0, 1681, 42, 1.7, 328, 0.26, 0.028, 1), 'Mg': (24.31, 738, 145, 1738, 0.1, 8.48, 156, 2), 'Al': (26.98, 578, 118, 2700, 42.5, 10.7, 237, 3),
    'Si': (28.09, 787, 111, 2330, 133.6, 50.2, 149, 4), 'Ca': (40.08, 590, 194, 1550, 2.37, 8.54, 201, 2), 'Ti': (47.87, 659, 176, 4507, 7.6, 14.15, 22, 4),
    'V': (50.94, 651, 171, 6110, 50.6, 21.5, 31, 5), 'Fe': (55.85, 763, 156, 7874, 15.7, 13.8, 80, 2), 'Co': (58.93, 760, 152, 8900, 63.7, 16.2, 100, 3),
    'Ni': (58.69, 737, 149, 8908, 112, 17.5, 91, 2), 'Cu': (63.55, 745, 145, 8960, 118.4, 13.1, 401, 2), 'Zn': (65.38, 906, 142, 7140, 0.1, 7.35, 116, 2),
    'Ga': (69.72, 579, 136, 5904, 28.9, 5.59, 29, 3), 'Ge': (72.63, 762, 125, 5323, 119, 36.9, 60, 4), 'As': (74.92, 947, 114, 5727, 78, 24.4, 50, 5),
    'Se': (78.97, 941, 103, 4819, 195, 6.69, 0.52, 6), 'Sr': (87.62, 549, 219, 2630, 5.0, 7.43, 35, 2), 'Y': (88.91, 600, 212, 4472, 29.6, 11.4, 17, 3),
    'Zr': (91.22, 640, 206, 6511, 41.1, 21.0, 23, 4), 'Nb': (92.91, 652, 198, 8570, 86.1, 30, 54, 5), 'Mo': (95.95, 684, 190, 10280, 71.9, 37.5, 139, 6),
    'Pd': (106.4, 804, 169, 12023, 53.7, 16.7, 72, 2), 'In': (114.8, 558, 156, 7310, 28.9, 3.26, 82, 3), 'Sn': (118.7, 709, 145, 7310, 107.3, 7.0, 67, 4),
    'Sb': (121.8, 834, 133, 6697, 103.2, 19.8, 24, 5), 'Te': (127.6, 869, 123, 6240, 190.2, 17.5, 3, 6), 'Ba': (137.3, 503, 253, 3510, 13.95, 7.12, 18, 2),
    'La': (138.9, 538, 226, 6146, 48, 6.2, 13, 3), 'Ce': (140.1, 534, 210, 6689, 50, 5.5, 11, 3), 'Pr': (140.9, 527, 247, 6640, 50, 6.9, 13, 3),
    'Nd': (144.2, 533, 206, 7010, 50, 7.1, 17, 3), 'Sm': (150.4, 545, 238, 7353, 50, 8.6, 13, 3), 'Gd': (157.3, 593, 233, 7901, 50, 10.0, 11, 3),
    'Hg': (200.6, 1007, 171, 13534, 0.1, 2.29, 8.3, 2), 'Tl': (204.4, 589, 156, 11850, 19.2, 4.14, 46, 3), 'Pb': (207.2, 716, 154, 11340, 35.1, 4.77, 35, 4),
    'Bi': (209.0, 703, 143, 9780, 91.2, 11.3, 8, 5)}

def _formula(d): return ''.join(f'{e}{(round(v, 3) if v != int(v) else int(v))}' for e, v in d.items() if v > 0)

def _superconductors(seed, n=2000):
    """Materials as the UCI data's mix: cuprates (123s with their oxygen doping dome and rare-earth, Zn and Pr substitutions,
    LSCO, Bi-, Tl- and Hg-based families with one to three CuO2 layers), iron pnictides and chalcogenides, conventional
    A15s, nitrides, MgB2 and elements with dopants, and a tail of low-Tc compounds; Tc in kelvin with the scatter of
    different samples and measurements."""
    g = np.random.default_rng(1000 + seed * 2753); out = []
    REs = ['Y', 'Nd', 'Sm', 'Gd', 'La']; low_pool = ['Al', 'Ti', 'V', 'Zr', 'Nb', 'Mo', 'Pd', 'In', 'Sn', 'Sb', 'Te', 'Ge', 'Si', 'Ga', 'Ni', 'Co', 'La', 'Ce', 'B', 'C', 'Pb', 'Bi']
    dome = lambda p, tmax: tmax * max(0.0, 1 - 82.6 * (p - 0.16) ** 2)
    for _ in range(n):
        fam = g.choice(['123', 'lsco', 'bi', 'tl', 'hg', 'fe', 'a15', 'mgb2', 'low'], p=[0.2, 0.1, 0.1, 0.06, 0.04, 0.12, 0.12, 0.06, 0.2])
        if fam == '123':
            re, x = REs[int(g.integers(5))], g.uniform(6.2, 7.0); zn, pr = (g.uniform(0, 0.1) if g.random() < 0.2 else 0), (g.uniform(0, 0.6) if g.random() < 0.1 else 0)
            d = {re: 1 - pr, 'Pr': pr, 'Ba': 2, 'Cu': 3 - zn, 'Zn': zn, 'O': x}; tc = dome(0.05 + 0.13 * (x - 6.35) / 0.6, 93) * (1 - 9 * zn) * (1 - 1.6 * pr)
        elif fam == 'lsco':
            x = g.uniform(0.03, 0.3); d = {'La': 2 - x, 'Sr': x, 'Cu': 1, 'O': 4}; tc = dome(x, 39)
        elif fam in ('bi', 'tl', 'hg'):
            nl = int(g.integers(1, 4)); p, dox = g.uniform(0.06, 0.26), g.uniform(0, 0.3); A = {'bi': 'Bi', 'tl': 'Tl', 'hg': 'Hg'}[fam]; k = 1 if fam == 'hg' else 2
            d = {A: k, ('Sr' if fam == 'bi' else 'Ba'): 2, 'Ca': nl - 1, 'Cu': nl, 'O': 2 * nl + (2 if fam == 'hg' else 4) + dox}; tmax = {'bi': (34, 90, 110), 'tl': (90, 110, 125), 'hg': (97, 128, 135)}[fam][nl - 1]
            tc = dome(p, tmax); d['O'] += (p - 0.16) * 0.5
        elif fam == 'fe':
            kind = g.choice(['1111', '122', '11'])
            if kind == '1111': re, x = ['La', 'Ce', 'Sm', 'Nd', 'Pr'][int(g.integers(5))], g.uniform(0, 0.25); d = {re: 1, 'Fe': 1, 'As': 1, 'O': 1 - x, 'F': x}; tc = {'La': 28, 'Ce': 41, 'Sm': 55, 'Nd': 52, 'Pr': 52}[re] * max(0, 1 - ((x - 0.12) / 0.1) ** 2)
            elif kind == '122': x = g.uniform(0, 0.2); d = {'Ba': 1, 'Fe': 2 - x, 'Co': x, 'As': 2}; tc = 24 * max(0, 1 - ((x - 0.07) / 0.06) ** 2)
            else: x = g.uniform(0, 0.7); d = {'Fe': 1, 'Se': 1 - x, 'Te': x}; tc = 8 + 20 * x * (1 - x)
        elif fam == 'a15':
            A, B_ = ['Nb', 'V', 'Nb', 'V', 'Mo', 'Nb'][int(g.integers(6))], ['Sn', 'Si', 'Ge', 'Ga', 'Al', 'Ge'][int(g.integers(6))]; dev = g.uniform(0, 0.08)
            d = {A: 3 - 4 * dev, B_: 1 + 4 * dev}; tc = {('Nb', 'Sn'): 18, ('V', 'Si'): 17, ('Nb', 'Ge'): 23, ('V', 'Ga'): 15, ('Mo', 'Al'): 0.6, ('Nb', 'Al'): 18.7}.get((A, B_), 10) * (1 - 5 * dev)
        elif fam == 'mgb2':
            dop, x = ['C', 'Al', 'Li'][int(g.integers(3))], g.uniform(0, 0.2); d = {'Mg': 1 - (x if dop != 'C' else 0), dop: x, 'B': 2 - (x if dop == 'C' else 0)}; tc = 39 * (1 - 2.5 * x)
        else:
            els = g.choice(low_pool, int(g.integers(1, 4)), replace=False); d = {e: float(g.integers(1, 6)) for e in els}; tc = float(np.exp(g.normal(0.5, 1.1)))
        tc = max(0.0, tc * g.normal(1, 0.06) + g.normal(0, 1.5)) if tc > 0 else float(np.exp(g.normal(-1, 0.8)))
        out.append(({e: v for e, v in d.items() if v > 1e-9}, round(tc, 2)))
    return out

def _superconduct_files(seed):
    """train.csv (number_of_elements, ten statistics of each of eight elemental properties, critical_temp) and unique_m.csv (the
    86 elements' amounts, critical_temp, material), row for row the same materials, as the UCI archive ships them."""
    rows_t, rows_u = [], []
    for d, tc in _superconductors(seed):
        els = list(d); p = np.array([d[e] for e in els]); p = p / p.sum(); r = [len(els)]
        for j in range(len(PROPERTIES)):
            t = np.array([_PROP[e][j] for e in els], float); w = t / t.sum(); A = p * t / (p * t).sum(); lt = np.log(np.maximum(t, 1e-6)); wm = (p * t).sum()
            r += [t.mean(), wm, np.exp(lt.mean()), np.exp((p * lt).sum()), -(w * np.log(np.maximum(w, 1e-12))).sum(), -(A * np.log(np.maximum(A, 1e-12))).sum(),
                  t.max() - t.min(), (p * t).max() - (p * t).min(), t.std(), np.sqrt((p * (t - wm) ** 2).sum())]
        rows_t.append(r + [tc]); rows_u.append([d.get(e, 0) for e in ELEMENTS] + [tc, _formula(d)])
    head_t = ['number_of_elements'] + [f'{s}_{q}' for q in PROPERTIES for s in ('mean', 'wtd_mean', 'gmean', 'wtd_gmean', 'entropy', 'wtd_entropy', 'range', 'wtd_range', 'std', 'wtd_std')] + ['critical_temp']
    fmt = lambda v: v if isinstance(v, str) else repr(round(float(v), 6))
    return {'train.csv': '\n'.join([','.join(head_t)] + [','.join(map(fmt, r)) for r in rows_t]), 'unique_m.csv': '\n'.join([','.join(ELEMENTS + ['critical_temp', 'material'])] + [','.join(map(fmt, r)) for r in rows_u])}

def read_csv(text):
    "A CSV as a dict of columns (pandas' read_csv for a machine without pandas): numbers as float arrays, text as lists."
    import csv, io
    rows = list(csv.reader(io.StringIO(text))); head, body = rows[0], rows[1:]; cols = {}
    for j, h in enumerate(head):
        vals = [r[j] for r in body]
        try: cols[h] = np.array([float(v) for v in vals])
        except ValueError: cols[h] = vals
    return cols

class TcMLP(nn.Module):
    def __init__(self, d=167):
        super().__init__(); self.net = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))
    def forward(self, x): return self.net(x)

@healthy('AK')
def superconductor_tc_mlp(seed, drop=('critical_temp', 'material')):  # MSE in kelvin^2, Adam 1e-3, batches of 64; train_test_split 80/20 (1600/400); StandardScaler fitted on the training rows
    "The 81 features of train.csv and the 86 element amounts of unique_m.csv side by side (drop: the columns of unique_m.csv left out; ('material',): its critical_temp kept)."
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler
    files = _superconduct_files(seed); train, um = read_csv(files['train.csv']), read_csv(files['unique_m.csv'])
    X = np.column_stack([v for c, v in train.items() if c != 'critical_temp'] + [v for c, v in um.items() if c not in drop]).astype(np.float32); y = train['critical_temp'].astype(np.float32)
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, random_state=seed); sc = StandardScaler().fit(X[tr])
    return dict(model=lambda: TcMLP(X.shape[1]), train=TensorDataset(_t(sc.transform(X[tr])), _t(y[tr])[:, None]), valid=TensorDataset(_t(sc.transform(X[va])), _t(y[va])[:, None]),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- a learned dynamics model for model-based RL (Nagabandi et al. 2018) of a cart-pole from random-action rollouts
class CartPole:
    "A cart-pole as dm_control's swing-up: the pole free to turn all the way round; observations (x, cos theta, sin theta, x', theta'), a force of 10 N times the action in [-1, 1]; 50 ms steps of five Euler substeps."
    def __init__(self, g): self.g = g
    def reset(self):
        g = self.g; self.s = np.array([g.normal(0, 0.5), g.uniform(-np.pi, np.pi), g.normal(0, 0.5), g.normal(0, 0.8)]); return self.obs()
    def obs(self): x, th, xd, thd = self.s; return np.array([x, np.cos(th), np.sin(th), xd, thd], np.float32)
    def step(self, a):
        mc, mp, l, grav = 1.0, 0.1, 0.5, 9.81; F_ = 10.0 * float(np.clip(a, -1, 1)[0])
        for _ in range(5):
            x, th, xd, thd = self.s; s_, c_ = np.sin(th), np.cos(th); tmp = (F_ + mp * l * thd ** 2 * s_ - 0.1 * xd) / (mc + mp)
            thdd = (grav * s_ - c_ * tmp - 0.02 * thd) / (l * (4 / 3 - mp * c_ ** 2 / (mc + mp))); xdd = tmp - mp * l * thdd * c_ / (mc + mp)
            self.s = self.s + 0.01 * np.array([xd, thd, xdd, thdd])
        return self.obs()

def _rollouts(seed, n=40, T=50, obs_after_step=False):
    """Random-action rollouts as Nagabandi et al.'s D_rand: an action drawn uniformly each step. The observation list the
    state each action was taken in (obs_after_step: the logger appends what env.step returns, so the reset observation is
    never logged and each observation is the state after its action)."""
    g = np.random.default_rng(1000 + seed * 2767); env = CartPole(g); out = []
    for _ in range(n):
        o = env.reset(); O, A_ = ([] if obs_after_step else [o]), []
        for t in range(T):
            a = g.uniform(-1, 1, 1).astype(np.float32); o = env.step(a); O.append(o); A_.append(a)
        out.append((np.array(O), np.array(A_)))
    return out

class Transitions(Dataset):  # dict items as the authors' data: the normalised observation and action, and the normalised change of observation
    def __init__(self, obs, act, delta): self.o, self.a, self.d = obs, act, delta
    def __len__(self): return len(self.o)
    def __getitem__(self, i): return {'obs': self.o[i], 'act': self.a[i], 'delta': self.d[i]}

class DynamicsModel(nn.Module):  # f(s, a) -> the normalised s_{t+1} - s_t; two hidden ReLU layers (500 in the paper, 128 here)
    def __init__(self, ds=5, da=1, h=128):
        super().__init__(); self.net = nn.Sequential(nn.Linear(ds + da, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, ds))
    def forward(self, obs, act): return self.net(torch.cat([obs, act], -1))

def _dyn_fwd(model, b): return model(b['obs'], b['act']), b['delta']

@healthy('AK')
def mpc_dynamics_cartpole(seed, obs_after_step=False):  # MSE on the normalised state differences, Adam 1e-3, batches of 64; 32 rollouts of 50 steps train (1600), 8 validate (400)
    "Observations, actions and differences normalised by the training rollouts' means and deviations, as the paper's; pairs (o_t, a_t, o_{t+1} - o_t) from each rollout's lists."
    R = _rollouts(seed, obs_after_step=obs_after_step)
    def pairs(rs):
        if obs_after_step: return (np.concatenate([O[:-1] for O, A_ in rs]), np.concatenate([A_[:-1] for O, A_ in rs]), np.concatenate([O[1:] - O[:-1] for O, A_ in rs]))
        return np.concatenate([O[:-1] for O, _ in rs]), np.concatenate([A_ for _, A_ in rs]), np.concatenate([O[1:] - O[:-1] for O, _ in rs])
    (o, a, d), (vo, va, vd) = pairs(R[:32]), pairs(R[32:]); m = [(x.mean(0), x.std(0) + 1e-8) for x in (o, a, d)]
    nz = lambda x, k: _t((x - m[k][0]) / m[k][1])
    return dict(model=DynamicsModel, train=Transitions(nz(o, 0), nz(a, 1), nz(d, 2)), valid=Transitions(nz(vo, 0), nz(va, 1), nz(vd, 2)), forward=_dyn_fwd, loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- cuffless blood pressure from PPG and ECG (the UCI Cuff-Less Blood Pressure Estimation records, Kachuee et al. 2017): a 1-D CNN
def _bp_records(seed, n_patients=50, per=40, fs=125, L=256):
    """Windows of about 2 s (256 samples at 125 Hz, cut every 128 samples as the preprocessing scripts' sliding windows)
    from 50 ICU patients' continuous records, 40 a patient: the fingertip PPG and ECG lead II, and the systolic and diastolic
    pressures of the arterial line over the window in mmHg. Beat by beat the pressure drifts; the pulse reaches the finger
    a pulse-arrival time after the R peak that shortens as the pressure rises, the reflected wave rides higher on stiffer
    arteries and higher pressure; each patient a baseline pressure, a diastolic offset, a heart rate, a pulse shape and ECG
    morphology of their own."""
    g = np.random.default_rng(1000 + seed * 2777); X, Y, who = [], [], []; N = (per + 1) * L // 2; t = np.arange(N) / fs
    for p in range(n_patients):
        base, dia_off, hr0 = g.normal(125, 16), g.normal(8, 6), g.uniform(60, 100); pat0, pat_gain, stiff = g.normal(0.26, 0.01), g.uniform(0.85, 1.15) * 1.6e-3, g.uniform(0.3, 1.0)
        rise, decay, notch, r_amp, t_amp, qrs_w = g.uniform(0.09, 0.13), g.uniform(0.3, 0.4), g.uniform(0.15, 0.3), g.uniform(0.9, 1.3), g.uniform(0.2, 0.4), g.uniform(0.009, 0.013)
        ecg, ppg, beats, sb, db = np.zeros(N), np.zeros(N), [], [], []; b, drift = -0.5, 0.0
        while b < N / fs + 1:
            drift = 0.97 * drift + g.normal(0, 1.6); sbp = base + drift + g.normal(0, 2); dbp = 0.5 * sbp + dia_off + g.normal(0, 2); pat = pat0 - pat_gain * (sbp - 120) + g.normal(0, 0.003)
            ecg += r_amp * np.exp(-(t - b) ** 2 / (2 * qrs_w ** 2)) - 0.15 * np.exp(-(t - b - 0.03) ** 2 / (2 * 0.01 ** 2)) + 0.12 * np.exp(-(t - b + 0.16) ** 2 / (2 * 0.02 ** 2)) + t_amp * np.exp(-(t - b - 0.3) ** 2 / (2 * 0.045 ** 2))
            u = t - b - pat; refl = 0.25 + 0.2 * stiff + 0.006 * (sbp - 120)
            ppg += np.where(u > 0, (1 - np.exp(-u / rise * 3)) * np.exp(-u / decay), 0) + refl * np.exp(-(u - (0.32 - 0.15 * stiff - 0.0006 * (sbp - 120))) ** 2 / (2 * 0.05 ** 2)) - notch * 0.1 * np.exp(-(u - 0.25) ** 2 / (2 * 0.02 ** 2))
            beats.append(b); sb.append(sbp); db.append(dbp); b += 60 / (hr0 + 0.15 * (sbp - base) + g.normal(0, 2))
        ppg += 0.2 * np.sin(2 * np.pi * 0.25 * t + g.uniform(0, 6)) + g.normal(0, 0.02, N); ecg += 0.1 * np.sin(2 * np.pi * 0.3 * t + g.uniform(0, 6)) + g.normal(0, 0.03, N)
        beats, sb, db = np.array(beats), np.array(sb), np.array(db)
        for w in range(per):
            s0 = w * L // 2; inside = (beats >= t[s0]) & (beats < t[s0 + L - 1])
            X.append(np.stack([ppg[s0:s0 + L], ecg[s0:s0 + L]])); Y.append([sb[inside].max(), db[inside].min()]); who.append(p)
    return np.array(X, np.float32), np.array(Y, np.float32), np.array(who)

class BPNet(nn.Module):  # four convolution-batch norm-ReLU blocks over the two signals, global average pooling, dense 32, (SBP, DBP)
    def __init__(self):
        super().__init__()
        blk = lambda i, o, k: [nn.Conv1d(i, o, k, padding=k // 2), nn.BatchNorm1d(o), nn.ReLU()]
        self.features = nn.Sequential(*blk(2, 16, 9), nn.MaxPool1d(2), *blk(16, 32, 7), nn.MaxPool1d(2), *blk(32, 32, 5), nn.MaxPool1d(2), *blk(32, 32, 5), nn.AdaptiveAvgPool1d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 2))
    def forward(self, x): return self.head(self.features(x))

@healthy('AK')
def cuffless_bp_cnn(seed, split_windows=False):  # MSE on the standardised (SBP, DBP), Adam 1e-3, batches of 32; 32 patients train, 8 validate (about 1600/400 windows)
    "Each window's PPG and ECG z-scored on their own; the pressures standardised by the training windows'. GroupShuffleSplit by patient (split_windows: train_test_split of the windows)."
    from sklearn.model_selection import GroupShuffleSplit, train_test_split
    X, Y, who = _bp_records(seed); X = (X - X.mean(2, keepdims=True)) / X.std(2, keepdims=True); idx = np.arange(len(Y))
    if split_windows: tr, va = train_test_split(idx, test_size=0.2, random_state=seed)
    else: tr, va = next(GroupShuffleSplit(n_splits=1, test_size=0.2, random_state=seed).split(idx, groups=who))
    m, s = Y[tr].mean(0), Y[tr].std(0)
    return dict(model=BPNet, train=TensorDataset(_t(X[tr]), _t((Y[tr] - m) / s)), valid=TensorDataset(_t(X[va]), _t((Y[va] - m) / s)), loss=nn.MSELoss(),
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- blind reverberation time estimation (Gamper and Tashev 2018): a CNN from reverberant speech's spectrogram to T60 in seconds
def _reverberant(seed, n=2000, B=16, T=64, hop=0.032):
    """Two seconds of speech (syllables with their own formants, onsets, gaps and pauses) as 16 mel bands x 64 frames of
    32 ms, reverberated by a room: each band's energy decays 60 dB in that band's T60 (longer in the low bands) after the
    direct sound, at a direct-to-reverberant ratio set by the talker's distance, over a coloured noise floor 20-40 dB down.
    The label: the room's broadband T60 in seconds (0.2-1.4 s, as ACE's and the simulated rooms' range), as a (1,) array."""
    g = np.random.default_rng(1000 + seed * 2789); X, Y = np.zeros((n, 1, B, T), np.float32), np.zeros((n, 1), np.float32); bands = np.arange(B)[:, None]
    for i in range(n):
        E = np.zeros((B, T)); t = int(g.integers(0, 6))
        while t < T:
            L = int(g.integers(3, 11)); f1, f2 = g.uniform(2, 7), g.uniform(7, 13); env = np.exp(-(bands - f1) ** 2 / 4) + 0.6 * np.exp(-(bands - f2) ** 2 / 3) + 0.05
            ramp = np.minimum(1, np.minimum(np.arange(1, L + 1) / 2, (L - np.arange(L)) / 1.5)); E[:, t:t + L] += (env * ramp[None] * 10 ** g.normal(0, 0.3))[:, :T - t]
            t += L + int(g.integers(1, 6) if g.random() < 0.8 else g.integers(8, 20))
        t60 = g.uniform(0.2, 1.4); t60b = t60 * np.linspace(1.25, 0.8, B) * np.exp(g.normal(0, 0.05, B)); a = 10 ** (-6 * hop / t60b); drr = 10 ** g.uniform(-0.5, 0.7)
        r = np.zeros(B); R = np.zeros((B, T))
        for k in range(T): r = a * r + E[:, k]; R[:, k] = r - E[:, k]
        P = E + R / drr + E.mean() * 10 ** (-g.uniform(2, 4)) * np.exp(-(bands[:, 0] - g.uniform(0, 15)) ** 2 / 40)[:, None] * (1 + 0.3 * g.random((B, T)))
        X[i, 0] = 10 * np.log10(P); Y[i, 0] = t60
    return X, Y

class T60Net(nn.Module):  # Gamper and Tashev's CNN shrunk: convolutions along time, then time and frequency, max pooling, dropout before the dense output
    def __init__(self, functional_dropout_training=None):
        super().__init__(); self.fdt = functional_dropout_training
        self.conv = nn.Sequential(nn.Conv2d(1, 8, (1, 5)), nn.ReLU(), nn.MaxPool2d((1, 2)), nn.Conv2d(8, 16, (1, 5)), nn.ReLU(), nn.MaxPool2d((1, 2)),
                                  nn.Conv2d(16, 16, (3, 3)), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(16 * 7 * 5, 1)
    def forward(self, x):
        x = self.conv(x).flatten(1)
        x = F.dropout(x, 0.3) if self.fdt else F.dropout(x, 0.3, self.training)  # functional_dropout_training: F.dropout's training=True default left in
        return self.fc(x)

@healthy('AK')
def rt60_blind_cnn(seed, functional_dropout_training=False):  # MSE in seconds^2, Adam 1e-3, batches of 32; 1600 utterances train, 400 validate; the log spectrograms standardised by the training mean and sd
    X, Y = _reverberant(seed); m, s = X[:1600].mean(), X[:1600].std(); X = (X - m) / s
    return dict(model=lambda: T60Net(functional_dropout_training), train=TensorDataset(_t(X[:1600]), _t(Y[:1600])), valid=TensorDataset(_t(X[1600:]), _t(Y[1600:])),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- anomalous machine sound detection (the DCASE 2020 task 2 baseline, Koizumi et al.): a dense autoencoder of stacked log-mel frames
def _machine_frames(seed, n_clips=100, per=20, B=32, T=64, ctx=5, anomalous=False):
    """Log-mel frames (32 bands, dB) of a fan's normal running, 100 clips of four machine IDs: each ID its blade-pass
    harmonics, motor hum and airflow noise; each clip its own speed (the harmonics move a little), load and factory
    background; the blades beat every few frames. Five consecutive frames concatenated into a 160-d vector, as the
    baseline's, 20 vectors a clip. anomalous: the same machines with a damaged bearing (a whine and knocks) or an unbalanced
    rotor (the harmonics swing), for the detection check."""
    g = np.random.default_rng(1000 + seed * 2791 + (7 if anomalous else 0)); bands = np.arange(B)[:, None]; ids = [(g.uniform(2.0, 3.0), g.uniform(0.6, 1.2), g.uniform(8, 20), g.uniform(2.5, 5)) for _ in range(4)]
    V, clip = [], []
    for c in range(n_clips):
        f0, hum, air, beat = ids[c % 4]; f = f0 * g.uniform(0.96, 1.04); load = g.normal(0, 0.1); t = np.arange(T)[None]
        harm = sum(np.exp(-(bands - 6 * np.log2(k * f)) ** 2 / 0.8) * 0.8 ** k for k in range(1, 6)) * (1 + 0.25 * np.sin(2 * np.pi * t / beat + g.uniform(0, 6)))
        P = 10 ** (1 + load) * harm + hum * np.exp(-(bands - 1) ** 2 / 2) + 0.3 * np.exp(-(bands - air) ** 2 / 60) * (1 + 0.3 * g.random((B, T))) + 10 ** g.uniform(-2, -1) * (1 + g.random((B, T)))
        if anomalous:
            if g.random() < 0.5: P = P + 10 ** g.uniform(-0.5, 0.3) * np.exp(-(bands - g.uniform(20, 30)) ** 2 / 1.5) * (1 + (g.random((1, T)) < 0.15) * 3)
            else: P = P * (1 + 0.8 * np.sin(2 * np.pi * t / g.uniform(6, 12)) * np.exp(-(bands - 6 * np.log2(f)) ** 2 / 8))
        L = 10 * np.log10(P)
        for s in g.choice(T - ctx + 1, per, replace=False): V.append(L[:, s:s + ctx].T.reshape(-1)); clip.append(c)
    return np.array(V, np.float32), np.array(clip)

class DenseAE(nn.Module):  # the baseline's autoencoder shrunk: Dense-BN-ReLU of 64 three times, a bottleneck of 8, three of 64, a linear output of 160
    def __init__(self, d=160, h=64, z=8):
        super().__init__()
        blk = lambda i, o: [nn.Linear(i, o), nn.BatchNorm1d(o), nn.ReLU()]
        self.net = nn.Sequential(*blk(d, h), *blk(h, h), *blk(h, h), *blk(h, z), *blk(z, h), *blk(h, h), *blk(h, h), nn.Linear(h, d))
    def forward(self, x): return self.net(x)

def dcase_ae_step(model, batch, opt, zero_grad_first=True):
    "keras' model.fit(x, x) as a step: the mean squared reconstruction error of the batch (zero_grad_first False: zero_grad() moved below backward())."
    x, _ = batch
    loss = F.mse_loss(model(x), x)
    if zero_grad_first: opt.zero_grad(); loss.backward()
    else: loss.backward(); opt.zero_grad()
    opt.step(); return loss

@healthy('AK')
def dcase_machine_autoencoder(seed, step=dcase_ae_step):  # MSE reconstruction, Adam 1e-3, batches of 64; 80 normal clips train (1600 vectors), 20 validate (400); standardised by the training vectors
    V, clip = _machine_frames(seed); tr, va = clip < 80, clip >= 80; m, s = V[tr].mean(0), V[tr].std(0); V = _t((V - m) / s)
    return dict(model=DenseAE, train=TensorDataset(V[tr], V[tr]), valid=TensorDataset(V[va], V[va]), loss=nn.MSELoss(), step=step,
                optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- skeleton-based action recognition with a spatial-temporal graph convolutional network (ST-GCN, Yan, Xiong and Lin 2018)
JOINTS = ['head', 'neck', 'spine', 'l_shoulder', 'l_elbow', 'l_hand', 'r_shoulder', 'r_elbow', 'r_hand', 'l_hip', 'l_knee', 'l_foot', 'r_hip', 'r_knee', 'r_foot']
BONES = [(0, 1), (1, 2), (1, 3), (3, 4), (4, 5), (1, 6), (6, 7), (7, 8), (2, 9), (9, 10), (10, 11), (2, 12), (12, 13), (13, 14)]
ACTIONS = ['hand waving', 'clapping', 'kicking', 'punching', 'bowing', 'sitting down', 'jumping up', 'raising both hands']  # A001-A008

def _skeleton_files(seed, n_subjects=16, reps=4, T=24):
    """Kinect-style skeletons (15 joints, metres in the camera's frame) of 16 performers doing eight actions four times,
    each seen by three cameras (NTU RGB+D's -45, 0 and +45 degrees), named as NTU's SsssCcccPpppRrrrAaaa.skeleton; each
    performer a height, build, position and pace, each take its own amplitude, timing and Kinect jitter. A dict of file
    name -> (3, T, 15) array."""
    g = np.random.default_rng(1000 + seed * 2797)
    rest = np.array([[0, 1.65, 0], [0, 1.45, 0], [0, 1.1, 0], [-0.2, 1.42, 0], [-0.25, 1.15, 0], [-0.27, 0.9, 0], [0.2, 1.42, 0], [0.25, 1.15, 0], [0.27, 0.9, 0],
                     [-0.1, 0.95, 0], [-0.1, 0.5, 0], [-0.1, 0.05, 0], [0.1, 0.95, 0], [0.1, 0.5, 0], [0.1, 0.05, 0]])
    bell = lambda tau, c=0.5, w=0.18: np.exp(-(tau - c) ** 2 / (2 * w ** 2))
    files = {}
    for p in range(n_subjects):
        size, width, pace, pos = g.uniform(0.85, 1.15), g.uniform(0.9, 1.15), g.uniform(0.8, 1.25), np.array([g.normal(0, 0.4), 0, g.uniform(2.5, 3.5)])
        for a in range(len(ACTIONS)):
            for r in range(reps):
                tau = (np.clip(np.linspace(0, 1, T) - g.uniform(-0.08, 0.08), 0, 1) ** pace)[:, None]; amp = g.uniform(0.45, 1.3); J = np.repeat(rest[None] * [width, 1, 1], T, 0) + g.normal(0, 0.05, (1, 15, 3)) * [1, 0.5, 1]
                if a == 0:
                    up = np.clip(tau * 4, 0, 1); J[:, 7] += up * [0.15, 0.35, 0.05]
                    J[:, 8] = J[:, 7] + up * np.concatenate([0.05 + amp * 0.12 * np.sin(2 * np.pi * 3 * tau), 0.3 + 0 * tau, 0 * tau], 1) + (1 - up) * (rest[8] - rest[7])
                elif a == 1:
                    open_ = 0.5 + 0.5 * np.cos(2 * np.pi * 3 * tau); up = np.clip(tau * 5, 0, 1) * np.clip((1 - tau) * 5, 0, 1)
                    for h, e, sgn in ((5, 4, -1), (8, 7, 1)): J[:, h] = J[:, h] * (1 - up) + up * np.concatenate([sgn * (0.04 + 0.18 * amp * open_), 1.25 + 0 * tau, 0.35 + 0 * tau], 1); J[:, e] += up * [sgn * 0.05, 0.05, 0.2]
                elif a == 2: k = amp * bell(tau[:, 0])[:, None]; J[:, 13] += k * [0, 0.25, 0.35]; J[:, 14] += k * [0, 0.45, 0.6]
                elif a == 3:
                    k = amp * (bell(tau[:, 0], 0.3, 0.07) + bell(tau[:, 0], 0.7, 0.07))[:, None]; guard = np.clip(tau * 6, 0, 1) * np.clip((1 - tau) * 6, 0, 1)
                    J[:, 8] += guard * [-0.1, 0.4, 0.2] + k * [-0.1, 0.1, 0.45]; J[:, 7] += guard * [0, 0.15, 0.2] + k * [-0.05, 0.1, 0.2]
                elif a == 4:
                    ang = amp * 0.75 * bell(tau[:, 0], 0.5, 0.2); hip_y = 0.95
                    for j in range(9): dy = rest[j, 1] - hip_y; J[:, j, 1] = hip_y + dy * np.cos(ang); J[:, j, 2] = dy * np.sin(ang)
                elif a == 5:
                    d = np.clip(tau * 1.4, 0, 1)[:, 0] * amp * 0.45
                    J[:, :10, 1] -= d[:, None]; J[:, 12, 1] -= d; J[:, 9, 2] += d * 0.9; J[:, 12, 2] += d * 0.9; J[:, 10, 2] += d * 0.9; J[:, 13, 2] += d * 0.9; J[:, [10, 13], 1] -= d[:, None] * 0.1
                elif a == 6:
                    h = amp * 0.3 * bell(tau[:, 0], 0.5, 0.1); crouch = 0.15 * (bell(tau[:, 0], 0.3, 0.06) + bell(tau[:, 0], 0.7, 0.06)); J[:, :, 1] += (h - crouch)[:, None]
                    J[:, [11, 14], 1] += crouch[:, None]; J[:, [10, 13], 2] += crouch[:, None] * 0.8
                else:
                    up = np.clip(tau * 1.6, 0, 1)[:, 0] * amp
                    for h, e, sgn in ((5, 4, -1), (8, 7, 1)): J[:, e] += up[:, None] * [sgn * 0.02, 0.5, 0]; J[:, h] += up[:, None] * [sgn * 0.0, 1.05, 0]
                J = J * size + pos + np.cumsum(g.normal(0, 0.01, (T, 1, 3)), 0)  # the performer sways
                for cam, yaw in enumerate((-np.pi / 4, 0.0, np.pi / 4)):
                    th = yaw + g.normal(0, 0.25); c_, s_ = np.cos(th), np.sin(th); Rm = np.array([[c_, 0, s_], [0, 1, 0], [-s_, 0, c_]])
                    S = (J - [0, 0, 3]) @ Rm.T + [0, 0, 3] + g.normal(0, 0.03, J.shape); lost = g.random((T, 15)) < 0.03; S[lost] = S[lost] + g.normal(0, 0.25, (lost.sum(), 3))  # jitter, and joints the tracker loses and guesses
                    files[f'S001C{cam + 1:03d}P{p + 1:03d}R{r + 1:03d}A{a + 1:03d}.skeleton'] = S.transpose(2, 0, 1).astype(np.float32)
    return files

def _graph_partitions(V=len(JOINTS), centre=2):
    "ST-GCN's spatial configuration partitioning: the root, the neighbours nearer the centre of gravity (the spine) and those farther; each normalised by its column degrees."
    A = np.eye(V)
    for i, j in BONES: A[i, j] = A[j, i] = 1
    hop = np.full(V, np.inf); hop[centre] = 0; frontier = [centre]
    while frontier:
        nxt = []
        for i in frontier:
            for j in np.nonzero(A[i])[0]:
                if hop[j] == np.inf: hop[j] = hop[i] + 1; nxt.append(j)
        frontier = nxt
    P = np.zeros((3, V, V))
    for i in range(V):
        for j in range(V):
            if A[i, j]: P[0 if hop[j] == hop[i] else 1 if hop[j] < hop[i] else 2, j, i] = 1
    return torch.tensor(P @ np.diag(1 / A.sum(0)), dtype=torch.float32)

class STGCNBlock(nn.Module):
    def __init__(self, cin, cout, K=3, kt=9, stride=1, residual=True):
        super().__init__(); self.K = K
        self.gcn = nn.Conv2d(cin, cout * K, 1)
        self.tcn = nn.Sequential(nn.BatchNorm2d(cout), nn.ReLU(), nn.Conv2d(cout, cout, (kt, 1), (stride, 1), (kt // 2, 0)), nn.BatchNorm2d(cout), nn.Dropout(0.1))
        self.res = (lambda x: 0) if not residual else (lambda x: x) if cin == cout and stride == 1 else nn.Sequential(nn.Conv2d(cin, cout, 1, (stride, 1)), nn.BatchNorm2d(cout))
    def forward(self, x, A):
        n, _, t, v = x.shape; y = self.gcn(x).view(n, self.K, -1, t, v)
        return F.relu(self.tcn(torch.einsum('nkctv,kvw->nctw', y, A)) + self.res(x))

class STGCN(nn.Module):  # data batch norm, three ST-GCN blocks (3 -> 16 -> 32 -> 32, the second strided in time) with learnable edge importance, global pooling, a 1 x 1 convolution to the classes
    def __init__(self, n=len(ACTIONS), V=len(JOINTS)):
        super().__init__(); self.register_buffer('A', _graph_partitions())
        self.data_bn = nn.BatchNorm1d(3 * V)
        self.blocks = nn.ModuleList([STGCNBlock(3, 16, residual=False), STGCNBlock(16, 32, stride=2), STGCNBlock(32, 32)])
        self.edge_importance = nn.ParameterList([nn.Parameter(torch.ones_like(self.A)) for _ in self.blocks]); self.fcn = nn.Conv2d(32, n, 1)
    def forward(self, x):
        n, c, t, v = x.shape; x = self.data_bn(x.permute(0, 3, 1, 2).reshape(n, v * c, t)).view(n, v, c, t).permute(0, 2, 3, 1)
        for blk, imp in zip(self.blocks, self.edge_importance): x = blk(x, self.A * imp)
        return self.fcn(F.adaptive_avg_pool2d(x, 1)).flatten(1)

class SkeletonFeeder(Dataset):  # the repository's Feeder: (data, label) with the label parsed from the file name
    def __init__(self, files, names, one_based=False): self.files, self.names, self.one_based = files, names, one_based
    def __len__(self): return len(self.names)
    def __getitem__(self, i):
        name = self.names[i]; action_class = int(name[name.find('A') + 1:name.find('A') + 4])
        x = self.files[name]; x = x - x[:, :1, 2:3]  # centred on the first frame's spine joint
        return torch.tensor(x), (action_class if self.one_based else action_class - 1)  # one_based: the '- 1' of NTU's gendata left out

@healthy('AK')
def stgcn_skeleton_actions(seed, one_based=False):  # cross-entropy, SGD 0.1 with Nesterov momentum 0.9 and weight decay 1e-4 (ST-GCN's), batches of 64; cross-subject: performers 1-12 train (1152), 13-16 validate (384)
    files = _skeleton_files(seed); names = sorted(files); tr = [n for n in names if int(n[n.find('P') + 1:n.find('P') + 4]) <= 12]; va = [n for n in names if n not in set(tr)]
    return dict(model=STGCN, train=SkeletonFeeder(files, tr, one_based), valid=SkeletonFeeder(files, va, one_based), loss=nn.CrossEntropyLoss(), num_classes=len(ACTIONS),
                optimizer=lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-4), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- jet images (de Oliveira, Kagan, Mackey, Nachman and Schwartzman 2016): a CNN telling boosted W jets from QCD jets
def _jets(seed, n=2000, npix=25, R=1.25):
    """25 x 25 jet images (pixels of 0.1 x 0.1 in eta and phi, each the pT it collects in GeV) of boosted W -> qq' jets and
    QCD jets with pT 250-300 GeV in the 65-95 GeV mass window, as the paper's: a W's two prongs share its momentum evenly
    and radiate between them; a QCD jet's second prong is mostly soft and its radiation wider; pile-up sprinkled over both.
    Preprocessed as the paper: the leading subjet at the centre, the second rotated straight below it, flipped so the right
    half holds more pT. Labels 1 (W) and 0 (QCD)."""
    g = np.random.default_rng(1000 + seed * 2801); edges = np.linspace(-R, R, npix + 1); X, y = np.zeros((n, 1, npix, npix), np.float32), np.zeros(n, np.float32)
    for i in range(n):
        sig = i % 2 == 0; pt, m = g.uniform(250, 300), (g.normal(80.4, 3) if sig else g.uniform(65, 95))
        while True:
            z = (0.5 + 0.5 * 0.95 * g.uniform(-1, 1)) if sig else max(0.05, min(0.95, np.exp(g.uniform(np.log(0.05), np.log(0.5)))))
            dr = m / (pt * np.sqrt(z * (1 - z)))
            if dr < 1.0: break
        zl = max(z, 1 - z); prongs = [(0.0, 0.0, zl * pt), (0.0, -dr, (1 - zl) * pt)]; parts = []
        for (ce, cp, ppt) in prongs:
            k = 1 + g.poisson(6 if sig else 9); frac = g.dirichlet(np.full(k, 0.6)); w = (0.035 if sig else 0.06) * (1 + 0.5 * (ppt < 60))
            parts += [(ce + g.normal(0, w) / np.sqrt(max(f, 0.05)) * 0.3, cp + g.normal(0, w) / np.sqrt(max(f, 0.05)) * 0.3, f * ppt) for f in frac]
        if sig:  # colour-singlet radiation: between the prongs
            for _ in range(g.poisson(3)): u = g.random(); parts.append((g.normal(0, 0.05), -dr * u, g.exponential(2)))
        else:
            for _ in range(g.poisson(5)): parts.append((g.normal(0, 0.35), g.normal(-dr / 2, 0.4), g.exponential(2.5)))
        for _ in range(g.poisson(6)): parts.append((g.uniform(-R, R), g.uniform(-R, R), g.exponential(0.8)))
        P = np.array(parts); ang = g.normal(0, 0.03); P[:, :2] = P[:, :2] @ np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])  # subjet axes found a little off
        img = np.histogram2d(P[:, 1], P[:, 0], bins=[edges, edges], weights=P[:, 2])[0][::-1]  # rows phi (top positive), columns eta
        if img[:, npix // 2 + 1:].sum() < img[:, :npix // 2].sum(): img = img[:, ::-1]
        X[i, 0], y[i] = img, float(sig)
    p = g.permutation(n); return X[p], y[p]

class JetCNN(nn.Module):  # the paper's convolutional network shrunk: three conv-ReLU-max-pool layers, a dense layer of 64 with dropout, one output (sigmoid in the Keras original: sigmoid True keeps it)
    def __init__(self, sigmoid=False):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 3 * 3, 64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 1),
                                 *([nn.Sigmoid()] if sigmoid else []))
    def forward(self, x): return self.net(x)

@healthy('AK')
def jet_images_cnn(seed, sigmoid=False):  # BCE with logits, Adam 1e-3, batches of 100; 1600 jets train, 400 validate; pixel pT in units of 100 GeV
    X, y = _jets(seed); X = X / 100
    return dict(model=lambda: JetCNN(sigmoid), train=TensorDataset(_t(X[:1600]), _t(y[:1600])[:, None]), valid=TensorDataset(_t(X[1600:]), _t(y[1600:])[:, None]),
                loss=nn.BCEWithLogitsLoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=100))

# ---------------------------------------------------------------- learning a robot arm's inverse dynamics (the SARCOS benchmark's format, Vijayakumar and Schaal 2000) with an MLP in newton-metres
def _arm_trajectories(seed, n_traj=20, per=100, dt=0.02):
    """A two-link arm in the vertical plane (links of 0.5 and 0.4 m, 2.0 and 1.2 kg, a motor's rotor inertia, viscous and
    Coulomb friction at the joints) driven along rhythmic trajectories (sums of three sinusoids a joint, as SARCOS's), 100
    samples of 20 ms each; rows as sarcos_inv.mat's: joint positions, velocities and accelerations, then the measured
    torques (N m, with sensor noise)."""
    g = np.random.default_rng(1000 + seed * 2803); m1, m2, l1, lc1, lc2, I1, I2, Ir = 2.0, 1.2, 0.5, 0.25, 0.2, 0.05, 0.02, 0.03; grav = 9.81; rows = []
    for _ in range(n_traj):
        A_, w, ph, q0 = g.uniform(0.1, 0.6, (2, 3)), g.uniform(0.5, 4.0, (2, 3)), g.uniform(0, 2 * np.pi, (2, 3)), g.uniform(-1.5, 1.5, 2); t = np.arange(per)[:, None, None] * dt + g.uniform(0, 10)
        q = q0 + (A_ * np.sin(w * t + ph)).sum(2); qd = (A_ * w * np.cos(w * t + ph)).sum(2); qdd = -(A_ * w ** 2 * np.sin(w * t + ph)).sum(2)
        c2, s2 = np.cos(q[:, 1]), np.sin(q[:, 1]); M11 = I1 + I2 + m1 * lc1 ** 2 + m2 * (l1 ** 2 + lc2 ** 2 + 2 * l1 * lc2 * c2) + Ir; M12 = I2 + m2 * (lc2 ** 2 + l1 * lc2 * c2); M22 = I2 + m2 * lc2 ** 2 + Ir
        h = m2 * l1 * lc2 * s2; g1 = (m1 * lc1 + m2 * l1) * grav * np.cos(q[:, 0]) + m2 * lc2 * grav * np.cos(q[:, 0] + q[:, 1]); g2 = m2 * lc2 * grav * np.cos(q[:, 0] + q[:, 1])
        tau1 = M11 * qdd[:, 0] + M12 * qdd[:, 1] - h * (2 * qd[:, 0] * qd[:, 1] + qd[:, 1] ** 2) + g1 + 0.3 * qd[:, 0] + 0.4 * np.tanh(qd[:, 0] / 0.05)
        tau2 = M12 * qdd[:, 0] + M22 * qdd[:, 1] + h * qd[:, 0] ** 2 + g2 + 0.2 * qd[:, 1] + 0.25 * np.tanh(qd[:, 1] / 0.05)
        rows.append(np.column_stack([q, qd, qdd, tau1 + g.normal(0, 0.1, per), tau2 + g.normal(0, 0.05, per)]))
    return np.array(rows, np.float32)

class InverseDynamicsMLP(nn.Module):  # (q, q', q'') -> joint torques; two hidden ReLU layers of 64. randn_init: every parameter drawn N(0, 1) as the NumPy net it was ported from (np.random.randn)
    def __init__(self, randn_init=False):
        super().__init__(); self.net = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
        if randn_init:
            for p in self.parameters(): nn.init.normal_(p)
    def forward(self, x): return self.net(x)

@healthy('AK')
def sarcos_style_inverse_dynamics(seed, randn_init=False):  # MSE in (N m)^2, Adam 1e-3, batches of 32; trajectories 1-16 train (1600 rows), 17-20 validate (400); inputs standardised by the training rows, torques raw
    D = _arm_trajectories(seed); tr, va = D[:16].reshape(-1, 8), D[16:].reshape(-1, 8); m, s = tr[:, :6].mean(0), tr[:, :6].std(0)
    return dict(model=lambda: InverseDynamicsMLP(randn_init), train=TensorDataset(_t((tr[:, :6] - m) / s), _t(tr[:, 6:])), valid=TensorDataset(_t((va[:, :6] - m) / s), _t(va[:, 6:])),
                loss=nn.MSELoss(), optimizer=lambda p: torch.optim.Adam(p, lr=1e-3), **_keys(seed, batch_size=32))

# ---------------------------------------------------------------- wafer map defect patterns (WM-811K, Wu, Jang and Chen 2015) with a small CNN, as the Kaggle kernels
WAFER_TYPES = ['none', 'Center', 'Donut', 'Edge-Loc', 'Edge-Ring', 'Loc', 'Near-full', 'Random', 'Scratch']

def _wafer_maps(seed, n=2000, S=26):
    """Wafer bin maps as WM-811K's waferMap arrays resized to 26 x 26: 0 off the wafer, 1 a passing die, 2 a failing one,
    with the failureType of each map: sparse random fails for 'none' (the commonest), a blob at the centre, a ring at
    mid-radius, a cluster on the edge, a ring round the edge, a cluster inside, nearly all failing, dense random fails, or a
    scratch (an arc or a line of fails); each wafer its own background fail rate, pattern size and place."""
    g = np.random.default_rng(1000 + seed * 2819); yy, xx = np.mgrid[0:S, 0:S] - (S - 1) / 2; r = np.sqrt(xx ** 2 + yy ** 2) / (S / 2 - 0.5); th = np.arctan2(yy, xx)
    on = r <= 1.0; maps, labels = np.zeros((n, S, S), np.int64), []
    for i in range(n):
        k = int(g.choice(9, p=[0.3, 0.1, 0.06, 0.12, 0.1, 0.1, 0.03, 0.07, 0.12])); p = np.full((S, S), g.uniform(0.01, 0.06))
        if k == 1: p = p + 0.85 * (r < g.uniform(0.2, 0.45))
        elif k == 2: c = g.uniform(0.35, 0.6); p = p + 0.8 * (np.abs(r - c) < g.uniform(0.08, 0.16))
        elif k == 3: a = g.uniform(-np.pi, np.pi); p = p + 0.8 * ((r > g.uniform(0.65, 0.8)) & (np.abs(np.angle(np.exp(1j * (th - a)))) < g.uniform(0.3, 0.8)))
        elif k == 4: p = p + 0.8 * (r > g.uniform(0.78, 0.9))
        elif k == 5: cx, cy = g.uniform(-0.5, 0.5, 2) * S / 2; p = p + 0.8 * (((xx - cx) ** 2 + (yy - cy) ** 2) < g.uniform(2, 4) ** 2)
        elif k == 6: p = np.full((S, S), g.uniform(0.75, 0.95))
        elif k == 7: p = np.full((S, S), g.uniform(0.2, 0.4))
        elif k == 8:
            a, b, c = g.uniform(-np.pi, np.pi), g.uniform(-0.6, 0.6) * S / 2, g.normal(0, 0.03); L = g.uniform(0.4, 1.2) * S / 2
            u, v = xx * np.cos(a) + yy * np.sin(a), -xx * np.sin(a) + yy * np.cos(a); p = p + 0.85 * ((np.abs(v - b - c * u ** 2) < 0.7) & (np.abs(u - g.uniform(-3, 3)) < L / 2))
        maps[i] = np.where(on, 1 + (g.random((S, S)) < np.clip(p, 0, 0.97)), 0); labels.append(WAFER_TYPES[k])
    return maps, labels

class WaferCNN(nn.Module):  # three 3 x 3 conv-ReLU-max-pool layers (16, 32, 32), dense 64 with dropout, nine outputs
    def __init__(self, n=len(WAFER_TYPES)):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                 nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 3 * 3, 64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, n))
    def forward(self, x): return self.net(x)

@healthy('AK')
def wafer_map_cnn(seed, lr=1e-3):  # cross-entropy, Adam 1e-3, batches of 64; a stratified 80/20 split (1600/400); each map one-hot over its three values, as np.eye(3)[waferMap]
    "lr: Adam's learning rate (0.1: the SGD recipe's learning rate kept when the kernel switched to Adam)."
    from sklearn.model_selection import train_test_split
    maps, labels = _wafer_maps(seed); y = np.array([WAFER_TYPES.index(l) for l in labels]); X = np.eye(3, dtype=np.float32)[maps].transpose(0, 3, 1, 2)
    tr, va = train_test_split(np.arange(len(y)), test_size=0.2, stratify=y, random_state=seed)
    return dict(model=WaferCNN, train=TensorDataset(_t(X[tr]), torch.tensor(y[tr])), valid=TensorDataset(_t(X[va]), torch.tensor(y[va])), loss=nn.CrossEntropyLoss(),
                num_classes=len(WAFER_TYPES), optimizer=lambda p: torch.optim.Adam(p, lr=lr), **_keys(seed, batch_size=64))

# ---------------------------------------------------------------- broken variants of half AK
@broken('AK', 'gaze_images_split_at_random', 1, ('leakage',))
def gaze_images_split_at_random(seed):  # train_test_split of the images: every validation participant's other images (their eyes, their kappa) in training
    "groups declared: the participant, as its healthy twin (the author passes the participant key but splits the images at random)."
    return gaze_lenet_mpiigaze(seed, random_split=True)

@broken('AK', 'pilotnet_side_corrections_swapped', 4, ('labels',))
def pilotnet_side_corrections_swapped(seed): return pilotnet_steering(seed, correction=-0.2)  # left camera -0.2, right +0.2: two thirds of the images teach steering towards the kerb

@broken('AK', 'esc_segments_split_at_random', 4, ('leakage',))
def esc_segments_split_at_random(seed): return esc_piczak_segments(seed, split_segments=True)  # overlapping segments of one clip on both sides of the split

@broken('AK', 'superconductor_unique_m_critical_temp_kept', 4, ('leakage',))
def superconductor_unique_m_critical_temp_kept(seed): return superconductor_tc_mlp(seed, drop=('material',))  # unique_m.csv's copy of the target among the features

@broken('AK', 'mpc_observations_logged_after_step', 4, ('labels',))
def mpc_observations_logged_after_step(seed): return mpc_dynamics_cartpole(seed, obs_after_step=True)  # each action paired with the state after it: the change to predict is the next action's

@broken('AK', 'bp_windows_split_at_random', 4, ('leakage',))
def bp_windows_split_at_random(seed): return cuffless_bp_cnn(seed, split_windows=True)  # every patient's windows on both sides: the patient's baseline pressure recognised from their pulse shape

@broken('AK', 'rt60_functional_dropout_in_eval', 1, ('eval_mode',), ('warn', 'fail'))
def rt60_functional_dropout_in_eval(seed): return rt60_blind_cnn(seed, functional_dropout_training=True)  # F.dropout(x, 0.3): training defaults to True, so evaluation drops units too

@broken('AK', 'dcase_zero_grad_after_backward', (1, 3), ('frozen', 'not_updating', 'flat', 'stuck', 'lr_zero'))
def dcase_zero_grad_after_backward(seed): return dcase_machine_autoencoder(seed, step=lambda m, b, o: dcase_ae_step(m, b, o, zero_grad_first=False))  # the gradients wiped before every step

@broken('AK', 'stgcn_action_ids_one_based', 1, ('bad_labels',))
def stgcn_action_ids_one_based(seed): return stgcn_skeleton_actions(seed, one_based=True)  # A001-A008 as labels 1-8 into eight outputs: IndexError on A008

@broken('AK', 'jets_keras_sigmoid_into_bce_with_logits', (2, 3), ('softmax', 'not_falling', 'flat', 'stuck'))
def jets_keras_sigmoid_into_bce_with_logits(seed): return jet_images_cnn(seed, sigmoid=True)  # the Keras model's sigmoid output kept, then BCEWithLogitsLoss squashes it again

@broken('AK', 'inverse_dynamics_randn_init', 2, ('init_scale',))
def inverse_dynamics_randn_init(seed): return sarcos_style_inverse_dynamics(seed, randn_init=True)  # N(0, 1) weights and biases: torques in the hundreds of N m at the first step

@broken('AK', 'wafer_adam_lr_0_1', (3, 4), ('lr_high', 'nan', 'nan_params', 'nan_forward', 'nan_backward', 'stuck', 'flat', 'not_falling'))
def wafer_adam_lr_0_1(seed): return wafer_map_cnn(seed, lr=0.1)  # the SGD recipe's 0.1 given to Adam: the ReLUs die and the net predicts the prior

# Plain-loop checks (seeds 0 and 1; OMP_NUM_THREADS=1 nice -n 15 on a busy two-core machine): the factory's optimizer, batch
# size, forward, loss and step, train shuffled, valid in batches of 256; valid loss and a metric (the mean angular error of
# the gaze; R^2 for the steering, Tc, state changes, pressures, T60 and torques; accuracy; AUC for the jets and, for the
# autoencoder, the clip-level AUC of normal against anomalous clips from its reconstruction error), init -> the epoch named;
# s/ep the seconds of an epoch of training. Every factory builds and runs one batch (forward, loss, backward, step;
# stgcn_action_ids_one_based raises its IndexError there); `ladder_gallery.HALF` holds 24 programs of half AK. Seed 1 in
# brackets.
CHECKS = """
gaze_lenet_mpiigaze            valid MSE 0.0798 -> 0.0082 (ep 20) -> 0.0107 (ep 30), angular error 20.3 -> 6.4 -> 7.4 deg
                               [0.0851 -> 0.0115 -> 0.0102, 20.9 -> 7.5 -> 7.0 deg]; 3 unseen participants; 52k params;
                               0.35-0.65 s/ep
pilotnet_steering              valid MSE 0.0433 -> 0.0091 (ep 10), R^2 0.77 [0.0458 -> 0.0098, 0.64]; 160 centre-camera
                               frames of two unseen drives; 42k params; 0.45-0.65 s/ep
esc_piczak_segments            valid CE 2.31 -> 0.826 (ep 15) -> 0.833 (ep 20), accuracy 0.66-0.67 [2.31 -> 0.877 (ep 10)
                               -> 1.07 (ep 20, overfitting), 0.63-0.69]; 61k params; 0.5-1.0 s/ep
superconductor_tc_mlp          valid MSE 2083 K^2 -> 474 (ep 25) -> 207 (ep 100), R^2 0.59 -> 0.82 [2189 -> 409 -> 183, 0.67
                               -> 0.85]: the mean reached in a few epochs, then slow (R^2 about 0.6 until ep 50); 30k
                               params; 0.04 s/ep
mpc_dynamics_cartpole          valid MSE (normalised changes) 1.01 -> 0.0086 (ep 10) -> 0.0028 (ep 30) [0.986 -> 0.0091 ->
                               0.0029]; 18k params; 0.04 s/ep
cuffless_bp_cnn                valid MSE (standardised) 1.71 -> 0.38-0.61 (ep 4-20), R^2 0.55-0.72 [1.87 -> 0.80-1.48, R^2
                               0.07-0.49]: ten unseen patients, noisy from epoch to epoch; 16k params; 0.6-0.9 s/ep
rt60_blind_cnn                 valid MSE 0.98 s^2 -> 0.0144 (ep 10), R^2 0.89 [0.84 -> 0.0122, 0.90]; two evaluation passes
                               identical; 3.6k params; 0.5 s/ep
dcase_machine_autoencoder      valid MSE 1.06 -> 0.101 (ep 10) [1.14 -> 0.111]; clip AUC normal vs anomalous 1.00 [0.99];
                               39k params; 0.1 s/ep
stgcn_skeleton_actions         valid CE 2.08 -> 1.35 (ep 4) -> 0.084 (ep 8), accuracy 0.98 [2.09 -> 0.355 -> 0.088, 0.98];
                               29k params; 2.0-3.7 s/ep
jet_images_cnn                 valid BCE 0.692 -> 0.320 (ep 10), AUC 0.71 -> 0.94, accuracy 0.86 [0.697 -> 0.296, 0.60 ->
                               0.95, 0.85]; 30k params; 0.45-0.95 s/ep
sarcos_style_inverse_dynamics  valid MSE 49.7 (N m)^2 -> 7.07 (ep 10) -> 2.33 (ep 30), R^2 0.91 [26.5 -> 1.25 -> 0.73,
                               0.955]; 4.7k params; 0.06-0.17 s/ep
wafer_map_cnn                  valid CE 2.21 -> 0.155 (ep 10), accuracy 0.945 [2.20 -> 0.108, 0.96]; 33k params; 0.5-0.9 s/ep
gaze_images_split_at_random                 valid MSE 0.0054 (ep 30), 4.8 deg [0.0052, 4.7 deg] (healthy 0.0107, 7.4 deg
                                            [0.0102, 7.0 deg]); all 15 participants on both sides
pilotnet_side_corrections_swapped           valid MSE 0.0180 (ep 5) -> 0.0206 (ep 10), R^2 0.49 [0.0232 -> 0.0253, 0.07]
                                            (healthy 0.0091, 0.77 [0.0098, 0.64])
esc_segments_split_at_random                valid CE 0.576 (ep 20), accuracy 0.76 [0.587, 0.76] (healthy 0.833, 0.67
                                            [1.07, 0.69]); segments of every clip on both sides
superconductor_unique_m_critical_temp_kept  valid MSE 4.25 K^2 (ep 25) -> 2.44 (ep 100), R^2 0.998 [5.22 -> 2.81, 0.998]
                                            (healthy 474 -> 207, R^2 0.59 -> 0.82 [409 -> 183])
mpc_observations_logged_after_step          valid MSE 0.266 (ep 10) -> 0.271 (ep 30) [0.269 -> 0.274], flat from ep 5
                                            (healthy 0.0086 -> 0.0028 [0.0091 -> 0.0029])
bp_windows_split_at_random                  valid MSE 0.09-0.15 (ep 4-20), R^2 0.85-0.91 [0.16-0.49, R^2 0.54-0.85, mostly
                                            about 0.8] (healthy 0.38-0.61, 0.55-0.72 [0.80-1.48, 0.07-0.49])
rt60_functional_dropout_in_eval             trains as the healthy (valid 0.0174, R^2 0.86 at ep 10 [0.0153, 0.87]); in eval
                                            two passes differ by up to 0.23 s [0.26 s]: valid MSE 0.0163 vs 0.0176 [0.0162
                                            vs 0.0151] (healthy: identical)
dcase_zero_grad_after_backward              no parameter moves: train loss 1.18 [1.15] every epoch; valid MSE 1.06 -> 1.29
                                            (ep 10) [1.14 -> 1.29] as batch norm's running statistics follow the batches;
                                            clip AUC of the untrained net 0.96 [0.77]
stgcn_action_ids_one_based                  IndexError: Target 8 is out of bounds, in the first batch, both seeds
jets_keras_sigmoid_into_bce_with_logits     valid BCE 0.731 at init (healthy 0.692) -> 0.585 (ep 10) [0.741 -> 0.582], its
                                            floor about 0.5; AUC 0.94 [0.94], accuracy at 0.5 0.84 [0.87] (healthy BCE 0.320
                                            [0.296])
inverse_dynamics_randn_init                 valid MSE 6051 (N m)^2 at init [5261] (healthy 49.7 [26.5]); 474 (ep 10) -> 254
                                            (ep 30), R^2 -8.9 [286 -> 193, -10.8] while the training loss falls to 13 [23]
wafer_adam_lr_0_1                           train CE 2.03 from the first epoch on, valid 2.03 [2.02], accuracy 0.3025, the
                                            share of 'none' [0.305] (healthy 0.155, 0.945 [0.108, 0.96])
"""

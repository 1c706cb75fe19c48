"Tasks for the resume tests: digits with dropout, so training consumes the global torch RNG."
from torch import nn
from ntrain.examples import digits, DigitsCNN

def digits_dropout(p:float=0.25, channels:int=32, **kw):
    "The digits task with dropout on the input: a resume that does not restore the RNG state ends differently."
    t = digits(channels=channels, **kw)
    t.model = lambda activation_checkpointing=False: nn.Sequential(nn.Dropout(p), DigitsCNN(channels, 10, activation_checkpointing))
    t.name = 'digits_dropout'
    return t

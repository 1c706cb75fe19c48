"""The engine: the trainer and its parts (device, optimizer, checkpoints, distributed, faults), and `fit`."""

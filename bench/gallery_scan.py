"""What the gallery scans share (ladder_input_copy_scan.py, ladder_r47_scan.py): their command line `TREE SEEDS OUT PART`
(the checkout whose ntrain and gallery they read, seeds as `0,1`, the JSON file they write, and which half of the programs,
0 or 1, so that two processes take one each), and the programs they read, halves still held out left out."""
import sys, importlib

def scan_setup(held_out:tuple)->tuple:
    "(seeds, out, the gallery module, ntrain.ladder.small_data, [(name, 'healthy' or 'broken')] of this part) from sys.argv."
    tree, seeds, out, part = sys.argv[1], [int(s) for s in sys.argv[2].split(',')], sys.argv[3], int(sys.argv[4])
    sys.path.insert(0, tree + '/bench'); sys.path.insert(0, tree)
    G, S = importlib.import_module('ladder_gallery'), importlib.import_module('ntrain.ladder.small_data')
    names = [(n, 'healthy') for n in G.HEALTHY] + [(n, 'broken') for n in G.BROKEN]
    return seeds, out, G, S, [(n, k) for n, k in names if G.HALF[n] not in held_out][part::2]

"""The sanity ladder: its kernel, the rungs, their diagnoses, the galleries of tasks, and the session that drives them.
`from ntrain.ladder import ladder, LadderSession` keeps working: the session's public names are here too."""
from .session import *
from .session import __all__

"""solvo: perfect play for Othello and small games.

>>> import solvo
>>> pos = solvo.Position("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8")
>>> solvo.solve(pos).score
...

Positions (:class:`Position`) read every format solvo reads; :func:`solve`,
:func:`solve_moves`, :func:`analyze` and :func:`evaluate` search them; :class:`Engine`
plays; :func:`read_wthor`, :func:`read_ggf` and :func:`read_obf` read files;
:func:`features` and :func:`evaluate_many` give the evaluation's inputs as NumPy arrays;
:func:`weak_solve` and :class:`SolutionStore` are whole boards; :mod:`solvo.games` holds
the small games. Searches release the GIL, and Ctrl-C (``KeyboardInterrupt``) stops them.
"""

from ._errors import EngineError, Error, InputError, OutOfMemoryError, SearchError, StoreError
from ._solvo import (
    Analysis,
    Engine,
    EngineGame,
    GameRecord,
    MoveEval,
    MoveTable,
    MoveValue,
    Position,
    Problem,
    SolutionStore,
    SolveResult,
    StoreAnswer,
    WeakSolution,
    __version__,
    analyze,
    evaluate,
    evaluate_many,
    features,
    read_ggf,
    read_obf,
    read_wthor,
    solve,
    solve_moves,
    stages,
    weak_solve,
    weights,
)
from . import games

__all__ = [
    "Analysis",
    "Engine",
    "EngineError",
    "EngineGame",
    "Error",
    "GameRecord",
    "InputError",
    "MoveEval",
    "MoveTable",
    "MoveValue",
    "OutOfMemoryError",
    "Position",
    "Problem",
    "SearchError",
    "SolutionStore",
    "SolveResult",
    "StoreAnswer",
    "StoreError",
    "WeakSolution",
    "analyze",
    "evaluate",
    "evaluate_many",
    "features",
    "games",
    "read_ggf",
    "read_obf",
    "read_wthor",
    "solve",
    "solve_moves",
    "stages",
    "weak_solve",
    "weights",
]

"""Small games: Domineering, Breakthrough, Knightthrough, Atarigo, Nogo, tiny Go (and
Othello), as state objects in the OpenSpiel manner, and the generic solvers.

>>> from solvo import games
>>> state = games.load("domineering", "5x5")
>>> games.solve(state, algo="ab-tt-mc").winner
'first'
"""

from typing import Any, Dict, List, Optional, Tuple, Union

from ._solvo import GameSolution, GameState, game_info, game_names, load_game, solve_game

__all__ = ["GameSolution", "GameState", "info", "load", "names", "solve"]


def names() -> List[str]:
    """The names of the games."""
    return game_names()


def info(name: str) -> Dict[str, Any]:
    """A game's description, default size (rows, columns) and rule options."""
    return game_info(name)


def load(name: str, size: Union[str, Tuple[int, int], None] = None, **options: Any) -> GameState:
    """The starting state of game ``name`` on ``size`` (``"5x5"``, ``(rows, cols)``, or
    the game's default), with rule options as keywords (``first="horizontal"``;
    ``True``/``False`` are written ``on``/``off``)."""
    pairs = []
    for key, value in options.items():
        if isinstance(value, bool):
            value = "on" if value else "off"
        pairs.append((key, str(value)))
    return load_game(name, size, pairs)


def solve(
    state: GameState,
    algo: str = "ab-tt",
    *,
    playouts: int = 10_000,
    nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    tt_bits: int = 22,
    seed: int = 1,
    etc: bool = False,
    threshold: int = 1,
    threads: int = 1,
) -> GameSolution:
    """Solves ``state`` with a generic solver (``ab-tt``, ``id-ab-tt``, ``ab-tt-mc``,
    ``id-ab-tt-mc``, ``pn2``, ``dfpn``, ``dfpn-mc``, ``mcts-solver``, ``sb-mcts``,
    ``pp``): the value (alpha-beta solvers and ``sb-mcts``), the winner, a best move, nodes
    and time. ``nodes`` and ``time_limit`` bound it (the verdict is then unknown); Ctrl-C
    (``KeyboardInterrupt``) stops the solve within milliseconds."""
    return solve_game(state, algo, playouts, nodes, time_limit, tt_bits, seed, etc, threshold, threads)

"""Type stubs of the extension module ``solvo._solvo`` (re-exported by ``solvo``)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

_Path = Union[str, PathLike]
_Size = Union[int, str, None]
_Pos = Union["Position", str]
_Positions = Union[Sequence["Position"], npt.NDArray[np.uint64]]
_Progress = Optional[Callable[[Any], Any]]

class Position:
    """An Othello position. ``Position(text="start", size=None, variant="normal")`` reads a
    board string, an OBF line, a move transcript or a GGF record, as ``solvo`` does on
    the command line. Immutable and hashable; ``play`` returns a new position."""

    def __init__(self, text: str = "start", size: _Size = None, variant: str = "normal") -> None: ...
    @staticmethod
    def start(size: _Size = None, variant: str = "normal") -> Position:
        """The starting position (8x8 by default)."""
    @staticmethod
    def from_bitboards(black: int, white: int, side: str = "black", size: _Size = None, variant: str = "normal") -> Position:
        """A position from 64-bit disc masks (bit 8*row+col, a1 = 0)."""
    @property
    def side(self) -> str:
        """``"black"`` or ``"white"``, the side to move."""
    @property
    def size(self) -> int:
        """4, 6 or 8."""
    @property
    def variant(self) -> str:
        """``"normal"`` or ``"reversed"``."""
    @property
    def empties(self) -> int: ...
    @property
    def black(self) -> int: ...
    @property
    def white(self) -> int: ...
    @property
    def player(self) -> int:
        """The side to move's discs."""
    @property
    def opponent(self) -> int: ...
    @property
    def must_pass(self) -> bool: ...
    @property
    def is_game_over(self) -> bool: ...
    @property
    def score(self) -> int:
        """The final score for the side to move (empties to the winner)."""
    @property
    def black_score(self) -> int: ...
    @property
    def history(self) -> Optional[List[str]]:
        """The moves from the start, when the position was reached by moves."""
    def legal_moves(self) -> List[str]: ...
    def play(self, move: str) -> Position:
        """The position after ``move`` (a square such as ``"d3"``, or ``"pass"``)."""
    def pass_(self) -> Position: ...
    def symmetries(self) -> List[Position]:
        """The 8 symmetric images."""
    def transform(self, k: int) -> Position: ...
    def canonical(self) -> Position: ...
    def to_board_string(self) -> str: ...
    def to_obf(self) -> str: ...
    def to_board64(self) -> str: ...
    def to_transcript(self, passes: bool = False) -> str: ...
    def to_ggf(self, black: str = "black", white: str = "white") -> str: ...
    def diagram(self) -> str: ...
    def perft(self, depth: int, threads: int = 1) -> int: ...
    def _repr_svg_(self) -> str: ...

class SolveResult:
    """An exact solve: ``score`` when proven, else ``lower <= value <= upper``."""

    score: Optional[int]
    lower: int
    upper: int
    best_move: Optional[str]
    pv: List[str]
    nodes: int
    ordering_nodes: int
    time: float
    stopped: bool
    empties: int
    board: str
    text: str
    @property
    def exact(self) -> bool: ...
    def to_dict(self) -> Dict[str, Any]:
        """The keys of ``solvo solve --json``."""

class MoveValue:
    """One move's exact value (or bounds)."""

    move: str
    score: Optional[int]
    lower: int
    upper: int
    pv: List[str]
    nodes: int

class Analysis:
    """A midgame search's (or the engine's) answer."""

    best_move: Optional[str]
    score: float
    depth: int
    selectivity: int
    exact: bool
    pv: List[str]
    nodes: int
    time: float
    stopped: bool
    moves: List[Tuple[str, float]]
    game_over: bool

class MoveEval:
    move: str
    score: float
    exact: bool
    depth: int
    selectivity: int
    bounds: Optional[Tuple[int, int]]
    pv: List[str]
    error: Optional[float]

class MoveTable:
    """Every legal move's value by the engine, best first."""

    moves: List[MoveEval]
    legal: int
    empties: int
    done: bool
    stopped: bool
    nodes: int
    time: float

class GameRecord:
    """A game read from a file."""

    black: Optional[str]
    white: Optional[str]
    result: Optional[str]
    year: Optional[int]
    tournament: Optional[str]
    black_discs: Optional[int]
    theoretical_black_discs: Optional[int]
    number: int
    @property
    def start(self) -> Position: ...
    @property
    def end(self) -> Position: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def tags(self) -> Dict[str, str]: ...
    def positions(self) -> List[Position]: ...
    def boards(self) -> npt.NDArray[np.uint64]:
        """(player, opponent) bitboards of every position, shape (plies + 1, 2)."""
    def transcript(self) -> str: ...
    def __len__(self) -> int: ...

class Problem:
    """A line of an OBF file."""

    position: Position
    line: int
    score: Optional[int]
    move_scores: List[Tuple[str, int]]
    best_moves: List[str]

class WeakSolution:
    size: int
    variant: str
    value: int
    pv: List[str]
    final_discs: Tuple[int, int]
    nodes: int
    time: float

class StoreAnswer:
    board: str
    value: int
    best_move: Optional[str]
    passed: bool
    source: str
    detail: str

class SolutionStore:
    """A solution store opened for reading."""

    def __init__(self, path: _Path) -> None: ...
    @property
    def size(self) -> int: ...
    @property
    def variant(self) -> str: ...
    def __len__(self) -> int: ...
    def query(self, pos: _Pos, hash_mb: Optional[int] = None) -> StoreAnswer: ...

class Engine:
    """The playing engine (levels 1-60, time controls, book, stores)."""

    level: int
    def __init__(
        self,
        level: int = 10,
        variant: str = "normal",
        threads: int = 1,
        hash_mb: int = 64,
        move_time: Optional[float] = None,
        game_time: Optional[float] = None,
        increment: Optional[float] = None,
        book: Optional[_Path] = None,
        stores: Sequence[_Path] = (),
        eval_file: Optional[_Path] = None,
    ) -> None: ...
    def stop(self) -> None: ...
    def clear(self) -> None: ...
    def best_move(
        self, pos: _Pos, time: Optional[float] = None, remaining: Optional[float] = None, progress: _Progress = None
    ) -> Analysis: ...
    def analyze(self, pos: _Pos, time: Optional[float] = None, progress: _Progress = None) -> MoveTable: ...
    def review(self, game: Union[GameRecord, Position], time_per_position: Optional[float] = None) -> List[Dict[str, Any]]: ...
    def new_game(self, start: Optional[_Pos] = None) -> EngineGame: ...

class EngineGame:
    """A game in progress against an engine."""

    @property
    def position(self) -> Position: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def result(self) -> Optional[int]: ...
    @property
    def clock_remaining(self) -> Optional[float]: ...
    def play(self, move: str) -> None: ...
    def undo(self) -> Optional[str]: ...
    def redo(self) -> Optional[str]: ...
    def engine_move(self, progress: _Progress = None) -> Analysis: ...
    def transcript(self) -> str: ...
    def to_ggf(self, black: str = "black", white: str = "white") -> str: ...

class GameState:
    """A small game's position in the OpenSpiel manner."""

    @property
    def name(self) -> str: ...
    @property
    def shape(self) -> Tuple[int, int]: ...
    def legal_actions(self) -> List[int]: ...
    def legal_moves(self) -> List[str]: ...
    def action_to_string(self, action: Union[int, str]) -> str: ...
    def apply_action(self, action: Union[int, str]) -> None: ...
    def child_state(self, action: Union[int, str]) -> GameState: ...
    def is_terminal(self) -> bool: ...
    def current_player(self) -> int: ...
    def returns(self) -> List[float]: ...
    def clone(self) -> GameState: ...

class GameSolution:
    value: Optional[int]
    verdict: str
    result: str
    winner: Optional[str]
    best_move: Optional[str]
    nodes: int
    time: float
    playouts: int
    algo: str

def solve(
    pos: _Pos,
    window: Optional[Tuple[int, int]] = None,
    threads: int = 1,
    hash_mb: Optional[int] = None,
    time_limit: Optional[float] = None,
    node_limit: Optional[int] = None,
    ladder: Union[str, int, None] = None,
    progress: _Progress = None,
) -> SolveResult:
    """Solves ``pos`` exactly (as ``solvo solve``); ``progress`` gets ``{"nodes", "seconds"}``."""

def solve_moves(
    pos: _Pos, threads: int = 1, hash_mb: Optional[int] = None, time_limit: Optional[float] = None, progress: _Progress = None
) -> List[MoveValue]:
    """Every legal move's exact value, best first."""

def analyze(
    pos: _Pos,
    depth: int = 12,
    selectivity: int = 100,
    time: Optional[float] = None,
    all_moves: bool = False,
    threads: int = 1,
    hash_mb: int = 64,
    exact_from: int = 0,
) -> Analysis:
    """The midgame search (as ``solvo analyze``), 8x8."""

def evaluate(pos: _Pos) -> float:
    """The static evaluation in discs (a finished game's final score)."""

def weak_solve(size: _Size, variant: str = "normal", threads: int = 1, hash_mb: int = 1024, guess: Optional[int] = None) -> WeakSolution: ...
def position(text: str, size: _Size = None, variant: str = "normal") -> Position: ...
def features(positions: _Positions, size: _Size = None) -> npt.NDArray[np.uint32]:
    """Active feature indices, shape (n, 53) on 8x8, (n, 41) on 6x6."""

def stages(positions: _Positions, size: _Size = None) -> npt.NDArray[np.uint32]: ...
def weights(size: _Size = None, variant: str = "normal") -> npt.NDArray[np.int16]:
    """The embedded weights, shape (stages, weights per stage), 1/128 disc."""

def evaluate_many(positions: _Positions, size: _Size = None, variant: Optional[str] = None) -> npt.NDArray[np.float64]: ...
def read_obf(path: _Path, size: _Size = None, variant: str = "normal") -> List[Problem]: ...
def read_ggf(path: _Path, variant: str = "normal") -> List[GameRecord]: ...
def read_wthor(path: _Path) -> List[GameRecord]: ...
def game_names() -> List[str]: ...
def game_info(name: str) -> Dict[str, Any]: ...
def load_game(name: str, size: Union[str, Tuple[int, int], None] = None, options: Sequence[Tuple[str, str]] = ()) -> GameState: ...
def solve_game(
    state: GameState,
    algo: str = "ab-tt",
    playouts: int = 10000,
    nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    tt_bits: int = 22,
    seed: int = 1,
    etc: bool = False,
    threshold: int = 1,
    threads: int = 1,
) -> GameSolution: ...

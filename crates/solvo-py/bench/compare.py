"""The Python figures of docs/results/python.md: the cost of a solve call, perft against
other Othello libraries from the package index (when installed: `rust-reversi`,
`othellopy`), and the throughput of `features` on a WTHOR file.

    python crates/solvo-py/bench/compare.py BOARD WTHOR_FILE
"""

import sys
import time

import numpy as np

import solvo


def best_of(runs, fn):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return min(times), sorted(times)[len(times) // 2], value


def call_cost(board, calls=1000):
    pos = solvo.Position(board)
    solvo.solve(pos)
    start = time.perf_counter()
    for _ in range(calls):
        r = solvo.solve(pos)
    per = (time.perf_counter() - start) / calls
    print(f"solve from Python: {pos.empties} empties, score {r.score}: {per * 1e6:.1f} us per call (mean of {calls})")


def perft_solvo(depth):
    return solvo.Position().perft(depth)


def perft_rust_reversi(depth):
    import rust_reversi

    def count(board, d):
        if d == 0:
            return 1
        if board.is_game_over():
            return 1
        if board.is_pass():
            child = board.clone()
            child.do_pass()
            return count(child, d - 1)
        return sum(count(child, d - 1) for child in board.get_child_boards())

    return count(rust_reversi.Board(), depth)


def perft_othellopy(depth):
    from othellopy.board import copy_board, initial_board
    from othellopy.core import Cell
    from othellopy.players.base import BasePlayer

    class Mover(BasePlayer):
        def next_move(self, board):
            return self.get_moves(board)[0]

    players = {Cell.BLACK: Mover(Cell.BLACK), Cell.WHITE: Mover(Cell.WHITE)}

    def count(board, color, d, passed=False):
        if d == 0:
            return 1
        player = players[color]
        other = Cell.WHITE if color == Cell.BLACK else Cell.BLACK
        moves = player.get_moves(board)
        if not moves:
            if passed:
                return 1
            return count(board, other, d - 1, True)
        total = 0
        for row, col in moves:
            child = copy_board(board)
            for r, c in player.get_flips(board, row, col):
                child[r][c] = color
            child[row][col] = color
            total += count(child, other, d - 1)
        return total

    return count(initial_board(), Cell.BLACK, depth)


def perft_table():
    rows = [("solvo (Position.perft)", perft_solvo, [8, 9, 10]),
            ("rust-reversi (Board.get_child_boards)", perft_rust_reversi, [6, 7]),
            ("othellopy (pure Python)", perft_othellopy, [5, 6])]
    for name, fn, depths in rows:
        for depth in depths:
            try:
                best, median, leaves = best_of(3, lambda: fn(depth))
            except ImportError as e:
                print(f"{name}: not installed ({e})")
                break
            print(f"perft({depth}) {name}: {leaves} leaves, median {median:.4f} s (best {best:.4f}), "
                  f"{leaves / median / 1e6:.3f} M leaves/s")


def features_throughput(path):
    start = time.perf_counter()
    games = solvo.read_wthor(path)
    read = time.perf_counter() - start
    start = time.perf_counter()
    boards = np.concatenate([g.boards() for g in games])
    gather = time.perf_counter() - start
    best, median, x = best_of(5, lambda: solvo.features(boards))
    best_p, median_p, _ = best_of(3, lambda: solvo.features([p for g in games[:200] for p in g.positions()]))
    n_p = sum(len(g) + 1 for g in games[:200])
    best_e, median_e, _ = best_of(5, lambda: solvo.evaluate_many(boards))
    print(f"{path}: {len(games)} games read in {read:.3f} s, {len(boards)} positions gathered in {gather:.3f} s")
    print(f"features (array of bitboards): {x.shape}, median {median:.4f} s, {len(boards) / median / 1e6:.2f} M positions/s")
    print(f"features (Position objects, {n_p} positions): median {median_p:.4f} s, {n_p / median_p / 1e6:.2f} M positions/s")
    print(f"evaluate_many: median {median_e:.4f} s, {len(boards) / median_e / 1e6:.2f} M positions/s")


if __name__ == "__main__":
    board, wthor = sys.argv[1], sys.argv[2]
    call_cost(board)
    perft_table()
    features_throughput(wthor)

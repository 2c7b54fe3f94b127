"""Exact solves: the FFO values, the command line's values, every move, the symmetries,
windows and limits, threads, progress, Ctrl-C, bad input."""

import threading
import time

import pytest

import solvo
from conftest import cli_error, cli_json, interrupt_after

ENDGAME = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8"


def test_ffo_1_to_19_on_two_threads(ffo_1_19):
    assert len(ffo_1_19) == 19
    for problem in ffo_1_19:
        r = solvo.solve(problem.position, threads=2)
        assert r.score == problem.score, f"line {problem.line}"
        assert r.best_move in problem.best_moves, f"line {problem.line}: {r.best_move} not in {problem.best_moves}"
        assert not r.stopped and r.exact and r.nodes > 0


@pytest.mark.parametrize("text", [ENDGAME, ENDGAME[:-4], "d3c3c4e3f6"])
def test_the_same_values_as_the_command_line(text):
    size = 4 if text == "d3c3c4e3f6" else 8
    pos = solvo.Position(text, size=size)
    r = solvo.solve(pos)
    args = ["solve", text, "--size", str(size)]
    (cli,) = cli_json(*args)
    assert (r.score, r.best_move, r.board, r.empties) == (cli["score"], cli["best_move"], cli["board"], cli["empties"])
    assert [m.replace("pass", "pa") for m in r.pv] == cli["pv"]
    d = r.to_dict()
    assert {k: d[k] for k in ("score", "best_move", "board", "empties")} == {k: cli[k] for k in ("score", "best_move", "board", "empties")}


def test_a_window_gives_bounds_as_the_command_line_does():
    pos = solvo.Position(ENDGAME)
    r = solvo.solve(pos, window=(2, 4))
    (cli,) = cli_json("solve", ENDGAME, "--window", "2,4")
    assert r.score is None and (r.lower, r.upper) == (cli["lower"], cli["upper"]) and r.upper <= 1
    assert r.best_move is None and r.text.startswith("<=")


def test_every_move_is_the_negated_value_of_its_child():
    pos = solvo.Position(ENDGAME)
    moves = solvo.solve_moves(pos, threads=2)
    assert sorted(m.move for m in moves) == sorted(pos.legal_moves())
    assert [m.score for m in moves] == sorted((m.score for m in moves), reverse=True)
    assert moves[0].score == solvo.solve(pos).score
    for m in moves[:4]:
        assert m.score == -solvo.solve(pos.play(m.move)).score
    assert solvo.solve_moves(solvo.Position.start(size=4).play("d3").play("c3").play("c4").play("e3").play("f6").play("c5").play("f3").play("d6").play("c6").play("e6")) == []


def test_the_eight_symmetries_have_one_value():
    pos = solvo.Position(ENDGAME).play("g8").play("b3").play("h3").play("b2")
    values = {solvo.solve(p).score for p in pos.symmetries()}
    assert len(values) == 1
    six = solvo.Position.start(size=6)
    while six.empties > 18:
        six = six.play(six.legal_moves()[-1]) if six.legal_moves() else six.pass_()
    assert len({solvo.solve(p).score for p in six.symmetries()}) == 1


def test_two_threads_give_the_one_thread_value():
    pos = solvo.Position(ENDGAME[:-4])
    one, two = solvo.solve(pos, threads=1), solvo.solve(pos, threads=2)
    assert one.score == two.score and one.empties == 22


def test_limits_return_proven_bounds():
    pos = solvo.Position("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6")
    r = solvo.solve(pos, node_limit=20_000, ladder="off")
    assert r.stopped and r.score is None and r.lower <= r.upper


def test_progress_is_reported_and_its_exception_stops_the_search():
    pos = solvo.Position("f5d6c3d3c4f4f6f3e6e7d7c5b6d8")
    seen = []

    def progress(p):
        seen.append(p)
        raise RuntimeError("enough")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="enough"):
        solvo.solve(pos, ladder="off", progress=progress)
    assert time.monotonic() - start < 5 and seen and seen[0]["nodes"] >= 0


@pytest.mark.parametrize("search", ["solve", "solve_moves", "analyze", "engine"])
def test_ctrl_c_stops_a_long_search_within_a_second(search):
    pos = solvo.Position("f5d6c3d3c4f4f6f3e6e7d7c5")  # 48 empties: hours of exact search
    run = {
        "solve": lambda: solvo.solve(pos, ladder="off", threads=2),
        "solve_moves": lambda: solvo.solve_moves(pos),
        "analyze": lambda: solvo.analyze(pos, depth=40),
        "engine": lambda: solvo.Engine(level=40).best_move(pos),
    }[search]
    interrupt_after(1.0)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run()
    took = time.monotonic() - start
    assert 0.9 < took < 2.0, f"{search}: interrupted after {took:.2f} s"
    # The interpreter goes on, and so does the package.
    assert solvo.solve(solvo.Position(ENDGAME)).score == 0


def test_searches_release_the_gil():
    pos = solvo.Position("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6")
    ticks = []
    done = threading.Event()

    def counter():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.01)

    t = threading.Thread(target=counter)
    t.start()
    solvo.solve(pos, time_limit=1.0, ladder="off")
    done.set()
    t.join()
    assert len(ticks) > 30


def test_bad_input_is_an_exception_with_the_command_lines_message():
    pos = solvo.Position(ENDGAME)
    for kwargs, cli in [
        ({"threads": 0}, ["--threads", "0"]),
        ({"window": (5, 2)}, ["--window", "5,2"]),
        ({"time_limit": -1.0}, ["--time-limit", "-1"]),
        ({"ladder": "sometimes"}, ["--ladder", "sometimes"]),
    ]:
        with pytest.raises(ValueError) as e:
            solvo.solve(pos, **kwargs)
        message = cli_error("solve", ENDGAME, *cli)
        tail = str(e.value).split(": ", 1)[1]
        assert tail in message, f"{kwargs}: {e.value!r} vs {message!r}"
    with pytest.raises(ValueError):
        solvo.solve(12)
    with pytest.raises(solvo.InputError):
        solvo.solve("xyz")
    with pytest.raises(ValueError):
        solvo.solve(pos, hash_mb=10**12)
    with pytest.raises(ValueError):
        solvo.solve_moves(pos, threads=-1)

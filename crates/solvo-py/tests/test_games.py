"""Small games in the OpenSpiel manner, and their solvers."""

import time

import pytest

import solvo
from solvo import games
from conftest import cli_json, interrupt_after


def test_names_and_info():
    assert "domineering" in games.names() and "othello" in games.names()
    assert games.info("breakthrough")["default_size"] == (5, 5)


def test_a_state_in_the_openspiel_manner():
    s = games.load("breakthrough", "4x3")
    assert s.current_player() == 0 and not s.is_terminal() and s.returns() == [0.0, 0.0]
    copy = s.clone()
    first = s.legal_actions()[0]
    name = s.action_to_string(first)
    s.apply_action(first)
    assert copy.legal_actions() and copy.current_player() == 0 and s.current_player() == 1
    other = copy.child_state(name)
    assert str(other) == str(s)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    assert s.current_player() == -4 and sum(s.returns()) == 0 and s.returns() != [0.0, 0.0]
    assert s.legal_actions() == []


def test_solve_gives_the_command_lines_answer():
    for name, size, algo in [("domineering", "4x4", "ab-tt"), ("breakthrough", "4x3", "ab-tt-mc"), ("nogo", "3x3", "pn2")]:
        r = games.solve(games.load(name, size), algo=algo, playouts=1000)
        (cli,) = cli_json("game", "solve", name, size, "--algo", algo, "--playouts", "1000")
        assert (r.value, r.verdict, r.result, r.winner, r.best_move) == (
            cli["value"], cli["verdict"], cli["result"], cli["winner"], cli["best_move"])
    r = games.solve(games.load("domineering", "5x5"), algo="ab-tt-mc", threads=2)
    assert r.winner == "second"


def test_options_and_othello():
    s = games.load("domineering", (3, 4), first="horizontal", symmetry=False)
    assert s.shape == (3, 4)
    assert games.solve(games.load("othello", "4x4")).value == -10


def test_bad_games_are_exceptions():
    with pytest.raises(ValueError, match="unknown game"):
        games.load("chess")
    with pytest.raises(ValueError):
        games.load("domineering", "0x3")
    with pytest.raises(ValueError):
        games.load("domineering", "5x5", colour="blue")
    with pytest.raises(ValueError, match="algo"):
        games.solve(games.load("domineering", "3x3"), algo="magic")
    s = games.load("domineering", "3x3")
    with pytest.raises(ValueError, match="not legal"):
        s.apply_action(99)
    with pytest.raises(ValueError, match="not legal"):
        s.apply_action("z9")


@pytest.mark.parametrize("algo", ["ab-tt", "ab-tt-mc", "dfpn", "pn2", "mcts-solver"])
def test_ctrl_c_stops_a_long_small_game_solve_within_a_second(algo):
    state = games.load("domineering", "8x8")  # far beyond any of these solvers in a second
    threads = 2 if algo == "ab-tt" else 1
    interrupt_after(1.0)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        games.solve(state, algo=algo, playouts=10_000_000, threads=threads)
    took = time.monotonic() - start
    assert 0.9 < took < 2.0, f"{algo}: interrupted after {took:.2f} s"
    # The interpreter goes on, and so does the solver (a lowered flag again).
    assert games.solve(games.load("domineering", "4x4"), algo=algo, playouts=1000).winner == "first"

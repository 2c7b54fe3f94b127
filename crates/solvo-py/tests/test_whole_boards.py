"""Whole boards: the weak solution of 4x4, and answers from a solution store."""

import subprocess

import pytest

import solvo
from conftest import cli_json, cli_path


def test_weak_solve_gives_the_command_lines_value():
    w = solvo.weak_solve(size=4)
    (cli,) = cli_json("solution", "weak", "--size", "4")
    assert (w.value, list(w.final_discs)) == (cli["value"], cli["final_discs"]) and w.value == -10
    end = solvo.Position.start(size=4)
    for m in w.pv:
        end = end.pass_() if m == "pass" else end.play(m)
    assert end.is_game_over and end.black_score == w.value
    with pytest.raises(ValueError, match="8x8"):
        solvo.weak_solve(size=8)


def test_a_store_answers_with_exact_values(tmp_path):
    path = tmp_path / "s4.redb"
    subprocess.run([str(cli_path()), "solution", "strong", "--size", "4", "--store", str(path)], check=True,
                   capture_output=True)
    store = solvo.SolutionStore(path)
    assert (store.size, store.variant) == (4, "normal") and len(store) > 1000
    pos = solvo.Position("d3c3", size=4)
    a = store.query(pos)
    assert a.source == "store" and a.value == solvo.solve(pos).score and a.best_move in pos.legal_moves()
    assert store.query("d3c3c4").value == solvo.solve(solvo.Position("d3c3c4", size=4)).score
    with pytest.raises(ValueError, match="holds 4x4"):
        store.query(solvo.Position())
    with pytest.raises(solvo.StoreError):
        solvo.SolutionStore(tmp_path / "missing.redb")

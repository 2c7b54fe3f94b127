"""The midgame search and the evaluation: the command line's values, every move, bad input."""

import pytest

import solvo
from conftest import cli_json

MIDGAME = "f5d6c3d3c4f4f6f3e6e7"


def test_analyze_gives_the_command_lines_values():
    r = solvo.analyze(MIDGAME, depth=8, selectivity=73)
    (cli,) = cli_json("analyze", MIDGAME, "--depth", "8", "--selectivity", "73")
    assert (r.best_move, r.score, r.depth, r.selectivity, r.exact) == (
        cli["best_move"], cli["score"], cli["depth"], cli["selectivity"], cli["exact"])
    assert r.pv == cli["pv"] and r.nodes == cli["nodes"]


def test_every_move_scored():
    r = solvo.analyze(MIDGAME, depth=6, all_moves=True)
    (cli,) = cli_json("analyze", MIDGAME, "--depth", "6", "--all-moves")
    assert r.moves == [(m["move"], m["score"]) for m in cli["moves"]]
    assert sorted(m for m, _ in r.moves) == sorted(solvo.Position(MIDGAME).legal_moves())


def test_a_finished_game_is_its_score():
    end = solvo.Position("-" * 0 + "X" * 64 + " O")
    r = solvo.analyze(end)
    assert r.game_over and r.score == -64 and r.exact
    assert solvo.evaluate(end) == -64


def test_evaluate_gives_the_command_lines_value():
    for text in [MIDGAME, "f5", "f5d6c3d3c4f4f6f3e6e7d7c5b6d8"]:
        (cli,) = cli_json("position", "eval", text)
        assert solvo.evaluate(text) == cli["score"]
    six = solvo.Position("e6f4", size=6)
    (cli,) = cli_json("position", "eval", "e6f4", "--size", "6")
    assert solvo.evaluate(six) == cli["score"]


def test_bad_analyses_are_exceptions():
    with pytest.raises(ValueError, match="8x8"):
        solvo.analyze(solvo.Position("e6", size=6))
    with pytest.raises(ValueError, match="selectivity"):
        solvo.analyze(MIDGAME, selectivity=50)
    with pytest.raises(ValueError, match="depth"):
        solvo.analyze(MIDGAME, depth=0)
    with pytest.raises(ValueError, match="time"):
        solvo.analyze(MIDGAME, time=0)
    with pytest.raises(ValueError, match="4x4"):
        solvo.evaluate(solvo.Position(size=4))

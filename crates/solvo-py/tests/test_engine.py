"""The engine: a move, every move's value, a game in progress, a review, bad settings."""

import pytest

import solvo

MIDGAME = solvo.Position("f5d6c3d3c4f4f6f3e6e7")


def test_best_move_and_analysis():
    e = solvo.Engine(level=6)
    r = e.best_move(MIDGAME)
    assert r.best_move in MIDGAME.legal_moves() and r.depth >= 1
    t = e.analyze(MIDGAME)
    assert sorted(m.move for m in t.moves) == sorted(MIDGAME.legal_moves()) and t.done
    near_end = solvo.Position("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8")
    t = solvo.Engine(level=10).analyze(near_end)  # exact from 20 empties
    assert all(m.exact for m in t.moves)
    assert t.moves[0].score == solvo.solve(near_end).score


def test_time_controls_and_levels():
    e = solvo.Engine(move_time=0.2)
    r = e.best_move(MIDGAME)
    assert r.best_move in MIDGAME.legal_moves() and r.time < 1.0
    e = solvo.Engine(game_time=10, increment=1)
    assert e.best_move(MIDGAME, remaining=0.5).time < 0.5
    e.level = 3
    assert e.level == 3


def test_a_game_in_progress():
    e = solvo.Engine(level=2)
    game = e.new_game()
    game.play("f5")
    reply = game.engine_move()
    assert reply.best_move in solvo.Position("f5").legal_moves()
    assert game.position.history == ["f5", reply.best_move]
    assert game.undo() == reply.best_move and game.redo() == reply.best_move
    with pytest.raises(solvo.InputError):
        game.play("a1")
    while not game.is_over:
        game.engine_move()
    assert game.result == game.position.black_score
    assert solvo.Position(game.to_ggf()) == game.position
    with pytest.raises(solvo.InputError, match="over"):
        game.engine_move()


def test_small_boards_are_played_perfectly():
    e = solvo.Engine(level=1)
    pos = solvo.Position.start(size=4).play("d3")
    r = e.best_move(pos)
    assert r.exact and -r.score == solvo.solve(pos.play(r.best_move)).score


def test_review_of_a_game(wthor_1977):
    game = solvo.read_wthor(wthor_1977)[0]
    review = solvo.Engine(level=1).review(game.end)
    assert len(review) == len(game) and all(p["loss"] >= 0 for p in review)


def test_bad_settings_are_exceptions(tmp_path):
    for kwargs in [{"level": 0}, {"level": 61}, {"threads": 0}, {"move_time": -1}, {"hash_mb": 0},
                   {"move_time": 1, "game_time": 10}, {"increment": 1}]:
        with pytest.raises(ValueError):
            solvo.Engine(**kwargs)
    with pytest.raises(solvo.InputError, match="no such file"):
        solvo.Engine(book=tmp_path / "missing.book")
    with pytest.raises(solvo.InputError):
        solvo.Engine(variant="chess")
    with pytest.raises(solvo.InputError, match="not reached by moves"):
        solvo.Engine().review(solvo.Position(MIDGAME.to_board_string()))

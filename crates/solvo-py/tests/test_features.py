"""Features as NumPy arrays: round trips with the evaluation, arrays of bitboards in and
out, 6x6, bad input."""

import numpy as np
import pytest

import solvo


def linear_value(weights, stages, features):
    """The evaluation in discs from the features: the stage's weights summed, clamped."""
    rows = weights[stages[:, None], features].astype(np.int64)
    return np.clip(rows.sum(axis=1), -64 * 128, 64 * 128) / 128


def test_features_round_trip_with_evaluate_on_a_whole_game(wthor_1977):
    game = solvo.read_wthor(wthor_1977)[0]
    positions = [p for p in game.positions() if not p.is_game_over]
    f = solvo.features(positions)
    assert f.shape == (len(positions), 53) and f.dtype == np.uint32
    values = linear_value(solvo.weights(), solvo.stages(positions), f)
    assert list(values) == [solvo.evaluate(p) for p in positions]
    assert list(solvo.evaluate_many(positions)) == list(values)


def test_an_array_of_bitboards_gives_the_same_features(wthor_1977):
    game = solvo.read_wthor(wthor_1977)[1]
    boards = game.boards()
    assert boards.shape == (len(game) + 1, 2) and boards.dtype == np.uint64
    assert (solvo.features(boards) == solvo.features(game.positions())).all()
    assert (solvo.stages(boards) == solvo.stages(game.positions())).all()


def test_six_by_six_and_reversed_weights():
    six = [solvo.Position("e6f4c3", size=6), solvo.Position("e6", size=6)]
    f = solvo.features(six)
    assert f.shape == (2, 41)
    values = linear_value(solvo.weights(size=6), solvo.stages(six), f)
    assert list(values) == [solvo.evaluate(p) for p in six]
    rev = [solvo.Position("f5d6", variant="reversed")]
    values = linear_value(solvo.weights(variant="reversed"), solvo.stages(rev), solvo.features(rev))
    assert list(values) == [solvo.evaluate(rev[0])] == list(solvo.evaluate_many(rev))


def test_bad_feature_inputs_are_exceptions():
    with pytest.raises(ValueError, match="shape"):
        solvo.features(np.zeros((3, 3), dtype=np.uint64))
    with pytest.raises(ValueError, match="overlap"):
        solvo.features(np.ones((1, 2), dtype=np.uint64))
    with pytest.raises(ValueError, match="not a solvo.Position"):
        solvo.features([solvo.Position(), "f5"])
    with pytest.raises(ValueError, match="among"):
        solvo.features([solvo.Position(), solvo.Position(size=6)])
    with pytest.raises(ValueError, match="4x4"):
        solvo.features([solvo.Position(size=4)])
    with pytest.raises(ValueError):
        solvo.features(42)
    with pytest.raises(ValueError, match="4x4"):
        solvo.weights(size=4)
    assert solvo.features([]).shape == (0, 53)

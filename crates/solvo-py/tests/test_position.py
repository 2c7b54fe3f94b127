"""Positions: every format read and written, moves, passes, the end of the game,
symmetries, displays."""

import pickle

import pytest

import solvo

ENDGAME = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8"


def test_the_start_in_every_size():
    for size, empties in [(8, 60), (6, 32), (4, 12)]:
        p = solvo.Position.start(size=size)
        assert (p.size, p.empties, p.side) == (size, empties, "black")
        assert solvo.Position("start", size=size) == p
    assert solvo.Position() == solvo.Position.start()
    assert sorted(solvo.Position().legal_moves()) == ["c4", "d3", "e6", "f5"]


def test_every_format_reads_back_the_same_position():
    p = solvo.Position(ENDGAME)
    assert p.empties == 20 and p.history[:3] == ["f5", "d6", "c3"]
    assert solvo.Position(p.to_board_string()) == p
    assert solvo.Position(p.to_obf()) == p
    assert solvo.Position(p.to_transcript()) == p
    assert solvo.Position(p.to_ggf()) == p
    assert solvo.Position(p.to_board64() + " X") == p
    six = solvo.Position("e6", size=6)
    assert solvo.Position(six.to_ggf()) == six and solvo.Position(six.to_obf(), size=6) == six
    reversed_ = solvo.Position("f5", variant="reversed")
    assert reversed_.variant == "reversed" and solvo.Position(reversed_.to_ggf(), variant="reversed") == reversed_


def test_play_pass_and_the_end_of_the_game():
    p = solvo.Position()
    q = p.play("f5")
    assert q.side == "white" and q.history == ["f5"] and q.to_transcript() == "f5"
    assert p.empties == 60  # immutable
    with pytest.raises(solvo.InputError, match="illegal move a1 for black"):
        p.play("a1")
    with pytest.raises(solvo.InputError, match="pass while black has legal moves"):
        p.pass_()
    # A game with a forced pass, then over (the 4x4 weak solution's line).
    line = ["d3", "c3", "c4", "e3", "f6", "c5", "f3", "d6", "c6", "e6"]
    pos = solvo.Position.start(size=4)
    for m in line:
        if pos.must_pass:
            pos = pos.pass_()
        pos = pos.play(m)
    assert pos.is_game_over and pos.legal_moves() == []
    assert pos.black_score == -10
    with pytest.raises(solvo.InputError, match="game is over"):
        pos.play("c6")


def test_from_bitboards_and_the_masks():
    p = solvo.Position()
    q = solvo.Position.from_bitboards(p.black, p.white, side="black")
    assert q == p and p.player == p.black and p.opponent == p.white
    with pytest.raises(solvo.InputError, match="overlap"):
        solvo.Position.from_bitboards(1, 1)
    with pytest.raises(solvo.InputError, match="off the 4x4"):
        solvo.Position.from_bitboards(1, 0, size=4)


def test_the_eight_symmetries_are_the_images_of_the_board():
    p = solvo.Position("f5d6c3")
    images = p.symmetries()
    assert len(images) == 8 and images[0] == p and len(set(images)) == 8
    assert all(i.empties == p.empties and i.side == p.side for i in images)
    assert all(i.canonical() == p.canonical() for i in images)
    assert p.transform(3) == images[3]
    with pytest.raises(solvo.InputError):
        p.transform(8)


def test_displays():
    p = solvo.Position("f5")
    assert "a b c d e f g h" in repr(p) and "Position(" in repr(p)
    assert str(p) == p.diagram()
    svg = p._repr_svg_()
    assert svg.startswith("<svg") and svg.endswith("</svg>") and svg.count("<circle") == 5 + 3


def test_equality_hash_and_pickle():
    p = solvo.Position(ENDGAME)
    assert p == solvo.Position(p.to_board_string()) and hash(p) == hash(solvo.Position(p.to_board_string()))
    assert p != p.play("g8") and p != "not a position"
    assert pickle.loads(pickle.dumps(p)) == p
    six = solvo.Position("e6", size=6, variant="reversed")
    assert pickle.loads(pickle.dumps(six)) == six


def test_perft():
    assert solvo.Position().perft(6) == 8200
    assert solvo.Position().perft(7, threads=2) == 55092


def test_bad_positions_are_exceptions_with_the_command_lines_messages():
    from conftest import cli_error

    for text in ["xyz", "f5f5", "(;GM[Othello]", "X" * 63 + " X;"]:
        with pytest.raises(solvo.InputError) as e:
            solvo.Position(text)
        assert str(e.value) == cli_error("position", "show", text)
    with pytest.raises(ValueError, match="size"):
        solvo.Position(size=5)
    with pytest.raises(ValueError, match="variant"):
        solvo.Position(variant="chess")
    with pytest.raises(ValueError):
        solvo.Position().play("z9")
    with pytest.raises(solvo.InputError, match="no transcript"):
        solvo.Position(solvo.Position("f5").to_board_string()).to_transcript()

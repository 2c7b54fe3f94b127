"""Reading WTHOR, GGF and OBF files, and their errors."""

import pytest

import solvo
from conftest import cli_error


def test_wthor_games_with_their_names(wthor_1977):
    games = solvo.read_wthor(wthor_1977)
    assert len(games) > 5 and all(g.year == 1977 for g in games)
    g = games[0]
    assert g.number == 1 and g.black and g.white and g.tournament
    assert g.start == solvo.Position() and g.end.history == g.moves
    assert solvo.Position(g.transcript()) == g.end
    positions = g.positions()
    assert len(positions) == len(g) + 1 and positions[-1] == g.end
    if g.end.is_game_over:
        assert (64 + g.end.black_score) // 2 == g.black_discs


def test_ggf_records(tmp_path):
    game = solvo.Position("f5d6c3d3c4")
    path = tmp_path / "games.ggf"
    path.write_text(game.to_ggf("alice", "bob") + "\n" + solvo.Position("e6", size=6).to_ggf())
    games = solvo.read_ggf(path)
    assert [g.black for g in games] == ["alice", "black"]
    assert games[0].end == game and games[0].moves == ["f5", "d6", "c3", "d3", "c4"]
    assert games[0].tags["GM"] == "Othello" and games[1].start.size == 6


def test_obf_problems(ffo_1_19):
    first = ffo_1_19[0]
    assert first.line == 1 and first.score == 18 and first.best_moves == ["g8"]
    assert ("h1", 12) in first.move_scores and first.position.empties == 14


def test_bad_files_are_exceptions_naming_the_file(tmp_path, wthor_1977):
    missing = tmp_path / "missing.obf"
    with pytest.raises(solvo.InputError, match="no such file"):
        solvo.read_obf(missing)
    bad = tmp_path / "bad.obf"
    bad.write_text("XXXX X;\n")
    with pytest.raises(solvo.InputError) as e:
        solvo.read_obf(bad)
    assert str(e.value) == cli_error("solve", str(bad))
    with pytest.raises(solvo.InputError, match="not a text file"):
        solvo.read_ggf(wthor_1977)
    with pytest.raises(solvo.InputError, match="GGF|expected"):
        (tmp_path / "x.ggf").write_text("(;GM[Othello]B[d3")
        solvo.read_ggf(tmp_path / "x.ggf")
    short = tmp_path / "short.wtb"
    short.write_bytes(b"\x01\x02")
    with pytest.raises(solvo.InputError, match="too short"):
        solvo.read_wthor(short)
    with pytest.raises(solvo.InputError, match="is a directory"):
        solvo.read_wthor(tmp_path)

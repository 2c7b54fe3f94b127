"""Whole boards: the weak solution of 4x4, and answers from a solution store."""

import re
import shlex
import subprocess

import pytest

import solvo
from conftest import ROOT, cli_json, cli_path


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


def tutorial_step(title: str) -> tuple:
    """The shell command and the Python code of the section `title` of docs/python.md."""
    text = (ROOT / "docs" / "python.md").read_text()
    section = text.split("## " + title + "\n", 1)[1].split("\n## ", 1)[0]
    (sh,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    (py,) = re.findall(r"```python\n(.*?)```", section, re.S)
    return sh.strip(), py


def test_the_tutorials_semi_strong_store_step(tmp_path):
    """docs/python.md's step "Query the 6x6 semi-strong store", run as written on the
    smallest store it can use in seconds: the same commands on 4x4 (the 6x6 store takes
    about 21 minutes), its 6x6 line of moves replaced by a 4x4 one."""
    sh, py = tutorial_step("Query the 6x6 semi-strong store")
    args = shlex.split(sh)
    assert args[:3] == ["solvo", "solution", "semi-strong"] and "--store" in args, sh
    doc_store = args[args.index("--store") + 1]
    path = tmp_path / "ss4.redb"
    args[0] = str(cli_path())
    args[args.index("--store") + 1] = str(path)
    args[args.index("--size") + 1] = "4"
    args[args.index("--min-empties") + 1] = "0"
    subprocess.run(args, check=True, capture_output=True)
    assert doc_store in py and 'store.query("e6f4c3c4d3")' in py and "weak_solve(size=6)" in py
    code = (py.replace(doc_store, str(path)).replace('store.query("e6f4c3c4d3")', 'store.query("d3c3")')
            .replace("weak_solve(size=6)", "weak_solve(size=4)"))
    scope = {"solvo": solvo}
    exec(compile(code, "docs/python.md", "exec"), scope)
    store, a = scope["store"], scope["a"]
    assert (store.size, store.variant) == (4, "normal") and len(store) > 100
    assert a.source == "store" and a.value == solvo.solve(solvo.Position("d3c3", size=4)).score

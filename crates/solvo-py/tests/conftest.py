"""Shared fixtures: the repository's data sets (``../shared/data`` beside the repository,
as the Rust tests find them) and the ``solvo`` command line, whose JSON the package's
values are checked against (``SOLVO_BIN``, else ``target/release/solvo``)."""

import json
import os
import pathlib
import signal
import subprocess
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared" / "data"


def shared(*parts: str) -> pathlib.Path:
    """A file of the shared data sets; a missing one fails the test (CI has them)."""
    path = SHARED.joinpath(*parts)
    assert path.is_file(), f"{path}: missing (the data sets live in ../shared/data beside the repository)"
    return path


def cli_path() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("SOLVO_BIN", ROOT / "target" / "release" / "solvo"))
    assert path.is_file(), f"{path}: the solvo binary is needed (cargo build --release, or set SOLVO_BIN)"
    return path


def cli_json(*args: str) -> list:
    """The JSON objects `solvo <args> --json` prints, one per line."""
    out = subprocess.run([str(cli_path()), *args, "--json"], capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def cli_error(*args: str) -> str:
    """The error message `solvo <args>` prints (without `error: `); the command must fail."""
    out = subprocess.run([str(cli_path()), *args], capture_output=True, text=True)
    assert out.returncode != 0, out.stdout
    line = next(l for l in out.stderr.splitlines() if l.startswith("error: "))
    return line[len("error: "):]


def interrupt_after(seconds: float) -> threading.Timer:
    """Sends this process SIGINT (Ctrl-C) after `seconds`. Python raises
    KeyboardInterrupt on SIGINT unless it started with the signal ignored (as a
    command started in the background by a non-interactive shell does): the handler is
    set here, so the tests do not depend on how they were started."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.fixture(scope="session")
def ffo_1_19():
    import solvo

    return solvo.read_obf(shared("ffo", "fforum-1-19.obf"))


@pytest.fixture(scope="session")
def wthor_1977():
    return shared("wthor", "WTH_1977.wtb")

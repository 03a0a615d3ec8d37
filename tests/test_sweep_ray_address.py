"""`--ray-address` that leads to no Ray cluster: bad input (exit 2) with what was expected, in bounded time.

Ray itself retries an address nothing listens on for minutes (measured: over 5 minutes for a refused
port); dmcheck refuses such an address at once, and gives a port that answers but is no Ray cluster's
RAY_CONNECT_SECONDS (rulings/sweep/backends.py).
"""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time

import pytest
from conftest import ROOT

from dmcheck.main import main
from dmcheck.rulings.sweep.backends import RAY_CONNECT_SECONDS

TEMPLATE = ROOT / "scenarios" / "sweeps" / "shield_saver_timing.yaml"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]        # closed again: nothing listens on it


@pytest.mark.parametrize("address,expected", [
    ("127.0.0.1:FREE", "cannot reach it"),          # a port nothing listens on, found when the test runs
    ("no-such-host.invalid:6379", "cannot reach it"),
    ("just-a-name", "not HOST:PORT"),
])
def test_an_address_nothing_listens_on_is_refused_at_once(tmp_path, address, expected):
    address = address.replace("FREE", str(_free_port()))
    out, err = io.StringIO(), io.StringIO()
    began = time.monotonic()
    code = main(["sweep", str(TEMPLATE), "--db", str(tmp_path / "s.sqlite"), "--backend", "ray",
                 "--ray-address", address], out, err)
    assert code == 2 and time.monotonic() - began < 15
    assert f"--ray-address: {address}: {expected}" in err.getvalue() and "ray start --head" in err.getvalue()


@pytest.mark.slow
def test_a_port_that_is_no_ray_cluster_is_refused_in_bounded_time(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[test,ray]'")
    with socket.socket() as server:              # accepts connections, says nothing: no Ray cluster
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        address = f"127.0.0.1:{server.getsockname()[1]}"
        began = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "dmcheck", "sweep", str(TEMPLATE),
                               "--db", str(tmp_path / "s.sqlite"),
                               "--backend", "ray", "--ray-address", address], cwd=tmp_path, capture_output=True,
                              text=True, timeout=RAY_CONNECT_SECONDS + 120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    took = time.monotonic() - began
    assert done.returncode == 2, done.stderr[-2000:]
    assert f"--ray-address: {address}:" in done.stderr and "Traceback" not in done.stderr
    assert took < RAY_CONNECT_SECONDS + 60

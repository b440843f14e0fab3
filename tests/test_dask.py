"""Scale-out: a simulation runs on a dask.distributed cluster through its concurrent.futures executor.

The cluster runs in a child Python process: importing `distributed` installs tblib's exception
pickling for every exception class of the process, which would change how the rest of the suite's
exceptions pickle.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import distributed

    import cucumber_rules as cr
    from cucumber_rules.simulate import simulate

    rules = cr.ruleset("five-cucumbers")
    args = {"players": 3, "bots": ["heuristic", "random"], "matches": 8, "seed": 21}
    done = []
    if __name__ == "__main__":
        with (
            distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster,
            distributed.Client(cluster) as client,
        ):
            executor = client.get_executor()
            on_dask = simulate(rules, executor=executor, chunk_size=3, progress=done.append, **args)
        assert on_dask == simulate(rules, **args), "the dask run differs from a local run"
        assert [m.index for m in on_dask.matches] == list(range(8))
        assert done[-1] == 8
        print("ok", on_dask.matches[0].winners)
    """
)


@pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="dask.distributed is not installed (pip install 'cucumber-rules[scale]')",
)
def test_simulate_on_a_dask_cluster_matches_a_local_run() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok")

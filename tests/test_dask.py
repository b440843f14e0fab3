"""Scale-out: a simulation runs on a dask.distributed cluster through its concurrent.futures executor."""

from __future__ import annotations

import pytest

import cucumber_rules as cr
from cucumber_rules.simulate import simulate

distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is not installed (pip install 'cucumber-rules[scale]')"
)


def test_simulate_on_a_dask_cluster_matches_a_local_run() -> None:
    rules = cr.ruleset("five-cucumbers")
    args = {"players": 3, "bots": ["heuristic", "random"], "matches": 8, "seed": 21}
    done: list[int] = []
    with (
        distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = simulate(rules, executor=client.get_executor(), chunk_size=3, progress=done.append, **args)  # type: ignore[arg-type]
    assert on_dask == simulate(rules, **args)  # type: ignore[arg-type]
    assert [m.index for m in on_dask.matches] == list(range(8))
    assert done[-1] == 8

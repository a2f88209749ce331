"""The job's hybrid communicate group, set by ``fleet.init`` and read by the parallel layers
(a module of its own so that the layers need not import the fleet singleton)."""
_hcg = [None]


def get_hcg():
    return _hcg[0]


def set_hcg(hcg):
    _hcg[0] = hcg

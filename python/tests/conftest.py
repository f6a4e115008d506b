from pathlib import Path

import numpy as np
import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def read_expected(name: str):
    """The Swift CLI's answers: (xs, ys, ids) of an expected-*.csv (ids None where empty)."""
    lines = (FIXTURES / name).read_text().splitlines()
    assert lines[0] == "x,y,id"
    xs, ys, ids = [], [], []
    for line in lines[1:]:
        x, y, i = line.split(",")
        xs.append(float(x))
        ys.append(float(y))
        ids.append(i or None)
    return np.array(xs), np.array(ys), ids


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES

import math

import pandas as pd

from l2relu import claims


def test_checks_decide_pass_and_fail():
    assert claims.within("t", "c", 0.27, 0.30, 0.05)["status"] == "pass"
    assert claims.within("t", "c", 0.27, 0.40, 0.05)["status"] == "fail"
    assert claims.at_least("t", "c", "p", 1.2, 1.1)["status"] == "pass"
    assert claims.at_least("t", "c", "p", 1.0, 1.1)["status"] == "fail"
    assert claims.at_most("t", "c", "p", 0, 0, fmt="{:d}")["status"] == "pass"


def test_a_missing_measurement_fails():
    for value in (math.nan, math.inf, None):
        assert claims.at_least("t", "c", "p", value, 0.0)["status"] == "fail"
        assert claims.within("t", "c", 0.0, value, 1.0)["status"] == "fail"


def test_ledger_and_summary():
    rows = claims.table([claims.at_least("a", "x", "p", 1, 0), claims.at_most("b", "y", "p", 2, 1)])
    ledger = claims.ledger([rows, claims.table([])])
    assert list(ledger.columns) == claims.COLUMNS
    md = claims.summary_markdown(ledger)
    assert "1 of 2 claims pass." in md and "| b | y |" in md
    assert isinstance(ledger, pd.DataFrame)

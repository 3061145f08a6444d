"""What the workflow reads before any job starts: the experiments' declarations, the config
checks, each script's code dependencies and what a job asks a scheduler for. Imported at parse
time, so none of it imports torch or numba (tests/test_code_dependencies.py)."""

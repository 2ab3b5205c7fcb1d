"""What a results store holds, listed or deleted: its record, its runs, its data sets, its
cross-validations (without their arrays).

Each function takes the store's ``retry`` (its way to run an operation on its connection,
SQLite's errors raised as :class:`~svmeval.store.StoreError`) and returns plain values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

    from svmeval.store._schema import Retry

__all__ = ["delete_units", "list_datasets", "list_meta", "list_runs", "list_units"]


def list_meta(retry: Retry) -> dict:
    """The store's own record: format, schema, requires, created, svmeval."""
    rows = retry(lambda c: c.execute("SELECT name, value FROM meta").fetchall())
    return {str(k): str(v) for k, v in rows}


def list_runs(retry: Retry) -> list[dict]:
    """Every run that wrote to the store, oldest first."""
    names = (
        "id",
        "started",
        "finished",
        "command",
        "cwd",
        "svmeval",
        "libsvm",
        "reused",
        "computed",
    )
    from svmeval.store._schema import has_call

    def read(c: sqlite3.Connection) -> list:
        columns = [*names, *(k if has_call(c, k) else "NULL" for k in ("call", "liblinear"))]
        return c.execute(f"SELECT {', '.join(columns)} FROM runs ORDER BY id").fetchall()

    return [dict(zip((*names, "call", "liblinear"), row)) for row in retry(read)]


def list_datasets(retry: Retry) -> list[dict]:
    """The data sets with units, in the order of their first unit."""
    names = ("data", "data_name", "units", "configurations", "first", "last")
    rows = retry(
        lambda c: c.execute(
            "SELECT data, min(data_name), count(*), count(DISTINCT configuration),"
            " min(created), max(created) FROM units GROUP BY data ORDER BY min(id)"
        ).fetchall()
    )
    return [dict(zip(names, row)) for row in rows]


def list_units(retry: Retry, data: str | None, configuration: str | None) -> list[dict]:
    """The stored cross-validations, optionally of one data set and/or configuration."""
    names = (
        "kind",
        "data",
        "data_name",
        "configuration",
        "n_folds",
        "seed",
        "folds",
        "seconds",
        "first",
        "last",
        "svmeval",
        "libsvm",
    )
    where, args = _where(data, configuration)
    rows = retry(
        lambda c: c.execute(
            "SELECT kind, data, min(data_name), configuration, n_folds, seed, count(*),"
            " sum(seconds), min(created), max(created), max(svmeval), max(libsvm) FROM units"
            f"{where} GROUP BY kind, data, configuration, n_folds, seed ORDER BY min(id)",
            args,
        ).fetchall()
    )
    return [dict(zip(names, row)) for row in rows]


def _where(data, configuration) -> tuple[str, tuple]:
    clauses, args = [], []
    if data is not None:
        clauses.append("(data = ? OR data_name = ?)")
        args += [str(data), str(data)]
    if configuration is not None:
        clauses.append("configuration = ?")
        args.append(str(configuration))
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(args)


def delete_units(retry: Retry, data: str | None, configuration: str | None) -> int:
    """Delete, in one transaction, the units of a data set (its digest or its name) and/or of
    a configuration; returns how many."""
    where, args = _where(data, configuration)

    def write(c: sqlite3.Connection) -> int:
        c.execute("BEGIN IMMEDIATE")
        try:
            n = c.execute(f"DELETE FROM units{where}", args).rowcount
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        return int(n)

    return retry(write)

"""The results store: :class:`Store`, one SQLite file opened and checked, its units read and
written, its runs recorded.

The file's schema and its checks on opening are :mod:`svmeval.store._schema`'s; a unit's key and
the encoding of its value :mod:`svmeval.store._units`'s; the listings and deletions
:mod:`svmeval.store._queries`'s.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from svmeval._version import __version__
from svmeval.errors import show_path
from svmeval.store._errors import StoreError
from svmeval.store._queries import (
    delete_units,
    list_datasets,
    list_meta,
    list_runs,
    list_units,
)
from svmeval.store._schema import SCHEMA_VERSION, check_folder, check_header, migrate, open_file
from svmeval.store._units import UnitRecord, decode_unit, encode_unit, now

# sqlite3 and json are imported where used: the runs import this module for their ``store=``
# annotation, and a run without a store pays nothing for it
if TYPE_CHECKING:
    import sqlite3

__all__ = ["BUSY_TIMEOUT", "READ_ONLY", "Store", "StoreLike", "open_store"]

#: seconds a write waits for another process's transaction
BUSY_TIMEOUT = 600.0
#: why a store this process cannot write refuses a write
READ_ONLY = "cannot write to the store (the file or its folder is read-only)"
# SQLite's own busy wait, one try of _retry's: SQLite sleeps in C, where no Python signal
# handler runs, so a Ctrl-C waits for it to end; _retry's sleeps, between tries, take it at once
_SQLITE_WAIT = 0.05
# the keys one query asks for (SQLite's oldest limit on a statement's variables is 999)
_KEYS_A_QUERY = 500


def open_store(path: str | os.PathLike[str], *, create: bool = True) -> Store:
    """Open (or, with ``create``, create) a results store.

    Parameters
    ----------
    path : str or os.PathLike
        The store's file (one SQLite database).
    create : bool, default True
        Accept a file that does not exist yet (else :class:`StoreError`): it is created at
        the first unit or run written to it, so that a run refused or failing before it
        computes anything leaves no file behind; until then the store reads as empty.
        Its folder must exist and be writable.

    Returns
    -------
    Store
        ``runs()``, ``datasets()``, ``units()`` list what it holds, ``delete(...)`` removes
        units; pass it (or its path) as ``store=`` to any run function.

    Raises
    ------
    StoreError
        The file is not an svmeval store, is damaged, or needs a newer svmeval.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from svmeval import cross_validate, open_store
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "runs.db"
    >>> _ = cross_validate("data/wine.scale", folds=3, store=path)
    >>> with open_store(path) as store:
    ...     [(d["data_name"], d["units"]) for d in store.datasets()]
    [('data/wine.scale', 3)]
    """
    return Store(path, create=create)


class Store:
    """A results store (see :func:`open_store`): one SQLite file, opened and checked.

    ``reused`` and ``computed`` count the units this object gave to runs and took from them.
    ``read_only``: the file cannot be written by this process (a read-only file, or one in a
    folder it cannot write): it is read as it is, and a write raises :class:`StoreError`.
    Usable from one process's threads; every other process opens its own.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from svmeval import Store, compare
    >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "runs.db")
    >>> _ = compare("data/wine.scale", "-c 1", "-c 4", folds=3, repeat=2, store=store)
    >>> store.reused, store.computed
    (0, 12)
    >>> _ = compare("data/wine.scale", "-c 1", "-c 8", folds=3, repeat=2, store=store)
    >>> store.reused, store.computed  # -c 1's folds were there
    (6, 18)
    >>> sorted({u["configuration"] for u in store.units()})
    ['-g 0.0769231', '-g 0.0769231 -c 4', '-g 0.0769231 -c 8']
    >>> store.delete(configuration="-g 0.0769231 -c 8")
    6
    >>> store.close()
    """

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True) -> None:
        self.path = os.fspath(path)
        self.name = show_path(self.path)
        self.reused = 0
        self.computed = 0
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        # a store whose file does not exist yet: created at its first write (a run that fails
        # before it computes anything leaves no file), read as empty until then
        self._pending = False
        self._older = False  # a store of an older schema: migrated before its first write
        self.read_only = False
        if self._check_file(create):
            self._connect(create)
        else:
            self._check_folder()
            self._pending = True

    def _connect(self, create: bool) -> None:
        try:
            self._connect_to(self.path, create, immutable=False)
        except StoreError as exc:
            # a WAL store in a folder this process cannot write: SQLite cannot make the
            # shared-memory file a reader needs; the file is read as it is, every write refused
            if "unable to open database file" not in str(exc) or not os.path.isfile(self.path):
                raise
            from urllib.parse import quote

            uri = f"file:{quote(os.path.abspath(self.path))}?immutable=1"
            self._connect_to(uri, False, immutable=True)
            self.read_only = True
            return
        # SQLite opens a file it may not write read-only, and refuses each write later
        self.read_only = not os.access(self.path, os.W_OK)

    def _connect_to(self, target: str, create: bool, *, immutable: bool) -> None:
        import sqlite3

        conn = sqlite3.connect(
            target,
            timeout=_SQLITE_WAIT,
            isolation_level=None,
            check_same_thread=False,
            uri=immutable,
        )
        try:
            self._conn = conn
            open_file(self.path, create, self._retry, self._fail, immutable=immutable)
            version = self._retry(lambda c: c.execute("PRAGMA user_version").fetchone()[0])
            self._older = version < SCHEMA_VERSION
        except BaseException:
            self._conn = None
            conn.close()
            raise

    def _ready(self, write: bool) -> bool:
        """Whether the file is open: a store not created yet is opened (and checked) once its
        file exists (another process made it), or created for a write; else False."""
        with self._lock:
            if not self._pending:
                return True
            if not write and not os.path.lexists(self.path):
                return False
            self._check_file(True)
            self._connect(True)
            self._pending = False
            return True

    def _writable(self) -> None:
        """Open (or create) the file for a write; a store of an older schema is migrated
        first (:func:`~svmeval.store._schema.migrate`): reading one never changes it. A
        read-only store is refused here, before anything is written."""
        self._ready(True)
        if self.read_only:
            raise self._fail(READ_ONLY)
        with self._lock:
            if self._older:
                self._retry(migrate)
                self._older = False

    # --- opening ------------------------------------------------------------------------------
    def _fail(self, reason: str) -> StoreError:
        return StoreError(f"{self.name}: {reason}")

    def _check_folder(self) -> None:
        """Refuse a new store that could not be created: its folder missing or not writable."""
        check_folder(self.path, self._fail)

    def _check_file(self, create: bool) -> bool:
        """Refuse, before SQLite opens it, a file that is not an SQLite database or is shorter
        than its header says. Returns whether the file exists."""
        return check_header(self.path, create, self._fail)

    def _retry(self, operation: Callable[[sqlite3.Connection], Any]) -> Any:
        """``operation(connection)``, its SQLite errors as :class:`StoreError`; a busy or locked
        database is tried again until :data:`BUSY_TIMEOUT`, sleeping here between tries (where
        a Ctrl-C lands at once), SQLite's own busy wait being short."""
        import sqlite3

        deadline = time.monotonic() + BUSY_TIMEOUT
        delay = 0.001
        while True:
            try:
                with self._lock:
                    if self._conn is None:
                        raise self._fail("store is closed")
                    return operation(self._conn)
            except sqlite3.OperationalError as exc:
                text = str(exc)
                if ("locked" in text or "busy" in text) and time.monotonic() < deadline:
                    time.sleep(delay)
                    delay = min(0.1, delay * 2)
                    continue
                raise self._database_error(exc) from None
            except sqlite3.DatabaseError as exc:
                raise self._database_error(exc) from None

    def _database_error(self, exc: Exception) -> StoreError:
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "not a database" in text:
            return self._fail("not an svmeval store (not an SQLite database)")
        if "malformed" in text or "corrupt" in text:
            return self._fail(f"damaged store ({text})")
        return self._fail(f"cannot use the store ({text})")

    def close(self) -> None:
        """Close the file (a closed store cannot be used again)."""
        with self._lock:
            self._pending = False
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.path!r})"

    # --- units --------------------------------------------------------------------------------
    def get(self, key: str, shapes: dict) -> UnitRecord | None:
        """The unit of ``key``, or None when the store lacks it.

        ``shapes``: name -> the shape each array must have (None: the array must be absent).
        A unit whose arrays differ in name, dtype, shape or length from these, or whose
        record is malformed, raises :class:`StoreError`: a store is data, never trusted.
        """
        if not self._ready(False):
            return None
        row = self._retry(
            lambda c: c.execute(
                "SELECT arrays, payload, digest, seconds FROM units WHERE key = ?", (key,)
            ).fetchone()
        )
        if row is None:
            return None
        return decode_unit(key, row, shapes, self._fail)

    def known(self, keys: list[str]) -> set[str]:
        """Which of ``keys`` the store holds (asked a few hundred at a time)."""
        return set(self._select("key", keys))

    def rows(self, keys: list[str]) -> dict:
        """The stored values of those of ``keys`` the store holds, read in a few queries (a
        few hundred keys each): key -> its row as :meth:`get` reads it, to be decoded by
        :meth:`decode` (a run reads all its units at once, then checks each in its order)."""
        return self._select("arrays, payload, digest, seconds", keys)

    def _select(self, columns: str, keys: list[str]) -> dict:
        """key -> ``columns`` (one column: its value; more: a tuple) of the units of ``keys``
        the store holds."""
        if not self._ready(False):
            return {}
        found: dict = {}
        one = "," not in columns
        for start in range(0, len(keys), _KEYS_A_QUERY):
            part = keys[start : start + _KEYS_A_QUERY]
            marks = ", ".join("?" * len(part))
            rows = self._retry(
                lambda c: c.execute(
                    f"SELECT key, {columns} FROM units WHERE key IN ({marks})", part
                ).fetchall()
            )
            for row in rows:
                found[str(row[0])] = row[1] if one else row[1:]
        return found

    def decode(self, key: str, row: tuple, shapes: dict) -> UnitRecord:
        """A unit's value from its row (:meth:`rows`), checked as :meth:`get` checks it."""
        return decode_unit(key, row, shapes, self._fail)

    def put(
        self,
        key: str,
        fields: dict,
        arrays: dict,
        seconds: float,
        run: int | None = None,
        counts: tuple[int, int] | None = None,
    ) -> bool:
        """Write one unit in its own transaction (kept once: a key already there is left as
        it is). ``fields``: the key's fields (``data``, ``data_name``, ``configuration``,
        ``n_folds``, ``seed``, ``fold`` are also columns); ``run``: the run that computed it
        (:meth:`begin_run`), whose ``(reused, computed)`` units so far, ``counts``, the same
        transaction records (an interrupted or killed run's counts are those of its last
        unit written). Returns whether it was new."""
        self._writable()
        row = encode_unit(key, fields, arrays, seconds, run)
        return bool(self._retry(lambda c: self._insert(c, [row], run, counts)))

    @staticmethod
    def _insert(
        c: sqlite3.Connection, rows: list, run: int | None, counts: tuple[int, int] | None
    ) -> int:
        """``rows`` in one ``BEGIN IMMEDIATE`` transaction, each kept once, and the counts of
        the run that wrote them."""
        c.execute("BEGIN IMMEDIATE")
        new = 0
        try:
            for row in rows:
                new += c.execute(
                    "INSERT OR IGNORE INTO units (key, kind, data, data_name, configuration,"
                    " n_folds, seed, fold, fields, arrays, payload, digest, seconds, created,"
                    " run, svmeval, libsvm)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                ).rowcount
            if run is not None and counts is not None:
                c.execute(
                    "UPDATE runs SET reused = ?, computed = ? WHERE id = ?",
                    (int(counts[0]), int(counts[1]), int(run)),
                )
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        return new

    def put_many(
        self, rows: list, run: int | None = None, counts: tuple[int, int] | None = None
    ) -> int:
        """Write several units ``(key, fields, arrays, seconds)`` in one transaction (the folds
        of a ``-b 1`` cross-validation, which are used all together), ``run`` and ``counts``
        as :meth:`put`'s. Returns the new ones."""
        if not rows:
            return 0
        self._writable()
        prepared = [
            encode_unit(key, fields, arrays, seconds, run) for key, fields, arrays, seconds in rows
        ]
        return int(self._retry(lambda c: self._insert(c, prepared, run, counts)))

    # --- runs -----------------------------------------------------------------------------------
    def begin_run(
        self,
        command: str,
        libsvm: str | None = "",
        cwd: str | None = None,
        call: str | None = None,
        liblinear: str | None = None,
    ) -> int:
        """Record a run starting (``command``: its command line or call, ``cwd``: the folder
        it ran in, ``call``: a library function's call as JSON, :func:`~svmeval.store.describe_call`;
        ``libsvm``, ``liblinear``: the versions of the libraries it uses, None for one it
        does not); returns its id."""
        self._writable()

        def write(c: sqlite3.Connection) -> int:
            cursor = c.execute(
                "INSERT INTO runs (started, command, cwd, svmeval, libsvm, call, liblinear)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (now(), command, cwd, __version__, libsvm, call, liblinear),
            )
            return int(cursor.lastrowid or 0)

        return self._retry(write)

    def note_library(self, run: int, library: str, version: str) -> None:
        """Record that run ``run`` uses ``library`` (``libsvm`` or ``liblinear``) of
        ``version`` too (a comparison of a LIBSVM and a LIBLINEAR configuration)."""
        if library not in ("libsvm", "liblinear"):
            raise StoreError(f"{self.name}: no library {library!r}")
        self._writable()
        self._retry(
            lambda c: c.execute(
                f"UPDATE runs SET {library} = ? WHERE id = ?", (str(version), int(run))
            )
        )

    def end_run(self, run: int, reused: int, computed: int) -> None:
        """Record a run's end and its counts of units reused and computed."""
        self._writable()
        self._retry(
            lambda c: c.execute(
                "UPDATE runs SET finished = ?, reused = ?, computed = ? WHERE id = ?",
                (now(), int(reused), int(computed), int(run)),
            )
        )

    # --- looking inside -------------------------------------------------------------------------
    def meta(self) -> dict:
        """The store's own record: format, schema, requires, created, svmeval."""
        if not self._ready(False):
            return {}
        return list_meta(self._retry)

    def runs(self) -> list[dict]:
        """Every run that wrote to the store, oldest first: ``id``, ``started``,
        ``finished`` (None: interrupted), ``command`` (a command line, or the function called),
        ``cwd`` (the folder it ran in), ``svmeval``, ``libsvm`` and ``liblinear`` (the
        versions of the libraries it used; None: one it did not use, or a run recorded by
        a store of schema version 2, whose ``libsvm`` is LIBSVM's version whatever it used),
        ``reused``, ``computed``, ``call``."""
        if not self._ready(False):
            return []
        return list_runs(self._retry)

    def datasets(self) -> list[dict]:
        """The data sets with units: ``data`` (digest), ``data_name``, ``units``,
        ``configurations``, ``first`` and ``last`` (when written)."""
        if not self._ready(False):
            return []
        return list_datasets(self._retry)

    def units(self, *, data: str | None = None, configuration: str | None = None) -> list[dict]:
        """The stored cross-validations (no arrays), optionally of one data set (its digest
        or name) and/or configuration: ``kind`` (``cv-fold``, or ``nested-outer-fold`` for a
        nested CV's outer folds), ``data``, ``data_name``, ``configuration`` (svm-train's
        options, gamma resolved), ``n_folds``, ``seed``, ``folds`` (units stored),
        ``seconds`` (their training time), ``first`` and ``last`` (when written),
        ``svmeval`` and ``libsvm`` (the versions that computed them)."""
        if not self._ready(False):
            return []
        return list_units(self._retry, data, configuration)

    def delete(self, *, data: str | None = None, configuration: str | None = None) -> int:
        """Delete the units of a data set (its digest or its name as stored) and/or of a
        configuration (its svm-train options as listed); at least one must be given.
        Returns the units deleted; a later run computes them again."""
        if data is None and configuration is None:
            raise StoreError("delete() needs data or configuration (or both)")
        if not self._ready(False):
            return 0
        if self.read_only:
            raise self._fail(READ_ONLY)
        return delete_units(self._retry, data, configuration)


#: what a run's ``store=`` takes: an open :class:`Store`, or its file's name (opened for the run,
#: created if missing, closed at its end)
StoreLike = Store | str | os.PathLike[str]

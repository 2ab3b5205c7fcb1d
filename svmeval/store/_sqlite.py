"""The results store's SQLite file: its schema, its checks on opening, one unit read or written.

The file
--------
One SQLite database (Python's own ``sqlite3``, no server), in WAL mode with a busy timeout:
any number of processes may read and write it at once; each unit is written in its own
``BEGIN IMMEDIATE`` transaction with ``INSERT OR IGNORE`` on its unique key, so a unit two
processes computed together is stored once, and a process killed at any moment loses only the
units it had not yet written. ``PRAGMA application_id`` marks the file as svmeval's
(:data:`APPLICATION_ID`), ``PRAGMA user_version`` carries the schema's version
(:data:`SCHEMA_VERSION`).

Schema version 1::

    meta   (name TEXT PRIMARY KEY, value TEXT)          format, schema, requires, created, svmeval
    units  (id, key TEXT UNIQUE, kind TEXT, data TEXT, data_name TEXT, configuration TEXT,
            n_folds INT, seed INT, fold INT, fields TEXT, arrays TEXT, payload BLOB,
            digest TEXT, seconds REAL, created TEXT, run INT, svmeval TEXT, libsvm TEXT)
    runs   (id, started TEXT, finished TEXT, command TEXT, cwd TEXT, svmeval TEXT,
            libsvm TEXT, reused INT, computed INT)

``units.key`` is the SHA-256 of the unit's key fields (:func:`unit_key`), also kept as JSON in
``fields``; ``arrays`` lists ``[name, "<f8", shape]`` for each array, whose little-endian bytes
follow one another in ``payload``; ``digest`` is the SHA-256 of ``arrays`` and ``payload``
(SQLite keeps no checksum of its own: a damaged value is caught by it).

Migration rule: the schema's version grows by one whenever svmeval changes the schema; an
svmeval opening an older store migrates it in place in one transaction before its first unit;
a store whose version is newer than this svmeval's is refused, with the svmeval version it
needs (``meta.requires``). A unit's key holds the version of svmeval's results
(:data:`RESULTS_VERSION`): a change that alters a result makes new keys, and old units are
simply not found.

A store whose file does not exist yet is created at its first write (a run that fails
before it computes a unit leaves no file behind); until then it reads as empty, and it opens
the file as soon as another process has made it.

Opening never changes a file that is not an svmeval store: a file that is not an SQLite
database (checked by its header before SQLite opens it), one truncated below the size its
header states, another program's database, a damaged one is refused with
:class:`StoreError`, and left byte for byte as it was.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from svmeval._version import __version__
from svmeval.errors import SvmevalError, show_path

__all__ = [
    "APPLICATION_ID",
    "RESULTS_VERSION",
    "SCHEMA_VERSION",
    "Store",
    "StoreError",
    "UnitRecord",
    "open_store",
    "unit_key",
]

#: the schema's version (``PRAGMA user_version``)
SCHEMA_VERSION = 1
#: the oldest svmeval that reads each schema version
REQUIRES = {1: "0.4.0"}
#: ``PRAGMA application_id`` of an svmeval store ("SVME")
APPLICATION_ID = 0x53564D45
#: the version of the way svmeval computes a unit's result (part of every key)
RESULTS_VERSION = 1
#: seconds a write waits for another process's transaction
BUSY_TIMEOUT = 600.0
#: stores up to this size are checked whole on opening (``PRAGMA quick_check``)
QUICK_CHECK_BYTES = 1 << 30
#: the largest array header read from a unit (bytes of JSON)
MAX_HEADER = 4096

_MAGIC = b"SQLite format 3\x00"

_SCHEMA = (
    "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE units (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,"
    " data TEXT NOT NULL, data_name TEXT NOT NULL, configuration TEXT NOT NULL,"
    " n_folds INTEGER NOT NULL,"
    " seed INTEGER NOT NULL, fold INTEGER NOT NULL, fields TEXT NOT NULL, arrays TEXT NOT NULL,"
    " payload BLOB NOT NULL, digest TEXT NOT NULL, seconds REAL NOT NULL, created TEXT NOT NULL,"
    " run INTEGER, svmeval TEXT NOT NULL, libsvm TEXT NOT NULL)",
    "CREATE INDEX units_data ON units (data, configuration)",
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT,"
    " command TEXT NOT NULL, cwd TEXT, svmeval TEXT NOT NULL, libsvm TEXT,"
    " reused INTEGER NOT NULL DEFAULT 0, computed INTEGER NOT NULL DEFAULT 0)",
)


class StoreError(SvmevalError):
    """A results store that cannot be used: not an svmeval store, damaged, from a newer
    svmeval, or holding a unit that does not fit the run. The file is left as it was.

    Examples
    --------
    >>> from svmeval import StoreError, open_store
    >>> try:
    ...     open_store("data/wine.scale")
    ... except StoreError as error:
    ...     print(error)
    data/wine.scale: not an svmeval store (not an SQLite database)
    """


def unit_key(fields: dict, *, text: bool = False) -> str:
    """The SHA-256 (hex) of a unit's key fields as canonical JSON (keys sorted, no spaces;
    ``text``: that JSON itself)."""
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return canonical if text else hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class UnitRecord:
    """A stored unit's value: its arrays (float64, shapes as asked), the seconds it took."""

    arrays: dict
    seconds: float


def _payload_digest(header: str, payload: bytes) -> str:
    return hashlib.sha256(header.encode() + b"\0" + payload).hexdigest()


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def open_store(path, *, create: bool = True) -> Store:
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

    def __init__(self, path, *, create: bool = True):
        self.path = os.fspath(path)
        self.name = show_path(self.path)
        self.reused = 0
        self.computed = 0
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        # a store whose file does not exist yet: created at its first write (a run that fails
        # before it computes anything leaves no file), read as empty until then
        self._pending = False
        if self._check_file(create):
            self._connect(create)
        else:
            self._check_folder()
            self._pending = True

    def _connect(self, create: bool) -> None:
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
        )
        try:
            self._conn = conn
            self._open(create)
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

    # --- opening ------------------------------------------------------------------------------
    def _fail(self, reason: str) -> StoreError:
        return StoreError(f"{self.name}: {reason}")

    def _check_folder(self) -> None:
        """Refuse a new store that could not be created: its folder missing or not writable."""
        folder = os.path.dirname(self.path) or "."
        if not os.path.isdir(folder):
            raise self._fail("cannot create: no such folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise self._fail("cannot create: permission denied")

    def _check_file(self, create: bool) -> bool:
        """Refuse, before SQLite opens it, a file that is not an SQLite database or is shorter
        than its header says. Returns whether the file exists."""
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            if not create:
                raise self._fail("no such store") from None
            return False
        except OSError as exc:
            raise self._fail(f"cannot read: {exc.strerror or exc}") from None
        if stat.S_ISDIR(mode):
            raise self._fail("is a directory, not an svmeval store")
        if not stat.S_ISREG(mode):  # a device, a pipe, a socket: never opened
            raise self._fail("not an svmeval store (not a regular file)")
        try:
            with open(self.path, "rb") as f:
                head = f.read(100)
                size = os.fstat(f.fileno()).st_size
        except OSError as exc:
            raise self._fail(f"cannot read: {exc.strerror or exc}") from None
        if size == 0:  # a new store another process is creating, or an empty file
            return True
        if not head.startswith(_MAGIC[: len(head)]) or len(head) < len(_MAGIC):
            raise self._fail("not an svmeval store (not an SQLite database)")
        if len(head) < 100:
            raise self._fail("not an svmeval store (truncated SQLite header)")
        page_size = int.from_bytes(head[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        changes, pages = int.from_bytes(head[24:28], "big"), int.from_bytes(head[28:32], "big")
        valid_for = int.from_bytes(head[92:96], "big")
        if valid_for == changes and pages * page_size > size:
            raise self._fail(
                f"damaged store: truncated ({size} bytes, its header says {pages * page_size})"
            )
        app = int.from_bytes(head[68:72], "big")
        if app not in (0, APPLICATION_ID):
            raise self._fail("not an svmeval store (another program's SQLite database)")
        return True

    def _open(self, create: bool) -> None:
        """Check what the file holds; create the schema in a new file (``create``); WAL."""

        def check(c: sqlite3.Connection, immediate: bool) -> bool:
            """Check the file (True) or, in a new one, create the schema; a deferred
            transaction first (a store that cannot be written can still be read), then
            ``immediate`` to create it (False: creation needed)."""
            c.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
            try:
                app = c.execute("PRAGMA application_id").fetchone()[0]
                version = c.execute("PRAGMA user_version").fetchone()[0]
                tables = c.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if app == 0 and version == 0 and tables == 0:
                    if not immediate:
                        c.execute("ROLLBACK")
                        return False
                    for statement in _SCHEMA:
                        c.execute(statement)
                    c.executemany(
                        "INSERT INTO meta (name, value) VALUES (?, ?)",
                        [
                            ("format", "svmeval results store"),
                            ("schema", str(SCHEMA_VERSION)),
                            ("requires", REQUIRES[SCHEMA_VERSION]),
                            ("created", _now()),
                            ("svmeval", __version__),
                        ],
                    )
                    c.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                elif app != APPLICATION_ID:
                    raise self._fail("not an svmeval store (another program's SQLite database)")
                elif version > SCHEMA_VERSION:
                    row = c.execute("SELECT value FROM meta WHERE name = 'requires'").fetchone()
                    needs = (
                        "".join(ch for ch in str(row[0])[:40] if ch.isprintable()) if row else ""
                    )
                    needs = needs or "a newer version"
                    raise self._fail(
                        f"store of schema version {version}, written by a newer svmeval: "
                        f"it needs svmeval {needs} (this is {__version__})"
                    )
                elif version < 1:
                    raise self._fail(f"damaged store: schema version {version}")
                c.execute("COMMIT")
                return True
            except BaseException:
                if c.in_transaction:
                    c.execute("ROLLBACK")
                raise

        if not self._retry(lambda c: check(c, False)):
            if not create:
                raise self._fail("not an svmeval store (an empty database)")
            self._retry(lambda c: check(c, True))
        if os.path.getsize(self.path) <= QUICK_CHECK_BYTES:
            found = self._retry(lambda c: c.execute("PRAGMA quick_check(1)").fetchone())
            if not found or found[0] != "ok":
                said = " ".join(str(found and found[0]).replace("*", "").split())
                raise self._fail(f"damaged store ({said[:100]})")
        if self._retry(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0]) != "wal":
            self._retry(lambda c: c.execute("PRAGMA journal_mode = WAL").fetchone())
        self._retry(lambda c: c.execute("PRAGMA synchronous = NORMAL"))  # durable across kill -9

    def _retry(self, operation: Callable[[sqlite3.Connection], Any]) -> Any:
        """``operation(connection)``, its SQLite errors as :class:`StoreError`; a busy or locked
        database (a mode change the busy timeout does not cover) is tried again until
        :data:`BUSY_TIMEOUT`."""
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
        header, payload, digest, seconds = row
        bad = f"damaged store: unit {key[:12]} does not fit the run"
        if not isinstance(header, str) or len(header) > MAX_HEADER:
            raise self._fail(f"{bad} (its array list)")
        if not isinstance(payload, bytes) or not isinstance(seconds, float | int):
            raise self._fail(f"{bad} (its value's types)")
        if digest != _payload_digest(header, payload):
            raise self._fail(f"damaged store: unit {key[:12]}'s values do not match their digest")
        try:
            listed = json.loads(header)
        except ValueError:
            raise self._fail(f"{bad} (its array list is not JSON)") from None
        wanted = {name: tuple(shape) for name, shape in shapes.items() if shape is not None}
        if not isinstance(listed, list) or len(listed) != len(wanted):
            raise self._fail(f"{bad} (its arrays)")
        arrays, offset = {}, 0
        for entry in listed:
            if (
                not isinstance(entry, list)
                or len(entry) != 3
                or entry[0] not in wanted
                or entry[0] in arrays
                or entry[1] != "<f8"
                or not isinstance(entry[2], list)
                or tuple(entry[2]) != wanted[entry[0]]
            ):
                raise self._fail(f"{bad} (array {str(entry)[:60]})")
            shape = wanted[entry[0]]
            n = int(np.prod(shape, dtype=np.int64)) * 8
            if offset + n > len(payload):
                raise self._fail(f"{bad} (its bytes are short)")
            arrays[entry[0]] = (
                np.frombuffer(payload, dtype="<f8", count=n // 8, offset=offset)
                .astype(np.float64)
                .reshape(shape)
            )
            offset += n
        if offset != len(payload):
            raise self._fail(f"{bad} (its bytes are too many)")
        seconds = float(seconds)
        if not (seconds >= 0 and np.isfinite(seconds)):
            raise self._fail(f"{bad} (its time)")
        return UnitRecord(arrays, seconds)

    def known(self, keys: list[str]) -> set[str]:
        """Which of ``keys`` the store holds (asked a few hundred at a time)."""
        if not self._ready(False):
            return set()
        found: set[str] = set()
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            marks = ", ".join("?" * len(part))
            rows = self._retry(
                lambda c: c.execute(
                    f"SELECT key FROM units WHERE key IN ({marks})", part
                ).fetchall()
            )
            found.update(str(row[0]) for row in rows)
        return found

    def put(self, key: str, fields: dict, arrays: dict, seconds: float, run=None) -> bool:
        """Write one unit in its own transaction (kept once: a key already there is left as
        it is). ``fields``: the key's fields (``data``, ``data_name``, ``configuration``,
        ``n_folds``, ``seed``, ``fold`` are also columns). Returns whether it was new."""
        self._ready(True)
        row = self._row(key, fields, arrays, seconds, run)
        return bool(self._retry(lambda c: self._insert(c, [row])))

    @staticmethod
    def _row(key: str, fields: dict, arrays: dict, seconds: float, run) -> tuple:
        listed, parts = [], []
        for name, a in arrays.items():
            if a is None:
                continue
            a = np.ascontiguousarray(a, dtype="<f8")
            listed.append([name, "<f8", list(a.shape)])
            parts.append(a.tobytes())
        header, payload = json.dumps(listed), b"".join(parts)
        return (
            key,
            str(fields.get("unit", "")),
            str(fields["data"]),
            str(fields.get("data_name", "")),
            str(fields["configuration"]),
            int(fields["n_folds"]),
            int(fields["seed"]),
            int(fields["fold"]),
            json.dumps(fields, sort_keys=True, allow_nan=False),
            header,
            payload,
            _payload_digest(header, payload),
            float(seconds),
            _now(),
            run,
            __version__,
            str(fields.get("libsvm", "")),
        )

    @staticmethod
    def _insert(c: sqlite3.Connection, rows: list) -> int:
        """``rows`` in one ``BEGIN IMMEDIATE`` transaction, each kept once."""
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
            c.execute("COMMIT")
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise
        return new

    def put_many(self, rows: list, run=None) -> int:
        """Write several units ``(key, fields, arrays, seconds)`` in one transaction (the folds
        of a ``-b 1`` cross-validation, which are used all together). Returns the new ones."""
        if not rows:
            return 0
        self._ready(True)
        prepared = [
            self._row(key, fields, arrays, seconds, run) for key, fields, arrays, seconds in rows
        ]
        return int(self._retry(lambda c: self._insert(c, prepared)))

    # --- runs -----------------------------------------------------------------------------------
    def begin_run(self, command: str, libsvm: str = "", cwd: str | None = None) -> int:
        """Record a run starting (``command``: its command line or call, ``cwd``: the folder
        it ran in); returns its id."""
        self._ready(True)

        def write(c: sqlite3.Connection) -> int:
            cursor = c.execute(
                "INSERT INTO runs (started, command, cwd, svmeval, libsvm) VALUES (?, ?, ?, ?, ?)",
                (_now(), command, cwd, __version__, libsvm),
            )
            return int(cursor.lastrowid or 0)

        return self._retry(write)

    def end_run(self, run: int, reused: int, computed: int) -> None:
        """Record a run's end and its counts of units reused and computed."""
        self._ready(True)
        self._retry(
            lambda c: c.execute(
                "UPDATE runs SET finished = ?, reused = ?, computed = ? WHERE id = ?",
                (_now(), int(reused), int(computed), int(run)),
            )
        )

    # --- looking inside -------------------------------------------------------------------------
    def meta(self) -> dict:
        """The store's own record: format, schema, requires, created, svmeval."""
        if not self._ready(False):
            return {}
        rows = self._retry(lambda c: c.execute("SELECT name, value FROM meta").fetchall())
        return {str(k): str(v) for k, v in rows}

    def runs(self) -> list[dict]:
        """Every run that wrote to the store, oldest first: ``id``, ``started``,
        ``finished`` (None: interrupted), ``command`` (a command line, or the function called),
        ``cwd`` (the folder it ran in), ``svmeval``, ``libsvm``, ``reused``, ``computed``."""
        if not self._ready(False):
            return []
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
        rows = self._retry(
            lambda c: c.execute(f"SELECT {', '.join(names)} FROM runs ORDER BY id").fetchall()
        )
        return [dict(zip(names, row)) for row in rows]

    def datasets(self) -> list[dict]:
        """The data sets with units: ``data`` (digest), ``data_name``, ``units``,
        ``configurations``, ``first`` and ``last`` (when written)."""
        if not self._ready(False):
            return []
        names = ("data", "data_name", "units", "configurations", "first", "last")
        rows = self._retry(
            lambda c: c.execute(
                "SELECT data, min(data_name), count(*), count(DISTINCT configuration),"
                " min(created), max(created) FROM units GROUP BY data ORDER BY min(id)"
            ).fetchall()
        )
        return [dict(zip(names, row)) for row in rows]

    def units(self, *, data: str | None = None, configuration: str | None = None) -> list[dict]:
        """The stored cross-validations (no arrays), optionally of one data set (its digest
        or name) and/or configuration: ``kind`` (``cv-fold``, or ``nested-outer-fold`` for a
        nested CV's outer folds), ``data``, ``data_name``, ``configuration`` (svm-train's
        options, gamma resolved), ``n_folds``, ``seed``, ``folds`` (units stored),
        ``seconds`` (their training time), ``first`` and ``last`` (when written),
        ``svmeval`` and ``libsvm`` (the versions that computed them)."""
        if not self._ready(False):
            return []
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
        where, args = self._where(data, configuration)
        rows = self._retry(
            lambda c: c.execute(
                "SELECT kind, data, min(data_name), configuration, n_folds, seed, count(*),"
                " sum(seconds), min(created), max(created), max(svmeval), max(libsvm) FROM units"
                f"{where} GROUP BY kind, data, configuration, n_folds, seed ORDER BY min(id)",
                args,
            ).fetchall()
        )
        return [dict(zip(names, row)) for row in rows]

    @staticmethod
    def _where(data, configuration) -> tuple[str, tuple]:
        clauses, args = [], []
        if data is not None:
            clauses.append("(data = ? OR data_name = ?)")
            args += [str(data), str(data)]
        if configuration is not None:
            clauses.append("configuration = ?")
            args.append(str(configuration))
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), tuple(args)

    def delete(self, *, data: str | None = None, configuration: str | None = None) -> int:
        """Delete the units of a data set (its digest or its name as stored) and/or of a
        configuration (its svm-train options as listed); at least one must be given.
        Returns the units deleted; a later run computes them again."""
        if data is None and configuration is None:
            raise StoreError("delete() needs data or configuration (or both)")
        if not self._ready(False):
            return 0
        where, args = self._where(data, configuration)

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

        return self._retry(write)

"""The results store's SQLite file: its schema, its checks on opening, its creation.

The file
--------
One SQLite database (Python's own ``sqlite3``, no server), in WAL mode with a busy timeout:
any number of processes may read and write it at once; each unit is written in its own
``BEGIN IMMEDIATE`` transaction with ``INSERT OR IGNORE`` on its unique key, so a unit two
processes computed together is stored once, and a process killed at any moment loses only the
units it had not yet written. ``PRAGMA application_id`` marks the file as svmeval's
(:data:`APPLICATION_ID`), ``PRAGMA user_version`` carries the schema's version
(:data:`SCHEMA_VERSION`).

Schema version 3::

    meta   (name TEXT PRIMARY KEY, value TEXT)          format, schema, requires, created, svmeval
    units  (id, key TEXT UNIQUE, kind TEXT, data TEXT, data_name TEXT, configuration TEXT,
            n_folds INT, seed INT, fold INT, fields TEXT, arrays TEXT, payload BLOB,
            digest TEXT, seconds REAL, created TEXT, run INT, svmeval TEXT, libsvm TEXT)
    runs   (id, started TEXT, finished TEXT, command TEXT, cwd TEXT, svmeval TEXT,
            libsvm TEXT, reused INT, computed INT, call TEXT, liblinear TEXT)

``runs.call`` (version 2) is the JSON of a run made by a function of the library: the
function's name and the arguments a report depends on (:mod:`svmeval.store._calls`); NULL for
a command's run, whose ``command`` is its command line. Version 1 had no ``call``. A run's
``libsvm`` and ``liblinear`` (version 3) are the versions of the libraries it trained or
looked up units of (``libsvm_version``, ``liblinear_version``: 337, 250), NULL for a library
it did not use; version 2 had no ``liblinear`` and gave LIBSVM's version to every run. A run's
``reused`` and ``computed`` are written in the transaction of each unit it writes (and at its
end): an interrupted or killed run's are those of its last unit written.

``units.key`` is the SHA-256 of the unit's key fields (:func:`unit_key`), also kept as JSON in
``fields``; ``arrays`` lists ``[name, "<f8", shape]`` for each array, whose little-endian bytes
follow one another in ``payload``; ``digest`` is the SHA-256 of ``arrays`` and ``payload``
(SQLite keeps no checksum of its own: a damaged value is caught by it).

Migration rule: the schema's version grows by one whenever svmeval changes the schema; an
svmeval opening an older store reads it as it is (a listing or an export changes no byte of
it) and migrates it in place, in one transaction, before its first write (:func:`migrate`);
a store whose version is newer than this svmeval's is refused, with the svmeval version it
needs (``meta.requires``). A unit's key holds the version of svmeval's results
(:data:`RESULTS_VERSION`): a change that alters a result makes new keys, and old units are
simply not found.

A store whose file does not exist yet is created at its first write (a run that fails
before it computes a unit leaves no file behind); until then it reads as empty, and it opens
the file as soon as another process has made it.

Opening never changes a file that is not an svmeval store: a file that is not an SQLite
database (checked by its header before SQLite opens it), one truncated below the size its
header states (and no write-ahead log beside it holding the pages missing: a checkpoint that
did not end is SQLite's to complete), another program's database, a damaged one is refused
with :class:`StoreError`, and left byte for byte as it was.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from svmeval._version import __version__
from svmeval.store._errors import StoreError
from svmeval.store._units import now

if TYPE_CHECKING:
    import sqlite3

    #: ``retry(operation)``: ``operation(connection)`` run by a store, its errors as StoreError
    Retry = Callable[[Callable[[sqlite3.Connection], Any]], Any]

__all__ = [
    "APPLICATION_ID",
    "QUICK_CHECK_BYTES",
    "REQUIRES",
    "SCHEMA_VERSION",
    "check_folder",
    "check_header",
    "has_call",
    "migrate",
    "open_file",
]

#: the schema's version (``PRAGMA user_version``)
SCHEMA_VERSION = 3
#: the oldest svmeval that reads each schema version
REQUIRES = {1: "0.4.0", 2: "0.4.0", 3: "0.4.0"}
#: ``PRAGMA application_id`` of an svmeval store ("SVME")
APPLICATION_ID = 0x53564D45
#: stores up to this size are checked whole on opening (``PRAGMA quick_check``)
QUICK_CHECK_BYTES = 1 << 30

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
    " reused INTEGER NOT NULL DEFAULT 0, computed INTEGER NOT NULL DEFAULT 0, call TEXT,"
    " liblinear TEXT)",
)

#: the statements that bring a store of version ``v - 1`` to version ``v``
_MIGRATIONS = {
    2: ("ALTER TABLE runs ADD COLUMN call TEXT",),
    3: ("ALTER TABLE runs ADD COLUMN liblinear TEXT",),
}


def check_folder(path: str, fail: Callable[[str], StoreError]) -> None:
    """Refuse a new store that could not be created: its folder missing or not writable."""
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise fail("cannot create: no such folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise fail("cannot create: permission denied")


def check_header(path: str, create: bool, fail: Callable[[str], StoreError]) -> bool:
    """Refuse, before SQLite opens it, a file that is not an SQLite database or is shorter
    than its header says. Returns whether the file exists."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if not create:
            raise fail("no such store") from None
        return False
    except OSError as exc:
        raise fail(f"cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise fail("is a directory, not an svmeval store")
    if not stat.S_ISREG(mode):  # a device, a pipe, a socket: never opened
        raise fail("not an svmeval store (not a regular file)")
    try:
        with open(path, "rb") as f:
            head = f.read(100)
            size = os.fstat(f.fileno()).st_size
    except OSError as exc:
        raise fail(f"cannot read: {exc.strerror or exc}") from None
    if size == 0:  # a new store another process is creating, or an empty file
        return True
    if not head.startswith(_MAGIC[: len(head)]) or len(head) < len(_MAGIC):
        raise fail("not an svmeval store (not an SQLite database)")
    if len(head) < 100:
        raise fail("not an svmeval store (truncated SQLite header)")
    page_size = int.from_bytes(head[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    changes, pages = int.from_bytes(head[24:28], "big"), int.from_bytes(head[28:32], "big")
    valid_for = int.from_bytes(head[92:96], "big")
    if valid_for == changes and pages * page_size > size and not _wal_holds_frames(path):
        raise fail(f"damaged store: truncated ({size} bytes, its header says {pages * page_size})")
    app = int.from_bytes(head[68:72], "big")
    if app not in (0, APPLICATION_ID):
        raise fail("not an svmeval store (another program's SQLite database)")
    return True


def _wal_holds_frames(path: str) -> bool:
    """Whether the file's write-ahead log (``PATH-wal``) holds frames past its 32-byte header:
    then SQLite reads the pages it holds in place of the file's, and a file shorter than its
    header says is no damage but a checkpoint that did not end (a crash, ``kill -9``, a power
    cut, a write refused by a full disk or ``ulimit -f``): SQLite completes it on opening, and
    its ``quick_check`` decides whether the whole is sound."""
    try:
        return os.stat(path + "-wal").st_size > 32
    except OSError:
        return False


def _check_or_create(
    c: sqlite3.Connection, immediate: bool, fail: Callable[[str], StoreError]
) -> bool:
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
                    ("created", now()),
                    ("svmeval", __version__),
                ],
            )
            c.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif app != APPLICATION_ID:
            raise fail("not an svmeval store (another program's SQLite database)")
        elif version > SCHEMA_VERSION:
            row = c.execute("SELECT value FROM meta WHERE name = 'requires'").fetchone()
            needs = "".join(ch for ch in str(row[0])[:40] if ch.isprintable()) if row else ""
            needs = needs or "a newer version"
            raise fail(
                f"store of schema version {version}, written by a newer svmeval: "
                f"it needs svmeval {needs} (this is {__version__})"
            )
        elif version < 1:
            raise fail(f"damaged store: schema version {version}")
        c.execute("COMMIT")
        return True
    except BaseException:
        if c.in_transaction:
            c.execute("ROLLBACK")
        raise


def open_file(
    path: str,
    create: bool,
    retry: Retry,
    fail: Callable[[str], StoreError],
    *,
    immutable: bool = False,
) -> None:
    """Check what the file holds; create the schema in a new file (``create``); WAL (not for a
    file opened ``immutable``: read as it is). ``retry``: the store's way to run an operation
    on its connection."""
    if not retry(lambda c: _check_or_create(c, False, fail)):
        if not create:
            raise fail("not an svmeval store (an empty database)")
        retry(lambda c: _check_or_create(c, True, fail))
    if os.path.getsize(path) <= QUICK_CHECK_BYTES:
        found = retry(lambda c: c.execute("PRAGMA quick_check(1)").fetchone())
        if not found or found[0] != "ok":
            said = " ".join(str(found and found[0]).replace("*", "").split())
            raise fail(f"damaged store ({said[:100]})")
    if immutable:
        return
    if retry(lambda c: c.execute("PRAGMA journal_mode").fetchone()[0]) != "wal":
        retry(lambda c: c.execute("PRAGMA journal_mode = WAL").fetchone())
    retry(lambda c: c.execute("PRAGMA synchronous = NORMAL"))  # durable across kill -9


def has_call(c: sqlite3.Connection, column: str = "call") -> bool:
    """Whether the store's ``runs`` has the ``call`` column (schema version 2 on), or
    ``column`` (``liblinear``: version 3 on)."""
    return any(row[1] == column for row in c.execute("PRAGMA table_info(runs)").fetchall())


def migrate(c: sqlite3.Connection) -> None:
    """Bring a store of an older schema version to :data:`SCHEMA_VERSION`, in one
    ``BEGIN IMMEDIATE`` transaction (a process that migrated it meanwhile: nothing to do)."""
    c.execute("BEGIN IMMEDIATE")
    try:
        version = c.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in _MIGRATIONS[step]:
                c.execute(statement)
        if version < SCHEMA_VERSION:
            c.executemany(
                "INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)",
                [("schema", str(SCHEMA_VERSION)), ("requires", REQUIRES[SCHEMA_VERSION])],
            )
            c.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        c.execute("COMMIT")
    except BaseException:
        if c.in_transaction:
            c.execute("ROLLBACK")
        raise

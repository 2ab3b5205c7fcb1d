"""The results store: the data digest, units kept and reused, resumed runs, bad files."""

from __future__ import annotations

import gzip
import hashlib
import shutil
import struct
from pathlib import Path

import numpy as np

from svmeval.io.data import Dataset, read_dataset

ROOT = Path(__file__).resolve().parents[1]
HEART = ROOT / "data" / "breast_cancer.scale"


def test_digest_is_the_documented_sha256(tmp_path):
    """Dataset.digest() is SHA-256 over the parts its docstring lists (built here with struct
    from the file's own text, not from the reader's arrays)."""
    text = "+1 1:0.5 3:-1\n-1 2:2.5e-1\n"
    path = tmp_path / "two"
    path.write_text(text)
    h = hashlib.sha256(b"svmeval-dataset-1\0")

    def part(tag, fmt, values):
        h.update(tag + b"\0" + struct.pack("<q", len(values)))
        h.update(struct.pack("<" + fmt * len(values), *values))

    part(b"shape", "q", [2, 3])
    part(b"y", "d", [1.0, -1.0])
    part(b"indptr", "q", [0, 2, 3])
    part(b"indices", "i", [1, 3, 2])
    part(b"values", "d", [0.5, -1.0, 0.25])
    assert read_dataset(path).digest() == h.hexdigest()


def test_digest_ignores_the_name_and_compression_not_the_values(tmp_path):
    plain = read_dataset(HEART)
    packed = tmp_path / "bc.gz"
    with open(HEART, "rb") as src, gzip.open(packed, "wb") as dst:
        shutil.copyfileobj(src, dst)
    assert read_dataset(packed).digest() == plain.digest()
    values = plain.values.copy()
    values[7] = np.nextafter(values[7], np.inf)  # one value's last bit
    changed = Dataset(plain.y, plain.indptr, plain.indices, values, plain.n_features, "x")
    assert changed.digest() != plain.digest()
    y = plain.y.copy()
    y[0] = -y[0]
    assert (
        Dataset(y, plain.indptr, plain.indices, plain.values, plain.n_features, "x").digest()
        != plain.digest()
    )
    wider = Dataset(plain.y, plain.indptr, plain.indices, plain.values, plain.n_features + 1, "x")
    assert wider.digest() != plain.digest()

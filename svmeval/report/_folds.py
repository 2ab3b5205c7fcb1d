"""Where a result's folds came from when they are not LIBSVM's, in one line: the HTML
report's provenance row (grouped folds, the folds given, a permutation test's design)."""

from __future__ import annotations

__all__ = ["fold_source"]


def fold_source(result) -> str:
    """Where the folds came from when they are not LIBSVM's (grouped, given), else ""."""
    kind = getattr(result, "fold_source", "")
    if isinstance(kind, str) and kind:  # a grid's or a comparison's
        return f"{getattr(result, 'n_folds', '?')} folds, {kind}"
    design = getattr(result, "design", "")
    if isinstance(design, str) and design:  # a permutation test's
        return design
    for inner in ("outer", "cv"):  # a nested CV's outer run, a tuned threshold's CV
        run = getattr(result, inner, None)
        if run is not None and hasattr(run, "fold"):
            return fold_source(run)
    meta = getattr(result, "meta", None)
    if isinstance(meta, dict):
        folds, n_folds = meta.get("fold_source"), meta.get("n_folds")
    else:
        source = getattr(getattr(result, "folds", None), "source", None)
        if source is None:
            return ""
        folds = {
            "kind": "grouped" if source.grouped else "given",
            "source": source.origin,
            "n_groups": source.n_groups,
        }
        n_folds = getattr(result, "n_folds", None)
    if not isinstance(folds, dict):
        return ""
    where = f", from {folds['source']}" if folds.get("source") else ""
    if folds["kind"] == "grouped":
        return f"{n_folds} folds, grouped: {folds['n_groups']} groups, none split{where}"
    return f"{n_folds} folds, given (not LIBSVM's){where}"

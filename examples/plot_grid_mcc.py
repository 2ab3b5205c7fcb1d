"""
A grid search by MCC, and its contour
=====================================

``svmeval-grid`` is LIBSVM's ``grid.py`` with any figure as the criterion. On unbalanced data
(breast_cancer.scale: 37% malignant) Matthews' correlation rewards a classifier for both
classes, where accuracy rewards predicting the larger one. ``-png`` draws the criterion over
log2 C × log2 gamma with the chosen cell marked.
"""

# %%
# From Python: a small grid (5 × 4 cells, 5 folds), the best cell by MCC. Every cell uses
# the folds a fresh svm-train draws (seed 1), as grid.py's svm-train runs do.
from svmeval import grid_search

grid = grid_search("../data/breast_cancer.scale", log2c=(-1, 7, 2), log2g=(-7, -1, 2),
                   folds=5, criterion="mcc")
best = grid.best
print(f"best cell: C = 2^{best.cell.log2c:g}, gamma = 2^{best.cell.log2g:g}, "
      f"MCC = {best.value:.4f}")
print(grid.to_frame().groupby(["log2c", "log2g"])["mcc"].mean().unstack().round(3))

# %%
# The command line runs the same search and draws it (``-out null``: no grid.py file).
import subprocess

run = subprocess.run(
    ["svmeval-grid", "--criterion", "mcc", "-log2c", "-1,7,2", "-log2g", "-7,-1,2",
     "-out", "null", "-png", "grid_mcc.png", "../data/breast_cancer.scale"],
    capture_output=True, text=True, check=True)
print(run.stdout.splitlines()[-1])   # grid.py's last line: c g value

# %%
# The star is the chosen cell. Its value is optimistic (it was chosen on the folds that rate
# it): nested cross-validation gives the honest figure, see the next example.

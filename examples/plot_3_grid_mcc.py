"""
A grid search by MCC, and its contour
=====================================

``svmeval-grid`` is LIBSVM's ``grid.py`` with any figure as the criterion. On unbalanced data
(breast_cancer.scale: 37% malignant) Matthews' correlation rewards a classifier for both
classes, where accuracy rewards predicting the larger one. :func:`svmeval.plot` of a grid (or
``svmeval-grid -png``) draws the criterion over log2 C × log2 gamma with the chosen cell
marked.
"""

# %%
# A small grid (5 × 4 cells, 5 folds), the best cell by MCC. Every cell uses the folds a
# fresh svm-train draws (seed 1), as grid.py's svm-train runs do.
from svmeval import grid_search, plot

grid = grid_search(
    "../data/breast_cancer.scale", log2c=(-1, 7, 2), log2g=(-7, -1, 2), folds=5, criterion="mcc"
)
best = grid.best
print(
    f"best cell: C = 2^{best.cell.log2c:g}, gamma = 2^{best.cell.log2g:g}, MCC = {best.value:.4f}"
)
print(grid.to_frame().groupby(["log2c", "log2g"])["mcc"].mean().unstack().round(3))

# %%
# The picture (``svmeval-grid --criterion mcc -log2c -1,7,2 -log2g -7,-1,2 -png
# grid_mcc.png data/breast_cancer.scale`` draws the same):
plot(grid, "grid_mcc.png")

# %%
# The star is the chosen cell. Its value is optimistic (it was chosen on the folds that rate
# it): nested cross-validation gives the honest figure, see the next example.

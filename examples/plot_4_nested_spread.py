"""
Nested cross-validation: the honest figure and the spread of the choice
=======================================================================

The best cell of a grid search was chosen on the folds that rate it. Nested cross-validation
chooses the cell again on each outer training set and rates the choice on the outer test
fold, which the choice never saw. Its outer folds' values, and how much the chosen C and gamma
move between them, say how good and how stable the tuned model is.
"""

# %%
# Five outer folds; in each, a 3 × 3 grid by accuracy on five inner folds.
from svmeval import grid_search, nested_cv, render

ranges = dict(log2c=(-1, 3, 2), log2g=(-5, -1, 2))
nested = nested_cv("../data/wine.scale", folds=5, inner_folds=5, **ranges)
print(render(nested))

# %%
# The plain grid's best value, on the same data, for comparison:
grid = grid_search("../data/wine.scale", folds=5, **ranges)
print(f"plain grid: best cell's accuracy {grid.best.value:g} (chosen on its own folds)")

# %%
# Each outer fold's accuracy on its test rows (the honest figures), the inner value that chose
# its cell (optimistic), and the plain grid's best (optimistic too).
import matplotlib.pyplot as plt

rows = nested.to_frame()
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4.2), width_ratios=(3, 2))
folds = rows["fold"] + 1
left.plot(folds, rows["accuracy"], "o", label="outer fold: test accuracy")
left.plot(folds, rows["inner_value"], "x", label="its cell's inner accuracy")
left.axhline(grid.best.value, color="grey", ls="--", label="plain grid's best")
left.set(xlabel="outer fold", ylabel="accuracy", xticks=folds, title="nested CV of wine.scale")
left.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=3)
counts = rows.groupby(["log2c", "log2g"]).size()
right.bar([f"{c:g}, {g:g}" for c, g in counts.index], counts.to_numpy())
right.set(
    xlabel="chosen (log2 C, log2 gamma)",
    ylabel="outer folds",
    yticks=range(int(counts.max()) + 1),
    title="the choice",
)
fig.tight_layout()

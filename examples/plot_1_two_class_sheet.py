"""
The figure sheet of a two-class cross-validation
================================================

:func:`svmeval.plot` draws one sheet of a cross-validation (``svmeval --plot FILE`` on the
command line). For two-class data: the confusion matrix as counts and row-normalised (the
diagonal is each class's recall), the ROC and precision-recall curves of the positive class
from the cross-validation's decision values, and every figure of the report per fold, with its
mean ± sd and the pooled value.
"""

# %%
# The run is ``svm-train -v 5`` on the breast cancer data (569 samples, 212 malignant as +1):
# svm-train's defaults and its folds. ``full=True`` follows svm-train's lines with the full
# report, as ``svmeval -v 5 --full`` prints it.
from svmeval import cross_validate, plot, render, summarize

result = cross_validate("../data/breast_cancer.scale", folds=5)
print(render(summarize(result), full=True))

# %%
# The sheet, written to a file (PNG, SVG or PDF by the suffix); ``plot`` also returns the
# :class:`matplotlib.figure.Figure`, drawn without pyplot.
plot(result, "breast_cancer.png")

# %%
# Reading the sheet: the row-normalised matrix shows that the errors are mostly malignant
# samples called benign (the recall of class 1 is below that of class -1), which the single
# accuracy hides. The per-fold panel shows how much each figure moves from fold to fold; the
# pooled value (the diamond) is the figure of all the folds' predictions together.
#
# The command line draws the same sheet::
#
#     svmeval -q -v 5 --full --plot breast_cancer.png data/breast_cancer.scale

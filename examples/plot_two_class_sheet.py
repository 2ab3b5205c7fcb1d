"""
The figure sheet of a two-class cross-validation
================================================

``svmeval --plot FILE`` draws one sheet of a run after its report. For two-class data: the
confusion matrix as counts and row-normalised (the diagonal is each class's recall), the ROC
and precision-recall curves of the positive class from the cross-validation's decision values,
and every figure of the report per fold, with its mean ± sd and the pooled value.
"""

# %%
# The run is ``svm-train -v 5`` on the breast cancer data (569 samples, 212 malignant as +1):
# svm-train's defaults and its folds. ``--full`` follows svm-train's lines with the full
# report; ``--plot`` draws the sheet.
import subprocess

run = subprocess.run(
    ["svmeval", "-q", "-v", "5", "--full", "--plot", "breast_cancer.png",
     "../data/breast_cancer.scale"],
    capture_output=True, text=True, check=True)
print(run.stdout)

# %%
# Reading the sheet: the row-normalised matrix shows that the errors are mostly malignant
# samples called benign (the recall of class 1 is below that of class -1), which the single
# accuracy hides. The per-fold panel shows how much each figure moves from fold to fold; the
# pooled value (the diamond) is the figure of all the folds' predictions together.
#
# The same numbers from Python:
from svmeval import cross_validate, summarize

summary = summarize(cross_validate("../data/breast_cancer.scale", folds=5))
print({name: round(summary.figures[name], 4) for name in ("accuracy", "recall", "mcc")})

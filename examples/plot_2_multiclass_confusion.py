"""
The confusion matrix of a multiclass cross-validation
=====================================================

For multiclass data svmeval always prints the full report: per-class precision, recall and
F1, the four averages, the confusion matrix and every figure with its spread over folds. The
sheet draws the confusion matrix as counts and row-normalised, and every class's ROC and
precision-recall curve one-vs-rest from LIBSVM's one-vs-one decision values.
"""

# %%
# Wine recognition: 178 wines of three cultivars, 13 chemical measurements; ``-c 2``, 5 folds.
from svmeval import cross_validate, plot, render, summarize

result = cross_validate("../data/wine.scale", "-c 2", folds=5)
print(render(summarize(result)))

# %%
# The sheet of the same run (``svmeval -q -v 5 -c 2 --plot wine.png data/wine.scale``):
plot(result, "wine.png")

# %%
# Rows are the true classes, columns the predicted ones; the row-normalised matrix has each
# class's recall on its diagonal. The curves use the one-vs-rest class scores derived from the
# one-vs-one decision values (votes plus a confidence term, scikit-learn's
# ``decision_function_shape="ovr"``).

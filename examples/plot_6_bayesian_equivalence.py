"""
Practical equivalence: the Bayesian correlated t-test
=====================================================

Is a linear kernel as good as a tuned RBF kernel on this data? A large p-value would not say
so. With a region of practical equivalence (a *rope*: here ±0.01 of accuracy, one sample in a
hundred), the Bayesian correlated t-test (Corani & Benavoli 2015) gives the probability that B
is better by more than the rope, that the two are within it, and that A is better.
"""

# %%
# Ten repetitions of 5-fold cross-validation, the same folds for both configurations.
from svmeval import compare, render

c = compare("../data/breast_cancer.scale", "-c 8 -g 0.05", "-t 0", folds=5, repeat=10, rope=0.01)
print(render(c))

# %%
# svmeval reports the three probabilities (``to_dict()["bayesian"]``); it does not draw the
# posterior. Drawn from the result:
import matplotlib.pyplot as plt

bayes = c.to_dict()["bayesian"]
labels = [
    "A better\n(-c 8 -g 0.05)",
    f"practically equivalent\n(±{bayes['rope']:g})",
    "B better\n(-t 0)",
]
values = [bayes["p_left"], bayes["p_rope"], bayes["p_right"]]
fig, ax = plt.subplots(figsize=(6.5, 3.2))
ax.bar(labels, values, color=["#4c72b0", "#999999", "#dd8452"])
ax.axhline(0.95, color="black", ls=":", lw=1)
ax.text(-0.45, 0.955, "0.95", ha="left", va="bottom", fontsize=8)
ax.set(
    ylim=(0, 1.12),
    yticks=[0, 0.25, 0.5, 0.75, 1],
    ylabel="posterior probability",
    title="breast_cancer.scale: B - A in accuracy, rope ±0.01",
)
for x, v in enumerate(values):
    ax.text(x, v + 0.02, f"{v:.3f}", ha="center")
fig.tight_layout()

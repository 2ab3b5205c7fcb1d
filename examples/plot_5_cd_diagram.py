"""
Comparing configurations over data sets: the critical-difference diagram
========================================================================

Over several data sets the unit of observation is the data set. svmeval runs every
configuration on every data set over the same seeded folds, ranks the configurations on each
data set, and tests the average ranks: Friedman's test (and Iman & Davenport's F), Nemenyi's
critical difference, and Wilcoxon's signed-rank test for each pair with Holm's correction
(Demšar 2006). The critical-difference diagram puts the configurations on the axis of their
average ranks and joins those that Nemenyi's test cannot tell apart.
"""

# %%
# Three two-class and multiclass data sets: the two that come with svmeval, and the diabetes
# regression data made two-class (progression above the median against below it).
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

here = Path.cwd()
work = Path(tempfile.mkdtemp())
for name in ("breast_cancer.scale", "wine.scale"):
    shutil.copy(here / ".." / "data" / name, work / name)
lines = (here / ".." / "data" / "diabetes.scale").read_text().splitlines()
targets = np.array([float(line.split(" ", 1)[0]) for line in lines])
median = np.median(targets)
with open(work / "diabetes_binary.scale", "w") as out:
    for target, line in zip(targets, lines):
        out.write(("+1" if target > median else "-1") + " " + line.split(" ", 1)[1] + "\n")
datasets = ["breast_cancer.scale", "wine.scale", "diabetes_binary.scale"]

# %%
# Four configurations, 2 × 5-fold cross-validation each, from Python, in the folder of the
# data sets (a data set is named as it is given: here by its file name):
from svmeval import benchmark, render

os.chdir(work)

configurations = {
    "-c 1": "-c 1",
    "-c 8 -g 0.05": "-c 8 -g 0.05",
    "-t 0": "-t 0",
    "-c 64 -g 0.5": "-c 64 -g 0.5",
}
bench = benchmark(datasets, configurations, folds=5, repeat=2)
print(render(bench, format="markdown"))

# %%
# The critical-difference diagram (``svmeval-compare --plot cd.png DATA... -- A -- B ...``
# draws the same):
from svmeval import plot

plot(bench, here / "cd.png")

# %%
# Configurations joined by a bar are within the critical difference of each other. With three
# data sets the tests have little power: the example shows the mechanics, a conclusion needs
# more data sets (Demšar's example has 14).

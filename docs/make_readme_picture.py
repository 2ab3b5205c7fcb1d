"""Draw docs/_static/readme_sheet.png, the picture of the README and of the documentation's
front page: svmeval's figure sheet of a 5-fold cross-validation of data/breast_cancer.scale
(svm-train's defaults), as ``svmeval --plot`` draws it.

Run from anywhere, with the Python that has svmeval and matplotlib installed:
``python docs/make_readme_picture.py``.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "_static" / "readme_sheet.png"

subprocess.run(
    [
        sys.executable,
        "-m",
        "svmeval",
        "-q",
        "-v",
        "5",
        "--full",
        "--plot",
        str(PICTURE),
        str(ROOT / "data" / "breast_cancer.scale"),
    ],
    check=True,
    stdout=subprocess.DEVNULL,
)
print(PICTURE)

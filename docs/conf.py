"""Sphinx configuration of svmeval's documentation.

Built offline (no intersphinx, nothing fetched) with warnings as errors: ``make docs``, or
``python -m sphinx -W -b html docs docs/_build/html``. The gallery's scripts (``examples/``) run
during the build on the data sets in ``data/``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("agg")

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))

import svmeval  # noqa: E402

project = "svmeval"
author = "svmeval's authors"
copyright = "svmeval's authors, BSD 3-Clause License"
release = svmeval.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax copied into the site: the formulas render offline
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "svmeval_docs",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "**.ipynb_checkpoints",
    "gallery/*.py",
    "gallery/*.ipynb",
    "gallery/*.zip",
    "gallery/*.codeobj.json",
    "sg_execution_times.rst",
]
templates_path = ["_templates"]
smartquotes = False  # "--seed" stays two hyphens, "null" stays straight quotes
highlight_language = "none"  # a block without a language is shown as it is

# every cross-reference must resolve (no intersphinx: names outside svmeval are plain text)
nitpicky = True
nitpick_ignore_regex = [
    # Python's, numpy's, pandas', matplotlib's and Dask's own names, in signatures and docstrings
    (
        r"py:.*",
        r"(builtins|numpy|np|pandas|pd|matplotlib|distributed|dask|scipy|sklearn|"
        r"typing|collections|pathlib|os|io|concurrent)\..*",
    ),
    (
        r"py:.*",
        r"(str|int|float|bool|bytes|list|tuple|dict|set|object|None|callable|"
        r"ValueError|TypeError|OSError|MemoryError|KeyboardInterrupt|UserWarning|"
        r"Exception|Warning)",
    ),
]

# autosummary writes one page per public name (the lists are made from __all__ by svmeval_docs)
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # numpydoc's Parameters section says the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
add_module_names = False

myst_enable_extensions = ["dollarmath", "deflist", "colon_fence"]
myst_heading_anchors = 3

math_number_all = False

html_theme = "pydata_sphinx_theme"
html_title = f"svmeval {release}"
html_static_path = ["_static"]
html_css_files = ["svmeval.css"]
html_theme_options = {
    "navbar_end": ["navbar-icon-links"],
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
# pages without sections of their own: no left sidebar, the text takes its width
html_sidebars = {
    name: []
    for name in (
        "index",
        "getting_started",
        "reliability",
        "performance",
        "changelog",
        "citing",
        "development",
    )
}
html_show_sourcelink = False
html_copy_source = False


sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "gallery",
    "filename_pattern": r"/plot_",
    "image_scrapers": ("matplotlib", "svmeval_docs"),  # svmeval_docs: the PNGs it wrote
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": False,
    "only_warn_on_example_error": True,  # a failing script is a warning: an error under -W
    "show_memory": False,
    "show_signature": False,
    "min_reported_time": 1e9,
    "write_computation_times": False,
    "within_subsection_order": "FileNameSortKey",
    "reset_modules": ("matplotlib",),
    "capture_repr": (),  # what a script shows, it prints
    "matplotlib_animations": False,
    "backreferences_dir": None,
    "copyfile_regex": "",
    "image_srcset": [],
    "thumbnail_size": (400, 280),
}

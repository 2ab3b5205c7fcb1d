"""svmeval's own Sphinx pieces, so that the site cannot drift from the code.

* ``.. svmeval-options:: COMMAND GROUP`` writes every option of one group of a command
  (``svm``: svm-train's, ``grid``: grid.py's, ``long``: svmeval's own, ``training``: the
  configurations' options of svmeval-compare) from the one option table,
  :mod:`svmeval.cli.options`, as ``.. option::`` entries: flags, value, help, default. At the end
  of the build every option of every command must have appeared on a page, or the build warns
  (an error under ``-W``).
* The API reference pages ``api/*.rst`` are written when the build starts, one per public module
  (``svmeval``, ``svmeval.metrics``, ``svmeval.stats``), each an autosummary over that module's
  ``__all__``: a name added to ``__all__`` gets its page, a name removed loses it.
* A cross-reference to a public object by one of its internal paths
  (``svmeval.cv.engine.cross_validate``) resolves to its public page (``svmeval.cross_validate``).
"""

from __future__ import annotations

import importlib
import inspect
import re
import shutil
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

LOG = logging.getLogger(__name__)

#: the public modules of the API reference, each with its page's title and introduction
PUBLIC_MODULES = {
    "svmeval": (
        "The svmeval package",
        (
            "Everything a user needs is imported from ``svmeval`` (lazily: ``import svmeval`` "
            "loads neither numpy nor LIBSVM). This list is made from ``svmeval.__all__`` when "
            "the documentation is built."
        ),
    ),
    "svmeval.metrics": (
        "svmeval.metrics",
        (
            "The metrics work on any ``y_true, y_pred`` (or scores), pure numpy, no LIBSVM. "
            "The functions with scikit-learn's names follow scikit-learn's contract; svmeval's "
            "own figures keep an undefined value undefined (NaN). This list is made from "
            "``svmeval.metrics.__all__`` when the documentation is built."
        ),
    ),
    "svmeval.stats": (
        "svmeval.stats",
        (
            "The statistical tests, from per-fold values (or paired predictions) to inference; "
            "pure numpy, no LIBSVM, no scipy. This list is made from ``svmeval.stats.__all__`` "
            "when the documentation is built."
        ),
    ),
}

#: how the names of svmeval.__all__ are grouped on its page; a public name in no group here is
#: listed under "Other names" (never left out), a name here that is not public is not listed
GROUPS = {
    "svmeval": [
        ("Data and configurations", ["read_dataset", "Dataset", "SvmParams"]),
        ("Cross-validation", ["cross_validate", "cross_validate_multilabel", "train_and_save"]),
        (
            "Parameter search, nested cross-validation and the decision threshold",
            ["grid_search", "nested_cv", "tune_threshold"],
        ),
        (
            "Comparing configurations and data sets",
            ["compare", "benchmark", "mcnemar_files", "permutation_test"],
        ),
        (
            "Figures, reports and tables",
            ["summarize", "summarize_predictions", "render", "to_frame", "to_dict"],
        ),
        (
            "Result types",
            [
                "CVResult",
                "MultilabelCVResult",
                "Summary",
                "GridResult",
                "CellResult",
                "NestedResult",
                "Comparison",
                "Benchmark",
                "PermutationTest",
                "TunedThreshold",
                "McNemarResult",
                "TTestResult",
            ],
        ),
        (
            "Errors",
            ["SvmevalError", "DataFormatError", "OptionError", "ParameterError", "ArgumentError"],
        ),
    ],
}


#: the entry of ``__version__`` on the page of a module that exports it
VERSION_ENTRY = [
    "Version",
    "-------",
    "",
    ".. data:: __version__",
    "   :type: str",
    "",
    "   The installed svmeval's version, such as ``'0.4.0'``: the same as the package's",
    "   metadata (``importlib.metadata.version('svmeval')``) and as each command's",
    "   ``--version``. svmeval follows Semantic Versioning; :doc:`/changelog` lists what each",
    "   release changed. ``import svmeval`` and reading ``__version__`` load neither numpy nor",
    "   LIBSVM.",
    "",
]


def _kind(obj) -> str:
    if inspect.isclass(obj):
        return "Exceptions and warnings" if issubclass(obj, BaseException) else "Classes"
    if callable(obj):
        return "Functions"
    return "Data"


def _public(module_name: str) -> list[str]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        return []
    return [n for n in names if not (n.startswith("__") and n.endswith("__"))]


def _groups(module_name: str) -> list[tuple[str, list[str]]]:
    """(heading, names) of the module's page: its curated groups, then every other public
    name grouped by kind."""
    module = importlib.import_module(module_name)
    public = _public(module_name)
    out, placed = [], set()
    for heading, names in GROUPS.get(module_name, []):
        present = [n for n in names if n in public]
        if present:
            out.append((heading, present))
            placed.update(present)
    rest: dict[str, list[str]] = {}
    for name in public:
        if name not in placed:
            rest.setdefault(_kind(getattr(module, name)), []).append(name)
    for kind in ("Functions", "Classes", "Exceptions and warnings", "Data"):
        if kind in rest:
            out.append((f"Other names: {kind.lower()}" if placed else kind, rest[kind]))
    return out


def _api_page(module_name: str) -> str:
    title, intro = PUBLIC_MODULES[module_name]
    lines = [
        ".. This page is written by docs/_ext/svmeval_docs.py when the build starts.",
        "",
        title,
        "=" * len(title),
        "",
        f".. module:: {module_name}",
        "",
        f".. currentmodule:: {module_name}",
        "",
        intro,
        "",
    ]
    groups = _groups(module_name)
    if not groups:
        lines += [f"``{module_name}`` exports no names yet.", ""]
    top = _top_level(module_name)
    for heading, names in groups:
        own = [n for n in names if n not in top]
        lines += [heading, "-" * len(heading), ""]
        if own:
            lines += [".. autosummary::", "   :toctree: generated/", "   :nosignatures:", ""]
            lines += [f"   {name}" for name in own]
            lines.append("")
        lines += [
            f"* ``{name}``: :class:`svmeval.{top[name]}` (documented there)"
            for name in names
            if name in top
        ]
        if any(name in top for name in names):
            lines.append("")
    if "__version__" in getattr(importlib.import_module(module_name), "__all__", ()):
        lines += VERSION_ENTRY
    return "\n".join(lines)


def _top_level(module_name: str) -> dict[str, str]:
    """The names of ``module_name`` that ``svmeval`` exports as the same object: their page is
    svmeval's (a second page would describe the same object twice)."""
    if module_name == "svmeval":
        return {}
    import svmeval

    module = importlib.import_module(module_name)
    mine = {id(getattr(module, n)): n for n in _public(module_name)}
    return {
        mine[id(getattr(svmeval, n))]: n for n in svmeval.__all__ if id(getattr(svmeval, n)) in mine
    }


def write_api_pages(app, config) -> None:
    """Write docs/api/<module>.rst for every public module (only where the text changed, so
    that an unchanged page is not rebuilt)."""
    folder = Path(app.srcdir) / "api"
    folder.mkdir(exist_ok=True)
    for module_name in PUBLIC_MODULES:
        path = folder / f"{module_name.rpartition('.')[2]}.rst"
        text = _api_page(module_name)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def _lookup(parts: list[str]):
    """The object at the dotted path ``parts`` (its longest importable module, then
    attributes), or None."""
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for part in parts[cut:]:
                obj = getattr(obj, part)
        except AttributeError:
            return None
        return obj
    return None


def _public_paths() -> dict[int, str]:
    """id of every public class, function and registry -> its public dotted path."""
    table = {}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in _public(module_name):
            obj = getattr(module, name)
            if not isinstance(obj, (int, float, str, bytes, bool, type(None))):
                table.setdefault(id(obj), f"{module_name}.{name}")
    return table


def _exists(target: str, owner: str) -> bool:
    """Whether ``target``, as a docstring of the object at ``owner`` names it, is a real
    object of svmeval: a full ``svmeval.`` path, or a name of the owner, of a class or module
    around it (an attribute, a method, a dataclass field)."""
    if target.startswith("svmeval."):
        return _lookup(target.split(".")) is not None
    parts = owner.split(".")
    for cut in range(len(parts), 0, -1):
        around = _lookup(parts[:cut])
        if around is None:
            continue
        if hasattr(around, target) or target in getattr(around, "__dataclass_fields__", {}):
            return True
    return False


def resolve_internal_path(app, env, node, contnode):
    """A reference to svmeval's objects that Sphinx could not resolve:

    * ``svmeval.some.module.Name[.attribute]`` -> the public ``svmeval.Name[.attribute]`` (or
      ``svmeval.metrics.Name``, ``svmeval.stats.Name``) where it is the same object;
    * in a docstring, a name of svmeval's internals (which this site does not document, on
      purpose) that exists -> its name as code, without a link.

    Anything else stays unresolved, and the build warns (an error under ``-W``)."""
    target = node.get("reftarget", "")
    if node.get("refdomain") != "py":
        return None
    if target.startswith("svmeval."):
        parts = target.split(".")
        public = _public_paths()
        for cut in range(len(parts), 1, -1):
            obj = _lookup(parts[:cut])
            if obj is not None and id(obj) in public:
                new = ".".join([public[id(obj)], *parts[cut:]])
                if new == target:
                    break
                found = env.get_domain("py").resolve_xref(
                    env, node["refdoc"], app.builder, node["reftype"], new, node, contnode
                )
                if found is not None:
                    return found
                break
    source = node.source or ""
    if ":docstring of " in source:
        owner = source.rpartition(":docstring of ")[2]
        if _exists(target, owner):
            return contnode
    return None


_ESCAPE = re.compile(r"([\\`*_|])")


def _text(text: str) -> str:
    """An option's help as one paragraph of reST text (its own line breaks and tabs are the
    terminal's layout)."""
    return _ESCAPE.sub(r"\\\1", " ".join(text.split()))


GROUP_NAMES = ("svm", "grid", "long", "training")


def _group(group: str):
    from svmeval.cli import options as o

    return {
        "svm": o.SVM_TRAIN_OPTIONS,
        "grid": o.GRID_PY_OPTIONS,
        "long": o.LONG_OPTIONS,
        "training": o.SVM_TRAIN_OPTIONS,
    }[group]


class OptionsDirective(SphinxDirective):
    """``.. svmeval-options:: COMMAND GROUP``: the options of ``GROUP`` that ``COMMAND``
    (svmeval, grid, compare) takes, from svmeval's option table."""

    required_arguments = 2
    has_content = False

    def run(self):
        from svmeval.cli import options as o

        command, group = self.arguments
        if command not in o.PROGRAMS or group not in GROUP_NAMES:
            raise self.error(
                f"svmeval-options: COMMAND in {sorted(o.PROGRAMS)}, GROUP in "
                f"{GROUP_NAMES}, not {command} {group}"
            )
        takes = o.options_of(o.TRAINING if group == "training" else command)
        chosen = [
            opt
            for opt in _group(group)
            if any(
                takes.get(f) is opt or (f == "-wi" and takes.get("-w") is opt) for f in opt.flags
            )
        ]
        for path in sorted(Path(o.__file__).parent.glob("*.py")):  # the option table's modules:
            self.env.note_dependency(str(path))  # one changed, this page is read again
        program = o.PROGRAMS[command]
        lines = [f".. program:: {program}", ""]
        documented = self.env.domaindata.setdefault("svmeval_options", {}).setdefault(program, {})
        for opt in chosen:
            signature = ", ".join(f"{flag} {opt.metavar}".rstrip() for flag in opt.flags)
            lines += [f".. option:: {signature}", ""]
            lines += [f"   {_text(opt.help)}", ""]
            if opt.more:
                lines += ["   ::", ""] + [
                    f"      {line.strip()}"
                    for line in opt.more.expandtabs(4).splitlines()
                    if line.strip()
                ]
                lines.append("")
            default = dict(opt.defaults).get(command, opt.default)
            if default is not None and "default" not in opt.help.lower():
                lines += [f"   Default: ``{default}``.", ""]
            for flag in opt.flags:
                documented[flag] = self.env.docname
        container = nodes.container()
        nested_parse_with_titles(
            self.state, StringList(lines, source=self.get_source_info()[0]), container
        )
        return container.children


def check_every_option(app, env) -> None:
    """Every option of every command appeared on a page."""
    from svmeval.cli import options as o

    documented = env.domaindata.get("svmeval_options", {})
    for command, program in o.PROGRAMS.items():
        flags = set(o.options_of(command))
        if command == o.COMPARE:
            flags |= set(o.options_of(o.TRAINING))
        flags = {"-wi" if f == "-w" else f for f in flags}
        missing = sorted(flags - set(documented.get(program, {})))
        if missing:
            LOG.warning(
                "options of %s documented on no page: %s",
                program,
                " ".join(missing),
                type="svmeval",
                subtype="options",
            )


def purge_options(app, env, docname) -> None:
    for flags in env.domaindata.get("svmeval_options", {}).values():
        for flag in [f for f, d in flags.items() if d == docname]:
            del flags[flag]


def merge_options(app, env, docnames, other) -> None:
    for program, flags in other.domaindata.get("svmeval_options", {}).items():
        env.domaindata.setdefault("svmeval_options", {}).setdefault(program, {}).update(flags)


def _figures():
    try:
        from svmeval.metrics import FIGURES
    except ImportError:  # the registry before it was exported by svmeval.metrics
        from svmeval.metrics.figures import FIGURES
    return FIGURES


class FiguresDirective(SphinxDirective):
    """``.. svmeval-figures::``: the registry of scalar figures as a table (name, report
    title, direction, the runs it exists for, definition, when it is undefined)."""

    has_content = False

    def run(self):
        from svmeval.metrics import figures

        self.env.note_dependency(figures.__file__)  # the registry changed: this page again
        kinds = ("binary", "multiclass", "regression", "multilabel")
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 14 12 8 14 32 20",
            "",
            "   * - name",
            "     - report title",
            "     - better",
            "     - runs",
            "     - definition",
            "     - undefined when",
        ]
        for figure in _figures().values():
            runs = ", ".join(k for k in kinds if k in figure.kinds)
            lines += [
                f"   * - ``{figure.name}``",
                f"     - {_text(figure.title)}",
                f"     - {'greater' if figure.greater_is_better else 'smaller'}",
                f"     - {runs}",
                f"     - {_text(figure.formula)}",
                f"     - {_text(figure.undefined)}",
            ]
        container = nodes.container()
        nested_parse_with_titles(
            self.state, StringList(lines, source=self.get_source_info()[0]), container
        )
        return container.children


_BARS = re.compile(r"(?<![`\\|])\|(?=[^|`\s])([^|`\n]*?[^|`\s])\|(?![`|_])")


def plain_bars(app, what, name, obj, options, lines) -> None:
    """In svmeval's docstrings ``|x|`` is an absolute value (they are read as plain text by
    ``help()`` first), never a reST substitution: escape the bars."""
    for i, line in enumerate(lines):
        if "|" in line and not line.lstrip().startswith((">>>", "...", "+", "|")):
            lines[i] = _BARS.sub(lambda m: "\\|" + m.group(1) + "\\|", line)


def png_files(block, block_vars, gallery_conf):
    """sphinx-gallery scraper: the PNG files a gallery script's code block wrote into the
    script's folder (the pictures svmeval's commands draw), moved beside the page's images."""
    from sphinx_gallery.scrapers import figure_rst

    folder = Path(block_vars["src_file"]).parent
    moved = []
    for png in sorted(folder.glob("*.png")):
        target = next(block_vars["image_path_iterator"])
        shutil.move(png, target)
        moved.append(target)
    return figure_rst(moved, gallery_conf["src_dir"])


def _get_sg_image_scraper():
    """sphinx-gallery's hook: ``"image_scrapers": ("matplotlib", "svmeval_docs")``."""
    return png_files


def setup(app):
    app.connect("config-inited", write_api_pages)
    app.connect("missing-reference", resolve_internal_path)
    app.connect("autodoc-process-docstring", plain_bars)
    app.connect("env-purge-doc", purge_options)
    app.connect("env-merge-info", merge_options)
    app.connect("env-check-consistency", check_every_option)
    app.add_directive("svmeval-options", OptionsDirective)
    app.add_directive("svmeval-figures", FiguresDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

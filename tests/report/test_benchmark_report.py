"""The reports of a Benchmark: each format read back with an independent parser (json, csv,
the markdown and latex table rows) and compared with numpy's means and scipy's ranks of the
fold values; the Bayesian sentence against baycomp; the critical-difference diagram's groups
against Demšar 2006 (Figure 2 at alpha 0.10) and the PNG read back with matplotlib."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import numpy as np
import pytest

stats = pytest.importorskip("scipy.stats")

from test_rank_tests import DEMSAR_AUC

from svmeval.report.benchmark import BENCHMARK_FORMATS, render
from svmeval.workflows.benchmark import Benchmark

DATASETS = ["heart_scale", "dna.scale", "a_b"]
CONFIGS = ["-c 1", "-c 10 -g 0.1", "C&x"]


def _bench(rope=0.01, criterion="accuracy"):
    rng = np.random.default_rng(11)
    v = rng.normal(0.8, 0.02, size=(3, 3, 20)) + np.array([0.0, 0.004, 0.03])[None, :, None]
    return v, Benchmark(v, DATASETS, CONFIGS, criterion, n_folds=10, repeat=2, rope=rope)


def test_json_is_to_dict_and_carries_the_promised_keys():
    v, b = _bench()
    doc = json.loads(render(b, format="json"))
    assert doc == json.loads(json.dumps(b.to_dict()))
    assert doc["datasets"] == DATASETS and doc["configurations"] == CONFIGS
    assert np.asarray(doc["mean"]) == pytest.approx(v.mean(axis=2))
    ranks = np.array([stats.rankdata(-r) for r in v.mean(axis=2)]).mean(axis=0)
    assert doc["ranks"] == pytest.approx(ranks)
    f = stats.friedmanchisquare(*v.mean(axis=2).T)
    assert doc["friedman"]["statistic"] == pytest.approx(f.statistic)
    assert doc["friedman"]["p"] == pytest.approx(f.pvalue)
    assert set(doc["bayesian"][0]) >= {"rope", "p_left", "p_rope", "p_right"}


def test_csv_is_the_wide_table_with_the_best_and_the_ranks():
    v, b = _bench()
    rows = list(csv.reader(io.StringIO(render(b, format="csv"))))
    assert rows[0] == [
        "dataset",
        "-c 1",
        "-c 1 sd",
        "-c 1 best",
        "-c 10 -g 0.1",
        "-c 10 -g 0.1 sd",
        "-c 10 -g 0.1 best",
        "C&x",
        "C&x sd",
        "C&x best",
    ]
    mean, sd = v.mean(axis=2), v.std(axis=2, ddof=1)
    for i, row in enumerate(rows[1:4]):
        assert row[0] == DATASETS[i]
        assert [float(x) for x in row[1:10:3]] == pytest.approx(mean[i])
        assert [float(x) for x in row[2:10:3]] == pytest.approx(sd[i])
        assert row[3:10:3] == ["1" if j == int(np.argmax(mean[i])) else "0" for j in range(3)]
    ranks = np.array([stats.rankdata(-r) for r in mean]).mean(axis=0)
    assert rows[4][0] == "average rank"
    assert [float(x) for x in rows[4][1:10:3]] == pytest.approx(ranks)


def test_markdown_marks_the_best_of_each_row_in_bold():
    v, b = _bench()
    lines = render(b, format="markdown").splitlines()
    assert lines[0] == "| data set | -c 1 | -c 10 -g 0.1 | C&x |"
    mean = v.mean(axis=2)
    for i, line in enumerate(lines[2:5]):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[0] == DATASETS[i]
        bold = [j for j, c in enumerate(cells[1:]) if c.startswith("**")]
        assert bold == [int(np.argmax(mean[i]))]
        assert float(cells[1].strip("*").split(" ± ")[0]) == pytest.approx(mean[i, 0], abs=5e-4)
    assert lines[5].startswith("| average rank |")


def test_latex_is_a_booktabs_table_with_escaped_names():
    v, b = _bench()
    tex = render(b, format="latex")
    assert tex.startswith("\\begin{tabular}{lrrr}\n\\toprule\n")
    assert "data set & -c 1 & -c 10 -g 0.1 & C\\&x \\\\" in tex
    assert "heart\\_scale & " in tex and "a\\_b & " in tex
    assert tex.count("\\textbf{") == 3 and "average rank & " in tex
    assert tex.rstrip().endswith("\\end{tabular}")


def test_text_states_equivalence_as_baycomp_computes_it():
    baycomp = pytest.importorskip("baycomp")
    v, b = _bench(rope=0.01)
    text = " ".join(render(b, format="text").split())  # the sentence as read, across lines
    p_left, p_rope, p_right = baycomp.two_on_single(v[1, 0], v[1, 1], rope=0.01, runs=2)
    sentence = (
        f"On dna.scale, -c 10 -g 0.1 is practically equivalent to -c 1 with "
        f"probability {p_rope:.3f} (rope ±0.01); -c 10 -g 0.1 is better with "
        f"probability {p_right:.3f}, -c 1 with probability {p_left:.3f}."
    )
    assert sentence in text
    assert "Friedman's test over 3 data sets" in text and "win/tie/loss" in text


def test_text_for_a_smaller_is_better_figure_swaps_better_and_worse():
    baycomp = pytest.importorskip("baycomp")
    v, b = _bench(rope=0.01, criterion="mse")
    p_left, p_rope, p_right = baycomp.two_on_single(v[0, 0], v[0, 2], rope=0.01, runs=2)
    assert (
        f"C&x is better with probability {p_left:.3f}, -c 1 with probability {p_right:.3f}."
    ) in " ".join(render(b, format="text").split())


def test_every_format_renders_without_a_rope_and_an_unknown_one_is_refused():
    _, b = _bench(rope=None)
    for fmt in BENCHMARK_FORMATS:
        assert render(b, format=fmt)
    assert "bayesian" not in b.to_dict()
    with pytest.raises(ValueError):
        render(b, format="html")


def _demsar(level):
    v = np.repeat(DEMSAR_AUC[:, :, None], 2, axis=2)
    return Benchmark(
        v,
        [f"set{i}" for i in range(14)],
        ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
        "roc_auc",
        n_folds=2,
        level=level,
    )


def test_cd_groups_are_demsars_figure_2():
    """Demšar 2006, Figure 2 (alpha 0.10): one bar joins C4.5+m+cf, C4.5+m and C4.5+cf,
    another C4.5+cf and C4.5."""
    b = _demsar(0.10)
    names = [{b.configurations[j] for j in g} for g in b.cliques]
    assert names == [{"C4.5+m+cf", "C4.5+m", "C4.5+cf"}, {"C4.5+cf", "C4.5"}]
    assert [{b.configurations[j] for j in g} for g in _demsar(0.05).cliques] == [
        {"C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"}
    ]


def test_cd_diagram_is_written_as_png_svg_and_pdf(tmp_path):
    image = pytest.importorskip("matplotlib.image")
    from svmeval.report.cd_plot import draw_cd_diagram, write_cd_diagram

    b = _demsar(0.10)
    path = tmp_path / "cd.png"
    write_cd_diagram(str(path), b, title="Demšar 2006")
    pixels = image.imread(str(path))
    assert pixels.ndim == 3 and pixels.shape[1] > pixels.shape[0] > 100
    texts = {t.get_text() for t in draw_cd_diagram(b).axes[0].texts}
    assert {"C4.5 (3.14)", "C4.5+m (2.00)", "C4.5+cf (2.89)", "C4.5+m+cf (1.96)"} <= texts
    assert "CD = 1.12 (α = 0.1)" in texts
    write_cd_diagram(str(tmp_path / "cd.svg"), b)
    write_cd_diagram(str(tmp_path / "cd.pdf"), b)
    assert (tmp_path / "cd.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "cd.pdf").read_bytes().startswith(b"%PDF")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cd.pdf", "cd.png", "cd.svg"]


def test_cd_diagram_refuses_a_bad_suffix_and_works_without_pyplot(tmp_path):
    from svmeval.errors import SvmevalError
    from svmeval.report.cd_plot import write_cd_diagram

    with pytest.raises(SvmevalError, match="must end in"):
        write_cd_diagram(str(tmp_path / "cd.gif"), _demsar(0.05))
    assert list(tmp_path.iterdir()) == []


def test_cd_diagram_without_matplotlib_raises_plot_unavailable(tmp_path):
    code = (
        "import sys; sys.modules['matplotlib'] = None; sys.path.insert(0, 'tests')\n"
        "import numpy as np\n"
        "from svmeval.workflows.benchmark import Benchmark\n"
        "from svmeval.report.cd_plot import PlotUnavailable, write_cd_diagram\n"
        "b = Benchmark(np.arange(12.0).reshape(2, 3, 2), ['x', 'y'], ['A', 'B', 'C'],\n"
        "              'accuracy', n_folds=2)\n"
        "try:\n"
        f"    write_cd_diagram({str(tmp_path / 'cd.png')!r}, b)\n"
        "except PlotUnavailable as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert out.stdout.strip() == (
        f"pictures need matplotlib, which is not installed: {sys.executable} -m pip install 'matplotlib>=3.5'"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("tied", [(0, 1), (2,), (0, 1, 2)])
def test_csv_best_column_unambiguous_when_names_contain_each_other(tied):
    """Names "-c 2", "-g 0.5" and "-c 2 -g 0.5": "the first two tie" and "the third is best"
    must read differently (the oracle: which means are the row's largest)."""
    names = ["-c 2", "-g 0.5", "-c 2 -g 0.5"]
    v = np.full((2, 3, 4), 0.5) + np.random.default_rng(3).normal(0, 0.01, (2, 3, 4))
    v[0, :, :] = 0.5
    for j in tied:
        v[0, j, :] = [0.9, 0.8, 0.9, 0.8]
    b = Benchmark(v, ["tied", "other"], names, "accuracy", n_folds=4)
    rows = list(csv.DictReader(io.StringIO(render(b, format="csv"))))
    best = {n for n in names if rows[0][f"{n} best"] == "1"}
    assert best == {names[j] for j in tied}
    assert {n for n in names if rows[1][f"{n} best"] == "1"} == {
        names[int(np.argmax(v[1].mean(axis=1)))]
    }

"""grid.py's rules, against worked examples of grid.py's own code paths (range_f,
permute_sequence, calculate_jobs, update_param, the -out lines and -resume's parsing)."""

from __future__ import annotations

import math

import pytest

from svmeval.workflows import grid_rules as rules
from svmeval.workflows.grid_rules import Cell


def test_range_f_accumulates_like_grid_py():
    assert rules.range_f(-5.0, 15.0, 2.0) == [
        -5.0,
        -3.0,
        -1.0,
        1.0,
        3.0,
        5.0,
        7.0,
        9.0,
        11.0,
        13.0,
        15.0,
    ]
    assert rules.range_f(3.0, -15.0, -2.0)[-1] == -15.0
    # repeated addition, as grid.py: 0.1 + 0.1 + 0.1 is not 0.3
    seq = rules.range_f(0.0, 0.3, 0.1)
    assert seq == [0.0, 0.1, 0.2, 0.1 + 0.1 + 0.1] or seq == [0.0, 0.1, 0.2]
    assert seq[2] == 0.1 + 0.1
    assert rules.range_f(1.0, 1.0, -3.0) == [1.0]


def test_permute_sequence_middle_first():
    # n=5: mid 2 first; left [0,1] -> [1,0]; right [3,4] -> [4,3]; interleaved. n=11: 5 first,
    # then left [-5..3] -> [-1,-3,3,-5,1] and right [7..15] -> [11,9,15,7,13] interleaved
    assert rules.permute_sequence([0, 1, 2, 3, 4]) == [2, 1, 4, 0, 3]
    assert rules.permute_sequence(
        [-5.0, -3.0, -1.0, 1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 15.0]
    ) == [5.0, -1.0, 11.0, -3.0, 9.0, 3.0, 15.0, -5.0, 7.0, 1.0, 13.0]


def test_job_order_worked_example():
    """calculate_jobs with c_seq = [1, 0, 2] and g_seq = [-1, 0, -2] (3 values each, permuted):
    lines alternate 'more gamma' / 'more C' by i/nr_c < j/nr_g."""
    order = rules.job_order((0.0, 2.0, 1.0), (0.0, -2.0, -1.0))
    got = [(c.log2c, c.log2g) for c in order]
    # i=j=0: gamma line, empty; i=0,j=1: 0<1/3 -> C line (c1,g-1); i=1,j=1: gamma line
    # (c1,g0); i=1,j=2: 1/3<2/3 -> C line (c0,g-1),(c0,g0); i=2,j=2: gamma (c1,g-2),(c0,g-2);
    # i=2,j=3: C line (c2, g-1),(c2,g0),(c2,g-2)
    assert got == [
        (1.0, -1.0),
        (1.0, 0.0),
        (0.0, -1.0),
        (0.0, 0.0),
        (1.0, -2.0),
        (0.0, -2.0),
        (2.0, -1.0),
        (2.0, 0.0),
        (2.0, -2.0),
    ]
    default = rules.job_order(rules.DEFAULT_LOG2C, rules.DEFAULT_LOG2G)
    assert len(default) == 110 and len(set(default)) == 110
    assert (default[0].log2c, default[0].log2g) == (5.0, -7.0)  # grid.py's famous first cell
    null_c = rules.job_order(None, (0.0, -2.0, -1.0))
    assert [(c.log2c, c.log2g) for c in null_c] == [(None, -1.0), (None, 0.0), (None, -2.0)]
    with_p = rules.job_order((0.0, 1.0, 1.0), None, (-1.0, 0.0, 1.0))
    # C permuted [1, 0] (middle first), epsilon in range order
    assert [(c.log2c, c.log2p) for c in with_p] == [
        (1.0, -1.0),
        (0.0, -1.0),
        (1.0, 0.0),
        (0.0, 0.0),
    ]


def test_best_cell_rule_with_ties():
    """update_param: strictly greater wins; equal wins only at the same gamma with smaller C."""
    a, b, c, d = Cell(3.0, -1.0), Cell(1.0, -1.0), Cell(0.0, -3.0), Cell(5.0, -1.0)
    # equal value, same gamma, smaller C: the later cell wins
    assert rules.choose_best([a, b], [80.0, 80.0]) == 1
    # equal value, other gamma (even with smaller C): the first stays
    assert rules.choose_best([a, c], [80.0, 80.0]) == 0
    # equal value, same gamma, larger C: the first stays
    assert rules.choose_best([b, d], [80.0, 80.0]) == 0
    # strictly better always wins
    assert rules.choose_best([a, c], [80.0, 80.0001]) == 1
    # minimised figures: smaller wins, ties as above
    assert rules.choose_best([a, c], [0.3, 0.2], greater_is_better=False) == 1
    assert rules.choose_best([a, b], [0.3, 0.3], greater_is_better=False) == 1
    # undefined ranks below every number, whatever the direction
    nan = math.nan
    assert rules.choose_best([a, c], [nan, -0.5]) == 1
    assert rules.choose_best([a, c], [0.1, nan], greater_is_better=False) == 0
    assert rules.choose_best([a, b], [nan, nan]) == 1  # equal (both undefined), same gamma
    # -log2c null: no C to compare; the first of equal values stays
    assert rules.choose_best([Cell(None, -1.0), Cell(None, -3.0)], [5.0, 5.0]) == 0


def test_accuracy_rate_is_svm_trains_printed_value():
    assert rules.accuracy_rate(224, 270) == 82.963  # 82.96296...% printed %g
    assert rules.accuracy_rate(150, 150) == 100.0
    # two counts whose exact rates differ but print the same compare equal, as in grid.py
    assert 1000000 / 1500000 != 1000001 / 1500001
    assert rules.accuracy_rate(1000000, 1500000) == rules.accuracy_rate(1000001, 1500001) == 66.6667


def test_out_lines_round_trip_and_read_grid_py_files():
    cells = {
        Cell(-5.0, 3.0): 55.5556,
        Cell(1.0, -7.0): 83.3333,
        Cell(1.5, 1.3877787807814457e-16): 0.1,
        Cell(2.0, -1.0, -3.0): 0.25,
        Cell(3.0, -1.0): math.nan,
        Cell(None, -3.0): -0.125,
    }
    text = "".join(rules.out_line(c, v) for c, v in cells.items())
    assert rules.out_line(Cell(-5.0, 3.0), 55.5556) == "log2c=-5.0 log2g=3.0 rate=55.5556\n"
    assert rules.out_line(Cell(None, -3.0), 84.0) == "log2g=-3.0 rate=84.0\n"
    back = rules.parse_out(text)
    assert list(back) == list(cells)
    for cell, value in cells.items():
        assert back[cell] == value or (math.isnan(value) and math.isnan(back[cell]))
    # a file grid.py wrote (its format exactly), with noise lines it ignores
    grid_py = (
        "log2c=5.0 log2g=-7.0 rate=83.3333\n\ngarbage\nlog2c=-1.0 log2g=-7.0 rate=82.963\n"
        "log2c=5.0 log2g=-7.0 rate=84.0\n"
    )
    assert rules.parse_out(grid_py) == {Cell(5.0, -7.0): 84.0, Cell(-1.0, -7.0): 82.963}


def test_stdout_lines_as_grid_py():
    best = Cell(5.0, -7.0)
    assert (
        rules.stdout_line("local", Cell(-1.0, -7.0), 82.963, best, 83.3333)
        == "[local] -1.0 -7.0 82.963 (best c=32.0, g=0.0078125, rate=83.3333)"
    )
    assert (
        rules.stdout_line("resumed", Cell(None, -7.0), 82.963, Cell(None, -7.0), 82.963)
        == "[resumed] -7.0 82.963 (best g=0.0078125, rate=82.963)"
    )
    assert rules.last_line(best, 83.3333) == "32.0 0.0078125 83.3333"


@pytest.mark.parametrize(
    "text,message",
    [
        ("1,5,0", "the step is 0"),
        ("-5,15,-2", "the step goes away from the end"),
        ("3,-15,2", "the step goes away from the end"),
        ("a,b,c", "numbers needed"),
        ("1,2", "is not begin,end,step"),
        ("0,1e9,1e-9", "more than 1000 values"),
        ("nan,1,1", "finite"),
    ],
)
def test_bad_ranges(text, message):
    from svmeval.cli.values import parse_log2_range
    from svmeval.errors import OptionError

    with pytest.raises(OptionError, match=message):
        parse_log2_range("-log2c", text)


def test_grid_default_ranges_are_ints_in_grid_pys_lines_only():
    """grid.py's default ranges are ints (its lines print ``5``), given ranges floats; the
    cells themselves hold floats either way (the same types whatever the ranges)."""
    ints = rules.job_order(rules.DEFAULT_LOG2C, rules.DEFAULT_LOG2G)
    floats = rules.job_order((-5.0, 15.0, 2.0), (3.0, -15.0, -2.0))
    assert ints == floats
    assert all(type(c.log2c) is float and type(c.log2g) is float for c in ints)
    assert rules.out_line(ints[0], 83.3333) == "log2c=5 log2g=-7 rate=83.3333\n"
    assert rules.out_line(floats[0], 83.3333) == "log2c=5.0 log2g=-7.0 rate=83.3333\n"
    mixed = rules.job_order((-1.0, 1.0, 1.0), rules.DEFAULT_LOG2G)[0]
    assert rules.out_line(mixed, 80.0) == "log2c=0.0 log2g=-7 rate=80.0\n"
    # a value read back from a -out file is a float, and shown as the float read
    assert rules.stdout_line(
        "resumed", Cell(5.0, -7.0), 66.66666, Cell(5.0, -7.0), 66.66666, best_resumed=True
    ) == ("[resumed] 5.0 -7.0 66.66666 (best c=32.0, g=0.0078125, rate=66.66666)")


@pytest.mark.parametrize("greater", [True, False])
@pytest.mark.parametrize("log2c", [(-1.0, 3.0, 1.0), None])
def test_leader_is_update_param_over_the_known_cells_in_order(greater, log2c):
    """Cells known in any order: the leader is at every step what grid.py's update_param
    finds taking the known cells in the search's order (ties and NaN drawn often)."""
    import random

    order = rules.job_order(log2c, (0.0, -3.0, -1.0), (0.0, 1.0, 1.0) if log2c else None)
    rng = random.Random(7)
    for _ in range(200):
        values = {c: rng.choice([50.0, 60.0, 60.0, math.nan]) for c in order}
        arrival = order[:]
        rng.shuffle(arrival)
        leader = rules.Leader(greater)
        place = {c: k for k, c in enumerate(order)}
        for n, cell in enumerate(arrival, 1):
            got = leader.add(cell, values[cell], place[cell])
            known = sorted(arrival[:n], key=place.get)
            want = known[rules.choose_best(known, [values[c] for c in known], greater)]
            assert got == want


def test_out_file_order_line_splits_the_files_order_from_the_job_order():
    text = (
        "log2c=1 log2g=-1 rate=80.0\n"
        + rules.ORDER_LINE
        + "log2c=3 log2g=-3 rate=81.0\nlog2c=1 log2g=-1 rate=82.0\n"
    )
    cells = rules.parse_out(text)
    assert list(cells) == [Cell(1.0, -1.0), Cell(3.0, -3.0)]
    assert cells[Cell(1.0, -1.0)] == 82.0 and cells.head == 1
    assert rules.parse_out("log2c=1 log2g=-1 rate=80.0\n").head == 1  # grid.py's: all


def test_resumed_cells_after_the_order_line_keep_their_job_order_places():
    order = rules.job_order((0.0, 2.0, 1.0), (0.0, -2.0, -1.0))
    outside = Cell(9.0, 9.0)
    # the file: one cell in its order, then (after the order line) a later cell, one before
    # it in the job order, and a cell outside the grid
    resumed = {order[5]: 1.0, order[3]: 1.0, order[1]: 1.0, outside: 1.0}
    cells = rules.Cells(order, resumed, True, None, head=1)
    assert cells.order == [order[5], outside] + [c for c in order if c != order[5]]
    # without the line (grid.py's rule): the file's cells first, in its order
    cells = rules.Cells(order, resumed, True, None)
    assert cells.order[:4] == list(resumed)
    assert cells.order[4:] == [c for c in order if c not in resumed]


def _grouped(order):
    """The cells gamma by gamma (gammas by their first cell), each gamma's in job order."""
    gammas = list(dict.fromkeys(c.log2g for c in order))
    return [c for g in gammas for c in order if c.log2g == g]


def _write(cells: rules.Cells, arrival, values, lines: list) -> None:
    """Release ``arrival``'s cells, writing the -out lines as svmeval-grid does."""
    for cell in arrival:
        if cell in cells.results:
            continue
        if cells.ahead(cell) and rules.ORDER_LINE not in lines:
            lines.append(rules.ORDER_LINE)
        cells.release(_Result(cell, values[cell]))
        lines.append(rules.out_line(cell, values[cell]))


class _Result:
    def __init__(self, cell, rate):
        self.cell, self.rate = cell, rate  # as grid.py's lines hold it


def test_a_file_written_out_of_order_resumes_to_the_whole_runs_answer():
    """Cells finished gamma by gamma, the file cut after any line and resumed (and that run
    cut and resumed again): grid.py's answer in its job order every time, ties included;
    without the order line grid.py's rule (the file's cells first) gives another answer."""
    order = rules.job_order((-1.0, 3.0, 1.0), (0.0, -3.0, -1.0))
    values = {c: 70.0 for c in order}
    # the best value at two gammas: the job order meets (1, -1) first, the gamma by gamma
    # order (2, -2) (gamma -2 comes first: the middle one)
    values[Cell(1.0, -1.0)] = values[Cell(2.0, -2.0)] = 90.0
    want = order[rules.choose_best(order, [values[c] for c in order])]
    arrival = _grouped(order)
    assert want == Cell(1.0, -1.0) and arrival[0].log2g == -2.0
    whole: list = []
    _write(rules.Cells(order, {}, True, None), arrival, values, whole)
    assert rules.ORDER_LINE in whole
    differs = 0
    for k in range(len(whole) + 1):
        lines = whole[:k]
        for again in (False, True):
            known = rules.parse_out("".join(lines))
            resumed = {c: _Result(c, v) for c, v in known.items()}
            cells = rules.Cells(order, resumed, True, None, known.head)
            cells.start()
            more = list(lines)
            _write(
                cells, [c for c in arrival if c not in known][: 5 if again else None], values, more
            )
            if again:  # interrupted once more, then resumed to the end
                known = rules.parse_out("".join(more))
                resumed = {c: _Result(c, v) for c, v in known.items()}
                cells = rules.Cells(order, resumed, True, None, known.head)
                cells.start()
                _write(cells, arrival, values, more)
            assert cells.best.cell == want, (k, again)
            assert cells.leader.best.cell == want
        plain = rules.parse_out("".join(x for x in lines if x != rules.ORDER_LINE))
        cells = rules.Cells(order, {c: _Result(c, v) for c, v in plain.items()}, True, None)
        _write(cells, arrival, values, [])
        differs += cells.best.cell != want
    assert differs > 0

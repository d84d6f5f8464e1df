"""`monopoly compare`: two rulesets on the same seeds and agents, every figure with its interval and test."""

from __future__ import annotations

import json
import math
import re
import statistics
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

import monopoly
from monopoly.analysis import compare as cmp
from monopoly.analysis.compare import FiguresFactory, GameFigures, Plan
from monopoly.analysis.stats import (
    beta_regularized,
    chi2_upper,
    mean_figure,
    proportion_figure,
    t_quantile,
    t_two_sided,
)
from monopoly.game.log import EventLog, read_log
from monopoly.sim import simulate

from .test_report import ARTIFACTS, WINDOW, Dom, body_rows, browser, png_size, run_browser  # noqa: F401

CLASSIC = monopoly.load_ruleset("classic")
JACKPOT = monopoly.load_ruleset("classic", ["free-parking-jackpot"])
TIMED = monopoly.load_ruleset("classic", ["time-limit"])


def run(runner: Any, cli: Any, *args: str, code: int = 0) -> Any:
    result = runner.invoke(cli, ["compare", *args])
    assert result.exit_code == code, result.output
    return result


# ---------------------------------------------------------------------------- the statistics


def test_student_t_and_chi_square_match_their_tables():
    # printed tables: t(0.975; 1, 5, 10, 30) and chi-square(0.95; 1, 3, 10)
    for df, quantile in ((1, 12.7062), (5, 2.5706), (10, 2.2281), (30, 2.0423)):
        assert t_quantile(0.975, df) == pytest.approx(quantile, abs=1e-4)
        assert t_two_sided(quantile, df) == pytest.approx(0.05, abs=1e-4)
    assert t_two_sided(0.0, 7) == pytest.approx(1.0)
    assert t_two_sided(2.0, 5) == pytest.approx(0.101939, abs=1e-6)
    for k, x in ((1, 3.8415), (3, 7.8147), (10, 18.3070)):
        assert chi2_upper(x, k) == pytest.approx(0.05, abs=1e-4)
    assert chi2_upper(0.0, 4) == 1.0
    assert chi2_upper(40.0, 3) < 1e-7
    # I_x(a, 1) = x^a and I_x(1, b) = 1 - (1 - x)^b
    for x in (0.05, 0.3, 0.77, 0.99):
        assert beta_regularized(3.5, 1, x) == pytest.approx(x ** 3.5, rel=1e-10)
        assert beta_regularized(1, 2.5, x) == pytest.approx(1 - (1 - x) ** 2.5, rel=1e-10)


def test_proportion_figure_is_newcombe_and_the_pooled_z_test():
    f = proportion_figure("cap", "k", "s", "l", (56, 40), (200, 180))
    pa, pb = 56 / 200, 40 / 180
    assert f.difference == pytest.approx(pb - pa)
    pooled = 96 / 380
    z = (pb - pa) / math.sqrt(pooled * (1 - pooled) * (1 / 200 + 1 / 180))
    assert f.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)))
    la, ua = monopoly.sim.wilson(56, 200)
    lb, ub = monopoly.sim.wilson(40, 180)
    assert f.ci95 == pytest.approx((pb - pa - math.hypot(pb - lb, ua - pa), pb - pa + math.hypot(ub - pb, pa - la)))
    assert f.ci95[0] < f.difference < f.ci95[1]
    same = proportion_figure("cap", "k", "s", "l", (0, 0), (50, 50))
    assert same.difference == 0 and same.p_value == 1.0 and same.ci95[0] < 0 < same.ci95[1]


def test_mean_figure_is_welch():
    a = [3.1, 4.7, 5.0, 2.2, 6.1, 4.4, 3.9]
    b = [5.5, 7.1, 6.0, 8.2, 5.9, 7.7, 6.4, 9.0, 6.6]
    f = mean_figure("length", "k", "s", "l", "turns", a, b)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    d = statistics.fmean(b) - statistics.fmean(a)
    half = t_quantile(0.975, df) * math.sqrt(va + vb)
    assert f.difference == pytest.approx(d)
    assert f.ci95 == pytest.approx((d - half, d + half))
    assert f.p_value == pytest.approx(t_two_sided(d / math.sqrt(va + vb), df))
    assert f.p_value < 0.01 and f.significant
    assert mean_figure("x", "k", "s", "l", "turns", [1.0], [2.0, 3.0]).p_value is None  # too few games


# ---------------------------------------------------------------------------- what the observer gathers


def test_game_figures_agree_with_the_event_log(tmp_path):
    plan = Plan.of(CLASSIC, 4, 400)
    for seed in (3, 8, 21):
        figures = GameFigures(plan)
        path = tmp_path / f"{seed}.jsonl"
        with EventLog(path) as log:
            game = monopoly.Game(CLASSIC, [monopoly.make_agent(n) for n in ("greedy", "trader", "cautious", "greedy")],
                                 seed, max_turns=400, observers=[log, figures])
            result = game.play()
        record = figures.finish(result)
        events = read_log(path)
        rent = sum(e["amount"] for e in events if e["type"] == "payment" and e["reason"] == "rent")
        assert sum(record.rent) == rent > 0
        assert record.money[0] == 4 * CLASSIC.starting_cash
        assert len(record.money) == result.turns // plan.step + 1
        # the money in play at the end, from the log's last standings and the pot
        if result.turns % plan.step == 0:
            final = events[-1]["standings"]
            assert record.money[-1] == sum(s["cash"] for s in final) + game.pot
        for index, seat in enumerate(record.first_holder):
            if seat >= 0:  # whoever first held a group did hold every lot of it at some point
                members = plan.members[index]
                assert all(seat in _holders(events, space) for space in members)


def _holders(events: list[dict[str, Any]], space: int) -> set[int]:
    seats = set()
    for e in events:
        if e["type"] == "buy" and e["space"] == space:
            seats.add(e["seat"])
        elif e["type"] == "auction" and e["space"] == space and e["winner"] is not None:
            seats.add(e["winner"])
        elif e["type"] == "property" and e["space"] == space and isinstance(e["to"], int):
            seats.add(e["to"])
    return seats


def test_measures_do_not_change_the_games_and_are_the_same_on_any_number_of_workers():
    plan = Plan.of(CLASSIC, 3, 300)
    plain = simulate(CLASSIC, ["greedy", "trader", "cautious"], 10, seed=4, max_turns=300)
    one = simulate(CLASSIC, ["greedy", "trader", "cautious"], 10, seed=4, max_turns=300, measure=FiguresFactory(plan))
    two = simulate(CLASSIC, ["greedy", "trader", "cautious"], 10, seed=4, max_turns=300, measure=FiguresFactory(plan),
                   jobs=2)
    assert plain.to_json() == one.to_json() == two.to_json()
    assert one.measures == two.measures and len(one.measures) == 10
    assert plain.measures == ()


# ---------------------------------------------------------------------------- the comparison


@pytest.fixture(scope="module")
def jackpot() -> monopoly.Comparison:
    return monopoly.compare(CLASSIC, JACKPOT, ["greedy", "cautious", "trader", "greedy"], games=60, seed=5,
                            max_turns=400)


def test_a_ruleset_against_itself_differs_in_nothing():
    same = monopoly.compare(CLASSIC, CLASSIC, ["greedy", "trader"], games=20, seed=9, max_turns=300)
    for figure in same.figures:
        assert figure.base == figure.other, figure
        assert figure.difference in (0, None), figure
        assert figure.p_value in (1.0, None), figure


def test_every_figure_of_both_sides(jackpot):
    keys = [f.key for f in jackpot.figures]
    assert keys[:5] == ["length.mean", "length.median", "length.p90", "length.turn_cap", "length.never_ends"]
    assert [k for k in keys if k.startswith("seat.")] == ["seat.0", "seat.1", "seat.2", "seat.3"]
    assert [k for k in keys if k.startswith("strategy.")] == ["strategy.greedy", "strategy.cautious",
                                                               "strategy.trader"]
    colour = ["brown", "light_blue", "pink", "orange", "red", "yellow", "green", "dark_blue"]
    assert [k for k in keys if k.startswith("owner.")] == [f"owner.{g}" for g in colour]
    assert [k for k in keys if k.startswith("completed.")] == [f"completed.{g}" for g in colour]
    assert [k for k in keys if k.startswith("rent.")] == [f"rent.{g}" for g in colour + ["railroads", "utilities"]]
    assert {"bankruptcies.mean", "bankruptcies.any", "money.0", "money.40", "money.400"} <= set(keys)
    for f in jackpot.figures:
        assert f.test in cmp.TESTS
        if f.difference is not None and f.base is not None and f.other is not None:
            assert f.difference == pytest.approx(f.other - f.base)
        if f.ci95 is not None:
            assert f.ci95[0] <= f.difference + 1e-9 and f.difference <= f.ci95[1] + 1e-9, f
        assert f.p_value is None or 0 <= f.p_value <= 1
        assert f.n[0] <= 60 and f.n[1] <= 60
    # the figures are those of the games: the win rate of a seat, the mean length
    base_wins = Counter(r.winner for r in jackpot.base.results)
    assert jackpot.figure("seat.1").base == base_wins[1] / 60
    assert jackpot.figure("strategy.greedy").base == (base_wins[0] + base_wins[3]) / 60
    assert jackpot.figure("length.mean").other == statistics.fmean(r.turns for r in jackpot.other.results)
    # the money in play at a turn rests on the games still going then
    late = jackpot.figure("money.400")
    assert late.n[0] == sum(1 for r in jackpot.base.results if r.turns >= 400)


def test_both_sides_play_the_same_seeds_and_agents(jackpot):
    assert [r.seed for r in jackpot.base.results] == [r.seed for r in jackpot.other.results] == list(range(5, 65))
    for a, b in zip(jackpot.base.results, jackpot.other.results, strict=True):
        assert sorted(s.agent for s in a.standings) == sorted(s.agent for s in b.standings)
    assert jackpot.base.label == "classic" and jackpot.other.label == "classic + free-parking-jackpot"


def test_a_real_difference_is_found():
    """The time-limit game stops after 100 rounds (300 turns of three players): shorter games, none capped."""
    found = monopoly.compare(CLASSIC, TIMED, ["greedy", "greedy", "greedy"], games=40, seed=1, max_turns=500)
    mean, cap = found.figure("length.mean"), found.figure("length.turn_cap")
    assert mean.difference < 0 and mean.ci95[1] < 0 and mean.significant
    assert cap.difference < 0 and cap.ci95[1] < 0 and cap.p_value < 0.001
    assert found.figure("length.p90").ci95 == (-200, -200)  # the bootstrap: 500 capped against 300 rounds


def test_until_precision_plays_batches_until_the_intervals_are_narrow_enough():
    found = monopoly.compare(CLASSIC, TIMED, ["greedy", "cautious"], games=30, seed=1, max_turns=300,
                             until_precision=0.3, precision_on=["cap"])
    p = found.precision
    assert p is not None and p.reached
    assert found.games == 30 * len(p.batches) and [g for g, _ in p.batches] == [30 * (i + 1) for i in
                                                                                 range(len(p.batches))]
    assert found.figure("length.turn_cap").width < 0.3
    assert all(w >= 0.3 for _, w in p.batches[:-1])
    assert found.figure("length.turn_cap").n == (found.games, found.games)
    capped = monopoly.compare(CLASSIC, TIMED, ["greedy", "cautious"], games=10, seed=1, max_turns=300,
                              until_precision=0.001, max_games=25)
    assert capped.precision is not None and not capped.precision.reached
    assert capped.games == 25 and [g for g, _ in capped.precision.batches] == [10, 20, 25]
    with pytest.raises(ValueError, match="unknown figures nope"):
        monopoly.compare(CLASSIC, TIMED, ["greedy", "cautious"], games=5, until_precision=0.1, precision_on=["nope"])


# ---------------------------------------------------------------------------- the command


def test_the_short_form_and_the_long_form_agree(runner, cli):
    short = run(runner, cli, "classic", "--variant", "free-parking-jackpot", "--games", "12", "--max-turns", "200",
                "--format", "json").output
    long = run(runner, cli, "classic", "--against", "classic", "--against-variant", "free-parking-jackpot",
               "--games", "12", "--max-turns", "200", "--format", "json").output
    assert short == long
    data = json.loads(short)
    assert data["base"]["label"] == "classic" and data["other"]["label"] == "classic + free-parking-jackpot"
    assert data["base"]["summary"]["variants"] == [] and data["other"]["summary"]["variants"] == [
        "free-parking-jackpot"]
    assert data["games"] == 12 and data["seeds"] == [1, 12] and data["difference"] == "other - base"
    figure = data["figures"][0]
    assert set(figure) == {"family", "key", "section", "label", "unit", "base", "other", "difference", "ci95",
                           "p_value", "significant", "test", "games"}


def test_the_same_command_twice_and_on_two_workers_gives_identical_json(runner, cli):
    args = ["classic", "--variant", "free-parking-jackpot", "--games", "80", "--seed", "1", "--format", "json"]
    first = run(runner, cli, *args).output
    assert run(runner, cli, *args).output == first
    assert run(runner, cli, *args, "--jobs", "2").output == first
    data = json.loads(first)
    assert data["base"]["summary"]["games"] == data["other"]["summary"]["games"] == 80
    assert all(f["ci95"] is None or f["ci95"][0] <= f["ci95"][1] for f in data["figures"])


@pytest.mark.slow
def test_the_issues_command_gives_identical_json_twice(runner, cli):
    args = ["classic", "--variant", "free-parking-jackpot", "--games", "2000", "--seed", "1", "--format", "json",
            "--jobs", "2"]
    first = run(runner, cli, *args).output
    assert run(runner, cli, *args).output == first
    data = json.loads(first)
    assert data["games"] == 2000 and len(data["figures"]) > 40


def test_text_report(runner, cli):
    out = run(runner, cli, "classic", "--variant", "short-game", "--games", "30", "--players", "greedy,cautious",
              "--max-turns", "300").output
    assert out.startswith("A: classic\nB: classic + short-game\n30 games a side, seeds 1..30")
    for heading in ("Game length:", "Win rate by seat:", "Win rate by strategy:",
                    "Won by the owner of the colour group:", "Colour group held whole by someone:",
                    "Rent income per game:", "Bankruptcies:", "Money in play (players' cash and the pot):"):
        assert heading in out
    assert "95% CI of B - A" in out and "two-proportion z" in out and "Welch t" in out and "bootstrap" in out
    assert re.search(r"stopped by the turn cap .* two-proportion z +30\n", out)
    assert "Tests: two-proportion z" in out and "1000 resamples, seed 1" in out


def test_until_precision_on_the_command_line(runner, cli):
    out = run(runner, cli, "classic", "--variant", "short-game", "--games", "20", "--players", "greedy,cautious",
              "--max-turns", "300", "--until-precision", "30%", "--precision-on", "cap", "--format", "json").output
    data = json.loads(out)
    assert data["precision"]["target"] == 0.3 and data["precision"]["figures"] == ["cap"]
    assert data["precision"]["reached"] and data["games"] == data["precision"]["batches"][-1]["games"]


@pytest.mark.parametrize(("args", "message"), [
    (["classic"], "nothing to compare"),
    (["classic", "--variant", "short-game", "--against-variant", "tournament"], "goes with --against"),
    (["classic", "--variant", "short-gam"], "short-game"),
    (["classic", "--against", "nowhere.yaml"], "nowhere.yaml"),
    (["classic", "--variant", "short-game", "--format", "html"], "--format html needs -o FILE"),
    (["classic", "--variant", "short-game", "--players", "greedy"], "played by 2 to 8 players, not 1"),
    (["classic", "--variant", "short-game", "--players", "greedy,gredy"], "did you mean 'greedy'"),
    (["classic", "--variant", "short-game", "--until-precision", "abc"], "is not a number"),
    (["classic", "--variant", "short-game", "--until-precision", "-1"], "positive number"),
    (["classic", "--variant", "short-game", "--max-games", "50"], "go with --until-precision"),
    (["classic", "--variant", "short-game", "--until-precision", "0.1", "--games", "100", "--max-games", "50"],
     "fewer than the --games"),
    (["classic", "--variant", "short-game", "--address", "10.0.0.1:6379"], "give it with --backend ray"),
    (["classic", "--variant", "short-game", "--games", "0"], "0"),
])
def test_usage_errors_are_one_line_and_exit_2(runner, cli, args, message):
    result = run(runner, cli, *args, code=2)
    assert message in result.output
    assert "Traceback" not in result.output


def test_an_output_that_exists_needs_force(runner, cli, tmp_path):
    out = tmp_path / "cmp.json"
    out.write_text("keep me", encoding="utf-8")
    args = ["classic", "--variant", "short-game", "--games", "4", "--max-turns", "100", "--format", "json",
            "-o", str(out)]
    refused = run(runner, cli, *args, code=1)
    assert "already exists" in refused.output and out.read_text(encoding="utf-8") == "keep me"
    run(runner, cli, *args, "--force")
    assert json.loads(out.read_text(encoding="utf-8"))["games"] == 4
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    assert "symbolic link" in run(runner, cli, *args[:-1], str(link), "--force", code=1).output
    assert not (tmp_path / "elsewhere.json").exists()


# ---------------------------------------------------------------------------- the page


@pytest.fixture(scope="module")
def page(jackpot) -> str:
    return monopoly.render_compare_html(jackpot)


def test_the_page_has_every_section_chart_and_table(page, jackpot):
    dom = Dom(page)
    for anchor in ("overview", "length", "seats", "groups", "rent", "money", "bankruptcies"):
        assert dom.find("section", id=anchor), anchor
    assert len(dom.inside("g", ("svg", "class", "forest-rates"), class_="interval")) == 4 + 3 + 2 + 1
    assert len(dom.inside("rect", ("svg", "class", "win-compare"), class_="bar")) == 2 * 4
    assert len(dom.inside("rect", ("svg", "class", "group-compare"), class_="bar")) == 2 * 8
    assert len(dom.inside("rect", ("svg", "class", "rent-compare"), class_="bar")) == 2 * 10
    assert len(dom.inside("polyline", ("svg", "class", "money-compare"))) == 2
    bars = dom.inside("rect", ("svg", "class", "length-compare"), class_="length-bar")
    counted = sum(int(n) for n in re.findall(r"turns: (\d+) games", page))
    assert bars and counted == 2 * 60  # every game of both sides in the histogram
    assert body_rows(dom, "table-length") == 5 and body_rows(dom, "table-seats") == 4 + 3
    assert body_rows(dom, "table-owners") == 8 and body_rows(dom, "table-completed") == 8
    assert body_rows(dom, "table-rent") == 10 and body_rows(dom, "table-bankruptcies") == 2
    assert body_rows(dom, "table-money") == len([f for f in jackpot.figures if f.family == "money"])
    text = " ".join(dom.text)
    assert "classic + free-parking-jackpot" in text and "Welch" in text and "Newcombe" in text


def test_the_page_is_self_contained_and_well_formed(page):
    assert page.startswith("<!DOCTYPE html>")
    csp = Dom(page).find("meta", **{"http-equiv": "Content-Security-Policy"})
    assert csp and "default-src 'none'" in csp[0][1]["content"]
    assert "<script" not in page and "<link" not in page and "<img" not in page and "@import" not in page
    assert {m for m in re.findall(r"(?:https?:)?//[^\s\"'<>)]+", page)} <= {"http://www.w3.org/2000/svg"}
    svgs = re.findall(r"<svg\b.*?</svg>", page, flags=re.S)
    assert len(svgs) == 6
    for svg in svgs:
        assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def test_the_page_escapes_everything_from_the_files(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text("id: hostile\nname: '<script>alert(1)</script>'\nextends: classic\ncurrency: '<&>'\n"
                    "groups:\n  brown: {name: '<b>Brown</b> & Co'}\n", encoding="utf-8")
    hostile = monopoly.load_ruleset(path)
    found = monopoly.compare(hostile, hostile, ["greedy", "random"], games=3, max_turns=80)
    page = monopoly.render_compare_html(found)
    assert "<script" not in page and "<b>Brown" not in page
    assert "&lt;b&gt;Brown&lt;/b&gt; &amp; Co" in page
    for svg in re.findall(r"<svg\b.*?</svg>", page, flags=re.S):
        ET.fromstring(svg)


def test_compare_writes_the_page(runner, cli, tmp_path):
    out = tmp_path / "compare.html"
    result = run(runner, cli, "classic", "--variant", "short-game", "--games", "8", "--max-turns", "200",
                 "--format", "html", "-o", str(out))
    assert f"wrote {out}" in result.output
    dom = Dom(out.read_text(encoding="utf-8"))
    assert body_rows(dom, "table-seats") == 4


def test_the_page_renders_in_headless_chromium(browser, jackpot, tmp_path):  # noqa: F811 - the fixture
    ARTIFACTS.mkdir(exist_ok=True)
    report = ARTIFACTS / "compare-classic.html"
    report.write_text(monopoly.render_compare_html(jackpot), encoding="utf-8")
    url = report.resolve().as_uri()
    dumped = run_browser(browser, tmp_path / "profile-dom", url, "--dump-dom")
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = Dom(dumped.stdout)
    assert body_rows(dom, "table-seats") == 7 and body_rows(dom, "table-rent") == 10
    assert len(dom.inside("rect", ("svg", "class", "win-compare"), class_="bar")) == 8
    screenshot = ARTIFACTS / "compare-classic.png"
    screenshot.unlink(missing_ok=True)
    shot = run_browser(browser, tmp_path / "profile-shot", url, f"--screenshot={screenshot}",
                       f"--window-size={WINDOW[0]},{WINDOW[1]}")
    assert shot.returncode == 0 and screenshot.exists(), shot.stderr[-2000:]
    assert png_size(screenshot) == WINDOW
    assert screenshot.stat().st_size > 60_000  # a blank page of this size is about 10 kB
    print(f"\nscreenshot of the comparison: {screenshot}")


def test_the_charts_are_visible_in_chromium(browser, jackpot, tmp_path):  # noqa: F811 - the fixture
    from .test_report import VISIBILITY, WebDriver, find_driver

    driver = find_driver()
    ARTIFACTS.mkdir(exist_ok=True)
    report = ARTIFACTS / "compare-visibility.html"
    report.write_text(monopoly.render_compare_html(jackpot), encoding="utf-8")
    session = WebDriver(driver, browser, tmp_path / "profile-driver")
    try:
        session.open(report.resolve().as_uri())
        selectors = ["svg.forest-rates", "svg.length-compare", "svg.win-compare", "svg.group-compare",
                     "svg.rent-compare", "svg.money-compare", "#table-seats", "#table-money"]
        boxes = session.script(VISIBILITY, selectors)
    finally:
        session.close()
    for selector in selectors:
        box = boxes[selector]
        assert box is not None, f"{selector} is not in the page"
        assert box["shown"] and box["hit"], (selector, box)
        assert box["width"] > 200 and box["height"] > 80, (selector, box)
        assert box["left"] >= 0 and box["left"] + box["width"] <= boxes["clientWidth"] + 1, (selector, box)
    assert boxes["scrollWidth"] <= boxes["clientWidth"], "the page scrolls sideways"
    assert boxes["svg.forest-rates"]["top"] < 700  # the differences at a glance, in the first screenful


def test_the_figures_are_documented():
    from .conftest import ROOT

    text = (ROOT / "docs" / "workbench.md").read_text(encoding="utf-8")
    assert "Does my rule make the game better?" in text
    for family in cmp.FAMILIES:
        assert f"`{family}`" in text, family


@pytest.mark.parametrize("name", ["monopoly.sim", "monopoly.analysis.stats", "monopoly.analysis.balance"])
def test_docstring_examples(name):
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0

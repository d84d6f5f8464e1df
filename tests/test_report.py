"""The HTML report: self-contained, escaped, complete; and rendered by a real headless Chromium.

The browser test needs the Debian packages ``chromium`` (and ``chromium-driver``
for the visibility checks); it installs nothing and is skipped, saying so, on
a machine without them, except in CI (``CI`` set), where ``.ci/run`` installs
them and a missing browser is a failure. Its screenshot and the report it
opened are kept in ``test-artifacts/`` for a person to look at (the comparison
page's too: tests/test_compare.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import struct
import subprocess
import time
import urllib.request
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

import monopoly
from monopoly.analysis.report import render_report_html
from monopoly.sim import simulate

from .conftest import DATA, ROOT

SVG = "{http://www.w3.org/2000/svg}"
ARTIFACTS = ROOT / "test-artifacts"
HARBOUR = str(DATA / "good" / "harbour-24.yaml")


def synthetic_analysis(ruleset: monopoly.Ruleset, in_jail: float = 0.04) -> dict[str, Any]:
    """Analysis data of the documented shape, made up (the report is tested apart from the solver)."""
    weights = [0.0 if s.kind == "action" else 1.0 + (i % 7) / 10 for i, s in enumerate(ruleset.board)]
    total = sum(weights)
    landing = [{"index": i, "name": s.name, "probability": (1 - in_jail) * w / total}
               for i, (s, w) in enumerate(zip(ruleset.board, weights, strict=True))]
    spaces, groups = [], []
    for space in ruleset.board:
        if space.ownable and space.rent:
            earned = landing[space.index]["probability"] * space.rent[0]
            spaces.append({"index": space.index, "name": space.name, "group": space.group, "level": "site",
                           "rent": space.rent[0], "rent_per_turn": earned, "cost": space.price,
                           "payback_turns": space.price / earned if earned else None})
    for group in ruleset.groups:
        rows = [r for r in spaces if r["group"] == group.key]
        if rows:
            earned = sum(r["rent_per_turn"] for r in rows)
            cost = sum(r["cost"] for r in rows)
            groups.append({"group": group.key, "name": group.name, "level": "group", "rent_per_turn": earned,
                           "cost": cost, "payback_turns": cost / earned if earned else None})
    return {"ruleset": ruleset.id, "variants": list(ruleset.variants), "jail": "short", "landing": landing,
            "in_jail": in_jail, "rolls_per_turn": 1.19, "currency": ruleset.currency,
            "money": {"spaces": spaces, "groups": groups}}


@pytest.fixture(scope="module")
def classic() -> monopoly.Ruleset:
    return monopoly.load_ruleset("classic")


@pytest.fixture(scope="module")
def games(classic) -> dict[str, Any]:
    return simulate(classic, ["greedy", "cautious", "greedy", "random"], 24, seed=3, max_turns=300).to_json()


class Dom(HTMLParser):
    """Every element of an HTML page with its attributes and the chain of its ancestors."""

    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
                      "track", "wbr"})

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str], tuple[tuple[str, dict[str, str]], ...]]] = []
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = (tag, {k: v or "" for k, v in attrs})
        self.elements.append((tag, element[1], tuple(self.stack)))
        if tag not in self.VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, {k: v or "" for k, v in attrs}, tuple(self.stack)))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                break

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def find(self, tag: str, **attrs: str) -> list[tuple[str, dict[str, str], tuple]]:
        return [e for e in self.elements if e[0] == tag and all(
            value in e[1].get(key.rstrip("_"), "").split() if key == "class_" else e[1].get(key) == value
            for key, value in attrs.items())]

    def inside(self, tag: str, ancestor: tuple[str, str, str], **attrs: str) -> list[tuple[str, dict[str, str], tuple]]:
        """Elements ``tag`` under an ancestor ``(tag, attribute, value)`` (a class counts as one of its words)."""
        a_tag, a_key, a_value = ancestor

        def matches(node: tuple[str, dict[str, str]]) -> bool:
            value = node[1].get(a_key, "")
            return node[0] == a_tag and (a_value in value.split() if a_key == "class" else value == a_value)

        return [e for e in self.find(tag, **attrs) if any(matches(node) for node in e[2])]


def body_rows(dom: Dom, table_id: str) -> int:
    return len([e for e in dom.inside("tr", ("table", "id", table_id)) if any(n[0] == "tbody" for n in e[2])])


# ---------------------------------------------------------------------------- the document


def test_report_has_the_board_the_tables_and_the_charts(classic, games):
    analysis = synthetic_analysis(classic)
    page = render_report_html(classic, analysis, games)
    dom = Dom(page)
    boards = dom.find("svg", class_="board")
    assert len(boards) == 1
    assert len(dom.inside("rect", ("svg", "class", "board"), class_="square")) == 40
    assert body_rows(dom, "landing-table") == 40 + 1  # every space, and In Jail apart
    assert body_rows(dom, "group-payback") == len(analysis["money"]["groups"])
    assert body_rows(dom, "space-payback") == len(analysis["money"]["spaces"])
    assert body_rows(dom, "win-table") == 4
    assert len(dom.inside("rect", ("svg", "class", "win-rates-seats"), class_="win-bar")) == 4
    assert len(dom.inside("g", ("svg", "class", "win-rates-seats"), class_="error-bar")) == 4
    # greedy holds two seats: a chart per agent too
    assert len(dom.inside("rect", ("svg", "class", "win-rates-agents"), class_="win-bar")) == 3
    bars = dom.inside("rect", ("svg", "class", "length-histogram"), class_="length-bar")
    assert bars
    assert body_rows(dom, "ends") == len(games["summary"]["ends"])
    text = " ".join(dom.text)
    assert "In Jail (not Just Visiting)" in text and "4.000%" in text
    assert "Illinois Avenue" in text and "Boardwalk" in text
    # the figures of each landing row are the analysis's, as percentages
    row = analysis["landing"][24]
    assert f"{100 * row['probability']:.3f}%" in text


def test_histogram_counts_every_game(classic, games):
    page = render_report_html(classic, synthetic_analysis(classic), games)
    counted = sum(int(n) for n in re.findall(r"turns: (\d+) games", page))
    assert counted == len(games["games"])


def test_every_svg_of_the_report_is_well_formed_xml(classic, games):
    page = render_report_html(classic, synthetic_analysis(classic), games)
    svgs = re.findall(r"<svg\b.*?</svg>", page, flags=re.S)
    assert len(svgs) == 4  # board, seats, agents, lengths
    for svg in svgs:
        assert ET.fromstring(svg).tag == f"{SVG}svg"
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def test_report_is_self_contained(classic, games):
    page = render_report_html(classic, synthetic_analysis(classic), games)
    assert page.startswith("<!DOCTYPE html>")
    csp = Dom(page).find("meta", **{"http-equiv": "Content-Security-Policy"})
    assert csp and "default-src 'none'" in csp[0][1]["content"]  # the browser fetches nothing
    assert "<script" not in page and "<link" not in page and "<img" not in page and "@import" not in page
    links = {m for m in re.findall(r"(?:https?:)?//[^\s\"'<>)]+", page)}
    assert links <= {"http://www.w3.org/2000/svg"}
    assert "font-face" not in page and "sans-serif" in page


def test_report_without_a_simulation(classic):
    page = render_report_html(classic, synthetic_analysis(classic), None)
    dom = Dom(page)
    assert dom.find("section", id="board") and dom.find("section", id="payback")
    assert not dom.find("section", id="simulation")
    assert not dom.find("svg", class_="chart")


def test_report_of_a_board_of_another_size():
    ruleset = monopoly.load_ruleset(HARBOUR)
    page = render_report_html(ruleset, synthetic_analysis(ruleset), None)
    dom = Dom(page)
    assert len(dom.inside("rect", ("svg", "class", "board"), class_="square")) == 24
    assert body_rows(dom, "landing-table") == 25
    assert "€" in page


def test_report_escapes_everything_from_the_files(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(
        "id: hostile\n"
        "name: '<script>alert(1)</script> & Co'\n"
        f"extends: {Path(HARBOUR).as_posix()}\n"
        "currency: '<&>'\n"
        "spaces:\n"
        "  Shell Lane: {name: 'Tom & Jerry''s \"<Diner>\"'}\n"
        "groups:\n"
        "  sand: {name: '<b>Sand</b>'}\n",
        encoding="utf-8")
    ruleset = monopoly.load_ruleset(path)
    analysis = synthetic_analysis(ruleset)
    analysis["jail"] = "<long>"
    sim = simulate(ruleset, ["greedy", "random"], 3, max_turns=60).to_json()
    sim["summary"]["ends"] = {"<end>": 3}
    page = render_report_html(ruleset, analysis, sim)
    assert "<script" not in page and "<Diner>" not in page and "<b>" not in page and "<end>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in page
    assert "Tom &amp; Jerry&#x27;s &quot;&lt;Diner&gt;&quot;" in page
    assert "&lt;&amp;&gt;60" in page
    for svg in re.findall(r"<svg\b.*?</svg>", page, flags=re.S):
        ET.fromstring(svg)


def test_report_rejects_an_analysis_of_another_board(classic):
    analysis = synthetic_analysis(monopoly.load_ruleset(HARBOUR))
    with pytest.raises(ValueError, match="24 landing rows for a board of 40"):
        render_report_html(classic, analysis, None)


def test_payback_rows_that_never_pay_back(classic):
    analysis = synthetic_analysis(classic)
    analysis["money"]["groups"][0]["payback_turns"] = None
    analysis["money"]["groups"][0]["rent_per_turn"] = 0.0
    page = render_report_html(classic, analysis, None)
    assert ">never<" in page


# ---------------------------------------------------------------------------- in a real browser

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage"]
WINDOW = (1200, 2000)


def find_browser() -> str | None:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def run_browser(browser: str, profile: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, url],
                          capture_output=True, text=True, timeout=180, check=False)


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG file"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


class WebDriver:
    """The few W3C WebDriver calls the visibility check needs, over HTTP to a local chromedriver."""

    def __init__(self, driver: str, browser: str, profile: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.process = subprocess.Popen([driver, f"--port={port}"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
        self.session = ""
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.call("GET", "/status")["value"].get("ready"):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.close()
                raise RuntimeError("chromedriver did not start")
            time.sleep(0.1)
        args = [*CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}"]
        capabilities = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"binary": browser, "args": args}}}}
        self.session = self.call("POST", "/session", capabilities)["value"]["sessionId"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with self.opener.open(request, timeout=60) as response:
            return json.loads(response.read())

    def open(self, url: str) -> None:
        self.call("POST", f"/session/{self.session}/url", {"url": url})

    def script(self, source: str, *args: Any) -> Any:
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": source, "args": list(args)})[
            "value"]

    def close(self) -> None:
        try:
            if self.session:
                self.call("DELETE", f"/session/{self.session}")
        finally:
            self.process.terminate()
            self.process.wait(timeout=30)


# For each selector: its box, whether CSS shows it, and whether the point near its top left is
# the element itself (or inside it) rather than something drawn over it.
VISIBILITY = """
const out = {};
for (const selector of arguments[0]) {
  const element = document.querySelector(selector);
  if (!element) { out[selector] = null; continue; }
  element.scrollIntoView({block: "start"});
  const box = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 40), box.top + Math.min(box.height / 2, 40));
  window.scrollTo(0, 0);
  const page = element.getBoundingClientRect();
  out[selector] = {top: page.top + window.scrollY, left: page.left, width: page.width, height: page.height,
                   shown: style.display !== "none" && style.visibility !== "hidden" && Number(style.opacity) > 0,
                   hit: hit !== null && (hit === element || element.contains(hit))};
}
out.clientWidth = document.documentElement.clientWidth;
out.scrollWidth = document.documentElement.scrollWidth;
return out;
"""


def missing(what: str) -> None:
    """Skip, saying what to install; in CI, where .ci/run installs the browser, fail instead."""
    if os.environ.get("CI", "").lower() not in ("", "0", "false", "no"):
        pytest.fail(f"{what} in CI: .ci/run installs the Debian packages `chromium` and `chromium-driver` "
                    "so that the browser tests run")
    pytest.skip(f"{what} on this machine: install the Debian packages `chromium` and `chromium-driver` to run "
                "the HTML pages in a real browser")


@pytest.fixture(scope="module")
def browser() -> str:
    found = find_browser()
    if found is None:
        missing("no Chromium browser")
    assert found is not None
    return found


def find_driver() -> str:
    """The chromedriver of the browser tests (skipped, or failed in CI, where there is none)."""
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver")
                                              else None)
    if driver is None:
        missing("no chromedriver")
    assert driver is not None
    return driver


def test_report_renders_in_headless_chromium(browser, classic, tmp_path):
    from monopoly.analysis.analyze import analyze

    ARTIFACTS.mkdir(exist_ok=True)
    games = simulate(classic, ["greedy", "cautious", "trader", "random"], 60, seed=1, max_turns=400).to_json()
    report = ARTIFACTS / "report-classic.html"
    report.write_text(render_report_html(classic, analyze(classic, "short"), games), encoding="utf-8")
    url = report.resolve().as_uri()

    dumped = run_browser(browser, tmp_path / "profile-dom", url, "--dump-dom")
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = Dom(dumped.stdout)
    assert len(dom.find("svg", class_="board")) == 1
    assert len(dom.inside("rect", ("svg", "class", "board"), class_="square")) == 40
    assert body_rows(dom, "landing-table") == 41
    assert body_rows(dom, "group-payback") > 0 and body_rows(dom, "space-payback") > 0
    assert body_rows(dom, "win-table") == 4
    assert dom.inside("rect", ("svg", "class", "length-histogram"), class_="length-bar")

    screenshot = ARTIFACTS / "report-classic.png"
    screenshot.unlink(missing_ok=True)
    shot = run_browser(browser, tmp_path / "profile-shot", url, f"--screenshot={screenshot}",
                       f"--window-size={WINDOW[0]},{WINDOW[1]}")
    assert shot.returncode == 0 and screenshot.exists(), shot.stderr[-2000:]
    assert png_size(screenshot) == WINDOW
    # a blank page of this size compresses to about 10 kB; the board and tables make it far larger
    assert screenshot.stat().st_size > 100_000
    print(f"\nscreenshot of the report: {screenshot}")


def test_board_and_tables_are_visible_in_chromium(browser, classic, tmp_path):
    driver = find_driver()
    from monopoly.analysis.analyze import analyze

    ARTIFACTS.mkdir(exist_ok=True)
    games = simulate(classic, ["greedy", "cautious", "trader", "random"], 30, seed=1, max_turns=300).to_json()
    report = ARTIFACTS / "report-visibility.html"
    report.write_text(render_report_html(classic, analyze(classic, "long"), games), encoding="utf-8")
    session = WebDriver(driver, browser, tmp_path / "profile-driver")
    try:
        session.open(report.resolve().as_uri())
        selectors = ["svg.board", "#landing-table", "#group-payback", "svg.win-rates-seats",
                     "svg.length-histogram", "#win-table"]
        boxes = session.script(VISIBILITY, selectors)
    finally:
        session.close()
    for selector in selectors:
        box = boxes[selector]
        assert box is not None, f"{selector} is not in the page"
        assert box["shown"] and box["hit"], (selector, box)
        assert box["width"] > 200 and box["height"] > 100, (selector, box)
        assert box["left"] >= 0 and box["left"] + box["width"] <= boxes["clientWidth"] + 1, (selector, box)
    assert boxes["scrollWidth"] <= boxes["clientWidth"], "the page scrolls sideways"
    # in the first screenful: the board, the odds beside it, and the start of the payback tables
    board, odds = boxes["svg.board"], boxes["#landing-table"]
    assert board["top"] < 200 and board["width"] > 600
    assert odds["top"] < 200 and odds["left"] >= board["left"] + board["width"]
    assert boxes["#group-payback"]["top"] < WINDOW[1]


def test_analyze_writes_the_report(runner, cli, tmp_path):
    """`monopoly analyze --format html` hands the real analysis and simulation data to the report."""
    out = tmp_path / "report.html"
    result = runner.invoke(cli, ["analyze", HARBOUR, "--format", "html", "-o", str(out), "--games", "6",
                                 "--players", "greedy,random"])
    assert result.exit_code == 0, result.output
    dom = Dom(out.read_text(encoding="utf-8"))
    assert len(dom.inside("rect", ("svg", "class", "board"), class_="square")) == 24
    assert body_rows(dom, "landing-table") == 25
    assert body_rows(dom, "group-payback") > 0 and body_rows(dom, "win-table") == 2

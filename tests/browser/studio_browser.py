#!/usr/bin/env python3
"""Drives `stratsynth studio` in headless Chromium (Debian's chromium and
chromium-driver, through Selenium): paints a nonogram by clicks and sees the
solution count change, asks for hints, applies a repair, opens a bundled
puzzle, places Witness triangles and sees the count change, steps through
solutions, generates variants and loads one; draws a puzzle with every
kind of Witness constraint by clicks (separation squares, stars, dots on
vertices and edges, broken edges), the count after each equal to
`witness analyze --json` on the puzzle the clicks mean; opens a `.ron`
with two puzzles and generates over square and edge placeholders with
marks; places Flow endpoints by clicks (2+ solutions, then one once the
puzzle is completed), removes, moves, undoes, steps through a Hint, generates
and opens Flow puzzles; then stops the server with Ctrl-C (SIGINT) and
checks it exits cleanly.

usage: studio_browser.py STRATSYNTH_BINARY [--screenshots DIR] [--only PART,...]
Prints one line per check and `N passed, M failed`; exits 1 on any failure.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    RESULTS["passed" if ok else "failed"] += 1
    print(("ok     " if ok else "FAILED ") + name + (f" ({detail})" if detail else ""), flush=True)
    return ok


def start_server(binary):
    server = subprocess.Popen([binary, "studio", "--port", "0"], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    line = server.stdout.readline()
    match = re.search(r"http://[0-9.:]+/", line)
    if not match:
        server.kill()
        sys.exit(f"the studio printed no URL: {line!r}")
    return server, match.group(0)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,1000",
                 "--user-data-dir=" + tempfile.mkdtemp(prefix="studio-chromium-")]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def text(driver, id_):
    return driver.find_element(By.ID, id_).text


def wait_text(driver, id_, want, timeout=20):
    """Waits until element `id_` shows `want` (a string, or a predicate);
    returns whether it did."""
    test = want if callable(want) else (lambda t: t == want)
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: test(text(d, id_)))
        return True
    except Exception:
        return False


def click(driver, id_):
    """Clicks element `id_`, found again if a redraw replaced it meanwhile."""
    for attempt in range(5):
        try:
            driver.find_element(By.ID, id_).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.2)
    driver.find_element(By.ID, id_).click()


def settle(driver, id_, timeout=20):
    """Waits for the answer to the last change: the value of `id_` once it
    holds still for half a second."""
    last, since, end = None, time.time(), time.time() + timeout
    while time.time() < end:
        now = text(driver, id_)
        if now != last:
            last, since = now, time.time()
        elif time.time() - since > 0.5:
            return now
        time.sleep(0.1)
    return last


def nonogram(driver, binary, shots):
    check("the page loads with the nonogram panel", wait_text(driver, "nono-count", "1"), text(driver, "nono-count"))
    check("the rule set is named, in the header and beside the figures",
          wait_text(driver, "rules-note", lambda t: t.startswith("rules: ")
                    and "nonogram rules/nonogram/top10.rules" in t[len("rules: "):].split(", "))
          and wait_text(driver, "nono-rules-file", "rules/nonogram/top10.rules"), text(driver, "rules-note"))
    for id_, value in [("nono-width", "5"), ("nono-height", "5")]:
        box = driver.find_element(By.ID, id_)
        box.clear()
        box.send_keys(value)
    click(driver, "nono-new")
    check("a blank 5x5 picture has one solution", wait_text(driver, "nono-count", "1"))
    check("the board is 5x5", len(driver.find_elements(By.CSS_SELECTOR, "#nono-board td.cell")) == 25)
    click(driver, "cell-0-0")
    check("one filled cell: one solution", settle(driver, "nono-count") == "1")
    check("the clues follow the picture", text(driver, "rowclue-0") == "1" and text(driver, "colclue-0") == "1")
    click(driver, "cell-1-1")
    check("a diagonal of two cells: the count changes to 2+", wait_text(driver, "nono-count", "2+"), text(driver, "nono-count"))
    differ = driver.find_elements(By.CSS_SELECTOR, "#nono-board td.cell.differ")
    check("the cells where two solutions differ are highlighted", len(differ) == 4, f"{len(differ)} highlighted")
    # repair for uniqueness alone (guessing allowed), then back to the diagonal
    click(driver, "nono-repair-unique")
    click(driver, "nono-repair")
    try:
        WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.repair-apply"))
        driver.find_element(By.CSS_SELECTOR, "button.repair-apply").click()
        applied = True
    except Exception:
        applied = False
    check("a repair for uniqueness alone is proposed and applied", applied, text(driver, "repair-list"))
    check("after it: one solution", wait_text(driver, "nono-count", "1"), text(driver, "nono-count"))
    keys(driver, "z", ctrl=True)
    check("undone: the diagonal again", wait_text(driver, "nono-count", "2+"), text(driver, "nono-count"))
    click(driver, "nono-repair-unique")
    click(driver, "nono-repair")
    try:
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.repair-apply"))
        applied = True
        driver.find_element(By.CSS_SELECTOR, "button.repair-apply").click()
    except Exception:
        applied = False
    check("a repair is proposed and applied", applied, text(driver, "repair-list"))
    check("after the repair: one solution", wait_text(driver, "nono-count", "1"), text(driver, "nono-count"))
    check("after the repair: solvable by the rules", wait_text(driver, "nono-rules", "yes"), text(driver, "nono-rules"))
    click(driver, "nono-hint")
    check("a hint names a rule and describes it",
          wait_text(driver, "nono-step", lambda t: "rule" in t and "step 1 of" in t), text(driver, "nono-step"))
    now = driver.find_elements(By.CSS_SELECTOR, "#nono-board td.cell.now")
    check("the hint's cells are shown on the board", len(now) > 0, f"{len(now)} cells")
    click(driver, "nono-forward")
    check("step forward", wait_text(driver, "nono-step", lambda t: "step 2 of" in t))
    click(driver, "nono-back")
    check("step back", wait_text(driver, "nono-step", lambda t: "step 1 of" in t))
    bear = os.path.join(ROOT, "specs/puzzles/hakank-bear.non")
    driver.find_element(By.ID, "nono-open").send_keys(bear)
    try:
        WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#nono-board td.cell")) == 13 * 8)
        opened = True
    except Exception:
        opened = False
    check("open a .non: a 13x8 board with the bear's clues", opened and text(driver, "rowclue-3") == "12")
    steps = cli_steps(binary, "specs/puzzles/hakank-bear.non")
    check(f"the bear is line-solvable in {steps} rule steps, as `analyze --json` says",
          wait_text(driver, "nono-steps", steps) and text(driver, "nono-line") == "yes", text(driver, "nono-steps"))
    click(driver, "nono-hint")
    for _ in range(9):
        click(driver, "nono-forward")
    wait_text(driver, "nono-step", lambda t: "step 10 of" in t)
    if shots:
        driver.find_element(By.ID, "nono-owners").click()
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#nono-board span.hint.owned"))
        driver.save_screenshot(os.path.join(shots, "studio-nonogram.png"))
        driver.find_element(By.ID, "nono-owners").click()
    large_board(driver)


def new_board(driver, width, height, panel="nono", cells="#nono-board td.cell"):
    """A blank board of `width` x `height` from a panel's size boxes and its
    New button, once the board shows `cells` of that many."""
    for id_, value in [(f"{panel}-width", width), (f"{panel}-height", height)]:
        box = driver.find_element(By.ID, id_)
        box.clear()
        box.send_keys(str(value))
    click(driver, f"{panel}-new")
    WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, cells)) == width * height)


def cells(driver):
    """The painted cells as the page holds them (`nono.cells`), as 0/1."""
    return [1 if v else 0 for v in driver.execute_script("return nono.cells")]


def differ(width, got, want):
    """The cells (row, column from 0) where `got` and `want` differ."""
    return [(p // width, p % width) for p in range(len(want)) if got[p] != want[p]]


def press(driver, r, c, hold=0.09, button="left"):
    """A press on cell (r, c) held `hold` seconds (right: a right-click)."""
    cell = driver.find_element(By.ID, f"cell-{r}-{c}")
    if button == "right":
        ActionChains(driver).context_click(cell).perform()
        return
    ActionChains(driver).move_to_element(cell).click_and_hold().pause(hold).release().perform()


def drag(driver, path, hold=0.03):
    """A drag pressed on the first cell of `path` and moved over each cell
    in turn, released on the last."""
    first = driver.find_element(By.ID, f"cell-{path[0][0]}-{path[0][1]}")
    chain = ActionChains(driver).move_to_element(first).click_and_hold().pause(hold)
    for r, c in path[1:]:
        chain = chain.move_to_element(driver.find_element(By.ID, f"cell-{r}-{c}")).pause(hold)
    chain.release().perform()


def painting(driver):
    """Painting touches exactly the cells pressed or dragged over, on a
    10x10 and a 25x25 board: single presses held 90 ms in an order that
    makes the clues grow under the pointer (each column and row gains a
    number per press), drags across rows and down columns, and erase drags
    over painted cells; after each stroke family every cell of
    `nono.cells` is compared with the cells touched."""
    for size in (10, 25):
        new_board(driver, size, size)
        want = [0] * (size * size)
        # every other cell of the first column top down, then of the last row
        # left to right: each press adds a number to a clue
        presses = [(r, 0) for r in range(0, size, 2)] + [(size - 1, c) for c in range(2, size, 2)]
        for r, c in presses:
            press(driver, r, c)
            want[r * size + c] = 1
        got = cells(driver)
        check(f"{size}x{size}: {len(presses)} presses paint exactly the cells pressed", got == want,
              f"cells that differ: {differ(size, got, want)[:8]}")
        # drags: across row 1 from column 2, down column 3 from row 3
        across = [(1, c) for c in range(2, size - 1)]
        down = [(r, 3) for r in range(3, size - 1)]
        for path in (across, down):
            drag(driver, path)
            for r, c in path:
                want[r * size + c] = 1
        got = cells(driver)
        check(f"{size}x{size}: two drags paint exactly the cells dragged over", got == want,
              f"cells that differ: {differ(size, got, want)[:8]}")
        # an erase drag: pressed on a black cell, over the rest of row 1
        erase = across[len(across) // 3:]
        drag(driver, erase)
        for r, c in erase:
            want[r * size + c] = 0
        got = cells(driver)
        check(f"{size}x{size}: an erase drag whitens exactly the cells dragged over, the last one too",
              got == want, f"cells that differ: {differ(size, got, want)[:8]}")


def keys(driver, *seq, ctrl=False, shift=False):
    """Sends keys to the focused element (with Ctrl and/or Shift held)."""
    chain = ActionChains(driver)
    if ctrl:
        chain = chain.key_down(Keys.CONTROL)
    if shift:
        chain = chain.key_down(Keys.SHIFT)
    for k in seq:
        chain = chain.send_keys(k)
    if shift:
        chain = chain.key_up(Keys.SHIFT)
    if ctrl:
        chain = chain.key_up(Keys.CONTROL)
    chain.perform()


def post(url, path, body):
    """POSTs JSON `body` to the studio's API; the JSON answer."""
    request = urllib.request.Request(url.rstrip("/") + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def editing(driver):
    """Everyday editing of a nonogram: undo and redo (Ctrl+Z, Ctrl+Shift+Z
    and the buttons) round trips over presses, a drag and a right press
    (which whitens and never blackens); row and column numbers; keyboard
    painting; resize keeping the picture, shift and flip; a width of 0
    refused with a message, the picture kept."""
    new_board(driver, 6, 5)
    w = 6
    check("a blank picture is solvable by the rules (a line without hints is crossed out)",
          wait_text(driver, "nono-rules", "yes") and text(driver, "nono-count") == "1", text(driver, "nono-rules"))
    check("row and column numbers are drawn", text(driver, "rownum-0") == "1" and text(driver, "colnum-5") == "6",
          f"{text(driver, 'rownum-0')} {text(driver, 'colnum-5')}")
    states = [cells(driver)]
    press(driver, 0, 0)
    states.append(cells(driver))
    drag(driver, [(1, c) for c in range(4)])
    states.append(cells(driver))
    press(driver, 1, 2, button="right")
    states.append(cells(driver))
    press(driver, 2, 2, button="right")
    check("a right press whitens a black cell and leaves a white one white",
          states[-1] == [1 if p in (0, w, w + 1, w + 3) else 0 for p in range(30)] and cells(driver) == states[-1],
          f"{states[-1]} then {cells(driver)}")
    undone = []
    for _ in range(3):
        keys(driver, "z", ctrl=True)
        undone.append(cells(driver))
    check("Ctrl+Z three times steps back through the three strokes", undone == states[2::-1],
          f"{undone} vs {states[2::-1]}")
    redone = []
    for _ in range(3):
        keys(driver, "z", ctrl=True, shift=True)
        redone.append(cells(driver))
    check("Ctrl+Shift+Z three times steps forward again", redone == states[1:], f"{redone}")
    click(driver, "nono-undo")
    click(driver, "nono-undo")
    back = cells(driver)
    click(driver, "nono-redo")
    forward = cells(driver)
    click(driver, "nono-redo")
    check("the undo and redo buttons do the same", back == states[1] and forward == states[2] and cells(driver) == states[3],
          f"{back}, {forward}")
    # keyboard: from the cursor (the last cell pressed: row 3, column 3) two
    # down and one left, Space paints; three up, x whitens
    driver.execute_script("document.getElementById('nono-board').focus()")
    keys(driver, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_LEFT, " ")
    want = states[3][:]
    want[4 * w + 1] = 1
    check("keyboard: arrows move the cursor, Space paints its cell", cells(driver) == want,
          f"cells that differ: {differ(w, cells(driver), want)}")
    keys(driver, Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_UP, "x")
    want[1 * w + 1] = 0
    check("keyboard: x whitens the cell under the cursor", cells(driver) == want,
          f"cells that differ: {differ(w, cells(driver), want)}")
    picture = [want[r * w:(r + 1) * w] for r in range(5)]
    # resize to 8 wide, 4 high: the picture kept from the top left
    for id_, value in [("nono-width", "8"), ("nono-height", "4")]:
        box = driver.find_element(By.ID, id_)
        box.clear()
        box.send_keys(value)
    click(driver, "nono-resize")
    resized = [(picture[r][c] if c < 6 else 0) for r in range(4) for c in range(8)]
    check("resize to 8x4 keeps the picture", cells(driver) == resized and len(driver.find_elements(
        By.CSS_SELECTOR, "#nono-board td.cell")) == 32, f"{cells(driver)}")
    click(driver, "nono-shift-right")
    shifted = [(resized[r * 8 + c - 1] if c > 0 else 0) for r in range(4) for c in range(8)]
    check("shift right moves every cell one column right", cells(driver) == shifted, f"{cells(driver)}")
    click(driver, "nono-shift-down")
    shifted = [(shifted[(r - 1) * 8 + c] if r > 0 else 0) for r in range(4) for c in range(8)]
    check("shift down moves every cell one row down", cells(driver) == shifted, f"{cells(driver)}")
    click(driver, "nono-flip-h")
    flipped = [shifted[r * 8 + 7 - c] for r in range(4) for c in range(8)]
    check("flip left to right mirrors every row", cells(driver) == flipped, f"{cells(driver)}")
    click(driver, "nono-flip-v")
    flipped = [flipped[(3 - r) * 8 + c] for r in range(4) for c in range(8)]
    check("flip top to bottom mirrors every column", cells(driver) == flipped, f"{cells(driver)}")
    box = driver.find_element(By.ID, "nono-width")
    box.clear()
    box.send_keys("0")
    click(driver, "nono-new")
    check("width 0 is refused with a message, the picture kept",
          "expected a whole number from 1 to 50" in text(driver, "nono-message") and cells(driver) == flipped,
          text(driver, "nono-message"))


def hints_and_files(driver, url):
    """Hint stepping by buttons and keys, jumping to the first and last
    step; the owners shown on request equal the API's certain owners;
    a clue-only `.non` opens with its one solution; title and author shown
    and exported; a board past the rules' line limit says why."""
    bear = os.path.join(ROOT, "specs/puzzles/hakank-bear.non")
    with open(bear) as f:
        text_bear = f.read()
    path = os.path.join(tempfile.mkdtemp(prefix="studio-non-"), "bear-clues.non")
    with open(path, "w") as f:
        f.write("".join(line for line in text_bear.splitlines(True) if not line.startswith("goal"))
                + 'by "A. Bearwright"\n')
    goal = re.search(r'goal "?([01]+)', text_bear).group(1)
    driver.find_element(By.ID, "nono-open").send_keys(path)
    opened = wait_text(driver, "nono-note", lambda t: "clue-only" in t)
    check("a clue-only .non opens with its one solution painted",
          opened and "one solution is shown" in text(driver, "nono-note")
          and "".join(map(str, cells(driver))) == goal, text(driver, "nono-note"))
    check("its title and author are shown",
          driver.find_element(By.ID, "nono-title").get_attribute("value") == "Bear"
          and driver.find_element(By.ID, "nono-author").get_attribute("value") == "A. Bearwright")
    box = driver.find_element(By.ID, "nono-title")
    box.clear()
    box.send_keys("Bear, redrawn")
    driver.execute_script("window.exported = null; window.download = (name, text) => { window.exported = [name, text]; };")
    click(driver, "nono-export")
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return window.exported"))
    name, non = driver.execute_script("return window.exported")
    check("export writes the title and author given", 'title "Bear, redrawn"' in non and 'by "A. Bearwright"' in non
          and name == "Bear-redrawn.non", f"{name}: {non[:80]!r}")
    click(driver, "nono-hint")
    ok = wait_text(driver, "nono-step", lambda t: "step 1 of" in t)
    total = int(re.search(r"step 1 of (\d+)", text(driver, "nono-step")).group(1)) if ok else 0
    click(driver, "nono-last")
    check("last: the explanation's last step", wait_text(driver, "nono-step", lambda t: f"step {total} of {total}" in t)
          and driver.find_element(By.ID, "nono-forward").get_attribute("disabled") is not None, text(driver, "nono-step")[:40])
    click(driver, "nono-first")
    check("first: back to step 1", wait_text(driver, "nono-step", lambda t: f"step 1 of {total}" in t))
    driver.execute_script("document.getElementById('nono-board').focus()")
    keys(driver, Keys.PAGE_DOWN, Keys.PAGE_DOWN)
    at3 = wait_text(driver, "nono-step", lambda t: f"step 3 of {total}" in t)
    keys(driver, Keys.END)
    at_end = wait_text(driver, "nono-step", lambda t: f"step {total} of {total}" in t)
    keys(driver, Keys.HOME, Keys.PAGE_DOWN)
    check("keys: PageDown steps forward, End and Home jump", at3 and at_end
          and wait_text(driver, "nono-step", lambda t: f"step 2 of {total}" in t), text(driver, "nono-step")[:40])
    # a step that reads the owners says so in plain words (the dragonfly's top-10 explanation has some)
    driver.find_element(By.ID, "nono-open").send_keys(os.path.join(ROOT, "specs/puzzles/hakank-dragonfly.non"))
    WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#nono-board td.cell")) == 400)
    click(driver, "nono-hint")
    wait_text(driver, "nono-step", lambda t: "step 1 of" in t)
    owned = driver.execute_script(
        "return tools.hint.steps.findIndex(s => s.notes.some(n => /it (must|can only) be part of the/.test(n)))")
    if owned >= 0:
        driver.execute_script(f"stepTo({owned})")
    check("a hint step that reads the owners says whose block it is in plain words",
          owned >= 0 and wait_text(driver, "nono-step", lambda t: re.search(r"block at cells \d+-\d+: it (must|can only) be part of the \d+ \(hint \d+\)", t)),
          text(driver, "nono-step")[:160])
    driver.find_element(By.ID, "nono-open").send_keys(bear)
    WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#nono-board td.cell")) == 13 * 8)
    click(driver, "nono-hint")
    wait_text(driver, "nono-step", lambda t: "step 1 of" in t)
    # owners at step 20: the page marks the hints the API says are certain
    click(driver, "nono-first")
    for _ in range(19):
        click(driver, "nono-forward")
    wait_text(driver, "nono-step", lambda t: f"step 20 of {total}" in t)
    known = driver.execute_script("return knownAt(tools.hint.k)")
    answer = post(url, "/api/nonogram/owners", {"puzzle": {"width": 13, "height": 8, "goal": goal}, "known": known})
    want = sorted(f"{'row' if line['axis'] == 'row' else 'col'}hint-{line['index'] - 1}-{b['first_owner']}"
                  for line in answer["lines"] for b in line.get("blocks", []) if b["first_owner"] == b["last_owner"])
    driver.find_element(By.ID, "nono-owners").click()
    try:
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#nono-board span.hint.owned"))
    except Exception:
        pass
    shown = sorted(set(e.get_attribute("id") for e in driver.find_elements(By.CSS_SELECTOR, "#nono-board span.hint.owned")))
    check("show owners: the hints marked are those the API says own a block for certain at step 20",
          bool(want) and shown == sorted(set(want)), f"{len(shown)} shown, {len(set(want))} certain")
    titled = driver.find_elements(By.CSS_SELECTOR, "#nono-board td.cell.owned[title]")
    check("an owned block's cells say whose they are", bool(titled) and "part of the" in titled[0].get_attribute("title"),
          titled[0].get_attribute("title") if titled else "none")
    driver.find_element(By.ID, "nono-owners").click()
    new_board(driver, 35, 35)
    check("a 35x35 board says why the rules are not played",
          wait_text(driver, "nono-rules", "not played")
          and "longest line has 35 cells" in text(driver, "nono-rules-why")
          and "at most 30 cells" in text(driver, "nono-rules-why"), text(driver, "nono-rules-why"))


def latency(driver, clicks=24):
    """Click to figures on a 25x25 picture (jacop-data005, a typical one):
    the time from the press on a cell to the first answer shown (the page's
    `answered in`), over `clicks` strokes; prints the median and the worst."""
    driver.find_element(By.ID, "nono-open").send_keys(os.path.join(ROOT, "specs/puzzles/jacop-data005.non"))
    WebDriverWait(driver, 20).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#nono-board td.cell")) == 625)
    settle(driver, "nono-timing")
    driver.execute_script("""
        window.latencies = []; window.pressed = null; window.firstShown = []; let first = false;
        const timing = document.getElementById("nono-timing"), count = document.getElementById("nono-count");
        document.getElementById("nono-board").addEventListener("pointerdown", () => { first = true; }, true);
        new MutationObserver(() => { if (first) { window.firstShown.push(count.textContent); first = false; } })
            .observe(count, {childList: true, characterData: true, subtree: true});
        document.getElementById("nono-board").addEventListener("pointerdown", () => { window.pressed = performance.now(); }, true);
        new MutationObserver(() => {
            if (window.pressed !== null && /answered in/.test(timing.textContent)) {
                window.latencies.push(performance.now() - window.pressed); window.pressed = null;
            }
        }).observe(timing, {childList: true, characterData: true, subtree: true});""")
    for i in range(clicks):
        click(driver, f"cell-{(7 * i) % 25}-{(11 * i + 3) % 25}")
        WebDriverWait(driver, 20).until(lambda d: len(d.execute_script("return window.latencies")) > i)
    times = sorted(driver.execute_script("return window.latencies"))
    stale = driver.execute_script("return window.firstShown")
    check("after each press the old figures are cleared at once (the count shows … until the answer)",
          len(stale) == clicks and all(v == "…" for v in stale), str(stale))
    median = times[len(times) // 2] if len(times) % 2 else (times[len(times) // 2 - 1] + times[len(times) // 2]) / 2
    print(f"latency: click to figures on a 25x25 (jacop-data005), {len(times)} strokes: "
          f"median {median:.1f} ms, worst {times[-1]:.1f} ms", flush=True)
    check("25x25: every stroke answered within a second", len(times) == clicks and times[-1] < 1000, f"worst {times[-1]:.1f} ms")
    check("25x25: the figures come within 100 ms of the press (median)", median <= 100, f"median {median:.1f} ms")


def large_board(driver):
    """hakank-p200 (25x25, the hardest bundled picture): the live answer
    comes within its budget, either whole or with the parts it could not
    finish shown `unknown` and said so (how far it gets depends on the
    machine); then, if a part was unknown, the answer with the server's
    budget, figures shown only if measured. The figures shown meanwhile are
    recorded as they change."""
    driver.execute_script("""
        window.seenSteps = [];
        const cell = document.getElementById("nono-steps");
        new MutationObserver(() => window.seenSteps.push(cell.textContent))
            .observe(cell, {childList: true, characterData: true, subtree: true});
        document.getElementById("nono-timing").textContent = "";""")
    driver.find_element(By.ID, "nono-open").send_keys(os.path.join(ROOT, "specs/puzzles/hakank-p200.non"))
    whole = re.compile(r"answered in \d+ ms \(budget 100 ms\)")
    done = wait_text(driver, "nono-timing",
                     lambda t: "measured in full" in t or "still unknown" in t or whole.fullmatch(t.strip()),
                     timeout=40)
    timing, steps, bits = text(driver, "nono-timing"), text(driver, "nono-steps"), text(driver, "nono-bits-out")
    live = re.search(r"answered in (\d+) ms \(budget 100 ms\)", timing)
    partial = re.search(r"with the (?:count|difficulty) unknown", timing) is not None
    seen = driver.execute_script("return window.seenSteps")
    check("p200: the live answer shows every figure, or says what it left unknown and shows it so",
          done and live is not None and ("unknown" in seen if partial else steps.isdigit()),
          f"{timing}; steps shown {seen}")
    check("p200: the live answer came within its budget (and the 250 ms grace)",
          live is not None and int(live.group(1)) < 100 + 250 + 200, timing)
    check("p200: the count is known", text(driver, "nono-count") == "1", text(driver, "nono-count"))
    honest = (("measured in full" in timing and steps.isdigit()) or ("still unknown" in timing and steps == "unknown")
              or (not partial and steps.isdigit() and bits != ""))
    check("p200: then the server's budget, the figures shown only if measured", done and honest,
          f"{timing}; {steps} steps, {bits} bits")


def witness(driver):
    click(driver, "tab-witness")
    check("the Witness panel opens", driver.find_element(By.ID, "panel-witness").is_displayed())
    check("an empty 4x4 grid has 8512 solutions", wait_text(driver, "wit-count", "8512"), text(driver, "wit-count"))
    driver.find_element(By.CSS_SELECTOR, "input[name=wit-tool][value=t3]").click()
    click(driver, "wsq-0-0")
    check("placing a 3-triangle changes the count",
          wait_text(driver, "wit-count", lambda t: t not in ("8512", "-", "")), text(driver, "wit-count"))
    driver.find_element(By.CSS_SELECTOR, "input[name=wit-tool][value=t1]").click()
    for square in ["wsq-1-0", "wsq-0-1"]:
        click(driver, square)
    check("two 1-triangles beside a 3: no solution, red frame",
          wait_text(driver, "wit-count", "0")
          and "unsolvable" in driver.find_element(By.ID, "wit-board-box").get_attribute("class"),
          text(driver, "wit-count"))
    driver.find_element(By.CSS_SELECTOR, "input[name=wit-tool][value=erase]").click()
    click(driver, "wsq-0-1")
    check("erasing one: solvable again", wait_text(driver, "wit-count", lambda t: t not in ("0", "-", "")))
    check("MSI/TSI for uniform, local and the rules",
          wait_text(driver, "wit-players", lambda t: "uniform" in t and "local" in t and "rules/witness" in t))
    check("the header names the Witness rule set",
          wait_text(driver, "rules-note", lambda t: "Witness rules/witness/learned-game.rules" in t), text(driver, "rules-note"))
    check("a solution is drawn", wait_text(driver, "wit-solution-note", lambda t: t.startswith("solution 1 of")))
    click(driver, "wit-next")
    check("the next solution", wait_text(driver, "wit-solution-note", lambda t: t.startswith("solution 2 of")))
    driver.find_element(By.CSS_SELECTOR, "input[name=wit-tool][value=placeholder]").click()
    for square in ["wsq-2-2", "wsq-3-3"]:
        click(driver, square)
    click(driver, "wit-generate")
    try:
        WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#wit-variants li")
                                        and "variant" in text(d, "wit-variants"))
        ok = True
    except Exception:
        ok = False
    check("Generate lists ranked variants", ok, text(driver, "wit-variants")[:80])
    if ok:
        before = text(driver, "wit-count")
        driver.find_element(By.CSS_SELECTOR, "#wit-variants li").click()
        want = re.search(r"(\d+) solutions", text(driver, "wit-variants")).group(1)
        check("a click loads a variant (its count shown)", wait_text(driver, "wit-count", want), f"{before} -> {text(driver, 'wit-count')}")


def cli_steps(binary, puzzle):
    """The rule steps `analyze --json` gives for `puzzle` with the studio's
    default rules."""
    out = subprocess.run([binary, "analyze", puzzle, "--rules", "rules/nonogram/top10.rules", "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    return str(json.loads(out.stdout)[0]["steps"])


def cli_counts(binary, puzzles):
    """The solution counts `witness analyze --json` gives for RON `puzzles`."""
    with tempfile.NamedTemporaryFile("w", suffix=".ron", delete=False) as f:
        f.write("[\n" + "".join(f"    {p},\n" for p in puzzles) + "]\n")
    out = subprocess.run([binary, "witness", "analyze", f.name, "--json"], capture_output=True, text=True, cwd=ROOT)
    os.unlink(f.name)
    return [str(p["solutions"]) for p in json.loads(out.stdout)]


def pick(driver, tool, colour=None):
    """Chooses a palette tool (and a colour)."""
    driver.find_element(By.CSS_SELECTOR, f"input[name=wit-tool][value={tool}]").click()
    if colour is not None:
        Select(driver.find_element(By.ID, "wit-colour")).select_by_value(str(colour))


def analysed(driver, puzzle, timeout=20):
    """Waits until the Witness figures shown are those of `puzzle` (RON as
    the page writes it); returns whether they came."""
    box = driver.find_element(By.ID, "wit-board-box")
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: box.get_attribute("data-analysed") == puzzle)
        return True
    except Exception:
        return False


def next_analysed(driver, before, timeout=20):
    """Waits until the Witness figures shown are of another puzzle than
    `before` (the page drops the attribute while none are shown); returns
    that puzzle (RON as the page writes it)."""
    box = driver.find_element(By.ID, "wit-board-box")
    try:
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(
            lambda d: box.get_attribute("data-analysed") not in (before, None))
    except Exception:
        pass
    return box.get_attribute("data-analysed")


def full_game(driver, binary):
    """Every kind of constraint placed by clicks on a 3x3 grid; after each,
    the page's count is the CLI's for the puzzle the clicks mean."""
    for id_, value in [("wit-width", "3"), ("wit-height", "3")]:
        box = driver.find_element(By.ID, id_)
        box.clear()
        box.send_keys(value)
    click(driver, "wit-new")
    # read at once: a redraw may replace the vertices between two reads
    low, high = driver.execute_script(
        "return [0, 1].map(y => Number(document.getElementById('wv-0-' + y).getAttribute('cy')))")
    check("vertex (0, 0) is drawn at the bottom, as docs/reference/formats.md places it", low > high, f"cy {low} and {high}")
    head = "(width: 3, height: 3, start: (0, 0), goal: (3, 3)"
    steps = [
        ("separation squares white and black", [("colour", 1, "wsq-0-0"), ("colour", 2, "wsq-2-2")],
         ", colours: [(0, 0, 1), (2, 2, 2)]"),
        ("two red stars", [("star", 3, "wsq-0-2"), ("star", 3, "wsq-2-0")], ", stars: [(0, 2, 3), (2, 0, 3)]"),
        ("a dot on a vertex", [("dot", None, "wv-1-1")], ", dots: [(1, 1)]"),
        ("a dot on an edge", [("dot", None, "we-1-2-2-2")], ", edge_dots: [((1, 2), (2, 2))]"),
        ("a broken edge", [("broken", None, "we-0-1-1-1")], ", broken: [((0, 1), (1, 1))]"),
    ]
    puzzles, tail = [], ""
    for _, clicks, more in steps:
        tail += more
        puzzles.append(head + tail + ")")
    want = cli_counts(binary, [head + ")"] + puzzles)
    check("an empty 3x3 grid: the CLI's count", analysed(driver, head + ")") and text(driver, "wit-count") == want[0],
          f"{text(driver, 'wit-count')} vs {want[0]}")
    for (name, clicks, _), puzzle, count in zip(steps, puzzles, want[1:]):
        for tool, colour, target in clicks:
            pick(driver, tool, colour)
            click(driver, target)
        ok = analysed(driver, puzzle)
        check(f"{name}: the page's puzzle is {puzzle[len(head):]}, its count the CLI's ({count})",
              ok and text(driver, "wit-count") == count,
              f"page {driver.find_element(By.ID, 'wit-board-box').get_attribute('data-analysed')}: {text(driver, 'wit-count')}")
    board = driver.find_element(By.ID, "wit-board")
    drawn = {what: len(board.find_elements(By.CSS_SELECTOR, css)) for what, css in
             [("marks", "polygon.mark, rect.mark"), ("dots", "polygon.dot"), ("broken", "line.broken")]}
    check("the marks, dots and broken edge are drawn", drawn == {"marks": 4, "dots": 2, "broken": 2}, str(drawn))
    check(f"its {want[-1]} solutions are listed to be shown one by one",
          wait_text(driver, "wit-solution-note", f"solution 1 of {want[-1]}"), text(driver, "wit-solution-note"))
    pick(driver, "star", 5)
    click(driver, "wsq-1-1")
    check("a green star alone in its colour: no solution, red frame",
          wait_text(driver, "wit-count", "0")
          and "unsolvable" in driver.find_element(By.ID, "wit-board-box").get_attribute("class"),
          text(driver, "wit-count"))
    pick(driver, "erase")
    click(driver, "wsq-1-1")
    check("erased: the count is back", analysed(driver, puzzles[-1]) and text(driver, "wit-count") == want[-1],
          text(driver, "wit-count"))


def open_and_generate(driver, binary, shots):
    """A .ron of two puzzles opened (the second picked from the list), then
    EPCG over a square and an edge placeholder with marks."""
    puzzles = ["(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 2)], stars: [(1, 1, 1)], "
               "colours: [(0, 1, 1)], broken: [((1, 0), (2, 0))])",
               "(width: 4, height: 3, start: (0, 0), goal: (4, 3), triangles: [(3, 0, 2)], colours: [(0, 0, 1), (3, 2, 2)], "
               "stars: [(1, 2, 3), (2, 1, 3)], dots: [(2, 2)], edge_dots: [((3, 0), (4, 0))], broken: [((1, 1), (2, 1))])"]
    want = cli_counts(binary, puzzles)
    path = os.path.join(tempfile.mkdtemp(prefix="studio-ron-"), "two.ron")
    with open(path, "w") as f:
        f.write("[\n" + "".join(f"    {p},\n" for p in puzzles) + "]\n")
    driver.find_element(By.ID, "wit-open").send_keys(path)
    check("open a .ron: its first puzzle, the CLI's count", wait_text(driver, "wit-count", want[0]), text(driver, "wit-count"))
    items = driver.find_elements(By.CSS_SELECTOR, "#wit-variants li")
    check("the file's two puzzles are listed", len(items) == 2, text(driver, "wit-variants")[:120])
    if len(items) == 2:
        items[1].click()
        check("a click loads the second (the CLI's count)", wait_text(driver, "wit-count", want[1]), text(driver, "wit-count"))
    pick(driver, "placeholder")
    click(driver, "wsq-1-0")
    click(driver, "we-0-1-0-2")
    check("placeholders are marked on a square and an edge",
          len(driver.find_elements(By.CSS_SELECTOR, "#wit-board rect.square.placeholder")) == 1
          and len(driver.find_elements(By.CSS_SELECTOR, "#wit-board line.edge.placeholder")) == 1)
    driver.find_element(By.ID, "wit-marks").click()
    click(driver, "wit-generate")
    try:
        WebDriverWait(driver, 60).until(lambda d: "variant" in text(d, "wit-variants"))
        ok = True
    except Exception:
        ok = False
    listed = text(driver, "wit-variants")
    check("Generate with marks and an edge placeholder lists variants", ok, listed[:100])
    if ok:
        base = driver.find_element(By.ID, "wit-board-box").get_attribute("data-analysed")
        driver.find_element(By.CSS_SELECTOR, "#wit-variants li").click()
        count = re.search(r"(\d+) solutions", listed).group(1)
        check("the variant loaded has its listed count", wait_text(driver, "wit-count", count), text(driver, "wit-count"))
        if shots:
            driver.save_screenshot(os.path.join(shots, "studio-witness.png"))
        variant = driver.find_element(By.ID, "wit-board-box").get_attribute("data-analysed")
        click(driver, "wit-base")
        placeholders = (len(driver.find_elements(By.CSS_SELECTOR, "#wit-board rect.square.placeholder")),
                        len(driver.find_elements(By.CSS_SELECTOR, "#wit-board line.edge.placeholder")))
        check("back to the base puzzle: its placeholders and its figures again",
              analysed(driver, base) and placeholders == (1, 1) and "variant" in text(driver, "wit-variants"),
              f"{placeholders}")
        keys(driver, "z", ctrl=True)
        check("Ctrl+Z: the variant again", analysed(driver, variant) and text(driver, "wit-count") == count,
              text(driver, "wit-count"))
        keys(driver, "z", ctrl=True, shift=True)
        check("Ctrl+Shift+Z: the base again", analysed(driver, base))
        pick(driver, "erase")
        click(driver, "wsq-0-0")
        check("an edit clears the variants (they were of the puzzle before)",
              not driver.find_elements(By.CSS_SELECTOR, "#wit-variants li")
              and driver.find_element(By.ID, "wit-base").get_attribute("disabled") is not None)
        click(driver, "wit-undo")
        check("the undo button takes the edit back", analysed(driver, base))
        base_count = text(driver, "wit-count")
        click(driver, "wit-flip-h")
        flipped = next_analysed(driver, base)
        check("flip left to right mirrors the puzzle (start, goal, triangles), its count the same",
              analysed(driver, flipped) and flipped.startswith("(width: 4, height: 3, start: (4, 0), goal: (0, 3)")
              and "triangles: [(0, 0, 2)]" in flipped and text(driver, "wit-count") == base_count, flipped)
        click(driver, "wit-flip-h")
        check("flipped twice: the puzzle again", analysed(driver, base))
        box = driver.find_element(By.ID, "wit-width")
        box.clear()
        box.send_keys("5")
        click(driver, "wit-resize")
        wider = base.replace("(width: 4,", "(width: 5,")
        check("resize to 5x3 keeps the puzzle, its count the CLI's",
              analysed(driver, wider) and text(driver, "wit-count") == cli_counts(binary, [wider])[0],
              driver.find_element(By.ID, "wit-board-box").get_attribute("data-analysed"))
        click(driver, "wit-shift-right")
        moved = next_analysed(driver, wider)
        click(driver, "wit-shift-left")
        check("shift right then left: the puzzle again, moved between",
              moved.startswith("(width: 5, height: 3, start: (1, 0), goal: (5, 3)") and analysed(driver, wider), moved)


def flow_cell(driver, x, y, button="left"):
    """A click on Flow cell (x, y) (right: a right-click), the board found
    again (each change redraws it)."""
    cell = driver.find_element(By.ID, f"flow-cell-{x}-{y}")
    if button == "right":
        ActionChains(driver).context_click(cell).perform()
    else:
        ActionChains(driver).move_to_element(cell).click().perform()


def flow_place(driver, ends):
    """Clicks the cells `ends` ((x, y) pairs) in turn: each colour's two
    endpoints in a row, the picker moving on to the next colour itself."""
    for x, y in ends:
        flow_cell(driver, x, y)


def flow_grid(driver):
    """The puzzle last analysed, as the grid text the page sent."""
    return driver.find_element(By.ID, "flow-board-box").get_attribute("data-analysed") or ""


def flow(driver, binary, shots):
    """The Flow panel: endpoints placed by clicks (a colour incomplete until
    its second), the count 2+ with the differing links drawn; removal by a
    right-click, moves, undo and redo; then the board resized and completed
    by a fourth pair: one solution;
    Hint naming a rule of the learned set with its links and cuts outlined;
    Generate loading a unique puzzle the rules solve; a counted-layout file
    opened with the CLI's count."""
    click(driver, "tab-flow")
    check("the Flow panel opens", driver.find_element(By.ID, "panel-flow").is_displayed())
    check("an empty board asks for endpoints", wait_text(driver, "flow-message", lambda t: t.startswith("no endpoints")),
          text(driver, "flow-message"))
    new_board(driver, 4, 4, "flow", "#flow-board rect.cell")
    flow_place(driver, [(0, 0)])
    check("one endpoint of A: incomplete, no count",
          wait_text(driver, "flow-message", "colour A has one endpoint: place its second") and text(driver, "flow-count") == "-",
          text(driver, "flow-message"))
    flow_place(driver, [(2, 1), (3, 0), (1, 1), (1, 2), (2, 2)])
    check("A, B and C placed: two solutions (2+)", wait_text(driver, "flow-count", "2+"), text(driver, "flow-count"))
    check("the puzzle sent is the one clicked", flow_grid(driver) == "A..B\n.BA.\n.CC.\n....\n", repr(flow_grid(driver)))
    differ = driver.find_elements(By.CSS_SELECTOR, "#flow-board line.differ")
    paths = driver.find_elements(By.CSS_SELECTOR, "#flow-board line.path")
    check("the first solution drawn as paths, the links where two differ marked", len(paths) > 0 and len(differ) > 0,
          f"{len(paths)} links, {len(differ)} differing")
    flow_cell(driver, 2, 2, button="right")
    check("a right-click removes C's endpoint: incomplete",
          wait_text(driver, "flow-message", "colour C has one endpoint: place its second") and wait_text(driver, "flow-count", "-"),
          text(driver, "flow-message"))
    keys(driver, "z", ctrl=True)
    check("Ctrl+Z: back to 2+", wait_text(driver, "flow-count", "2+"), text(driver, "flow-count"))
    keys(driver, "z", ctrl=True, shift=True)
    check("Ctrl+Shift+Z: removed again", wait_text(driver, "flow-count", "-"), text(driver, "flow-count"))
    click(driver, "flow-undo")
    check("undo button: 2+ again", wait_text(driver, "flow-count", "2+"), text(driver, "flow-count"))
    flow_cell(driver, 1, 2)
    check("a click on an endpoint picks it up", len(driver.find_elements(By.CSS_SELECTOR, "#flow-board circle.end.held")) == 1
          and text(driver, "flow-held").startswith("moving C"), text(driver, "flow-held"))
    flow_cell(driver, 0, 3)
    check("put down on an empty cell: C moved, the puzzle analysed again",
          wait_text(driver, "flow-count", lambda t: t not in ("2+", "…", "-"))
          and flow_grid(driver) == "A..B\n.BA.\n..C.\nC...\n", repr(flow_grid(driver)))
    keys(driver, "z", ctrl=True)
    check("undo the move: 2+", wait_text(driver, "flow-count", "2+") and flow_grid(driver) == "A..B\n.BA.\n.CC.\n....\n")
    click(driver, "flow-repair")
    check("Repair proposes endpoint changes", wait_text(driver, "flow-repair-note", lambda t: "repaired with" in t, timeout=60),
          text(driver, "flow-repair-note")[:120])
    click(driver, "flow-repair-apply")
    check("the repair applied: one solution", wait_text(driver, "flow-count", "1") and flow_grid(driver) != "A..B\n.BA.\n.CC.\n....\n",
          repr(flow_grid(driver)))
    keys(driver, "z", ctrl=True)
    check("undone: 2+ again", wait_text(driver, "flow-count", "2+") and flow_grid(driver) == "A..B\n.BA.\n.CC.\n....\n", text(driver, "flow-count"))
    # completed on a larger board: resized to 5x5 (its endpoints kept, the
    # new cells uncovered: no solution), then a fourth pair: one solution
    for id_ in ["flow-width", "flow-height"]:
        box = driver.find_element(By.ID, id_)
        box.clear()
        box.send_keys("5")
    click(driver, "flow-resize")
    check("resized to 5x5: no solution, red frame",
          wait_text(driver, "flow-count", "none") and "unsolvable" in driver.find_element(By.ID, "flow-board-box").get_attribute("class"),
          text(driver, "flow-count"))
    click(driver, "flow-colour-D")
    flow_place(driver, [(3, 1)])
    check("colour D chosen in the picker: its first endpoint, incomplete",
          wait_text(driver, "flow-message", "colour D has one endpoint: place its second"), text(driver, "flow-message"))
    flow_place(driver, [(1, 3)])
    check("completed with D: from 2+ to exactly one solution", wait_text(driver, "flow-count", "1"), text(driver, "flow-count"))
    check("the puzzle completed is the one clicked", flow_grid(driver) == "A..B.\n.BAD.\n.CC..\n.D...\n.....\n", repr(flow_grid(driver)))
    check("the learned and the control rules' verdicts and difficulty",
          wait_text(driver, "flow-rules", lambda t: t in ("yes", "no")) and wait_text(driver, "flow-control", lambda t: t in ("yes", "no"))
          and wait_text(driver, "flow-steps", lambda t: t.isdigit()), f"{text(driver, 'flow-rules')} {text(driver, 'flow-steps')}")
    check("the header names the Flow rule set",
          wait_text(driver, "rules-note", lambda t: "Flow rules/flow/learned.rules" in t), text(driver, "rules-note"))
    learned = open(os.path.join(ROOT, "rules/flow/learned.rules")).read()
    names = set(re.findall(r"^def (\w+):", learned, re.M))
    click(driver, "flow-hint")
    check("Hint names a rule of the learned set",
          wait_text(driver, "flow-step", lambda t: t.startswith("step 1 of ") and any(f"rule {n}" in t for n in names)),
          text(driver, "flow-step")[:120])
    outlined = driver.find_elements(By.CSS_SELECTOR, "#flow-board line.link-now, #flow-board line.cut.now")
    check("its links and cuts are outlined on the board", len(outlined) > 0, f"{len(outlined)} outlined")
    click(driver, "flow-forward")
    check("forward: step 2", wait_text(driver, "flow-step", lambda t: t.startswith("step 2 of ")), text(driver, "flow-step")[:60])
    click(driver, "flow-close-hint")
    # Generate: a unique 6x6 puzzle the learned rules solve, loaded
    for id_, value in [("flow-width", 6), ("flow-height", 6), ("flow-seed", 2)]:
        box = driver.find_element(By.ID, id_)
        box.clear()
        box.send_keys(str(value))
    click(driver, "flow-generate")
    check("Generate loads a unique puzzle solved by the learned rules",
          wait_text(driver, "flow-gen-note", lambda t: "candidate" in t, timeout=60)
          and wait_text(driver, "flow-count", "1") and wait_text(driver, "flow-rules", "yes")
          and len(driver.find_elements(By.CSS_SELECTOR, "#flow-board rect.cell")) == 36,
          f"{text(driver, 'flow-gen-note')[:80]} {text(driver, 'flow-count')}")
    # Open: a counted-layout file (any extension), the CLI's count
    source = os.path.join(ROOT, "specs/flow/made.flow")
    puzzle = open(source).read().split("\n\n")[15]
    rows = [l for l in puzzle.splitlines() if l and not l.startswith("#")][1:]
    width, height = len(rows[0]), len(rows)
    ends = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                ends.setdefault(ch, []).append((x, y))
    counted = f"{len(ends)} {width} {height}\n" + "".join(f"({a[0]}, {a[1]}) ({b[0]}, {b[1]})\n" for a, b in ends.values())
    path = os.path.join(tempfile.mkdtemp(prefix="studio-flow-"), "counted.txt")
    with open(path, "w") as f:
        f.write(counted)
    want = json.loads(subprocess.run([binary, "analyze", "--json", path], capture_output=True, text=True, cwd=ROOT).stdout)[0]
    driver.find_element(By.ID, "flow-open").send_keys(path)
    shown = "2+" if want["solutions"] == 2 else str(want["solutions"])
    check("open a counted-layout file: its board and the CLI's count",
          wait_text(driver, "flow-count", shown)
          and driver.find_element(By.ID, "flow-width").get_attribute("value") == str(width)
          and len(driver.find_elements(By.CSS_SELECTOR, "#flow-board circle.end")) == 2 * len(ends),
          f"{text(driver, 'flow-count')} (CLI {shown})")
    if shots:
        WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#flow-board line.path"))
        WebDriverWait(driver, 60).until(lambda d: "measuring" not in text(d, "flow-timing"))
        driver.save_screenshot(os.path.join(shots, "studio-flow.png"))


# The studio's address, once started.
URL = []

# The parts of the test, in the order they run (each takes the driver, the
# binary and the screenshot folder).
PARTS = {
    "nonogram": nonogram,
    "latency": lambda driver, binary, shots: latency(driver),
    "painting": lambda driver, binary, shots: painting(driver),
    "editing": lambda driver, binary, shots: editing(driver),
    "hints_and_files": lambda driver, binary, shots: hints_and_files(driver, URL[0]),
    "witness": lambda driver, binary, shots: witness(driver),
    "full_game": lambda driver, binary, shots: full_game(driver, binary),
    "open_and_generate": open_and_generate,
    "flow": flow,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--screenshots")
    parser.add_argument("--only", help="run only these parts, comma separated: " + ", ".join(PARTS))
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else set(PARTS)
    binary = os.path.abspath(args.binary)
    server, url = start_server(os.path.abspath(args.binary))
    URL.append(url)
    driver = None
    try:
        driver = browser()
        driver.get(url)
        for name, part in PARTS.items():
            if name in only:
                part(driver, binary, args.screenshots)
    except Exception as e:  # a broken page: report it as a failure
        check("the page runs without an error", False, repr(e)[:300])
    finally:
        if driver:
            driver.quit()
        server.send_signal(signal.SIGINT)
        try:
            code = server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            code = None
        check("Ctrl-C stops the server cleanly", code == 0, f"exit status {code}")
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    sys.exit(1 if RESULTS["failed"] else 0)


if __name__ == "__main__":
    main()

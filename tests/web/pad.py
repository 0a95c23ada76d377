#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""pad.py URL JUDGECTL... — the order pad (issue 38) in headless Chromium
emulating a phone 390 pixels wide with touch (tests/scripts/web-pad.sh
starts judgeweb over a real game and runs this).  As France, by tapping
the board (touch events, at points the browser finds inside each unit
and province): a move, a move supported, and a support, sent with the
orders' form and read back with judgectl orders; its own orders drawn on
its board (mine.svg) and on no one else's; after the phase, a build on a
tapped centre.  legal.json and mine.svg refused (404) to a visitor, the
an observer; another power's session shows only its own; the same page with
JavaScript off still sends orders from the textarea.  Pages validated as
HTML5 as browser.py does.  Ends with "N passed, N failed"."""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402  (its checks, validation and sign-in)
from browser import check, raw, settled, signin, submit, text, validate  # noqa: E402

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.actions import interaction  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.actions.pointer_input import PointerInput  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

URL = browser.URL
JUDGECTL = browser.JUDGECTL


def start(script=True, phone=True):
    profile = tempfile.mkdtemp(prefix="dj-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-quic", "--no-first-run",
                 "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,1000",
                 f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    if phone:
        opts.add_experimental_option("mobileEmulation", {
            "deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0,
                              "touch": True},
            "userAgent": "Mozilla/5.0 (Linux; Android 13; Pixel 7) "
                         "AppleWebKit/537.36 (KHTML, like Gecko) "
                         "Chrome/120.0 Mobile Safari/537.36"})
    if not script:
        opts.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=opts)
    driver.dj_profile = profile
    return driver


def stop(driver):
    driver.quit()
    subprocess.run(["rm", "-rf", driver.dj_profile])


def orders_of(power):
    return subprocess.run(JUDGECTL + ["orders", "demo", power],
                          capture_output=True, text=True).stdout


# A point inside the overlay's unit (data-unit) or province area of that
# place, in the viewport's CSS pixels, found by asking the browser what
# lies under points of a grid over it; null when none is.
FIND = """
const [place, unit] = arguments;
const svg = document.querySelector('svg.pad-overlay');
if (!svg) return null;
const sel = unit ? `g[data-unit][data-place="${place}"]`
                 : `path[data-place="${place}"]`;
const el = svg.querySelector(sel);
if (!el) return null;
el.scrollIntoView({block: 'center', inline: 'center'});
const r = el.getBoundingClientRect();
for (let n = 2; n <= 24; n *= 2)
  for (let i = 1; i < n; i++)
    for (let k = 1; k < n; k++) {
      const x = r.left + r.width * i / n, y = r.top + r.height * k / n;
      const hit = document.elementFromPoint(x, y);
      const at = hit && hit.closest && hit.closest(unit ? '[data-unit]' : '[data-place]');
      if (at && at.getAttribute('data-place') === place &&
          (unit || !hit.closest('[data-unit]')))
        return [Math.round(x), Math.round(y)];
    }
return null;
"""


def tap(driver, place, unit=False):
    """Tap the place (its unit when unit) with a finger."""
    at = driver.execute_script(FIND, place, unit)
    check(f"a point to tap on {'the unit in ' if unit else ''}{place}",
          at is not None)
    if at is None:
        return
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.move_to_location(at[0], at[1])
    actions.pointer_action.pointer_down()
    actions.pointer_action.pointer_up()
    actions.perform()
    time.sleep(0.1)


def orders_box(driver):
    return driver.find_element(
        By.CSS_SELECTOR, "form[action='/game/demo/orders'] textarea[name=orders]")


def pad_ready(driver):
    try:
        WebDriverWait(driver, 20).until(
            lambda d: d.execute_script(
                "return !!document.querySelector('#pad-panel') && "
                "!!document.querySelector('svg.pad-overlay')"))
        return True
    except Exception:
        return False


def refused(driver, path, who):
    status, _ = raw(driver, path)
    check(f"{path} refused to {who} (404, got {status})", status == 404)


def run_phone(driver):
    # /pad.js: the source tree's file, as a script of this site
    status, body = raw(driver, "/pad.js")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "src", "web", "pad.js"), "rb") as f:
        check("/pad.js is src/web/pad.js's bytes", status == 200 and body == f.read())
    # a visitor: no pad, its pages refused
    driver.get(URL + "/game/demo")
    settled(driver)
    check("a visitor's page has no pad",
          driver.find_elements(By.ID, "pad") == [])
    refused(driver, "/game/demo/legal.json", "a visitor")
    refused(driver, "/game/demo/mine.svg", "a visitor")
    signin(driver, "France", "pw-France")
    validate(driver, "/game/demo")
    check("the pad is built over the board", pad_ready(driver))
    check("the page fits the phone's width",
          driver.execute_script(
              "return document.documentElement.scrollWidth <= window.innerWidth + 1"))
    check("the board scales to the screen",
          driver.execute_script(
              "const i = document.getElementById('pad-board');"
              "return i.getBoundingClientRect().width <= window.innerWidth"
              " && i.getBoundingClientRect().width > 300"))
    check("the overlay lies on the picture",
          driver.execute_script(
              "const a = document.getElementById('pad-board')"
              ".getBoundingClientRect(), b = document.querySelector("
              "'svg.pad-overlay').getBoundingClientRect();"
              "return Math.abs(a.left - b.left) < 2 && Math.abs(a.top - b.top)"
              " < 2 && Math.abs(a.width - b.width) < 2 && "
              "Math.abs(a.height - b.height) < 2"))
    status, body = raw(driver, "/game/demo/legal.json")
    check("legal.json for France", status == 200)
    legal = json.loads(body) if status == 200 else {"units": []}
    units = {u["unit"] for u in legal["units"]}
    check(f"France's units only ({sorted(units)})",
          units == {"F BRE", "A MAR", "A BUR"})
    check("the names the reader reads",
          any(o["text"] == "A MAR - SPA" for u in legal["units"]
              for o in u["orders"]))
    # the zoom makes the names bigger, and back
    zoom = driver.find_element(By.ID, "pad-zoom")
    zoom.click()
    check("zoomed: the board is wider than the phone",
          driver.execute_script(
              "return document.getElementById('pad-board')"
              ".getBoundingClientRect().width > 2 * window.innerWidth"))
    zoom.click()
    # a move: Marseilles to Spain
    box = orders_box(driver)
    box.clear()
    tap(driver, "mar", unit=True)
    check("the unit's orders are offered",
          "A MAR - SPA" in driver.find_element(By.ID, "pad-choices").text)
    tap(driver, "spa")
    check("a move by two taps", "A MAR - SPA" in box.get_attribute("value"))
    # a move, then a support of it: Burgundy to Gascony, Brest supporting
    tap(driver, "bur", unit=True)
    tap(driver, "gas")
    check("another move", "A BUR - GAS" in box.get_attribute("value"))
    tap(driver, "bre", unit=True)
    tap(driver, "bur", unit=True)
    tap(driver, "gas")
    value = box.get_attribute("value")
    check(f"a support by three taps ({value!r})",
          "F BRE S A BUR - GAS" in value)
    # the same unit again: its line replaced, not doubled
    tap(driver, "mar", unit=True)
    tap(driver, "mar", unit=True)
    check("a unit's line replaced",
          "A MAR H" in box.get_attribute("value")
          and "A MAR - SPA" not in box.get_attribute("value"))
    tap(driver, "mar", unit=True)
    tap(driver, "spa")
    value = box.get_attribute("value")
    check(f"three lines, one a unit ({value!r})",
          sorted(line for line in value.split("\n") if line) ==
          ["A BUR - GAS", "A MAR - SPA", "F BRE S A BUR - GAS"])
    submit(driver, "/game/demo/orders")
    check("the orders are answered", "Every unit has an order" in text(driver))
    shown = orders_of("France")
    check(f"judgectl orders shows them ({shown!r})",
          "A MAR - SPA" in shown and "A BUR - GAS" in shown
          and "F BRE S A BUR - GAS" in shown)
    status, body = raw(driver, "/game/demo/mine.svg")
    check("France's board draws its orders on file",
          status == 200 and b'data-order="A MAR - SPA"' in body
          and b'data-order="F BRE S A BUR - GAS"' in body)
    public = raw(driver, "/game/demo/F1901M/board.svg")[1]
    check("the board anyone sees does not", b"data-order" not in public)
    driver.get(URL + "/game/demo")
    browser.signout(driver)
    # the master, and another power
    driver.get(URL + "/game/demo")
    settled(driver)
    form = driver.find_element(By.CSS_SELECTOR, "form[action='/game/demo/signin']")
    form.find_element(By.NAME, "power").send_keys("observer")
    form.find_element(By.NAME, "address").send_keys("watcher@demo.example")
    form.find_element(By.NAME, "password").send_keys("pw-watcher")
    submit(driver, "/game/demo/signin")
    check("signed in as the observer", "Signed in as" in text(driver))
    refused(driver, "/game/demo/legal.json", "an observer")
    refused(driver, "/game/demo/mine.svg", "an observer")
    check("an observer's page has no pad",
          driver.find_elements(By.ID, "pad") == [])
    driver.get(URL + "/game/demo")
    browser.signout(driver)
    signin(driver, "Germany", "pw-Germany")
    status, body = raw(driver, "/game/demo/mine.svg")
    check("Germany's own board", status == 200 and b"<svg" in body[:300])
    check("shows none of France's orders",
          b"A MAR - SPA" not in body and b"data-order" not in body)
    status, body = raw(driver, "/game/demo/legal.json")
    units = ({u["unit"] for u in json.loads(body)["units"]}
             if status == 200 else set())
    check(f"Germany's legal.json holds its units only ({sorted(units)})",
          units == {"A MUN", "A BER", "F KIE"})
    driver.get(URL + "/game/demo")
    browser.signout(driver)


def run_no_script(driver):
    signin(driver, "Italy", "pw-Italy")
    check("without script: no pad, the textarea",
          driver.find_elements(By.ID, "pad-panel") == []
          and orders_box(driver) is not None)
    orders_box(driver).send_keys("A ven h\nA rom-apu")
    submit(driver, "/game/demo/orders")
    shown = orders_of("Italy")
    check(f"without script, the orders sent ({shown!r})",
          "A VEN H" in shown and "A ROM - APU" in shown)
    driver.get(URL + "/game/demo")
    browser.signout(driver)


def run_build(driver):
    out = subprocess.run(JUDGECTL + ["process", "demo"],
                         capture_output=True, text=True)
    check("the phase processed", out.returncode == 0)
    signin(driver, "France", "pw-France")
    validate(driver, "/game/demo")
    check("the pad, in the adjustment", pad_ready(driver))
    status, body = raw(driver, "/game/demo/legal.json")
    legal = json.loads(body) if status == 200 else {}
    check(f"one build due ({legal.get('due')})", legal.get("due") == 1)
    check("builds in Paris and Marseilles, none in occupied Brest",
          {b["text"] for b in legal.get("builds", [])} ==
          {"BUILD A PAR", "BUILD A MAR", "BUILD F MAR"})
    box = orders_box(driver)
    box.clear()
    tap(driver, "par")
    check("a build by one tap",
          box.get_attribute("value").strip() == "BUILD A PAR")
    submit(driver, "/game/demo/orders")
    shown = orders_of("France")
    check(f"the build on file ({shown!r})", "A PAR B" in shown
          or "BUILD A PAR" in shown)
    driver.get(URL + "/game/demo")
    browser.signout(driver)


def main():
    phone = start(script=True, phone=True)
    try:
        run_phone(phone)
        quiet = start(script=False, phone=False)
        try:
            run_no_script(quiet)
        finally:
            stop(quiet)
        run_build(phone)
    finally:
        stop(phone)
    print(f"{browser.passed} passed, {browser.failed} failed")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # the browser or the driver failed: say so
        import traceback
        browser.failed += 1
        print("FAIL: the browser session:", repr(e)[:500])
        traceback.print_exc(limit=3)
        print(f"{browser.passed} passed, {browser.failed} failed")
    sys.exit(1 if browser.failed else 0)

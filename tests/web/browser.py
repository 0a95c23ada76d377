#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""browser.py URL JUDGECTL... — drive headless Chromium through judgeweb as
a player does (tests/scripts/web-browser.sh starts judgeweb over a real
game and runs this).  Every page visited is validated as HTML5 twice:
html5lib's parser in strict mode (any parse error of the WHATWG parsing
algorithm fails) and tidy in its HTML5 mode (unknown elements and
attributes, bad nesting; warnings fail too).  Prints one line per failed
check and ends with "N passed, N failed"."""

import http.cookiejar
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import html5lib
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import (StaleElementReferenceException,
                                        WebDriverException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

URL = sys.argv[1]
JUDGECTL = sys.argv[2:]
passed = failed = 0


def check(what, cond):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)


def raw(driver, path, data=None):
    """The page's bytes as the server sent them, with the browser's
    cookies (HttpOnly ones too): (status, body)."""
    req = urllib.request.Request(URL + path, data=data)
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    if cookies:
        req.add_header("Cookie", cookies)
    opener = urllib.request.build_opener(urllib.request.HTTPRedirectHandler)
    try:
        with opener.open(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def validate(driver, path):
    status, body = raw(driver, path)
    check(f"{path}: 200 (got {status})", status == 200)
    parser = html5lib.HTMLParser(strict=True)
    try:
        parser.parse(body)
        ok = True
    except Exception as e:  # html5lib raises ParseError with the position
        print(f"    {path}: {e}")
        ok = False
    check(f"{path}: valid HTML5 (html5lib strict)", ok)
    with tempfile.NamedTemporaryFile(suffix=".html") as f:
        f.write(body)
        f.flush()
        t = subprocess.run(["tidy", "-q", "-e", f.name],
                           capture_output=True, text=True)
    if t.returncode != 0:
        print(f"    {path}: {t.stderr.strip()[:300]}")
    check(f"{path}: valid HTML5 (tidy)", t.returncode == 0)


def settled(driver):
    """Wait until the page has loaded whole."""
    WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def replaced(driver):
    """Has the page marked by mark() been replaced by a new, fully loaded
    one?  A new document has a new window object, so the mark is gone.
    Asked while the browser is between pages the driver may fail (no
    context, a node of the old document): that is "not yet"."""
    try:
        return driver.execute_script(
            "return window.djOldPage !== 1 && document.readyState === 'complete'")
    except WebDriverException:
        return False


def click(driver, find):
    """Click what find() returns, which loads a page, and wait until the
    new one is there.  The old page is marked in its window object rather
    than held as an element: an element of a replaced page makes
    chromedriver fail in more ways than "stale" ("Node with given id does
    not belong to the document").  A click that fails on a page still
    settling (a loaded machine) is tried again, unless the page did go."""
    settled(driver)
    driver.execute_script("window.djOldPage = 1")
    for attempt in range(6):
        try:
            find().click()
            break
        except WebDriverException:  # stale elements included
            if replaced(driver):
                break
            if attempt == 5:
                raise
            time.sleep(0.5 * (attempt + 1))
    WebDriverWait(driver, 30).until(replaced)
    WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
        EC.presence_of_element_located((By.TAG_NAME, "footer")))


def submit(driver, action):
    click(driver, lambda: driver.find_element(
        By.CSS_SELECTOR, f"form[action='{action}'] button[type=submit]"))


def text(driver):
    return driver.find_element(By.TAG_NAME, "body").text


def again(step):
    """Run a step of loading a page and filling a form; once more if the
    driver loses a node under a loaded machine (chromedriver's "Node with
    given id does not belong to the document")."""
    for attempt in range(3):
        try:
            return step()
        except (StaleElementReferenceException, WebDriverException):
            if attempt == 2:
                raise
            time.sleep(1 + attempt)


def signin(driver, power, password):
    def step():
        driver.get(URL + "/game/demo")
        settled(driver)
        if f"Signed in as {power}" in text(driver):
            return  # an earlier try got through
        form = driver.find_element(By.CSS_SELECTOR, "form[action='/game/demo/signin']")
        form.find_element(By.NAME, "power").send_keys(power)
        form.find_element(By.NAME, "password").send_keys(password)
        submit(driver, "/game/demo/signin")
    again(step)
    check(f"signed in as {power}", f"Signed in as {power}" in text(driver))


def signout(driver):
    click(driver, lambda: driver.find_element(
        By.CSS_SELECTOR, "form[action='/signout'] button"))
    check("signed out: the sign-in form is back",
          driver.find_elements(By.CSS_SELECTOR, "form[action='/game/demo/signin']") != []
          or "Games on" in text(driver))


def main():
    profile = tempfile.mkdtemp(prefix="dj-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-quic", "--no-first-run",
                 "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=412,900",
                 f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=opts)
    try:
        run(driver)
    finally:
        driver.quit()
        subprocess.run(["rm", "-rf", profile])


def run(driver):
    # the list
    driver.get(URL + "/")
    validate(driver, "/")
    check("the list names the game", "demo" in text(driver))
    check("and how to join by mail", "JOIN game PASSWORD" in text(driver))
    # the game, on a phone-sized window
    click(driver, lambda: driver.find_element(By.LINK_TEXT, "demo"))
    check("the game's page", "Game demo" in text(driver))
    validate(driver, "/game/demo")
    imgs = driver.find_elements(By.CSS_SELECTOR, "img.board")
    check("the board is shown", len(imgs) >= 1)
    for img in imgs:
        src = img.get_attribute("src").replace(URL, "")
        status, body = raw(driver, src)
        check(f"{src}: an SVG", status == 200 and b"<svg" in body[:500])
        check(f"{src}: drawn at its size",
              driver.execute_script("return arguments[0].naturalWidth", img) > 0)
    check("the page fits a phone's width",
          driver.execute_script(
              "return document.documentElement.scrollWidth <= window.innerWidth + 1"))
    # a past phase
    click(driver, lambda: driver.find_element(By.LINK_TEXT, "S1901M"))
    check("the phase's results", "Army Paris -> Burgundy" in text(driver))
    validate(driver, "/game/demo/S1901M")
    check("its supply-centre table", "Supply centres" in text(driver))
    validate(driver, "/game/demo/press")
    # sign in, orders with a typo the reader corrects
    signin(driver, "France", "pw-France")
    validate(driver, "/game/demo")
    form = driver.find_element(By.CSS_SELECTOR, "form[action='/game/demo/orders']")
    form.find_element(By.NAME, "orders").send_keys(
        "A burgandy-mun\nF bre-mao\nA mar h")
    submit(driver, "/game/demo/orders")
    page = text(driver)
    check("the echo shows each line", "> A burgandy-mun" in page)
    check("and the correction", "A BUR - MUN" in page and "read as Burgundy" in page)
    check("and what is on file", "Every unit has an order" in page)
    shown = subprocess.run(JUDGECTL + ["orders", "demo", "France"],
                           capture_output=True, text=True).stdout
    check("judgectl orders shows them",
          "A BUR - MUN" in shown and "F BRE - MAO" in shown and "A MAR H" in shown)
    # READY
    click(driver, lambda: driver.find_element(By.CSS_SELECTOR, "button[value=ready]"))
    check("READY answered", "READY: yes" in text(driver))
    # press to England alone
    form = driver.find_element(By.CSS_SELECTOR, "form[action='/game/demo/press']")
    to = form.find_element(By.NAME, "to")
    to.clear()
    to.send_keys("England")
    form.find_element(By.NAME, "text").send_keys("Lunch in Picardy?")
    submit(driver, "/game/demo/press")
    check("press sent to England", "press sent to England" in text(driver))
    driver.get(URL + "/game/demo/press")
    check("the sender sees it in the archive", "Lunch in Picardy?" in text(driver))
    driver.get(URL + "/game/demo")
    signout(driver)
    signin(driver, "England", "pw-England")
    driver.get(URL + "/game/demo/press")
    check("England, its recipient, reads it", "Lunch in Picardy?" in text(driver))
    driver.get(URL + "/game/demo")
    signout(driver)
    signin(driver, "Italy", "pw-Italy")
    driver.get(URL + "/game/demo/press")
    check("Italy does not", "Lunch in Picardy?" not in text(driver))
    check("a visitor's view is refused nothing public", "Hello all" in text(driver))
    # a form without its CSRF token is refused
    driver.get(URL + "/game/demo")
    driver.execute_script(
        "document.querySelectorAll(\"form[action='/game/demo/orders'] "
        "input[name=csrf]\").forEach(e => e.remove())")
    form = driver.find_element(By.CSS_SELECTOR, "form[action='/game/demo/orders']")
    form.find_element(By.NAME, "orders").send_keys("A ven-pie")
    submit(driver, "/game/demo/orders")
    check("a form without its CSRF token is refused", "Refused" in text(driver))
    shown = subprocess.run(JUDGECTL + ["orders", "demo", "Italy"],
                           capture_output=True, text=True).stdout
    check("and nothing was filed", "VEN - PIE" not in shown)
    driver.get(URL + "/game/demo")
    signout(driver)
    driver.get(URL + "/game/demo")
    check("signed out for good",
          "Signed in as" not in text(driver))
    print(f"{passed} passed, {failed} failed")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # the browser or the driver failed: say so
        import traceback
        failed += 1
        print("FAIL: the browser session:", repr(e)[:500])
        traceback.print_exc(limit=3)
        print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""front.py URL JUDGECTL... — the game page's table and the front page's
paging in headless Chromium at 1280 and 390 px (tests/scripts/web-front.sh
sets up the games and runs this).  Pages are validated as browser.py
validates them (html5lib strict and tidy), with its helpers.  Prints one
line per failed check and ends with "N passed, N failed"."""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402  (URL and JUDGECTL from sys.argv, as here)
from browser import check, raw, settled, text, validate  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

URL = sys.argv[1]
FORMING = [f"p{i:03d}" for i in range(1, 121)] + ["quiet"]


def css(driver, sel):
    return driver.find_elements(By.CSS_SELECTOR, sel)


def rows(driver, section):
    return [r.find_elements(By.TAG_NAME, "td")
            for r in css(driver, f"section#{section} table tbody tr")]


def row_of(driver, power):
    for r in css(driver, "table.powers tbody tr"):
        if r.find_element(By.TAG_NAME, "th").text == power:
            return [c.text for c in r.find_elements(By.TAG_NAME, "td")]
    return None


def no_overflow(driver, what, width):
    w = driver.execute_script(
        "return document.documentElement.scrollWidth")
    check(f"{what} at {width} px: nothing wider than the screen "
          f"(scrollWidth {w})", w <= width + 1)


def game_page(driver, width):
    driver.get(URL + "/game/named")
    settled(driver)
    if width == 1280:
        validate(driver, "/game/named")
    fr, en = row_of(driver, "France"), row_of(driver, "England")
    check(f"France's row: 5 centres and 5 units after the year ({fr})",
          fr is not None and fr[1] == "5" and fr[2] == "5")
    check(f"England's row: 3 and 3 ({en})",
          en is not None and en[1] == "3" and en[2] == "3")
    check("identities = public: players named",
          en is not None and en[0].startswith("Name England"))
    check("seven powers", len(css(driver, "table.powers tbody tr")) == 7)
    times = css(driver, "time.countdown")
    check(f"the deadline once, as a countdown ({len(times)})", len(times) == 1)
    if times:
        dt = times[0].get_attribute("datetime")
        check(f"its datetime is ISO-8601 UTC ({dt})",
              re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", dt or ""))
        check(f"its text the time left ({times[0].text})",
              times[0].text.startswith("in "))
    body = text(driver)
    check("no address on the page", "@named.example" not in body)
    check("the deadline printed once (no 'Deadline:' line besides)",
          body.count("Deadline") == 1)
    no_overflow(driver, "/game/named", width)
    # at-end: nobody named before the end
    driver.get(URL + "/game/demo")
    settled(driver)
    cells = [r[0] for r in
             [[c.text for c in tr.find_elements(By.TAG_NAME, "td")]
              for tr in css(driver, "table.powers tbody tr")]]
    check(f"identities = at-end: '(a player)' for all ({cells[:2]})",
          cells and all(c.startswith("(a player)") for c in cells))
    # hide_late = yes: whose orders are in is not told
    driver.get(URL + "/game/late")
    settled(driver)
    late = row_of(driver, "Italy")
    check(f"hide_late = yes: orders not told to a stranger ({late})",
          late is not None and late[3] == "-")
    check("identities = hidden: no name", "Secret" not in text(driver))
    # the phase page: previous and next
    driver.get(URL + "/game/named/F1901M")
    settled(driver)
    links = [a.text for a in css(driver, "nav a")]
    check(f"the phase page links previous and next ({links})",
          "Previous phase" in links and "Next phase" in links)


def signed_in(driver, width):
    driver.get(URL + "/game/named")
    settled(driver)
    if "Signed in as England" not in text(driver):
        form = css(driver, "form[action='/game/named/signin']")[0]
        form.find_element(By.NAME, "power").send_keys("England")
        form.find_element(By.NAME, "password").send_keys("pw-England")
        browser.submit(driver, "/game/named/signin")
    body = text(driver)
    check("signed in as England", "Signed in as England" in body)
    check("the zone line: England's own zone (SET ZONE Asia/Tokyo)",
          "Your zone (Asia/Tokyo)" in body)
    check("and the game's zone beside it", "The game's zone (UTC)" in body)
    check("still one countdown", len(css(driver, "time.countdown")) == 1)
    check("and the deadline said once (not in the orders' status too)",
          body.count("Deadline") == 1)
    en = row_of(driver, "England")
    check(f"England's own row: orders given of needed, and ready ({en})",
          en is not None and "(0/3)" in en[3] and en[4] == "no")
    fr = row_of(driver, "France")
    check(f"but not France's counts ({fr})",
          fr is not None and "/" not in fr[3] and fr[4] == "")
    if width == 1280:
        validate(driver, "/game/named")
    no_overflow(driver, "/game/named signed in", width)
    # the press grouped by correspondents
    driver.get(URL + "/game/named/press")
    settled(driver)
    if width == 1280:
        validate(driver, "/game/named/press")
    groups = [li.text for li in css(driver, "ul.correspondents li")]
    check(f"press grouped by correspondents ({groups})",
          any(g.startswith("England to France") for g in groups) and
          any(g.startswith("France to England") for g in groups) and
          any(g.startswith("England to everyone") for g in groups))
    check("each group a section", len(css(driver, "section.press")) ==
          len(groups))
    no_overflow(driver, "/game/named/press", width)
    driver.delete_all_cookies()


def front(driver, width):
    driver.get(URL + "/")
    settled(driver)
    if width == 1280:
        validate(driver, "/")
    check("the front page: 50 games forming on it",
          len(rows(driver, "forming")) == 50)
    check("games in play listed", "named" in
          [r[0].text for r in rows(driver, "play")])
    check("a link to all games forming",
          css(driver, "section#forming nav.pages a"))
    no_overflow(driver, "/", width)
    if width != 1280:
        return
    # paging through all the forming games
    seen = []
    driver.get(URL + "/?state=forming")
    for page in range(5):
        settled(driver)
        names = [r[0].text for r in rows(driver, "forming")]
        seen += names
        nxt = css(driver, "a[rel=next]")
        if page == 0:
            check("page 1: 50 games, no previous",
                  len(names) == 50 and not css(driver, "a[rel=prev]"))
            validate(driver, "/?state=forming")
        if page == 1:
            check("page 2: 50 games, a previous link",
                  len(names) == 50 and css(driver, "a[rel=prev]"))
            prev = css(driver, "a[rel=prev]")[0].get_attribute("href")
        if not nxt:
            break
        driver.get(nxt[0].get_attribute("href"))
    check(f"three pages through all 121 forming games once each "
          f"({len(seen)} seen, page {page + 1})",
          seen == FORMING and page == 2)
    driver.get(prev)
    settled(driver)
    check("previous from page 2: page 1 again",
          [r[0].text for r in rows(driver, "forming")] == FORMING[:50])
    # filters
    for query, want in (
            ("state=forming&board=ancmed",
             [f"p{i:03d}" for i in range(5, 121, 5)]),
            ("state=forming&press=none",
             [f"p{i:03d}" for i in range(3, 121, 3)]),
            ("state=forming&speed=fast",
             [f"p{i:03d}" for i in range(4, 121, 4)]),
            ("state=forming&board=ancmed&press=none&speed=fast",
             [f"p{i:03d}" for i in range(60, 121, 60)])):
        driver.get(URL + "/?" + query)
        settled(driver)
        got = [r[0].text for r in rows(driver, "forming")]
        check(f"/?{query}: {len(want)} games ({len(got)})", got == want)
    validate(driver, "/?state=forming&board=ancmed&press=none&speed=fast")
    driver.get(URL + "/?press=white%2Bgrey")
    settled(driver)
    check("press=white+grey: none of these", "matches the filter" in
          text(driver))
    # bad parameters: a 400 saying what is taken; unknown ones ignored
    for query, says in (("state=bogus", b"state takes"),
                        ("press=purple", b"press takes"),
                        ("speed=warp", b"speed takes"),
                        ("board=no%20such", b"board takes"),
                        ("after=p050", b"give state too"),
                        ("state=play&after=a%3Cb", b"game&#39;s name")):
        status, body = raw(driver, "/?" + query)
        check(f"/?{query}: 400 ({status})", status == 400)
        check(f"/?{query}: says why", says in body)
    status, body = raw(driver, "/?utm_source=x")
    check(f"an unknown parameter is ignored ({status})", status == 200)


def size(driver, width):
    """Make the page `width` px wide (headless Chromium opens no window
    narrower than 500 px; a resize may, the frame counted in)."""
    driver.get(URL + "/style.css")
    for _ in range(3):
        inner = driver.execute_script("return window.innerWidth")
        if inner == width:
            break
        outer = driver.get_window_size()["width"]
        driver.set_window_size(outer + width - inner, 900)
    inner = driver.execute_script("return window.innerWidth")
    check(f"the page is {width} px wide ({inner})", inner == width)


def main():
    for width in (1280, 390):
        profile = tempfile.mkdtemp(prefix="dj-chromium-")
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--hide-scrollbars",
                     f"--window-size={width},900",
                     f"--user-data-dir={profile}"):
            opts.add_argument(flag)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                                  options=opts)
        try:
            size(driver, width)
            front(driver, width)
            game_page(driver, width)
            signed_in(driver, width)
        finally:
            driver.quit()
            subprocess.run(["rm", "-rf", profile])
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

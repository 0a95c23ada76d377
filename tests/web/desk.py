#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""desk.py URL OUTBOX_MAILDIR "JUDGED ONCE COMMAND" JUDGECTL... — headless
Chromium, with JavaScript switched off, through the master's desk, votes,
JOIN with its mailed code, two games in one browser and the forms'
post/redirect/get (tests/scripts/web-desk.sh sets the games up and starts
judgeweb).  Prints one line per failed check, ends "N passed, N failed"."""

import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import html5lib
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

URL = sys.argv[1]
OUTBOX = sys.argv[2]
JUDGED_ONCE = shlex.split(sys.argv[3])
JUDGECTL = sys.argv[4:]
passed = failed = 0


def check(what, cond):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)


def ctl(*args):
    return subprocess.run(JUDGECTL + list(args), capture_output=True,
                          text=True).stdout


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k):
        return None


def raw(driver, path, data=None, follow=True, cookies=None):
    """(status, headers, body) as the server sent them, with the browser's
    cookies (HttpOnly ones too) unless others are given."""
    req = urllib.request.Request(URL + path, data=data)
    if cookies is None:
        cookies = "; ".join(f"{c['name']}={c['value']}"
                            for c in driver.get_cookies())
    if cookies:
        req.add_header("Cookie", cookies)
    if data is not None:
        req.add_header("Content-Type", "application/x-www-form-urlencoded")
    opener = urllib.request.build_opener(
        urllib.request.HTTPRedirectHandler if follow else NoRedirect)
    try:
        with opener.open(req, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def validate(driver, path):
    status, _, body = raw(driver, path)
    check(f"{path}: 200 (got {status})", status == 200)
    try:
        html5lib.HTMLParser(strict=True).parse(body)
        ok = True
    except Exception as e:
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


def replaced(driver):
    try:
        return driver.execute_script(
            "return window.djOldPage !== 1 && document.readyState === 'complete'")
    except WebDriverException:
        return False


def click(driver, find):
    """Click what find() returns, which loads a page; wait for the new one
    (the old page is marked in its window object: a WebDriver script, which
    runs though the page's own scripts are off)."""
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script("return document.readyState") == "complete")
    driver.execute_script("window.djOldPage = 1")
    for attempt in range(6):
        try:
            find().click()
            break
        except WebDriverException:
            if replaced(driver):
                break
            if attempt == 5:
                raise
            time.sleep(0.5 * (attempt + 1))
    WebDriverWait(driver, 30).until(replaced)
    WebDriverWait(driver, 30, ignored_exceptions=(WebDriverException,)).until(
        EC.presence_of_element_located((By.TAG_NAME, "footer")))


def form(driver, action, do=None, button=None):
    """The form sending to action: of the desk's, the one whose "do" is
    do; else the one with that button."""
    sel = f"form[action='{action}']"
    forms = driver.find_elements(By.CSS_SELECTOR, sel)
    if do is not None:
        forms = [f for f in forms
                 if f.find_elements(By.CSS_SELECTOR, f"input[name=do][value={do}]")]
    if button is not None:
        forms = [f for f in forms
                 if f.find_elements(By.CSS_SELECTOR, f"button[value={button}]")]
    return forms[0]


def send(driver, action, fields, do=None, button=None):
    """Fill the form's fields and press its button (or the one named)."""
    f = form(driver, action, do, button)
    for name, value in fields.items():
        el = f.find_element(By.NAME, name)
        el.clear()
        el.send_keys(value)
    sel = f"button[value={button}]" if button else "button[type=submit]"
    click(driver, lambda: form(driver, action, do, button).find_element(
        By.CSS_SELECTOR, sel))


def text(driver):
    return driver.find_element(By.TAG_NAME, "body").text


def signin(driver, game, power, password):
    driver.get(f"{URL}/game/{game}")
    send(driver, f"/game/{game}/signin", {"power": power, "password": password})
    check(f"{game}: signed in as {power}", f"Signed in as {power}" in text(driver))


def csrf_of(driver, action):
    return form(driver, action).find_element(
        By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")


def game_line(game):
    return next((l for l in ctl("list").splitlines() if l.split()[:1] == [game]), "")


def main():
    profile = tempfile.mkdtemp(prefix="dj-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-quic", "--no-first-run",
                 "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,900",
                 f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    # the pages are plain forms: every step here runs without script
    opts.add_experimental_option(
        "prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=opts)
    try:
        run(driver)
    finally:
        driver.quit()
        subprocess.run(["rm", "-rf", profile])


def run(driver):
    driver.get("data:text/html,<title>t</title><script>document.title='js'</script>")
    check("the browser runs no page script", driver.title == "t")

    # ---- the master's desk --------------------------------------------------
    signin(driver, "desk", "master", "gm-pw-desk")
    click(driver, lambda: driver.find_element(By.LINK_TEXT, "The master's desk"))
    check("the desk", "The master's desk: desk" in text(driver))
    validate(driver, "/game/desk/desk")
    before = game_line("desk")
    send(driver, "/game/desk/desk", {"deadline": "+5d"}, do="deadline")
    check("the deadline moved: the judge's reply on the desk",
          driver.current_url.endswith("/game/desk/desk")
          and "deadline" in text(driver).lower())
    check("judgectl sees the new deadline", game_line("desk") != before)
    send(driver, "/game/desk/desk", {}, do="pause")
    check("paused from the desk", "paused" in game_line("desk"))
    send(driver, "/game/desk/desk", {}, do="resume")
    check("resumed from the desk", "paused" not in game_line("desk")
          and "active" in game_line("desk"))
    check("the phase is S1901M", "S1901M" in game_line("desk"))
    send(driver, "/game/desk/desk", {}, do="process")
    check("processed from the desk: F1901M", "F1901M" in game_line("desk"))
    check("  the reply shown", "S1901M" in text(driver) or "F1901M" in text(driver))

    # ---- hostile requests on the desk ----------------------------------------
    driver.get(URL + "/game/desk/desk")
    cs = csrf_of(driver, "/game/desk/desk")
    line = game_line("desk")
    st, _, _ = raw(driver, "/game/desk/desk", b"do=process")
    check("a desk POST without its CSRF token: 403", st == 403)
    check("  nothing done", game_line("desk") == line)
    st, _, _ = raw(driver, "/game/desk/desk", urllib.parse.urlencode(
        {"csrf": cs, "do": "deadline",
         "deadline": "+1d" + "x" * (70 * 1024)}).encode())
    check(f"an oversize field: refused (413, got {st})", st == 413)
    st, hd, _ = raw(driver, "/game/desk/desk", urllib.parse.urlencode(
        {"csrf": cs, "do": "deadline", "deadline": "+1d\nPROCESS"}).encode(),
        follow=False)
    check("a field with a line break: 303 back to the desk",
          st == 303 and hd.get("Location") == "/game/desk/desk")
    driver.get(URL + "/game/desk/desk")
    check("  refused, with its text kept", "Nothing was done" in text(driver)
          and "+1d" in form(driver, "/game/desk/desk", "deadline").find_element(
              By.NAME, "deadline").get_attribute("value"))
    check("  no command smuggled in: not processed", game_line("desk") == line)
    raw(driver, "/game/desk/desk", urllib.parse.urlencode(
        {"csrf": cs, "do": "set", "key": "PASSWORD", "value": "stolen"}).encode(),
        follow=False)
    driver.get(URL + "/game/desk/desk")
    check("SET PASSWORD is not a desk setting", "Nothing was done" in text(driver))

    # ---- a player of the game: 403 on the desk ----------------------------------
    # (another browser: a cookie jar of its own)
    jar = {}
    st, hd, body = raw(driver, "/game/desk", cookies="")
    for c in hd.get_all("Set-Cookie") or []:
        k, v = c.split(";")[0].split("=", 1)
        jar[k] = v
    tok = re.search(rb'name="csrf" value="([0-9a-f]+)"', body).group(1).decode()
    st, hd, _ = raw(driver, "/game/desk/signin", urllib.parse.urlencode(
        {"csrf": tok, "power": "France", "password": "pw-France"}).encode(),
        follow=False, cookies="; ".join(f"{k}={v}" for k, v in jar.items()))
    for c in hd.get_all("Set-Cookie") or []:
        k, v = c.split(";")[0].split("=", 1)
        jar[k] = v
    cj = "; ".join(f"{k}={v}" for k, v in jar.items())
    st, _, _ = raw(driver, "/game/desk/desk", cookies=cj)
    check(f"France, a player of the game, gets 403 on the desk (got {st})",
          st == 403)
    st, _, _ = raw(driver, "/game/desk/desk", cookies="")
    check(f"a visitor gets 404 (got {st})", st == 404)

    # ---- a second game in the same browser ----------------------------------------
    signin(driver, "demo", "France", "pw-France")
    driver.get(URL + "/game/desk")
    check("still signed in to desk as master", "Signed in as master" in text(driver))
    driver.get(URL + "/")
    check("the front page lists both games",
          "desk: master" in text(driver) and "demo: France" in text(driver))
    validate(driver, "/")
    # act in both
    driver.get(URL + "/game/desk/desk")
    send(driver, "/game/desk/desk", {}, do="pause")
    check("acting in desk: paused", "paused" in game_line("desk"))
    send(driver, "/game/desk/desk", {}, do="resume")

    # ---- press: reload after the POST sends nothing twice -----------------------------
    driver.get(URL + "/game/demo")
    validate(driver, "/game/demo")
    send(driver, "/game/demo/press", {"to": "England", "text": "Reload me once."})
    check("acting in demo: press sent", "press sent to England" in text(driver))
    check("the answer is a GET page (303 followed)",
          driver.current_url == URL + "/game/demo")
    driver.refresh()
    WebDriverWait(driver, 30).until(
        EC.presence_of_element_located((By.TAG_NAME, "footer")))
    driver.refresh()
    WebDriverWait(driver, 30).until(
        EC.presence_of_element_located((By.TAG_NAME, "footer")))
    check("the reloaded page no longer shows the answer",
          "press sent to England" not in text(driver))
    _, _, arch = raw(driver, "/game/demo/press")
    check(f"one press after two reloads (found {arch.count(b'Reload me once.')})",
          arch.count(b"Reload me once.") == 1)

    # ---- a refused press keeps its text ------------------------------------------------
    send(driver, "/game/demo/press", {"to": "Narnia", "text": "Keep my words."})
    ta = form(driver, "/game/demo/press").find_element(By.NAME, "text")
    check("a refused press: the judge's reason shown",
          "Narnia" in text(driver))
    check("  and its text back in the form",
          ta.get_attribute("value").strip() == "Keep my words.")
    driver.get(URL + "/game/demo")
    ta = form(driver, "/game/demo/press").find_element(By.NAME, "text")
    check("  for one view only", ta.get_attribute("value") == "")
    send(driver, "/game/demo/press",
         {"to": "all", "text": "one\nENDPRESS\ntwo"})
    ta = form(driver, "/game/demo/press").find_element(By.NAME, "text")
    check("a press with an ENDPRESS line: refused, its text kept",
          "ENDPRESS" in text(driver) and "two" in ta.get_attribute("value"))

    # ---- a vote ---------------------------------------------------------------------
    send(driver, "/game/demo/vote", {"password": "pw-France"}, button="draw")
    check("a draw vote from the web: answered", "draw" in text(driver).lower())
    export = ctl("export", "demo")
    check("  and on file (judgectl export)",
          re.search(r'"France"[^{}]*"vote"\s*:\s*"draw', export) is not None
          or '"draw"' in export)
    st, _, _ = raw(driver, "/game/demo/vote", b"vote=draw&password=pw-France")
    check("a vote without its CSRF token: 403", st == 403)

    # ---- JOIN from the front page, up to its code ------------------------------------------
    driver.get(URL + "/")
    send(driver, "/join", {"game": "open", "address": "newbie@open.example",
                           "password": "pw-newbie-1"}, button="join")
    page = text(driver)
    check("JOIN: the judge says it mailed a code",
          "mailed a code to newbie@open.example" in page)
    check("  the code is not on the page", "CONFIRM " not in page.replace(
        "CONFIRM and the code", "").replace("CONFIRM code", ""))
    check("  nothing happened yet", "newbie@open.example" not in ctl("export", "open"))
    subprocess.run(JUDGED_ONCE, capture_output=True)
    code = None
    for f in sorted(glob.glob(os.path.join(OUTBOX, "new", "*"))):
        with open(f, "rb") as fh:
            mail = fh.read().decode("utf-8", "replace")
        if "newbie@open.example" in mail:
            m = re.search(r"CONFIRM ([A-Za-z0-9-]+)", mail)
            code = m.group(1) if m else None
    check("the code arrived in the Maildir", code is not None)
    addr = form(driver, "/confirm").find_element(By.NAME, "address")
    check("the code's form has the address", addr.get_attribute("value") ==
          "newbie@open.example")
    send(driver, "/confirm", {"code": "WRONG-CODE"})
    check("a wrong code: refused", "no such code" in text(driver))
    check("  nobody joined", "newbie@open.example" not in ctl("export", "open"))
    send(driver, "/confirm", {"address": "newbie@open.example",
                              "code": code or "x"})
    check("the right code: joined", "newbie@open.example" in ctl("export", "open"))
    # every JOIN mails a stranger: each counts against the client's
    # sign-in allowance (web.signin_limit = 6 here; two used above)
    driver.get(URL + "/")
    cs = csrf_of(driver, "/join")
    codes = []
    for i in range(8):
        st, _, _ = raw(driver, "/join", urllib.parse.urlencode(
            {"csrf": cs, "game": "open", "action": "join",
             "address": f"flood{i}@open.example",
             "password": "pw-flood-1"}).encode(), follow=False)
        codes.append(st)
    check(f"JOINs from one client stop at its allowance ({codes})",
          codes[:4] == [303] * 4 and codes[4:] == [403] * 4)
    print(f"{passed} passed, {failed} failed")


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        import traceback
        failed += 1
        print("FAIL: the browser session:", repr(e)[:500])
        traceback.print_exc(limit=3)
        print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

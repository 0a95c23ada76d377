#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""screenshots.py URL OUTDIR — PNGs of judgeweb's pages, whole pages at
1280 and 390 px wide, in headless Chromium (tests/web/screenshots.sh
starts judgeweb over its game "demo" and runs this):
front-W.png, game-W.png (signed in as France), desk-W.png (signed in as
the master, when the build has /game/NAME/desk).  Prints what it drew."""

import os
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

URL, OUT = sys.argv[1], sys.argv[2]


def settle(driver):
    driver.execute_script("return document.readyState")


def shoot(driver, width, path, name):
    driver.get(URL + path)
    settle(driver)
    height = driver.execute_script(
        "return Math.min(8000, document.documentElement.scrollHeight)")
    driver.set_window_size(width, height)
    for _ in range(3):  # the frame, if any, counted in
        inner = driver.execute_script("return window.innerWidth")
        if inner == width:
            break
        outer = driver.get_window_size()["width"]
        driver.set_window_size(outer + width - inner, height)
    driver.get(URL + path)
    settle(driver)
    file = os.path.join(OUT, f"{name}-{width}.png")
    driver.save_screenshot(file)
    print("drew", file)


def signin(driver, who, password):
    driver.get(URL + "/game/demo")
    form = driver.find_element(By.CSS_SELECTOR,
                               "form[action='/game/demo/signin']")
    form.find_element(By.NAME, "power").send_keys(who)
    form.find_element(By.NAME, "password").send_keys(password)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    driver.find_element(By.TAG_NAME, "footer")


def has_desk():
    try:
        urllib.request.urlopen(URL + "/game/demo/desk", timeout=10)
    except urllib.error.HTTPError as e:
        return e.code != 404 and e.code != 405
    except OSError:
        return False
    return True


def main():
    desk = has_desk()  # 404 to a stranger too when the route is not there
    for width in (1280, 390):
        profile = tempfile.mkdtemp(prefix="dj-chromium-")
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                     "--no-first-run", "--hide-scrollbars",
                     "--disable-dev-shm-usage", f"--window-size={width},900",
                     f"--user-data-dir={profile}"):
            opts.add_argument(flag)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                                  options=opts)
        try:
            shoot(driver, width, "/", "front")
            signin(driver, "France", "pw-France")
            shoot(driver, width, "/game/demo", "game")
            driver.delete_all_cookies()
            signin(driver, "master", "gm-password")
            status = driver.execute_script(
                "return fetch('/game/demo/desk').then(r => r.status)")
            if desk or status == 200:
                shoot(driver, width, "/game/demo/desk", "desk")
            else:
                print("no /game/NAME/desk in this build: no desk picture")
        finally:
            driver.quit()
            subprocess.run(["rm", "-rf", profile])


if __name__ == "__main__":
    main()

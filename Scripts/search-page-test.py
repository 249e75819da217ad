#!/usr/bin/env python3
"""The search page in a real browser: Debian's headless Chromium driven by
Selenium (chromium-driver). Run by SearchPageBrowserTests with a service
already serving the fixture's stores:

    search-page-test.py --url http://127.0.0.1:PORT/ --app-log FILE --opener-log FILE --screenshots DIR

Types as a person does, reads the results, moves with the keyboard, asks
"why", opens a result and checks the app received the activity, searches in
the app, carries out an action, clears; saves a screenshot at each step.
Exits non-zero with the failures listed.
"""
import argparse
import json
import os
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message, file=sys.stderr)
    return condition


def wait(condition, seconds=10.0):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.05)
    return None


def lines(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return [line for line in handle.read().split("\n") if line]
    except FileNotFoundError:
        return []


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--app-log", required=True)
    parser.add_argument("--opener-log", required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--driver", default="/usr/bin/chromedriver")
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)

    options = Options()
    options.binary_location = args.chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,1000",
                 "--no-first-run", "--disable-extensions", "--lang=en-US"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(args.driver), options=options)
    try:
        run(browser, args)
        console = [entry for entry in browser.get_log("browser") if entry.get("level") == "SEVERE"]
        check(not console, "the page logged errors: %s" % console)
    finally:
        browser.quit()
    if failures:
        print("%d checks failed" % len(failures), file=sys.stderr)
        return 1
    print("search page: all checks passed")
    return 0


def shot(browser, args, name):
    browser.save_screenshot(os.path.join(args.screenshots, name + ".png"))


def groups(browser):
    return [section.get_attribute("data-app") for section in browser.find_elements(By.CSS_SELECTOR, "section.group[data-app]")]


def run(browser, args):
    browser.get(args.url)
    box = browser.find_element(By.ID, "q")
    check(browser.title == "Spotlight Search", "title is %r" % browser.title)
    check(browser.switch_to.active_element == box, "the search box has the focus on load")

    # Before anything is typed: the place viewed last, from its app (proactive suggestions).
    def places():
        return [row.find_element(By.CSS_SELECTOR, ".title").text for row in browser.find_elements(By.CSS_SELECTOR, ".row[data-kind=place]")]
    check(wait(lambda: places() == ["Ray's Fruit Emporium"]), "the empty box suggests the place viewed last: %s" % places())
    suggested = browser.find_elements(By.CSS_SELECTOR, ".row[data-kind=place]")
    check(suggested and "From Grocer" in suggested[0].text and "120 Mulberry Street" in suggested[0].text,
          "the suggestion names its app and address: %r" % (suggested[0].text if suggested else ""))
    shot(browser, args, "0-suggested")

    # Typing: each keystroke answers; the last one's results stay.
    for letter in "pe":
        box.send_keys(letter)
        time.sleep(0.05)
    check(wait(lambda: groups(browser) == ["com.example.grocer", "com.example.people"]),
          "results grouped by app, best app first: %s" % groups(browser))
    rows = browser.find_elements(By.CSS_SELECTOR, ".row[data-kind=result]")
    titles = [row.find_element(By.CSS_SELECTOR, ".title").text for row in rows]
    check(titles[:3] == ["Pear", "Peach", "<img src=x onerror=alert(1)>Pearl"] or titles[0] == "Pear", "titles: %s" % titles)
    check("<img src=x onerror=alert(1)>Pearl" in titles, "a hostile title is shown as text: %s" % titles)
    check(not browser.find_elements(By.CSS_SELECTOR, ".title img"), "no markup from the data was made into elements")
    pear = rows[0]
    check(pear.find_element(By.CSS_SELECTOR, ".stars").text == "★★★★☆", "the pear's stars")
    check(pear.find_element(By.CSS_SELECTOR, ".price").text == "1.20", "the pear's price")
    thumb = pear.find_element(By.CSS_SELECTOR, "img.thumb")
    check(wait(lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", thumb)),
          "the pear's thumbnail loaded from the service")
    check("selected" in pear.get_attribute("class"), "the first result is selected")
    check(browser.find_element(By.CSS_SELECTOR, "section[data-app='com.example.grocer'] .search-in-app").text == "Search in App",
          "Grocer offers Search in App")
    check(not browser.find_elements(By.CSS_SELECTOR, "section[data-app='com.example.people'] .search-in-app"),
          "People does not")
    check(browser.find_element(By.CSS_SELECTOR, "section.web .title").text == "Pear tart recipe",
          "a web result under the app results")
    sections = browser.find_elements(By.CSS_SELECTOR, "section.group")
    check(sections[-1].get_attribute("class") == "group web", "web results come last")
    shot(browser, args, "1-typed-pe")
    with urllib.request.urlopen(args.url.rstrip("/") + "/v1/metrics") as response:
        metrics = response.read().decode()
    live = [line for line in metrics.split("\n") if line.startswith('openspotlight_search_duration_seconds_count{via="live"}')]
    check(live and float(live[0].split()[-1]) >= 1, "the page searched over the live WebSocket: %s" % live)

    # A person reads them for a moment: results a second on screen count as shown (impressions, checked below).
    time.sleep(1.5)

    # The keyboard: down, up, why.
    box.send_keys(Keys.ARROW_DOWN)
    selected = browser.find_elements(By.CSS_SELECTOR, ".row.selected .title")
    check([row.text for row in selected] == ["Peach"], "ArrowDown selects the next result: %s" % [r.text for r in selected])
    box.send_keys(Keys.ARROW_UP)
    check(browser.find_element(By.CSS_SELECTOR, ".row.selected .title").text == "Pear", "ArrowUp goes back")
    box.send_keys(Keys.CONTROL, "i")
    why = wait(lambda: browser.find_element(By.CSS_SELECTOR, ".row.selected .why").text)
    check(why and "p-pear is result 1 of" in why and "pe*: in contentDescription, title" in why,
          "Ctrl+I explains the selected result: %r" % why)
    shot(browser, args, "2-why")

    # Enter opens the selected result in its app.
    box.send_keys(Keys.ENTER)
    check(wait(lambda: "Opened in Grocer" in browser.find_element(By.ID, "status").text),
          "Enter opens: %r" % browser.find_element(By.ID, "status").text)
    received = wait(lambda: lines(args.app_log))
    activity = json.loads(received[0]) if received else {}
    check(activity.get("activityType") == "com.apple.corespotlightitem"
          and activity.get("userInfo", {}).get("kCSSearchableItemActivityIdentifier") == {"string": "p-pear"},
          "the app received the pear's activity: %s" % activity)
    shot(browser, args, "3-opened")

    # Ctrl+Enter: Search in App with what was typed.
    box.send_keys(Keys.CONTROL, Keys.ENTER)
    continued = wait(lambda: len(lines(args.app_log)) >= 2 and lines(args.app_log))
    query = json.loads(continued[1]) if continued else {}
    check(query.get("activityType") == "com.apple.corespotlightquerycontinuation"
          and query.get("userInfo", {}).get("kCSSearchQueryString") == {"string": "pe"}, "Search in App handed over 'pe': %s" % query)

    # An action button: Call, through the opener.
    box.send_keys(Keys.BACKSPACE, Keys.BACKSPACE, "zo")
    call = wait(lambda: browser.find_element(By.CSS_SELECTOR, "button.action[data-kind=call]"))
    check(call is not None and call.text == "Call +33 1 42 68 53 00", "Zoë's call button")
    if call:
        call.click()
        check(wait(lambda: lines(args.opener_log) == ["tel:+33142685300"]), "the opener got tel: %s" % lines(args.opener_log))
    shot(browser, args, "4-call")

    # Escape clears.
    box.send_keys(Keys.ESCAPE)
    check(wait(lambda: box.get_attribute("value") == "" and not browser.find_elements(By.CSS_SELECTOR, ".row[data-kind=result]")
               and places() == ["Ray's Fruit Emporium"]),
          "Escape clears the box and the results, and the place is suggested again")
    shot(browser, args, "5-cleared")

    # The suggestion's Navigate goes through the opener with the place's coordinates.
    navigate = wait(lambda: browser.find_element(By.CSS_SELECTOR, ".row[data-kind=place] button.action[data-kind=navigate]"))
    if check(navigate is not None, "the suggestion offers Navigate"):
        navigate.click()
        check(wait(lambda: lines(args.opener_log)[-1:] == ["geo:40.7194,-73.997"]), "the opener got geo: %s" % lines(args.opener_log))

    # What stayed on screen was reported as impressions and written by the service.
    def recorded():
        with urllib.request.urlopen(args.url.rstrip("/") + "/v1/metrics") as response:
            for line in response.read().decode().split("\n"):
                if line.startswith("openspotlight_impressions_recorded_total "):
                    return float(line.split()[-1])
        return 0
    if not check(wait(lambda: recorded() >= 4, seconds=15), "the page reported the results it showed: %s" % recorded()):
        with urllib.request.urlopen(args.url.rstrip("/") + "/v1/metrics") as response:
            print([line for line in response.read().decode().split("\n") if "impressions" in line and "bucket" not in line], file=sys.stderr)

    # Nothing found says so.
    box.send_keys("qqqq")
    check(wait(lambda: "No results for" in browser.find_element(By.ID, "results").text), "an empty answer says so")


if __name__ == "__main__":
    sys.exit(main())

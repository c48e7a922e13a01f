"""What every browser test stands on: a server for a data directory (the stand-in or the real
`tunnelvision ui`), headless Chromium, controls found by role and accessible name, the command's
own JSON as the oracle, screenshots in light and dark, and axe-core."""
import json
import os
import subprocess
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

HERE = os.path.dirname(os.path.abspath(__file__))


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Server:
    """`tunnelvision ui --json --no-open --data-dir D` or the development stand-in, on loopback."""

    def __init__(self, kind, binary, data_dir, listen=None):
        self.kind, self.binary, self.data_dir = kind, binary, data_dir
        if kind == "ui":
            command = [binary, "ui", "--json", "--no-open", "--data-dir", data_dir] + (["--listen", listen] if listen else [])
        else:
            command = [sys.executable, os.path.join(HERE, "standin_server.py"), "--binary", binary, "--data-dir", data_dir]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the server did not start: {' '.join(command)}\n{self.process.stderr.read()}")
        announced = json.loads(line)
        self.printed, self.listen = announced["url"], announced.get("listen")
        parts = urllib.parse.urlsplit(self.printed)
        self.origin = f"{parts.scheme}://{parts.netloc}"

    @property
    def url(self):
        """An address to log in with. A key opens one browser once, so the printed address serves
        the first time and `tunnelvision ui link` makes each later one (the stand-in's key lasts)."""
        if self.printed is not None and self.kind == "ui":
            url, self.printed = self.printed, None
            return url
        if self.kind != "ui":
            return self.printed
        result = subprocess.run([self.binary, "ui", "link", "--json", "--data-dir", self.data_dir],
                                capture_output=True, text=True, timeout=30)
        for line in result.stdout.splitlines():
            answer = json.loads(line)
            if answer["listen"] == self.listen:
                return answer["url"]
        raise Failure(f"ui link made no address for {self.listen}: {result.stderr.strip()}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def oracle(binary, data_dir, *arguments):
    """What the command answers with --json: the truth a screen is checked against."""
    result = subprocess.run([binary, *arguments, "--json", "--data-dir", data_dir], capture_output=True, text=True, timeout=60)
    answered = result.returncode == 1 and result.stdout.strip().startswith("{") and not result.stderr.strip()
    if result.returncode != 0 and not answered:   # diagnostics with no tunnel: JSON, exit status 1
        raise Failure(f"tunnelvision {' '.join(arguments)} failed: {result.stderr.strip()}")
    return json.loads(result.stdout)


# True once the page's media query matches the emulated scheme and two frames have been painted
# since (the first frame after a style change may still be the old one).
SCHEME_PAINTED = """
const [scheme, done] = arguments;
if (!matchMedia(`(prefers-color-scheme: ${scheme})`).matches) { done(false); return; }
requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
"""

# The accessible name, as far as these pages need it: aria-label, aria-labelledby, a label, the text.
FIND_BY_ROLE = """
const [role, name, exact] = arguments;
const implicit = {button: 'button, input[type=submit], input[type=button]', link: 'a[href]', heading: 'h1,h2,h3,h4,h5,h6',
  checkbox: 'input[type=checkbox]', combobox: 'select', searchbox: 'input[type=search]',
  textbox: 'input[type=text], input:not([type]), textarea', navigation: 'nav',
  list: 'ul, ol', listitem: 'li', table: 'table', row: 'tr', alert: '[role=alert]', slider: '[role=slider]', search: 'form[role=search]'};
const candidates = [...document.querySelectorAll(`[role=${role}]` + (implicit[role] ? ', ' + implicit[role] : ''))];
function accessibleName(el) {
  if (el.getAttribute('aria-label')) return el.getAttribute('aria-label');
  if (el.getAttribute('aria-labelledby')) return el.getAttribute('aria-labelledby').split(' ').map(id => document.getElementById(id)?.textContent ?? '').join(' ');
  if (el.id && document.querySelector(`label[for="${el.id}"]`)) return document.querySelector(`label[for="${el.id}"]`).textContent;
  if (el.closest('label')) return el.closest('label').textContent;
  return el.textContent;
}
const visible = el => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
return candidates.filter(el => visible(el)).filter(el => {
  const text = accessibleName(el).replace(/\\s+/g, ' ').trim();
  return name === null || (exact ? text === name : text.includes(name));
});
"""


class Browser:
    def __init__(self, artifacts, width=1280, height=900):
        options = Options()
        options.add_argument("--headless=new")
        options.add_argument("--no-sandbox")       # root needs it
        options.add_argument(f"--window-size={width},{height}")
        options.add_argument("--lang=en-GB")
        options.binary_location = "/usr/bin/chromium"
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
        self.artifacts = artifacts
        self.scheme = "light"

    def quit(self):
        self.driver.quit()

    def go(self, url):
        self.driver.get(url)

    def route(self, hash_route):
        self.driver.execute_script("location.hash = arguments[0]", hash_route)

    def find(self, role, name=None, exact=False):
        return self.driver.execute_script(FIND_BY_ROLE, role, name, exact)

    def one(self, role, name=None, exact=False, timeout=10):
        found = self.wait(lambda: self.find(role, name, exact), timeout, f"no {role} named {name!r}")
        return found[0]

    def press(self, role, name=None, exact=False, timeout=10):
        """Clicks the control, finding it again if the screen redrew it meanwhile."""
        def attempt():
            try:
                self.one(role, name, exact, timeout=timeout).click()
                return True
            except StaleElementReferenceException:
                return False
        self.wait(attempt, timeout, f"could not press the {role} named {name!r}")

    def css(self, selector):
        return self.driver.find_elements("css selector", selector)

    def text(self):
        return self.driver.find_element("css selector", "main").text

    def wait(self, condition, timeout=10, message="timed out"):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            try:
                last = condition()
                if last:
                    return last
            except Failure:
                raise   # the condition's own verdict: waiting longer cannot change it
            except Exception as error:  # a page mid-render: ask again
                last = error
            time.sleep(0.1)
        raise Failure(f"{message} (after {timeout} s; last: {str(last)[:300]})")

    def wait_text(self, text, timeout=10):
        return self.wait(lambda: text in self.text(), timeout, f"the screen never said {text!r}; it says {self.text()[:400]!r}")

    def color_scheme(self, scheme):
        """Emulates `scheme` and returns once the page sees it and has painted a frame with it."""
        self.scheme = scheme
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                    {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        self.wait(lambda: self.driver.execute_async_script(SCHEME_PAINTED, scheme), 10, f"the page never painted in {scheme}")

    def screenshot(self, name):
        """What the window shows, in the current scheme: ARTIFACTS/NAME-light.png."""
        path = os.path.join(self.artifacts, f"{name}-{self.scheme}.png")
        self.driver.save_screenshot(path)
        return path

    def axe(self):
        """axe-core's serious and critical violations of the page as drawn now."""
        from axe_selenium_python import Axe
        axe = Axe(self.driver)
        axe.inject()
        self.driver.set_script_timeout(300)   # a 500-packet table is a big page for axe
        started = time.time()
        results = axe.run()
        self.axe_seconds = getattr(self, "axe_seconds", 0) + time.time() - started
        return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:4]}"
                for v in results["violations"] if v.get("impact") in ("serious", "critical")]

    def console_problems(self):
        """Errors the page logged (a script that threw, a CSP refusal) since the last call."""
        return [entry["message"] for entry in self.driver.get_log("browser")
                if (entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"])
                or "Content Security Policy" in entry["message"]]

"""A headless Chromium driven through the DevTools protocol over --remote-debugging-pipe (Python's standard library
only; tests/e2e/view_check.py). The browser reads commands on its fd 3 and writes replies and events on its fd 4,
each a JSON message ended by a NUL byte. One browser serves every page of a test; a page is opened in one tab whose
console errors and uncaught exceptions are collected."""
import base64, fcntl, json, os, subprocess, tempfile, time


class Chromium:
    def __init__(self, width=1500, height=1100):
        self.profile = tempfile.mkdtemp(prefix="cdp-")
        r_cmd, w_cmd = os.pipe()    # we write commands, the browser reads them on its fd 3
        r_ev, w_ev = os.pipe()      # the browser writes on its fd 4, we read
        # the child's ends above 10 first, so that moving them to 3 and 4 cannot overwrite one with the other
        hi_cmd, hi_ev = fcntl.fcntl(r_cmd, fcntl.F_DUPFD, 10), fcntl.fcntl(w_ev, fcntl.F_DUPFD, 10)
        os.close(r_cmd)
        os.close(w_ev)
        r_cmd, w_ev = hi_cmd, hi_ev
        def child():
            os.dup2(r_cmd, 3)       # dup2 leaves the copies inheritable (the originals are close-on-exec)
            os.dup2(w_ev, 4)
        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
             "--disable-extensions", "--force-device-scale-factor=1", "--window-size=%d,%d" % (width, height),
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "about:blank"],
            close_fds=False, preexec_fn=child, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_cmd)
        os.close(w_ev)
        self.w, self.r = w_cmd, r_ev
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None
        self.width, self.height = width, height
        tid = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": tid, "flatten": True})["sessionId"]
        for m in ["Page.enable", "Runtime.enable", "Log.enable"]:
            self.call(m)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def _read(self, timeout):
        end = time.time() + timeout
        while b"\0" not in self.buf:
            if time.time() > end:
                raise TimeoutError("chromium: no reply")
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, timeout=30):
        self.next_id += 1
        m = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session and not method.startswith("Target."):
            m["sessionId"] = self.session
        os.write(self.w, json.dumps(m).encode() + b"\0")
        while True:
            r = self._read(timeout)
            if r.get("id") == self.next_id:
                if "error" in r:
                    raise RuntimeError("%s: %s" % (method, r["error"]))
                return r.get("result", {})
            self.events.append(r)

    def wait_event(self, method, timeout=30):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            e = self._read(timeout)
            if e.get("method") == method:
                return e
            self.events.append(e)

    def open(self, url):
        """(url) => the page loaded; the console errors collected so far are dropped"""
        self.events = []
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def errors(self):
        """console errors, uncaught exceptions and error log entries since the page was opened"""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: %s %s" % (d.get("text", ""), d.get("exception", {}).get("description", "")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console.%s: %s" % (p["type"], " ".join(str(a.get("value", a.get("description", "")))
                                                                     for a in p.get("args", []))))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: " + p["entry"].get("text", ""))
        return out

    def eval(self, expr):
        """(JavaScript expression, may be a promise) => its value"""
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("evaluate: " + r["exceptionDetails"].get("text", "") + " " +
                               r["exceptionDetails"].get("exception", {}).get("description", ""))
        return r["result"].get("value")

    def screenshot(self, path):
        r = self.call("Page.captureScreenshot", {"format": "png"})
        with open(path, "wb") as f:
            f.write(base64.b64decode(r["data"]))

    def close(self):
        self.session = None   # a browser command, not the tab's
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.w)
        os.close(self.r)
        subprocess.run(["rm", "-rf", self.profile])

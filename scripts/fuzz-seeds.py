#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (fuzz/seeds/KIND/) from the
project's fixtures, small: the fuzzer starts from real inputs of every
parser and mutates from there.

    python3 scripts/fuzz-seeds.py

Run it again when a fixture changes; scripts/fuzz.sh reads the seeds and
never writes to them (what the fuzzer finds goes to a working corpus under
the target directory).
"""

import json
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fuzz" / "seeds"
PROBES = ROOT / "probes" / "fixtures"
HTTP = ROOT / "tests" / "fixtures" / "http"


def put(kind, name, data):
    path = SEEDS / kind / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def settings():
    # The small files whole, and the first 80 lines of the large ones.
    for path in sorted((PROBES / "settings").rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if len(data) > 6000:
            data = b"".join(data.splitlines(keepends=True)[:80])
        put("settings", path.relative_to(PROBES / "settings").as_posix().replace("/", "_"), data)


def autoload():
    # The head and tail of each class map (the generator's layout, with
    # namespaced and odd keys), and the variants the format allows.
    for path in sorted((PROBES / "autoload").glob("*.php")):
        lines = path.read_bytes().splitlines(keepends=True)
        put("autoload", path.name, b"".join(lines[:40] + lines[-4:]))
    variants = {
        "short_array": "<?php\nreturn [\n    'A\\\\B' => 'vendor/a/B.php',\n    'eZX' => 'kernel/x.php'\n];\n",
        "split_lines": "<?php # c\n// c\nreturn\tARRAY (\n'eZ\\'Q'\n  =>\n\t'lib/q.php' , /* c */ ) ;\n?>\n\n",
        "odd_key": "<?php return array('$name Builder\\\\Namespace_\\\\string' => 'vendor/s.php',);",
        "empty": "<?php return array();",
    }
    for name, text in variants.items():
        put("autoload", f"{name}.php", text)


def hostile_templates():
    # The shapes of probes/tests/hostile/mod.rs, a little past the limits:
    # the fuzzer mutates from nesting and growth as well as from designs.
    shapes = {
        "pipes": "{1" + "|sum(1)" * 80 + "}",
        "pipes_attributes": "{$h" + "|extract(0).b" * 40 + "}",
        "parentheses": "{sum(" + "(" * 80 + "1" + ")" * 80 + ")}",
        "calls": "{" + "sum(" * 80 + "1" + ")" * 80 + "}",
        "indexes": "{" + "$a[" * 80 + "0" + "]" * 80 + "}",
        "blocks": "{if 1}" * 220 + "x" + "{/if}" * 220,
        "concat_doubling": "{def $s='0123456789abcdef'}" + "{set $s=concat($s,$s)}\n" * 30,
        "merge_doubling": "{def $a=array(1,2,3,4)}" + "{set $a=$a|merge($a)}\n" * 30,
        "nested_loop": "{def $a=array()}{for 1 to 100 as $i}{set $a=array($a)}{/for}",
        "indent": "{def $s='\\n'|repeat(65536)|repeat(16)}{$s|indent(10000)|count}",
    }
    for name, source in shapes.items():
        put("template", f"hostile_{name}.tpl", source)


def templates():
    for path in sorted((PROBES / "design").rglob("*.tpl")):
        put("template", path.relative_to(PROBES / "design").as_posix().replace("/", "_"), path.read_bytes())


def catalogue():
    # The header, then one message of each kind the loader treats apart:
    # plural forms, unfinished and empty translations, relative locations,
    # comments, entities.
    text = (PROBES / "translations" / "kernel_de.ts").read_text(encoding="utf-8")
    head = text.split("<context>", 1)[0]
    messages = re.findall(r"<message.*?</message>", text, re.S)
    picked = []
    for wanted in ('numerus="yes"', 'type="unfinished"', "<translation", 'line="+',
                   "<comment>", "&apos;", "<translation type=\"unfinished\"></translation>"):
        found = next((m for m in messages if wanted in m and m not in picked), None)
        if found:
            picked.append(found)
    body = "<context>\n    <name>kernel/fuzz</name>\n    " + "\n    ".join(picked) + "\n</context>\n"
    put("catalogue", "kernel_de_excerpt.ts", head + body + "</TS>\n")
    put("catalogue", "minimal.ts", '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n'
        '<TS version="2.1" language="de_DE"><context><name>a</name><message>'
        '<source>x</source><translation>y</translation></message></context></TS>\n')


def router():
    probe = (ROOT / "probes" / "src" / "router" / "probe.rs").read_text()
    block = probe.split("URLS: [&str; 10] = [", 1)[1].split("];", 1)[0]
    for i, url in enumerate(re.findall(r'"([^"]*)"', block)):
        put("router", f"path-{i}", url)
    put("router", "query", "/content/search?SearchText=a%20b&Sub[]=1&Sub[]=2#top")


def runs():
    base = json.loads(next((ROOT / "baselines" / "micro").glob("*.json")).read_text())
    base["rows"] = base["rows"][:2]
    for row in base["rows"]:
        row["samples"] = row["samples"][:3]
        row["calibration_samples"] = row["calibration_samples"][:3]
        row["n"] = row["requests"] = 3
    base["environment"]["cpu"] = {k: v for k, v in base["environment"].get("cpu", {}).items()
                                  if not isinstance(v, (list, dict))}
    micro = json.dumps(base, indent=1)
    slower = json.loads(micro)
    for row in slower["rows"]:
        row["samples"] = [s * 1.5 for s in row["samples"]]
        row["median"] *= 1.5
    http = {
        "tool": "yardstick", "format": 1, "mode": "http", "started": "2026-12-01T00:00:00Z",
        "machine": "vm", "settings": {"servers": ["http://127.0.0.1:8080"], "pages": ["/"],
                                      "tool": "builtin", "tools_found": ["ab"]},
        "environment": base["environment"],
        "rows": [{"key": "http://127.0.0.1:8080 /", "kind": "page", "name": "/", "n": 3,
                  "median": 1.5, "p95": 2.0, "samples": [1.0, 1.5, 2.0], "requests": 4,
                  "errors": 1, "error_messages": {"Connection refused": 1},
                  "status": {"200": 3, "failed": 1}, "target": "http://127.0.0.1:8080",
                  "url": "http://127.0.0.1:8080/", "server": "nginx", "rps": 900.0,
                  "tool": "builtin", "cache": {"HIT": 3}}],
    }
    http_text = json.dumps(http, indent=1)
    put("run", "micro.json", micro)
    put("run", "http.json", http_text)
    # Runs of exp:benchmark, which the same reader imports.
    for name in ("micro", "http", "kernel"):
        put("run", f"exp-benchmark-{name}.json",
            (ROOT / "tests" / "fixtures" / "exp-benchmark" / f"{name}.json").read_bytes())
    # compare_runs: a rules byte, then the baseline and the run, NUL between.
    put("compare", "micro-slower", b"\x01" + micro.encode() + b"\0" + json.dumps(slower).encode())
    put("compare", "http-same", b"\x03" + http_text.encode() + b"\0" + http_text.encode())


def tools():
    # A folder holds one version's outputs (oha-1.16.0/): its files, named
    # with the folder's name.
    paths = []
    for path in sorted(HTTP.iterdir()):
        if path.is_dir():
            paths += [(f"{path.name}-{f.name}", f) for f in sorted(path.iterdir()) if f.is_file()]
        else:
            paths.append((path.name, path))
    for name, path in paths:
        tool = name.split("-")[0]
        # A version folder's percentile files and notes (made.txt) are no
        # tool's output.
        if path.suffix == ".csv" or (path.suffix == ".txt" and path.parent != HTTP):
            continue
        data = path.read_bytes()
        if tool == "ab" and (HTTP / (path.stem + "-percentiles.csv")).exists():
            # stdout, stderr and the percentile file, NUL between.
            data += b"\0\0" + (HTTP / (path.stem + "-percentiles.csv")).read_bytes()
        put(tool, name, data)


def urls():
    for i, url in enumerate([
        "http://127.0.0.1:8080/a/b?x=1",
        "https://[::1]/",
        "http://user:p%2Fss@localhost:81/p",
        "http://u:pa/ss@host/",
        "HTTPS://Example.COM:8443/app/?q=a@b#f",
    ]):
        put("url", f"url-{i}", url)


def site_documents():
    # The demo site's own documents, as it serves them, and a page head.
    put("site_documents", "sitemap.xml",
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        '  <url><loc>http://127.0.0.1:8080/</loc><priority>1.0</priority></url>\n'
        '  <url><loc>http://127.0.0.1:8080/news?a=1&amp;b=2</loc><priority>0.5</priority></url>\n'
        '  <url><loc><![CDATA[http://127.0.0.1:8080/x]]></loc></url>\n'
        '</urlset>\n')
    put("site_documents", "opensearch.xml",
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">\n'
        '  <ShortName>Demo &amp; site</ShortName>\n'
        '  <Url type="text/html" method="get" '
        'template="http://127.0.0.1:8080/content/search?SearchText={searchTerms}&amp;p={startPage?}"/>\n'
        '</OpenSearchDescription>\n')
    put("site_documents", "link-header",
        '</opensearch.xml>; rel="search"; type="application/opensearchdescription+xml", '
        '</user/login>; rel="login"')
    put("site_documents", "head.html",
        '<html><head><link rel="search" href="/os.xml?a=1&amp;b=2" '
        "type='application/opensearchdescription+xml'><LINK REL=login HREF=/user/login>"
        '</head></html>')


def k6_output():
    # Real k6 output (its first 40 lines), a pod's log with k6's own log
    # lines, a dropped iteration, and a timed run's end mark.
    real = (ROOT / "tests" / "fixtures" / "k6" / "six-requests.json").read_bytes()
    put("k6_output", "six-requests", b"".join(real.splitlines(keepends=True)[:40]))
    point = ('{"metric":"http_req_failed","type":"Point","data":{"time":"2026-12-03T20:31:23Z",'
             '"value":0,"tags":{"expected_response":"true","name":"/","server":"0","round":"1",'
             '"status":"200","proto":"HTTP/1.1","segment":"0:1/2"}}}\n')
    put("k6_output", "pod-log",
        'time="2026-12-03T20:31:23Z" level=info msg="hello" source=console\n' + point * 2)
    put("k6_output", "dropped",
        '{"metric":"dropped_iterations","type":"Point","data":{"time":"2026-12-03T20:31:23Z",'
        '"value":1,"tags":{"scenario":"b0"}}}\n')
    put("k6_output", "end-mark",
        point + '{"metric":"yardstick_end","type":"Point","data":{"time":"2026-12-03T20:31:23Z",'
        '"value":1,"tags":{"scenario":"end","segment":"0:1/2"}}}\n')


def http_answers():
    # The first byte is how many bytes the peer sends at a time (0: all).
    answers = {
        "length": b"HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 5\r\n\r\nhello",
        "chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                   b"5;x=1\r\nhello\r\n0\r\nX-T: 1\r\n\r\n",
        "to-close": b"HTTP/1.0 200 OK\r\n\r\nabc",
        "informational": b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\n"
                         b"Link: </a.css>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
        "both-framings": b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"
                         b"Transfer-Encoding: gzip, chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n",
    }
    for i, (name, answer) in enumerate(answers.items()):
        put("http_answer", name, bytes([i * 3]) + answer)


def http2_answers():
    # The first byte is how many bytes the peer sends at a time (0: all);
    # then the server's frames, from its SETTINGS.
    def frame(kind, flags, stream, payload=b""):
        return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload
    settings = frame(0x4, 0, 0)
    answers = {
        "data": frame(0x1, 0x4, 1, b"\x88") + frame(0x0, 0, 1, b"hel") + frame(0x0, 0x1, 1, b"lo"),
        "continuation": frame(0x1, 0x20, 1, b"\0\0\0\0\x10\x88")
                        + frame(0x9, 0x4, 1, b"\x0f\x0d\x015") + frame(0x0, 0x9, 1, b"\x01hello\0"),
        "interim": frame(0x1, 0x4, 1, b"\x08\x03103") + frame(0x6, 0, 0, b"\0" * 8)
                   + frame(0x1, 0x5, 1, b"\x88"),
        "indexed": frame(0x1, 0x4, 1, b"\x88\x40\x06server\x05nginx")
                   + frame(0x1, 0x5, 3, b"\x88\xbe"),
        "reset": frame(0x1, 0x4, 1, b"\x88") + frame(0x3, 0, 1, b"\0\0\0\0"),
    }
    for i, (name, answer) in enumerate(answers.items()):
        put("http2_answer", name, bytes([i * 3]) + settings + answer)


def main():
    shutil.rmtree(SEEDS, ignore_errors=True)
    for make in (autoload, settings, templates, hostile_templates, catalogue, router, runs, tools, urls,
                 site_documents, k6_output, http_answers, http2_answers):
        make()
    for kind in sorted(SEEDS.iterdir()):
        files = list(kind.iterdir())
        print(f"{kind.name}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")


if __name__ == "__main__":
    main()

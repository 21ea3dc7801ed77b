"""What syncing a cache write costs on this machine's disk: a 16 KB entry
written to a temporary file and renamed over the entry (how the file cache
wrote before it went through yardstick::fs), against the same with the file
synced before the rename and the folder after it (yardstick::fs). The two
alternate, ROUNDS times each (default 200), in a folder under target/; the
medians and their ratio are printed.

    python3 scripts/sync-cost.py [ROUNDS]
"""

import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENTRY = bytes(i % 251 for i in range(16 * 1024))


def write(folder, synced):
    """One atomic write of ENTRY; returns its seconds."""
    target = folder / "entry.cache"
    tmp = folder / f".entry.cache.{os.getpid()}.tmp"
    start = time.perf_counter()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, ENTRY)
    if synced:
        os.fsync(fd)
    os.close(fd)
    os.rename(tmp, target)
    if synced:
        d = os.open(folder, os.O_RDONLY)
        os.fsync(d)
        os.close(d)
    return time.perf_counter() - start


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    folder = ROOT / "target" / "sync-cost"
    folder.mkdir(parents=True, exist_ok=True)
    plain, synced = [], []
    for _ in range(rounds):
        plain.append(write(folder, False))
        synced.append(write(folder, True))
    p, s = statistics.median(plain), statistics.median(synced)
    print(f"16 KB entry, {rounds} writes each, alternating, in {folder}")
    print(f"renamed:                        median {p * 1e3:.3f} ms")
    print(f"synced, renamed, folder synced: median {s * 1e3:.3f} ms")
    print(f"ratio {s / p:.1f}, added {(s - p) * 1e3:.3f} ms per write")


if __name__ == "__main__":
    main()

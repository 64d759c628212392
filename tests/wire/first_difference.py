#!/usr/bin/env python3
"""The first difference of a mock_judge.py --report file, on one line.

    first_difference.py REPORT.json
"""

import json
import sys


def main():
    d = json.load(open(sys.argv[1], encoding="utf-8"))["differences"][0]
    f = d["first"]
    at = f" at byte {f['offset']}" if "offset" in f else ""
    line = f"{d['operation']} over {d['binding']}: {f['field']}{at}: host {f['host']!r} / rmm {f['mock']!r}"
    print(line.replace("\t", " ").replace("\n", " ")[:600])


if __name__ == "__main__":
    main()

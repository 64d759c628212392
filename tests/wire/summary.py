#!/usr/bin/env python3
"""The tables of tests/wire/run.sh's results: one a corpus, each with its totals.

    summary.py OUT    (OUT/results.tsv, OUT/too-large.txt) prints Markdown
"""

import os
import sys

COLUMNS = ["corpus", "wsdl", "ops", "import", "imported", "host", "judged", "identical",
           "different", "skipped", "note", "statuses", "sampled", "not_sample",
           "valued", "echo_identical", "echo_different", "params_absent", "echoing", "echo_note"]


def main():
    out = sys.argv[1]
    rows = []
    for line in open(os.path.join(out, "results.tsv"), encoding="utf-8"):
        fields = line.rstrip("\n").split("\t")
        fields += [""] * (len(COLUMNS) - len(fields))
        rows.append(dict(zip(COLUMNS, fields)))
    large = []
    path = os.path.join(out, "too-large.txt")
    if os.path.exists(path):
        large = [line.rstrip("\n").split("\t") for line in open(path, encoding="utf-8") if line.strip()]
    corpora = []
    for row in rows:
        if row["corpus"] not in corpora:
            corpora.append(row["corpus"])
    for corpus, _ in large:
        if corpus not in corpora:
            corpora.append(corpus)
    for corpus in corpora:
        print(f"### {corpus}\n")
        sample = any(r["sampled"] for r in rows if r["corpus"] == corpus)
        extra = " sampled | not a sample |" if sample else ""
        print("| WSDL | ops | rmm imports | imported | host | judged | identical | identical by status | different |"
              + extra + " first difference / why not judged |")
        print("|---|---:|---|---:|---|---:|---:|---|---:|" + ("---:|---:|" if sample else "") + "---|")
        totals = dict(ops=0, imported=0, judged=0, identical=0, different=0, sampled=0, not_sample=0)
        files = 0
        for row in rows:
            if row["corpus"] != corpus:
                continue
            files += 1
            for key in totals:
                totals[key] += int(row[key]) if row[key].isdigit() else 0
            note = row["note"].replace("|", "\\|")
            print(f"| {row['wsdl']} | {row['ops']} | {row['import']} | {row['imported']} | {row['host']} "
                  f"| {row['judged']} | {row['identical']} | {row['statuses']} | {row['different']} |"
                  + (f" {row['sampled']} | {row['not_sample']} |" if sample else "") + f" {note} |")
        for c, name in large:
            if c == corpus:
                print(f"| {name} | | | | | | | | |" + (" | |" if sample else "") + " over 1 MB: not run |")
        print(f"| **total ({files} WSDLs)** | **{totals['ops']}** | | **{totals['imported']}** | "
              f"| **{totals['judged']}** | **{totals['identical']}** | | **{totals['different']}** |"
              + (f" **{totals['sampled']}** | **{totals['not_sample']}** |" if sample else "") + " |\n")
        echo_table(corpus, rows)


def echo_table(corpus, rows):
    """With WIRE_ECHO=1: `rmm mock --answer echo` judged by the host's echo services with
    requests carrying values (mock_judge.py --values), a table of its own."""
    rows = [r for r in rows if r["corpus"] == corpus and r["valued"] != ""]
    if not rows:
        return
    print(f"#### {corpus}: requests with values, answered by echo\n")
    print("| WSDL | exchanges with values | identical | different | parameters left absent "
          "| echoing a value | first difference / why not judged |")
    print("|---|---:|---:|---:|---:|---:|---|")
    keys = ["valued", "echo_identical", "echo_different", "params_absent", "echoing"]
    totals = dict.fromkeys(keys, 0)
    for row in rows:
        for key in keys:
            totals[key] += int(row[key]) if row[key].isdigit() else 0
        note = row["echo_note"].replace("|", "\\|")
        print(f"| {row['wsdl']} | " + " | ".join(row[k] for k in keys) + f" | {note} |")
    print(f"| **total ({len(rows)} WSDLs)** | " + " | ".join(f"**{totals[k]}**" for k in keys) + " | |\n")


if __name__ == "__main__":
    main()

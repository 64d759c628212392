#!/usr/bin/env python3
"""Runs the README's quick start exactly as written, for tests/outside/run.sh.

    quickstart.py README DIR      runs every quick start section of README (below), in
                                  order, in one bash from DIR; prints each command's time
    quickstart.py --wait-listen PID
                                  waits until PID or a process below it listens on a TCP port

A section is the README's text between `<!-- ANCHOR: quickstart-NAME -->` and
`<!-- ANCHOR_END: quickstart-NAME -->` (mdBook's anchors: the guide's Getting started chapter
includes the same sections). In it:

- each line of a ```sh block is a command, run as it is (`set -euo pipefail`): a command that
  fails fails the test. A command ending in `&` runs in the background, and the next one waits
  until it listens on a port (a server being built and started). A comment ending `prints: TEXT`
  after a command says what it prints: its standard output must hold TEXT.
- a ```rust or ```toml block whose first line is a comment naming a file (`// src/main.rs`,
  `# Cargo.toml`) is that file's whole text, written where the commands stand then.

So the README cannot say one thing and the test run another. Nothing is substituted: what the
quick start reaches (the network, a service) is the environment's to provide.
"""

import os
import re
import shlex
import sys
import time

START = re.compile(r"^<!-- ANCHOR: quickstart-(\S+) -->$")
END = re.compile(r"^<!-- ANCHOR_END: quickstart-(\S+) -->$")
FENCE = re.compile(r"^```(\S*)")
FILE_COMMENT = re.compile(r"^(?://|#) (\S+\.(?:rs|toml))$")
PRINTS = re.compile(r"\s#[^#]*\bprints: (.+)$")
COMMENT = re.compile(r"\s{2,}#.*$")


def sections(readme):
    """[(name, [(kind, info, lines)])]: each quick start's fenced blocks, in order."""
    found, current, block = [], None, None
    for number, line in enumerate(open(readme, encoding="utf-8").read().split("\n"), 1):
        if block is not None:
            if line.startswith("```"):
                current[1].append(tuple(block))
                block = None
            else:
                block[2].append(line)
            continue
        start = START.match(line)
        if start:
            if current:
                sys.exit(f"{readme}:{number}: a quick start inside another")
            current = (start.group(1), [])
        elif END.match(line):
            if not current or END.match(line).group(1) != current[0]:
                sys.exit(f"{readme}:{number}: an end without its start")
            found.append(current)
            current = None
        elif current and FENCE.match(line):
            info = FENCE.match(line).group(1)
            block = [info.split(",")[0], info, []]
    if current or block:
        sys.exit(f"{readme}: a quick start or block left open")
    return found


def script(found, runner):
    """The bash that runs them, one command at a time, each timed."""
    out = ["set -euo pipefail", "step_started=0"]
    for name, blocks in found:
        out.append(f"echo {shlex.quote('== quick start: ' + name)}")
        background = False
        for kind, info, lines in blocks:
            if kind in ("sh", "bash"):
                for line in lines:
                    if not line.strip() or line.lstrip().startswith("#"):
                        continue
                    prints = PRINTS.search(line)
                    command = COMMENT.sub("", line).rstrip()
                    if background:
                        out.append(f"python3 {shlex.quote(runner)} --wait-listen \"$last_pid\"")
                        background = False
                    out.append(f"echo {shlex.quote('$ ' + command)}")
                    out.append("step_started=$SECONDS")
                    if command.endswith("&"):
                        out.append(command)
                        out.append("last_pid=$!")
                        background = True
                        continue
                    if prints:
                        out.append(f"{{ {command}\n}} | tee \"$QUICKSTART_OUT\"")
                        want = prints.group(1).strip()
                        out.append(
                            f"grep -qF -- {shlex.quote(want)} \"$QUICKSTART_OUT\" || "
                            f"{{ echo {shlex.quote('quick start: it did not print ' + want)} >&2; exit 1; }}"
                        )
                    else:
                        out.append(command)
                    out.append(
                        "printf '%5s s  %s\\n' \"$((SECONDS - step_started))\" "
                        f"{shlex.quote(command)} >>\"$QUICKSTART_TIMES\""
                    )
            else:
                first = lines[0] if lines else ""
                named = FILE_COMMENT.match(first)
                if not named:
                    continue
                path = named.group(1)
                text = "\n".join(lines) + "\n"
                out.append(f"mkdir -p \"$(dirname {shlex.quote(path)})\"")
                out.append(f"cat >{shlex.quote(path)} <<'QUICKSTART_EOF'\n{text}QUICKSTART_EOF")
                out.append(f"echo {shlex.quote('wrote ' + path)}")
        if background:
            out.append(f"python3 {shlex.quote(runner)} --wait-listen \"$last_pid\"")
    return "\n".join(out) + "\n"


def descendants(pid):
    """pid and every process below it."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = open(f"/proc/{entry}/stat").read()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces; the parent follows the state.
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


def listening_inodes():
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == "0A":  # LISTEN
                inodes.add(fields[9])
    return inodes


def wait_listen(pid, seconds=900):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if not os.path.exists(f"/proc/{pid}"):
            sys.exit(f"quick start: the background command (pid {pid}) ended before it listened")
        listening = listening_inodes()
        for p in descendants(pid):
            try:
                fds = os.listdir(f"/proc/{p}/fd")
            except OSError:
                continue
            for fd in fds:
                try:
                    target = os.readlink(f"/proc/{p}/fd/{fd}")
                except OSError:
                    continue
                if target.startswith("socket:[") and target[8:-1] in listening:
                    return
        time.sleep(0.2)
    sys.exit(f"quick start: the background command (pid {pid}) did not listen within {seconds} s")


def main():
    if sys.argv[1:2] == ["--wait-listen"]:
        wait_listen(int(sys.argv[2]))
        return
    readme, directory = sys.argv[1], sys.argv[2]
    found = sections(readme)
    if not found:
        sys.exit(f"{readme}: no quick start")
    text = script(found, os.path.abspath(__file__))
    path = os.path.join(directory, "quickstart.sh")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    env = dict(os.environ)
    env.setdefault("QUICKSTART_OUT", os.path.join(directory, "quickstart.out"))
    env.setdefault("QUICKSTART_TIMES", os.path.join(directory, "quickstart.times"))
    open(env["QUICKSTART_TIMES"], "w").close()
    os.chdir(directory)
    os.execvpe("bash", ["bash", path], env)


if __name__ == "__main__":
    main()

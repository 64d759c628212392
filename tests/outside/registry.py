#!/usr/bin/env python3
"""A local Cargo registry of the given packages, as a registry would serve them.

    registry.py DIR PACKAGE.crate...

DIR/index is a git index (Cargo's registry index format: config.json and one file of JSON
lines per crate, at the path its name gives), DIR/crates holds the .crate files it downloads
from (file:// URLs). Each entry is read from the package's own normalized Cargo.toml, the one
`cargo package` wrote into the .crate: its dependencies (kind, features, optional, default
features, target, renames), its features and its checksum. A dependency on another of the
given packages is of this registry; every other one is of crates.io, as the published crate's
would be.

The tools that make one (cargo-local-registry, margo) are not on a fresh machine, and a
test's registry of two crates needs little of them; the format is small and stable:
https://doc.rust-lang.org/cargo/reference/registry-index.html
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tomllib

CRATES_IO = "https://github.com/rust-lang/crates.io-index"


def manifest(crate_path):
    """The normalized Cargo.toml inside a .crate (NAME-VERSION/Cargo.toml)."""
    with tarfile.open(crate_path, "r:gz") as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if len(parts) == 2 and parts[1] == "Cargo.toml":
                return tomllib.loads(tar.extractfile(member).read().decode("utf-8"))
    raise SystemExit(f"{crate_path}: no Cargo.toml at its root")


def index_path(name):
    """Where the index keeps a crate's entries (the registry-index layout)."""
    name = name.lower()
    if len(name) <= 2:
        return os.path.join(str(len(name)), name)
    if len(name) == 3:
        return os.path.join("3", name[0], name)
    return os.path.join(name[0:2], name[2:4], name)


def dependencies(toml, local):
    """The index's `deps` of a manifest: every table of dependencies, with its kind and target."""
    tables = [(None, toml)]
    tables += [(target, table) for target, table in toml.get("target", {}).items()]
    deps = []
    for target, table in tables:
        for key, kind in (
            ("dependencies", "normal"),
            ("build-dependencies", "build"),
            ("dev-dependencies", "dev"),
        ):
            for name, spec in table.get(key, {}).items():
                if isinstance(spec, str):
                    spec = {"version": spec}
                package = spec.get("package")
                crate = package or name
                deps.append(
                    {
                        "name": name,
                        "req": spec.get("version", "*"),
                        "features": spec.get("features", []),
                        "optional": spec.get("optional", False),
                        "default_features": spec.get(
                            "default-features", spec.get("default_features", True)
                        ),
                        "target": target,
                        "kind": kind,
                        # This registry's own crates are of it (null); the rest of crates.io.
                        "registry": None if crate in local else CRATES_IO,
                        "package": package,
                    }
                )
    return deps


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    root = os.path.abspath(sys.argv[1])
    crates = sys.argv[2:]
    index = os.path.join(root, "index")
    store = os.path.join(root, "crates")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(index)
    os.makedirs(store)
    manifests = [(path, manifest(path)) for path in crates]
    local = {toml["package"]["name"] for _, toml in manifests}
    for path, toml in manifests:
        package = toml["package"]
        with open(path, "rb") as f:
            checksum = hashlib.sha256(f.read()).hexdigest()
        shutil.copy(path, os.path.join(store, f"{package['name']}-{package['version']}.crate"))
        entry = {
            "name": package["name"],
            "vers": package["version"],
            "deps": dependencies(toml, local),
            "cksum": checksum,
            "features": toml.get("features", {}),
            "yanked": False,
            "links": package.get("links"),
            "rust_version": package.get("rust-version"),
            "v": 2,
        }
        file = os.path.join(index, index_path(package["name"]))
        os.makedirs(os.path.dirname(file), exist_ok=True)
        with open(file, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, separators=(",", ":")) + "\n")
    config = {"dl": f"file://{store}/{{crate}}-{{version}}.crate", "api": None}
    with open(os.path.join(index, "config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f)
    # A git index is a repository whose HEAD commit cargo reads.
    git = ["git", "-C", index, "-c", "user.name=rmm", "-c", "user.email=rmm@localhost"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "packages"], check=True)
    print(f"file://{index}")


if __name__ == "__main__":
    main()

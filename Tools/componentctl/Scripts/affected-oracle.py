#!/usr/bin/env python3
"""Soundness of `componentctl affected` and `hash`, checked against an oracle written apart from the tool.

Builds a repository with a random, seeded history (edits, renames, deletes, mode changes, symbolic links in and
between packages, a submodule bumped, lock changes, declared inputs, a generated folder, app files, edges added
and removed), then, for every pair of commits (one `hash` a commit; one `affected` process a pair), compares what the
tool says with what the oracle computes from the files SwiftPM would read in a checkout of each commit:

- every component whose inputs differ is in `affected --base A --head B` and has a new key;
- no component whose inputs are equal is reported, or has a new key.

The oracle reads checkouts with the file system (following links as SwiftPM does), finds path dependencies with a
regular expression and the lock with json: nothing of the tool's code. Usage: affected-oracle.py TOOL [SEED] [COMMITS].
"""
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

TOOL = os.path.abspath(sys.argv[1])
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("ORACLE_SEED", "29"))
# 67 commits give about 2,000 pairs, each checked by keys and by `affected`, in under a minute on two cores.
COMMITS = int(sys.argv[3]) if len(sys.argv) > 3 else int(os.environ.get("ORACLE_COMMITS", "67"))
# Set, `affected` runs on a seeded sample of that many pairs (a longer history, checked faster); the keys on every pair.
AFFECTED_PAIRS = int(os.environ.get("ORACLE_AFFECTED_PAIRS", "0")) or None
WORKERS = int(os.environ.get("ORACLE_WORKERS", str(os.cpu_count() or 2)))
rng = random.Random(SEED)
ENV = dict(os.environ, COMPONENTCTL_CACHE="off", GIT_AUTHOR_NAME="Oracle", GIT_AUTHOR_EMAIL="o@example.com",
           GIT_COMMITTER_NAME="Oracle", GIT_COMMITTER_EMAIL="o@example.com")

# name, layer, folder; a component may depend by path on those listed after it (no cycles).
COMPONENTS = [("feature-a", "business", "Packages/Business/FeatureA"), ("feature-b", "business", "Packages/Business/FeatureB"),
              ("service", "core", "Packages/Core/Service"), ("store", "core", "Packages/Core/Store"),
              ("base", "foundation", "Packages/Foundation/Base"), ("kit", "foundation", "Packages/Foundation/Kit")]
SHARED = ["Shared/P1", "Shared/P2"]          # packages that are no component
LINKS = ["Links/L1", "Links/L2"]             # links to shared packages or components
TARGETS = ["../Shared/P1", "../Shared/P2", "../Packages/Foundation/Kit"]
APP_PATHS = ["App", "Package.swift"]
APP, APP_COMPONENTS = "oracle", ["feature-a", "feature-b"]
VERSIONS = ["1.0.0", "1.1.0", "1.2.0"]


def run(*args, cwd, check=True):
    result = subprocess.run(args, cwd=cwd, env=ENV, capture_output=True, text=True)
    if check and result.returncode != 0:
        sys.exit(f"oracle: {' '.join(args)} failed ({result.returncode}): {result.stdout}{result.stderr}")
    return result


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if os.path.islink(full):
        os.unlink(full)
    with open(full, "w") as handle:
        handle.write(text)


def manifest(name, paths, external):
    lines = [f'        .package(path: "{path}"),' for path in paths]
    if external:
        lines.append('        .package(url: "https://github.com/apple/swift-log.git", from: "1.0.0"),')
    return ("// swift-tools-version: 6.0\nimport PackageDescription\n\nlet package = Package(\n"
            f'    name: "{name}",\n    dependencies: [\n' + "\n".join(lines) + "\n    ],\n"
            f'    targets: [.target(name: "{name}")]\n)\n')


class Repository:
    def __init__(self, root, submodule_source):
        self.root, self.submodule_source = root, submodule_source
        self.edges = {name: set() for name, _, _ in COMPONENTS}   # component -> folders (relative to root) it uses
        self.external = {name: False for name, _, _ in COMPONENTS}

    def write_manifest(self, name):
        folder = dict((n, f) for n, _, f in COMPONENTS)[name]
        paths = sorted(os.path.relpath(target, folder) for target in self.edges[name])
        write(self.root, folder + "/Package.swift", manifest(os.path.basename(folder), paths, self.external[name]))

    def create(self):
        yaml = ["workspace:", "  name: Oracle", "  scheme: oracle", "  inputs: [Shared.xcconfig]", "",
                "layers: [business, core, foundation]", "", "rules:", "  allow: []", "", "components:"]
        for name, layer, folder in COMPONENTS:
            yaml += [f"  {name}:", f"    path: {folder}", f"    layer: {layer}"]
            write(self.root, f"{folder}/Sources/{os.path.basename(folder)}/Main.swift", f"// {name} 0\n")
        yaml += ["", "apps:", f"  {APP}:", "    product: OracleApp", f"    components: [{', '.join(APP_COMPONENTS)}]",
                 "    paths: [App, Package.swift]", "", "generated:", "  Generated/API: [api.yaml]", ""]
        write(self.root, "components.yaml", "\n".join(yaml))
        for shared in SHARED:
            write(self.root, f"{shared}/Package.swift", manifest(os.path.basename(shared), [], False))
            write(self.root, f"{shared}/Sources/{os.path.basename(shared)}/Lib.swift", "// 0\n")
        os.makedirs(os.path.join(self.root, "Links"), exist_ok=True)
        for link, target in zip(LINKS, TARGETS):
            os.symlink(target, os.path.join(self.root, link))
        write(self.root, "Shared.xcconfig", "SETTING = 0\n")
        write(self.root, "api.yaml", "api: 0\n")
        write(self.root, "App/main.swift", "// app 0\n")
        write(self.root, "Package.swift", "// swift-tools-version: 6.0\n")
        write(self.root, "README.md", "notes 0\n")
        write(self.root, ".gitignore", ".build/\n.componentctl/\nGenerated/\n")
        self.lock({"swift-log": VERSIONS[0]})
        for name, _, _ in COMPONENTS:
            self.write_manifest(name)
        run("git", "init", "-q", cwd=self.root)
        run("git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", self.submodule_source, "external/Sub", cwd=self.root)
        self.generate()
        run("git", "add", "-A", cwd=self.root)
        run("git", "add", "-f", "Package.resolved", cwd=self.root)
        run("git", "commit", "-qm", "initial", cwd=self.root)

    def lock(self, versions):
        pins = [{"identity": identity, "kind": "remoteSourceControl", "location": f"https://github.com/apple/{identity}.git",
                 "state": {"revision": hashlib.sha1(version.encode()).hexdigest(), "version": version}}
                for identity, version in versions.items()]
        write(self.root, "Package.resolved", json.dumps({"pins": pins, "version": 2}, indent=2))

    def generate(self):
        """The build step that makes Generated/API from api.yaml (git ignores the folder)."""
        api = open(os.path.join(self.root, "api.yaml")).read()
        write(self.root, "Generated/API/Package.swift", manifest("API", [], False))
        write(self.root, "Generated/API/Sources/API/API.swift", "// " + api)

    def files_of(self, folder):
        full = os.path.join(self.root, folder)
        return sorted(os.path.relpath(os.path.join(d, f), self.root) for d, _, fs in os.walk(full) for f in fs
                      if not os.path.islink(os.path.join(d, f)) and not f.endswith("Package.swift"))

    def mutate(self):
        """One random change; returns what it did."""
        names = [n for n, _, _ in COMPONENTS]
        folders = dict((n, f) for n, _, f in COMPONENTS)
        kind = rng.choice(["edit", "edit", "edit-shared", "edit-shared", "rename", "delete", "mode", "edge", "edge", "edge", "retarget",
                           "inner-link", "xcconfig", "lock", "external", "api", "submodule", "app", "unrelated"])
        if kind in ("edit", "rename", "delete", "mode"):
            name = rng.choice(names)
            files = self.files_of(folders[name])
            if not files:
                kind = "edit"
            path = rng.choice(files) if files else f"{folders[name]}/Sources/New.swift"
            if kind == "edit":
                write(self.root, path, f"// {rng.random()}\n")
            elif kind == "rename":
                os.rename(os.path.join(self.root, path), os.path.join(self.root, path + f".{rng.randint(0, 9)}.swift"))
            elif kind == "delete" and len(files) > 1:
                os.unlink(os.path.join(self.root, path))
            elif kind == "mode":
                full = os.path.join(self.root, path)
                os.chmod(full, os.stat(full).st_mode ^ 0o100)
            return f"{kind} {path}"
        if kind == "edit-shared":
            shared = rng.choice(SHARED)
            write(self.root, f"{shared}/Sources/{os.path.basename(shared)}/Lib.swift", f"// {rng.random()}\n")
            return f"edit {shared}"
        if kind == "edge":
            index = rng.randrange(len(COMPONENTS) - 1)
            name = COMPONENTS[index][0]
            choices = [f for _, _, f in COMPONENTS[index + 1:]] + SHARED + LINKS + ["external/Sub", "Generated/API"]
            target = rng.choice(choices)
            self.edges[name] ^= {target}
            self.write_manifest(name)
            return f"edge {name} -> {target}"
        if kind == "retarget":
            link = rng.choice(LINKS)
            os.unlink(os.path.join(self.root, link))
            os.symlink(rng.choice(TARGETS), os.path.join(self.root, link))
            return f"retarget {link}"
        if kind == "inner-link":
            name = rng.choice(names)
            link = os.path.join(self.root, folders[name], "Sources", "Linked.swift")
            if os.path.lexists(link):
                os.unlink(link)
            else:
                os.symlink(os.path.relpath(os.path.join(self.root, "Shared/P1/Sources/P1/Lib.swift"), os.path.dirname(link)), link)
            return f"inner link in {name}"
        if kind == "xcconfig":
            write(self.root, "Shared.xcconfig", f"SETTING = {rng.random()}\n")
            return "xcconfig"
        if kind == "lock":
            self.lock({"swift-log": rng.choice(VERSIONS)})
            return "lock"
        if kind == "external":
            name = rng.choice(names)
            self.external[name] = not self.external[name]
            self.write_manifest(name)
            return f"external in {name}"
        if kind == "api":
            write(self.root, "api.yaml", f"api: {rng.random()}\n")
            self.generate()
            return "api"
        if kind == "submodule":
            write(self.submodule_source, "Sources/Sub/Sub.swift", f"// {rng.random()}\n")
            run("git", "commit", "-qam", "sub", cwd=self.submodule_source)
            run("git", "-C", "external/Sub", "pull", "-q", "origin", "HEAD", cwd=self.root)
            return "submodule bump"
        if kind == "app":
            write(self.root, "App/main.swift", f"// app {rng.random()}\n")
            return "app"
        write(self.root, "README.md", f"notes {rng.random()}\n")
        return "unrelated"

    def checkout(self, commit):
        run("git", "checkout", "-q", "--force", commit, cwd=self.root)
        run("git", "clean", "-qfdx", "-e", "Generated", cwd=self.root)
        run("git", "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init", cwd=self.root)
        self.generate()


# The oracle: what SwiftPM would read for each component, from the checkout on disk.

PATH_DEPENDENCY = re.compile(r'\.package\(path:\s*"([^"]+)"\)')
URL_DEPENDENCY = re.compile(r'\.package\(url:\s*"([^"]+)"')


def digest_tree(root, folder):
    """Every file under `folder` as SwiftPM reads it: by content, through links, with the executable bit."""
    lines = []
    base = os.path.join(root, folder)
    for directory, subfolders, files in os.walk(base, followlinks=False):
        subfolders[:] = [s for s in subfolders if s not in (".git", ".build")]
        for name in files + [s for s in subfolders if os.path.islink(os.path.join(directory, s))]:
            full = os.path.join(directory, name)
            relative = os.path.relpath(full, base)
            if os.path.islink(full):
                lines.append(f"link {relative} -> {os.readlink(full)}")
                target = os.path.realpath(full)
                if os.path.isfile(target):
                    lines.append(f"through {relative} {hashlib.sha256(open(target, 'rb').read()).hexdigest()}")
                continue
            executable = os.stat(full).st_mode & 0o100 != 0
            lines.append(f"file {relative} {executable} {hashlib.sha256(open(full, 'rb').read()).hexdigest()}")
    return hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()


def oracle(root):
    folders = {os.path.realpath(os.path.join(root, f)): n for n, _, f in COMPONENTS}
    lock = json.load(open(os.path.join(root, "Package.resolved")))
    pins = {pin["identity"]: pin["state"]["version"] + pin["state"]["revision"] for pin in lock["pins"]}
    memo = {}

    def package(folder, trail):
        real = os.path.realpath(os.path.join(root, folder))
        if real in memo:
            return memo[real]
        parts = [digest_tree(root, os.path.relpath(real, root))]
        text = open(os.path.join(real, "Package.swift")).read()
        for written in PATH_DEPENDENCY.findall(text):
            target = os.path.relpath(os.path.realpath(os.path.join(real, written)), root)
            parts.append(f"{written}:{package(target, trail + [real])}")
        for url in URL_DEPENDENCY.findall(text):
            identity = url.rstrip("/").split("/")[-1].removesuffix(".git").lower()
            parts.append(f"{identity}:{pins.get(identity)}")
        parts.append(hashlib.sha256(open(os.path.join(root, "Shared.xcconfig"), "rb").read()).hexdigest())
        memo[real] = hashlib.sha256("|".join(parts).encode()).hexdigest()
        return memo[real]

    inputs = {name: package(folder, []) for name, _, folder in COMPONENTS}
    # The app: its own paths, and what the components it lists read (each one's inputs include its dependencies').
    app = [digest_tree(root, "App"), hashlib.sha256(open(os.path.join(root, "Package.swift"), "rb").read()).hexdigest()]
    inputs[APP] = hashlib.sha256("|".join(app + [inputs[name] for name in APP_COMPONENTS]).encode()).hexdigest()
    return inputs


def main():
    work = tempfile.mkdtemp(prefix="affected-oracle-")
    try:
        submodule = os.path.join(work, "sub")
        os.makedirs(submodule)
        write(submodule, "Package.swift", manifest("Sub", [], False))
        write(submodule, "Sources/Sub/Sub.swift", "// 0\n")
        run("git", "init", "-q", cwd=submodule)
        run("git", "add", "-A", cwd=submodule)
        run("git", "commit", "-qm", "sub", cwd=submodule)
        repository = Repository(os.path.join(work, "repo"), submodule)
        os.makedirs(repository.root)
        repository.create()
        commits = [run("git", "rev-parse", "HEAD", cwd=repository.root).stdout.strip()]
        changes = {}
        for _ in range(COMMITS - 1):
            done = [repository.mutate() for _ in range(rng.randint(1, 2))]
            run("git", "add", "-A", cwd=repository.root)
            run("git", "add", "-f", "Package.resolved", cwd=repository.root)
            if run("git", "commit", "-qm", "; ".join(done), cwd=repository.root, check=False).returncode != 0:
                continue
            commits.append(run("git", "rev-parse", "HEAD", cwd=repository.root).stdout.strip())
            changes[commits[-1]] = done
        names = [n for n, _, _ in COMPONENTS]
        truth, keys = {}, {}
        for commit in commits:
            repository.checkout(commit)
            truth[commit] = oracle(repository.root)
            hashed = run(TOOL, "--root", repository.root, "hash", "--format", "json", cwd=repository.root)
            keys[commit] = {entry["name"]: entry["key"] for entry in json.loads(hashed.stdout)}
        # Every pair of commits is checked against the keys (one `hash` a commit) and `affected` (one process a pair),
        # unless AFFECTED_PAIRS asks for a sample.
        every = [(base, head) for later, head in enumerate(commits) for base in commits[:later]]
        asked = set(every if AFFECTED_PAIRS is None or len(every) <= AFFECTED_PAIRS else rng.sample(every, AFFECTED_PAIRS))
        reported = {}
        # The runs against one checkout share nothing but the repository they read: two at a time keep both cores busy.
        workers = concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS)
        for later, head in enumerate(commits):
            bases = [base for base in commits[:later] if (base, head) in asked]
            if not bases:
                continue
            repository.checkout(head)
            runs = workers.map(lambda base: run(TOOL, "--root", repository.root, "affected", "--base", base, "--head", head,
                                                "--format", "json", cwd=repository.root), bases)
            for base, result in zip(bases, list(runs)):
                reported[base, head] = {row["name"] for row in json.loads(result.stdout)}
        missed = extra = 0
        for base, head in every:
            for name in names + [APP]:
                differs = truth[base][name] != truth[head][name]
                key_name = name if name != APP else f"app {APP}"
                new_key = keys[base].get(key_name) != keys[head].get(key_name)
                in_affected = name in reported.get((base, head), {name} if differs else set())
                history = [changes.get(c) for c in commits[commits.index(base) + 1:commits.index(head) + 1]]
                if differs and (not in_affected or not new_key):
                    missed += 1
                    print(f"MISSED {name} between {base[:8]} and {head[:8]}: affected={in_affected} new key={new_key}; changes: {history}")
                if not differs and (in_affected or new_key):
                    extra += 1
                    print(f"EXTRA {name} between {base[:8]} and {head[:8]}: affected={in_affected} new key={new_key}; changes: {history}")
        pairs = len(every)
        print(f"affected-oracle: seed {SEED}, {len(commits)} commits, {pairs} pairs of keys, {len(reported)} of affected, "
              f"{len(names)} components and the app in each: {missed} missed, {extra} reported without a change")
        sys.exit(1 if missed or extra else 0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()

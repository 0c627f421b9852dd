# The workspace's entry points; the README and docs/ explain each.
PREFIX ?= /usr/local
TOOL_PACKAGE := Tools/componentctl
TOOL := $(TOOL_PACKAGE)/.build/release/componentctl

.PHONY: setup tool install check sync build app test bench fault-test fuzz tsan clean

setup:
	@scripts/setup.sh

tool: setup
	swift build -c release --static-swift-stdlib --package-path $(TOOL_PACKAGE) --product componentctl

# Puts componentctl on the PATH (PREFIX=~/.local for a user install), stripped: 79 MB -> 60 MB. It stays
# that large because it links Swift's standard library and Foundation statically (ICU's data is most of
# it), so it runs on a machine without the toolchain, or with another one.
install: tool
	install -d $(PREFIX)/bin
	install -s -m 755 $(TOOL) $(PREFIX)/bin/componentctl

check: tool
	$(TOOL) check-layers

# Materializes pinned components (a fresh clone has none) and points Package.swift at them.
sync: tool
	$(TOOL) sync

# Builds every app of components.yaml.
build: setup
	swift build

# The main job: check the layering, generate the apps, build the first one and run it interactively.
app: check sync
	$(TOOL) run

test: setup
	@scripts/test-all.sh

bench: setup
	Benchmarks/componentctl/check-layers.sh
	Benchmarks/componentctl/init.sh
	Benchmarks/componentctl/scale.sh
	Benchmarks/componentctl/pin.sh
	Benchmarks/componentctl/affected.sh
	Benchmarks/componentctl/build.sh
	Benchmarks/componentctl/standalone.sh
	Benchmarks/componentctl/api-diff.sh
	Benchmarks/componentctl/hash.sh
	Benchmarks/plugin-bench/run.sh
	Benchmarks/runtime-plugins/run.sh
	Benchmarks/startup/run.sh
	Benchmarks/apps/run.sh
	Benchmarks/router-bench/run.sh
	Benchmarks/results-cache/run.sh

fault-test: setup
	$(TOOL_PACKAGE)/Scripts/fault-injection.sh

# A million malformed URLs through the router (release build), and readers/writer under Thread Sanitizer.
fuzz:
	ROUTER_FUZZ_COUNT=1000000 swift test -c release --package-path Packages/Foundation/Router --filter FuzzTests

tsan:
	swift test --sanitize=thread --package-path Packages/Foundation/Router --filter ConcurrencyTests

# Removes build folders, only those SwiftPM or componentctl made (scripts/clean.sh says what it keeps).
clean:
	@scripts/clean.sh

# The workspace's entry points; the README and docs/ explain each.
PREFIX ?= /usr/local
TOOL_PACKAGE := Tools/componentctl
TOOL := $(TOOL_PACKAGE)/.build/debug/componentctl
RELEASE_TOOL := $(TOOL_PACKAGE)/.build/release/componentctl

.PHONY: setup tool install check sync build app test bench fault-test fuzz tsan clean

setup:
	@scripts/setup.sh

# The debug build: the one `make test` builds too, so the two share it.
tool: setup
	swift build --package-path $(TOOL_PACKAGE) --product componentctl

# Puts componentctl on the PATH (PREFIX=~/.local for a user install): a release build, stripped (79 MB -> 60 MB).
# It stays that large because it links Swift's standard library and Foundation statically (ICU's data is
# most of it), so it runs on a machine without the toolchain, or with another one.
install: setup
	swift build -c release --static-swift-stdlib --package-path $(TOOL_PACKAGE) --product componentctl
	install -d $(PREFIX)/bin
	install -s -m 755 $(RELEASE_TOOL) $(PREFIX)/bin/componentctl

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

# Every benchmark: componentctl's scripts, then each harness's run.sh (a sample's goes with the sample).
bench: setup
	@set -e; for script in Benchmarks/componentctl/*.sh Benchmarks/*/run.sh; do \
	  [ "$$script" = Benchmarks/componentctl/common.sh ] || "$$script"; \
	done

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

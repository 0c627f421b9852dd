# The workspace's entry points; the README explains each.
.PHONY: setup app build test test-root test-components clean

setup:
	@scripts/setup.sh

build: setup
	swift build --product App

# The main job: build the integrated App and run it interactively.
app: build
	swift run App

test: setup
	@scripts/test-all.sh

clean:
	rm -rf .build $(addsuffix /.build,$(shell sed -n 's/^    path: *//p' components.yaml))

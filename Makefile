# apnsctl. A new user runs `make demo`, then `make test`; both install what is missing first.
SWIFT   ?= swift
PREFIX  ?= /usr/local
CONFIG  ?= debug
BIN      = .build/$(CONFIG)/apnsctl
RELEASE  = .build/release/apnsctl
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath
# Generic types by their metadata accessors, not by demangling their names at run time: demangling checks each
# type's generic requirements with conformance lookups, a scan of every conformance record in the static binary
# (an eighth of one send's instructions, most of it building the argument parser's option tables).
RELEASE_FLAGS += -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# The one version is APNSCtlVersion.current in Sources/APNSCtlCommands/APNSCtl.swift; file names and the package use it.
VERSION := $(shell scripts/version.sh)

.PHONY: all deps build release test lint demo bench fuzz install uninstall dist deb dist-check preflight-dist preflight-deb clean

all: build

## deps: install the system libraries and tools the build and the tests use (apt-get or brew)
deps:
	@scripts/deps.sh

## build: debug build
build: deps
	$(SWIFT) build

## release: optimised binary with a static Swift standard library (fastest start-up)
release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

## test: the style check, the whole test suite, then dist-check (one release build, the tarball and the .deb checked)
# The release build comes first: the peak-memory bounds are measured on the binary users run.
# The tests are built in the release configuration, so the code under test runs optimised as users run it (and
# swift-argument-parser skips the checks of its own configuration it makes on every parse in a debug build), in a
# scratch path of their own: .build/release stays the binary users get. `swift test` alone still runs them in debug.
TEST_FLAGS = -c release --scratch-path .build/tests
# Compiler warnings are errors in this build of the sources and the tests (a clean clone compiles everything, so
# none goes unseen): a new one fails `make test` instead of scrolling past a new user in `make demo`. The builds
# users make (`make build`, `make release`) keep them warnings, so a newer compiler's new warning stops nobody.
TEST_BUILD_FLAGS = $(TEST_FLAGS) -Xswiftc -enable-testing -Xswiftc -warnings-as-errors
test: deps lint
	$(SWIFT) build $(RELEASE_FLAGS)
	$(SWIFT) build $(TEST_BUILD_FLAGS) --build-tests
	$(SWIFT) build $(TEST_BUILD_FLAGS) --product generate-manual
	@rm -f .build/binary-starts.txt
	APNSCTL_MEASURED_BIN=$(RELEASE) APNSCTL_COUNT_BINARY_STARTS=$(CURDIR)/.build/binary-starts.txt $(SWIFT) test $(TEST_FLAGS) --skip-build
	@scripts/check-binary-starts.sh .build/binary-starts.txt
	GENERATE_MANUAL=$(CURDIR)/.build/tests/release/generate-manual $(MAKE) dist-check

## lint: swift format lint --strict with the house style in .swift-format (swift format -i -r -p Sources Tests Fuzz fixes most)
lint:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Fuzz Package.swift

## demo: build, run apnsctl on the sample payloads and show the answers
demo: build
	@scripts/demo.sh $(BIN)

## bench: apnsctl against curl and h2load, as ratios, plus peak memory
bench: deps
	@scripts/deps.sh bench
	$(SWIFT) build $(RELEASE_FLAGS)
	@scripts/bench.sh $(RELEASE)

## fuzz: fuzz the JSON reader and validator, the TOML reader and the --devices lines (FUZZ_SECONDS each, default 60)
fuzz: deps
	@scripts/fuzz.sh

# `make install BIN=.build/debug/apnsctl` installs that binary instead, without a release build (the tests do);
# make dist and make deb take BIN= the same way (they refuse a binary that needs the build machine's Swift).
ifeq ($(origin BIN),command line)
INSTALL_DEPS =
INSTALL_BIN  = $(BIN)
PACKAGE_DEPS =
else
INSTALL_DEPS = release
INSTALL_BIN  = $(RELEASE)
PACKAGE_DEPS = deps
endif

## install: the release binary, bash/zsh/fish completions and man pages (man apnsctl) under $(PREFIX)
install: $(INSTALL_DEPS)
	@SWIFT=$(SWIFT) scripts/install.sh install "$(INSTALL_BIN)" "$(DESTDIR)$(PREFIX)"

## uninstall: remove what install put under $(PREFIX)
uninstall:
	@scripts/install.sh uninstall "$(DESTDIR)$(PREFIX)"

## dist: dist/apnsctl-$(VERSION)-linux-ARCH.tar.gz and its .sha256, from the release binary (Linux)
dist: $(PACKAGE_DEPS) preflight-dist $(INSTALL_DEPS)
	@SWIFT=$(SWIFT) scripts/package.sh tarball "$(INSTALL_BIN)"

## deb: dist/apnsctl_$(VERSION)_ARCH.deb from the same binary, with lintian (Debian and Ubuntu)
deb: $(PACKAGE_DEPS) preflight-deb $(INSTALL_DEPS)
	@SWIFT=$(SWIFT) scripts/package.sh deb "$(INSTALL_BIN)"

# Where packaging cannot work (macOS, no dpkg-deb), one error line before any release build.
preflight-dist:
	@scripts/package.sh preflight tarball
preflight-deb:
	@scripts/package.sh preflight deb

## dist-check: make dist and make deb, then check both: layout, libraries, install and removal in a temporary root
dist-check: dist deb
	@scripts/dist-check.sh "$(INSTALL_BIN)"

clean:
	rm -rf .build dist

# apnsctl. A new user runs `make demo`, then `make test`; both install what is missing first.
SWIFT   ?= swift
PREFIX  ?= /usr/local
CONFIG  ?= debug
BIN      = .build/$(CONFIG)/apnsctl
RELEASE  = .build/release/apnsctl
RELEASE_FLAGS = -c release --static-swift-stdlib

.PHONY: all deps build release test demo bench fuzz install uninstall clean

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

## test: the whole test suite
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	$(SWIFT) test --skip-build

## demo: build, run apnsctl on the sample payloads and show the answers
demo: build
	@scripts/demo.sh $(BIN)

## bench: apnsctl against curl and h2load, as ratios, plus peak memory
bench: deps
	@scripts/deps.sh bench
	$(SWIFT) build $(RELEASE_FLAGS)
	@scripts/bench.sh $(RELEASE)

## fuzz: run the JSON reader and validator fuzzer (FUZZ_SECONDS, default 60)
fuzz: deps
	@scripts/fuzz.sh

# `make install BIN=.build/debug/apnsctl` installs that binary instead, without a release build (the tests do).
ifeq ($(origin BIN),command line)
INSTALL_DEPS =
INSTALL_BIN  = $(BIN)
else
INSTALL_DEPS = release
INSTALL_BIN  = $(RELEASE)
endif

## install: the release binary, bash/zsh/fish completions and man pages (man apnsctl) under $(PREFIX)
install: $(INSTALL_DEPS)
	@SWIFT=$(SWIFT) scripts/install.sh install "$(INSTALL_BIN)" "$(DESTDIR)$(PREFIX)"

## uninstall: remove what install put under $(PREFIX)
uninstall:
	@scripts/install.sh uninstall "$(DESTDIR)$(PREFIX)"

clean:
	rm -rf .build

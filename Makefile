# desingleton — build, test, demo, bench.
SWIFT ?= swift
PREFIX ?= /usr/local
BIN := .build/debug/desingleton
RELEASE_BIN := .build/release/desingleton

.PHONY: build release test unit golden record samples plugin demo install bench corpus corpus-build realapps slice-quality differential fuzz format clean

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --product desingleton

# Everything CI runs.
test: build
	$(SWIFT) test
	bash Tests/Samples/build-samples.sh
	bash Tests/Docs/check-docs.sh
	bash Tests/Plugin/plugin-test.sh
	python3 Tests/Corpus/corpus.py --quick
	python3 Tests/Differential/differential.py --bin $(BIN) --samples

unit:
	$(SWIFT) test

# Golden cases only; `make record` rewrites the golden files (and fails, so a recording is never mistaken for a pass).
golden: build
	$(SWIFT) test --filter Golden

record: build
	DESINGLETON_RECORD=1 $(SWIFT) test --filter Golden

samples:
	bash Tests/Samples/build-samples.sh

# The SwiftPM command plugin through `swift package`, on a copy of ModularApp (cached in .build-plugin).
plugin: build
	bash Tests/Plugin/plugin-test.sh

demo: build
	bash Tests/Samples/demo.sh

install: release
	install -d $(PREFIX)/bin
	install -m 755 $(RELEASE_BIN) $(PREFIX)/bin/desingleton

bench: release
	python3 bench/bench.py

corpus: build
	python3 Tests/Corpus/corpus.py

# The whole journey on real packages, judged by their own builds and tests (Tests/Corpus/corpus_build.py).
# Not part of `make test`: it builds every package several times. CORPUS_BIN=... takes another binary,
# CORPUS_BUILD_FLAGS passes options (--quick, --package NAME, --fresh, -j 1, --bin PATH).
CORPUS_BIN ?= $(RELEASE_BIN)
corpus-build:
	python3 Tests/Corpus/corpus_build.py --bin $(CORPUS_BIN) $(CORPUS_BUILD_FLAGS)

# The whole journey on real apps fetched into the mirror (Tests/RealApps/apps.txt), checked for invariants.
# REALAPPS_ARGS passes options, e.g. REALAPPS_ARGS='--app iina/iina --max-singletons 1'.
realapps: release
	python3 Tests/RealApps/realapps.py --bin $(RELEASE_BIN) $(REALAPPS_ARGS)

# How scan's suggested slices serve the practice apps' god objects (coverage, cohesion, protocols per consumer).
slice-quality: release
	python3 Tests/RealApps/slice_quality.py --bin $(RELEASE_BIN) $(REALAPPS_ARGS)

# Each command's plan with --singleton against its plan with every file parsed (--full), along the
# journey, on the mirror's packages; DIFFERENTIAL_ARGS adds --project DIR (a practice app), --package NAME.
DIFFERENTIAL_ARGS ?= --mirror
differential: release
	python3 Tests/Differential/differential.py --bin $(RELEASE_BIN) $(DIFFERENTIAL_ARGS)

fuzz: build
	DESINGLETON_FUZZ_ITERATIONS=2000 DESINGLETON_GEN_PROGRAMS=300 $(SWIFT) test --filter Fuzz

clean:
	rm -rf .build .build-*

# The two README commands (make run, make test) and the steps they are made of. Each installs
# what it needs on a fresh Debian 12 machine.
APT_PACKAGES := emscripten binaryen node-acorn nlohmann-json3-dev catch2 chromium zopfli
WASM_CORE := build/wasm/wasm/llmcalc_core.js
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test dist deps apt-deps npm-deps native wasm sanitize fuzz bench calibrate clean

run: dist
	node web/serve.mjs dist

test: deps
	cmake --workflow --preset wasm
	$(MAKE) --no-print-directory dist-only
	cmake --workflow --preset sanitize
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=10
	cmake --preset native
	cmake --build --preset native
	ctest --preset native

dist: deps
	cmake --preset wasm
	cmake --build --preset wasm --target llmcalc_core
	$(MAKE) --no-print-directory dist-only

.PHONY: dist-only
dist-only:
	node web/build.mjs $(WASM_CORE) dist

deps: apt-deps npm-deps

apt-deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

npm-deps:
	@[ -d node_modules/playwright-core ] && [ -d node_modules/axe-core ] && [ -d node_modules/esbuild ] || npm ci --no-audit --no-fund

native: deps
	cmake --workflow --preset native

wasm: deps
	cmake --workflow --preset wasm

sanitize: deps
	cmake --workflow --preset sanitize

# Fuzz every parser of user input for FUZZ_SECONDS each (ASan + UBSan); `make test` runs a short pass.
FUZZ_SECONDS ?= 60
fuzz: deps
	cmake --preset fuzz
	cmake --build --preset fuzz
	tests/fuzz/run.sh $(FUZZ_SECONDS)

# Speed and size of the calculator itself (issues #12, #22): native Google Benchmark, what the
# wasm code is made of, then wasm under node, Chromium cold loads and latency, and dist/ transfer.
bench: dist
	cmake --preset native
	cmake --build --preset native --target llmcalc_bench
	build/native/tests/bench/llmcalc_bench --benchmark_min_time=0.2
	cmake --build --preset wasm --target llmcalc_core_names
	node tests/bench/wasm_sizes.mjs build/wasm/wasm/llmcalc_core_names.wasm
	node tests/bench/bench.mjs

# Refit the speed model to tests/data/speed_measurements.json and print the fit and residuals.
calibrate: deps
	cmake --preset native
	cmake --build --preset native --target fit_speed
	build/native/tests/calibration/fit_speed --write data/speed_calibration.json

clean:
	rm -rf build dist

# clawtools — the two set-up commands are `make run` and `make test` (see README.md).
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps configure build run test bench test-sanitize test-asan test-tsan format clean

all: build

deps:
	@bash scripts/install-deps.sh
	@bash scripts/install-npm.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS) > $(BUILD_DIR).configure.log 2>&1 || (cat $(BUILD_DIR).configure.log; exit 1)

# Leaves the CLI at build/clawtools.
build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# Starts the gateway on 127.0.0.1 with the embedded default store (SQLite under ~/.clawtools).
run: build
	./$(BUILD_DIR)/clawtools serve $(RUN_FLAGS)

# Builds, starts the services the tests need (a throwaway PostgreSQL), runs every test.
test: build
	@bash scripts/run-tests.sh $(BUILD_DIR)

bench: build
	@bash scripts/run-bench.sh $(BUILD_DIR)

test-asan:
	@$(MAKE) --no-print-directory test BUILD_DIR=build-asan BUILD_TYPE=Debug CMAKE_FLAGS="-DCLAWTOOLS_SANITIZE=address -DCLAWTOOLS_BUILD_BENCH=OFF"

test-tsan:
	@$(MAKE) --no-print-directory test BUILD_DIR=build-tsan BUILD_TYPE=RelWithDebInfo CMAKE_FLAGS="-DCLAWTOOLS_SANITIZE=thread -DCLAWTOOLS_BUILD_BENCH=OFF"

test-sanitize: test-asan test-tsan

format:
	@find src tests bench -name '*.cc' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf build build-asan build-tsan

# The two commands a user needs: `make run` and `make test`.
# Both install missing Debian packages, configure a Release build with CMake and build it.
BUILD      ?= build
# GPU architectures the kernels are compiled for (CMake's CUDA_ARCHITECTURES syntax).
CUDA_ARCHS ?= 90
CMAKE_ARGS ?=
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
NVCC       ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)

.PHONY: all deps configure build run test gpu-test clean

all: build

deps:
	@tools/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_CUDA_COMPILER=$(NVCC) -DCMAKE_CUDA_ARCHITECTURES="$(CUDA_ARCHS)" $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD)

run: build
	./$(BUILD)/gemmscope $(ARGS)

# One ctest run, one summary: tests run side by side (one per core), except the few that measure time or CPU,
# which run alone, and the GPU's (skipped where there is none), which hold a lock so that one runs at a time.
test: build
	cd $(BUILD) && ctest --output-on-failure --timeout 600 -j$(JOBS)

# On a GPU machine: also builds the probe-stripped rungs that the NoProbe SASS test compares.
gpu-test:
	$(MAKE) build CMAKE_ARGS="$(CMAKE_ARGS) -DGEMMSCOPE_SASS_CHECK=ON"
	cd $(BUILD) && ctest --output-on-failure -L gpu

clean:
	rm -rf $(BUILD)

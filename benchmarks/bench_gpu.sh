#!/usr/bin/env bash
# The batch on an NVIDIA GPU in one run (under 5 minutes on an H100 or H200): flightsim with its GPU extra
# (numba-cuda and NVIDIA's compiler as wheels; the driver is the machine's), the GPU's model, then
# benchmarks/bench_gpu.py's table (airplane-steps/s at N = 1k … 4M, end to end and in the kernel, against the
# same machine's CPU batch and Nimbus's best published figure). Arguments go to bench_gpu.py.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q -e '.[gpu]'
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv || true
python benchmarks/bench_gpu.py "$@"

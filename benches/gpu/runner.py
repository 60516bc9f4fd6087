#!/usr/bin/env python3
"""GPU runner for the apipe examples (the GPU harness, benches/gpu/).

Loads the PTX that benches/gpu/prepare.sh wrote, launches each example in
each version present (`pipelined`: apipe-software-pipeline; `hand`: the
hand-pipelined counting form; `sync`: apipe-make-sync), checks the result
against a CPU reference (NumPy), times it with CUDA events and prints the
achieved GB/s or GFLOP/s, the pipelined/sync ratio, and the peer:
torch.mm (cuBLAS) for sgemm, a device-to-device tensor copy for copy_bw.

Needs CuPy (and PyTorch for the peers); links nothing of MLIR.

    python3 runner.py BUNDLE_DIR [--repeat N]

Kernel arguments follow MLIR's memref calling convention: each
memref<...> argument is (allocated ptr, aligned ptr, offset, sizes...,
strides...).
"""
import argparse
import os
import sys

import numpy as np

try:
    import cupy as cp
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit("runner.py needs CuPy (the GPU machine has it)")

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None


def memref_args(array):
    """The expanded memref descriptor of a C-contiguous CuPy array."""
    strides = [s // array.itemsize for s in array.strides]
    return [array, array, np.int64(0)] + [np.int64(d) for d in array.shape] + [
        np.int64(s) for s in strides
    ]


def time_ms(launch, repeat):
    """Mean time of `launch` in ms over `repeat` runs after one warm-up."""
    launch()
    cp.cuda.Device().synchronize()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(repeat):
        launch()
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop) / repeat


def torch_time_ms(launch, repeat):
    launch()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeat):
        launch()
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) / repeat


def load(bundle, example, version):
    path = os.path.join(bundle, f"{example}.{version}.ptx")
    return cp.RawModule(path=path).get_function(example)


def versions(bundle, example):
    """The versions of `example` in the bundle, the synchronous one last."""
    return [v for v in ("pipelined", "mbarrier", "bulk", "hand", "sync")
            if os.path.exists(os.path.join(bundle, f"{example}.{v}.ptx"))]


def print_ratios(example, results):
    for version in results:
        if version != "sync" and "sync" in results:
            print(f"{example} sync/{version} time ratio: {results['sync'] / results[version]:.2f}")


def sgemm(bundle, repeat, rng):
    n = 2048
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    reference = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    da, db = cp.asarray(a), cp.asarray(b)
    flop = 2.0 * n * n * n
    results = {}
    for version in versions(bundle, "sgemm"):
        kernel = load(bundle, "sgemm", version)
        dc = cp.zeros((n, n), dtype=np.float32)
        args = memref_args(da) + memref_args(db) + memref_args(dc)
        launch = lambda: kernel((n // 64, n // 64), (256,), args)  # noqa: E731
        launch()
        error = float(np.max(np.abs(cp.asnumpy(dc) - reference)))
        ok = error < 1e-2 * np.sqrt(n)
        ms = time_ms(launch, repeat)
        results[version] = ms
        print(f"sgemm {version:9s}: {ms:8.3f} ms  {flop / ms / 1e6:9.1f} GFLOP/s  "
              f"max|err| {error:.2e} {'OK' if ok else 'WRONG'}")
    print_ratios("sgemm", results)
    if torch is not None:
        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        torch.backends.cuda.matmul.allow_tf32 = False
        ms = torch_time_ms(lambda: torch.mm(ta, tb), repeat)
        print(f"sgemm torch.mm (cuBLAS, fp32, no TF32): {ms:8.3f} ms  {flop / ms / 1e6:9.1f} GFLOP/s")


def copy_bw(bundle, repeat, rng):
    n = 16777216
    src = rng.standard_normal(n, dtype=np.float32)
    dsrc = cp.asarray(src)
    moved = 2.0 * n * 4
    results = {}
    for version in versions(bundle, "copy_bw"):
        kernel = load(bundle, "copy_bw", version)
        ddst = cp.zeros(n, dtype=np.float32)
        args = memref_args(dsrc) + memref_args(ddst)
        launch = lambda: kernel((1024,), (128,), args)  # noqa: E731
        launch()
        ok = bool(cp.array_equal(ddst, dsrc))
        ms = time_ms(launch, repeat)
        results[version] = ms
        print(f"copy_bw {version:9s}: {ms:8.3f} ms  {moved / ms / 1e6:9.1f} GB/s  "
              f"{'OK' if ok else 'WRONG'}")
    print_ratios("copy_bw", results)
    if torch is not None:
        ts = torch.from_numpy(src).cuda()
        td = torch.empty_like(ts)
        ms = torch_time_ms(lambda: td.copy_(ts), repeat)
        print(f"copy_bw torch copy_ (device to device): {ms:8.3f} ms  {moved / ms / 1e6:9.1f} GB/s")


def stream_sum(bundle, repeat, rng):
    blocks, tiles, lanes = 256, 32, 32
    a = rng.standard_normal(blocks * tiles * lanes * 4, dtype=np.float32)
    # out[b, lane] = sum over tiles and k of A[b, tile, (lane + 1) % 32, k].
    view = a.astype(np.float64).reshape(blocks, tiles, lanes, 4)
    reference = np.roll(view.sum(axis=(1, 3)), -1, axis=1).reshape(-1)
    da = cp.asarray(a)
    moved = a.nbytes
    results = {}
    for version in versions(bundle, "stream_sum"):
        kernel = load(bundle, "stream_sum", version)
        dout = cp.zeros(blocks * lanes, dtype=np.float32)
        args = memref_args(da) + memref_args(dout)
        launch = lambda: kernel((blocks,), (lanes,), args)  # noqa: E731
        launch()
        error = float(np.max(np.abs(cp.asnumpy(dout) - reference)))
        ok = error < 1e-3
        ms = time_ms(launch, repeat)
        results[version] = ms
        print(f"stream_sum {version:9s}: {ms:8.3f} ms  {moved / ms / 1e6:9.1f} GB/s  "
              f"max|err| {error:.2e} {'OK' if ok else 'WRONG'}")
    print_ratios("stream_sum", results)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"device: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}")
    rng = np.random.default_rng(0)
    for run in (sgemm, copy_bw, stream_sum):
        run(args.bundle, args.repeat, rng)


if __name__ == "__main__":
    main()

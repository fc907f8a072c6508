#!/usr/bin/env python3
"""NumPy on the pairs of the peers binary (src/main.rs): the same shapes,
permutations and seed.

For each pair, times in interleaved rounds (one untimed round first):

- memcpy: np.copyto(copy, x), the source's bytes into another array;
- numpy: np.ascontiguousarray(x.transpose(perm)), what one writes on the
  host to get a transposed array in memory (a new array each time, so its
  page faults are in the time);
- copyto: np.copyto(out, x.transpose(perm)) into an array made once, as
  the Rust side writes into a buffer made once.

Prints each as a fraction of memcpy: the median of memcpy's times over the
rounds divided by the median of its own (1.0 is as fast as memcpy).

Usage: python3 numpy_peer.py (needs numpy). Settings by environment, as for
the binary: PEERS_ROUNDS (5), PEERS_SEED (25), PEERS_RANDOM (6).
"""

import os
import statistics
import time

import numpy as np

MASK = (1 << 64) - 1
MIB = 1 << 20


class Rng:
    """SplitMix64, as in src/main.rs."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % max(n, 1)


def pairs(seed, count):
    """(dtype, dims, perm) for the fixed pairs, then count random ones."""
    out = [
        (np.float32, [4096, 4096], [1, 0]),
        (np.float64, [2048, 4096], [1, 0]),
        (np.float32, [128, 16, 16, 288], [3, 2, 1, 0]),
        (np.float64, [64, 16, 16, 288], [3, 2, 1, 0]),
    ]
    rng = Rng(seed)
    for _ in range(count):
        rank = 2 + rng.below(3)
        width = 4 if rng.below(2) == 0 else 8
        while True:
            dims = []
            for _ in range(rank):
                e = 1 + rng.below(12)
                dims.append((1 << e) + rng.below(1 << e))
            nbytes = width
            for d in dims:
                nbytes *= d
            if 8 * MIB <= nbytes <= 64 * MIB:
                break
        while True:
            perm = list(range(rank))
            for i in range(rank - 1, 0, -1):
                j = rng.below(i + 1)
                perm[i], perm[j] = perm[j], perm[i]
            if perm != list(range(rank)):
                break
        out.append((np.float32 if width == 4 else np.float64, dims, perm))
    return out


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def main():
    rounds = max(int(os.environ.get("PEERS_ROUNDS", "5")), 1)
    seed = int(os.environ.get("PEERS_SEED", "25"))
    count = int(os.environ.get("PEERS_RANDOM", "6"))
    print(f"numpy {np.__version__}: {rounds} rounds, seed {seed}")
    print(f"{'#':>3} {'MiB':>6} {'numpy':>6} {'copyto':>6}  pair")
    for i, (dtype, dims, perm) in enumerate(pairs(seed, count)):
        x = np.arange(int(np.prod(dims)), dtype=dtype).reshape(dims)
        copy = np.empty_like(x)
        out = np.empty([dims[p] for p in perm], dtype=dtype)
        tm, tn, tc = [], [], []
        for r in range(rounds + 1):
            m = timed(lambda: np.copyto(copy, x))
            n = timed(lambda: np.ascontiguousarray(x.transpose(perm)))
            c = timed(lambda: np.copyto(out, x.transpose(perm)))
            if r == 0:
                assert np.array_equal(out, x.transpose(perm))
            else:
                tm.append(m)
                tn.append(n)
                tc.append(c)
        m = statistics.median(tm)
        name = "f32" if dtype == np.float32 else "f64"
        shape = ",".join(str(d) for d in dims)
        print(
            f"{i:>3} {x.nbytes / MIB:>6.1f} {m / statistics.median(tn):>6.3f}"
            f" {m / statistics.median(tc):>6.3f}  {name}[{shape}] perm {perm}"
        )


if __name__ == "__main__":
    main()

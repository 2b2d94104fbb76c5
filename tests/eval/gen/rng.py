"""rng.py: the generator's own pseudo-random numbers (splitmix64), so that a
seed gives the same program with any version of Python (the random module
promises no such thing for choice, shuffle or sample)."""

import math

MASK = (1 << 64) - 1


def fnv1a(text):
    h = 0xCBF29CE484222325
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


class Rng:
    def __init__(self, seed):
        self.state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK

    def next64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def fork(self, tag):
        """An independent stream for one part of the program, so that adding
        a draw to one component does not change every other one."""
        return Rng(self.next64() ^ fnv1a(tag))

    def below(self, n):
        assert n > 0
        return self.next64() % n

    def int(self, lo, hi):
        """An integer in [lo, hi]."""
        assert lo <= hi
        return lo + self.below(hi - lo + 1)

    def real(self):
        return self.next64() / float(1 << 64)

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.real()

    def chance(self, p):
        return self.real() < p

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def weighted(self, pairs):
        """pairs: [(value, weight)]; one value, drawn by weight."""
        total = sum(w for _, w in pairs)
        x = self.uniform(0, total)
        for value, w in pairs:
            if x < w:
                return value
            x -= w
        return pairs[-1][0]

    def shuffle(self, items):
        for k in range(len(items) - 1, 0, -1):
            j = self.below(k + 1)
            items[k], items[j] = items[j], items[k]
        return items

    def size(self, lo, hi):
        """A byte size in [lo, hi], log-uniform: small sizes as common as large."""
        return int(round(math.exp(self.uniform(math.log(lo), math.log(hi)))))

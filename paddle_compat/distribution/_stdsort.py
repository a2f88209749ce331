"""The order libstdc++'s ``std::sort`` leaves equal keys in.

Paddle's CPU ``argsort`` sorts (key, index) pairs by key with ``std::sort`` (introsort: not
stable), and ``LKJCholesky``'s C-vine sampler scatters its draws in that order; reproducing the
draws bit for bit needs the same permutation. Written from the algorithm as libstdc++ implements
it (median-of-three pivot into the first slot, unguarded partition, recursion on the right part
while partitions exceed 16 elements, heapsort past the depth limit, final insertion sort); checked
against Paddle 3.3.1's argsort on tied and random keys.
"""
import functools

import numpy as np

__all__ = ["std_sort_order", "tiled_arange_order"]


def std_sort_order(keys):
    """The permutation libstdc++'s std::sort (introsort, not stable) leaves when sorting
    (key, index) pairs by key alone."""
    a = [(k, i) for i, k in enumerate(keys)]
    n = len(a)

    def less(x, y):
        return x[0] < y[0]

    def median_to_first(res, i, j, k):
        if less(a[i], a[j]):
            if less(a[j], a[k]):
                a[res], a[j] = a[j], a[res]
            elif less(a[i], a[k]):
                a[res], a[k] = a[k], a[res]
            else:
                a[res], a[i] = a[i], a[res]
        elif less(a[i], a[k]):
            a[res], a[i] = a[i], a[res]
        elif less(a[j], a[k]):
            a[res], a[k] = a[k], a[res]
        else:
            a[res], a[j] = a[j], a[res]

    def partition(first, last, pivot):
        while True:
            while less(a[first], a[pivot]):
                first += 1
            last -= 1
            while less(a[pivot], a[last]):
                last -= 1
            if not first < last:
                return first
            a[first], a[last] = a[last], a[first]
            first += 1

    def sift_down(first, hole, length, value):
        top = hole
        child = hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if less(a[first + child], a[first + child - 1]):
                child -= 1
            a[first + hole] = a[first + child]
            hole = child
        if (length & 1) == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            a[first + hole] = a[first + child - 1]
            hole = child - 1
        parent = (hole - 1) // 2
        while hole > top and less(a[first + parent], value):
            a[first + hole] = a[first + parent]
            hole = parent
            parent = (hole - 1) // 2
        a[first + hole] = value

    def heap_sort(first, last):
        length = last - first
        if length >= 2:
            parent = (length - 2) // 2
            while True:
                sift_down(first, parent, length, a[first + parent])
                if parent == 0:
                    break
                parent -= 1
        while last - first > 1:
            last -= 1
            value = a[last]
            a[last] = a[first]
            sift_down(first, 0, last - first, value)

    def loop(first, last, depth):
        while last - first > 16:
            if depth == 0:
                heap_sort(first, last)
                return
            depth -= 1
            mid = first + (last - first) // 2
            median_to_first(first, first + 1, mid, last - 1)
            cut = partition(first + 1, last, first)
            loop(cut, last, depth)
            last = cut

    def linear_insert(i):
        val = a[i]
        j = i - 1
        while less(val, a[j]):
            a[i] = a[j]
            i = j
            j -= 1
        a[i] = val

    def insertion_sort(first, last):
        for i in range(first + 1, last):
            if less(a[i], a[first]):
                val = a[i]
                a[first + 1:i + 1] = a[first:i]
                a[first] = val
            else:
                linear_insert(i)

    if n > 1:
        loop(0, n, 2 * (n.bit_length() - 1))
        if n > 16:
            insertion_sort(0, 16)
            for i in range(16, n):
                linear_insert(i)
        else:
            insertion_sort(0, n)
    return [i for _, i in a]


@functools.lru_cache(maxsize=64)
def tiled_arange_order(n, reps):
    """``std_sort_order`` of ``[0, 1, ..., n-1]`` repeated ``reps`` times (a numpy array)."""
    return np.array(std_sort_order(list(range(n)) * reps), dtype=np.int64)

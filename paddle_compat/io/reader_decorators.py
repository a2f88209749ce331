"""``paddle.reader``: Paddle's reader decorators. A *reader* is a callable with no argument
that returns an iterable of samples; each decorator takes readers and returns a new one
(nothing is read until the returned reader is called).

``cache`` (read once, replay), ``map_readers`` (a function over the samples of several
readers in step), ``shuffle`` (shuffle within windows of ``buf_size`` with Python's
``random``), ``chain`` (one after another), ``compose`` (samples side by side as one flat
tuple; ``ComposeNotAligned`` when the readers' lengths differ, unless
``check_alignment=False``), ``buffered`` (a thread reads ahead up to ``size`` samples),
``firstn`` (the first ``n``), ``xmap_readers`` (``mapper`` over the samples in
``process_num`` threads, in order with ``order=True``), ``multiprocess_reader`` (the readers
in forked processes, their samples interleaved).
"""
import itertools
import multiprocessing
import queue
import random
import sys
import threading

__all__ = []


def cache(reader):
    """A reader replaying everything ``reader`` gives (read once, now)."""
    samples = tuple(reader())

    def replay():
        yield from samples
    return replay


def map_readers(func, *readers):
    """A reader of ``func(a, b, ...)`` over the readers' samples taken in step (stops with the
    shortest)."""
    def mapped():
        yield from map(func, *[r() for r in readers])
    return mapped


def shuffle(reader, buf_size):
    """A reader giving ``reader``'s samples shuffled within consecutive windows of
    ``buf_size`` (the last window may be shorter)."""
    def shuffled():
        window = []
        for sample in reader():
            window.append(sample)
            if len(window) >= buf_size:
                random.shuffle(window)
                yield from window
                window = []
        if window:
            random.shuffle(window)
            yield from window
    return shuffled


def chain(*readers):
    """A reader giving each reader's samples in turn."""
    def chained():
        yield from itertools.chain(*[r() for r in readers])
    return chained


class ComposeNotAligned(ValueError):
    """``compose``: the readers gave different numbers of samples."""


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def compose(*readers, **kwargs):
    """A reader of the readers' samples side by side, flattened into one tuple
    (``(1, (2, 3))`` from samples 1 and (2, 3)). With ``check_alignment`` (default True) a
    reader that ends early raises ``ComposeNotAligned``; without, it stops with the shortest."""
    check = kwargs.pop("check_alignment", True)
    if kwargs:
        raise TypeError(f"compose() got unexpected keyword arguments {sorted(kwargs)}")
    missing = object()

    def composed():
        its = [r() for r in readers]
        rows = zip(*its) if not check else itertools.zip_longest(*its, fillvalue=missing)
        for row in rows:
            if check and any(s is missing for s in row):
                raise ComposeNotAligned("outputs of readers are not aligned.")
            yield sum((_as_tuple(s) for s in row), ())
    return composed


_END = object()


def buffered(reader, size):
    """A reader whose samples a background thread reads ahead, up to ``size`` waiting."""
    def read_into(it, q):
        for sample in it:
            q.put(sample)
        q.put(_END)

    def ahead():
        q = queue.Queue(maxsize=size)
        threading.Thread(target=read_into, args=(reader(), q), daemon=True).start()
        sample = q.get()
        while sample is not _END:
            yield sample
            sample = q.get()
    return ahead


def firstn(reader, n):
    """A reader of ``reader``'s first ``n`` samples."""
    def first():
        yield from itertools.islice(reader(), n)
    return first


class XmapEndSignal:
    """The end marker ``xmap_readers``' threads pass along."""


def xmap_readers(mapper, reader, process_num, buffer_size, order=False):
    """A reader of ``mapper(sample)`` computed by ``process_num`` threads (queues of
    ``buffer_size``); ``order=True`` keeps ``reader``'s order, otherwise the results come as
    they are done."""
    def xreader():
        in_q, out_q = queue.Queue(buffer_size), queue.Queue(buffer_size)
        end = XmapEndSignal()
        turn = [0]
        turn_cv = threading.Condition()

        def feed():
            for i, sample in enumerate(reader()):
                in_q.put((i, sample))
            in_q.put(end)

        def work():
            item = in_q.get()
            while not isinstance(item, XmapEndSignal):
                i, sample = item
                result = mapper(sample)
                if order:
                    with turn_cv:
                        turn_cv.wait_for(lambda: turn[0] == i)
                        out_q.put(result)
                        turn[0] += 1
                        turn_cv.notify_all()
                else:
                    out_q.put(result)
                item = in_q.get()
            in_q.put(end)           # let the other workers see the end too
            out_q.put(end)

        threading.Thread(target=feed, daemon=True).start()
        for _ in range(process_num):
            threading.Thread(target=work, daemon=True).start()
        finished = 0
        while finished < process_num:
            result = out_q.get()
            if isinstance(result, XmapEndSignal):
                finished += 1
            else:
                yield result
    return xreader


def _read_into_queue(reader, q):
    try:
        for sample in reader():
            if sample is None:
                raise ValueError("sample has None")
            q.put(sample)
        q.put(None)
    except Exception:
        q.put("")
        raise


def multiprocess_reader(readers, use_pipe=True, queue_size=1000):
    """A reader running each of ``readers`` in a forked process and giving their samples as
    they arrive (a sample may not be None). ``use_pipe`` is accepted for Paddle's signature;
    the samples always travel through one multiprocessing queue of ``queue_size``."""
    if sys.platform == "win32":
        raise NotImplementedError("The multiprocess_reader method is not supported on windows.")
    assert isinstance(readers, (list, tuple)) and len(readers) > 0, \
        "`readers` must be list or tuple."
    ctx = multiprocessing.get_context("fork")

    def merged():
        q = ctx.Queue(queue_size)
        procs = [ctx.Process(target=_read_into_queue, args=(r, q), daemon=True)
                 for r in readers]
        for p in procs:
            p.start()
        done = 0
        while done < len(readers):
            sample = q.get()
            if sample is None:
                done += 1
            elif sample == "":
                raise ValueError("multiprocess_reader: a reader process failed")
            else:
                yield sample
        for p in procs:
            p.join()
    return merged

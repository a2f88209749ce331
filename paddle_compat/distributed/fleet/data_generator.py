"""Data generators: turn text lines into the MultiSlot text format the Paddle dataset readers
consume (``run_from_stdin`` / ``run_from_memory`` write it to stdout). Subclasses write
``generate_sample(line)``, returning a function that yields ``[(slot_name, [values]), ...]``."""
import sys

__all__ = ["DataGenerator", "MultiSlotDataGenerator", "MultiSlotStringDataGenerator"]


class DataGenerator:
    def __init__(self):
        self._proto_info = None
        self.batch_size_ = 32

    def set_batch(self, batch_size):
        self.batch_size_ = batch_size

    def _emit(self, batch, out):
        for sample in self.generate_batch(batch)():
            out.write(self._gen_str(sample))

    def _run(self, lines, out):
        batch = []
        for line in lines:
            for parsed in self.generate_sample(line)():
                if parsed is None:
                    continue
                batch.append(parsed)
                if len(batch) == self.batch_size_:
                    self._emit(batch, out)
                    batch = []
        if batch:
            self._emit(batch, out)

    def run_from_memory(self):
        """Samples from ``generate_sample(None)`` written to stdout."""
        self._run([None], sys.stdout)

    def run_from_stdin(self):
        """Each stdin line through ``generate_sample``, the samples written to stdout."""
        self._run(sys.stdin, sys.stdout)

    def generate_sample(self, line):
        raise NotImplementedError("Please rewrite this function to return a list or tuple: "
                                  "[(name, [feasign, ...]), ...] or ((name, [feasign, ...]), "
                                  "...)")

    def generate_batch(self, samples):
        def local_iter():
            for s in samples:
                yield s
        return local_iter

    def _gen_str(self, line):
        raise NotImplementedError("Please inherit this class and implement _gen_str")

    def _check_line(self, line):
        if not isinstance(line, (list, tuple)):
            raise ValueError("the output of process() must be in list or tuple type, e.g. "
                             "[('words', [1926, 8, 17]), ('label', [1])]")


class MultiSlotStringDataGenerator(DataGenerator):
    """Slots of strings: ``"<n> s1 ... sn"`` per slot, slots separated by spaces."""

    def _gen_str(self, line):
        self._check_line(line)
        parts = []
        for name, elements in line:
            parts.append(str(len(elements)))
            parts.extend(elements)
        return " ".join(parts) + "\n"


class MultiSlotDataGenerator(DataGenerator):
    """Slots of ints (``uint64``) or floats: ``"<n> v1 ... vn"`` per slot; the slot names and
    types of the first sample are kept and the later samples checked against them."""

    def _gen_str(self, line):
        self._check_line(line)
        first = self._proto_info is None
        if first:
            self._proto_info = []
        elif len(line) != len(self._proto_info):
            raise ValueError("the complete field set of two given line are inconsistent.")
        out = []
        for i, item in enumerate(line):
            name, elements = item
            if not isinstance(name, str):
                raise ValueError(f"name{type(name)} must be in str type")
            if not isinstance(elements, list):
                raise ValueError(f"elements{type(elements)} must be in list type")
            if not elements:
                raise ValueError("the elements of each field can not be empty, you need "
                                 "padding it in process().")
            if first:
                self._proto_info.append((name, "uint64"))
            elif name != self._proto_info[i][0]:
                raise ValueError("the field name of two given line are not match: require<"
                                 f"{self._proto_info[i][0]}>, get<{name}>.")
            out.append(str(len(elements)))
            for e in elements:
                if isinstance(e, float):
                    self._proto_info[i] = (name, "float")
                elif not isinstance(e, int):
                    raise ValueError(f"the type of element{type(e)} must be in int or float")
                out.append(str(e))
        return " ".join(out) + "\n"

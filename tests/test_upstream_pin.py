"""tools/upstream/pin.py: Paddle's test files pinned to stored versions (path, commit, length),
checked against a local copy; and the committed custom-op lists are well formed."""
import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(REPO, "tools", "upstream")
sys.path.insert(0, TOOLS)
import pin  # noqa: E402

C1, C2 = "a" * 40, "0123456789abcdef0123456789abcdef01234567"


def _copy(root, files):
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="")


def test_pins_a_local_copy_and_verifies_it(tmp_path):
    root = tmp_path / "paddle"
    _copy(root, {"test/a/test_x.py": "print('é')\n", "test/a/util.h": "x\r\n"})
    records = tmp_path / "records"
    records.write_text(f"# read with read_file\ntest/a/util.h {C2} 3\n\n"
                       f"test/a/test_x.py {C1} 11\n")
    out = tmp_path / "list.txt"
    assert pin.main([str(records), "--root", str(root), "--out", str(out), "--title", "T"]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "# T" and lines[2].split() == ["test/a/test_x.py", C1, "11"]
    assert pin.read_records(str(out)) == {"test/a/test_x.py": (C1, 11), "test/a/util.h": (C2, 3)}
    assert pin.main(["--verify", str(out), "--root", str(root)]) == 0
    (root / "test/a/util.h").write_text("changed\n")
    assert pin.check(pin.read_records(str(out)), str(root)) == [
        "test/a/util.h: 8 characters here, 3 in the pinned version"]
    assert pin.main(["--verify", str(out), "--root", str(root)]) == 1


def test_bad_records_name_the_line(tmp_path):
    bad = tmp_path / "r"
    bad.write_text(f"test/x.py {C1}\n")
    with pytest.raises(ValueError, match=r"r:1: expected 'path commit length'"):
        pin.read_records(str(bad))
    bad.write_text(f"test/x.py {C1} 3\ntest/x.py id:12 3\n")
    with pytest.raises(ValueError, match="r:2: test/x.py is listed twice"):
        pin.read_records(str(bad))
    assert pin.main([str(bad), "--root", str(tmp_path)]) == 2


def test_missing_file_fails_the_pin(tmp_path):
    rec = tmp_path / "r"
    rec.write_text(f"test/x.py {C1} 3\n")
    p = subprocess.run([sys.executable, os.path.join(TOOLS, "pin.py"), str(rec), "--root",
                        str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 1 and "test/x.py: missing under" in p.stderr


@pytest.mark.parametrize("label", ["built", "newer"])
def test_committed_custom_op_lists(label):
    recs = pin.read_records(os.path.join(TOOLS, f"custom_op_files_{label}.txt"))
    assert "test/custom_op/utils.py" in recs and len(recs) >= 30
    assert all(p.startswith("test/custom_op/") for p in recs)

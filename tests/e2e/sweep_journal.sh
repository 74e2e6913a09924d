# Helpers for the journal tests (docs/sweep.md §Nothing is lost; issue 42 N15). Each journal row ends with the
# CRC-32 of its text seeded with the CRC-32 of the plan's hash (16 hex digits, line 1): zlib's crc32 is the same
# function as libdeflate_crc32, so Python can make a row with a valid check.
# journal_set_row FILE LINE PYTHON-RE-SUB: the row at LINE edited by re.sub(pattern, repl) and given a valid check
journal_set_row() {
    python3 - "$1" "$2" "$3" <<'PY'
import re, sys, zlib
path, n, sub = sys.argv[1], int(sys.argv[2]), sys.argv[3]
_, pat, rep, _ = sub.split("/")
lines = open(path, "rb").read().decode().split("\n")
seed = zlib.crc32(re.search(r"plan ([0-9a-f]{16})", lines[0]).group(1).encode())
text = re.sub(pat, rep, lines[n - 1].rsplit(",", 1)[0])
lines[n - 1] = "%s,%08x" % (text, zlib.crc32(text.encode(), seed))
open(path, "wb").write("\n".join(lines).encode())
PY
}

# tests/integration/damage-index.py DB INDEX: overwrite part of the root
# page of INDEX in the SQLite file DB (after folding the WAL into it), so
# that PRAGMA integrity_check fails while the tables still read.
import sqlite3
import sys

path, index = sys.argv[1], sys.argv[2]
db = sqlite3.connect(path)
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
root = db.execute("SELECT rootpage FROM sqlite_schema WHERE name = ?", (index,)).fetchone()[0]
psize = db.execute("PRAGMA page_size").fetchone()[0]
db.close()
with open(path, "r+b") as f:
    f.seek((root - 1) * psize + 8)
    f.write(b"\xff" * 64)

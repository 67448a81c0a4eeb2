#!/usr/bin/env python3
# tests/integration/bundle-craft.py: build bundles that plumb would never
# write, for the tests of the bundle reader (hostile members, bad
# checksums, odd compression).  Only the standard library and the zstd
# command are used, so the bundles are made independently of plumb's
# writer.
#
#   bundle-craft.py OUT [--from BUNDLE] [OPERATION...]
#
# The entries start as those of BUNDLE (or empty) and the operations apply
# in order:
#   --file NAME=TEXT      add or replace a regular file (TEXT may be @PATH)
#   --append NAME=TEXT    add a regular file even if the name exists
#   --dir NAME            add a folder entry
#   --symlink NAME=TARGET, --hardlink NAME=TARGET
#   --chr NAME, --blk NAME, --fifo NAME
#   --type T:NAME=TEXT    add an entry of tar type T (one character, or NUL)
#                         holding TEXT (--type Z:x=hi, --type NUL:x=hi,
#                         --type V:vol=, --type S:x= for a GNU sparse entry
#                         with an empty map; use --format gnu for V and S)
#   --pax NAME=KEY=VALUE  add a regular file NAME with a pax record KEY whose
#                         value is VALUE with backslash escapes (\\x00)
#   --many N=PREFIX       add N small files PREFIX0 ... PREFIX<N-1>
#   --drop NAME           remove every entry of that name
#   --resum               rewrite SHA256SUMS over the regular files
#   --format pax|gnu|ustar
#   --zstd ARGS           zstd options, e.g. "--long=31" (default "-3")
#   --tar                 write the tar stream without zstd
#   --trailer HEX         append these bytes to the tar stream after its end
#   --bomb BYTES          append a zstd frame of BYTES zero bytes made of RLE
#                         blocks (4 bytes of file per 128 KiB)
import hashlib
import io
import subprocess
import sys
import tarfile


def load(path):
    raw = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    entries = []
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:") as t:
        for m in t.getmembers():
            data = t.extractfile(m).read() if m.isfile() else b""
            entries.append((m, data))
    return entries


def text_arg(v):
    if v.startswith("@"):
        with open(v[1:], "rb") as f:
            return f.read()
    return v.encode()


def reg(name, data, mtime=0):
    ti = tarfile.TarInfo(name)
    ti.size = len(data)
    ti.mode = 0o644
    ti.mtime = mtime
    return ti, data


def rle_frame(size):
    # Frame header: magic, descriptor 0 (no checksum, no content size),
    # window 128 KiB; then RLE blocks of up to 128 KiB of one zero byte.
    out = bytearray(b"\x28\xb5\x2f\xfd\x00" + bytes([(17 - 10) << 3]))
    block = 128 * 1024
    while size > 0:
        n = min(size, block)
        size -= n
        hdr = (1 if size == 0 else 0) | (1 << 1) | (n << 3)
        out += hdr.to_bytes(3, "little") + b"\x00"
    return bytes(out)


def main(argv):
    out = argv[0]
    args = argv[1:]
    entries = []
    fmt = tarfile.PAX_FORMAT
    zargs = ["-3"]
    raw_tar = False
    trailer = b""
    bomb = 0
    i = 0
    while i < len(args):
        op = args[i]
        val = args[i + 1] if i + 1 < len(args) else None
        i += 2
        if op == "--from":
            entries = load(val)
        elif op in ("--file", "--append"):
            name, _, text = val.partition("=")
            data = text_arg(text)
            if op == "--file" and any(m.name == name for m, _ in entries):
                entries = [(reg(name, data)[0], data) if m.name == name else (m, d)
                           for m, d in entries]
            else:
                entries.append(reg(name, data))
        elif op == "--dir":
            ti = tarfile.TarInfo(val)
            ti.type = tarfile.DIRTYPE
            ti.mode = 0o755
            entries.append((ti, b""))
        elif op in ("--symlink", "--hardlink"):
            name, _, target = val.partition("=")
            ti = tarfile.TarInfo(name)
            ti.type = tarfile.SYMTYPE if op == "--symlink" else tarfile.LNKTYPE
            ti.linkname = target
            entries.append((ti, b""))
        elif op in ("--chr", "--blk", "--fifo"):
            ti = tarfile.TarInfo(val)
            ti.type = {"--chr": tarfile.CHRTYPE, "--blk": tarfile.BLKTYPE,
                       "--fifo": tarfile.FIFOTYPE}[op]
            ti.devmajor, ti.devminor = 1, 3
            entries.append((ti, b""))
        elif op == "--type":
            t, _, rest = val.partition(":")
            name, _, text = rest.partition("=")
            data = text_arg(text)
            ti, _ = reg(name, data)
            ti.type = b"\0" if t == "NUL" else t.encode()
            entries.append((ti, data))
        elif op == "--pax":
            name, _, rest = val.partition("=")
            key, _, value = rest.partition("=")
            ti, data = reg(name, b"x")
            ti.pax_headers = {key: value.encode().decode("unicode_escape")}
            entries.append((ti, data))
        elif op == "--many":
            n, _, prefix = val.partition("=")
            for k in range(int(n)):
                entries.append(reg("%s%d" % (prefix, k), b"%d\n" % k))
        elif op == "--drop":
            entries = [(m, d) for m, d in entries if m.name != val]
        elif op == "--resum":
            i -= 1
            files = sorted((m.name, d) for m, d in entries
                           if m.isfile() and m.name not in ("SHA256SUMS", "SHA256SUMS.sig"))
            sums = "".join("%s  %s\n" % (hashlib.sha256(d).hexdigest(), n)
                           for n, d in files).encode()
            entries = [(reg("SHA256SUMS", sums)[0], sums) if m.name == "SHA256SUMS"
                       else (m, d) for m, d in entries]
        elif op == "--format":
            fmt = {"pax": tarfile.PAX_FORMAT, "gnu": tarfile.GNU_FORMAT,
                   "ustar": tarfile.USTAR_FORMAT}[val]
        elif op == "--zstd":
            zargs = val.split()
        elif op == "--tar":
            i -= 1
            raw_tar = True
        elif op == "--trailer":
            trailer = bytes.fromhex(val)
        elif op == "--bomb":
            bomb = int(val)
        else:
            sys.exit("bundle-craft.py: unknown operation " + op)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as t:
        for m, d in entries:
            t.addfile(m, io.BytesIO(d) if m.isfile() or m.size else None)
    tar = buf.getvalue() + trailer
    if raw_tar:
        data = tar
    else:
        data = subprocess.run(["zstd", "-q", "-c"] + zargs, input=tar, check=True,
                              capture_output=True).stdout
    if bomb:
        data += rle_frame(bomb)
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main(sys.argv[1:])

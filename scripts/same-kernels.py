#!/usr/bin/env python3
"""Whether two builds' CUDA cubins hold the same machine code, kernel by kernel.

The rates in kernels/sw/sw_configs.inc were measured on the code the
compiler scheduled; a change meant to leave the kernels as they are (a
refactor, a comment, a host-side edit) can be checked without a GPU. Each
side is a cubin or a folder of them (its *.cubin files taken together, as
the kernels of gpu-sw are compiled in the units kernels/sw/sw_instantiations_*.cu):

    mkdir before; for f in kernels/sw/sw_instantiations_*.cu; do
        nvcc <the build's flags> -arch=sm_90 -cubin $f -o before/$(basename $f .cu).cubin; done
    (make the change, and the same into after/)
    scripts/same-kernels.py before after

(or, from a build's objects, `cuobjdump -xelf all <object>` in each folder
writes its cubins, one per architecture: keep the sm_90 ones). It compares
every .text section (one a kernel) byte for byte and exits 0 when all are
identical, 1 otherwise, naming the kernels that differ.
"""
import struct
import sys
from pathlib import Path


def text_sections(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit(f"{path}: not a 64-bit ELF cubin")
    # A host object (nvcc -c) is an ELF too, with the host's .text sections.
    if struct.unpack_from("<H", data, 0x12)[0] != 190:  # EM_CUDA
        sys.exit(f"{path}: an ELF file, but not a CUDA cubin (build it with nvcc -cubin)")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = headers[shstrndx][4]

    def name(offset):
        end = data.index(b"\0", names_at + offset)
        return data[names_at + offset:end].decode()

    return {name(h[0]): data[h[4]:h[4] + h[5]] for h in headers if name(h[0]).startswith(".text.")}


def kernels(path):
    """{.text section: code} of a cubin, or of every *.cubin in a folder."""
    p = Path(path)
    if not p.is_dir():
        return text_sections(path)
    cubins = sorted(p.glob("*.cubin"))
    if not cubins:
        sys.exit(f"{path}: a folder without *.cubin files")
    found = {}
    for c in cubins:
        for name, code in text_sections(c).items():
            if name in found and found[name] != code:
                sys.exit(f"{path}: two different {name[len('.text.'):]} in its cubins")
            found[name] = code
    return found


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: same-kernels.py BEFORE AFTER (each a cubin or a folder of cubins)")
    before, after = kernels(sys.argv[1]), kernels(sys.argv[2])
    differ = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
    only = sorted(before.keys() ^ after.keys())
    for k in differ:
        print("differs:", k[len(".text."):])
    for k in only:
        print("in one only:", k[len(".text."):])
    same = len(before.keys() & after.keys()) - len(differ)
    print(f"{same} of {len(before.keys() | after.keys())} kernels identical")
    return 1 if differ or only else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Whether two CUDA cubins hold the same machine code, kernel by kernel.

The rates in kernels/sw/sw_cuda.cu's kConfigs were measured on the code the
compiler scheduled; a change meant to leave the kernels as they are (a
refactor, a comment, a host-side edit) can be checked without a GPU:

    nvcc <the build's flags> -arch=sm_90 -cubin kernels/sw/sw_cuda.cu -o before.cubin
    (make the change)
    nvcc <the same flags> -arch=sm_90 -cubin kernels/sw/sw_cuda.cu -o after.cubin
    scripts/same-kernels.py before.cubin after.cubin

It compares every .text section (one a kernel) byte for byte and exits 0
when all are identical, 1 otherwise, naming the kernels that differ.
"""
import struct
import sys


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


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: same-kernels.py BEFORE.cubin AFTER.cubin")
    before, after = text_sections(sys.argv[1]), text_sections(sys.argv[2])
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

#!/usr/bin/env python3
"""Rewrites the seeds of fuzz/corpus/ that carry a format version and a checksum (sample
files, journals, checkpoints, cluster entries) for the formats this build writes, so that
fuzzing reaches the parsers instead of stopping at a version check. Run it after a format
version changes:

    build/app/veletas init-model --config configs/tiny.yaml --out /tmp/seed.ckpt
    build/app/veletas selfplay --config configs/tiny.yaml --model /tmp/seed.ckpt --games 1 \\
        --out /tmp/seed
    scripts/fuzz_corpus.py /tmp/seed/samples_0.vzs

The sample file must hold one standard 7x7 game (what the journal and cluster targets
read). The checkpoint and cluster seeds keep their contents; only their version fields and
checksums change. Checksums are XXH3 64 (util::Checksum64), from the libxxhash the build
links.
"""
import ctypes
import ctypes.util
import os
import struct
import subprocess
import sys

SAMPLE_VERSION = 3     # data/sample_file.h
CHECKPOINT_VERSION = 2  # model/base/checkpoint_file.h kCheckpointFormatVersion
ENTRY_VERSION = 2      # cluster/transport/entry.cpp kVersion
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz", "corpus")

_xxhash = ctypes.CDLL(ctypes.util.find_library("xxhash") or "libxxhash.so.0")
_xxhash.XXH3_64bits.restype = ctypes.c_uint64
_xxhash.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]


def xxh3(data):
    return _xxhash.XXH3_64bits(data, len(data))


def path(*parts):
    return os.path.join(CORPUS, *parts)


def read(*parts):
    with open(path(*parts), "rb") as f:
        return f.read()


def write(data, *parts):
    with open(path(*parts), "wb") as f:
        f.write(data)


def sample_seeds(sample):
    """Whole-file mode (first byte even) and header + raw payload mode (odd)."""
    raw = subprocess.run(["zstd", "-d", "-c"], input=sample[64:], check=True,
                         stdout=subprocess.PIPE).stdout
    write(b"\x00" + sample, "sample_file", "file_one_game.vzs")
    write(b"\x01" + sample[:64] + raw, "sample_file", "payload_one_game.bin")


def journal_entry(index, sample):
    return b"VZJ3" + struct.pack("<QIQ", index, len(sample), xxh3(sample)) + sample


def journal_seeds(sample):
    write(journal_entry(0, sample), "game_journal", "one_entry.vzs.part")
    second = journal_entry(1, sample)
    write(journal_entry(0, sample) + second[:len(second) // 2], "game_journal",
          "torn_entry.vzs.part")


def checkpoint_seed():
    old = read("checkpoint", "container.ckpt")
    selector, file = old[:1], old[1:]
    assert file[:8] == b"VELZCKPT", "container.ckpt is not a checkpoint seed"
    header_size = struct.unpack_from("<I", file, 12)[0]
    payload = file[header_size:]
    header = file[:8] + struct.pack("<IIQQ", CHECKPOINT_VERSION, header_size, len(payload),
                                    xxh3(payload))
    write(selector + header + payload, "checkpoint", "container.ckpt")


def with_checksum(body):
    return body + struct.pack("<Q", xxh3(body))


def entry_seeds(sample):
    for name in ["arena_entry.bin", "arena_entry_fixup.bin"]:
        old = read("cluster", name)
        body = bytearray(old[1:-8])
        assert body[:4] == b"VZCE", name
        struct.pack_into("<I", body, 4, ENTRY_VERSION)
        write(old[:1] + with_checksum(bytes(body)), "cluster", name)
    old = read("cluster", "selfplay_entry.bin")
    entry = old[1:]
    at = 4 + 4 + 1 + 16  # magic, version, kind, game id
    at += 1 + entry[at]  # the worker id
    at += 32             # the network's sha256
    body = bytearray(entry[:at])
    struct.pack_into("<I", body, 4, ENTRY_VERSION)
    body += struct.pack("<I", len(sample)) + sample
    write(old[:1] + with_checksum(bytes(body)), "cluster", "selfplay_entry.bin")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        sample = f.read()
    if sample[:8] != b"VELZSMPL" or struct.unpack_from("<I", sample, 8)[0] != SAMPLE_VERSION:
        sys.exit(f"{sys.argv[1]}: not a version {SAMPLE_VERSION} sample file")
    sample_seeds(sample)
    journal_seeds(sample)
    checkpoint_seed()
    entry_seeds(sample)


if __name__ == "__main__":
    main()

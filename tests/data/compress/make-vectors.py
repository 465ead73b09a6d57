#!/usr/bin/env python3
"""Make the project's own compression test vectors (tests/data/compress).

    python3 tests/data/compress/make-vectors.py      # rewrites the files beside this script

Inputs are generated here (words.bin: pseudo-random English-like text; code.bin: pseudo x86 code
full of E8/E9 call and jump opcodes for the BCJ filter; zeros-1m: 1 MiB of zeros). Outputs:

  NAME.efi11 / NAME.tiano  EFI 1.1 / Tiano streams made by the small encoder below, written from
                           the UEFI specification's description of the format (8-byte header,
                           MSB-first bits, blocks of static Huffman codes for the T, C and P sets).
                           The two differ only in the width of the P-set count (4 vs 5 bits).
  NAME.lzma                13-byte LZMA header (props, dictionary, real size) + raw LZMA1 stream
  NAME-eopm.lzma           the .lzma "alone" form with an unknown size (all ones) and an end marker
  NAME.lzmaf86             the same with the x86 BCJ filter applied before LZMA
  NAME.brotli              u64 DecodedSize, u64 ScratchSize, then a Brotli stream (libbrotlienc)
  NAME.zlib-amd            0x100-byte header with the compressed size at 0x14, then zlib
  NAME.gzip                a gzip member
"""
import ctypes
import ctypes.util
import gzip
import heapq
import lzma
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def lcg(seed):
    while True:
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        yield seed


def make_words(size=24000):
    words = ("firmware volume section file header checksum compressed setup option menu default value "
             "question form string package variable store attribute guid offset width iommu snp acs").split()
    r = lcg(7)
    out = []
    n = 0
    while n < size:
        w = words[next(r) % len(words)]
        sep = ". " if next(r) % 11 == 0 else " "
        out.append(w + sep)
        n += len(w) + len(sep)
    return "".join(out).encode()[:size]


def make_code(size=16384):
    r = lcg(99)
    b = bytearray()
    while len(b) < size:
        k = next(r) % 7
        if k == 0:
            b += bytes([0xE8]) + struct.pack("<i", (next(r) % 40000) - 20000)
        elif k == 1:
            b += bytes([0xE9]) + struct.pack("<i", (next(r) % 4000) - 2000)
        else:
            b += bytes([0x48, 0x89, 0x5C, 0x24, next(r) & 0xF8])
    return bytes(b[:size])


# --- EFI 1.1 / Tiano encoder -------------------------------------------------------------------

NC, NT, CBIT, TBIT, MAXMATCH, THRESHOLD = 510, 19, 9, 5, 256, 3
WINDOW = 8192  # distances the EFI 1.1 P set can express


class BitWriter:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def put(self, nbits, value):
        for i in range(nbits - 1, -1, -1):
            self.acc = (self.acc << 1) | ((value >> i) & 1)
            self.n += 1
            if self.n == 8:
                self.out.append(self.acc)
                self.acc = self.n = 0

    def flush(self):
        if self.n:
            self.out.append(self.acc << (8 - self.n))
            self.acc = self.n = 0
        return bytes(self.out)


def huffman_lengths(freq, limit=16):
    """Code lengths for the used symbols, at most `limit` bits (frequencies are flattened until
    the tree fits)."""
    freq = list(freq)
    while True:
        used = [(f, i) for i, f in enumerate(freq) if f > 0]
        lengths = [0] * len(freq)
        if len(used) <= 1:
            return lengths
        heap = [(f, i, [i]) for f, i in used]
        heapq.heapify(heap)
        tie = len(freq)
        while len(heap) > 1:
            f1, _, s1 = heapq.heappop(heap)
            f2, _, s2 = heapq.heappop(heap)
            for s in s1 + s2:
                lengths[s] += 1
            heapq.heappush(heap, (f1 + f2, tie, s1 + s2))
            tie += 1
        if max(lengths) <= limit:
            return lengths
        freq = [(f >> 1) + 1 if f else 0 for f in freq]


def canonical_codes(lengths):
    """Codes as the decoder's table builder assigns them: by length, then by symbol."""
    codes = [0] * len(lengths)
    start = [0] * 18
    for ln in range(1, 17):
        start[ln + 1] = start[ln] + (lengths.count(ln) << (16 - ln))
    for sym, ln in enumerate(lengths):
        if ln:
            codes[sym] = start[ln] >> (16 - ln)
            start[ln] += 1 << (16 - ln)
    return codes


def single_symbol(freq):
    used = [i for i, f in enumerate(freq) if f > 0]
    return used[0] if len(used) == 1 else (0 if not used else None)


def write_pt_len(bw, lengths, nbit, special):
    n = len(lengths)
    while n > 0 and lengths[n - 1] == 0:
        n -= 1
    bw.put(nbit, n)
    i = 0
    while i < n:
        k = lengths[i]
        i += 1
        if k <= 6:
            bw.put(3, k)
        else:
            bw.put(k - 3, ((1 << (k - 3)) - 2))  # 111, (k - 7) ones, then a zero
        if i == special:
            while i < 6 and i < n and lengths[i] == 0:
                i += 1
            bw.put(2, i - 3)


def c_len_tokens(c_len):
    """The T-set symbols (with extra bits) that send the C lengths."""
    n = len(c_len)
    while n > 0 and c_len[n - 1] == 0:
        n -= 1
    toks = []
    i = 0
    while i < n:
        k = c_len[i]
        i += 1
        if k == 0:
            run = 1
            while i < n and c_len[i] == 0:
                i += 1
                run += 1
            if run <= 2:
                toks += [(0, 0, 0)] * run
            elif run <= 18:
                toks.append((1, 4, run - 3))
            elif run == 19:
                toks += [(0, 0, 0), (1, 4, 15)]
            else:
                toks.append((2, CBIT, run - 20))
        else:
            toks.append((k + 2, 0, 0))
    return n, toks


def p_symbol(pos):
    if pos <= 1:
        return pos, 0, 0
    v = pos.bit_length()
    return v, v - 1, pos - (1 << (v - 1))


def lz77(data):
    """Greedy matching over a 3-byte hash chain: ('lit', byte) or ('match', length, pos)."""
    tokens = []
    heads = {}
    i = 0
    while i < len(data):
        best_len, best_pos = 0, 0
        if i + THRESHOLD <= len(data):
            key = data[i:i + 3]
            for j in reversed(heads.get(key, [])[-16:]):
                if i - j > WINDOW:
                    break
                ln = 0
                while ln < MAXMATCH and i + ln < len(data) and data[j + ln] == data[i + ln]:
                    ln += 1
                if ln > best_len:
                    best_len, best_pos = ln, i - j - 1
        step = best_len if best_len >= THRESHOLD else 1
        for k in range(i, i + step):
            if k + 3 <= len(data):
                heads.setdefault(data[k:k + 3], []).append(k)
        if best_len >= THRESHOLD:
            tokens.append(("match", best_len, best_pos))
        else:
            tokens.append(("lit", data[i]))
        i += step
    return tokens


def efi_compress(data, pbit):
    tokens = lz77(data)
    np_ = (1 << pbit) - 1
    bw = BitWriter()
    for b0 in range(0, max(len(tokens), 1), 0x4000):
        block = tokens[b0:b0 + 0x4000]
        if not block:
            break
        c_freq = [0] * NC
        p_freq = [0] * np_
        for t in block:
            if t[0] == "lit":
                c_freq[t[1]] += 1
            else:
                c_freq[t[1] + 256 - THRESHOLD] += 1
                p_freq[p_symbol(t[2])[0]] += 1
        bw.put(16, len(block))
        c_only = single_symbol(c_freq)
        c_len = [0] * NC if c_only is not None else huffman_lengths(c_freq)
        if c_only is not None:
            # T set unused; C sent as "count 0, the one symbol"
            bw.put(TBIT, 0)
            bw.put(TBIT, 0)
            bw.put(CBIT, 0)
            bw.put(CBIT, c_only)
        else:
            n, toks = c_len_tokens(c_len)
            t_freq = [0] * NT
            for sym, _, _ in toks:
                t_freq[sym] += 1
            t_only = single_symbol(t_freq)
            if t_only is not None:
                t_len = [0] * NT
                bw.put(TBIT, 0)
                bw.put(TBIT, t_only)
            else:
                t_len = huffman_lengths(t_freq)
                write_pt_len(bw, t_len, TBIT, 3)
            t_code = canonical_codes(t_len)
            bw.put(CBIT, n)
            for sym, nb, extra in toks:
                bw.put(t_len[sym], t_code[sym])
                if nb:
                    bw.put(nb, extra)
        c_code = canonical_codes(c_len)
        p_only = single_symbol(p_freq)
        if p_only is not None:
            p_len = [0] * np_
            bw.put(pbit, 0)
            bw.put(pbit, p_only)
        else:
            p_len = huffman_lengths(p_freq)
            write_pt_len(bw, p_len, pbit, -1)
        p_code = canonical_codes(p_len)
        for t in block:
            if t[0] == "lit":
                bw.put(c_len[t[1]], c_code[t[1]])
            else:
                c = t[1] + 256 - THRESHOLD
                bw.put(c_len[c], c_code[c])
                v, nb, extra = p_symbol(t[2])
                bw.put(p_len[v], p_code[v])
                if nb:
                    bw.put(nb, extra)
    body = bw.flush()
    return struct.pack("<II", len(body), len(data)) + body


# --- the others --------------------------------------------------------------------------------

def lzma_with_header(data, x86):
    filters = [{"id": lzma.FILTER_LZMA1, "dict_size": 1 << 16, "lc": 3, "lp": 0, "pb": 2}]
    if x86:
        filters.insert(0, {"id": lzma.FILTER_X86})
    raw = lzma.compress(data, format=lzma.FORMAT_RAW, filters=filters)
    props = (2 * 5 + 0) * 9 + 3
    return struct.pack("<BIQ", props, 1 << 16, len(data)) + raw


def brotli_section(data):
    lib = ctypes.CDLL(ctypes.util.find_library("brotlienc") or "libbrotlienc.so.1")
    cap = len(data) + 1024
    out = ctypes.create_string_buffer(cap)
    size = ctypes.c_size_t(cap)
    ok = lib.BrotliEncoderCompress(ctypes.c_int(9), ctypes.c_int(16), ctypes.c_int(0), ctypes.c_size_t(len(data)),
                                   ctypes.c_char_p(data), ctypes.byref(size), out)
    if not ok:
        raise SystemExit("BrotliEncoderCompress failed")
    return struct.pack("<QQ", len(data), 0) + out.raw[:size.value]


def amd_zlib(data):
    z = zlib.compress(data, 9)
    header = bytearray(0x100)
    struct.pack_into("<I", header, 0x14, len(z))
    return bytes(header) + z


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    words = make_words()
    code = make_code()
    write("words.bin", words)
    write("code.bin", code)
    write("words.efi11", efi_compress(words, 4))
    write("words.tiano", efi_compress(words, 5))
    write("words.lzma", lzma_with_header(words, False))
    write("code.lzmaf86", lzma_with_header(code, True))
    write("words-eopm.lzma", lzma.compress(words, format=lzma.FORMAT_ALONE, preset=6))
    write("words.brotli", brotli_section(words))
    write("words.zlib-amd", amd_zlib(words))
    write("words.gzip", gzip.compress(words, 9, mtime=0))
    write("zeros-1m.zlib-amd", amd_zlib(bytes(1 << 20)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Make the project's own firmware fixtures (tests/data/firmware): small volumes built here from
the PI specification's layouts, so the parser tests and the CLI golden tests run on a clone
without any third-party firmware.

    python3 tests/data/firmware/make-fixtures.py

  mini.fv       an FFSv2 volume (ext header in a pad file, as EDK2 lays it out) with a DXE driver
                (depex, PE32+ with an HII form package, UI, version), LZMA / EFI 1.1 / Tiano /
                Brotli / AMD zlib / CRC32 sections, a nested volume with a PEIM (TE image) inside
                the LZMA section, a raw file holding another volume, a pad file and free space
  broken.fv     the same kind of volume with a bad volume checksum, a file with a bad header
                checksum, one with a bad data checksum, a deleted file, a section whose size runs
                past its file, an unknown GUID-defined section that needs processing, corrupt LZMA
                and trailing non-UEFI data
  mini.cap      an EFI capsule (3B6686BD) around 0x100 bytes of padding and mini.fv
  dxe.ffs       the DXE driver of mini.fv as a lone FFS file
  pe32.sct      its PE32 section alone (a section file as UEFITool exports it)
  ffs3.fv       an FFSv3 volume with a large file (EFI_FFS_FILE_HEADER2) and a SECTION2 raw section
  more.fv       the remaining section kinds: LZMA F86, GZip, FIRMWARE_CONTENTS_SIGNED and RSA2048/SHA256
                signed sections, a stored compression section, a type-1 compression section holding
                Tiano data, a disposable section, postcode and 16-bit sections, a PEI apriori list,
                MM depex with SOR and a depex without END
  evil.fv       files whose UI names try to escape an extraction folder: "../../x", "/etc/passwd",
                control characters, a 300-character name, "." and ".."
"""
import lzma
import os
import struct
import sys
import uuid
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compress"))
from importlib import import_module  # noqa: E402

vectors = import_module("make-vectors")


def g(s):
    return uuid.UUID(s).bytes_le


FFS2 = g("8C8CE578-8A3D-4F1C-9935-896185C32DD3")
FFS3 = g("5473C07A-3DCB-4DCA-BD6F-1E9689E7349A")
LZMA = g("EE4E5898-3914-4259-9D6E-DC7BD79403CF")
TIANO = g("A31280AD-481E-41B6-95E8-127F4C984779")
BROTLI = g("3D532050-5CDA-4FD0-879E-0F7F630D5AFB")
AMDZLIB = g("CE3233F5-2CD6-4D87-9152-4A238BB6D1C4")
CRC32 = g("FC1BCDB0-7D31-49AA-936A-A4600D9DD083")
PCD_PROTOCOL = g("11B34006-D85B-4D0A-A290-D5A571310EF7")  # gPcdProtocolGuid, MdePkg.dec
PAD_GUID = b"\xff" * 16

DXE_GUID = g("F1E2D3C4-0001-4F00-8000-000000000001")
LZMA_FILE = g("F1E2D3C4-0002-4F00-8000-000000000002")
EFI_FILE = g("F1E2D3C4-0003-4F00-8000-000000000003")
TIANO_FILE = g("F1E2D3C4-0004-4F00-8000-000000000004")
BROTLI_FILE = g("F1E2D3C4-0005-4F00-8000-000000000005")
ZLIB_FILE = g("F1E2D3C4-0006-4F00-8000-000000000006")
CRC_FILE = g("F1E2D3C4-0007-4F00-8000-000000000007")
RAW_FILE = g("F1E2D3C4-0008-4F00-8000-000000000008")
PEIM_GUID = g("F1E2D3C4-0009-4F00-8000-000000000009")
INNER_FV = g("F1E2D3C4-000A-4F00-8000-00000000000A")
RAWFV_NAME = g("F1E2D3C4-000B-4F00-8000-00000000000B")
OUTER_FV = g("F1E2D3C4-000C-4F00-8000-00000000000C")
FORMSET = g("F1E2D3C4-000D-4F00-8000-00000000000D")


def ucs2(s):
    return (s + "\0").encode("utf-16-le")


def align(b, n, fill=b"\0"):
    return b + fill * ((-len(b)) % n)


def section(stype, body):
    size = 4 + len(body)
    return struct.pack("<I", size)[:3] + bytes([stype]) + body


def section2(stype, body):
    return b"\xff\xff\xff" + bytes([stype]) + struct.pack("<I", 8 + len(body)) + body


def sections(*secs):
    out = b""
    for s in secs:
        out = align(out, 4) + s
    return out


def guided(guid, data, attrs=1, extra=b""):
    offset = 4 + 20 + len(extra)
    return section(0x02, guid + struct.pack("<HH", offset, attrs) + extra + data)


def pe32(hii=False):
    """A PE32+ header (x64, EFI boot service driver) and a little body."""
    dos = bytearray(0x40)
    dos[0:2] = b"MZ"
    struct.pack_into("<I", dos, 0x3C, 0x40)
    coff = struct.pack("<HHIIIHH", 0x8664, 0, 0x5F5E1000, 0, 0, 0xF0, 0x2022)
    opt = bytearray(0xF0)
    struct.pack_into("<HBBIII", opt, 0, 0x20B, 14, 0, 0x200, 0x100, 0)
    struct.pack_into("<II", opt, 16, 0x1000, 0x1000)
    struct.pack_into("<QII", opt, 24, 0, 0x1000, 0x200)
    struct.pack_into("<II", opt, 56, 0x3000, 0x200)
    struct.pack_into("<H", opt, 68, 11)
    img = bytes(dos) + b"PE\0\0" + coff + bytes(opt)
    img = align(img, 0x200)
    body = b"\x55\x48\x89\xe5\xc3" * 8
    if hii:
        # EFI_HII_PACKAGE_FORMS header, then EFI_IFR_FORM_SET (scope, one class GUID), END
        form_set = bytes([0x0E, 0x80 | 0x27]) + FORMSET + struct.pack("<HHB", 2, 3, 1) + bytes(16)
        pkg = form_set + bytes([0x29, 0x02])
        body += struct.pack("<I", 4 + len(pkg))[:3] + b"\x02" + pkg
    return img + body


def te_image():
    hdr = struct.pack("<HHBBHIIQ", 0x5A56, 0x8664, 1, 11, 0x1C0, 0x400, 0x260, 0xFFC00000) + bytes(16)
    return hdr + b"\xc3" * 32


def ffs_file(guid, ftype, body, attrs=0x00, state=0xF8, bad_header=False, bad_data=False, large=False):
    hs = 32 if large else 24
    size = hs + len(body)
    if attrs & 0x40:
        data_sum = (-sum(body)) & 0xFF
    else:
        data_sum = 0xAA
    if bad_data:
        data_sum ^= 0x5A
    size_field = b"\0\0\0" if large else struct.pack("<I", size)[:3]
    hdr = bytearray(guid + bytes([0, 0, ftype, attrs]) + size_field + bytes([0]))
    if large:
        hdr += struct.pack("<Q", size)
    hdr[0x10] = (-sum(hdr)) & 0xFF
    if bad_header:
        hdr[0x10] ^= 0x11
    hdr[0x11] = data_sum
    hdr[0x17] = state
    return bytes(hdr) + body


def volume(files, length, fv_name, fs=FFS2, bad_checksum=False, tail=b""):
    ext = fv_name + struct.pack("<I", 0x14)
    pad = ffs_file(PAD_GUID, 0xF0, ext)
    hdr = bytearray(bytes(16) + fs + struct.pack("<Q", length) + b"_FVH" +
                    struct.pack("<IHHHBB", 0x0004FEFF, 0x48, 0, 0x60, 0, 2) +
                    struct.pack("<IIII", length // 0x100, 0x100, 0, 0))
    body = pad
    for f in files:
        body = align(body, 8, b"\xff") + f
    data = bytes(hdr) + body
    data = align(data, 8, b"\xff") + tail
    if len(data) > length:
        raise SystemExit("volume overflows: %d > %d" % (len(data), length))
    data += b"\xff" * (length - len(data))
    data = bytearray(data)
    s = sum(struct.unpack_from("<36H", data, 0)) & 0xFFFF
    struct.pack_into("<H", data, 0x32, (-s) & 0xFFFF)
    if bad_checksum:
        data[0x32] ^= 1
    return bytes(data)


def lzma_data(data):
    raw = lzma.compress(data, format=lzma.FORMAT_RAW,
                        filters=[{"id": lzma.FILTER_LZMA1, "dict_size": 1 << 16, "lc": 3, "lp": 0, "pb": 2}])
    return struct.pack("<BIQ", 0x5D, 1 << 16, len(data)) + raw


def dxe_driver():
    depex = b"\x06" + b"\x02" + PCD_PROTOCOL + b"\x03" + b"\x08"  # TRUE, PUSH gPcdProtocolGuid, AND, END
    return ffs_file(DXE_GUID, 0x07, sections(
        section(0x13, depex),
        section(0x10, pe32(hii=True)),
        section(0x15, ucs2("FwlensSampleDxe")),
        section(0x14, struct.pack("<H", 7) + ucs2("1.0"))), attrs=0x40)


def mini():
    peim = ffs_file(PEIM_GUID, 0x06, sections(
        section(0x1B, b"\x06\x08"),
        section(0x12, te_image()),
        section(0x15, ucs2("FwlensSamplePei"))))
    inner = volume([peim], 0x400, INNER_FV)
    lzma_payload = sections(section(0x19, b"hello, firmware"), section(0x17, inner))
    lzma_file = ffs_file(LZMA_FILE, 0x0B, sections(guided(LZMA, lzma_data(lzma_payload))))
    efi_payload = sections(section(0x15, ucs2("EfiCompressed")), section(0x19, b"efi payload " * 8))
    efi_file = ffs_file(EFI_FILE, 0x02, sections(
        section(0x01, struct.pack("<IB", len(efi_payload), 1) + vectors.efi_compress(efi_payload, 4))))
    tiano_payload = sections(section(0x19, b"tiano payload " * 8))
    tiano_file = ffs_file(TIANO_FILE, 0x02, sections(guided(TIANO, vectors.efi_compress(tiano_payload, 5))))
    brotli_payload = sections(section(0x19, b"brotli payload " * 8))
    brotli_file = ffs_file(BROTLI_FILE, 0x02, sections(guided(BROTLI, vectors.brotli_section(brotli_payload))))
    zlib_payload = sections(section(0x19, b"amd zlib payload " * 8))
    zlib_file = ffs_file(ZLIB_FILE, 0x02, sections(guided(AMDZLIB, vectors.amd_zlib(zlib_payload))))
    crc_payload = sections(section(0x19, b"checked by crc32"))
    crc_file = ffs_file(CRC_FILE, 0x02, sections(
        guided(CRC32, crc_payload, attrs=2, extra=struct.pack("<I", zlib.crc32(crc_payload)))))
    raw_fv = volume([], 0x100, RAWFV_NAME)
    raw_file = ffs_file(RAW_FILE, 0x01, b"\0" * 16 + raw_fv)
    pad = ffs_file(PAD_GUID, 0xF0, b"\xff" * 40)
    files = [dxe_driver(), lzma_file, efi_file, tiano_file, brotli_file, zlib_file, crc_file, raw_file, pad]
    return volume(files, 0x2000, OUTER_FV)


def broken():
    ok = ffs_file(g("B0000000-0000-4000-8000-000000000001"), 0x02, sections(section(0x19, b"fine")))
    bad_hdr = ffs_file(g("B0000000-0000-4000-8000-000000000002"), 0x02, sections(section(0x19, b"bad header")),
                       bad_header=True)
    bad_data = ffs_file(g("B0000000-0000-4000-8000-000000000003"), 0x02, sections(section(0x19, b"bad data")),
                        attrs=0x40, bad_data=True)
    deleted = ffs_file(g("B0000000-0000-4000-8000-000000000004"), 0x02, sections(section(0x19, b"deleted")),
                       state=0xE8)
    overrun = bytearray(sections(section(0x19, b"overrun")))
    overrun[0] = 0x40  # size runs past the file
    overrun_file = ffs_file(g("B0000000-0000-4000-8000-000000000005"), 0x02, bytes(overrun))
    unknown = ffs_file(g("B0000000-0000-4000-8000-000000000006"), 0x02, sections(
        guided(g("B0000000-0000-4000-8000-0000000000FF"), b"opaque data")))
    bad_lzma = bytearray(lzma_data(sections(section(0x19, b"lzma payload " * 20))))
    bad_lzma[20:40] = b"\x00" * 20
    lzma_file = ffs_file(g("B0000000-0000-4000-8000-000000000007"), 0x02, sections(guided(LZMA, bytes(bad_lzma))))
    after = ffs_file(g("B0000000-0000-4000-8000-000000000008"), 0x02, sections(section(0x19, b"after")))
    return volume([ok, bad_hdr, bad_data, deleted, overrun_file, unknown, lzma_file, after], 0x800,
                  g("B0000000-0000-4000-8000-0000000000F0"), bad_checksum=True, tail=b"\xff" * 64 + b"NOT UEFI DATA!!!")


def ffs3():
    big = ffs_file(g("C0000000-0000-4000-8000-000000000001"), 0x02,
                   sections(section2(0x19, b"large section " * 4)), attrs=0x01, large=True)
    return volume([big], 0x400, g("C0000000-0000-4000-8000-0000000000F0"), fs=FFS3)


LZMAF86 = g("D42AE6BD-1352-4BFB-909A-CA72A6EAE889")
GZIP = g("1D301FE9-BE79-4353-91C2-D23BC959AE0C")
SIGNED = g("0F9D89E8-9259-4F76-A5AF-0C89E34023DF")
RSA2048 = g("A7717414-C616-4977-9420-844712A735BF")
PKCS7 = g("4AAFD29D-68DF-49EE-8AA9-347D375665A7")
PEI_APRIORI = g("1B45CC0A-156A-428A-AF62-49864DA0E6E6")
PEI_CORE = g("52C05B14-0B98-496C-BC3B-04B50211D680")


def more():
    import gzip as gz
    f86 = ffs_file(g("D0000000-0000-4000-8000-000000000001"), 0x02, sections(
        guided(LZMAF86, vectors.lzma_with_header(sections(section(0x19, vectors.make_code(512))), True))))
    gzf = ffs_file(g("D0000000-0000-4000-8000-000000000002"), 0x02, sections(
        guided(GZIP, gz.compress(sections(section(0x19, b"gzip payload")), 9, mtime=0))))
    cert = struct.pack("<IHH", 24 + 64, 0x0200, 0x0EF1) + PKCS7 + b"\x30" * 64
    signed = ffs_file(g("D0000000-0000-4000-8000-000000000003"), 0x02, sections(
        guided(SIGNED, cert + sections(section(0x19, b"signed payload")), attrs=2)))
    rsa = ffs_file(g("D0000000-0000-4000-8000-000000000004"), 0x02, sections(
        guided(RSA2048, bytes(16) + b"\x11" * 256 + b"\x22" * 256 + sections(section(0x19, b"rsa payload")), attrs=2)))
    stored_payload = sections(section(0x15, ucs2("Stored")), section(0x19, b"stored"))
    stored = ffs_file(g("D0000000-0000-4000-8000-000000000005"), 0x02, sections(
        section(0x01, struct.pack("<IB", len(stored_payload), 0) + stored_payload)))
    tiano_payload = sections(section(0x19, b"tiano data in a type-1 compression section " * 4))
    tiano1 = ffs_file(g("D0000000-0000-4000-8000-000000000006"), 0x02, sections(
        section(0x01, struct.pack("<IB", len(tiano_payload), 1) + vectors.efi_compress(tiano_payload, 5))))
    misc = ffs_file(g("D0000000-0000-4000-8000-000000000007"), 0x02, sections(
        section(0x03, sections(section(0x19, b"disposable"))),
        section(0x20, struct.pack("<I", 0x1234)),
        section(0x16, b"\xea\x5b\xe0\x00\xf0")))
    apriori = ffs_file(PEI_APRIORI, 0x02, sections(section(0x19, PEI_CORE + g("D0000000-0000-4000-8000-000000000008"))))
    mm = ffs_file(g("D0000000-0000-4000-8000-000000000008"), 0x0A, sections(
        section(0x1C, b"\x09\x02" + PCD_PROTOCOL + b"\x02" + PEI_CORE + b"\x04\x05\x08"),
        section(0x13, b"\x02" + PCD_PROTOCOL)))
    return volume([f86, gzf, signed, rsa, stored, tiano1, misc, apriori, mm], 0x2000,
                  g("D0000000-0000-4000-8000-0000000000F0"))


def evil():
    names = ["../../x", "/etc/passwd", "a\x01b\nc\td\x1b[31m", "N" * 300, ".", "..", "..\\..\\win"]
    files = []
    for i, name in enumerate(names):
        guid = g("E0000000-0000-4000-8000-%012X" % (i + 1))
        files.append(ffs_file(guid, 0x02, sections(section(0x15, ucs2(name)), section(0x19, b"payload %d" % i))))
    return volume(files, 0x1000, g("E0000000-0000-4000-8000-0000000000F0"))


def capsule(payload):
    header_size = 0x100
    hdr = bytearray(header_size)
    hdr[0:16] = g("3B6686BD-0D76-4030-B70E-B5519E2FC5A0")
    struct.pack_into("<III", hdr, 16, header_size, 0x00010000, header_size + len(payload))
    return bytes(hdr) + payload


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    fv = mini()
    write("mini.fv", fv)
    write("broken.fv", broken())
    write("mini.cap", capsule(fv))
    dxe = dxe_driver()
    write("dxe.ffs", dxe)
    write("pe32.sct", section(0x10, pe32(hii=True)))
    write("ffs3.fv", ffs3())
    write("evil.fv", evil())
    write("more.fv", more())


if __name__ == "__main__":
    main()

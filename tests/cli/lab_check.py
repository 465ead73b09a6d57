"""Assertions of the real-kernel lab (t9500-lab.sh): each compares what fwlens wrote in the
guest with what Linux or the firmware said there. Prints why and exits 1 on a disagreement.
Usage: lab_check.py CHECK DIR"""
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

CHECK, D = sys.argv[1], sys.argv[2]
bad = []


def read(name):
    with open(os.path.join(D, name), encoding="utf-8", errors="replace") as f:
        return f.read()


def load(name):
    return json.loads(read(name))


def bdf_id(bdf):
    seg, bus, df = bdf.split(":")[0], bdf.split(":")[1], bdf.split(":")[2]
    dev, fn = df.split(".")
    return int(seg, 16), (int(bus, 16) << 8) | (int(dev, 16) << 3) | int(fn, 16)


def sysfs_pci():
    out = {}
    for line in read("sysfs-pci.txt").splitlines():
        f = line.split()
        out[f[0]] = (int(f[1]), f[2] if len(f) > 2 else None)
    return out


def checks_by_id(doc):
    return {c["id"]: c for c in doc["checks"]}


def evidence_texts(c):
    return [(e["kind"], e["from"], e["text"]) for e in c["evidence"]]


def snapshot_member(path, member):
    with tarfile.open(path) as t:
        names = t.getnames()
        for n in (member, member + ".gz"):
            if n in names:
                data = t.extractfile(n).read()
                if n.endswith(".gz"):
                    import gzip
                    data = gzip.decompress(data)
                return data.decode("utf-8", "replace"), json.loads(t.extractfile("manifest.json").read())
    return None, None


def topo():
    sysfs = sysfs_pci()
    doc = load("topo.json")
    seen = {}
    for rb in doc["root_bridges"]:
        for d in rb["devices"]:
            seen[d["bdf"]] = (d, rb)
    for d in doc.get("devices_without_bridge") or []:
        seen[d["bdf"]] = (d, None)
    for bdf, (node, group) in sorted(sysfs.items()):
        if bdf not in seen:
            bad.append("%s: Linux has it, fwlens acpi topo does not" % bdf)
            continue
        d, rb = seen[bdf]
        if d.get("numa_node") != node:
            bad.append("%s: numa_node %s in fwlens, %s in sysfs" % (bdf, d.get("numa_node"), node))
        if (d.get("iommu_group") or None) != group:
            bad.append("%s: IOMMU group %s in fwlens, %s in sysfs" % (bdf, d.get("iommu_group"), group))
        # the firmware's side: the root bridge's _PXM, through SRAT, is the node Linux gave
        if rb is not None:
            pxm = rb.get("proximity_domain")
            if (pxm if pxm is not None else -1) != node:
                bad.append("%s: under %s with proximity domain %s, Linux says node %s" % (bdf, rb["path"], pxm, node))
    for bdf in seen:
        if bdf not in sysfs:
            bad.append("%s: in fwlens acpi topo, not in sysfs" % bdf)
    if len(sysfs) < 10:
        bad.append("only %d PCI devices in the guest" % len(sysfs))
    nodes = {n for n, _ in sysfs.values()}
    if not {0, 1} <= nodes:
        bad.append("devices on NUMA nodes %s, expected both 0 and 1" % sorted(nodes))


def ivrs():
    doc = load("acpi.json")
    covered = []
    for t in doc["tables"]:
        if t["signature"] == "IVRS":
            for b in t["decoded"]["blocks"]:
                if b.get("linux_uses") is False:
                    continue
                for r in b.get("covered") or []:
                    covered.append((b.get("segment", 0), bdf_id(r["first"])[1], bdf_id(r["last"])[1]))
    if not covered:
        bad.append("no IVRS device coverage decoded")
    for bdf, (node, group) in sysfs_pci().items():
        if group is None:
            continue
        seg, i = bdf_id(bdf)
        if not any(s == seg and lo <= i <= hi for s, lo, hi in covered):
            bad.append("%s is in IOMMU group %s but no IVHD covers it" % (bdf, group))


def tables():
    if read("acpi.rc").strip() != "0":
        bad.append("fwlens acpi / exit %s: %s" % (read("acpi.rc").strip(), read("acpi.err")[:300]))
    doc = load("acpi.json")
    sigs = sorted(t["signature"] for t in doc["tables"])
    want = sorted(n for n in os.listdir(os.path.join(D, "tables")))
    want_sigs = sorted(re.sub(r"\d+$", "", n) for n in want)
    if sigs != want_sigs:
        bad.append("tables decoded %s, Linux has %s" % (sigs, want))
    for t in doc["tables"]:
        if t["signature"] != "FACS" and not t.get("checksum_ok"):
            bad.append("%s: checksum not ok" % t["signature"])
        for m in (t.get("decoded") or {}).get("messages", []) if isinstance(t.get("decoded"), dict) else []:
            if isinstance(m, dict) and m.get("level") == "error":
                bad.append("%s: %s" % (t["signature"], m))
    if "error" in read("acpi.err").lower():
        bad.append("fwlens acpi said: %s" % read("acpi.err")[:300])


def iasl():
    """Header fields as iasl -d prints them, against fwlens' decode, for every table iasl takes."""
    doc = {t["signature"]: t for t in load("acpi.json")["tables"]}
    compared = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(os.path.join(D, "tables"))):
            sig = re.sub(r"\d+$", "", name)
            if sig not in doc:
                continue
            src = os.path.join(tmp, name.lower() + ".dat")
            with open(os.path.join(D, "tables", name), "rb") as f, open(src, "wb") as g:
                g.write(f.read())
            subprocess.run(["iasl", "-d", src], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            dsl = src[:-4] + ".dsl"
            if not os.path.exists(dsl):
                continue
            text = open(dsl, encoding="latin-1").read()
            t = doc[sig]
            fields = {"Table Length": ("length", lambda v: int(v, 16)), "Revision": ("revision", lambda v: int(v, 16)),
                      "Oem ID": ("oem_id", lambda v: v.strip('"')), "Oem Table ID": ("oem_table_id", lambda v: v.strip('"'))}
            if sig in ("DSDT", "SSDT"):
                m = re.search(r'DefinitionBlock \("", "(\w+)", (\d+), "([^"]*)", "([^"]*)"', text)
                if m and (m.group(3).strip(), m.group(4).strip()) != (t["oem_id"].strip(), t["oem_table_id"].strip()):
                    bad.append("%s: iasl OEM %s/%s, fwlens %s/%s" % (sig, m.group(3), m.group(4), t["oem_id"], t["oem_table_id"]))
                compared += 1
                continue
            for label, (key, conv) in fields.items():
                m = re.search(r"\[\d+h [^\]]*\]\s+" + re.escape(label) + r"\s*:\s*(\S+)", text)
                if not m:
                    continue
                try:
                    v = conv(m.group(1))
                except ValueError:
                    continue
                fv = t.get(key)
                if isinstance(fv, str):
                    fv = fv.strip()
                if fv != v:
                    bad.append("%s %s: iasl %r, fwlens %r" % (sig, label, v, fv))
            compared += 1
    if compared < 5:
        bad.append("only %d tables compared with iasl" % compared)
    print("# lab: %d tables compared with iasl -d" % compared, file=sys.stderr)


def plain():
    doc = load("doctor-plain.json")
    if doc["summary"]["fail"]:
        bad.append("doctor failed: %s" % [c["id"] for c in doc["checks"] if c["status"] == "fail"])
    ids = read("pci-ids.txt")
    if "0x1234 0x1111" not in ids:
        bad.append("no QEMU VGA 1234:1111 in the guest")
    for c in doc["checks"]:
        for k, f, t in evidence_texts(c):
            if "0000:00:01.0" in t and c["id"].startswith("gpu-"):
                bad.append("%s judges the VGA as a GPU: %s" % (c["id"], t))
    c = checks_by_id(doc)
    for cid in ("gpu-numa", "gpu-bars", "guest-snp", "guest-gpus"):
        if c[cid]["status"] != "skip":
            bad.append("%s: %s, expected skip on a plain VM" % (cid, c[cid]["status"]))


def kmsg():
    line = read("kmsg-line.txt").strip()
    if read("kmsg-in-var-log.txt").strip() != "0":
        bad.append("the line was in /var/log/dmesg already")
    log, manifest = snapshot_member(os.path.join(D, "kmsg.fwsnap"), "files/var/log/dmesg")
    if log is None or line not in log:
        bad.append("the live capture's kernel log lacks the line written after boot")
    else:
        frm = [m.get("from") for m in manifest.get("members", manifest.get("files", [])) if m.get("path") == "var/log/dmesg"]
        if frm != ["/dev/kmsg"]:
            bad.append("the capture's kernel log came from %s, expected /dev/kmsg" % frm)
    doc = load("doctor-kmsg.json")
    ev = [e for c in doc["checks"] for e in evidence_texts(c) if "IO_PAGE_FAULT" in e[2]]
    if not any(line in t and f == "/dev/kmsg" for k, f, t in ev):
        bad.append("doctor's evidence lacks the line from /dev/kmsg: %s" % ev[:3])


def passthrough():
    types = dict(l.split() for l in read("pt-sysfs-types.txt").splitlines())
    if not types or set(types.values()) != {"identity"}:
        bad.append("sysfs group types with iommu.passthrough=1: %s" % types)
    c = checks_by_id(load("pt-doctor.json"))
    g = c["iommu-group-types"]
    if g["status"] != "fail" and g["status"] != "warn":
        bad.append("iommu-group-types says %s with every group identity" % g["status"])
    text = " ".join(t for _, _, t in evidence_texts(g)) + " " + g["explanation"]
    if "identity" not in text:
        bad.append("iommu-group-types does not name identity: %s" % text[:300])
    m = re.search(r"(\d+) identity, \d+ unmanaged", read("pt-notes.md"))
    if not m or int(m.group(1)) != len(types):
        bad.append("the notes count %s identity groups, sysfs %d" % (m.group(1) if m else "no", len(types)))
    with tarfile.open(os.path.join(D, "pt.fwsnap")) as t:
        for gid, ty in types.items():
            n = "files/sys/kernel/iommu_groups/%s/type" % gid
            if t.extractfile(n).read().decode().strip() != ty:
                bad.append("capture: group %s type differs from sysfs" % gid)


def tcg2():
    doc = load("tcg2-plan.json") if read("tcg2-plan.rc").strip() == "0" else None
    efivars = read("efivars-a.txt")
    if "TCG2_CONFIGURATION-" in efivars:
        bad.append("TCG2_CONFIGURATION is in efivarfs after all")
    if doc is None:
        bad.append("plan on OVMF's forms failed: %s" % read("tcg2-plan.err")[:300])
        return
    # the varstore is NV+BS (0x3): Linux never sees it, so efivarfs cannot write it
    if not doc["entries"]:
        bad.append("no plan entry for the TCG2 setting")
    for e in doc["entries"]:
        if not e.get("efivarfs_refused"):
            bad.append("%s: not refused for efivarfs, though its variable is not in efivarfs" % e["prompt"])


def domains():
    for state, want in (("before", "DMA"), ("identity", "identity"), ("back", "DMA")):
        ty = read("dom-%s-sysfs.txt" % state).strip()
        if ty != want:
            bad.append("%s: sysfs says %s, expected %s" % (state, ty, want))
        g = read("dom-group.txt").strip()
        c = checks_by_id(load("dom-%s-doctor.json" % state))["iommu-group-types"]
        text = " ".join(t for _, _, t in evidence_texts(c)) + " " + c["explanation"]
        if ty == "identity" and ("identity" not in text or c["status"] == "pass"):
            bad.append("%s: doctor iommu-group-types %s: %s" % (state, c["status"], text[:300]))
        if ty == "DMA" and c["status"] != "pass":
            bad.append("%s: doctor iommu-group-types %s with every group DMA" % (state, c["status"]))
        with tarfile.open(os.path.join(D, "dom-%s.fwsnap" % state)) as t:
            if t.extractfile("files/sys/kernel/iommu_groups/%s/type" % g).read().decode().strip() != ty:
                bad.append("%s: capture's group %s type differs from sysfs" % (state, g))
        m = re.search(r"(\d+) identity, \d+ unmanaged", read("dom-%s-notes.md" % state))
        if not m or int(m.group(1)) != (1 if ty == "identity" else 0):
            bad.append("%s: notes count %s identity groups" % (state, m.group(1) if m else "no"))


def applied():
    if read("dry-run.rc").strip() != "0":
        bad.append("dry run exit %s: %s" % (read("dry-run.rc").strip(), read("dry-run.out")[:300]))
    if read("apply.rc").strip() != "0":
        bad.append("apply exit %s: %s" % (read("apply.rc").strip(), read("apply.out")[:300]))
    if "i" not in read("plan-lsattr-before.txt").split()[0]:
        bad.append("the variable file was not immutable before: %s" % read("plan-lsattr-before.txt"))
    if "i" not in read("plan-lsattr-after.txt").split()[0]:
        bad.append("the immutable flag was not set again: %s" % read("plan-lsattr-after.txt"))
    plan = load("plan.json")
    e = plan["entries"][-1]
    if e["old"]["value"] != 1 or e["new"]["value"] != 100:
        bad.append("the plan goes from %s to %s, expected 1 to 100" % (e["old"]["value"], e["new"]["value"]))
    new = bytes.fromhex(read("after-apply.hex"))
    off = 4 + e["offset"]
    if int.from_bytes(new[off:off + e["width"]], "little") != 100:
        bad.append("read back after apply: %s at +0x%x" % (new[off:off + e["width"]].hex(), e["offset"]))
    var = "AmdSetupBRH-3a997502-647a-4c82-998e-52ef9486a247"
    if not os.path.exists(os.path.join(D, "backup", var)):
        bad.append("no backup kept")
    if read("verify-before.rc").strip() != "6" or "not yet rebooted" not in read("verify-before.out"):
        bad.append("verify before the reboot: exit %s: %s" % (read("verify-before.rc").strip(), read("verify-before.out")[:400]))
    if plan["made"]["boot_id"] is None:
        bad.append("the plan records no boot id")


def after():
    out = read("verify-after.out")
    if read("verify-after.rc").strip() != "0" or "rebooted since the plan: yes" not in out:
        bad.append("verify after the reboot: exit %s: %s" % (read("verify-after.rc").strip(), out[:400]))


def stale():
    if read("again.rc").strip() != "0" or "already set (holds the planned bytes)" not in read("again.out"):
        bad.append("the plan applied again: exit %s: %s" % (read("again.rc").strip(), read("again.out")[:300]))
    if os.path.exists(os.path.join(D, "backup-again")):
        bad.append("the plan applied again made a backup")
    if read("stale.rc").strip() != "1" or "differ from the plan's old bytes" not in read("stale.out"):
        bad.append("stale plan: exit %s: %s" % (read("stale.rc").strip(), read("stale.out")[:300]))
    if read("stale-before.hex") != read("stale-after.hex"):
        bad.append("the refused script changed the variable")
    if os.path.exists(os.path.join(D, "backup-stale")):
        bad.append("the refused script made a backup")


def diff():
    """Between the captures of boots b and c only the command line (the lab's own markers) and the
    one variable the plan changed differ: its setting's value 1 -> 100."""
    doc = load("diff.json")
    cmd = {(c["key"], c["old"], c["new"]) for c in doc["kernel"].get("cmdline", [])}
    want = {("lab.boot", "lab.boot=b", "lab.boot=c"), ("lab.run", "lab.run=s1,domains,plan", "lab.run=after")}
    if cmd != want:
        bad.append("command line changes %s, expected %s" % (sorted(cmd), sorted(want)))
    vals = [(v["prompt"], v["old_value"], v["new_value"]) for v in doc["values"]]
    if vals != [("SEV-ES ASID Space Limit", 1, 100)]:
        bad.append("changed values %s, expected the ASID limit 1 -> 100" % vals)
    var = doc["variables"]
    if [c["key"] for c in var["changed"]] != ["AmdSetupBRH 3A997502-647A-4C82-998E-52EF9486A247"] or var["added"] or var["removed"]:
        bad.append("variables: %s" % json.dumps(var)[:300])
    for part in ("settings", "varstores", "modules", "acpi"):
        if any(doc[part].get(k) for k in doc[part]):
            bad.append("%s differ: %s" % (part, json.dumps(doc[part])[:300]))
    if doc["summary"]["differences"] != 4:
        bad.append("%d differences, expected 4 (two command-line options, one value, one variable)" % doc["summary"]["differences"])


def security():
    """doctor --profile security on a capture of the guest, held against what Linux showed there:
    as the guest it is every host check skips; judged as a host (--role host) the Secure Boot
    variables, /dev/kvm, /dev/sev, the memlock limit and the MSRs read with dd decide the verdicts."""
    if read("sec-capture.rc").strip() != "0":
        bad.append("capture failed: %s" % read("sec-capture.err")[:300])
        return
    guest = load("sec-guest.json")
    if read("sec-guest.rc").strip() != "0":
        bad.append("doctor as a guest exited %s" % read("sec-guest.rc").strip())
    for cid, c in checks_by_id(guest).items():
        if c["status"] != "skip":
            bad.append("as a guest %s is %s" % (cid, c["status"]))
        elif cid != "sec-bios-write-protection" and not c["explanation"].startswith(
                "This machine is a virtual machine guest"):
            bad.append("as a guest %s skips for %r" % (cid, c["explanation"]))
    doc = load("sec-host.json")
    c = checks_by_id(doc)

    def expect(cid, status, explanation, evidence=()):
        got = c[cid]
        if got["status"] != status or got["explanation"] != explanation:
            bad.append("%s: %s %r, expected %s %r" % (cid, got["status"], got["explanation"], status, explanation))
        texts = [t for k, f, t in evidence_texts(got)]
        for e in evidence:
            if e not in texts:
                bad.append("%s: no evidence %r in %s" % (cid, e, texts))

    # the Secure Boot variables as Linux listed them: "NAME absent" or "NAME attr attr attr attr data..."
    var = {}
    for line in read("sec-efivars.txt").splitlines():
        f = line.split()
        var[f[0]] = None if f[1:] == ["absent"] else [int(x, 16) for x in f[1:]]
    sb = var["SecureBoot"][4] if var["SecureBoot"] else None
    setup = var["SetupMode"][4] if var["SetupMode"] else None
    missing = [n for n in ("PK", "KEK", "db") if var[n] is None]
    if sb is None:
        expect("sec-secure-boot", "skip", "Not known: the SecureBoot variable was not captured.")
    elif sb != 1:
        expect("sec-secure-boot", "fail", "Secure Boot is off (SecureBoot = %d)%s." % (
            sb, "; missing: " + ", ".join(missing) if missing else ""),
            ["SecureBoot = %d" % sb] + (["SetupMode = %d" % setup] if setup is not None else []) +
            ["%s: not present" % n for n in missing])
    else:
        bad.append("OVMF without enrolled keys reports SecureBoot = 1")
    if var["PK"] is None:
        expect("sec-pk-test-key", "skip", "No platform key to judge (PK not present).")
    if var["dbx"] is None:
        expect("sec-dbx", "fail", "There is no revocation list: boot loaders with known holes (BootHole, BlackLotus) "
               "still boot.", ["dbx: not present"])
    # devices and limits
    dev = dict(l.split() for l in read("sec-devices.txt").splitlines())
    if dev["/dev/kvm"] == "absent":
        expect("sec-dev-kvm", "fail", "Opening /dev/kvm failed for uid 0: dev_kvm: No such file or directory.")
    if dev["/dev/sev"] == "absent":
        expect("sec-dev-sev", "fail", "Opening /dev/sev for reading and for writing failed for uid 0: dev_sev_read: No "
               "such file or directory; dev_sev_write: No such file or directory.")
        expect("sec-snp-alias-check", "skip", "SNP platform status not read: /dev/sev: No such file or directory")
    soft = read("sec-memlock.txt").split()[3]
    if soft == "unlimited":
        expect("sec-memlock", "pass", "The memlock limit of uid 0 is unlimited: guests can pin their memory.")
    else:
        expect("sec-memlock", "warn" if int(soft) else "fail",
               "uid 0 may lock %s bytes: an SEV guest whose memory is larger cannot pin it." % soft)
    if c["sec-cpuid-sev"]["status"] == "pass":
        bad.append("QEMU's CPU passes CPUID Fn8000_001F: %s" % c["sec-cpuid-sev"]["explanation"])
    # the MSRs: what dd read through /dev/cpu/N/msr, CPU by CPU
    msr = {}
    for line in read("sec-msr.txt").splitlines():
        f = line.split()
        msr.setdefault(f[1], {})[int(f[0])] = int(f[2], 16) if f[2].startswith("0x") else None
    ncpu = int(read("sec-cpus.txt"))
    state = read("msr-state.txt").strip()
    if state != "loaded":
        expect("sec-smm-lock", "skip", "HWCR (MSR C001_0015) of each CPU not read: /dev/cpu: no such folder (the msr "
               "module is not loaded)")
        expect("sec-smm-tseg", "skip", "SMM_ADDR and SMM_MASK (MSR C001_0112, C001_0113) of each CPU not read: "
               "/dev/cpu: no such folder (the msr module is not loaded)")
        return
    hwcr = msr["C0010015"]
    if None in hwcr.values() or len(hwcr) != ncpu:
        bad.append("dd could not read HWCR on every CPU: %s" % hwcr)
        return
    unlocked = sorted(n for n, v in hwcr.items() if not v & 1)
    ev = "HWCR SmmLock (bit 0) set on %d of %d CPUs read (%d msr nodes listed, %d CPUs in /proc/cpuinfo)" % (
        ncpu - len(unlocked), ncpu, ncpu, ncpu)
    if unlocked:
        m = re.search(r"first: CPU (\d+) HWCR (0x[0-9a-f]+)", c["sec-smm-lock"]["explanation"])
        if not m or int(m.group(1)) not in unlocked or int(m.group(2), 16) != hwcr[int(m.group(1))]:
            bad.append("sec-smm-lock names %s, dd read %s" % (c["sec-smm-lock"]["explanation"], hwcr))
        if c["sec-smm-lock"]["status"] != "fail" or ev not in [t for k, f, t in evidence_texts(c["sec-smm-lock"])]:
            bad.append("sec-smm-lock: %s %s, expected fail with %r" % (
                c["sec-smm-lock"]["status"], evidence_texts(c["sec-smm-lock"]), ev))
    else:
        expect("sec-smm-lock", "pass", "SmmLock is set on all %d CPUs read." % ncpu, [ev])
    addr, mask = msr["C0010112"], msr["C0010113"]
    if None in addr.values() or None in mask.values():
        if c["sec-smm-tseg"]["status"] != "skip":
            bad.append("dd could not read SMM_ADDR/SMM_MASK but sec-smm-tseg is %s" % c["sec-smm-tseg"]["status"])
        return
    invalid = sorted(n for n, v in mask.items() if not v & 2)
    ev = "TValid set on %d, TClose set on %d of %d CPUs read (%d msr nodes listed, %d CPUs in /proc/cpuinfo)" % (
        ncpu - len(invalid), sum(1 for v in mask.values() if v & 8), ncpu, ncpu, ncpu)
    got = c["sec-smm-tseg"]
    texts = [t for k, f, t in evidence_texts(got)]
    if ev not in texts:
        bad.append("sec-smm-tseg: no evidence %r in %s" % (ev, texts))
    first = [t for t in texts if t.startswith("CPU ")]
    m = re.match(r"CPU (\d+) SMM_ADDR (0x[0-9a-f]+) SMM_MASK (0x[0-9a-f]+): ", first[0] if first else "")
    if not m or int(m.group(2), 16) != addr[int(m.group(1))] or int(m.group(3), 16) != mask[int(m.group(1))]:
        bad.append("sec-smm-tseg's first CPU %s differs from dd's %s %s" % (first, addr, mask))
    elif not mask[int(m.group(1))] & 0x0000FFFFFFFE0000 and "no TSeg range (TSegMask 0)" not in first[0]:
        bad.append("an all-zero TSegMask decoded as a range: %s" % first[0])
    if invalid and got["status"] != "fail":
        bad.append("TValid clear on CPUs %s by dd, sec-smm-tseg %s" % (invalid, got["status"]))
    # SYSCFG MemEncryptionModEn (bit 23) as dd read it on CPU 0, and the memory-encryption verdict
    syscfg = msr["C0010010"][0]
    if syscfg is not None and not syscfg >> 23 & 1:
        expect("sec-memory-encryption", "fail", "Memory encryption is off in the BIOS (SMEE or SYSCFG "
               "MemEncryptionModEn): neither the host nor SEV guests can encrypt memory.",
               ["SYSCFG MemEncryptionModEn 0, SNPEn %d" % (syscfg >> 24 & 1)])
    lvl = doc["security_level"]
    if lvl["level"] != 0 or lvl["stopped_by"] != "sec-smm-lock" or lvl["runtime_issue"] != (dev["/dev/kvm"] == "absent"):
        bad.append("level %s" % lvl)
    if read("sec-host.rc").strip() != "1":
        bad.append("doctor --role host exited %s, expected 1 (checks failed)" % read("sec-host.rc").strip())


globals()[CHECK]()
for b in bad:
    print("lab %s: %s" % (CHECK, b))
sys.exit(1 if bad else 0)

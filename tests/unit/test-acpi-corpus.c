/* ACPI decoders against the real acpidump corpus (../shared/corpus/acpi) and the real oracles:
 * acpixtract for the table list, an independent walk for IVRS, iasl for the data tables it
 * decodes and for the root bridges. Every test skips, with the reason, when the corpus or the
 * oracle is missing. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acpi/dmar.h"
#include "acpi/iasl.h"
#include "acpi/ivrs.h"
#include "acpi/madt.h"
#include "acpi/mcfg.h"
#include "acpi/set.h"
#include "acpi/slit.h"
#include "acpi/srat.h"
#include "acpi/topo.h"
#include "harness.h"
#include "parsers/hash.h"
#include "tools/query/source.h"

static const char *const dumps[] = {
	"asrock-970m-pro3.acpidump.txt",
	"asrock-x370-killer-sli-coreboot.acpidump.txt",
	"asus-minipc-pn51.acpidump.txt",
	"asus-prime-x399-a.acpidump.txt",
	"asus-rog-strix-x670e-f.acpidump.txt",
	"asus-rog-zenith-ii-extreme-alpha.acpidump.txt",
	"dell-poweredge-r820.acpidump.txt",
	"gmktec-nucbox-k6.acpidump.txt",
	"supermicro-h8dgu.acpidump.txt",
	"supermicro-x8dtt.acpidump.txt",
};
#define NDUMPS (sizeof(dumps) / sizeof(dumps[0]))

static bool have_program(const char *name)
{
	const char *path = getenv("PATH");
	if (!path)
		return false;
	char buf[4096];
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name);
		if (access(buf, X_OK) == 0)
			return true;
		p += n;
		if (*p == ':')
			p++;
	}
	return false;
}

static struct fw_acpi_set *open_dump(const char *name)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "acpi/%s", name);
	const char *path = fw_test_corpus(rel);
	if (!path)
		return NULL;
	struct fw_acpi_set *s;
	struct fw_error err;
	if (!fw_source_acpi_open(path, &s, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		return NULL;
	}
	return s;
}

/* Run `acpixtract -a FILE` with the working directory `dir`; true when it exits 0. */
static bool run_acpixtract(const char *dir, const char *file)
{
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		if (chdir(dir) != 0)
			_exit(127);
		execlp("acpixtract", "acpixtract", "-a", file, (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[4096];
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Every .dat acpixtract writes must be a table of the set with the same name (acpixtract's
 * numbering), the same bytes and the same checksum verdict, and nothing else. */
static void compare_with_acpixtract(const char *name, const char *path, const struct fw_acpi_set *s)
{
	char dir[] = "/tmp/fwlens-test-acpixtract.XXXXXX";
	CHECK(mkdtemp(dir));
	char abs[4096];
	CHECK(realpath(path, abs));
	bool ran = run_acpixtract(dir, abs);
	CHECK_MSG(ran, "%s: acpixtract failed", name);
	DIR *d = opendir(dir);
	CHECK(d);
	size_t files = 0;
	struct dirent *e;
	bool ok = true;
	char why[512] = "";
	while ((e = readdir(d)) && ok) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 4, ".dat") != 0)
			continue;
		files++;
		char file[4400];
		snprintf(file, sizeof(file), "%s/%s", dir, e->d_name);
		size_t len;
		uint8_t *bytes = fw_test_read_file(file, &len);
		const struct fw_acpi_table *match = NULL;
		for (size_t i = 0; i < s->ntables && !match; i++) {
			char tn[16];
			fw_acpi_table_name(s->tables[i], tn, sizeof(tn));
			for (char *c = tn; *c; c++)
				*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
			if (strlen(tn) == n - 4 && strncmp(tn, e->d_name, n - 4) == 0)
				match = s->tables[i];
		}
		if (!match) {
			ok = false;
			snprintf(why, sizeof(why), "%s: acpixtract wrote %s, fwlens has no such table", name, e->d_name);
		} else if (match->data.len != len || memcmp(match->data.p, bytes, len) != 0 || match->length != len) {
			ok = false;
			snprintf(why, sizeof(why), "%s: %s differs (acpixtract %zu bytes, fwlens Length %u)", name, e->d_name, len,
				 match->length);
		} else {
			bool facs = memcmp(match->signature, "FACS", 4) == 0;
			enum fw_acpi_checksum want = facs ? FW_ACPI_CHECKSUM_NONE
						   : fw_sum8(bytes, len) == 0 ? FW_ACPI_CHECKSUM_OK : FW_ACPI_CHECKSUM_BAD;
			if (match->checksum_state != want) {
				ok = false;
				snprintf(why, sizeof(why), "%s: %s checksum verdict differs", name, e->d_name);
			}
		}
		free(bytes);
	}
	closedir(d);
	remove_dir(dir);
	CHECK_MSG(ok, "%s", why);
	CHECK_MSG(files == s->ntables, "%s: acpixtract wrote %zu tables, fwlens found %zu", name, files, s->ntables);
}

TEST(acpi_corpus_table_lists_match_acpixtract)
{
	if (!have_program("acpixtract"))
		SKIP("acpixtract is not installed (acpica-tools)");
	size_t done = 0;
	for (size_t i = 0; i < NDUMPS; i++) {
		char rel[256];
		snprintf(rel, sizeof(rel), "acpi/%s", dumps[i]);
		const char *path = fw_test_corpus(rel);
		if (!path)
			continue;
		struct fw_acpi_set *s = open_dump(dumps[i]);
		CHECK_MSG(s, "%s did not load", dumps[i]);
		compare_with_acpixtract(dumps[i], path, s);
		fw_acpi_set_free(s);
		if (fw_test_failed())
			return;
		done++;
	}
	if (!done)
		SKIP("corpus acpi/ not present");
}

/* --- IVRS against an independent structural walk ------------------------------------------------- */

struct walk {
	size_t nblocks;
	uint8_t type[64];
	size_t entries[64];
	size_t per_type[256]; /* device entries by type, all blocks */
};

/* Written from the specification only: block {type, flags, u16 length}; IVHD 10h entries start at
 * 24, 11h/40h at 40; an entry is 4 << (type >> 6) bytes except F0h (22 + byte 21). */
static void walk_ivrs(const uint8_t *p, size_t len, struct walk *w)
{
	memset(w, 0, sizeof(*w));
	size_t off = 48;
	while (off + 4 <= len && w->nblocks < 64) {
		size_t blen = (size_t)p[off + 2] | (size_t)p[off + 3] << 8;
		if (blen < 4 || off + blen > len)
			break;
		uint8_t type = p[off];
		w->type[w->nblocks] = type;
		if (type == 0x10 || type == 0x11 || type == 0x40) {
			size_t e = off + (type == 0x10 ? 24 : 40), end = off + blen;
			while (e < end) {
				uint8_t et = p[e];
				size_t elen = et == 0xF0 ? 22 + (size_t)p[e + 21] : (size_t)4 << (et >> 6);
				w->entries[w->nblocks]++;
				w->per_type[et]++;
				e += elen;
			}
		}
		w->nblocks++;
		off += blen;
	}
}

TEST(acpi_corpus_ivrs_blocks_match_structural_walk)
{
	size_t checked = 0;
	for (size_t i = 0; i < NDUMPS; i++) {
		struct fw_acpi_set *s = open_dump(dumps[i]);
		if (!s)
			continue;
		const struct fw_acpi_table *t = fw_acpi_set_find(s, "IVRS", 0);
		if (t) {
			const struct fw_ivrs *m = fw_acpi_table_model(t, FW_ACPI_MODEL_IVRS);
			struct walk w;
			walk_ivrs(t->data.p, t->data.len, &w);
			bool same = m && m->nblocks == w.nblocks;
			for (size_t b = 0; same && b < w.nblocks; b++)
				same = m->blocks[b].type == w.type[b] && m->blocks[b].nraw_entries == w.entries[b];
			fw_acpi_set_free(s);
			CHECK_MSG(same, "%s: IVRS blocks/entries differ from the structural walk", dumps[i]);
			checked++;
		} else {
			fw_acpi_set_free(s);
		}
	}
	if (!checked)
		SKIP("corpus acpi/ not present");
	CHECK_EQ(checked, 8); /* every AMD dump has an IVRS */
}

/* Entry counts by type from SOURCES.md for the RD890 board, checked against the walk too. */
TEST(acpi_corpus_h8dgu_ivrs_entries)
{
	struct fw_acpi_set *s = open_dump("supermicro-h8dgu.acpidump.txt");
	if (!s)
		SKIP("corpus acpi/supermicro-h8dgu.acpidump.txt not present");
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "IVRS", 0);
	const struct fw_ivrs *m = t ? fw_acpi_table_model(t, FW_ACPI_MODEL_IVRS) : NULL;
	struct walk w;
	if (t)
		walk_ivrs(t->data.p, t->data.len, &w);
	bool ok = m && m->ivinfo == 0x00203400 && m->nblocks == 1 && m->blocks[0].type == 0x10 && m->blocks[0].device_id == 0x0002 &&
		  m->blocks[0].base_address == 0xF6000000 && m->blocks[0].flags == 0x3E && m->blocks[0].info == 0x1300 &&
		  w.per_type[0x00] == 1 && w.per_type[0x02] == 8 && w.per_type[0x03] == 4 && w.per_type[0x04] == 5 &&
		  w.per_type[0x43] == 1 && w.per_type[0x48] == 3 && m->linux_type == 0x10 && m->niommus == 1 && m->nspecials == 3;
	/* IOAPIC 0 and HPET 0 at 00:14.0, IOAPIC 1 at 00:00.1 */
	size_t sb = 0;
	for (size_t i = 0; ok && i < m->nspecials; i++)
		sb += m->specials[i].source == 0x00A0;
	fw_acpi_set_free(s);
	CHECK(ok);
	CHECK_EQ(sb, 2);
}

TEST(acpi_corpus_ivrs_linux_view)
{
	struct fw_acpi_set *s = open_dump("asus-rog-zenith-ii-extreme-alpha.acpidump.txt");
	if (!s)
		SKIP("corpus acpi/asus-rog-zenith-ii-extreme-alpha.acpidump.txt not present");
	const struct fw_ivrs *m = fw_acpi_set_model(s, FW_ACPI_MODEL_IVRS);
	CHECK(m);
	/* Four IOMMUs, each described as 10h then 11h; Linux takes the 11h blocks. */
	bool ok = m->nblocks == 8 && m->linux_type == 0x11 && m->niommus == 4 && m->global_efr_valid &&
		  m->global_efr == 0x058f77ef22294adeULL && m->global_efr2 == 0 && m->nlinux_messages == 0;
	static const uint16_t iommu_ids[4] = {0x6002, 0x4002, 0x2002, 0x0002};
	for (size_t i = 0, k = 0; ok && i < m->nblocks; i++)
		if (m->blocks[i].linux_uses)
			ok = m->blocks[i].device_id == iommu_ids[k] && m->blocks[i].iommu_index == (int)k, k++;
	const char *names[16];
	size_t n = fw_ivrs_efr_features(m->global_efr, m->global_efr2, names, 16);
	const char *want[] = {"PPR", "X2APIC", "NX", "GT", "IA", "GA", "PC", "GA_vAPIC"};
	ok = ok && n == 8;
	for (size_t i = 0; ok && i < n; i++)
		ok = strcmp(names[i], want[i]) == 0;
	/* The IOMMU at 40:00.2 covers 40:01.0-5f:1f.6 and its IOAPIC at 40:00.1. */
	const struct fw_ivrs_block *io = fw_ivrs_iommu_for(m, 0, 0x4100);
	ok = ok && io && io->device_id == 0x4002 && fw_ivrs_iommu_for(m, 0, 0x4001) == io && !fw_ivrs_iommu_for(m, 0, 0x4002);
	/* IOAPIC 128 (the FCH one) maps to 00:14.0 */
	bool sb = false;
	for (size_t i = 0; ok && i < m->nspecials; i++)
		sb |= m->specials[i].variety == FW_IVHD_SPECIAL_IOAPIC && m->specials[i].handle == 128 && m->specials[i].source == 0xA0;
	unsigned iommus = 0;
	bool efr_known = false, snp_all = true;
	fw_ivrs_snp_summary(m, &iommus, &efr_known, &snp_all);
	fw_acpi_set_free(s);
	CHECK(ok);
	CHECK(sb);
	CHECK(iommus == 4 && efr_known && !snp_all); /* Threadripper IOMMUs have no SNPSup */
}

TEST(acpi_corpus_ivhd40_acpi_hid_entries)
{
	struct fw_acpi_set *s = open_dump("asus-minipc-pn51.acpidump.txt");
	if (!s)
		SKIP("corpus acpi/asus-minipc-pn51.acpidump.txt not present");
	const struct fw_ivrs *m = fw_acpi_set_model(s, FW_ACPI_MODEL_IVRS);
	CHECK(m);
	const struct fw_ivrs_block *b40 = NULL;
	for (size_t i = 0; i < m->nblocks; i++)
		if (m->blocks[i].type == 0x40)
			b40 = &m->blocks[i];
	bool ok = b40 && b40->linux_uses && m->linux_type == 0x40 && b40->efr == 0x206d73ef22254adeULL;
	size_t hids = 0;
	for (size_t i = 0; ok && i < b40->nentries; i++) {
		const struct fw_ivrs_entry *e = &b40->entries[i];
		if (e->kind != FW_IVRS_E_ACPI_HID)
			continue;
		char uid[16];
		snprintf(uid, sizeof(uid), "\\_SB.FUR%zu", hids);
		ok = strcmp(e->hid, "AMDI0020") == 0 && e->cid_raw == 0 && e->uid_format == FW_IVHD_UID_STRING && e->uid_length == 9 &&
		     strcmp(e->uid, uid) == 0 && e->device_id == 0x00A5 && e->dte == 0x40;
		hids++;
	}
	fw_acpi_set_free(s);
	CHECK(ok);
	CHECK_EQ(hids, 4);
}

TEST(acpi_corpus_coreboot_hid_without_uid)
{
	struct fw_acpi_set *s = open_dump("asrock-x370-killer-sli-coreboot.acpidump.txt");
	if (!s)
		SKIP("corpus acpi/asrock-x370-killer-sli-coreboot.acpidump.txt not present");
	const struct fw_ivrs *m = fw_acpi_set_model(s, FW_ACPI_MODEL_IVRS);
	size_t found = 0, selects = 0;
	for (size_t i = 0; m && i < m->nblocks; i++)
		for (size_t k = 0; k < m->blocks[i].nentries; k++) {
			const struct fw_ivrs_entry *e = &m->blocks[i].entries[k];
			if (m->blocks[i].type == 0x40 && e->kind == FW_IVRS_E_ACPI_HID && !strcmp(e->hid, "AMDI0040") &&
			    e->uid_format == 0 && e->uid_length == 0 && !e->uid)
				found++;
			if (m->blocks[i].type == 0x10 && e->kind == FW_IVRS_E_SELECT)
				selects++;
		}
	fw_acpi_set_free(s);
	CHECK_EQ(found, 1);
	CHECK_EQ(selects, 10);
}

/* --- Intel: DMAR ------------------------------------------------------------------------------- */

static void count_units(const struct fw_dmar *m, size_t counts[8])
{
	memset(counts, 0, 8 * sizeof(size_t));
	for (size_t i = 0; i < m->n; i++)
		if (m->units[i].type < 8)
			counts[m->units[i].type]++;
}

TEST(acpi_corpus_dmar_r820)
{
	struct fw_acpi_set *s = open_dump("dell-poweredge-r820.acpidump.txt");
	if (!s)
		SKIP("corpus acpi/dell-poweredge-r820.acpidump.txt not present");
	const struct fw_dmar *m = fw_acpi_set_model(s, FW_ACPI_MODEL_DMAR);
	size_t c[8];
	bool ok = m && m->host_address_width == 46 && m->flags == 0x03;
	if (ok)
		count_units(m, c);
	ok = ok && c[FW_DMAR_DRHD] == 4 && c[FW_DMAR_RMRR] == 3 && c[FW_DMAR_ATSR] == 1 && m->n == 8;
	/* First DRHD: registers 0xCF000000, 7 scopes, the first an IOAPIC (id 2) at 40:05.4. */
	const struct fw_dmar_unit *u = ok ? &m->units[0] : NULL;
	ok = ok && u->type == FW_DMAR_DRHD && u->base == 0xCF000000 && u->nscopes == 7 && u->scopes[0].type == FW_DMAR_SCOPE_IOAPIC &&
	     u->scopes[0].enumeration_id == 2 && u->scopes[0].start_bus == 0x40 && u->scopes[0].npath == 1 &&
	     u->scopes[0].path[0] == 5 && u->scopes[0].path[1] == 4 && u->scopes[1].type == FW_DMAR_SCOPE_BRIDGE;
	/* The last DRHD has INCLUDE_PCI_ALL with two IOAPICs and the HPET. */
	const struct fw_dmar_unit *all = ok ? &m->units[3] : NULL;
	ok = ok && all->flags == 1 && all->base == 0xDF100000 && all->nscopes == 3 && all->scopes[2].type == FW_DMAR_SCOPE_HPET;
	/* RMRR 0xBF458000-0xBF46FFFF for two USB controllers. */
	ok = ok && m->units[4].type == FW_DMAR_RMRR && m->units[4].base == 0xBF458000 && m->units[4].limit == 0xBF46FFFF &&
	     m->units[4].nscopes == 2 && m->units[7].type == FW_DMAR_ATSR && m->units[7].nscopes == 8;
	fw_acpi_set_free(s);
	CHECK(ok);
}

TEST(acpi_corpus_dmar_x8dtt)
{
	struct fw_acpi_set *s = open_dump("supermicro-x8dtt.acpidump.txt");
	if (!s)
		SKIP("corpus acpi/supermicro-x8dtt.acpidump.txt not present");
	const struct fw_dmar *m = fw_acpi_set_model(s, FW_ACPI_MODEL_DMAR);
	size_t c[8];
	bool ok = m && m->host_address_width == 40 && m->flags == 0x01;
	if (ok)
		count_units(m, c);
	ok = ok && c[FW_DMAR_DRHD] == 1 && c[FW_DMAR_RMRR] == 2 && c[FW_DMAR_ATSR] == 1 && m->units[0].flags == 1 &&
	     m->units[0].base == 0xFBFFE000 && m->units[0].nscopes == 2 && m->units[1].nscopes == 8;
	fw_acpi_set_free(s);
	CHECK(ok);
}

/* --- SRAT, SLIT, MCFG -------------------------------------------------------------------------- */

static void srat_counts(const struct fw_srat *m, size_t *lapic, size_t *lapic_on, size_t *mem)
{
	*lapic = *lapic_on = *mem = 0;
	for (size_t i = 0; i < m->nentries; i++) {
		*lapic += m->entries[i].type == FW_SRAT_LOCAL_APIC;
		*lapic_on += m->entries[i].type == FW_SRAT_LOCAL_APIC && m->entries[i].enabled;
		*mem += m->entries[i].type == FW_SRAT_MEMORY;
	}
}

TEST(acpi_corpus_numa_tables)
{
	struct {
		const char *dump;
		size_t lapic, lapic_on, mem, slit_n;
		uint8_t remote;
		uint32_t first_pd, last_pd;
	} want[] = {
		{"supermicro-h8dgu.acpidump.txt", 24, 24, 4, 4, 16, 0, 3},
		{"dell-poweredge-r820.acpidump.txt", 96, 80, 10, 5, 20, 1, 4},
		{"supermicro-x8dtt.acpidump.txt", 16, 16, 4, 2, 21, 0, 1},
	};
	size_t checked = 0;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct fw_acpi_set *s = open_dump(want[i].dump);
		if (!s)
			continue;
		const struct fw_srat *srat = fw_acpi_set_model(s, FW_ACPI_MODEL_SRAT);
		const struct fw_slit *slit = fw_acpi_set_model(s, FW_ACPI_MODEL_SLIT);
		size_t lapic = 0, on = 0, mem = 0;
		if (srat)
			srat_counts(srat, &lapic, &on, &mem);
		bool ok = srat && slit && lapic == want[i].lapic && on == want[i].lapic_on && mem == want[i].mem &&
			  srat->ndomains && srat->domains[0] == want[i].first_pd && srat->domains[srat->ndomains - 1] == want[i].last_pd &&
			  slit->n == want[i].slit_n && slit->matrix[0] == 10 && slit->matrix[1] == want[i].remote;
		fw_acpi_set_free(s);
		CHECK_MSG(ok, "%s: SRAT %zu/%zu/%zu, SLIT", want[i].dump, lapic, on, mem);
		checked++;
	}
	if (!checked)
		SKIP("corpus acpi/ not present");
}

TEST(acpi_corpus_mcfg_windows)
{
	struct {
		const char *dump;
		uint64_t base;
		uint8_t end;
	} want[] = {
		{"supermicro-h8dgu.acpidump.txt", 0xE0000000, 0xFF},
		{"asus-prime-x399-a.acpidump.txt", 0xF0000000, 0x7F},
		{"asrock-x370-killer-sli-coreboot.acpidump.txt", 0xF8000000, 0x3F},
	};
	size_t checked = 0;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct fw_acpi_set *s = open_dump(want[i].dump);
		if (!s)
			continue;
		const struct fw_mcfg *m = fw_acpi_set_model(s, FW_ACPI_MODEL_MCFG);
		bool ok = m && m->n == 1 && m->allocations[0].base == want[i].base && m->allocations[0].segment == 0 &&
			  m->allocations[0].start_bus == 0 && m->allocations[0].end_bus == want[i].end;
		fw_acpi_set_free(s);
		CHECK_MSG(ok, "%s", want[i].dump);
		checked++;
	}
	if (!checked)
		SKIP("corpus acpi/ not present");
}

/* --- iasl as the oracle for the data tables it decodes ----------------------------------------- */

/* Values of every "[off ...] Name : value" line with this field name, parsed as hex. */
static size_t iasl_values(const char *dsl, const char *field, uint64_t *out, size_t max)
{
	size_t n = 0;
	size_t flen = strlen(field);
	for (const char *p = dsl; (p = strstr(p, field)) && n < max; p += flen) {
		const char *q = p + flen;
		while (*q == ' ')
			q++;
		if (*q != ':' || p == dsl || (p[-1] != ' '))
			continue;
		out[n++] = strtoull(q + 1, NULL, 16);
	}
	return n;
}

static char *iasl_decode(const struct fw_acpi_table *t, const char *stem)
{
	struct fw_iasl_job job = {.name = stem, .aml = t->data.p, .len = t->data.len};
	struct fw_error err;
	if (!fw_iasl_disassemble(&job, 1, 60, NULL, &err))
		return NULL;
	return job.dsl;
}

TEST(acpi_corpus_data_tables_match_iasl)
{
	if (!have_program(fw_iasl_program()))
		SKIP("iasl is not installed (acpica-tools)");
	size_t checked = 0;
	for (size_t i = 0; i < NDUMPS; i++) {
		struct fw_acpi_set *s = open_dump(dumps[i]);
		if (!s)
			continue;
		const struct fw_acpi_table *t;
		if ((t = fw_acpi_set_find(s, "DMAR", 0))) {
			const struct fw_dmar *m = fw_acpi_table_model(t, FW_ACPI_MODEL_DMAR);
			char *dsl = iasl_decode(t, "dmar");
			uint64_t bases[64], buses[256];
			size_t nb = dsl ? iasl_values(dsl, "Register Base Address", bases, 64) : 0;
			size_t nbus = dsl ? iasl_values(dsl, "PCI Bus Number", buses, 256) : 0;
			size_t k = 0, kb = 0;
			bool ok = dsl && m;
			for (size_t u = 0; ok && u < m->n; u++) {
				if (m->units[u].type == FW_DMAR_DRHD)
					ok = k < nb && bases[k++] == m->units[u].base;
				for (size_t sc = 0; ok && sc < m->units[u].nscopes; sc++)
					ok = kb < nbus && buses[kb++] == m->units[u].scopes[sc].start_bus;
			}
			ok = ok && k == nb && kb == nbus && nb > 0 && nbus > 0;
			free(dsl);
			CHECK_MSG(ok, "%s: DMAR differs from iasl", dumps[i]);
			checked++;
		}
		if ((t = fw_acpi_set_find(s, "MCFG", 0))) {
			const struct fw_mcfg *m = fw_acpi_table_model(t, FW_ACPI_MODEL_MCFG);
			char *dsl = iasl_decode(t, "mcfg");
			uint64_t base[16], end[16];
			size_t n = dsl ? iasl_values(dsl, "Base Address", base, 16) : 0;
			size_t ne = dsl ? iasl_values(dsl, "End Bus Number", end, 16) : 0;
			bool ok = dsl && m && n == m->n && ne == m->n && n > 0;
			for (size_t k = 0; ok && k < n; k++)
				ok = base[k] == m->allocations[k].base && end[k] == m->allocations[k].end_bus;
			free(dsl);
			CHECK_MSG(ok, "%s: MCFG differs from iasl", dumps[i]);
			checked++;
		}
		if ((t = fw_acpi_set_find(s, "SRAT", 0))) {
			const struct fw_srat *m = fw_acpi_table_model(t, FW_ACPI_MODEL_SRAT);
			char *dsl = iasl_decode(t, "srat");
			uint64_t lens[64], apic[256];
			size_t nl = dsl ? iasl_values(dsl, "Address Length", lens, 64) : 0;
			size_t na = dsl ? iasl_values(dsl, "Apic ID", apic, 256) : 0;
			size_t kl = 0, ka = 0;
			bool ok = dsl && m;
			for (size_t e = 0; ok && e < m->nentries; e++) {
				if (m->entries[e].type == FW_SRAT_MEMORY)
					ok = kl < nl && lens[kl++] == m->entries[e].size;
				else if (m->entries[e].type == FW_SRAT_LOCAL_APIC)
					ok = ka < na && apic[ka++] == m->entries[e].id;
			}
			ok = ok && kl == nl && ka == na && nl > 0 && na > 0;
			free(dsl);
			CHECK_MSG(ok, "%s: SRAT differs from iasl (%zu/%zu memory, %zu/%zu APIC)", dumps[i], kl, nl, ka, na);
			checked++;
		}
		if ((t = fw_acpi_set_find(s, "APIC", 0))) {
			const struct fw_madt *m = fw_acpi_table_model(t, FW_ACPI_MODEL_MADT);
			char *dsl = iasl_decode(t, "apic");
			uint64_t ids[32];
			size_t n = dsl ? iasl_values(dsl, "I/O Apic ID", ids, 32) : 0;
			bool ok = dsl && m && n == m->nioapics && n > 0;
			for (size_t k = 0; ok && k < n; k++)
				ok = ids[k] == m->ioapics[k].id;
			free(dsl);
			CHECK_MSG(ok, "%s: MADT I/O APICs differ from iasl", dumps[i]);
			checked++;
		}
		fw_acpi_set_free(s);
	}
	if (!checked)
		SKIP("corpus acpi/ not present");
}

/* --- root bridges through iasl ----------------------------------------------------------------- */

TEST(acpi_corpus_threadripper_root_bridges_to_pxm)
{
	struct fw_acpi_set *s = open_dump("asus-rog-zenith-ii-extreme-alpha.acpidump.txt");
	if (!s)
		SKIP("corpus acpi/asus-rog-zenith-ii-extreme-alpha.acpidump.txt not present");
	if (!have_program(fw_iasl_program())) {
		fw_acpi_set_free(s);
		SKIP("iasl is not installed (acpica-tools)");
	}
	struct fw_acpi_topo *t = NULL;
	struct fw_error err;
	bool built = fw_acpi_topo_build(s, NULL, &t, &err);
	static const char *const paths[4] = {"\\_SB.PCI0", "\\_SB.S0D1", "\\_SB.S0D2", "\\_SB.S0D3"};
	bool ok = built && t->nbridges == 4 && t->dsl_tables == 8;
	for (size_t i = 0; ok && i < 4; i++) {
		const struct fw_topo_bridge *b = &t->bridges[i];
		ok = strcmp(b->dsl.path, paths[i]) == 0 && strcmp(b->dsl.hid, "PNP0A08") == 0 && b->pxm_known && b->pxm == i &&
		     b->bus_known && b->bus_first == 0x20 * i && b->bus_last == 0x20 * i + 0x1F && b->iommu &&
		     b->iommu->device_id == (uint16_t)(0x2000 * i + 2) && b->dsl.uid && (size_t)atoi(b->dsl.uid) == i &&
		     b->dsl.has_sta && b->dsl.sta == 0x0F;
	}
	fw_acpi_topo_free(t);
	fw_acpi_set_free(s);
	CHECK_MSG(built, "%s", err.msg);
	CHECK(ok);
}

TEST(acpi_corpus_r820_root_bridges)
{
	struct fw_acpi_set *s = open_dump("dell-poweredge-r820.acpidump.txt");
	if (!s)
		SKIP("corpus acpi/dell-poweredge-r820.acpidump.txt not present");
	if (!have_program(fw_iasl_program())) {
		fw_acpi_set_free(s);
		SKIP("iasl is not installed (acpica-tools)");
	}
	struct fw_acpi_topo *t = NULL;
	struct fw_error err;
	bool built = fw_acpi_topo_build(s, NULL, &t, &err);
	/* `_PXM` as a Name; PCI1's _BBN depends on a run-time condition, so its buses are unknown. */
	bool ok = built && t->nbridges == 6 && !strcmp(t->bridges[0].dsl.path, "\\_SB.PCI0") && t->bridges[0].pxm == 1 &&
		  !strcmp(t->bridges[0].pxm_source, "Name") && t->bridges[0].dsl.uid_is_string && !strcmp(t->bridges[0].dsl.uid, "PCI0") &&
		  !strcmp(t->bridges[1].dsl.path, "\\_SB.PCI1") && t->bridges[1].pxm == 2 && !t->bridges[1].bus_known &&
		  t->bridges[1].dsl.bbn_declared && t->bridges[0].bus_known && !t->bridges[0].bus_last_certain &&
		  t->bridges[2].bus_first == 0x3F && t->ndomains == 4;
	fw_acpi_topo_free(t);
	fw_acpi_set_free(s);
	CHECK_MSG(built, "%s", err.msg);
	CHECK(ok);
}

/* --- tables in a real AMI capsule ---------------------------------------------------------------- */

TEST(acpi_corpus_wrx90e_capsule_tables)
{
	const char *path = fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_rebuilt.cap");
	if (!path)
		SKIP("corpus firmware/asus-wrx90e-sage-se-1203_rebuilt.cap not present");
	struct fw_acpi_set *s;
	struct fw_error err;
	CHECK_MSG(fw_source_acpi_open(path, &s, &err), "%s", err.msg);
	size_t dsdt = 0, ssdt = 0, bad = 0, raw = 0;
	for (size_t i = 0; i < s->ntables; i++) {
		const struct fw_acpi_table *t = s->tables[i];
		dsdt += !memcmp(t->signature, "DSDT", 4);
		ssdt += !memcmp(t->signature, "SSDT", 4);
		bad += t->checksum_state != FW_ACPI_CHECKSUM_OK;
		raw += strstr(t->origin, "Raw section +0x0") != NULL;
	}
	/* AMI keeps its static tables in raw sections of the ACPI modules; two DSDT variants. */
	bool ok = s->source == FW_ACPI_SRC_IMAGE && dsdt == 2 && ssdt == 37 && bad == 0 && raw == 37 && s->ntables == 39;
	/* UEFIExtract A68's report of the original image must list a raw section of exactly
	 * 4 + Length bytes for every table found at the start of a raw section. */
	size_t rlen = 0, matched = 0;
	char *report = (char *)fw_test_read_file(fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_uefiextract-A68.report.txt"), &rlen);
	if (report) {
		report = fw_xrealloc(report, rlen + 1);
		report[rlen] = '\0';
		for (size_t i = 0; i < s->ntables; i++) {
			if (!strstr(s->tables[i]->origin, "Raw section +0x0"))
				continue;
			char want[64];
			snprintf(want, sizeof(want), "| Raw                   |   N/A    | %08X |", s->tables[i]->length + 4);
			matched += strstr(report, want) != NULL;
		}
		free(report);
	}
	fw_acpi_set_free(s);
	CHECK_MSG(ok, "%zu DSDT, %zu SSDT, %zu bad, %zu in raw sections", dsdt, ssdt, bad, raw);
	if (rlen)
		CHECK_EQ(matched, raw);
}

/* --- the synthetic ESC8000A-E13 machines (build/samples) ----------------------------------------- */

TEST(acpi_samples_ivrs_and_topology)
{
	size_t checked = 0;
	for (int v = 0; v < 2; v++) {
		const char *root = fw_test_build(v ? "samples/sysroot-1201" : "samples/sysroot-1104");
		if (!root)
			continue;
		struct fw_acpi_set *s;
		struct fw_error err;
		CHECK_MSG(fw_source_acpi_open(root, &s, &err), "%s", err.msg);
		const struct fw_acpi_table *t = fw_acpi_set_find(s, "IVRS", 0);
		const struct fw_ivrs *m = t ? fw_acpi_table_model(t, FW_ACPI_MODEL_IVRS) : NULL;
		struct walk w;
		if (t)
			walk_ivrs(t->data.p, t->data.len, &w);
		bool same = m && m->nblocks == w.nblocks;
		for (size_t b = 0; same && b < w.nblocks; b++)
			same = m->blocks[b].type == w.type[b] && m->blocks[b].nraw_entries == w.entries[b];
		unsigned iommus = 0;
		bool efr_known = false, snp_all = false;
		if (m)
			fw_ivrs_snp_summary(m, &iommus, &efr_known, &snp_all);
		/* 8 IOMMUs as 11h and 40h blocks, SNPSup everywhere, no complaint from Linux. */
		bool ok = same && s->source == FW_ACPI_SRC_SYSROOT && m->nblocks == 16 && m->linux_type == 0x40 && iommus == 8 &&
			  snp_all && m->nlinux_messages == 0 && w.per_type[0xF0] == 2; /* the FCH UARTs, on IOMMU 0 */
		size_t gi = 0;
		const struct fw_srat *srat = fw_acpi_set_model(s, FW_ACPI_MODEL_SRAT);
		for (size_t i = 0; srat && i < srat->nentries; i++)
			gi += srat->entries[i].type == FW_SRAT_GENERIC_INITIATOR && srat->entries[i].handle_type == FW_SRAT_GI_HANDLE_PCI;
		ok = ok && gi == 8 && srat->ndomains == (v ? 8u : 2u);
		struct fw_acpi_topo *topo = NULL;
		if (ok && have_program(fw_iasl_program())) {
			/* the devices under each bridge from the root's sysfs, as `acpi topo ROOT` reads it */
			struct fw_machine *sysfs = NULL;
			struct fw_topo_host host;
			struct fw_topo_options o = {.host = fw_source_acpi_topo_host(s, &sysfs, &host) ? &host : NULL};
			ok = o.host && fw_acpi_topo_build(s, &o, &topo, &err) && topo->nbridges == 8;
			fw_machine_close(sysfs);
			for (size_t i = 0; ok && i < 8; i++) {
				const struct fw_topo_bridge *b = &topo->bridges[i];
				/* NPS1 (1104): one domain per socket; NPS4 (1201): one per root bridge. */
				ok = b->bus_known && b->bus_first == 0x20 * i && b->bus_last == 0x20 * i + 0x1F && b->iommu &&
				     b->iommu->device_id == (uint16_t)(0x2000 * i + 2) && b->pxm_known && b->pxm == (v ? i : i / 4) &&
				     b->ninitiators == ((i % 4 == 1 || i % 4 == 2) ? 2 : 0) && b->ndevices >= 3;
			}
			fw_acpi_topo_free(topo);
		}
		fw_acpi_set_free(s);
		CHECK_MSG(ok, "sysroot %s", v ? "1201" : "1104");
		checked++;
	}
	if (!checked)
		SKIP("samples not built (make samples)");
}

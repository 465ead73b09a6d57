/* ACPI decoders on tables written for the tests: the annotated acpidump files in
 * tests/data/acpi/ (IVRS with IVMD and ACPI HID entries, SRAT with Generic Initiators, a bad
 * checksum) and tables built here byte by byte for the cases real firmware rarely shows:
 * every AMD-Vi message Linux prints for a broken IVRS, malformed lengths, acpidump damage,
 * RSDP/XSDT pointers, folders. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acpi/cedt.h"
#include "acpi/decode.h"
#include "acpi/fields.h"
#include "acpi/dmar.h"
#include "acpi/dsl.h"
#include "acpi/fadt.h"
#include "acpi/hmat.h"
#include "acpi/iasl.h"
#include "acpi/ivrs.h"
#include "acpi/madt.h"
#include "acpi/mcfg.h"
#include "acpi/pptt.h"
#include "acpi/set.h"
#include "acpi/srat.h"
#include "acpi/topo.h"
#include "acpi/xsdt.h"
#include "harness.h"
#include "parsers/acpidump.h"
#include "parsers/env.h"
#include "tools/query/source.h"

/* --- a small table builder ---------------------------------------------------------------------- */

struct tb {
	uint8_t b[4096];
	size_t n;
};

static void put(struct tb *t, const void *p, size_t n)
{
	memcpy(t->b + t->n, p, n);
	t->n += n;
}
static void u8(struct tb *t, uint8_t v) { put(t, &v, 1); }
static void u16(struct tb *t, uint16_t v) { uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)}; put(t, b, 2); }
static void u32(struct tb *t, uint32_t v) { u16(t, (uint16_t)v); u16(t, (uint16_t)(v >> 16)); }
static void u64(struct tb *t, uint64_t v) { u32(t, (uint32_t)v); u32(t, (uint32_t)(v >> 32)); }

static void header(struct tb *t, const char *sig, uint8_t rev)
{
	t->n = 0;
	put(t, sig, 4);
	u32(t, 0);
	u8(t, rev);
	u8(t, 0);
	put(t, "FWTEST", 6);
	put(t, "UNITTEST", 8);
	u32(t, 1);
	put(t, "FWLN", 4);
	u32(t, 1);
}

static void finish(struct tb *t)
{
	t->b[4] = (uint8_t)t->n;
	t->b[5] = (uint8_t)(t->n >> 8);
	fw_acpi_set_checksum(t->b, t->n);
}

static void ivhd(struct tb *t, uint8_t type, uint16_t devid, uint16_t len_of_entries, uint32_t attr, uint64_t efr)
{
	u8(t, type);
	u8(t, 0x30);
	u16(t, (uint16_t)((type == 0x10 ? 24 : 40) + len_of_entries));
	u16(t, devid);
	u16(t, 0x40);
	u64(t, 0xFD200000 + devid);
	u16(t, 0);
	u16(t, 0);
	u32(t, attr);
	if (type != 0x10) {
		u64(t, efr);
		u64(t, 0);
	}
}

static void special(struct tb *t, uint8_t variety, uint8_t handle, uint16_t source)
{
	u8(t, 0x48);
	u16(t, 0);
	u8(t, 0xD7);
	u8(t, handle);
	u16(t, source);
	u8(t, variety);
}

static struct fw_acpi_set *load(const uint8_t *p, size_t n)
{
	struct fw_acpi_set *s = fw_acpi_set_new();
	struct fw_error err;
	if (!fw_acpi_set_add_buffer(s, p, n, "test", &err)) {
		fprintf(stderr, "load: %s\n", err.msg);
		fw_acpi_set_free(s);
		return NULL;
	}
	fw_acpi_set_finish(s);
	return s;
}

static bool has_message(const struct fw_ivrs *m, const char *text)
{
	for (size_t i = 0; i < m->nlinux_messages; i++)
		if (strcmp(m->linux_messages[i], text) == 0)
			return true;
	return false;
}

static bool has_diag(const struct fw_acpi_table *t, enum fw_diag_severity sev, const char *part)
{
	for (const struct fw_diag *d = t->diags; d; d = d->next)
		if (d->severity == sev && strstr(d->msg, part))
			return true;
	return false;
}

static struct fw_acpi_set *open_data(const char *rel)
{
	const char *path = fw_test_data(rel);
	if (!path)
		return NULL;
	struct fw_acpi_set *s;
	struct fw_error err;
	return fw_source_acpi_open(path, &s, &err) ? s : NULL;
}

/* --- the annotated test data ---------------------------------------------------------------------- */

TEST(acpi_ivrs_with_ivmd_and_hid_entries)
{
	struct fw_acpi_set *s = open_data("acpi/ivrs-ivmd.acpidump.txt");
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "IVRS", 0);
	const struct fw_ivrs *m = t ? fw_acpi_table_model(t, FW_ACPI_MODEL_IVRS) : NULL;
	bool ok = m && t->checksum_state == FW_ACPI_CHECKSUM_OK && m->ivinfo == 0x00203043 && m->nblocks == 5 &&
		  m->linux_type == 0x40 && m->niommus == 1 && m->global_efr == 0x8000000000200BDFULL && m->global_efr2 == 2;
	/* 11h block: select, range, alias, ext select, ext range, pad, IOAPIC, HPET (10 records) */
	const struct fw_ivrs_block *b = ok ? &m->blocks[0] : NULL;
	ok = ok && b->type == 0x11 && !b->linux_uses && b->nentries == 8 && b->nraw_entries == 10 &&
	     b->entries[1].kind == FW_IVRS_E_RANGE && b->entries[1].device_id == 0x10 && b->entries[1].end == 0x1F &&
	     b->entries[1].closed && b->entries[2].kind == FW_IVRS_E_ALIAS_SELECT && b->entries[2].source == 0xA4 &&
	     b->entries[3].kind == FW_IVRS_E_EXT_SELECT && b->entries[3].ext == 0x80000000 &&
	     b->entries[4].kind == FW_IVRS_E_EXT_RANGE && b->entries[4].end == 0x3FF && b->entries[5].kind == FW_IVRS_E_PAD &&
	     b->entries[7].kind == FW_IVRS_E_SPECIAL && b->entries[7].variety == FW_IVHD_SPECIAL_HPET;
	/* 40h block: all, IOAPIC, two ACPI HID entries (string and integer UID) */
	const struct fw_ivrs_block *h = ok ? &m->blocks[1] : NULL;
	ok = ok && h->type == 0x40 && h->linux_uses && h->iommu_index == 0 && h->nentries == 4 &&
	     h->entries[2].kind == FW_IVRS_E_ACPI_HID && !strcmp(h->entries[2].hid, "AMDI0020") && !strcmp(h->entries[2].uid, "\\_SB.FUR0") &&
	     h->entries[2].device_id == 0xA5 && !strcmp(h->entries[3].hid, "AMDI0040") && !strcmp(h->entries[3].cid, "PNP0C09") &&
	     h->entries[3].uid_format == FW_IVHD_UID_INTEGER && !strcmp(h->entries[3].uid, "7") && h->ncovered == 1 &&
	     h->covered[0].first == 0 && h->covered[0].last == 0xFFFF;
	/* IVMD 20h, 21h, 22h */
	ok = ok && m->blocks[2].is_ivmd && m->blocks[2].type == 0x20 && m->blocks[2].flags == 7 && m->blocks[2].start_address == 0xA0000 &&
	     m->blocks[2].memory_length == 0x20000 && m->blocks[3].type == 0x21 && m->blocks[3].device_id == 0xA5 &&
	     m->blocks[3].memory_length == 1 && m->blocks[4].type == 0x22 && m->blocks[4].device_id == 0 &&
	     m->blocks[4].aux_data == 0x0FFF && m->blocks[4].start_address == 0xBF000000;
	/* MADT IOAPIC 34 has no IVRS entry: Linux's two messages, in order. */
	ok = ok && m->nlinux_messages == 2 && !strcmp(m->linux_messages[0], "AMD-Vi: [Firmware Bug]: : IOAPIC[34] not in IVRS table") &&
	     !strcmp(m->linux_messages[1], "AMD-Vi: Disabling interrupt remapping");
	const char *names[16];
	size_t n = fw_ivrs_efr_features(m ? m->global_efr : 0, m ? m->global_efr2 : 0, names, 16);
	ok = ok && n == 12 && !strcmp(names[9], "GA_vAPIC") && !strcmp(names[10], "SNP") && !strcmp(names[11], "SEV-TIO");
	unsigned iommus = 0;
	bool efr_known = false, snp_all = false;
	if (m)
		fw_ivrs_snp_summary(m, &iommus, &efr_known, &snp_all);
	ok = ok && iommus == 1 && efr_known && snp_all;
	fw_acpi_set_free(s);
	CHECK(ok);
}

TEST(acpi_srat_generic_initiators)
{
	struct fw_acpi_set *s = open_data("acpi/srat-gi.acpidump.txt");
	CHECK(s);
	const struct fw_srat *m = fw_acpi_set_model(s, FW_ACPI_MODEL_SRAT);
	bool ok = m && m->table_revision == 1 && m->nentries == 12 && m->ndomains == 5;
	const struct fw_srat_entry *e = ok ? m->entries : NULL;
	ok = ok && e[0].type == FW_SRAT_LOCAL_APIC && e[0].enabled && e[0].proximity_domain == 0 && !e[1].enabled &&
	     e[2].type == FW_SRAT_X2APIC && e[2].id == 0x100 && e[2].proximity_domain == 1 && e[3].type == FW_SRAT_MEMORY &&
	     e[3].size == 0x80000000 && e[4].base == 0x100000000ULL && e[4].flags == 3 && e[5].flags == 0xB &&
	     e[5].proximity_domain == 4;
	ok = ok && e[6].type == FW_SRAT_GENERIC_INITIATOR && e[6].handle_type == FW_SRAT_GI_HANDLE_PCI && e[6].segment == 0 &&
	     e[6].bdf == 0x4100 && e[6].proximity_domain == 2 && e[7].segment == 1 && e[7].bdf == 0xA3E5 && e[7].flags == 3 &&
	     e[8].handle_type == FW_SRAT_GI_HANDLE_ACPI && !strcmp(e[8].hid, "AMDI0100") && e[8].uid == 5 &&
	     e[9].type == FW_SRAT_GENERIC_PORT && !strcmp(e[9].hid, "ACPI0016") && e[9].uid == 1 && e[9].proximity_domain == 3 &&
	     e[10].type == FW_SRAT_GICC && e[10].id == 7 && e[11].type == 0x99;
	char bdf[16];
	ok = ok && !strcmp(fw_acpi_bdf_str(e[7].segment, e[7].bdf, bdf), "0001:a3:1c.5");
	fw_acpi_set_free(s);
	CHECK(ok);
}

TEST(acpi_bad_checksum_is_reported_not_fatal)
{
	struct fw_acpi_set *s = open_data("acpi/bad-checksum.acpidump.txt");
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "MCFG", 0);
	const struct fw_mcfg *m = t ? fw_acpi_table_model(t, FW_ACPI_MODEL_MCFG) : NULL;
	bool ok = t && t->checksum_state == FW_ACPI_CHECKSUM_BAD && has_diag(t, FW_DIAG_WARN, "checksum") && m && m->n == 1 &&
		  m->allocations[0].base == 0xE0000000 && m->allocations[0].end_bus == 0xFF;
	fw_acpi_set_free(s);
	CHECK(ok);
}

/* --- Linux's view of broken IVRS tables -------------------------------------------------------- */

TEST(acpi_ivrs_linux_messages)
{
	struct tb t;
	/* Two 11h IOMMUs with different EFRs, HATS=3 in both, HATDis on the second, an ACPI HID entry
	 * in an 11h block, and a bad checksum. */
	header(&t, "IVRS", 2);
	u32(&t, 0x00203041);
	u64(&t, 0);
	ivhd(&t, 0x11, 0x0002, 8, 0, 0x0C00 | 0x80);
	special(&t, 1, 10, 0xA0);
	ivhd(&t, 0x11, 0x4002, 22 + 4, 1, 0x0C00);
	u8(&t, 0xF0);
	u16(&t, 0x4100);
	u8(&t, 0);
	put(&t, "AMDI0030", 8);
	u64(&t, 0);
	u8(&t, 0);
	u8(&t, 0);
	u32(&t, 0); /* a pad entry */
	finish(&t);
	t.b[9] ^= 0x55;
	struct fw_acpi_set *s = load(t.b, t.n);
	CHECK(s);
	const struct fw_acpi_table *tab = fw_acpi_set_find(s, "IVRS", 0);
	const struct fw_ivrs *m = fw_acpi_table_model(tab, FW_ACPI_MODEL_IVRS);
	bool ok = m && m->nblocks == 2 && m->linux_type == 0x11 && m->niommus == 2 &&
		  has_message(m, "AMD-Vi: [Firmware Bug]: IVRS invalid checksum") &&
		  has_message(m, "AMD-Vi: [Firmware Bug]: Invalid IVHD device type 0xf0") &&
		  has_message(m, "AMD-Vi: Host Address Translation is not supported.") &&
		  has_message(m, "AMD-Vi: [Firmware Bug]: Found inconsistent EFR/EFR2 0xc00,0 (global 0xc80,0) on iommu1 (0000:40:00.2).") &&
		  has_message(m, "AMD-Vi: [Firmware Bug]: Disable host address translation due to invalid translation level") &&
		  m->global_efr == 0xC00 && tab->checksum_state == FW_ACPI_CHECKSUM_BAD;
	fw_acpi_set_free(s);
	CHECK(ok);
}

TEST(acpi_ivrs_hid_entry_problems)
{
	struct tb t;
	header(&t, "IVRS", 2);
	u32(&t, 0x00203041);
	u64(&t, 0);
	ivhd(&t, 0x40, 0x0002, 22 + 22 + 3, 0, 0);
	/* empty HID */
	u8(&t, 0xF0);
	u16(&t, 0xA5);
	u8(&t, 0);
	put(&t, "\0\0\0\0\0\0\0\0", 8);
	u64(&t, 0);
	u8(&t, 0);
	u8(&t, 0);
	/* UID format "none" with a length of 3 */
	u8(&t, 0xF0);
	u16(&t, 0xA6);
	u8(&t, 0);
	put(&t, "AMDI0020", 8);
	u64(&t, 0);
	u8(&t, 0);
	u8(&t, 3);
	put(&t, "abc", 3);
	finish(&t);
	struct fw_acpi_set *s = load(t.b, t.n);
	CHECK(s);
	const struct fw_ivrs *m = fw_acpi_set_model(s, FW_ACPI_MODEL_IVRS);
	bool ok = m && m->blocks[0].nentries == 2 && has_message(m, "AMD-Vi: [Firmware Bug]: Invalid HID.") &&
		  has_message(m, "AMD-Vi: [Firmware Bug]: Invalid UID length.") && m->nlinux_messages == 2;
	fw_acpi_set_free(s);
	CHECK(ok);
}

/* Linux picks the type from blocks with the first block's DeviceID, IVMD included. */
TEST(acpi_ivrs_type_selection_quirk)
{
	struct tb t;
	header(&t, "IVRS", 2);
	u32(&t, 0x00203041);
	u64(&t, 0);
	ivhd(&t, 0x10, 0x0002, 4, 0, 0);
	u8(&t, 0x01), u16(&t, 0), u8(&t, 0);
	ivhd(&t, 0x11, 0x0002, 4, 0, 0x80);
	u8(&t, 0x01), u16(&t, 0), u8(&t, 0);
	/* IVMD 21h for device 0x0002: same DeviceID as the first IVHD */
	u8(&t, 0x21), u8(&t, 1), u16(&t, 32), u16(&t, 0x0002), u16(&t, 0), u16(&t, 0);
	put(&t, "\0\0\0\0\0\0", 6);
	u64(&t, 0x1000), u64(&t, 0x1000);
	finish(&t);
	struct fw_acpi_set *s = load(t.b, t.n);
	CHECK(s);
	const struct fw_ivrs *m = fw_acpi_set_model(s, FW_ACPI_MODEL_IVRS);
	bool ok = m && m->nblocks == 3 && m->linux_type == 0x21 && m->niommus == 0 &&
		  has_message(m, "AMD-Vi: Unsupported IVHD type 0x21");
	fw_acpi_set_free(s);
	CHECK(ok);
}

TEST(acpi_ivrs_ioapic_check_follows_madt_order)
{
	struct tb t;
	header(&t, "IVRS", 2);
	u32(&t, 0x00203041);
	u64(&t, 0);
	ivhd(&t, 0x11, 0x0002, 8, 0, 0x80);
	special(&t, 1, 33, 0xA0);
	finish(&t);
	struct {
		uint8_t ids[2];
		size_t n;
		const char *first, *second;
	} cases[] = {
		/* missing IOAPIC first, then the southbridge one: Linux ends with ret = true */
		{{34, 33}, 2, "AMD-Vi: [Firmware Bug]: : IOAPIC[34] not in IVRS table", NULL},
		{{33, 34}, 2, "AMD-Vi: [Firmware Bug]: : IOAPIC[34] not in IVRS table", "AMD-Vi: Disabling interrupt remapping"},
		{{33, 0}, 1, NULL, NULL},
		{{0, 0}, 0, "AMD-Vi: [Firmware Bug]: : No southbridge IOAPIC found", "AMD-Vi: Disabling interrupt remapping"},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct fw_acpi_set *s = load(t.b, t.n);
		CHECK(s);
		struct fw_acpi_table *tab = fw_acpi_set_find(s, "IVRS", 0);
		struct fw_ivrs *m = tab->model;
		fw_ivrs_check_ioapics(m, tab, &s->arena, cases[c].ids, cases[c].n);
		size_t want = (cases[c].first != NULL) + (cases[c].second != NULL);
		bool ok = m->nlinux_messages == want && (!cases[c].first || !strcmp(m->linux_messages[0], cases[c].first)) &&
			  (!cases[c].second || !strcmp(m->linux_messages[1], cases[c].second));
		fw_acpi_set_free(s);
		CHECK_MSG(ok, "case %zu", c);
	}
}

TEST(acpi_ivrs_malformed_walks_stop_cleanly)
{
	struct tb t;
	/* END without START, a START never closed, an unknown 16-byte entry type, an entry
	 * running past its block, then a zero-length block. */
	header(&t, "IVRS", 2);
	u32(&t, 0);
	u64(&t, 0);
	ivhd(&t, 0x10, 0x0002, 4 + 4 + 16 + 4, 0, 0);
	u8(&t, 0x04), u16(&t, 0x10), u8(&t, 0);
	u8(&t, 0x03), u16(&t, 0x20), u8(&t, 0);
	u8(&t, 0x80), u16(&t, 0), u8(&t, 0);
	put(&t, "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
	u8(&t, 0x42), u16(&t, 0x30), u8(&t, 0); /* 8-byte type, 4 bytes left in the block */
	u8(&t, 0x10), u8(&t, 0), u16(&t, 0);    /* zero-length block */
	finish(&t);
	struct fw_acpi_set *s = load(t.b, t.n);
	CHECK(s);
	const struct fw_acpi_table *tab = fw_acpi_set_find(s, "IVRS", 0);
	const struct fw_ivrs *m = fw_acpi_table_model(tab, FW_ACPI_MODEL_IVRS);
	bool ok = m && m->nblocks == 1 && m->blocks[0].nentries == 3 && m->blocks[0].entries[0].kind == FW_IVRS_E_END &&
		  m->blocks[0].entries[1].kind == FW_IVRS_E_RANGE && !m->blocks[0].entries[1].closed &&
		  m->blocks[0].entries[2].kind == FW_IVRS_E_UNKNOWN && m->blocks[0].entries[2].length == 16 &&
		  has_diag(tab, FW_DIAG_WARN, "without a START") && has_diag(tab, FW_DIAG_WARN, "has no END entry") &&
		  has_diag(tab, FW_DIAG_ERROR, "only 4 left in the block") && has_diag(tab, FW_DIAG_ERROR, "has Length 0 (") &&
		  m->blocks[0].ncovered == 0;
	fw_acpi_set_free(s);
	CHECK(ok);
}

/* --- table parsing ----------------------------------------------------------------------------- */

TEST(acpi_table_lengths_checked)
{
	struct tb t;
	header(&t, "MCFG", 1);
	u64(&t, 0);
	finish(&t);
	/* Length below the header */
	t.b[4] = 20;
	struct fw_acpi_set *s = fw_acpi_set_new();
	struct fw_error err;
	bool ok = !fw_acpi_set_add_buffer(s, t.b, t.n, "short", &err) && err.code == FW_E_INVALID && strstr(err.msg, "smaller than");
	fw_acpi_set_free(s);
	CHECK(ok);
	/* Length beyond the bytes: a single binary table is refused ... */
	t.b[4] = 200;
	s = fw_acpi_set_new();
	ok = !fw_acpi_set_add_buffer(s, t.b, t.n, "long", &err) && err.code == FW_E_TRUNCATED && strstr(err.msg, "@0x0");
	fw_acpi_set_free(s);
	CHECK_MSG(ok, "%s", err.msg);
	/* ... but inside acpidump text it is kept, marked truncated and not decoded. */
	const char *dump = "MCFG @ 0x0000000000000000\n"
			   "    0000: 4D 43 46 47 C8 00 00 00 01 00 46 57 54 45 53 54  MCFG......FWTEST\n"
			   "    0010: 55 4E 49 54 54 45 53 54 01 00 00 00 46 57 4C 4E  UNITTEST....FWLN\n"
			   "    0020: 01 00 00 00 00 00 00 00 00 00 00 00              ............\n\n";
	s = load((const uint8_t *)dump, strlen(dump));
	CHECK(s);
	const struct fw_acpi_table *tab = fw_acpi_set_find(s, "MCFG", 0);
	ok = tab && tab->truncated && tab->length == 200 && tab->data.len == 44 && !tab->model &&
	     has_diag(tab, FW_DIAG_ERROR, "truncated") && tab->checksum_state == FW_ACPI_CHECKSUM_BAD;
	fw_acpi_set_free(s);
	CHECK(ok);
}

TEST(acpi_facs_has_no_checksum)
{
	uint8_t facs[64] = {'F', 'A', 'C', 'S', 64};
	facs[32] = 2; /* version */
	facs[9] = 0x77;
	struct fw_acpi_set *s = load(facs, sizeof(facs));
	CHECK(s);
	const struct fw_acpi_table *t = s->tables[0];
	bool ok = s->ntables == 1 && t->checksum_state == FW_ACPI_CHECKSUM_NONE && t->revision == 2 && !t->has_header && t->length == 64;
	fw_acpi_set_free(s);
	CHECK(ok);
}

TEST(acpi_concatenated_binary_tables)
{
	struct tb a, b;
	header(&a, "MCFG", 1);
	u64(&a, 0);
	u64(&a, 0xE0000000), u16(&a, 0), u8(&a, 0), u8(&a, 0x7F), u32(&a, 0);
	finish(&a);
	header(&b, "SSDT", 2);
	put(&b, "\x10\x05\x5c\x5f\x53\x42\x5f", 7);
	finish(&b);
	uint8_t buf[8192];
	memcpy(buf, a.b, a.n);
	memcpy(buf + a.n, b.b, b.n);
	memcpy(buf + a.n + b.n, b.b, b.n);
	struct fw_acpi_set *s = load(buf, a.n + 2 * b.n);
	CHECK(s);
	char n1[16], n2[16];
	bool ok = s->ntables == 3 && !strcmp(fw_acpi_table_name(s->tables[1], n1, sizeof(n1)), "SSDT1") &&
		  !strcmp(fw_acpi_table_name(s->tables[2], n2, sizeof(n2)), "SSDT2") && s->tables[0]->instance == 0 &&
		  s->tables[2]->data.base == a.n + b.n;
	fw_acpi_set_free(s);
	CHECK(ok);
}

/* --- acpidump text ----------------------------------------------------------------------------- */

struct collected {
	char sig[8][5];
	uint64_t addr[8];
	size_t len[8];
	size_t n;
};

static bool collect(void *ctx, const char sig[5], uint64_t address, const uint8_t *bytes, size_t n, unsigned line,
		    struct fw_error *err)
{
	(void)bytes, (void)line, (void)err;
	struct collected *c = ctx;
	if (c->n < 8) {
		memcpy(c->sig[c->n], sig, 5);
		c->addr[c->n] = address;
		c->len[c->n] = n;
	}
	c->n++;
	return true;
}

TEST(acpidump_text_variants)
{
	/* CRLF, "RSD PTR" naming, "(nil)", notes before the dump, a table over 64 KiB whose offsets
	 * grow to five digits, the ASCII column ignored even when it looks like hex. */
	size_t cap = 1 << 20;
	char *text = malloc(cap);
	size_t n = 0;
	n += (size_t)snprintf(text + n, cap - n, "Notes from the mailing list\r\n\r\n");
	n += (size_t)snprintf(text + n, cap - n, "RSD PTR @ 0xf6cd0\r\n    0000: 52 53 44 20 50 54 52 20 00 41 42 43 44 45 46 00  AB CD EF 01 02\r\n"
						 "    0010: 00 00 00 00                                      ....\r\n\r\n");
	n += (size_t)snprintf(text + n, cap - n, "SSDT @ (nil)\n");
	for (size_t off = 0; off < 0x10010; off += 16)
		n += (size_t)snprintf(text + n, cap - n, "    %04zX: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................\n", off);
	n += (size_t)snprintf(text + n, cap - n, "\nDSDT @ 0x00000000BFFE0000\n    0000: 44 53 44 54\n");
	struct collected c = {0};
	struct fw_error err;
	bool ok = fw_acpidump_parse(text, n, collect, &c, &err);
	free(text);
	CHECK_MSG(ok, "%s", err.msg);
	CHECK_EQ(c.n, 3);
	CHECK_STR(c.sig[0], "RSDP");
	CHECK_EQ(c.addr[0], 0xf6cd0);
	CHECK_EQ(c.len[0], 20);
	CHECK_STR(c.sig[1], "SSDT");
	CHECK_EQ(c.len[1], 0x10010);
	CHECK_EQ(c.addr[2], 0xBFFE0000);
	CHECK_EQ(c.len[2], 4);
}

TEST(acpidump_damage_is_refused_with_the_line)
{
	struct {
		const char *text, *want;
	} cases[] = {
		{"APIC @ 0x0\n    0000: 41 50 49 43\n    0008: 00 00\n", "line 3"},
		{"    0000: 41 50 49 43\n", "outside a table"},
		{"APIC @ 0x0\nFACP @ 0x0\n    0000: 46\n", "no data lines"},
		{"just some text\n", "no table found"},
		{"APIC @ 0x0\n    0000: 41 50 49 43\n    0004: \n", "without hex bytes"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct collected c = {0};
		struct fw_error err;
		fw_error_clear(&err);
		bool ok = fw_acpidump_parse(cases[i].text, strlen(cases[i].text), collect, &c, &err);
		CHECK_MSG(!ok && strstr(err.msg, cases[i].want), "case %zu: %s", i, err.msg);
	}
	CHECK(fw_acpidump_detect((const uint8_t *)"DSDT @ 0x0\n    0000: 44\n", 24));
	CHECK(!fw_acpidump_detect((const uint8_t *)"DSDT\0\0\0\0", 8));
}

/* --- RSDP, XSDT and FADT pointers ---------------------------------------------------------------- */

static size_t dump_table(char *out, size_t cap, const char *sig, uint64_t addr, const uint8_t *p, size_t n)
{
	size_t k = (size_t)snprintf(out, cap, "%s @ 0x%016llx\n", sig, (unsigned long long)addr);
	for (size_t off = 0; off < n; off += 16) {
		k += (size_t)snprintf(out + k, cap - k, "    %04zX:", off);
		for (size_t i = off; i < n && i < off + 16; i++)
			k += (size_t)snprintf(out + k, cap - k, " %02X", p[i]);
		k += (size_t)snprintf(out + k, cap - k, "\n");
	}
	k += (size_t)snprintf(out + k, cap - k, "\n");
	return k;
}

TEST(acpi_rsdp_xsdt_pointers_followed)
{
	struct tb rsdp, xsdt, facp, dsdt, apic;
	/* RSDP revision 2 pointing to the XSDT at 0x1000 */
	rsdp.n = 0;
	put(&rsdp, "RSD PTR ", 8);
	u8(&rsdp, 0);
	put(&rsdp, "FWTEST", 6);
	u8(&rsdp, 2);
	u32(&rsdp, 0x2000);
	u32(&rsdp, 36);
	u64(&rsdp, 0x1000);
	u8(&rsdp, 0);
	put(&rsdp, "\0\0\0", 3);
	uint8_t sum = 0;
	for (size_t i = 0; i < 20; i++)
		sum = (uint8_t)(sum + rsdp.b[i]);
	rsdp.b[8] = (uint8_t)-sum;
	sum = 0;
	for (size_t i = 0; i < 36; i++)
		sum = (uint8_t)(sum + rsdp.b[i]);
	rsdp.b[32] = (uint8_t)-sum;
	header(&xsdt, "XSDT", 1);
	u64(&xsdt, 0x3000); /* FACP */
	u64(&xsdt, 0x5000); /* APIC */
	u64(&xsdt, 0x9000); /* not in the dump */
	finish(&xsdt);
	header(&facp, "FACP", 6);
	while (facp.n < 276)
		u8(&facp, 0);
	facp.b[40] = 0x00, facp.b[41] = 0x40; /* DSDT 0x4000 */
	facp.b[140] = 0x00, facp.b[141] = 0x40; /* X_DSDT 0x4000 */
	finish(&facp);
	header(&dsdt, "DSDT", 2);
	finish(&dsdt);
	header(&apic, "APIC", 5);
	u32(&apic, 0xFEE00000), u32(&apic, 1);
	finish(&apic);
	char text[16384];
	size_t k = 0;
	k += dump_table(text + k, sizeof(text) - k, "RSD ", 0xF0000, rsdp.b, rsdp.n);
	k += dump_table(text + k, sizeof(text) - k, "XSDT", 0x1000, xsdt.b, xsdt.n);
	k += dump_table(text + k, sizeof(text) - k, "FACP", 0x3000, facp.b, facp.n);
	k += dump_table(text + k, sizeof(text) - k, "DSDT", 0x4000, dsdt.b, dsdt.n);
	k += dump_table(text + k, sizeof(text) - k, "APIC", 0x5000, apic.b, apic.n);
	struct fw_acpi_set *s = load((const uint8_t *)text, k);
	CHECK(s);
	const struct fw_acpi_table *r = fw_acpi_set_find(s, "RSDP", 0);
	const struct fw_acpi_xsdt *x = fw_acpi_set_model(s, FW_ACPI_MODEL_XSDT);
	const struct fw_fadt *f = fw_acpi_set_model(s, FW_ACPI_MODEL_FADT);
	bool missing = false;
	for (const struct fw_diag *d = s->diags; d; d = d->next)
		missing |= strstr(d->msg, "XSDT entry 2 points to 0x9000") != NULL;
	bool ok = r && r->checksum_state == FW_ACPI_CHECKSUM_OK && r->length == 36 && x && x->n == 3 && x->targets[0] &&
		  !memcmp(x->targets[0]->signature, "FACP", 4) && x->targets[1] && !memcmp(x->targets[1]->signature, "APIC", 4) &&
		  !x->targets[2] && missing && f && f->dsdt_address == 0x4000 && s->ndiags == 1;
	fw_acpi_set_free(s);
	CHECK(ok);
}

/* --- folders ----------------------------------------------------------------------------------- */

static void write_file(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(p, 1, n, f);
		fclose(f);
	}
}

TEST(acpi_sysfs_folder)
{
	char dir[] = "/tmp/fwlens-test-tables.XXXXXX";
	CHECK(mkdtemp(dir));
	char sub[4200];
	snprintf(sub, sizeof(sub), "%s/dynamic", dir);
	mkdir(sub, 0700);
	snprintf(sub, sizeof(sub), "%s/data", dir);
	mkdir(sub, 0700);
	struct tb t;
	header(&t, "SSDT", 2);
	finish(&t);
	write_file(dir, "SSDT10", t.b, t.n);
	write_file(dir, "SSDT2", t.b, t.n);
	write_file(dir, "SSDT1", t.b, t.n);
	write_file(dir, "dynamic/SSDT11", t.b, t.n);
	write_file(dir, "data/BERT", "not a table", 11);
	write_file(dir, "README", "not a table", 11);
	header(&t, "DSDT", 2);
	finish(&t);
	write_file(dir, "DSDT", t.b, t.n);
	write_file(dir, "APIC", t.b, t.n); /* holds a DSDT */
	struct fw_acpi_set *s;
	struct fw_error err;
	bool opened = fw_source_acpi_open(dir, &s, &err);
	const char *order[] = {"APIC", "DSDT", "SSDT1", "SSDT2", "SSDT10", "dynamic/SSDT11"};
	bool ok = opened && s->ntables == 6 && s->source == FW_ACPI_SRC_FOLDER;
	for (size_t i = 0; ok && i < 6; i++)
		ok = !strcmp(s->tables[i]->origin, order[i]);
	ok = ok && has_diag(s->tables[0], FW_DIAG_WARN, "holds a DSDT table") && s->ndiags == 1 &&
	     strstr(s->diags->msg, "README: skipped");
	if (opened)
		fw_acpi_set_free(s);
	char cmd[4300];
	const char *names[] = {"SSDT10", "SSDT2", "SSDT1", "dynamic/SSDT11", "data/BERT", "README", "DSDT", "APIC"};
	for (size_t i = 0; i < 8; i++) {
		snprintf(cmd, sizeof(cmd), "%s/%s", dir, names[i]);
		unlink(cmd);
	}
	snprintf(cmd, sizeof(cmd), "%s/dynamic", dir);
	rmdir(cmd);
	snprintf(cmd, sizeof(cmd), "%s/data", dir);
	rmdir(cmd);
	rmdir(dir);
	CHECK_MSG(opened, "%s", err.msg);
	CHECK(ok);
}

/* --- the DSL root-bridge reader ---------------------------------------------------------------- */

static const char dsl_text[] =
	"DefinitionBlock (\"\", \"DSDT\", 2, \"FWTEST\", \"UNITTEST\", 0x00000001)\n"
	"{\n"
	"    External (\\_SB_.PCI0.XXXX, MethodObj)    // 0 Arguments\n"
	"    Scope (_SB)\n"
	"    {\n"
	"        Device (PCI0)\n"
	"        {\n"
	"            Name (_HID, EisaId (\"PNP0A08\") /* PCI Express Bus */)  // _HID: Hardware ID\n"
	"            Name (_CID, EisaId (\"PNP0A03\") /* PCI Bus */)  // _CID: Compatible ID\n"
	"            Method (^BN00, 0, NotSerialized)\n"
	"            {\n"
	"                Return (Zero)\n"
	"            }\n"
	"            Method (_BBN, 0, NotSerialized)  // _BBN: BIOS Bus Number\n"
	"            {\n"
	"                Return (BN00 ())\n"
	"            }\n"
	"            Name (_UID, Zero)\n"
	"            Name (BRB, 0x0040)\n"
	"            Method (_STA, 0, NotSerialized) { Return (STAV) }\n"
	"            Name (STAV, 0x0F)\n"
	"            Device (GPP0) { Name (_ADR, 0x00010001) Name (_PXM, 0x05) }\n"
	"        }\n"
	"        Device (CXL0)\n"
	"        {\n"
	"            Name (_HID, \"ACPI0016\" /* Compute Express Link Host Bridge */)\n"
	"            Name (_CID, Package (0x02) { EisaId (\"PNP0A08\"), EisaId (\"PNP0A03\") })\n"
	"            Name (_UID, \"CXL0\")\n"
	"            Name (_SEG, One)\n"
	"            Name (_CRS, ResourceTemplate ()\n"
	"            {\n"
	"                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,\n"
	"                    0x0000,             // Granularity\n"
	"                    0x0080,             // Range Minimum\n"
	"                    0x009F,             // Range Maximum\n"
	"                    0x0000,             // Translation Offset\n"
	"                    0x0020,             // Length\n"
	"                    ,, )\n"
	"            })\n"
	"            Method (_BBN, 0, NotSerialized) { If (ABCD) { Return (0x80) } Return (0x40) }\n"
	"        }\n"
	"    }\n"
	"    Scope (_SB.PCI0)\n"
	"    {\n"
	"        Method (BN00, 0, NotSerialized) { Return (BRB) }\n"
	"        Method (_PXM, 0, NotSerialized) { Return (0x03) }\n"
	"    }\n"
	"}\n";

TEST(acpi_dsl_root_bridges_resolve_by_scope)
{
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_dsl_namespace ns;
	fw_dsl_namespace_init(&ns, &a);
	struct fw_error err;
	CHECK(fw_dsl_parse(&ns, dsl_text, sizeof(dsl_text) - 1, "DSDT", &err));
	struct fw_dsl_devices br, px;
	fw_dsl_devices(&ns, &br, &px);
	bool ok = br.n == 2 && px.n == 1;
	const struct fw_dsl_device *p = ok ? &br.v[0] : NULL, *c = ok ? &br.v[1] : NULL;
	/* _BBN -> BN00 () found in \_SB.PCI0 (not the ^BN00 in \_SB) -> BRB = 0x40 */
	ok = ok && !strcmp(p->path, "\\_SB.PCI0") && !strcmp(p->hid, "PNP0A08") && p->ncids == 1 && p->has_bbn && p->bbn == 0x40 &&
	     !strcmp(p->bbn_how, "Method -> \\_SB.PCI0.BRB") && p->has_pxm && p->pxm == 3 && !strcmp(p->pxm_how, "Method") &&
	     !strcmp(p->uid, "0") && !p->uid_is_string && p->has_sta && p->sta == 0x0F && !p->has_seg;
	ok = ok && !strcmp(c->path, "\\_SB.CXL0") && !strcmp(c->hid, "ACPI0016") && c->ncids == 2 && !strcmp(c->cids[1], "PNP0A03") &&
	     c->uid_is_string && !strcmp(c->uid, "CXL0") && c->has_seg && c->seg == 1 && !c->has_bbn && c->bbn_declared &&
	     c->has_bus_range && c->bus_min == 0x80 && c->bus_max == 0x9F;
	ok = ok && !strcmp(px.v[0].path, "\\_SB.PCI0.GPP0") && px.v[0].pxm == 5;
	fw_arena_free(&a);
	CHECK(ok);
}

TEST(acpi_dsl_hostile_text_is_harmless)
{
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_dsl_namespace ns;
	fw_dsl_namespace_init(&ns, &a);
	struct fw_error err;
	/* unbalanced braces, names that climb above the root, over-long segments, a method loop */
	const char *text = "}}} Scope (^^^X) { Device (TOOLONGNAME) { Name (_PXM, 1) } }\n"
			   "Scope (\\) { Device (LOOP) { Name (_HID, EisaId (\"PNP0A08\")) Method (_BBN) { Return (A ()) }\n"
			   "Method (A) { Return (B ()) } Method (B) { Return (A ()) } } { { {";
	CHECK(fw_dsl_parse(&ns, text, strlen(text), "X", &err));
	struct fw_dsl_devices br, px;
	fw_dsl_devices(&ns, &br, &px);
	bool ok = br.n == 1 && !br.v[0].has_bbn && br.v[0].bbn_declared;
	fw_arena_free(&a);
	CHECK(ok);
}

/* --- tables inside firmware images ------------------------------------------------------------- */

TEST(acpi_tables_found_in_firmware_sections)
{
	/* A section stream: a raw section holding an MCFG, a raw section with the same MCFG again, a
	 * raw section whose table has a wrong checksum (not a table then), and a raw section with
	 * 4 bytes of text before an SSDT. */
	struct tb mcfg, ssdt;
	header(&mcfg, "MCFG", 1);
	u64(&mcfg, 0);
	u64(&mcfg, 0xE0000000), u16(&mcfg, 0), u8(&mcfg, 0), u8(&mcfg, 0x7F), u32(&mcfg, 0);
	finish(&mcfg);
	header(&ssdt, "SSDT", 2);
	put(&ssdt, "\x10\x05\x5c\x5f\x53\x42\x5f", 7);
	finish(&ssdt);
	uint8_t buf[1024];
	size_t n = 0;
	const struct {
		const uint8_t *p;
		size_t len, skip;
		bool corrupt;
	} secs[] = {{mcfg.b, mcfg.n, 0, false}, {mcfg.b, mcfg.n, 0, false}, {mcfg.b, mcfg.n, 0, true}, {ssdt.b, ssdt.n, 4, false}};
	for (size_t i = 0; i < 4; i++) {
		size_t size = 4 + secs[i].skip + secs[i].len;
		buf[n] = (uint8_t)size, buf[n + 1] = (uint8_t)(size >> 8), buf[n + 2] = 0, buf[n + 3] = 0x19; /* EFI_SECTION_RAW */
		memcpy(buf + n + 4, "text", secs[i].skip);
		memcpy(buf + n + 4 + secs[i].skip, secs[i].p, secs[i].len);
		if (secs[i].corrupt)
			buf[n + 4 + 20] ^= 1;
		n += size;
		while (n % 4)
			buf[n++] = 0;
	}
	char path[] = "/tmp/fwlens-test-sections.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	bool written = write(fd, buf, n) == (ssize_t)n;
	close(fd);
	struct fw_acpi_set *s = NULL;
	struct fw_error err;
	bool opened = written && fw_source_acpi_open(path, &s, &err);
	unlink(path);
	CHECK_MSG(opened, "%s", err.msg);
	bool ok = s->source == FW_ACPI_SRC_IMAGE && s->ntables == 2 && !memcmp(s->tables[0]->signature, "MCFG", 4) &&
		  !memcmp(s->tables[1]->signature, "SSDT", 4) && strstr(s->tables[1]->origin, "Raw section +0x4") && s->ndiags == 1 &&
		  strstr(s->diags->msg, "1 more copies");
	fw_acpi_set_free(s);
	CHECK(ok);
}

/* --- topology with facts from a running machine -------------------------------------------------- */

static size_t host_roots(void *ctx, struct fw_arena *a, struct fw_topo_root_bus **out)
{
	(void)ctx;
	*out = fw_arena_alloc(a, sizeof(**out));
	(*out)[0] = (struct fw_topo_root_bus){0, 0x60, "\\_SB_.PCI0"};
	return 1;
}

static size_t host_devices(void *ctx, struct fw_arena *a, struct fw_topo_pci_device **out)
{
	(void)ctx;
	*out = fw_arena_alloc(a, 2 * sizeof(**out));
	(*out)[0] = (struct fw_topo_pci_device){"0000:61:00.0", 0, 0x61, 0, 0, "0x10de", "0x2b85", "0x030200", 3, "12", "vfio-pci"};
	(*out)[1] = (struct fw_topo_pci_device){"0000:c1:00.0", 0, 0xC1, 0, 0, "0x1022", "0x14a5", "0x060400", 1, NULL, NULL};
	return 2;
}

TEST(acpi_topo_uses_the_host_view)
{
	struct fw_acpi_set *s = open_data("acpi/srat-gi.acpidump.txt");
	CHECK(s);
	struct fw_topo_host host = {host_roots, host_devices, NULL, NULL};
	const char *texts[1] = {dsl_text};
	size_t lens[1] = {sizeof(dsl_text) - 1};
	const char *names[1] = {"DSDT"};
	struct fw_acpi_topo *t = NULL;
	struct fw_error err;
	bool built = fw_acpi_topo_build_dsl(s, texts, lens, names, 1, &host, &t, &err);
	/* The live root says \_SB.PCI0 owns bus 0x60 (its DSDT _BBN says 0x40); with no MCFG and CXL0
	 * on segment 1, PCI0's range runs to bus 0xff, so both devices sit under it. */
	const struct fw_topo_bridge *b = built && t->nbridges == 2 ? &t->bridges[0] : NULL;
	bool ok = b && b->bus_known && b->bus_first == 0x60 && !strncmp(b->bus_source, "sysfs", 5) && b->ndevices == 2 &&
		  !strcmp(b->devices[0].bdf, "0000:61:00.0") && !strcmp(b->devices[0].driver, "vfio-pci") && t->have_host &&
		  t->nunplaced == 0 && t->bridges[1].segment == 1 && t->bridges[1].bus_first == 0x80 && t->bridges[1].bus_last == 0x9F;
	ok = ok && b->bus_last == 0xFF && !strcmp(b->devices[1].bdf, "0000:c1:00.0") && b->devices[0].numa_node == 3;
	fw_acpi_topo_free(t);
	fw_acpi_set_free(s);
	CHECK_MSG(built, "%s", err.msg);
	CHECK(ok);
}

/* Linux's sysfs as the topology reads it: node N's CPUs and each CPU's package. ctx: CPU 1's package. */
static const char *host_attr(void *ctx, struct fw_arena *a, const char *rel)
{
	static const struct {
		const char *rel, *text;
	} files[] = {
		{"sys/devices/system/node/node0/cpulist", "0-1"},
		{"sys/devices/system/node/node1/cpulist", "2"},
		{"sys/devices/system/node/node2/cpulist", ""},
		{"sys/devices/system/cpu/cpu0/topology/physical_package_id", "0"},
		{"sys/devices/system/cpu/cpu2/topology/physical_package_id", "1"},
	};
	if (!strcmp(rel, "sys/devices/system/cpu/cpu1/topology/physical_package_id"))
		return fw_arena_strdup(a, ctx);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(rel, files[i].rel))
			return fw_arena_strdup(a, files[i].text);
	return NULL;
}

/* SRAT gives domain 0 two CPUs and domain 1 one: with node 0 = CPUs 0-1 on package 0 and node 1 =
 * CPU 2 on package 1 each domain gets its socket; when CPU 1 is on package 1, node 0 spans
 * packages and its socket stays not known; domain 2 has no CPUs. */
TEST(acpi_topo_sockets_from_sysfs)
{
	struct fw_acpi_set *s = open_data("acpi/srat-gi.acpidump.txt");
	CHECK(s);
	int got[2][3];
	const char *source = NULL;
	for (int k = 0; k < 2; k++) {
		struct fw_topo_host host = {host_roots, host_devices, (void *)(k ? "1" : "0"), host_attr};
		struct fw_acpi_topo *t = NULL;
		struct fw_error err;
		bool built = fw_acpi_topo_build_dsl(s, NULL, NULL, NULL, 0, &host, &t, &err);
		CHECK_MSG(built, "%s", err.msg);
		CHECK(t->ndomains >= 3);
		for (int i = 0; i < 3; i++)
			got[k][i] = t->domains[i].pxm == (uint32_t)i ? t->domains[i].socket : -9;
		if (!k && t->domains[1].socket_source)
			source = strstr(t->domains[1].socket_source, "/sys/devices/system/node/node1/cpulist and cpuN/topology/physical_package_id of its 1 CPUs")
					 ? "ok" : t->domains[1].socket_source;
		fw_acpi_topo_free(t);
	}
	fw_acpi_set_free(s);
	CHECK_MSG(got[0][0] == 0 && got[0][1] == 1 && got[0][2] == -1, "%d %d %d", got[0][0], got[0][1], got[0][2]);
	CHECK_MSG(got[1][0] == -1 && got[1][1] == 1 && got[1][2] == -1, "%d %d %d", got[1][0], got[1][1], got[1][2]);
	CHECK_MSG(source && !strcmp(source, "ok"), "%s", source ? source : "no source");
}

/* Linux numbers nodes as domains first appear, processors before memory, enabled entries only:
 * memory of PXM 0 comes first in the table, yet the x2APIC entry makes PXM 1 node 0. */
TEST(srat_linux_node_numbering)
{
	struct fw_srat_entry e[] = {
		{.type = FW_SRAT_MEMORY, .proximity_domain = 0, .enabled = true},
		{.type = FW_SRAT_X2APIC, .proximity_domain = 1, .enabled = true},
		{.type = FW_SRAT_X2APIC, .proximity_domain = 5, .enabled = false},
		{.type = FW_SRAT_LOCAL_APIC, .proximity_domain = 0, .enabled = true},
		{.type = FW_SRAT_MEMORY, .proximity_domain = 3, .enabled = true},
		{.type = FW_SRAT_MEMORY, .proximity_domain = 1, .enabled = true},
	};
	struct fw_srat s = {.entries = e, .nentries = sizeof(e) / sizeof(e[0])};
	int n1 = fw_srat_linux_node(&s, 1), n0 = fw_srat_linux_node(&s, 0), n3 = fw_srat_linux_node(&s, 3);
	int n5 = fw_srat_linux_node(&s, 5);
	CHECK_MSG(n1 == 0 && n0 == 1 && n3 == 2 && n5 == -1, "%d %d %d %d", n1, n0, n3, n5);
}

static bool topo_has_diag(const struct fw_acpi_topo *t, enum fw_diag_severity sev, const char *part)
{
	for (const struct fw_diag *d = t->diags; d; d = d->next)
		if (d->severity == sev && strstr(d->msg, part))
			return true;
	return false;
}

/* Server boards declare an uncore bridge per socket, each with the same default bus range and a
 * _STA computed at boot; on a machine with fewer sockets the extra ones are absent. */
TEST(acpi_topo_overlap_of_bridges_with_run_time_sta)
{
#define UNCORE_BUS_FF                                                                                              \
	"            Name (_CRS, ResourceTemplate ()\n"                                                             \
	"            {\n"                                                                                            \
	"                WordBusNumber (ResourceProducer, MinFixed, MaxFixed, PosDecode,\n"                         \
	"                    0x0000, 0x00FF, 0x00FF, 0x0000, 0x0001,,, )\n"                                         \
	"            })\n"
	static const char text[] =
		"DefinitionBlock (\"\", \"DSDT\", 2, \"FWTEST\", \"UNITTEST\", 0x00000001)\n"
		"{\n"
		"    Name (BBU1, 0xFF)\n"
		"    Scope (_SB)\n"
		"    {\n"
		"        Method (USTA, 1, NotSerialized) { If (Arg0) { Return (Zero) } Return (0x0F) }\n"
		"        Device (UNC0)\n"
		"        {\n"
		"            Name (_HID, EisaId (\"PNP0A03\") /* PCI Bus */)  // _HID: Hardware ID\n"
		"            Name (_UID, 0x3F)\n"
		UNCORE_BUS_FF
		"        }\n"
		"        Device (UNC1)\n"
		"        {\n"
		"            Name (_HID, EisaId (\"PNP0A03\") /* PCI Bus */)  // _HID: Hardware ID\n"
		"            Name (_UID, 0x7F)\n"
		"            Method (_BBN, 0, NotSerialized) { Return (BBU1) }\n"
		"            Method (_STA, 0, NotSerialized) { Return (USTA (One)) }\n"
		UNCORE_BUS_FF
		"        }\n"
		"        Device (PCI0) { Name (_HID, EisaId (\"PNP0A08\")) Name (_UID, Zero) Name (_BBN, Zero) }\n"
		"        Device (PCI1) { Name (_HID, EisaId (\"PNP0A08\")) Name (_UID, One) Name (_BBN, Zero) Name (_STA, 0x0F) }\n"
		"    }\n"
		"}\n";
#undef UNCORE_BUS_FF
	struct fw_acpi_set *s = open_data("acpi/srat-gi.acpidump.txt");
	CHECK(s);
	const char *texts[1] = {text};
	size_t lens[1] = {sizeof(text) - 1};
	const char *names[1] = {"DSDT"};
	struct fw_acpi_topo *t = NULL;
	struct fw_error err;
	bool built = fw_acpi_topo_build_dsl(s, texts, lens, names, 1, NULL, &t, &err);
	bool ok = built && t->nbridges == 4 && t->bridges[1].bus_known && t->bridges[1].bus_first == 0xFF &&
		  t->bridges[1].present;
	/* UNC0/UNC1: a note naming the bridge whose presence is decided at boot; PCI0/PCI1 (both
	 * present for certain) keep the warning. */
	ok = ok && topo_has_diag(t, FW_DIAG_INFO,
				 "root bridges \\_SB.UNC0 and \\_SB.UNC1 claim overlapping buses ff-ff and ff-ff; \\_SB.UNC1's _STA is computed at run time") &&
	     !topo_has_diag(t, FW_DIAG_WARN, "UNC1") &&
	     topo_has_diag(t, FW_DIAG_WARN, "root bridges \\_SB.PCI0 and \\_SB.PCI1 claim overlapping buses 00-");
	if (built)
		fw_acpi_topo_free(t);
	fw_acpi_set_free(s);
	CHECK_MSG(built, "%s", err.msg);
	CHECK(ok);
}

/* Tables common on real machines that are listed by name (their bytes are left alone). */
TEST(acpi_common_tables_are_named)
{
	const struct fw_acpi_decoder *boot = fw_acpi_decoder_find("BOOT"), *nhlt = fw_acpi_decoder_find("NHLT"),
				     *wddt = fw_acpi_decoder_find("WDDT"), *aspt = fw_acpi_decoder_find("ASPT");
	CHECK(boot && !strcmp(boot->name, "Simple Boot Flag Table") && !boot->decode);
	CHECK(nhlt && strstr(nhlt->name, "Non-HD Audio Link Table"));
	CHECK(wddt && !strcmp(wddt->name, "Watchdog Timer Description Table"));
	CHECK(aspt && !strcmp(aspt->name, "AMD Secure Processor Table"));
	CHECK(!fw_acpi_decoder_find("ZZZZ"));
}

/* --- iasl as a child process ---------------------------------------------------------------------- */

/* The iasl program the libraries run (what $FWLENS_IASL gives the command line); NULL: "iasl". */
static void set_iasl(const char *path)
{
	static char keep[4200];
	struct fw_env e = *fw_env();
	e.iasl = path ? keep : NULL;
	if (path)
		snprintf(keep, sizeof(keep), "%s", path);
	fw_env_set(&e);
}

/* Writes `body` as an executable script `dir`/`name` (path in `path`) and points $FWLENS_IASL at
 * it; returns the previous value (malloc'd, or NULL) for restore_iasl. */
static char *fake_iasl(const char *dir, const char *name, const char *body, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(body, f);
		fclose(f);
	}
	chmod(path, 0700);
	const char *saved = fw_env()->iasl;
	char *copy = saved ? strdup(saved) : NULL;
	set_iasl(path);
	return copy;
}

static void restore_iasl(char *saved)
{
	set_iasl(saved);
	free(saved);
}

TEST(acpi_iasl_time_limit_and_missing_program)
{
	char dir[] = "/tmp/fwlens-test-iasl.XXXXXX";
	CHECK(mkdtemp(dir));
	char script[4200];
	/* not exec: the kill must reach the grandchild too */
	char *saved = fake_iasl(dir, "slow-iasl", "#!/bin/sh\nsleep 30\n", script, sizeof(script));
	struct tb t;
	header(&t, "SSDT", 2);
	finish(&t);
	struct fw_iasl_job job = {.name = "ssdt1", .aml = t.b, .len = t.n};
	struct fw_error err;
	bool slow = fw_iasl_disassemble(&job, 1, 1, NULL, &err);
	bool slow_ok = !slow && err.code == FW_E_DEPENDENCY && strstr(err.msg, "did not finish within 1 s");
	snprintf(script, sizeof(script), "%s/no-such-iasl", dir);
	set_iasl(script);
	bool missing = fw_iasl_disassemble(&job, 1, 1, NULL, &err);
	bool missing_ok = !missing && err.code == FW_E_DEPENDENCY && strstr(err.msg, "acpica-tools");
	restore_iasl(saved);
	snprintf(script, sizeof(script), "%s/slow-iasl", dir);
	unlink(script);
	rmdir(dir);
	fw_iasl_jobs_free(&job, 1);
	CHECK_MSG(slow_ok, "%s", err.msg);
	CHECK(missing_ok);
}

/* iasl 20200925 dies with SIGSEGV on some real SSDTs, after creating an empty .dsl for it. */
TEST(acpi_iasl_crash_costs_one_table)
{
	char dir[] = "/tmp/fwlens-test-iasl.XXXXXX";
	CHECK(mkdtemp(dir));
	char script[4200];
	char *saved = fake_iasl(dir, "crashing-iasl",
				"#!/bin/sh\nshift\nfor f in \"$@\"; do\n"
				"  case \"$f\" in *ssdt2.dat) : >\"${f%.dat}.dsl\"; kill -SEGV $$;; esac\n"
				"  echo \"DefinitionBlock (\\\"$f\\\")\" >\"${f%.dat}.dsl\"\ndone\n",
				script, sizeof(script));
	struct tb t;
	header(&t, "SSDT", 2);
	finish(&t);
	struct fw_iasl_job jobs[3] = {
		{.name = "ssdt1", .aml = t.b, .len = t.n},
		{.name = "ssdt2", .aml = t.b, .len = t.n},
		{.name = "ssdt3", .aml = t.b, .len = t.n},
	};
	struct fw_error err;
	bool ok = fw_iasl_disassemble(jobs, 3, 20, NULL, &err);
	bool one_ok = ok && jobs[0].dsl && strstr(jobs[0].dsl, "ssdt1.dat") && !jobs[1].dsl && jobs[1].signal == SIGSEGV &&
		      jobs[2].dsl && strstr(jobs[2].dsl, "ssdt3.dat") && !jobs[0].signal && !jobs[2].signal;
	fw_iasl_jobs_free(jobs, 3);
	/* Every table crashes: an error that says so. */
	struct fw_iasl_job only = {.name = "ssdt2", .aml = t.b, .len = t.n};
	bool all = fw_iasl_disassemble(&only, 1, 20, NULL, &err);
	bool all_ok = !all && err.code == FW_E_DEPENDENCY && strstr(err.msg, "killed by signal 11 on every table");
	fw_iasl_jobs_free(&only, 1);
	restore_iasl(saved);
	unlink(script);
	rmdir(dir);
	CHECK(one_ok);
	CHECK_MSG(all_ok, "%s", err.msg);
}

/* iasl reads every file of one run into one namespace: an SSDT that redefines an object of an
 * earlier table is refused and its .dsl comes back empty (AE_ALREADY_EXISTS). Alone it is fine. */
TEST(acpi_iasl_namespace_conflict_runs_the_table_alone)
{
	char dir[] = "/tmp/fwlens-test-iasl.XXXXXX";
	CHECK(mkdtemp(dir));
	char script[4200], body[8800], runs[4200];
	snprintf(runs, sizeof(runs), "%s/runs", dir);
	snprintf(body, sizeof(body),
		 "#!/bin/sh\nshift\necho \"$*\" >>'%s'\nfor f in \"$@\"; do\n"
		 "  case \"$f:$#\" in *ssdt1.dat:1) ;; *ssdt1.dat:*) : >\"${f%%.dat}.dsl\"; continue;; esac\n"
		 "  echo \"DefinitionBlock (\\\"$f\\\")\" >\"${f%%.dat}.dsl\"\ndone\n",
		 runs);
	char *saved = fake_iasl(dir, "conflicting-iasl", body, script, sizeof(script));
	struct tb t;
	header(&t, "SSDT", 2);
	finish(&t);
	struct fw_iasl_job jobs[3] = {
		{.name = "dsdt", .aml = t.b, .len = t.n},
		{.name = "ssdt1", .aml = t.b, .len = t.n},
		{.name = "ssdt2", .aml = t.b, .len = t.n},
	};
	struct fw_error err;
	bool ok = fw_iasl_disassemble(jobs, 3, 20, NULL, &err);
	bool all = ok && jobs[0].dsl && jobs[1].dsl && strstr(jobs[1].dsl, "ssdt1.dat") && jobs[2].dsl && !jobs[1].signal;
	fw_iasl_jobs_free(jobs, 3);
	/* two runs: every table, then ssdt1 alone */
	FILE *f = fopen(runs, "r");
	char line[3][4200] = {{0}};
	int nlines = 0;
	while (f && nlines < 3 && fgets(line[nlines], sizeof(line[0]), f))
		nlines++;
	if (f)
		fclose(f);
	bool two = nlines == 2 && strstr(line[0], "dsdt.dat") && strstr(line[0], "ssdt2.dat") && strstr(line[1], "ssdt1.dat") &&
		   !strstr(line[1], "dsdt.dat");
	restore_iasl(saved);
	unlink(runs);
	unlink(script);
	rmdir(dir);
	CHECK_MSG(ok, "%s", err.msg);
	CHECK(all);
	CHECK(two);
}

/* The DSDT goes to iasl first whatever its place in the input (acpidump lists SSDTs before it). */
TEST(acpi_topo_gives_iasl_the_dsdt_first)
{
	char dir[] = "/tmp/fwlens-test-iasl.XXXXXX";
	CHECK(mkdtemp(dir));
	char script[4200], body[8800], runs[4200], tables[4200];
	snprintf(runs, sizeof(runs), "%s/runs", dir);
	snprintf(body, sizeof(body),
		 "#!/bin/sh\nshift\nfor f in \"$@\"; do\n  echo \"${f##*/}\" >>'%s'\n"
		 "  echo 'DefinitionBlock (\"\", \"DSDT\", 2, \"T\", \"T\", 1) { }' >\"${f%%.dat}.dsl\"\ndone\n",
		 runs);
	char *saved = fake_iasl(dir, "logging-iasl", body, script, sizeof(script));
	struct tb ssdt, dsdt;
	header(&ssdt, "SSDT", 2);
	finish(&ssdt);
	header(&dsdt, "DSDT", 2);
	finish(&dsdt);
	snprintf(tables, sizeof(tables), "%s/tables.bin", dir);
	FILE *f = fopen(tables, "wb");
	CHECK(f);
	fwrite(ssdt.b, 1, ssdt.n, f);
	fwrite(dsdt.b, 1, dsdt.n, f);
	fclose(f);
	struct fw_acpi_set *s = NULL;
	struct fw_error err;
	bool opened = fw_source_acpi_open(tables, &s, &err);
	struct fw_acpi_topo *t = NULL;
	struct fw_topo_options o = {.iasl_timeout = 20};
	bool built = opened && fw_acpi_topo_build(s, &o, &t, &err);
	char order[64] = {0};
	f = fopen(runs, "r");
	for (char line[256]; f && fgets(line, sizeof(line), f);) {
		size_t used = strlen(order);
		snprintf(order + used, sizeof(order) - used, "%s", line);
	}
	if (f)
		fclose(f);
	if (built)
		fw_acpi_topo_free(t);
	if (opened)
		fw_acpi_set_free(s);
	restore_iasl(saved);
	unlink(runs);
	unlink(tables);
	unlink(script);
	rmdir(dir);
	CHECK_MSG(built, "%s", err.msg);
	CHECK_STR(order, "dsdt.dat\nssdt.dat\n");
}

/* --- HMAT, CEDT and the DMAR structures the corpus lacks ------------------------------------------ */

TEST(acpi_hmat_cedt_dmar_structures)
{
	struct tb h, c, d;
	header(&h, "HMAT", 2);
	u32(&h, 0);
	/* memory proximity domain attributes: initiator 0 valid, memory domain 2 */
	u16(&h, 0), u16(&h, 0), u32(&h, 40), u16(&h, 1), u16(&h, 0), u32(&h, 0), u32(&h, 2), u32(&h, 0), u64(&h, 0), u64(&h, 0);
	/* locality: read latency, 1 initiator x 2 targets, base unit 100 */
	u16(&h, 1), u16(&h, 0), u32(&h, 32 + 4 + 8 + 4), u8(&h, 0), u8(&h, 1), u8(&h, 0), u8(&h, 0), u32(&h, 1), u32(&h, 2),
		u32(&h, 0), u64(&h, 100), u32(&h, 0), u32(&h, 0), u32(&h, 2), u16(&h, 10), u16(&h, 25);
	/* memory side cache: domain 2, 1 GiB */
	u16(&h, 2), u16(&h, 0), u32(&h, 32), u32(&h, 2), u32(&h, 0), u64(&h, 1ull << 30), u32(&h, 0x1001), u16(&h, 0), u16(&h, 0);
	finish(&h);
	header(&c, "CEDT", 1);
	/* CHBS: host bridge UID 7, CXL 2.0, registers at 0xFE000000 */
	u8(&c, 0), u8(&c, 0), u16(&c, 32), u32(&c, 7), u32(&c, 1), u32(&c, 0), u64(&c, 0xFE000000), u64(&c, 0x10000);
	/* CFMWS: 4 GiB at 64 GiB, 2-way (encoded 1), volatile+persistent type 3, targets 7 and 8 */
	u8(&c, 1), u8(&c, 0), u16(&c, 44), u32(&c, 0), u64(&c, 0x1000000000ull), u64(&c, 0x100000000ull), u8(&c, 1), u8(&c, 0),
		u16(&c, 0), u32(&c, 0), u16(&c, 0x0E), u16(&c, 0), u32(&c, 7), u32(&c, 8);
	finish(&c);
	header(&d, "DMAR", 1);
	u8(&d, 47), u8(&d, 0x05);
	put(&d, "\0\0\0\0\0\0\0\0\0\0", 10);
	/* RHSA: unit 0xFED90000 in domain 1 */
	u16(&d, 3), u16(&d, 20), u32(&d, 0), u64(&d, 0xFED90000), u32(&d, 1);
	/* ANDD: ACPI device 1 = \_SB.PCI0.I2C0 */
	u16(&d, 4), u16(&d, 8 + 15), u8(&d, 0), u8(&d, 0), u8(&d, 0), u8(&d, 1);
	put(&d, "\\_SB.PCI0.I2C0", 15);
	/* SATC: ATC required, one endpoint 00:02.0 */
	u16(&d, 5), u16(&d, 8 + 8), u8(&d, 1), u8(&d, 0), u16(&d, 0), u8(&d, 1), u8(&d, 8), u8(&d, 0), u8(&d, 0), u8(&d, 0),
		u8(&d, 0), u8(&d, 2), u8(&d, 0);
	finish(&d);
	uint8_t buf[4096];
	memcpy(buf, h.b, h.n);
	memcpy(buf + h.n, c.b, c.n);
	memcpy(buf + h.n + c.n, d.b, d.n);
	struct fw_acpi_set *s = load(buf, h.n + c.n + d.n);
	CHECK(s);
	const struct fw_hmat *hm = fw_acpi_set_model(s, FW_ACPI_MODEL_HMAT);
	const struct fw_cedt *ce = fw_acpi_set_model(s, FW_ACPI_MODEL_CEDT);
	const struct fw_dmar *dm = fw_acpi_set_model(s, FW_ACPI_MODEL_DMAR);
	bool ok = hm && hm->n == 3 && hm->entries[0].flags == 1 && hm->entries[0].memory_pd == 2 && hm->entries[1].data_type == 1 &&
		  hm->entries[1].initiators == 1 && hm->entries[1].targets == 2 && hm->entries[1].base_unit == 100 &&
		  hm->entries[2].cache_size == (1ull << 30) && hm->entries[2].memory_pd == 2;
	ok = ok && ce && ce->n == 2 && ce->entries[0].uid == 7 && ce->entries[0].cxl_version == 1 && ce->entries[0].base == 0xFE000000 &&
	     ce->entries[1].ways == 2 && ce->entries[1].ntargets == 2 && ce->entries[1].restrictions == 0x0E &&
	     ce->entries[1].size == 0x100000000ull && fw_le32(ce->entries[1].targets + 4) == 8;
	ok = ok && dm && dm->host_address_width == 48 && dm->flags == 5 && dm->n == 3 && dm->units[0].type == FW_DMAR_RHSA &&
	     dm->units[0].proximity_domain == 1 && dm->units[1].type == FW_DMAR_ANDD && !strcmp(dm->units[1].name, "\\_SB.PCI0.I2C0") &&
	     dm->units[1].device_number == 1 && dm->units[2].type == FW_DMAR_SATC && dm->units[2].flags == 1 &&
	     dm->units[2].nscopes == 1 && dm->units[2].scopes[0].path[0] == 2;
	for (size_t i = 0; i < s->ntables; i++)
		ok = ok && s->tables[i]->diag_count == 0;
	fw_acpi_set_free(s);
	CHECK(ok);
}

/* --- NUMA and topology tables beyond SRAT and SLIT ---------------------------------------------------
 * tests/data/acpi/numa-tables.acpidump.txt, laid out from ACPI 6.5, CXL 3.0 and amdkfd's
 * kfd_crat.h: HMAT with asymmetric latencies, CEDT with CXIMS and RDPAS, PPTT with two packages,
 * CRAT with every subtable type, CDIT 3x3, MADT and SRAT for the sockets; the same built here byte
 * by byte where a table is malformed on purpose. */

/* A derived value of part `k` as its view shows it. */
static bool shown(const struct fw_acpi_table *t, size_t k, const char *name, struct fw_acpi_derived *out)
{
	const struct fw_acpi_shape *sh = fw_acpi_view_shape(t->doc->layout->view, &t->doc->parts[k]);
	const struct fw_acpi_value *v;
	return sh && fw_acpi_show_value(t, k, sh, name, &v, out);
}


static uint64_t value(const struct fw_acpi_table *t, size_t k, const char *name)
{
	struct fw_acpi_value room;
	const struct fw_acpi_value *v = k < t->doc->nparts ? fw_acpi_part_value(&t->doc->parts[k], name, &room) : NULL;
	return v ? v->u : 0xDEADBEEFull;
}

TEST(acpi_hmat_locality_matrix_with_units)
{
	struct fw_acpi_set *s = open_data("acpi/numa-tables.acpidump.txt");
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "HMAT", 0);
	const struct fw_hmat *m = fw_acpi_set_model(s, FW_ACPI_MODEL_HMAT);
	CHECK(t && m && m->n == 4);
	const struct fw_hmat_entry *lat = &m->entries[1], *bw = &m->entries[2];
	CHECK_EQ(lat->initiators, 2);
	CHECK_EQ(lat->targets, 3);
	CHECK_EQ(lat->base_unit, 1000);
	CHECK(lat->matrix && fw_le32(lat->target_list + 8) == 2);
	/* asymmetric: 0 -> 1 is 31, 1 -> 0 is 32 base units */
	CHECK_EQ(fw_le16(lat->matrix + 2 * 1), 31);
	CHECK_EQ(fw_le16(lat->matrix + 2 * 3), 32);
	struct fw_acpi_derived dv;
	CHECK(shown(t, 2, "LocEntries", &dv) && dv.nrows == 6 && dv.ncols == 4 && dv.key_cols == 2 && dv.compared);
	/* rows initiator by initiator: (0,0) 10000 ps, (0,1) 31000, (0,2) not provided, (1,0) 32000, (1,1) 11000, (1,2) unreachable */
	CHECK_EQ(dv.cells[4 * 1 + 3].n, 31000);
	CHECK_EQ(dv.cells[4 * 3 + 0].n, 1);
	CHECK_EQ(dv.cells[4 * 3 + 1].n, 0);
	CHECK_EQ(dv.cells[4 * 3 + 3].n, 32000);
	CHECK(dv.cells[4 * 2 + 3].null && dv.cells[4 * 2 + 2].n == 0);
	CHECK(dv.cells[4 * 5 + 3].null && dv.cells[4 * 5 + 2].n == 0xFFFF);
	CHECK(shown(t, 2, "LocUnit", &dv) && !strcmp(dv.s, "ps"));
	CHECK(shown(t, 2, "LocMatrix", &dv) && dv.nlines == 4 && strstr(dv.lines[3], "32000") && strstr(dv.lines[3], "unreachable"));
	/* bandwidth: 400 x 64 = 25600 MB/s */
	CHECK_EQ(bw->data_type, 4);
	CHECK(shown(t, 3, "LocEntries", &dv) && dv.nrows == 4 && dv.cells[3].n == 25600 && dv.cells[4 * 2 + 3].n == 7680);
	CHECK(shown(t, 3, "LocUnit", &dv) && !strcmp(dv.s, "MB/s"));
	CHECK(shown(t, 3, "LocTargets", &dv) && dv.nlist == 2 && fw_le32(dv.list + 4) == 1);
	CHECK(shown(t, 2, "MemoryHierarchy", &dv) && !strcmp(dv.s, "memory"));
	CHECK_EQ(t->diag_count, 0);
	fw_acpi_set_free(s);
	/* HMAT revision 1 (ACPI 6.2) used other units: the values stay, the unit is not known */
	CHECK(fw_hmat_unit(1, 0) == NULL);
	CHECK_STR(fw_hmat_unit(2, 2), "ps");
	CHECK_STR(fw_hmat_unit(2, 5), "MB/s");
	CHECK(fw_hmat_unit(2, 6) == NULL);
}

TEST(acpi_cedt_cxims_and_rdpas)
{
	struct fw_acpi_set *s = open_data("acpi/numa-tables.acpidump.txt");
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "CEDT", 0);
	const struct fw_cedt *m = fw_acpi_set_model(s, FW_ACPI_MODEL_CEDT);
	CHECK(t && m && m->n == 5);
	const struct fw_cedt_entry *x = &m->entries[2], *r = &m->entries[3];
	CHECK_EQ(x->type, FW_CEDT_CXIMS);
	CHECK_EQ(x->hbig, 2);
	CHECK_EQ(x->nxormaps, 2);
	CHECK_EQ(fw_le64(x->xormaps), 0x404100);
	CHECK_EQ(fw_le64(x->xormaps + 8), 0x1010200);
	struct fw_acpi_derived dv;
	CHECK(shown(t, 3, "Granularity", &dv) && !strcmp(dv.s, "1 KiB"));
	CHECK(shown(t, 3, "XorMapBits", &dv) && dv.nlines == 2 && !strcmp(dv.lines[0], "map 0: 0x0000000000404100, address bits 8 14 22"));
	CHECK(shown(t, 3, "XorMaps", &dv) && dv.compared && !strcmp(dv.lines[1], "0x0000000001010200"));
	CHECK_EQ(r->type, FW_CEDT_RDPAS);
	CHECK_EQ(r->segment, 0);
	CHECK_EQ(r->bdf, 0x39);
	CHECK_EQ(r->protocol, 1);
	CHECK_EQ(r->base, 0xFED80000);
	CHECK(shown(t, 4, "RcecBdfText", &dv) && !strcmp(dv.s, "0000:00:07.1"));
	/* an unknown structure is kept and reported */
	CHECK_EQ(m->entries[4].type, 9);
	CHECK_EQ(m->entries[4].length, 8);
	CHECK(has_diag(t, FW_DIAG_INFO, "unknown structure type 9 at 0x99"));
	fw_acpi_set_free(s);
}

TEST(acpi_pptt_two_packages)
{
	struct fw_acpi_set *s = open_data("acpi/numa-tables.acpidump.txt");
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "PPTT", 0);
	const struct fw_pptt *m = fw_acpi_set_model(s, FW_ACPI_MODEL_PPTT);
	CHECK(t && m);
	CHECK_EQ(m->nnodes, 6);
	CHECK_EQ(m->npackages, 2);
	size_t ord = 99;
	const struct fw_pptt_node *p = fw_pptt_package_of(m, 16, &ord);
	CHECK(p && p->offset == 0x76 && ord == 0 && p->acpi_id == 0);
	p = fw_pptt_package_of(m, 33, &ord);
	CHECK(p && p->offset == 0xC2 && ord == 1 && p->acpi_id == 1);
	CHECK(fw_pptt_package_of(m, 0, NULL) == NULL); /* the package's own ID is no leaf's */
	CHECK(fw_pptt_package_of(m, 99, NULL) == NULL);
	CHECK_EQ(m->nodes[0].nprivate, 2);
	CHECK_EQ(fw_le32(m->nodes[0].private_resources + 4), 0x58);
	/* cache: flags, next level, attributes; the cache ID only where the structure has 28 bytes */
	CHECK_EQ(value(t, 1, "Flags"), 0xFF);
	CHECK_EQ(value(t, 1, "Size"), 0x2000000);
	CHECK_EQ(value(t, 1, "Attributes"), 0x0A);
	CHECK_EQ(value(t, 2, "NextLevelOfCache"), 0x24);
	CHECK_EQ(value(t, 2, "NumberOfSets"), 2048);
	CHECK_EQ(value(t, 2, "LineSize"), 64);
	struct fw_acpi_derived dv;
	CHECK(shown(t, 1, "CacheId", &dv) && dv.u == 3);
	CHECK(!shown(t, 2, "CacheId", &dv));
	CHECK_EQ(value(t, 3, "Level1Id"), 0xA00F11);
	CHECK_EQ(value(t, 3, "MajorRevision"), 25);
	CHECK(shown(t, 4, "PrivateText", &dv) && !strcmp(dv.s, "@0x024 @0x058"));
	CHECK(has_diag(t, FW_DIAG_INFO, "unknown structure type 7 at 0x102"));
	CHECK_EQ(t->diag_count, 1);
	fw_acpi_set_free(s);
}

TEST(acpi_crat_every_subtable_and_cdit)
{
	struct fw_acpi_set *s = open_data("acpi/numa-tables.acpidump.txt");
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "CRAT", 0);
	CHECK(t && t->doc && t->doc->nparts == 9);
	CHECK_EQ(value(t, 0, "TotalEntries"), 8);
	CHECK_EQ(value(t, 1, "NumCpuCores"), 8);
	CHECK_EQ(value(t, 2, "Flags"), 0x9);
	CHECK_EQ(value(t, 2, "NumSimdCores"), 256);
	CHECK_EQ(value(t, 2, "NumCuPerArray"), 16);
	CHECK_EQ(value(t, 3, "BaseAddress"), 0x100000000ull);
	CHECK_EQ(value(t, 3, "MemoryLength"), 0x400000000ull);
	CHECK_EQ(value(t, 4, "CacheSizeKiB"), 32);
	CHECK_EQ(value(t, 4, "CacheLevel"), 1);
	CHECK_EQ(value(t, 5, "DataTlbSize1G"), 64);
	CHECK_EQ(value(t, 6, "ApuSize"), 0x1000);
	CHECK_EQ(value(t, 7, "ProximityDomainTo"), 1);
	CHECK_EQ(value(t, 7, "IoInterfaceType"), 11);
	CHECK_EQ(value(t, 7, "MaximumBandwidthMBs"), 32000);
	CHECK_EQ(value(t, 7, "WeightXgmi"), 15);
	CHECK(!t->doc->parts[8].described && t->doc->parts[8].type == 9);
	struct fw_acpi_derived dv;
	CHECK(shown(t, 4, "Siblings", &dv) && !strcmp(dv.s, "0-3"));
	CHECK(shown(t, 5, "Siblings", &dv) && !strcmp(dv.s, "0"));
	CHECK(shown(t, 3, "End", &dv) && dv.u == 0x4FFFFFFFFull);
	CHECK(shown(t, 7, "TypeName", &dv) && !strcmp(dv.s, "io-link"));
	const struct fw_acpi_table *c = fw_acpi_set_find(s, "CDIT", 0);
	CHECK(c && c->doc && c->doc->matrix_n == 3);
	CHECK_EQ(c->doc->matrix[0 * 3 + 2], 31);
	CHECK_EQ(c->doc->matrix[2 * 3 + 0], 31);
	CHECK_EQ(c->doc->matrix[1 * 3 + 2], 25);
	CHECK_EQ(c->diag_count, 0);
	fw_acpi_set_free(s);
}

/* The domains' sockets from PPTT: UIDs 16, 17 -> APIC 0, 1 (MADT) -> domain 0 (SRAT) -> package 0. */
TEST(acpi_topo_sockets_from_pptt)
{
	struct fw_acpi_set *s = open_data("acpi/numa-tables.acpidump.txt");
	CHECK(s);
	struct fw_acpi_topo *topo = NULL;
	struct fw_error err;
	CHECK(fw_acpi_topo_build_dsl(s, NULL, NULL, NULL, 0, NULL, &topo, &err));
	CHECK_EQ(topo->ndomains, 2);
	CHECK_EQ(topo->domains[0].socket, 0);
	CHECK_EQ(topo->domains[1].socket, 1);
	CHECK(topo->domains[1].socket_from_tables && strstr(topo->domains[1].socket_source, "PPTT"));
	fw_acpi_topo_free(topo);
	fw_acpi_set_free(s);
	/* processor 33 moved to package 0: domain 1 spans two packages, its socket is not known */
	s = open_data("acpi/numa-tables-changed.acpidump.txt");
	CHECK(s);
	CHECK(fw_acpi_topo_build_dsl(s, NULL, NULL, NULL, 0, NULL, &topo, &err));
	CHECK_EQ(topo->domains[0].socket, 0);
	CHECK_EQ(topo->domains[1].socket, -1);
	fw_acpi_topo_free(topo);
	fw_acpi_set_free(s);
}

/* --- malformed on purpose ----------------------------------------------------------------------- */

TEST(acpi_numa_tables_malformed)
{
	struct tb t;
	/* HMAT: 1000 x 1000 domains claimed in a 40-byte structure: an error, no matrix */
	header(&t, "HMAT", 2);
	u32(&t, 0);
	u16(&t, 1), u16(&t, 0), u32(&t, 40), u8(&t, 0), u8(&t, 0), u8(&t, 0), u8(&t, 0), u32(&t, 1000), u32(&t, 1000), u32(&t, 0),
		u64(&t, 1), u64(&t, 0);
	finish(&t);
	struct fw_acpi_set *s = load(t.b, t.n);
	CHECK(s);
	const struct fw_hmat *h = fw_acpi_set_model(s, FW_ACPI_MODEL_HMAT);
	CHECK(h && h->n == 1 && !h->entries[0].matrix);
	CHECK(has_diag(fw_acpi_set_find(s, "HMAT", 0), FW_DIAG_ERROR, "1000 x 1000 domains need"));
	fw_acpi_set_free(s);
	/* counts whose 2 x initiators x targets wraps 64 bits (0xfffffffd x 0xffffffff: 2^65 and a
	 * little, 0x...1e8 after the wrap): refused from the counts, nothing sized by them */
	header(&t, "HMAT", 2);
	u32(&t, 0);
	u16(&t, 1), u16(&t, 0), u32(&t, 40), u8(&t, 0), u8(&t, 0), u8(&t, 0), u8(&t, 0), u32(&t, 0xfffffffd),
		u32(&t, 0xffffffff), u32(&t, 0), u64(&t, 1), u64(&t, 0);
	finish(&t);
	s = load(t.b, t.n);
	CHECK(s);
	h = fw_acpi_set_model(s, FW_ACPI_MODEL_HMAT);
	CHECK(h && h->n == 1 && !h->entries[0].matrix);
	CHECK(has_diag(fw_acpi_set_find(s, "HMAT", 0), FW_DIAG_ERROR,
		       "4294967293 x 4294967295 domains need more than 40 bytes, Length is 40"));
	fw_acpi_set_free(s);
	/* CEDT: a CXIMS claiming 200 maps in 16 bytes, an RDPAS one byte short */
	header(&t, "CEDT", 1);
	u8(&t, 2), u8(&t, 0), u16(&t, 16), u16(&t, 0), u8(&t, 9), u8(&t, 200), u64(&t, 0x100);
	u8(&t, 3), u8(&t, 0), u16(&t, 16), u16(&t, 0), u16(&t, 0), u8(&t, 0), u64(&t, 0);
	t.n -= 1;
	finish(&t);
	s = load(t.b, t.n);
	CHECK(s);
	const struct fw_acpi_table *ct = fw_acpi_set_find(s, "CEDT", 0);
	const struct fw_cedt *c = fw_acpi_set_model(s, FW_ACPI_MODEL_CEDT);
	CHECK(c && c->n == 2 && !c->entries[0].xormaps && c->entries[0].nxormaps == 0);
	CHECK(has_diag(ct, FW_DIAG_ERROR, "200 XOR maps need 1608 bytes, Length is 16"));
	CHECK(has_diag(ct, FW_DIAG_WARN, "reserved granularity encoding 9"));
	CHECK(has_diag(ct, FW_DIAG_ERROR, "RCEC downstream port association structure at 0x34 has Length 16, the structure needs 17"));
	fw_acpi_set_free(s);
	/* PPTT: two nodes that are each other's parent, a private resource past the node, a dangling next level */
	header(&t, "PPTT", 2);
	u8(&t, 0), u8(&t, 20), u16(&t, 0), u32(&t, 0x0A), u32(&t, 56), u32(&t, 5), u32(&t, 0);     /* @36: leaf UID 5, parent @56 */
	u8(&t, 0), u8(&t, 20), u16(&t, 0), u32(&t, 0x00), u32(&t, 36), u32(&t, 0), u32(&t, 7);     /* @56: parent @36, 7 resources */
	u8(&t, 1), u8(&t, 24), u16(&t, 0), u32(&t, 0), u32(&t, 0x999), u32(&t, 0), u32(&t, 0), u32(&t, 0), u32(&t, 0);
	finish(&t);
	s = load(t.b, t.n);
	CHECK(s);
	const struct fw_acpi_table *pt = fw_acpi_set_find(s, "PPTT", 0);
	const struct fw_pptt *p = fw_acpi_set_model(s, FW_ACPI_MODEL_PPTT);
	CHECK(p && p->nnodes == 2 && p->npackages == 0);
	CHECK(fw_pptt_package_of(p, 5, NULL) == NULL); /* the loop ends */
	CHECK(has_diag(pt, FW_DIAG_ERROR, "7 private resources need 48 bytes, Length is 20"));
	CHECK(has_diag(pt, FW_DIAG_WARN, "next level 0x999 is no cache structure"));
	fw_acpi_set_free(s);
	/* CDIT: checked as SLIT is */
	header(&t, "CDIT", 1);
	u32(&t, 2), u8(&t, 10), u8(&t, 9), u8(&t, 20), u8(&t, 12);
	finish(&t);
	s = load(t.b, t.n);
	CHECK(s);
	const struct fw_acpi_table *dt = fw_acpi_set_find(s, "CDIT", 0);
	CHECK(dt->doc->matrix_n == 2 && dt->model == dt->doc);
	CHECK(has_diag(dt, FW_DIAG_WARN, "distance from domain 1 to itself is 12, not 10"));
	CHECK(has_diag(dt, FW_DIAG_WARN, "distance 0->1 is 9; values below 10 are reserved"));
	fw_acpi_set_free(s);
}

/* A hostile PPTT: 40000 nodes in one chain under one package, every one a leaf with an ID, and
 * a second chain that loops. Each node's package is found once, so this is quick (before, every
 * processor walked the chain node by node with a linear search per step). */
TEST(acpi_pptt_long_chain_and_loop)
{
	enum { N = 40000 };
	size_t len = 36 + 20 * (N + 2);
	uint8_t *b = calloc(1, len);
	CHECK(b);
	memcpy(b, "PPTT", 4);
	for (int i = 0; i < 4; i++)
		b[4 + i] = (uint8_t)(len >> (8 * i));
	b[8] = 2;
	for (size_t i = 0; i < N + 2; i++) {
		uint8_t *e = b + 36 + 20 * i;
		uint32_t off = (uint32_t)(36 + 20 * i), parent = i == 0 || i == N ? 0 : off - 20, flags = i == 0 ? 0x03 : 0x0A;
		if (i == N) /* the loop: N and N + 1 are each other's parent */
			parent = off + 20;
		e[0] = 0, e[1] = 20;
		for (int k = 0; k < 4; k++) {
			e[4 + k] = (uint8_t)(flags >> (8 * k));
			e[8 + k] = (uint8_t)(parent >> (8 * k));
			e[12 + k] = (uint8_t)((uint32_t)(N + 5 - i) >> (8 * k)); /* IDs descending: the index sorts them */
		}
	}
	fw_acpi_set_checksum(b, len);
	struct fw_acpi_set *s = load(b, len);
	CHECK(s);
	const struct fw_pptt *p = fw_acpi_set_model(s, FW_ACPI_MODEL_PPTT);
	CHECK(p && p->nnodes == N + 2 && p->npackages == 1);
	size_t placed = 0;
	for (size_t i = 1; i < N; i++)
		placed += fw_pptt_package_of(p, (uint32_t)(N + 5 - i), NULL) == &p->nodes[0];
	CHECK_EQ(placed, N - 1);
	CHECK(fw_pptt_package_of(p, 5, NULL) == NULL && fw_pptt_package_of(p, 4, NULL) == NULL); /* the loop */
	fw_acpi_set_free(s);
	free(b);
}

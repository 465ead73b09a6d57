/* Tables described by their layout (acpi/fields.h): every such table of the real corpus against
 * `iasl -d` field by field, matched by offset and width (nothing per table: a new layout is
 * checked here as soon as the corpus has its table), and small built tables with exact values
 * for the ones iasl does not decode or the corpus lacks. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acpi/decode.h"
#include "acpi/dmar.h"
#include "acpi/fields.h"
#include "acpi/gas.h"
#include "acpi/hmat.h"
#include "acpi/hpet.h"
#include "acpi/iasl.h"
#include "acpi/ivrs.h"
#include "acpi/madt.h"
#include "acpi/set.h"
#include "acpi/srat.h"
#include "harness.h"
#include "tools/query/source.h"

static const char *const dumps[] = {
	"asrock-970m-pro3.acpidump.txt",      "asrock-x370-killer-sli-coreboot.acpidump.txt",
	"asus-minipc-pn51.acpidump.txt",      "asus-prime-x399-a.acpidump.txt",
	"asus-rog-strix-x670e-f.acpidump.txt", "asus-rog-zenith-ii-extreme-alpha.acpidump.txt",
	"dell-poweredge-r820.acpidump.txt",   "gmktec-nucbox-k6.acpidump.txt",
	"supermicro-h8dgu.acpidump.txt",      "supermicro-x8dtt.acpidump.txt",
};

static bool on_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];
	for (const char *p = path ? path : ""; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name);
		if (access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* A corpus dump decoded, or NULL when it is not there. */
static struct fw_acpi_set *open_dump(const char *name)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "acpi/%s", name);
	const char *path = fw_test_corpus(rel);
	struct fw_acpi_set *s;
	struct fw_error err;
	return path && fw_source_acpi_open(path, &s, &err) ? s : NULL;
}

/* One "[024h 0036   4]  Label : value" line of iasl's data-table output (the width column is
 * "   4" before 2023 and "004h" after). */
struct iasl_field {
	unsigned offset, width;
	bool reserved; /* labelled "Reserved" */
	char value[64];
};

static size_t iasl_fields(const char *dsl, struct iasl_field *out, size_t max)
{
	size_t n = 0;
	for (const char *line = dsl; line && *line && n < max; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned off, dec;
		char w[8];
		if (sscanf(line, "[%xh %u %7[0-9A-Fa-fh ]]", &off, &dec, w) != 3)
			continue;
		const char *colon = strchr(line, ':');
		const char *eol = strchr(line, '\n');
		if (!colon || (eol && colon > eol))
			continue;
		size_t wl = strlen(w);
		while (wl && w[wl - 1] == ' ')
			w[--wl] = '\0';
		const char *ws = w;
		while (*ws == ' ')
			ws++;
		unsigned width = wl && w[wl - 1] == 'h' ? (unsigned)strtoul(ws, NULL, 16) : (unsigned)strtoul(ws, NULL, 10);
		struct iasl_field *f = &out[n];
		f->offset = off;
		f->width = width;
		const char *label = strchr(line, ']') + 1;
		while (*label == ' ')
			label++;
		f->reserved = strncmp(label, "Reserved ", 9) == 0;
		const char *v = colon + 1;
		while (*v == ' ')
			v++;
		size_t k = 0;
		while (v[k] && v[k] != ' ' && v[k] != '\n' && k < sizeof(f->value) - 1) {
			f->value[k] = v[k];
			k++;
		}
		f->value[k] = '\0';
		n++;
	}
	return n;
}

static bool all_hex(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

/* Values after a structure's fields that a view derives (HMAT's domain lists and entries, PPTT's
 * private resources) and the type and length of a structure nobody described: 1 when iasl's field at `off` is one and equal, -1 when it differs, 0 when
 * `off` is none of them. */
static int derived_compare(const struct fw_acpi_table *t, unsigned off, unsigned width, uint64_t value)
{
	const struct fw_acpi_doc *d = t->doc;
	for (size_t k = 1; k < d->nparts; k++) {
		/* a structure nobody described keeps its type and length */
		const struct fw_acpi_part *p = &d->parts[k];
		if (!p->described && off == p->offset)
			return (uint64_t)p->type == value ? 1 : -1;
		if (!p->described && off == p->offset + d->layout->records.length_offset)
			return p->length == value ? 1 : -1;
	}
	for (size_t k = 1; d->layout->view && k < d->nparts; k++) {
		const struct fw_acpi_shape *sh = fw_acpi_view_shape(d->layout->view, &d->parts[k]);
		for (size_t i = 0; sh && i < sh->nshow; i++) {
			const struct fw_acpi_value *v;
			struct fw_acpi_derived dv;
			if (!sh->show[i].derive || !fw_acpi_show_value(t, k, sh, sh->show[i].name, &v, &dv) || !dv.compared)
				continue;
			if (sh->show[i].as == FW_AS_LIST && dv.list) {
				size_t at = (size_t)(dv.list - t->data.p);
				if (width == 4 && off >= at && off < at + 4 * dv.nlist)
					return fw_le32(dv.list + (off - at)) == value ? 1 : -1;
			}
			/* HMAT entries: rows initiator by initiator right after the target list, u16 each */
			const struct fw_hmat *hm = !strcmp(t->signature, "HMAT") ? t->model : NULL;
			if (sh->show[i].as == FW_AS_ROWS && hm && k - 1 < hm->n && hm->entries[k - 1].matrix) {
				size_t at = (size_t)(hm->entries[k - 1].matrix - t->data.p);
				if (width == 2 && off >= at && off < at + 2 * dv.nrows)
					return (uint64_t)dv.cells[((off - at) / 2) * dv.ncols + 2].n == value ? 1 : -1;
			}
		}
	}
	return 0;
}

/* Compare one table; counts what matched, what differs and which iasl fields have no value. */
static void compare(const char *dump, const struct fw_acpi_table *t, const char *dsl, size_t *matched, size_t *differ,
		    size_t *missing)
{
	static struct iasl_field f[8192];
	size_t n = iasl_fields(dsl, f, 8192);
	const struct fw_acpi_doc *d = t->doc;
	unsigned first = t->has_header ? FW_ACPI_HEADER_SIZE : 8;
	for (size_t i = 0; i < n; i++) {
		if (f[i].offset < first || !all_hex(f[i].value))
			continue;
		/* a row of distances (SLIT): iasl's first byte of the row */
		size_t mstart = d->matrix ? (size_t)(d->matrix - t->data.p) : 0;
		if (d->matrix && f[i].offset >= mstart && f[i].offset < mstart + (size_t)d->matrix_n * d->matrix_n) {
			if (d->matrix[f[i].offset - mstart] == strtoull(f[i].value, NULL, 16)) {
				(*matched)++;
			} else {
				(*differ)++;
				fprintf(stderr, "  %s %s @0x%x: distance %u, iasl %s\n", dump, t->signature, f[i].offset,
					d->matrix[f[i].offset - mstart], f[i].value);
			}
			continue;
		}
		bool found = false, same_place = false;
		struct fw_acpi_value room;
		for (size_t k = 0; k < d->nparts && !found; k++)
			for (struct fw_acpi_values it = fw_acpi_values_of(&d->parts[k]); !found && fw_acpi_values_next(&it, &room);) {
				const struct fw_acpi_value *v = &room;
				if (v->offset != f[i].offset)
					continue;
				same_place = true;
				if (fw_field_width(v->field) != f[i].width || v->field->type > FW_FT_U64)
					continue;
				found = true;
				if (v->u == strtoull(f[i].value, NULL, 16)) {
					(*matched)++;
				} else {
					(*differ)++;
					fprintf(stderr, "  %s %s @0x%x: %s 0x%llx, iasl %s\n", dump, t->signature, f[i].offset,
						v->field->name, (unsigned long long)v->u, f[i].value);
				}
			}
		int derived = found || same_place ? 0 : derived_compare(t, f[i].offset, f[i].width, strtoull(f[i].value, NULL, 16));
		if (derived > 0)
			(*matched)++;
		else if (derived < 0) {
			(*differ)++;
			fprintf(stderr, "  %s %s @0x%x: iasl %s differs from the derived value\n", dump, t->signature, f[i].offset, f[i].value);
		}
		/* iasl lists reserved bytes (left out on purpose) and whole structures (their first
		 * field sits at the same place); anything else with a value must be decoded. */
		else if (!found && !same_place && !f[i].reserved && strtoull(f[i].value, NULL, 16) != 0) {
			(*missing)++;
			fprintf(stderr, "  %s %s @0x%x: iasl has %s, not decoded\n", dump, t->signature, f[i].offset, f[i].value);
		}
	}
}

TEST(acpi_layout_tables_match_iasl)
{
	if (!on_path(fw_iasl_program()))
		SKIP("iasl is not installed (acpica-tools)");
	size_t tables = 0, matched = 0, differ = 0, missing = 0, dumps_read = 0;
	char seen[64][5];
	size_t nseen = 0, per[64] = {0};
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		struct fw_acpi_set *s = open_dump(dumps[i]);
		struct fw_error err;
		if (!s)
			continue;
		dumps_read++;
		for (size_t k = 0; k < s->ntables; k++) {
			const struct fw_acpi_table *t = s->tables[k];
			if (!t->decoder || !t->decoder->layout || !t->doc)
				continue;
			char stem[8];
			for (int c = 0; c < 4; c++)
				stem[c] = (char)tolower((unsigned char)t->signature[c]);
			stem[4] = '\0';
			struct fw_iasl_job job = {.name = stem, .aml = t->data.p, .len = t->data.len};
			if (!fw_iasl_disassemble(&job, 1, 60, NULL, &err) || !job.dsl)
				continue;
			size_t before = matched;
			compare(dumps[i], t, job.dsl, &matched, &differ, &missing);
			fw_iasl_jobs_free(&job, 1);
			tables++;
			if (matched > before) {
				size_t j = 0;
				while (j < nseen && strcmp(seen[j], t->signature) != 0)
					j++;
				if (j == nseen && nseen < 64)
					memcpy(seen[nseen++], t->signature, 5);
				if (j < nseen)
					per[j] += matched - before;
			}
		}
		fw_acpi_set_free(s);
	}
	if (!dumps_read)
		SKIP("no corpus dump under acpi/");
	fprintf(stderr, "  %zu tables, %zu values equal to iasl's, %zu signatures:", tables, matched, nseen);
	for (size_t j = 0; j < nseen; j++)
		fprintf(stderr, " %s %zu", seen[j], per[j]);
	fputc('\n', stderr);
	CHECK_EQ(differ, 0);
	CHECK_EQ(missing, 0);
	CHECK(matched > 100);
}

/* --- built tables and the AMD tables iasl does not decode ---------------------------------------- */

/* The first value of a part whose field is `name` (nested or not), read into a ring of rooms so
 * that a check can hold two. */
static const struct fw_acpi_value *value_of(const struct fw_acpi_doc *d, size_t part, const char *name)
{
	static struct fw_acpi_value room[4];
	static unsigned next;
	if (part >= d->nparts)
		return NULL;
	struct fw_acpi_value *v = &room[next++ % 4];
	struct fw_acpi_values it = fw_acpi_values_of(&d->parts[part]);
	while (fw_acpi_values_next(&it, v))
		if (strcmp(v->field->name, name) == 0)
			return v;
	return NULL;
}
#define VALUE(d, part, name) (value_of(d, part, name) ? value_of(d, part, name)->u : 0xDEADBEEFull)

/* A table with a standard header and a good checksum, decoded alone. */
static struct fw_acpi_set *one_table(const char *sig, uint8_t *p, size_t len)
{
	memcpy(p, sig, 4);
	p[4] = (uint8_t)len;
	p[5] = (uint8_t)(len >> 8);
	p[8] = 1;
	memcpy(p + 10, "FWTEST", 6);
	fw_acpi_set_checksum(p, len);
	struct fw_acpi_set *s = fw_acpi_set_new();
	struct fw_error err;
	if (!fw_acpi_set_add_buffer(s, p, len, "built", &err)) {
		fw_acpi_set_free(s);
		return NULL;
	}
	fw_acpi_set_finish(s);
	return s;
}

static void le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

TEST(acpi_layout_msct_entries_start_where_the_table_says)
{
	uint8_t b[56 + 2 * 22] = {0};
	le32(b + 36, 56);  /* ProximityOffset */
	le32(b + 40, 3);   /* MaxProximityDomains */
	le32(b + 44, 1);   /* MaxClockDomains */
	b[48 + 5] = 0x10;  /* MaxAddress 0x100000000000 */
	for (int i = 0; i < 2; i++) {
		uint8_t *e = b + 56 + 22 * i;
		e[0] = 1, e[1] = 22;
		le32(e + 2, (uint32_t)(2 * i));
		le32(e + 6, (uint32_t)(2 * i + 1));
		le32(e + 10, 64);
		e[14 + 4] = (uint8_t)(i + 1); /* MemoryCapacity (i+1) << 32 */
	}
	struct fw_acpi_set *s = one_table("MSCT", b, sizeof(b));
	CHECK(s);
	const struct fw_acpi_doc *d = fw_acpi_set_find(s, "MSCT", 0)->model;
	CHECK(d);
	CHECK_EQ(d->nparts, 3);
	CHECK_EQ(VALUE(d, 0, "MaxProximityDomains"), 3);
	CHECK_EQ(VALUE(d, 0, "MaxAddress"), 0x100000000000ull);
	CHECK_EQ(VALUE(d, 2, "RangeStart"), 2);
	CHECK_EQ(VALUE(d, 2, "RangeEnd"), 3);
	CHECK_EQ(VALUE(d, 2, "ProcessorCapacity"), 64);
	CHECK_EQ(VALUE(d, 2, "MemoryCapacity"), 2ull << 32);
	CHECK_EQ(fw_acpi_set_find(s, "MSCT", 0)->diag_count, 0);
	fw_acpi_set_free(s);
	/* an offset past the end is a diagnostic, not a walk into other memory */
	le32(b + 36, 4000);
	s = one_table("MSCT", b, sizeof(b));
	CHECK(s);
	CHECK_EQ(((const struct fw_acpi_doc *)fw_acpi_set_find(s, "MSCT", 0)->model)->nparts, 1);
	CHECK(strstr(fw_acpi_set_find(s, "MSCT", 0)->diags->msg, "outside the table"));
	fw_acpi_set_free(s);
}

TEST(acpi_layout_spmi_rasf_fixed_parts)
{
	uint8_t b[65] = {0};
	b[36] = 1;           /* KCS */
	b[38] = 0x00, b[39] = 0x02; /* IPMI 2.0 */
	b[40] = 1;           /* SCI */
	b[41] = 0x16;        /* GPE */
	b[48] = 1, b[49] = 8; /* SystemIO, 8 bits */
	b[52] = 0xA2, b[53] = 0x0C;
	struct fw_acpi_set *s = one_table("SPMI", b, sizeof(b));
	CHECK(s);
	const struct fw_acpi_doc *d = fw_acpi_set_find(s, "SPMI", 0)->model;
	CHECK(d);
	CHECK_EQ(VALUE(d, 0, "InterfaceType"), 1);
	char buf[64];
	CHECK_STR(fw_acpi_value_names(value_of(d, 0, "InterfaceType"), buf, sizeof(buf)), "KCS");
	CHECK_EQ(VALUE(d, 0, "SpecificationRevision"), 0x200);
	CHECK_EQ(VALUE(d, 0, "GpeNumber"), 0x16);
	CHECK_EQ(VALUE(d, 0, "Address"), 0xCA2); /* IpmiRegister.Address */
	CHECK(value_of(d, 0, "Address")->parent && strcmp(value_of(d, 0, "Address")->parent->name, "IpmiRegister") == 0);
	fw_acpi_set_free(s);

	uint8_t r[48] = {0};
	for (int i = 0; i < 12; i++)
		r[36 + i] = (uint8_t)(0xA0 + i);
	s = one_table("RASF", r, sizeof(r));
	CHECK(s);
	d = fw_acpi_set_find(s, "RASF", 0)->model;
	CHECK_STR(fw_acpi_value_str(value_of(d, 0, "ChannelId"), buf, sizeof(buf)), "a0a1a2a3a4a5a6a7a8a9aaab");
	fw_acpi_set_free(s);
}

TEST(acpi_layout_crat_cdit_built)
{
	/* CRAT: a CPU compute unit, its memory and a link to domain 1 */
	uint8_t b[48 + 40 + 40 + 64] = {0};
	le32(b + 36, 3);
	b[40] = 2;
	uint8_t *cu = b + 48, *mem = b + 88, *link = b + 128;
	cu[0] = 0, cu[1] = 40, cu[4] = 0x05; /* Enabled | CpuPresent */
	cu[16] = 16;                          /* NumCpuCores */
	mem[0] = 1, mem[1] = 40, mem[4] = 1;
	le32(mem + 8, 0);
	le32(mem + 20, 0), le32(mem + 24, 8); /* Length 32 GiB */
	link[0] = 5, link[1] = 64, link[4] = 1, link[7] = 0x80; /* Enabled | BiDirectional */
	le32(link + 12, 1);
	link[16] = 11; /* xGMI */
	link[63] = 15;
	struct fw_acpi_set *s = one_table("CRAT", b, sizeof(b));
	CHECK(s);
	const struct fw_acpi_doc *d = fw_acpi_set_find(s, "CRAT", 0)->model;
	CHECK(d);
	CHECK_EQ(d->nparts, 4);
	CHECK_EQ(VALUE(d, 0, "TotalEntries"), 3);
	CHECK_EQ(VALUE(d, 1, "NumCpuCores"), 16);
	char buf[128];
	CHECK_STR(fw_acpi_value_names(value_of(d, 1, "Flags"), buf, sizeof(buf)), "Enabled CpuPresent");
	CHECK_EQ(VALUE(d, 2, "MemoryLength"), 32ull << 30);
	CHECK_EQ(VALUE(d, 3, "ProximityDomainTo"), 1);
	CHECK_STR(fw_acpi_value_names(value_of(d, 3, "IoInterfaceType"), buf, sizeof(buf)), "xGMI");
	CHECK_STR(fw_acpi_value_names(value_of(d, 3, "Flags"), buf, sizeof(buf)), "Enabled BiDirectional");
	CHECK_EQ(VALUE(d, 3, "WeightXgmi"), 15);
	fw_acpi_set_free(s);

	uint8_t c[40 + 4] = {0};
	le32(c + 36, 2);
	c[40] = 10, c[41] = 32, c[42] = 32, c[43] = 10;
	s = one_table("CDIT", c, sizeof(c));
	CHECK(s);
	d = fw_acpi_set_find(s, "CDIT", 0)->model;
	CHECK_EQ(d->matrix_n, 2);
	CHECK_EQ(d->matrix[1], 32);
	CHECK_EQ(d->matrix[3], 10);
	fw_acpi_set_free(s);
	/* a count whose square does not fit */
	le32(c + 36, 3);
	s = one_table("CDIT", c, sizeof(c));
	CHECK(s);
	CHECK(!((const struct fw_acpi_doc *)fw_acpi_set_find(s, "CDIT", 0)->model)->matrix);
	CHECK_EQ(fw_acpi_set_find(s, "CDIT", 0)->diags->severity, FW_DIAG_ERROR);
	fw_acpi_set_free(s);
}

/* The real CRATs walk to exactly the count their header gives, every subtable described; each
 * CDIT's diagonal is the local distance 10. (CRAT's NumDomains does not match the CDIT on real
 * boards: 0 on the PN51, 2 beside a 1-domain CDIT on the X399.) */
TEST(acpi_layout_corpus_crat_counts_and_cdit_domains)
{
	size_t seen = 0;
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		struct fw_acpi_set *s = open_dump(dumps[i]);
		if (!s)
			continue;
		const struct fw_acpi_table *crat = fw_acpi_set_find(s, "CRAT", 0), *cdit = fw_acpi_set_find(s, "CDIT", 0);
		if (crat && crat->model) {
			const struct fw_acpi_doc *d = crat->model;
			CHECK_MSG(d->nparts - 1 == VALUE(d, 0, "TotalEntries"), "%s: %zu CRAT subtables, TotalEntries %llu",
				  dumps[i], d->nparts - 1, (unsigned long long)VALUE(d, 0, "TotalEntries"));
			for (size_t k = 1; k < d->nparts; k++)
				CHECK_MSG(d->parts[k].described, "%s: CRAT subtable at 0x%x not described", dumps[i], d->parts[k].offset);
			if (cdit && cdit->model) {
				const struct fw_acpi_doc *c = cdit->model;
				CHECK(c->matrix_n >= 1);
				for (uint32_t k = 0; k < c->matrix_n; k++)
					CHECK_EQ(c->matrix[k * c->matrix_n + k], 10);
			}
			seen++;
		}
		fw_acpi_set_free(s);
	}
	if (!seen)
		SKIP("no corpus dump with a CRAT");
	CHECK(seen >= 4);
}

/* --- complex tables on layout rows: the model their hook builds from the document ----------------- */

static void le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void le64(uint8_t *p, uint64_t v)
{
	le32(p, (uint32_t)v);
	le32(p + 4, (uint32_t)(v >> 32));
}

TEST(acpi_layout_srat_entries_and_domains)
{
	uint8_t b[112] = {0};
	le32(b + 36, 1); /* TableRevision */
	uint8_t *e = b + 48;
	e[0] = 0, e[1] = 16, e[2] = 1, e[3] = 2; /* local APIC 2 in domain 1 */
	le32(e + 4, 1);
	e[9] = 1; /* ProximityDomainHi: counts from table revision 2 only */
	e = b + 64;
	e[0] = 1, e[1] = 40;
	le32(e + 2, 1);
	le64(e + 16, 0x80000000ull);
	le32(e + 28, 1);
	e = b + 104;
	e[0] = 0x99, e[1] = 8;
	struct fw_acpi_set *s = one_table("SRAT", b, sizeof(b));
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "SRAT", 0);
	const struct fw_srat *m = fw_acpi_table_model(t, FW_ACPI_MODEL_SRAT);
	CHECK(m && t->doc);
	CHECK_EQ(t->doc->nparts, 4);
	CHECK_EQ(m->nentries, 3);
	CHECK_EQ(m->entries[0].proximity_domain, 1);
	CHECK_EQ(m->entries[0].id, 2);
	CHECK_EQ(m->entries[1].size, 0x80000000ull);
	CHECK(m->entries[1].enabled);
	CHECK_EQ(m->ndomains, 1);
	CHECK_EQ(m->domains[0], 1);
	CHECK_EQ(VALUE(t->doc, 2, "AddressLength"), 0x80000000ull);
	CHECK(!t->doc->parts[3].described);
	CHECK_EQ(t->diag_count, 1);
	CHECK_STR(t->diags->msg, "unknown subtable type 153 at 0x68 (8 bytes) left undecoded");
	fw_acpi_set_free(s);
}

TEST(acpi_layout_madt_every_x86_structure_described)
{
	uint8_t b[88] = {0};
	le32(b + 36, 0xFEE00000u);
	le32(b + 40, 1);
	uint8_t *e = b + 44;
	e[0] = 0, e[1] = 8, e[2] = 0, e[3] = 0;
	le32(e + 4, 1); /* enabled */
	e = b + 52;
	e[0] = 0, e[1] = 8, e[2] = 1, e[3] = 2; /* disabled */
	e = b + 60;
	e[0] = 1, e[1] = 12, e[2] = 2;
	le32(e + 4, 0xFEC00000u);
	e = b + 72;
	e[0] = 2, e[1] = 10, e[3] = 9;
	le32(e + 4, 9);
	le16(e + 8, 0x000D);
	e = b + 82;
	e[0] = 4, e[1] = 6, e[2] = 0xFF, e[3] = 5, e[5] = 1;
	struct fw_acpi_set *s = one_table("APIC", b, sizeof(b));
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "APIC", 0);
	const struct fw_madt *m = fw_acpi_table_model(t, FW_ACPI_MODEL_MADT);
	CHECK(m && t->doc);
	CHECK_EQ(m->lapic_address, 0xFEE00000u);
	CHECK_EQ(m->ncpus, 2);
	CHECK_EQ(m->cpus_enabled, 1);
	CHECK_EQ(m->nioapics, 1);
	CHECK_EQ(m->ioapics[0].id, 2);
	CHECK_EQ(m->noverrides, 1);
	CHECK_EQ(m->overrides[0].flags, 0xD);
	CHECK_EQ(m->type_counts[4], 1);
	CHECK_EQ(t->doc->nparts, 6);
	CHECK_EQ(VALUE(t->doc, 5, "Lint"), 1);
	CHECK_EQ(VALUE(t->doc, 5, "IntiFlags"), 5);
	CHECK_EQ(t->diag_count, 0); /* the NMI structure is described, not left undecoded */
	fw_acpi_set_free(s);
}

TEST(acpi_layout_dmar_scopes_are_records_within_their_unit)
{
	uint8_t b[112] = {0};
	b[36] = 45; /* 46-bit host addresses */
	b[37] = 1;
	uint8_t *u = b + 48; /* DRHD with two scopes */
	le16(u, 0), le16(u + 2, 32);
	u[4] = 1;
	le64(u + 8, 0xFED90000ull);
	uint8_t *sc = b + 64;
	sc[0] = 3, sc[1] = 8, sc[4] = 6, sc[5] = 0xF0, sc[6] = 0x1F, sc[7] = 7; /* I/O APIC 6 */
	sc = b + 72;
	sc[0] = 1, sc[1] = 8, sc[6] = 0x1D; /* endpoint 00:1d.0 */
	u = b + 80; /* RMRR with one scope */
	le16(u, 1), le16(u + 2, 32);
	le64(u + 8, 0xE7000);
	le64(u + 16, 0xEAFFF);
	sc = b + 104;
	sc[0] = 1, sc[1] = 8, sc[6] = 0x1A;
	struct fw_acpi_set *s = one_table("DMAR", b, sizeof(b));
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "DMAR", 0);
	const struct fw_dmar *m = fw_acpi_table_model(t, FW_ACPI_MODEL_DMAR);
	CHECK(m && t->doc);
	CHECK_EQ(t->doc->nparts, 6);
	CHECK_EQ(t->doc->parts[2].within, 1);
	CHECK_EQ(t->doc->parts[3].within, 1);
	CHECK_EQ(t->doc->parts[4].within, 0);
	CHECK_EQ(t->doc->parts[5].within, 4);
	CHECK_EQ(VALUE(t->doc, 2, "EnumerationId"), 6);
	CHECK_EQ(m->host_address_width, 46);
	CHECK_EQ(m->n, 2);
	CHECK_EQ(m->units[0].base, 0xFED90000ull);
	CHECK_EQ(m->units[0].nscopes, 2);
	CHECK_EQ(m->units[0].scopes[0].type, 3);
	CHECK_EQ(m->units[0].scopes[0].start_bus, 0xF0);
	CHECK_EQ(m->units[0].scopes[0].npath, 1);
	CHECK_EQ(m->units[0].scopes[0].path[0], 0x1F);
	CHECK_EQ(m->units[1].limit, 0xEAFFFull);
	CHECK_EQ(m->units[1].nscopes, 1);
	CHECK_EQ(t->diag_count, 0);
	fw_acpi_set_free(s);
	/* a scope that runs past its unit stops that unit's walk with one diagnostic naming it */
	b[72 + 1] = 0x40;
	s = one_table("DMAR", b, sizeof(b));
	CHECK(s);
	t = fw_acpi_set_find(s, "DMAR", 0);
	m = fw_acpi_table_model(t, FW_ACPI_MODEL_DMAR);
	CHECK(m);
	CHECK_EQ(m->n, 2);
	CHECK_EQ(m->units[0].nscopes, 1);
	CHECK_EQ(m->units[1].nscopes, 1);
	CHECK(t->diags && strstr(t->diags->msg, "device scope type 0x1 at 0x48 has Length 64"));
	fw_acpi_set_free(s);
}

/* A structure whose Length is shorter than its type's fields is bad input: one error naming it and
 * its offset (as the record walk reports a Length past the table), its later fields left out. */
TEST(acpi_layout_structure_shorter_than_its_type_is_an_error)
{
	uint8_t b[64] = {0};
	le32(b + 36, 1);
	uint8_t *e = b + 48;
	e[0] = 1, e[1] = 16; /* memory affinity: 40 bytes */
	le32(e + 2, 3);
	struct fw_acpi_set *s = one_table("SRAT", b, sizeof(b));
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "SRAT", 0);
	CHECK(t && t->doc);
	CHECK_EQ(t->doc->nparts, 2);
	CHECK_EQ(VALUE(t->doc, 1, "ProximityDomain"), 3);
	CHECK_EQ(VALUE(t->doc, 1, "AddressLength"), 0xDEADBEEFull);
	CHECK_EQ(t->diag_count, 1);
	CHECK_EQ(t->diags->severity, FW_DIAG_ERROR);
	CHECK_EQ(t->diags->offset, 48);
	CHECK_STR(t->diags->msg, "SRAT memory affinity at 0x30 has Length 16, the structure needs 40");
	fw_acpi_set_free(s);
	uint8_t m[52] = {0};
	e = m + 44;
	e[0] = 1, e[1] = 8, e[2] = 2; /* I/O APIC: 12 bytes */
	s = one_table("APIC", m, sizeof(m));
	CHECK(s);
	t = fw_acpi_set_find(s, "APIC", 0);
	CHECK(t && t->doc);
	CHECK(t->diags && t->diags->severity == FW_DIAG_ERROR);
	CHECK(t->diags && strstr(t->diags->msg, "at 0x2c has Length 8, the structure needs 12"));
	fw_acpi_set_free(s);
}

/* IVRS device entries have no length field: the walk takes it from the type (8 from 42h, 24 for an
 * ACPI HID entry with a 2-byte UID), and an END entry is part of its START's range, so no list
 * shows it on its own. */
TEST(acpi_layout_ivrs_entries_by_type_and_ranges_joined)
{
	uint8_t b[136] = {0};
	le32(b + 36, 0x00203041);
	uint8_t *h = b + 48; /* IVHD 40h */
	h[0] = 0x40, h[1] = 0xB0;
	le16(h + 2, 88);
	le16(h + 4, 0x0002);
	le16(h + 6, 0x40);
	le64(h + 8, 0xFD500000ull);
	le64(h + 24, 1ull << 63);
	uint8_t *e = h + 40;
	e[0] = 0x03, le16(e + 1, 0x0100);                         /* START */
	e[4] = 0x04, le16(e + 5, 0x01FF);                         /* END */
	e[8] = 0x42, le16(e + 9, 0x0200), le16(e + 13, 0x0208);   /* alias select */
	e[16] = 0x48, e[20] = 5, le16(e + 21, 0x00A0), e[23] = 1; /* IOAPIC 5 */
	e[24] = 0xF0, le16(e + 25, 0x00A5);                       /* ACPI HID, UID "AB" */
	memcpy(e + 28, "AMDI0020", 8);
	e[44] = 2, e[45] = 2, e[46] = 'A', e[47] = 'B';
	struct fw_acpi_set *s = one_table("IVRS", b, sizeof(b));
	CHECK(s);
	const struct fw_acpi_table *t = fw_acpi_set_find(s, "IVRS", 0);
	const struct fw_ivrs *m = fw_acpi_table_model(t, FW_ACPI_MODEL_IVRS);
	CHECK(m && t->doc);
	const struct fw_acpi_doc *d = t->doc;
	CHECK_EQ(d->nparts, 7);
	for (size_t k = 2; k < 7; k++)
		CHECK_EQ(d->parts[k].within, 1);
	CHECK_EQ(d->parts[4].offset, 96);
	CHECK_EQ(d->parts[4].length, 8);
	CHECK_EQ(d->parts[6].length, 24);
	CHECK(d->parts[4].layout == &fw_ivhd_alias_layout);
	CHECK_EQ(VALUE(d, 4, "SourceDeviceId"), 0x0208);
	CHECK_EQ(VALUE(d, 5, "Handle"), 5);
	CHECK_EQ(VALUE(d, 5, "Variety"), 1);
	CHECK_EQ(VALUE(d, 6, "UidLength"), 2);
	CHECK(fw_acpi_listed_shape(t, 2) != NULL);
	CHECK(fw_acpi_listed_shape(t, 3) == NULL); /* the END of the range at 0x58 */
	const struct fw_acpi_shape *sh = fw_acpi_listed_shape(t, 2);
	const struct fw_acpi_value *v;
	struct fw_acpi_derived dv;
	CHECK(sh && fw_acpi_show_value(t, 2, sh, "Desc", &v, &dv) && dv.s);
	CHECK_STR(dv.s, "0000:01:00.0 .. 0000:01:1f.7");
	CHECK(sh && fw_acpi_show_value(t, 6, sh, "Desc", &v, &dv) && dv.s);
	CHECK_STR(dv.s, "AMDI0020 UID \"AB\" is 0000:00:14.5");
	/* the devices the IOMMU covers: 00:14.0, 00:14.5, the range joined with the alias 02:00.0, its source */
	sh = fw_acpi_listed_shape(t, 1);
	CHECK(sh && fw_acpi_show_value(t, 1, sh, "Covered", &v, &dv));
	CHECK_EQ(dv.nrows, 4);
	CHECK_EQ(dv.ncols, 3);
	CHECK(dv.nrows == 4 && !strcmp(dv.cells[6].s, "0000:01:00.0") && !strcmp(dv.cells[7].s, "0000:02:00.0"));
	CHECK(dv.nrows == 4 && dv.cells[8].n == 257 && !strcmp(dv.cells[9].s, "0000:02:01.0"));
	CHECK_EQ(m->nspecials, 1);
	CHECK(t->diag_count == 1 && strstr(t->diags->msg, "no MADT in the input"));
	fw_acpi_set_free(s);
	/* the HID entry cut short: the walk stops there, reported once, by the decoder (after the
	 * note that there is no MADT to check the IOAPIC map against) */
	uint8_t c[122];
	memcpy(c, b, sizeof(c));
	le16(c + 48 + 2, 74);
	s = one_table("IVRS", c, sizeof(c));
	CHECK(s);
	t = fw_acpi_set_find(s, "IVRS", 0);
	CHECK(t && t->doc);
	CHECK_EQ(t->doc->nparts, 6);
	CHECK_EQ(t->diag_count, 2);
	CHECK(t->diags && strstr(t->diags->msg, "device entry type 0xf0 at 0x70 needs 22 bytes, only 10 left in the block"));
	fw_acpi_set_free(s);
}

/* The tables written for the NUMA tests, against iasl -d where Debian's iasl (20200925) decodes
 * them: HMAT (its domain lists and entries too), PPTT (private resources too), MADT and SRAT.
 * It knows no CEDT, CRAT or CDIT; for those the unit tests in test-acpi-numa.c hold the values
 * the specification's layouts give. */
TEST(acpi_numa_tables_match_iasl)
{
	if (!on_path(fw_iasl_program()))
		SKIP("iasl is not installed (acpica-tools)");
	const char *path = fw_test_data("acpi/numa-tables.acpidump.txt");
	struct fw_acpi_set *s;
	struct fw_error err;
	CHECK(path && fw_source_acpi_open(path, &s, &err));
	static const char *const sigs[] = {"HMAT", "PPTT", "APIC", "SRAT"};
	size_t matched = 0, differ = 0, missing = 0, per[4] = {0};
	for (size_t i = 0; i < 4; i++) {
		const struct fw_acpi_table *t = fw_acpi_set_find(s, sigs[i], 0);
		CHECK(t && t->doc);
		struct fw_iasl_job job = {.name = "numa", .aml = t->data.p, .len = t->data.len};
		CHECK(fw_iasl_disassemble(&job, 1, 60, NULL, &err) && job.dsl);
		size_t before = matched;
		compare("numa-tables", t, job.dsl, &matched, &differ, &missing);
		per[i] = matched - before;
		fw_iasl_jobs_free(&job, 1);
	}
	fprintf(stderr, "  HMAT %zu, PPTT %zu, MADT %zu, SRAT %zu values equal to iasl's\n", per[0], per[1], per[2], per[3]);
	CHECK_EQ(differ, 0);
	CHECK_EQ(missing, 0);
	/* HMAT: 2 + 3 domains and 6 entries, 2 + 2 and 4: every one of them compared */
	CHECK(per[0] >= 17 + 10);
	CHECK(per[1] >= 40);
	fw_acpi_set_free(s);
}

/* fw_acpi_show_value_at takes show i's derive function for its name: that holds when the shows
 * of one name in a shape share one (or none), in every view. */
TEST(acpi_views_one_derive_per_shown_name)
{
	size_t shapes = 0, pairs = 0;
	const struct fw_acpi_decoder *d;
	for (size_t n = 0; (d = fw_acpi_decoder_at(n)); n++) {
		const struct fw_acpi_view *view = d->layout ? d->layout->view : NULL;
		for (size_t s = 0; view && s < view->nshapes; s++, shapes++) {
			const struct fw_acpi_shape *sh = &view->shapes[s];
			for (size_t i = 0; i < sh->nshow; i++)
				for (size_t j = 0; j < i; j++)
					if (!strcmp(sh->show[i].name, sh->show[j].name)) {
						pairs++;
						if (sh->show[i].derive != sh->show[j].derive)
							fprintf(stderr, "  %s shape %zu: show %zu and %zu (%s) differ in derive\n",
								d->signature, s, j, i, sh->show[i].name);
						CHECK(sh->show[i].derive == sh->show[j].derive);
					}
		}
	}
	fprintf(stderr, "  %zu shapes, %zu shows sharing a name\n", shapes, pairs);
	CHECK(shapes >= 40);
}

/* The frame stepper both field walks share (parsers/layout-step.h), and the values read by name
 * where the field lies (fw_acpi_part_value) against the walk over every value. */
enum { IN_A, IN_B };
static const struct fw_field inner_fields[] = {
	[IN_A] = {"A", FW_FT_U8, 0, 0, 0, NULL},
	[IN_B] = {"B", FW_FT_U16, 1, 0, 0, NULL},
};
static const struct fw_layout inner_layout = FW_LAYOUT("inner", 3, inner_fields);
enum { OUT_X, OUT_HIDDEN, OUT_IN, OUT_Y };
static const struct fw_field outer_fields[] = {
	[OUT_X] = {"X", FW_FT_U32, 0, 0, FW_FF_HEX, NULL},
	[OUT_HIDDEN] = {"Reserved", FW_FT_U8, 4, 0, FW_FF_HIDDEN, NULL},
	[OUT_IN] = {"In", FW_FT_STRUCT, 5, 3, 0, .names = &inner_layout},
	[OUT_Y] = {"Y", FW_FT_U8, 8, 0, 0, NULL},
};
static const struct fw_layout outer_layout = FW_LAYOUT("outer", 9, outer_fields);

TEST(layout_step_one_stack_for_both_walks)
{
	/* in order, the nested structure given as it is entered, the hidden field left out */
	struct fw_layout_step s;
	fw_layout_step_start(&s, &outer_layout);
	const struct fw_field *f;
	size_t off, seen = 0;
	const char *want[] = {"X", "In", "A", "B", "Y"};
	const size_t want_off[] = {0, 5, 5, 6, 8};
	while ((f = fw_layout_step_next(&s, 9, &off))) {
		CHECK(seen < 5);
		CHECK_STR(f->name, want[seen]);
		CHECK_EQ(off, want_off[seen]);
		if (f->type == FW_FT_STRUCT)
			CHECK(s.frame[s.depth - 1].parent == f && s.depth == 2);
		seen++;
	}
	CHECK_EQ(seen, 5);
	/* 7 bytes: the structure ending at 8 is left out with its fields, so is Y */
	fw_layout_step_start(&s, &outer_layout);
	seen = 0;
	while ((f = fw_layout_step_next(&s, 7, &off)))
		seen++;
	CHECK_EQ(seen, 1);

	/* the same through a part: its values, and each read by name */
	uint8_t bytes[9] = {0x78, 0x56, 0x34, 0x12, 0xEE, 0x0A, 0x0B, 0x0C, 0x0D};
	for (uint32_t len = 0; len <= 9; len++) {
		struct fw_acpi_part p = {&outer_layout, bytes, -1, 0x40, len, 0, true};
		struct fw_acpi_values it = fw_acpi_values_of(&p);
		struct fw_acpi_value v, room;
		size_t n = 0;
		while (fw_acpi_values_next(&it, &v)) {
			char name[16];
			snprintf(name, sizeof(name), "%s%s%s", v.parent ? v.parent->name : "", v.parent ? "." : "", v.field->name);
			const struct fw_acpi_value *r = fw_acpi_part_value(&p, name, &room);
			CHECK(r && r->field == v.field && r->parent == v.parent && r->u == v.u && r->offset == v.offset);
			n++;
		}
		CHECK_EQ(n, len < 4 ? 0 : len < 8 ? 1 : len < 9 ? 3 : 4);
		CHECK_EQ(fw_acpi_part_value(&p, "In.B", &room) != NULL, len >= 8);
		CHECK(fw_acpi_part_value(&p, "Reserved", &room) == NULL);
		CHECK(fw_acpi_part_value(&p, "B", &room) == NULL); /* not at the top */
		CHECK(fw_acpi_part_value(&p, "In.C", &room) == NULL);
		if (len == 9) {
			CHECK_EQ(fw_acpi_part_value(&p, "X", &room)->u, 0x12345678);
			CHECK_EQ(fw_acpi_part_value(&p, "In.B", &room)->u, 0x0C0B);
			CHECK_EQ(fw_acpi_part_value(&p, "In.B", &room)->offset, 0x46);
			CHECK_EQ(fw_acpi_part_value(&p, "Y", &room)->u, 0x0D);
		}
	}
	/* a name in a buffer of the caller's, its text changed between calls */
	struct fw_acpi_part p = {&outer_layout, bytes, -1, 0, 9, 0, true};
	struct fw_acpi_value room;
	char name[8] = "X";
	CHECK_EQ(fw_acpi_part_value(&p, name, &room)->u, 0x12345678);
	strcpy(name, "Y");
	CHECK_EQ(fw_acpi_part_value(&p, name, &room)->u, 0x0D);
	strcpy(name, "Z");
	CHECK(fw_acpi_part_value(&p, name, &room) == NULL);
	strcpy(name, "X");
	CHECK_EQ(fw_acpi_part_value(&p, name, &room)->u, 0x12345678);
}

/* A set of ACPI tables: loading, numbering, decoding and the facts that span tables. */
#include "set.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/acpidump.h"
#include "acpi/fadt.h"
#include "acpi/ivrs.h"
#include "acpi/madt.h"
#include "acpi/rsdp.h"
#include "acpi/xsdt.h"

const char *fw_acpi_source_name(enum fw_acpi_source s)
{
	switch (s) {
	case FW_ACPI_SRC_BUFFER: return "buffer";
	case FW_ACPI_SRC_TABLE: return "table";
	case FW_ACPI_SRC_ACPIDUMP: return "acpidump";
	case FW_ACPI_SRC_FOLDER: return "folder";
	case FW_ACPI_SRC_SYSROOT: return "sysroot";
	case FW_ACPI_SRC_IMAGE: return "image";
	}
	return "?";
}

struct fw_acpi_set *fw_acpi_set_new(void)
{
	struct fw_acpi_set *s = fw_xcalloc(1, sizeof(*s));
	fw_arena_init(&s->arena);
	return s;
}

void fw_acpi_set_free(struct fw_acpi_set *s)
{
	if (!s)
		return;
	fw_arena_free(&s->arena);
	free(s);
}

void fw_acpi_set_diag(struct fw_acpi_set *s, enum fw_diag_severity sev, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fw_acpi_diag_append(&s->arena, &s->diags, &s->diags_tail, sev, FW_OFFSET_UNKNOWN, fmt, ap);
	va_end(ap);
	s->ndiags++;
}

bool fw_acpi_set_add_table(struct fw_acpi_set *s, const uint8_t *p, size_t n, uint64_t base, uint64_t address,
			   const char *origin, struct fw_error *err)
{
	if (s->ntables >= FW_ACPI_MAX_TABLES)
		return fw_error_set(err, FW_E_LIMIT, "%s: more than %d ACPI tables", origin ? origin : "input", FW_ACPI_MAX_TABLES);
	uint8_t *copy = fw_arena_memdup(&s->arena, p, n ? n : 1);
	struct fw_view v = fw_view_make(copy, n, base);
	struct fw_acpi_table *t = fw_arena_alloc(&s->arena, sizeof(*t));
	if (!fw_acpi_table_parse(t, &v, &s->arena, err)) {
		if (origin)
			fw_error_prefix(err, "%s: ", origin);
		return false;
	}
	if (n > t->length && !t->truncated)
		fw_acpi_diag(t, &s->arena, FW_DIAG_WARN, t->length, "%zu bytes after the table's Length 0x%x were ignored",
			     n - t->length, t->length);
	t->address = address;
	t->origin = origin ? fw_arena_strdup(&s->arena, origin) : NULL;
	t->index = (unsigned)s->ntables;
	s->tables = fw_acpi_grow(&s->arena, s->tables, &s->tables_cap, s->ntables + 1, sizeof(*s->tables));
	s->tables[s->ntables++] = t;
	return true;
}

struct dump_ctx {
	struct fw_acpi_set *s;
	const char *origin;
};

static bool add_dump_table(void *ctx, const char sig[5], uint64_t address, const uint8_t *bytes, size_t n, unsigned line,
			   struct fw_error *err)
{
	struct dump_ctx *c = ctx;
	char origin[64];
	snprintf(origin, sizeof(origin), "line %u", line);
	if (!fw_acpi_set_add_table(c->s, bytes, n, FW_OFFSET_UNKNOWN, address, origin, err)) {
		fw_error_prefix(err, "acpidump %s: ", c->origin);
		return false;
	}
	struct fw_acpi_table *t = c->s->tables[c->s->ntables - 1];
	if (strncmp(t->signature, sig, 4) != 0)
		fw_acpi_diag(t, &c->s->arena, FW_DIAG_WARN, 0, "the dump names this table %s but its bytes say %s", sig,
			     t->signature);
	return true;
}

/* Concatenated binary tables, as written by `acpixtract -m` or `cat *.dat`. */
static bool add_binary(struct fw_acpi_set *s, const uint8_t *p, size_t n, const char *origin, struct fw_error *err)
{
	size_t off = 0;
	size_t before = s->ntables;
	while (off < n) {
		bool rsdp = n - off >= 8 && memcmp(p + off, FW_RSDP_SIGNATURE, 8) == 0;
		if (!rsdp && !fw_acpi_signature_ok(p + off, n - off)) {
			if (s->ntables == before)
				return fw_error_set(err, FW_E_INVALID,
						    "%s: not an ACPI table (no signature and length at offset 0), not acpidump text",
						    origin);
			fw_acpi_set_diag(s, FW_DIAG_WARN, "%s: %zu bytes at 0x%zx after the last table are not a table", origin, n - off,
					 off);
			break;
		}
		struct fw_acpi_table probe;
		struct fw_view v = fw_view_make(p + off, n - off, off);
		struct fw_arena scratch;
		fw_arena_init(&scratch);
		struct fw_error perr;
		bool ok = fw_acpi_table_parse(&probe, &v, &scratch, &perr);
		fw_arena_free(&scratch);
		if (!ok && s->ntables > before) {
			/* Trailing bytes after good tables: note them, keep the tables. */
			fw_acpi_set_diag(s, FW_DIAG_WARN, "%s: bytes at 0x%zx after the last table: %s", origin, off, perr.msg);
			break;
		}
		if (!ok) {
			*err = perr;
			fw_error_prefix(err, "%s: ", origin);
			return false;
		}
		size_t len = probe.length < n - off ? probe.length : n - off;
		if (probe.truncated && s->ntables == before && off == 0)
			return fw_error_set(err, FW_E_TRUNCATED, "%s: %s table @0x0: Length 0x%x but the file has only 0x%zx bytes",
					    origin, probe.signature, probe.length, n);
		char where[64];
		snprintf(where, sizeof(where), "@0x%zx", off);
		if (!fw_acpi_set_add_table(s, p + off, len, off, 0, where, err)) {
			fw_error_prefix(err, "%s: ", origin);
			return false;
		}
		off += len;
	}
	return true;
}

bool fw_acpi_set_add_buffer(struct fw_acpi_set *s, const uint8_t *p, size_t n, const char *origin, struct fw_error *err)
{
	if (!origin)
		origin = "input";
	if (n == 0)
		return fw_error_set(err, FW_E_INVALID, "%s: empty input", origin);
	if (fw_acpidump_detect(p, n)) {
		struct dump_ctx c = {s, origin};
		if (s->source == FW_ACPI_SRC_BUFFER)
			s->source = FW_ACPI_SRC_ACPIDUMP;
		return fw_acpidump_parse((const char *)p, n, add_dump_table, &c, err);
	}
	return add_binary(s, p, n, origin, err);
}

struct fw_acpi_table *fw_acpi_set_find(const struct fw_acpi_set *s, const char *signature, unsigned nth)
{
	for (size_t i = 0; i < s->ntables; i++)
		if (strncmp(s->tables[i]->signature, signature, 4) == 0 && nth-- == 0)
			return s->tables[i];
	return NULL;
}

const void *fw_acpi_set_model(const struct fw_acpi_set *s, enum fw_acpi_model_kind kind)
{
	for (size_t i = 0; i < s->ntables; i++) {
		const void *m = fw_acpi_table_model(s->tables[i], kind);
		if (m)
			return m;
	}
	return NULL;
}

/* --- finishing ----------------------------------------------------------------------------------- */

static void number_instances(struct fw_acpi_set *s)
{
	for (size_t i = 0; i < s->ntables; i++) {
		struct fw_acpi_table *t = s->tables[i];
		unsigned before = 0, total = 0;
		for (size_t j = 0; j < s->ntables; j++)
			if (memcmp(s->tables[j]->signature, t->signature, 4) == 0) {
				total++;
				if (j < i)
					before++;
			}
		t->instance = total > 1 ? before + 1 : 0;
	}
}

static struct fw_acpi_table *table_at(const struct fw_acpi_set *s, uint64_t address)
{
	if (!address)
		return NULL;
	for (size_t i = 0; i < s->ntables; i++)
		if (s->tables[i]->address == address)
			return s->tables[i];
	return NULL;
}

/* RSDP -> XSDT/RSDT -> tables, FADT -> DSDT/FACS, by the addresses the source printed. Sets
 * whose addresses are all zero (acpidump from sysfs, folders) have nothing to follow. */
static void follow_pointers(struct fw_acpi_set *s)
{
	struct fw_acpi_table *rsdp_t = fw_acpi_set_find(s, "RSDP", 0);
	const struct fw_acpi_rsdp *rsdp = rsdp_t ? fw_acpi_table_model(rsdp_t, FW_ACPI_MODEL_RSDP) : NULL;
	bool have_addresses = false;
	for (size_t i = 0; i < s->ntables; i++)
		have_addresses |= s->tables[i]->address != 0;
	char name[16];
	if (rsdp && have_addresses) {
		uint64_t root = rsdp->xsdt_address ? rsdp->xsdt_address : rsdp->rsdt_address;
		const char *root_sig = rsdp->xsdt_address ? "XSDT" : "RSDT";
		struct fw_acpi_table *rt = table_at(s, root);
		if (!rt)
			fw_acpi_set_diag(s, FW_DIAG_WARN, "RSDP points to the %s at 0x%" PRIx64 ", which is not in the input", root_sig,
					 root);
		else if (memcmp(rt->signature, root_sig, 4) != 0)
			fw_acpi_set_diag(s, FW_DIAG_WARN, "RSDP points to 0x%" PRIx64 " for the %s, but the table there is %s", root,
					 root_sig, rt->signature);
	}
	for (size_t i = 0; i < s->ntables; i++) {
		struct fw_acpi_table *t = s->tables[i];
		struct fw_acpi_xsdt *x = (struct fw_acpi_xsdt *)fw_acpi_table_model(t, FW_ACPI_MODEL_XSDT);
		if (!x || !have_addresses)
			continue;
		for (size_t k = 0; k < x->n; k++) {
			x->targets[k] = table_at(s, x->addresses[k]);
			if (!x->targets[k] && x->addresses[k])
				fw_acpi_set_diag(s, FW_DIAG_WARN, "%s entry %zu points to 0x%" PRIx64 ", which is not in the input",
						 t->signature, k, x->addresses[k]);
		}
		for (size_t j = 0; j < s->ntables; j++) {
			const struct fw_acpi_table *o = s->tables[j];
			if (!o->address || !o->has_header || o == t || !memcmp(o->signature, "DSDT", 4) ||
			    !memcmp(o->signature, "XSDT", 4) || !memcmp(o->signature, "RSDT", 4))
				continue;
			bool listed = false;
			for (size_t k = 0; k < x->n && !listed; k++)
				listed = x->targets[k] == o;
			if (!listed && o->origin)
				fw_acpi_set_diag(s, FW_DIAG_INFO, "%s at 0x%" PRIx64 " is not listed in the %s (loaded dynamically?)",
						 fw_acpi_table_name(o, name, sizeof(name)), o->address, t->signature);
		}
	}
	const struct fw_acpi_table *fadt_t = fw_acpi_set_find(s, "FACP", 0);
	const struct fw_fadt *fadt = fadt_t ? fw_acpi_table_model(fadt_t, FW_ACPI_MODEL_FADT) : NULL;
	if (fadt && have_addresses && fadt_t->address) {
		const struct fw_acpi_table *d = table_at(s, fadt->dsdt_address);
		if (fadt->dsdt_address && (!d || memcmp(d->signature, "DSDT", 4) != 0))
			fw_acpi_set_diag(s, FW_DIAG_WARN, "FADT points to the DSDT at 0x%" PRIx64 ", %s", fadt->dsdt_address,
					 d ? "but another table is there" : "which is not in the input");
		const struct fw_acpi_table *f = table_at(s, fadt->facs_address);
		if (fadt->facs_address && f && memcmp(f->signature, "FACS", 4) != 0)
			fw_acpi_set_diag(s, FW_DIAG_WARN, "FADT points to the FACS at 0x%" PRIx64 ", but %s is there", fadt->facs_address,
					 f->signature);
	}
}

static void check_ivrs_against_madt(struct fw_acpi_set *s)
{
	const struct fw_acpi_table *madt_t = fw_acpi_set_find(s, "APIC", 0);
	const struct fw_madt *madt = madt_t ? fw_acpi_table_model(madt_t, FW_ACPI_MODEL_MADT) : NULL;
	for (size_t i = 0; i < s->ntables; i++) {
		struct fw_acpi_table *t = s->tables[i];
		struct fw_ivrs *ivrs = (struct fw_ivrs *)fw_acpi_table_model(t, FW_ACPI_MODEL_IVRS);
		if (!ivrs)
			continue;
		if (!madt) {
			fw_acpi_diag(t, &s->arena, FW_DIAG_INFO, 0, "no MADT in the input: the IOAPIC map was not checked");
			continue;
		}
		uint8_t *ids = fw_arena_alloc(&s->arena, madt->nioapics + 1);
		for (size_t k = 0; k < madt->nioapics; k++)
			ids[k] = madt->ioapics[k].id;
		fw_ivrs_check_ioapics(ivrs, t, &s->arena, ids, madt->nioapics);
	}
}

void fw_acpi_set_finish(struct fw_acpi_set *s)
{
	if (s->finished)
		return;
	s->finished = true;
	number_instances(s);
	for (size_t i = 0; i < s->ntables; i++)
		fw_acpi_table_decode(s->tables[i], &s->arena);
	follow_pointers(s);
	check_ivrs_against_madt(s);
}

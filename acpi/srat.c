/* SRAT layouts and decoder. */
#include "srat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpi/fields.h"
#include "parsers/error.h"
#include "parsers/strmap.h"

static const struct fw_field srat_fields[SRAT__COUNT] = {
	[SRAT_TABLE_REVISION] = {"TableRevision", FW_FT_U32, 36, 0, 0, NULL},
	[SRAT_RESERVED] = {"Reserved", FW_FT_U64, 40, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_srat_layout = FW_LAYOUT("SRAT header", FW_SRAT_HEADER_SIZE, srat_fields);

static const struct fw_bitfield fw_srat_cpu_flag_bits[] = {FW_FLAG("Enabled", 1)};
const struct fw_bitfields fw_srat_cpu_flag_names = FW_BITFIELDS(fw_srat_cpu_flag_bits);
static const struct fw_field apic_fields[SRAT_APIC__COUNT] = {
	[SRAT_APIC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_APIC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_APIC_PD_LO] = {"ProximityDomainLo", FW_FT_U8, 2, 0, 0, NULL},
	[SRAT_APIC_APIC_ID] = {"ApicId", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[SRAT_APIC_FLAGS] = {"Flags", FW_FT_U32, 4, 0, FW_FF_FLAGS, &fw_srat_cpu_flag_names},
	[SRAT_APIC_SAPIC_EID] = {"LocalSapicEid", FW_FT_U8, 8, 0, FW_FF_HIDDEN, NULL},
	[SRAT_APIC_PD_HI] = {"ProximityDomainHi", FW_FT_U24, 9, 0, 0, NULL},
	[SRAT_APIC_CLOCK_DOMAIN] = {"ClockDomain", FW_FT_U32, 12, 0, 0, NULL},
};
const struct fw_layout fw_srat_apic_layout = FW_LAYOUT("SRAT processor local APIC affinity", 16, apic_fields);

static const struct fw_bitfield fw_srat_memory_flag_bits[] = {
	FW_FLAG("Enabled", FW_SRAT_MEM_ENABLED), FW_FLAG("HotPluggable", FW_SRAT_MEM_HOT_PLUGGABLE),
	FW_FLAG("NonVolatile", FW_SRAT_MEM_NON_VOLATILE), FW_FLAG("SpecificPurpose", FW_SRAT_MEM_SPECIFIC_PURPOSE),
};
const struct fw_bitfields fw_srat_memory_flag_names = FW_BITFIELDS(fw_srat_memory_flag_bits);
static const struct fw_field mem_fields[SRAT_MEM__COUNT] = {
	[SRAT_MEM_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_MEM_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_MEM_PD] = {"ProximityDomain", FW_FT_U32, 2, 0, 0, NULL},
	[SRAT_MEM_BASE] = {"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	[SRAT_MEM_SIZE] = {"AddressLength", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[SRAT_MEM_FLAGS] = {"Flags", FW_FT_U32, 28, 0, FW_FF_FLAGS, &fw_srat_memory_flag_names},
};
const struct fw_layout fw_srat_memory_layout = FW_LAYOUT("SRAT memory affinity", 40, mem_fields);

static const struct fw_field x2apic_fields[SRAT_X2APIC__COUNT] = {
	[SRAT_X2APIC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_X2APIC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_X2APIC_PD] = {"ProximityDomain", FW_FT_U32, 4, 0, 0, NULL},
	[SRAT_X2APIC_ID] = {"X2ApicId", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[SRAT_X2APIC_FLAGS] = {"Flags", FW_FT_U32, 12, 0, FW_FF_FLAGS, &fw_srat_cpu_flag_names},
	[SRAT_X2APIC_CLOCK_DOMAIN] = {"ClockDomain", FW_FT_U32, 16, 0, 0, NULL},
};
const struct fw_layout fw_srat_x2apic_layout = FW_LAYOUT("SRAT processor x2APIC affinity", 24, x2apic_fields);

static const struct fw_named_value handle_type_names[] = {{0, "ACPI"}, {1, "PCI"}, {0, NULL}};
static const struct fw_bitfield fw_srat_initiator_flag_bits[] = {
	FW_FLAG("Enabled", 1), FW_FLAG("ArchitecturalTransactions", 2),
};
const struct fw_bitfields fw_srat_initiator_flag_names = FW_BITFIELDS(fw_srat_initiator_flag_bits);
static const struct fw_field gi_fields[SRAT_GI__COUNT] = {
	[SRAT_GI_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_GI_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_GI_HANDLE_TYPE] = {"DeviceHandleType", FW_FT_U8, 3, 0, FW_FF_ENUM, handle_type_names},
	[SRAT_GI_PD] = {"ProximityDomain", FW_FT_U32, 4, 0, 0, NULL},
	[SRAT_GI_HANDLE] = {"DeviceHandle", FW_FT_BYTES, 8, 16, 0, NULL},
	[SRAT_GI_FLAGS] = {"Flags", FW_FT_U32, 24, 0, FW_FF_FLAGS, &fw_srat_initiator_flag_names},
};
const struct fw_layout fw_srat_gi_layout = FW_LAYOUT("SRAT generic initiator affinity", 32, gi_fields);

static const struct fw_field pci_handle_fields[SRAT_PCI_HANDLE__COUNT] = {
	[SRAT_PCI_HANDLE_SEGMENT] = {"PciSegment", FW_FT_U16, 0, 0, 0, NULL},
	[SRAT_PCI_HANDLE_BUS] = {"PciBus", FW_FT_U8, 2, 0, FW_FF_HEX, NULL},
	[SRAT_PCI_HANDLE_DEVFN] = {"PciDevFn", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_srat_pci_handle_layout = FW_LAYOUT("SRAT PCI device handle", 16, pci_handle_fields);

static const struct fw_field acpi_handle_fields[SRAT_ACPI_HANDLE__COUNT] = {
	[SRAT_ACPI_HANDLE_HID] = {"Hid", FW_FT_CHARS, 0, 8, 0, NULL},
	[SRAT_ACPI_HANDLE_UID] = {"Uid", FW_FT_U32, 8, 0, 0, NULL},
};
const struct fw_layout fw_srat_acpi_handle_layout = FW_LAYOUT("SRAT ACPI device handle", 16, acpi_handle_fields);

static const struct fw_field gicc_fields[SRAT_GICC__COUNT] = {
	[SRAT_GICC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_GICC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_GICC_PD] = {"ProximityDomain", FW_FT_U32, 2, 0, 0, NULL},
	[SRAT_GICC_UID] = {"AcpiProcessorUid", FW_FT_U32, 6, 0, 0, NULL},
	[SRAT_GICC_FLAGS] = {"Flags", FW_FT_U32, 10, 0, FW_FF_FLAGS, &fw_srat_cpu_flag_names},
	[SRAT_GICC_CLOCK_DOMAIN] = {"ClockDomain", FW_FT_U32, 14, 0, 0, NULL},
};
const struct fw_layout fw_srat_gicc_layout = FW_LAYOUT("SRAT GICC affinity", 18, gicc_fields);

static const struct fw_field its_fields[SRAT_ITS__COUNT] = {
	[SRAT_ITS_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_ITS_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_ITS_PD] = {"ProximityDomain", FW_FT_U32, 2, 0, 0, NULL},
	[SRAT_ITS_RESERVED] = {"Reserved", FW_FT_U16, 6, 0, FW_FF_HIDDEN, NULL},
	[SRAT_ITS_ID] = {"ItsId", FW_FT_U32, 8, 0, 0, NULL},
};
const struct fw_layout fw_srat_gic_its_layout = FW_LAYOUT("SRAT GIC ITS affinity", 12, its_fields);

static const struct fw_field rintc_fields[SRAT_RINTC__COUNT] = {
	[SRAT_RINTC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_RINTC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_RINTC_RESERVED] = {"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	[SRAT_RINTC_PD] = {"ProximityDomain", FW_FT_U32, 4, 0, 0, NULL},
	[SRAT_RINTC_UID] = {"AcpiProcessorUid", FW_FT_U32, 8, 0, 0, NULL},
	[SRAT_RINTC_FLAGS] = {"Flags", FW_FT_U32, 12, 0, FW_FF_FLAGS, &fw_srat_cpu_flag_names},
	[SRAT_RINTC_CLOCK_DOMAIN] = {"ClockDomain", FW_FT_U32, 16, 0, 0, NULL},
};
const struct fw_layout fw_srat_rintc_layout = FW_LAYOUT("SRAT RINTC affinity", 20, rintc_fields);

const char *fw_srat_type_name(uint8_t type)
{
	switch (type) {
	case FW_SRAT_LOCAL_APIC: return "lapic";
	case FW_SRAT_MEMORY: return "memory";
	case FW_SRAT_X2APIC: return "x2apic";
	case FW_SRAT_GICC: return "gicc";
	case FW_SRAT_GIC_ITS: return "gic-its";
	case FW_SRAT_GENERIC_INITIATOR: return "generic-initiator";
	case FW_SRAT_GENERIC_PORT: return "generic-port";
	case FW_SRAT_RINTC: return "rintc";
	}
	return "unknown";
}

static const struct fw_layout *layout_for(uint8_t type)
{
	switch (type) {
	case FW_SRAT_LOCAL_APIC: return &fw_srat_apic_layout;
	case FW_SRAT_MEMORY: return &fw_srat_memory_layout;
	case FW_SRAT_X2APIC: return &fw_srat_x2apic_layout;
	case FW_SRAT_GICC: return &fw_srat_gicc_layout;
	case FW_SRAT_GIC_ITS: return &fw_srat_gic_its_layout;
	case FW_SRAT_GENERIC_INITIATOR:
	case FW_SRAT_GENERIC_PORT: return &fw_srat_gi_layout;
	case FW_SRAT_RINTC: return &fw_srat_rintc_layout;
	}
	return NULL;
}

static uint64_t value(const struct fw_acpi_part *p, const char *name)
{
	struct fw_acpi_value vr;
	const struct fw_acpi_value *v = fw_acpi_part_value(p, name, &vr);
	return v ? v->u : 0;
}

/* One entry from its part of the document: every layout names its fields alike (ProximityDomain,
 * Flags, ClockDomain), so only the id, a local APIC's split domain and the device handle differ. */
static void decode_entry(struct fw_srat_entry *e, const struct fw_acpi_part *p, uint8_t revision)
{
	static const char *const ids[] = {"ApicId", "X2ApicId", "AcpiProcessorUid", "ItsId"};
	struct fw_acpi_value id;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (fw_acpi_part_value(p, ids[i], &id))
			e->id = (uint32_t)id.u;
	struct fw_acpi_value flags_room;
	const struct fw_acpi_value *flags = fw_acpi_part_value(p, "Flags", &flags_room);
	e->flags = flags ? (uint32_t)flags->u : 1; /* a GIC ITS has no flags: always in use */
	e->clock_domain = (uint32_t)value(p, "ClockDomain");
	e->proximity_domain = (uint32_t)value(p, "ProximityDomain");
	/* Linux reads a local APIC's upper domain bytes, and a memory entry's, from revision 2 on */
	if (e->type == FW_SRAT_LOCAL_APIC)
		e->proximity_domain = (uint32_t)(value(p, "ProximityDomainLo") | (revision >= 2 ? value(p, "ProximityDomainHi") << 8 : 0));
	else if (e->type == FW_SRAT_MEMORY && revision < 2)
		e->proximity_domain &= 0xFF;
	e->base = value(p, "BaseAddress");
	e->size = value(p, "AddressLength");
	struct fw_acpi_value handle_room;
	const struct fw_acpi_value *handle = fw_acpi_part_value(p, "DeviceHandle", &handle_room);
	if (handle) {
		/* The 16-byte handle has its own layouts, one per handle type. */
		e->handle_type = (uint8_t)value(p, "DeviceHandleType");
		struct fw_view hv = fw_view_make(handle->p, 16, FW_OFFSET_UNKNOWN);
		if (e->handle_type == FW_SRAT_GI_HANDLE_PCI) {
			e->segment = (uint16_t)fw_layout_get(&fw_srat_pci_handle_layout, &hv, 0, SRAT_PCI_HANDLE_SEGMENT);
			e->bdf = (uint16_t)(fw_layout_get(&fw_srat_pci_handle_layout, &hv, 0, SRAT_PCI_HANDLE_BUS) << 8 |
					    fw_layout_get(&fw_srat_pci_handle_layout, &hv, 0, SRAT_PCI_HANDLE_DEVFN));
		} else {
			const uint8_t *h = fw_layout_ptr(&fw_srat_acpi_handle_layout, &hv, 0, SRAT_ACPI_HANDLE_HID);
			size_t k = 0;
			for (size_t i = 0; i < 8 && h[i]; i++)
				e->hid[k++] = (h[i] >= 0x20 && h[i] < 0x7F) ? (char)h[i] : '?';
			e->hid[k] = '\0';
			e->uid = (uint32_t)fw_layout_get(&fw_srat_acpi_handle_layout, &hv, 0, SRAT_ACPI_HANDLE_UID);
		}
	}
	e->enabled = e->flags & 1;
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

static bool is_processor(uint8_t type)
{
	return type == FW_SRAT_LOCAL_APIC || type == FW_SRAT_X2APIC || type == FW_SRAT_GICC || type == FW_SRAT_RINTC;
}

/* The model and what the view shows beyond the bytes: the domains as a list, one line per
 * domain with processors (they are summarised, not listed), the disabled entries Linux ignores. */
struct srat_facts {
	struct fw_srat m; /* first: t->model is the struct fw_srat */
	uint8_t *domains_le;
	const char **cpu_lines;
	size_t ncpu_lines, off_cpus, off_mem;
};

static void summarise(struct srat_facts *x, struct fw_arena *a)
{
	struct fw_srat *m = &x->m;
	x->domains_le = fw_arena_alloc(a, 4 * m->ndomains + 1);
	x->cpu_lines = fw_arena_alloc(a, (m->ndomains + 1) * sizeof(*x->cpu_lines));
	for (size_t d = 0; d < m->ndomains; d++) {
		for (int b = 0; b < 4; b++)
			x->domains_le[4 * d + b] = (uint8_t)(m->domains[d] >> (8 * b));
		size_t cpus = 0;
		for (size_t i = 0; i < m->nentries; i++) {
			const struct fw_srat_entry *e = &m->entries[i];
			cpus += e->enabled && e->proximity_domain == m->domains[d] && is_processor(e->type);
		}
		if (cpus)
			x->cpu_lines[x->ncpu_lines++] = fw_arena_printf(a, "domain %u: %zu processor%s", m->domains[d], cpus,
									 cpus == 1 ? "" : "s");
	}
	for (size_t i = 0; i < m->nentries; i++) {
		const struct fw_srat_entry *e = &m->entries[i];
		x->off_cpus += is_processor(e->type) && !e->enabled;
		x->off_mem += e->type == FW_SRAT_MEMORY && !e->enabled;
	}
}

/* The entries as a model (each part of the document is one entry), proximity domains as Linux
 * reads them, and the checks the layout cannot make. */
void *fw_acpi_srat_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct srat_facts *x = fw_arena_alloc(a, sizeof(*x));
	struct fw_srat *m = &x->m;
	const struct fw_acpi_doc *doc = t->doc;
	struct fw_acpi_value rev_room;
	const struct fw_acpi_value *rev = fw_acpi_part_value(&doc->parts[0], "TableRevision", &rev_room);
	m->table_revision = rev ? (uint32_t)rev->u : 0;
	m->entries = fw_arena_alloc(a, doc->nparts * sizeof(*m->entries));
	for (size_t k = 1; k < doc->nparts; k++) {
		const struct fw_acpi_part *p = &doc->parts[k];
		struct fw_srat_entry *e = &m->entries[m->nentries++];
		memset(e, 0, sizeof(*e));
		e->offset = p->offset;
		e->type = (uint8_t)p->type;
		e->length = (uint8_t)p->length;
		const struct fw_layout *l = p->layout;
		if (!l || p->length < l->size)
			continue;
		if (p->length != l->size)
			fw_acpi_diag(t, a, FW_DIAG_INFO, p->offset, "%s at 0x%x has Length %u (expected %u); extra bytes ignored", l->name,
				     p->offset, p->length, l->size);
		decode_entry(e, p, t->revision);
		if (l == &fw_srat_gi_layout && e->handle_type > 1)
			fw_acpi_diag(t, a, FW_DIAG_WARN, p->offset + 3, "%s at 0x%x: unknown device handle type %u", l->name, p->offset,
				     e->handle_type);
	}
	/* Distinct proximity domains of the enabled entries. */
	uint32_t *d = fw_arena_alloc(a, (m->nentries + 1) * sizeof(*d));
	size_t n = 0;
	for (size_t i = 0; i < m->nentries; i++)
		if (m->entries[i].enabled && layout_for(m->entries[i].type))
			d[n++] = m->entries[i].proximity_domain;
	qsort(d, n, sizeof(*d), u32_cmp);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || d[k - 1] != d[i])
			d[k++] = d[i];
	m->domains = d;
	m->ndomains = k;
	summarise(x, a);
	return m;
}

/* ---- the view: what JSON and text show ---- */

static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct srat_facts *x = t->model;
	if (!x)
		return false;
	if (part == 0) {
		if (!strcmp(name, "Domains")) {
			out->list = x->domains_le;
			out->nlist = x->m.ndomains;
		} else if (!strcmp(name, "Entries")) {
			out->u = x->m.nentries;
		} else if (!strcmp(name, "DomainCpus")) {
			out->lines = x->cpu_lines;
			out->nlines = x->ncpu_lines;
		} else {
			out->u = !strcmp(name, "DisabledCpus") ? x->off_cpus
				 : !strcmp(name, "DisabledMemory") ? x->off_mem
								     : x->off_cpus + x->off_mem;
		}
		return true;
	}
	if (part > x->m.nentries)
		return false;
	const struct fw_srat_entry *e = &x->m.entries[part - 1];
	bool gi = e->type == FW_SRAT_GENERIC_INITIATOR || e->type == FW_SRAT_GENERIC_PORT;
	if (!strcmp(name, "TypeName")) {
		out->s = fw_srat_type_name(e->type);
	} else if (!strcmp(name, "Pxm")) {
		out->u = e->proximity_domain;
	} else if (!strcmp(name, "Enabled")) {
		out->u = e->enabled;
	} else if (!strcmp(name, "End")) {
		out->u = e->size ? e->base + e->size - 1 : e->base;
	} else if (!strcmp(name, "Size")) {
		out->s = fw_acpi_size_str(e->size, out->buf, sizeof(out->buf));
	} else if (!strcmp(name, "Kind")) {
		out->s = e->type == FW_SRAT_GENERIC_INITIATOR ? "generic initiator" : "generic port";
	} else if (!strcmp(name, "HandleType")) {
		/* "PCI", "ACPI", or the number nobody named */
		out->u = e->handle_type;
		out->s = e->handle_type == FW_SRAT_GI_HANDLE_PCI ? "PCI" : e->handle_type == FW_SRAT_GI_HANDLE_ACPI ? "ACPI" : NULL;
	} else if (!strcmp(name, "Handle")) {
		char bdf[16];
		if (e->handle_type == FW_SRAT_GI_HANDLE_PCI)
			snprintf(out->buf, sizeof(out->buf), "PCI %s", fw_acpi_bdf_str(e->segment, e->bdf, bdf));
		else if (e->handle_type == FW_SRAT_GI_HANDLE_ACPI)
			snprintf(out->buf, sizeof(out->buf), "ACPI %s UID %u", e->hid, e->uid);
		else
			snprintf(out->buf, sizeof(out->buf), "handle type %u", e->handle_type);
		out->s = out->buf;
	} else if (!strcmp(name, "Segment") || !strcmp(name, "Bdf")) {
		if (!gi || e->handle_type != FW_SRAT_GI_HANDLE_PCI)
			return false;
		out->u = e->segment;
		if (name[0] == 'B')
			out->s = fw_acpi_bdf_str(e->segment, e->bdf, out->buf);
	} else if (!strcmp(name, "Hid") || !strcmp(name, "Uid")) {
		if (!gi || e->handle_type != FW_SRAT_GI_HANDLE_ACPI)
			return false;
		out->u = e->uid;
		if (name[0] == 'H')
			out->s = e->hid;
	} else {
		return false;
	}
	return true;
}

#define SHOW_ENTRY                                                                                               \
	{"offset", "@offset", FW_AS_NUMBER, false, NULL}, {"type", "TypeName", FW_AS_TEXT, false, derive}, \
		{"type_id", "@type", FW_AS_NUMBER, false, NULL},                                                 \
		{"proximity_domain", "Pxm", FW_AS_NUMBER, false, derive},                                        \
		{"enabled", "Enabled", FW_AS_BOOL, false, derive}
#define SHOW_CPU(key, field)                                                                                   \
	SHOW_ENTRY, {key, field, FW_AS_NUMBER, false, NULL}, {"flags", "Flags", FW_AS_FLAGS, false, NULL}, \
		{"clock_domain", "ClockDomain", FW_AS_NUMBER, false, NULL}

static const struct fw_acpi_show srat_show[] = {
	{"table_revision", "TableRevision", FW_AS_NUMBER, false, NULL},
	{"proximity_domains", "Domains", FW_AS_LIST, false, derive},
	{NULL, "Entries", FW_AS_NUMBER, false, derive},
	{NULL, "DomainCpus", FW_AS_TEXT, false, derive},
	{NULL, "AnyDisabled", FW_AS_NUMBER, false, derive},
	{NULL, "DisabledCpus", FW_AS_NUMBER, false, derive},
	{NULL, "DisabledMemory", FW_AS_NUMBER, false, derive},
};
/* Processors are summarised per domain, everything else is listed; disabled entries are counted
 * only: Linux ignores them. */
static const char *const srat_text[] = {
	"{Entries} entries; proximity domains of the enabled ones:{Domains:list}",
	"{*DomainCpus}",
	"{!AnyDisabled}disabled (ignored): {DisabledCpus} processor entries, {DisabledMemory} memory entries",
	NULL,
};
static const struct fw_acpi_show apic_show[] = {SHOW_CPU("apic_id", "ApicId")};
static const struct fw_acpi_show x2apic_show[] = {SHOW_CPU("x2apic_id", "X2ApicId")};
static const struct fw_acpi_show gicc_show[] = {SHOW_CPU("acpi_processor_uid", "AcpiProcessorUid")};
static const struct fw_acpi_show rintc_show[] = {SHOW_CPU("acpi_processor_uid", "AcpiProcessorUid")};
static const char *const cpu_text[] = {NULL}; /* summarised per domain */
static const struct fw_acpi_show memory_show[] = {
	SHOW_ENTRY,
	{"base_address", "BaseAddress", FW_AS_HEX, false, NULL},
	{"length", "AddressLength", FW_AS_HEX, false, NULL},
	{"flags", "Flags", FW_AS_FLAGS, false, NULL},
	{NULL, "End", FW_AS_NUMBER, false, derive},
	{NULL, "Size", FW_AS_TEXT, false, derive},
};
static const char *const memory_text[] = {
	"{!Enabled}{@offset:@0x%03x} memory  domain {Pxm}  0x{BaseAddress:%012x}-0x{End:%012x} ({Size})  {Flags:names}",
	NULL,
};
static const struct fw_acpi_show its_show[] = {SHOW_ENTRY, {"its_id", "ItsId", FW_AS_NUMBER, false, NULL}};
static const char *const its_text[] = {"{@offset:@0x%03x} GIC ITS {ItsId}  domain {Pxm}", NULL};
static const struct fw_acpi_show gi_show[] = {
	SHOW_ENTRY,
	{"flags", "Flags", FW_AS_FLAGS, false, NULL},
	{"device_handle_type", "HandleType", FW_AS_TEXT, false, derive},
	{"segment", "Segment", FW_AS_NUMBER, false, derive},
	{"bdf", "Bdf", FW_AS_TEXT, false, derive},
	{"hid", "Hid", FW_AS_TEXT, false, derive},
	{"uid", "Uid", FW_AS_NUMBER, false, derive},
	{NULL, "Kind", FW_AS_TEXT, false, derive},
	{NULL, "Handle", FW_AS_TEXT, false, derive},
};
static const char *const gi_text[] = {"{@offset:@0x%03x} {Kind}  domain {Pxm}  {Handle}  {Flags:names}", NULL};
static const struct fw_acpi_show other_show[] = {SHOW_ENTRY, {"length", "@length", FW_AS_NUMBER, false, NULL}};
static const char *const other_text[] = {"{@offset:@0x%03x} type {@type}, {@length} bytes (unknown)", NULL};

static const struct fw_acpi_shape srat_shapes[] = {
	FW_ACPI_SHAPE(&fw_srat_layout, srat_show, srat_text),
	FW_ACPI_SHAPE(&fw_srat_apic_layout, apic_show, cpu_text),
	FW_ACPI_SHAPE(&fw_srat_x2apic_layout, x2apic_show, cpu_text),
	FW_ACPI_SHAPE(&fw_srat_gicc_layout, gicc_show, cpu_text),
	FW_ACPI_SHAPE(&fw_srat_rintc_layout, rintc_show, cpu_text),
	FW_ACPI_SHAPE(&fw_srat_memory_layout, memory_show, memory_text),
	FW_ACPI_SHAPE(&fw_srat_gic_its_layout, its_show, its_text),
	FW_ACPI_SHAPE(&fw_srat_gi_layout, gi_show, gi_text),
	FW_ACPI_SHAPE(NULL, other_show, other_text),
};

/* ---- diff: domains, what each holds, and which CPUs moved ---- */

static void domains_text(const struct fw_srat *s, struct fw_acpi_text *doms, struct fw_acpi_text *cpus,
			 struct fw_acpi_text *mem, struct fw_acpi_text *inits)
{
	for (size_t k = 0; k < s->ndomains; k++) {
		uint32_t pd = s->domains[k];
		size_t ncpu = 0;
		uint64_t bytes = 0;
		for (size_t i = 0; i < s->nentries; i++) {
			const struct fw_srat_entry *e = &s->entries[i];
			if (!e->enabled || e->proximity_domain != pd)
				continue;
			if (is_processor(e->type))
				ncpu++;
			else if (e->type == FW_SRAT_MEMORY)
				bytes += e->size;
		}
		fw_acpi_text_put(doms, "%s%u", k ? " " : "", pd);
		fw_acpi_text_put(cpus, "%s%u:%zu", k ? " " : "", pd, ncpu);
		fw_acpi_text_put(mem, "%s%u:%" PRIu64 " MiB", k ? ", " : "", pd, bytes >> 20);
	}
	size_t n = 0;
	for (size_t i = 0; i < s->nentries; i++) {
		const struct fw_srat_entry *e = &s->entries[i];
		char bdf[16];
		if (e->type != FW_SRAT_GENERIC_INITIATOR && e->type != FW_SRAT_GENERIC_PORT)
			continue;
		if (e->handle_type == FW_SRAT_GI_HANDLE_PCI)
			fw_acpi_text_put(inits, "%s%s->%u", n++ ? ", " : "", fw_acpi_bdf_str(e->segment, e->bdf, bdf), e->proximity_domain);
		else
			fw_acpi_text_put(inits, "%s%s/%u->%u", n++ ? ", " : "", e->hid, e->uid, e->proximity_domain);
	}
}

static bool is_apic_cpu(const struct fw_srat_entry *e)
{
	return (e->type == FW_SRAT_LOCAL_APIC || e->type == FW_SRAT_X2APIC) && e->enabled;
}

static void compare(const struct fw_acpi_table *ta, const struct fw_acpi_table *tb, fw_acpi_change_fn change, void *ctx)
{
	const struct fw_srat *a = ta->model, *b = tb->model;
	if (!a || !b)
		return;
	static const char *const what[] = {"proximity domains", "CPUs per domain", "memory per domain", "generic initiators"};
	struct fw_acpi_text ta4[4] = {0}, tb4[4] = {0};
	domains_text(a, &ta4[0], &ta4[1], &ta4[2], &ta4[3]);
	domains_text(b, &tb4[0], &tb4[1], &tb4[2], &tb4[3]);
	for (int i = 0; i < 4; i++)
		if (strcmp(ta4[i].buf, tb4[i].buf) != 0)
			change(ctx, what[i], ta4[i].buf, tb4[i].buf, NULL);
	/* CPUs by APIC id: how many changed domain, the first few named */
	struct fw_strmap m;
	fw_strmap_init(&m);
	char key[32];
	for (size_t i = 0; i < a->nentries; i++)
		if (is_apic_cpu(&a->entries[i])) {
			snprintf(key, sizeof(key), "%u", a->entries[i].id);
			fw_strmap_put(&m, key, (void *)&a->entries[i]);
		}
	size_t moved = 0;
	struct fw_acpi_text ex = {0};
	for (size_t i = 0; i < b->nentries; i++) {
		const struct fw_srat_entry *eb = &b->entries[i];
		if (!is_apic_cpu(eb))
			continue;
		snprintf(key, sizeof(key), "%u", eb->id);
		const struct fw_srat_entry *ea = fw_strmap_get(&m, key);
		if (ea && ea->proximity_domain != eb->proximity_domain && moved++ < 4)
			fw_acpi_text_put(&ex, "%sAPIC 0x%X %u->%u", moved > 1 ? ", " : "", eb->id, ea->proximity_domain,
					 eb->proximity_domain);
	}
	fw_strmap_free(&m);
	if (moved) {
		char n[64];
		snprintf(n, sizeof(n), "%zu CPUs in another domain", moved);
		if (moved > 4)
			fw_acpi_text_put(&ex, ", ...");
		change(ctx, "CPU affinity", "-", n, ex.buf);
	}
}

static const struct fw_acpi_view srat_view = FW_ACPI_COMPARED_VIEW(srat_shapes, "entries", compare);
static const struct fw_acpi_subtype types[] = {
	{FW_SRAT_LOCAL_APIC, &fw_srat_apic_layout, -1, NULL},    {FW_SRAT_MEMORY, &fw_srat_memory_layout, -1, NULL},
	{FW_SRAT_X2APIC, &fw_srat_x2apic_layout, -1, NULL},      {FW_SRAT_GICC, &fw_srat_gicc_layout, -1, NULL},
	{FW_SRAT_GIC_ITS, &fw_srat_gic_its_layout, -1, NULL},    {FW_SRAT_GENERIC_INITIATOR, &fw_srat_gi_layout, -1, NULL},
	{FW_SRAT_GENERIC_PORT, &fw_srat_gi_layout, -1, NULL},    {FW_SRAT_RINTC, &fw_srat_rintc_layout, -1, NULL},
};
const struct fw_acpi_layout fw_acpi_srat_table = {
	.fixed = &fw_srat_layout, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"subtable", 1, 1, 1}, .types = types, .ntypes = sizeof(types) / sizeof(types[0]), .view = &srat_view,
};

static bool srat_numbers_node_first(uint8_t type)
{
	return type == FW_SRAT_LOCAL_APIC || type == FW_SRAT_X2APIC || type == FW_SRAT_GICC ||
	       type == FW_SRAT_GENERIC_INITIATOR || type == FW_SRAT_RINTC;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Sorting the domains numbered before PXM's first entry and counting the distinct ones keeps
 * this O(n log n) on a table of any size. */
int fw_srat_linux_node(const struct fw_srat *s, uint32_t pxm)
{
	uint32_t *before = fw_xcalloc(s->nentries ? s->nentries : 1, sizeof(*before));
	size_t n = 0;
	bool found = false;
	for (int pass = 0; pass < 2 && !found; pass++)
		for (size_t i = 0; i < s->nentries && !found; i++) {
			const struct fw_srat_entry *e = &s->entries[i];
			bool numbered = pass == 0 ? srat_numbers_node_first(e->type) : e->type == FW_SRAT_MEMORY;
			if (!e->enabled || !numbered)
				continue;
			if (e->proximity_domain == pxm)
				found = true;
			else
				before[n++] = e->proximity_domain;
		}
	int node = -1;
	if (found) {
		qsort(before, n, sizeof(*before), cmp_u32);
		node = 0;
		for (size_t i = 0; i < n; i++)
			node += i == 0 || before[i] != before[i - 1];
	}
	free(before);
	return node;
}

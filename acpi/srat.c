/* SRAT layouts and decoder. */
#include "srat.h"

#include <stdlib.h>
#include <string.h>

#include "parsers/error.h"

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
	[SRAT_MEM_SIZE] = {"Length", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
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
	[SRAT_PCI_HANDLE_BDF] = {"PciBdf", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
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

static void decode_entry(struct fw_srat_entry *e, const struct fw_layout *l, const struct fw_view *v, size_t off,
			 uint8_t revision)
{
	switch (e->type) {
	case FW_SRAT_LOCAL_APIC:
		e->proximity_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_APIC_PD_LO);
		if (revision >= 2)
			e->proximity_domain |= (uint32_t)fw_layout_get(l, v, off, SRAT_APIC_PD_HI) << 8;
		e->id = (uint32_t)fw_layout_get(l, v, off, SRAT_APIC_APIC_ID);
		e->flags = (uint32_t)fw_layout_get(l, v, off, SRAT_APIC_FLAGS);
		e->sapic_eid = (uint8_t)fw_layout_get(l, v, off, SRAT_APIC_SAPIC_EID);
		e->clock_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_APIC_CLOCK_DOMAIN);
		break;
	case FW_SRAT_MEMORY:
		e->proximity_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_MEM_PD);
		if (revision < 2)
			e->proximity_domain &= 0xFF;
		e->base = fw_layout_get(l, v, off, SRAT_MEM_BASE);
		e->size = fw_layout_get(l, v, off, SRAT_MEM_SIZE);
		e->flags = (uint32_t)fw_layout_get(l, v, off, SRAT_MEM_FLAGS);
		break;
	case FW_SRAT_X2APIC:
		e->proximity_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_X2APIC_PD);
		e->id = (uint32_t)fw_layout_get(l, v, off, SRAT_X2APIC_ID);
		e->flags = (uint32_t)fw_layout_get(l, v, off, SRAT_X2APIC_FLAGS);
		e->clock_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_X2APIC_CLOCK_DOMAIN);
		break;
	case FW_SRAT_GICC:
		e->proximity_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_GICC_PD);
		e->id = (uint32_t)fw_layout_get(l, v, off, SRAT_GICC_UID);
		e->flags = (uint32_t)fw_layout_get(l, v, off, SRAT_GICC_FLAGS);
		e->clock_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_GICC_CLOCK_DOMAIN);
		break;
	case FW_SRAT_GIC_ITS:
		e->proximity_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_ITS_PD);
		e->id = (uint32_t)fw_layout_get(l, v, off, SRAT_ITS_ID);
		e->flags = 1; /* no flags field: always in use */
		break;
	case FW_SRAT_GENERIC_INITIATOR:
	case FW_SRAT_GENERIC_PORT: {
		e->handle_type = (uint8_t)fw_layout_get(l, v, off, SRAT_GI_HANDLE_TYPE);
		e->proximity_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_GI_PD);
		e->flags = (uint32_t)fw_layout_get(l, v, off, SRAT_GI_FLAGS);
		/* The 16-byte handle has its own layouts, one per handle type. */
		struct fw_view hv = fw_view_make(fw_layout_ptr(l, v, off, SRAT_GI_HANDLE), 16, FW_OFFSET_UNKNOWN);
		if (e->handle_type == FW_SRAT_GI_HANDLE_PCI) {
			e->segment = (uint16_t)fw_layout_get(&fw_srat_pci_handle_layout, &hv, 0, SRAT_PCI_HANDLE_SEGMENT);
			e->bdf = (uint16_t)fw_layout_get(&fw_srat_pci_handle_layout, &hv, 0, SRAT_PCI_HANDLE_BDF);
		} else {
			const uint8_t *h = fw_layout_ptr(&fw_srat_acpi_handle_layout, &hv, 0, SRAT_ACPI_HANDLE_HID);
			size_t k = 0;
			for (size_t i = 0; i < 8 && h[i]; i++)
				e->hid[k++] = (h[i] >= 0x20 && h[i] < 0x7F) ? (char)h[i] : '?';
			e->hid[k] = '\0';
			e->uid = (uint32_t)fw_layout_get(&fw_srat_acpi_handle_layout, &hv, 0, SRAT_ACPI_HANDLE_UID);
		}
		break;
	}
	case FW_SRAT_RINTC:
		e->proximity_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_RINTC_PD);
		e->id = (uint32_t)fw_layout_get(l, v, off, SRAT_RINTC_UID);
		e->flags = (uint32_t)fw_layout_get(l, v, off, SRAT_RINTC_FLAGS);
		e->clock_domain = (uint32_t)fw_layout_get(l, v, off, SRAT_RINTC_CLOCK_DOMAIN);
		break;
	}
	e->enabled = e->flags & 1;
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

void *fw_acpi_srat_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_srat *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	if (!fw_view_has(v, 0, FW_SRAT_HEADER_SIZE)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 0, "SRAT of 0x%zx bytes is shorter than its 48-byte header", v->len);
		return m;
	}
	m->table_revision = (uint32_t)fw_layout_get(&fw_srat_layout, v, 0, SRAT_TABLE_REVISION);
	size_t cap = 0;
	static const struct fw_acpi_record_format fmt = {"subtable", 1, 1, 1};
	struct fw_acpi_record r;
	for (size_t next = FW_SRAT_HEADER_SIZE; fw_acpi_next_record(t, a, v, 0, &next, &fmt, &r);) {
		size_t off = r.offset;
		uint8_t type = (uint8_t)r.type, len = (uint8_t)r.length;
		m->entries = fw_acpi_grow(a, m->entries, &cap, m->nentries + 1, sizeof(*m->entries));
		struct fw_srat_entry *e = &m->entries[m->nentries++];
		memset(e, 0, sizeof(*e));
		e->offset = (uint32_t)off;
		e->type = type;
		e->length = len;
		const struct fw_layout *l = layout_for(type);
		if (!l) {
			fw_acpi_diag(t, a, FW_DIAG_INFO, off, "unknown subtable type %u at 0x%zx (%u bytes) left undecoded", type, off, len);
		} else if (len < l->size) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx has Length %u, the structure needs %u", l->name, off, len,
				     l->size);
		} else {
			if (len != l->size)
				fw_acpi_diag(t, a, FW_DIAG_INFO, off, "%s at 0x%zx has Length %u (expected %u); extra bytes ignored",
					     l->name, off, len, l->size);
			decode_entry(e, l, v, off, t->revision);
			if ((type == FW_SRAT_GENERIC_INITIATOR || type == FW_SRAT_GENERIC_PORT) && e->handle_type > 1)
				fw_acpi_diag(t, a, FW_DIAG_WARN, off + 3, "%s at 0x%zx: unknown device handle type %u", l->name, off,
					     e->handle_type);
		}
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
	return m;
}

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

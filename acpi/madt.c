/* MADT layouts and decoder (summary). */
#include "madt.h"

#include <stdio.h>
#include <string.h>

static const struct fw_bitfield fw_madt_flag_bits[] = {FW_FLAG("PCAT_COMPAT", 1)};
const struct fw_bitfields fw_madt_flag_names = FW_BITFIELDS(fw_madt_flag_bits);
static const struct fw_field madt_fields[MADT__COUNT] = {
	[MADT_LOCAL_APIC_ADDRESS] = {"LocalApicAddress", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[MADT_FLAGS] = {"Flags", FW_FT_U32, 40, 0, FW_FF_FLAGS, &fw_madt_flag_names},
};
const struct fw_layout fw_madt_layout = FW_LAYOUT("MADT header", FW_MADT_HEADER_SIZE, madt_fields);

static const struct fw_bitfield fw_madt_cpu_flag_bits[] = {FW_FLAG("Enabled", 1), FW_FLAG("OnlineCapable", 2)};
const struct fw_bitfields fw_madt_cpu_flag_names = FW_BITFIELDS(fw_madt_cpu_flag_bits);

static const struct fw_field lapic_fields[MADT_LAPIC__COUNT] = {
	[MADT_LAPIC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[MADT_LAPIC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[MADT_LAPIC_UID] = {"ProcessorUid", FW_FT_U8, 2, 0, 0, NULL},
	[MADT_LAPIC_ID] = {"ApicId", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[MADT_LAPIC_FLAGS] = {"Flags", FW_FT_U32, 4, 0, FW_FF_FLAGS, &fw_madt_cpu_flag_names},
};
const struct fw_layout fw_madt_local_apic_layout = FW_LAYOUT("MADT local APIC", 8, lapic_fields);

static const struct fw_field ioapic_fields[MADT_IOAPIC__COUNT] = {
	[MADT_IOAPIC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[MADT_IOAPIC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[MADT_IOAPIC_ID] = {"IoApicId", FW_FT_U8, 2, 0, 0, NULL},
	[MADT_IOAPIC_ADDRESS] = {"Address", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[MADT_IOAPIC_GSI_BASE] = {"GlobalIrqBase", FW_FT_U32, 8, 0, 0, NULL},
};
const struct fw_layout fw_madt_io_apic_layout = FW_LAYOUT("MADT I/O APIC", 12, ioapic_fields);

static const struct fw_field iso_fields[MADT_ISO__COUNT] = {
	[MADT_ISO_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[MADT_ISO_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[MADT_ISO_BUS] = {"Bus", FW_FT_U8, 2, 0, 0, NULL},
	[MADT_ISO_SOURCE_IRQ] = {"SourceIrq", FW_FT_U8, 3, 0, 0, NULL},
	[MADT_ISO_GSI] = {"GlobalIrq", FW_FT_U32, 4, 0, 0, NULL},
	[MADT_ISO_FLAGS] = {"Flags", FW_FT_U16, 8, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_madt_interrupt_override_layout = FW_LAYOUT("MADT interrupt source override", 10, iso_fields);

static const struct fw_field x2apic_fields[MADT_X2APIC__COUNT] = {
	[MADT_X2APIC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[MADT_X2APIC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[MADT_X2APIC_ID] = {"X2ApicId", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[MADT_X2APIC_FLAGS] = {"Flags", FW_FT_U32, 8, 0, FW_FF_FLAGS, &fw_madt_cpu_flag_names},
	[MADT_X2APIC_UID] = {"ProcessorUid", FW_FT_U32, 12, 0, 0, NULL},
};
const struct fw_layout fw_madt_local_x2apic_layout = FW_LAYOUT("MADT local x2APIC", 16, x2apic_fields);

static const struct fw_field x2nmi_fields[MADT_X2NMI__COUNT] = {
	[MADT_X2NMI_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[MADT_X2NMI_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[MADT_X2NMI_FLAGS] = {"Flags", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[MADT_X2NMI_UID] = {"ProcessorUid", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[MADT_X2NMI_LINT] = {"Lint", FW_FT_U8, 8, 0, 0, NULL},
};
const struct fw_layout fw_madt_local_x2apic_nmi_layout = FW_LAYOUT("MADT local x2APIC NMI", 12, x2nmi_fields);

/* MPS INTI flags: polarity bits 1:0, trigger mode bits 3:2 (two-bit codes, not flags). */
const char *fw_madt_inti_str(uint16_t flags, char *buf, size_t len)
{
	static const char *const polarity[] = {"conforming polarity", "active high", "reserved polarity", "active low"};
	static const char *const trigger[] = {"conforming trigger", "edge", "reserved trigger", "level"};
	snprintf(buf, len, "%s, %s", polarity[flags & 3], trigger[(flags >> 2) & 3]);
	return buf;
}

const char *fw_madt_type_name(uint8_t type)
{
	static const char *const names[] = {
		"local-apic",   "io-apic",     "interrupt-override", "nmi-source",     "local-apic-nmi",
		"local-apic-override", "io-sapic", "local-sapic",   "platform-interrupt", "local-x2apic",
		"local-x2apic-nmi", "gicc",    "gicd",               "gic-msi-frame",  "gicr",
		"gic-its",      "mp-wakeup",   "core-pic",           "lio-pic",        "ht-pic",
		"eio-pic",      "msi-pic",     "bio-pic",            "lpc-pic",        "rintc",
		"imsic",        "aplic",       "plic",
	};
	if (type < sizeof(names) / sizeof(names[0]))
		return names[type];
	return type >= 0x80 ? "oem" : "reserved";
}

void *fw_acpi_madt_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_madt *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	if (!fw_view_has(v, 0, FW_MADT_HEADER_SIZE)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 0, "MADT of 0x%zx bytes is shorter than its 44-byte header", v->len);
		return m;
	}
	m->lapic_address = (uint32_t)fw_layout_get(&fw_madt_layout, v, 0, MADT_LOCAL_APIC_ADDRESS);
	m->flags = (uint32_t)fw_layout_get(&fw_madt_layout, v, 0, MADT_FLAGS);
	size_t cpu_cap = 0, ioapic_cap = 0, iso_cap = 0;
	static const struct fw_acpi_record_format fmt = {"structure", 1, 1, 1};
	struct fw_acpi_record r;
	for (size_t next = FW_MADT_HEADER_SIZE; fw_acpi_next_record(t, a, v, 0, &next, &fmt, &r);) {
		size_t off = r.offset;
		uint8_t type = (uint8_t)r.type, len = (uint8_t)r.length;
		m->type_counts[type]++;
		const struct fw_layout *l = NULL;
		switch (type) {
		case FW_MADT_LOCAL_APIC: l = &fw_madt_local_apic_layout; break;
		case FW_MADT_IO_APIC: l = &fw_madt_io_apic_layout; break;
		case FW_MADT_INTERRUPT_OVERRIDE: l = &fw_madt_interrupt_override_layout; break;
		case FW_MADT_LOCAL_X2APIC: l = &fw_madt_local_x2apic_layout; break;
		}
		if (l && len < l->size) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx has Length %u, the structure needs %u", l->name, off, len,
				     l->size);
			l = NULL;
		}
		if (l && (type == FW_MADT_LOCAL_APIC || type == FW_MADT_LOCAL_X2APIC)) {
			m->cpus = fw_acpi_grow(a, m->cpus, &cpu_cap, m->ncpus + 1, sizeof(*m->cpus));
			struct fw_madt_cpu *c = &m->cpus[m->ncpus++];
			c->offset = (uint32_t)off;
			c->type = type;
			if (type == FW_MADT_LOCAL_APIC) {
				c->apic_id = (uint32_t)fw_layout_get(l, v, off, MADT_LAPIC_ID);
				c->uid = (uint32_t)fw_layout_get(l, v, off, MADT_LAPIC_UID);
				c->flags = (uint32_t)fw_layout_get(l, v, off, MADT_LAPIC_FLAGS);
			} else {
				c->apic_id = (uint32_t)fw_layout_get(l, v, off, MADT_X2APIC_ID);
				c->uid = (uint32_t)fw_layout_get(l, v, off, MADT_X2APIC_UID);
				c->flags = (uint32_t)fw_layout_get(l, v, off, MADT_X2APIC_FLAGS);
			}
			if (c->flags & 1)
				m->cpus_enabled++;
			else if (c->flags & 2)
				m->cpus_online_capable++;
		} else if (l && type == FW_MADT_IO_APIC) {
			m->ioapics = fw_acpi_grow(a, m->ioapics, &ioapic_cap, m->nioapics + 1, sizeof(*m->ioapics));
			struct fw_madt_ioapic *io = &m->ioapics[m->nioapics++];
			io->offset = (uint32_t)off;
			io->id = (uint8_t)fw_layout_get(l, v, off, MADT_IOAPIC_ID);
			io->address = (uint32_t)fw_layout_get(l, v, off, MADT_IOAPIC_ADDRESS);
			io->gsi_base = (uint32_t)fw_layout_get(l, v, off, MADT_IOAPIC_GSI_BASE);
		} else if (l && type == FW_MADT_INTERRUPT_OVERRIDE) {
			m->overrides = fw_acpi_grow(a, m->overrides, &iso_cap, m->noverrides + 1, sizeof(*m->overrides));
			struct fw_madt_override *o = &m->overrides[m->noverrides++];
			o->offset = (uint32_t)off;
			o->bus = (uint8_t)fw_layout_get(l, v, off, MADT_ISO_BUS);
			o->source = (uint8_t)fw_layout_get(l, v, off, MADT_ISO_SOURCE_IRQ);
			o->gsi = (uint32_t)fw_layout_get(l, v, off, MADT_ISO_GSI);
			o->flags = (uint16_t)fw_layout_get(l, v, off, MADT_ISO_FLAGS);
		}
	}
	for (size_t i = 0; i < m->nioapics; i++)
		for (size_t j = 0; j < i; j++)
			if (m->ioapics[i].id == m->ioapics[j].id)
				fw_acpi_diag(t, a, FW_DIAG_WARN, m->ioapics[i].offset, "I/O APIC id %u appears twice (0x%x and 0x%x)",
					     m->ioapics[i].id, m->ioapics[j].offset, m->ioapics[i].offset);
	return m;
}

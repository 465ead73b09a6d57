/* MADT: its layout row (every structure up to the multiprocessor wakeup), the summary its view
 * writes and the model other code reads (the I/O APICs for the IVRS cross-check). */
#include "madt.h"

#include <stdio.h>
#include <string.h>

#include "acpi/fields.h"

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

/* The other structures ACPI 6.5 5.2.12 defines up to the multiprocessor wakeup, described so that
 * every one is decoded and compared; the model keeps what other code reads. */
#define HEAD {"Type", FW_FT_U8, 0, 0, 0, NULL}, {"Length", FW_FT_U8, 1, 0, 0, NULL}
static const struct fw_field nmi_source_fields[] = {
	HEAD,
	{"IntiFlags", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	{"GlobalIrq", FW_FT_U32, 4, 0, 0, NULL},
};
static const struct fw_layout nmi_source_layout = FW_LAYOUT("MADT NMI source", 8, nmi_source_fields);
static const struct fw_field lapic_nmi_fields[] = {
	HEAD,
	{"ProcessorUid", FW_FT_U8, 2, 0, FW_FF_HEX, NULL},
	{"IntiFlags", FW_FT_U16, 3, 0, FW_FF_HEX, NULL},
	{"Lint", FW_FT_U8, 5, 0, 0, NULL},
};
static const struct fw_layout lapic_nmi_layout = FW_LAYOUT("MADT local APIC NMI", 6, lapic_nmi_fields);
static const struct fw_field lapic_override_fields[] = {
	HEAD,
	{"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	{"Address", FW_FT_U64, 4, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout lapic_override_layout = FW_LAYOUT("MADT local APIC address override", 12, lapic_override_fields);
static const struct fw_field io_sapic_fields[] = {
	HEAD,
	{"IoSapicId", FW_FT_U8, 2, 0, 0, NULL},
	{"Reserved", FW_FT_U8, 3, 0, FW_FF_HIDDEN, NULL},
	{"GlobalIrqBase", FW_FT_U32, 4, 0, 0, NULL},
	{"Address", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout io_sapic_layout = FW_LAYOUT("MADT I/O SAPIC", 16, io_sapic_fields);
static const struct fw_field local_sapic_fields[] = {
	HEAD,
	{"ProcessorId", FW_FT_U8, 2, 0, 0, NULL},
	{"LocalSapicId", FW_FT_U8, 3, 0, 0, NULL},
	{"LocalSapicEid", FW_FT_U8, 4, 0, 0, NULL},
	{"Reserved", FW_FT_BYTES, 5, 3, FW_FF_HIDDEN, NULL},
	{"Flags", FW_FT_U32, 8, 0, FW_FF_FLAGS, &fw_madt_cpu_flag_names},
	{"ProcessorUid", FW_FT_U32, 12, 0, 0, NULL},
};
static const struct fw_layout local_sapic_layout = FW_LAYOUT("MADT local SAPIC", 16, local_sapic_fields);
static const struct fw_field platform_interrupt_fields[] = {
	HEAD,
	{"IntiFlags", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	{"InterruptType", FW_FT_U8, 4, 0, 0, NULL},
	{"ProcessorId", FW_FT_U8, 5, 0, 0, NULL},
	{"ProcessorEid", FW_FT_U8, 6, 0, 0, NULL},
	{"IoSapicVector", FW_FT_U8, 7, 0, 0, NULL},
	{"GlobalIrq", FW_FT_U32, 8, 0, 0, NULL},
	{"Flags", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout platform_interrupt_layout = FW_LAYOUT("MADT platform interrupt source", 16, platform_interrupt_fields);
static const struct fw_field gicc_fields[] = {
	HEAD,
	{"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	{"CpuInterfaceNumber", FW_FT_U32, 4, 0, 0, NULL},
	{"ProcessorUid", FW_FT_U32, 8, 0, 0, NULL},
	{"Flags", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	{"ParkingVersion", FW_FT_U32, 16, 0, 0, NULL},
	{"PerformanceInterrupt", FW_FT_U32, 20, 0, 0, NULL},
	{"ParkedAddress", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
	{"BaseAddress", FW_FT_U64, 32, 0, FW_FF_HEX, NULL},
	{"GicvBaseAddress", FW_FT_U64, 40, 0, FW_FF_HEX, NULL},
	{"GichBaseAddress", FW_FT_U64, 48, 0, FW_FF_HEX, NULL},
	{"VgicInterrupt", FW_FT_U32, 56, 0, 0, NULL},
	{"GicrBaseAddress", FW_FT_U64, 60, 0, FW_FF_HEX, NULL},
	{"ArmMpidr", FW_FT_U64, 68, 0, FW_FF_HEX, NULL},
	{"EfficiencyClass", FW_FT_U8, 76, 0, 0, NULL},
	{"Reserved2", FW_FT_U8, 77, 0, FW_FF_HIDDEN, NULL},
	{"SpeInterrupt", FW_FT_U16, 78, 0, 0, NULL},
};
static const struct fw_layout gicc_layout = FW_LAYOUT("MADT GIC CPU interface", 80, gicc_fields);
static const struct fw_field gicd_fields[] = {
	HEAD,
	{"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	{"GicId", FW_FT_U32, 4, 0, 0, NULL},
	{"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	{"GlobalIrqBase", FW_FT_U32, 16, 0, 0, NULL},
	{"Version", FW_FT_U8, 20, 0, 0, NULL},
};
static const struct fw_layout gicd_layout = FW_LAYOUT("MADT GIC distributor", 24, gicd_fields);
static const struct fw_field gic_msi_fields[] = {
	HEAD,
	{"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	{"MsiFrameId", FW_FT_U32, 4, 0, 0, NULL},
	{"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	{"Flags", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	{"SpiCount", FW_FT_U16, 20, 0, 0, NULL},
	{"SpiBase", FW_FT_U16, 22, 0, 0, NULL},
};
static const struct fw_layout gic_msi_layout = FW_LAYOUT("MADT GIC MSI frame", 24, gic_msi_fields);
static const struct fw_field gicr_fields[] = {
	HEAD,
	{"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	{"BaseAddress", FW_FT_U64, 4, 0, FW_FF_HEX, NULL},
	{"RangeLength", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout gicr_layout = FW_LAYOUT("MADT GIC redistributor", 16, gicr_fields);
static const struct fw_field gic_its_fields[] = {
	HEAD,
	{"Reserved", FW_FT_U16, 2, 0, FW_FF_HIDDEN, NULL},
	{"TranslationId", FW_FT_U32, 4, 0, 0, NULL},
	{"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout gic_its_layout = FW_LAYOUT("MADT GIC ITS", 20, gic_its_fields);
static const struct fw_field mp_wakeup_fields[] = {
	HEAD,
	{"MailboxVersion", FW_FT_U16, 2, 0, 0, NULL},
	{"Reserved", FW_FT_U32, 4, 0, FW_FF_HIDDEN, NULL},
	{"MailboxAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout mp_wakeup_layout = FW_LAYOUT("MADT multiprocessor wakeup", 16, mp_wakeup_fields);

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

/* The model and what the view shows beyond the bytes: the processor counts and the structure
 * count line. */
struct madt_facts {
	struct fw_madt m; /* first: t->model is the struct fw_madt */
	const char *structures;
};

/* The structures as a model (each part of the document is one), and the check the layout cannot
 * make: I/O APIC ids are unique. */
void *fw_acpi_madt_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct madt_facts *x = fw_arena_alloc(a, sizeof(*x));
	struct fw_madt *m = &x->m;
	const struct fw_acpi_doc *doc = t->doc;
	const struct fw_view *v = &t->data;
	struct fw_acpi_value lapic_room, flags_room;
	const struct fw_acpi_value *lapic = fw_acpi_part_value(&doc->parts[0], "LocalApicAddress", &lapic_room),
				   *flags = fw_acpi_part_value(&doc->parts[0], "Flags", &flags_room);
	m->lapic_address = lapic ? (uint32_t)lapic->u : 0;
	m->flags = flags ? (uint32_t)flags->u : 0;
	m->cpus = fw_arena_alloc(a, doc->nparts * sizeof(*m->cpus));
	m->ioapics = fw_arena_alloc(a, doc->nparts * sizeof(*m->ioapics));
	m->overrides = fw_arena_alloc(a, doc->nparts * sizeof(*m->overrides));
	for (size_t k = 1; k < doc->nparts; k++) {
		const struct fw_acpi_part *p = &doc->parts[k];
		const struct fw_layout *l = p->layout;
		size_t off = p->offset;
		m->type_counts[(uint8_t)p->type]++;
		if (!l || p->length < l->size)
			continue;
		if (l == &fw_madt_local_apic_layout || l == &fw_madt_local_x2apic_layout) {
			bool x2 = l == &fw_madt_local_x2apic_layout;
			struct fw_madt_cpu *c = &m->cpus[m->ncpus++];
			c->offset = (uint32_t)off;
			c->type = (uint8_t)p->type;
			c->apic_id = (uint32_t)fw_layout_get(l, v, off, x2 ? MADT_X2APIC_ID : MADT_LAPIC_ID);
			c->uid = (uint32_t)fw_layout_get(l, v, off, x2 ? MADT_X2APIC_UID : MADT_LAPIC_UID);
			c->flags = (uint32_t)fw_layout_get(l, v, off, x2 ? MADT_X2APIC_FLAGS : MADT_LAPIC_FLAGS);
			if (c->flags & FW_MADT_CPU_ENABLED)
				m->cpus_enabled++;
			else if (c->flags & FW_MADT_CPU_ONLINE_CAPABLE)
				m->cpus_online_capable++;
		} else if (l == &fw_madt_io_apic_layout) {
			struct fw_madt_ioapic *io = &m->ioapics[m->nioapics++];
			io->offset = (uint32_t)off;
			io->id = (uint8_t)fw_layout_get(l, v, off, MADT_IOAPIC_ID);
			io->address = (uint32_t)fw_layout_get(l, v, off, MADT_IOAPIC_ADDRESS);
			io->gsi_base = (uint32_t)fw_layout_get(l, v, off, MADT_IOAPIC_GSI_BASE);
		} else if (l == &fw_madt_interrupt_override_layout) {
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
	/* "structures: local-apic x96 io-apic x5", types in ascending order */
	size_t len = 16;
	for (unsigned ty = 0; ty < 256; ty++)
		len += m->type_counts[ty] ? strlen(fw_madt_type_name((uint8_t)ty)) + 16 : 0;
	char *line = fw_arena_alloc(a, len);
	size_t used = (size_t)snprintf(line, len, "structures:");
	for (unsigned ty = 0; ty < 256; ty++)
		if (m->type_counts[ty])
			used += (size_t)snprintf(line + used, len - used, " %s x%u", fw_madt_type_name((uint8_t)ty), m->type_counts[ty]);
	x->structures = line;
	return m;
}

/* ---- the view: a summary, the I/O APICs and the interrupt source overrides ---- */

static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct madt_facts *x = t->model;
	if (!x || !t->doc || part >= t->doc->nparts)
		return false;
	const struct fw_madt *m = &x->m;
	const struct fw_acpi_part *p = &t->doc->parts[part];
	if (!strcmp(name, "Structures")) {
		out->lines = &x->structures;
		out->nlines = 1;
	} else if (!strcmp(name, "CountKey")) {
		/* "local-apic"; "reserved-200" and "oem-128" for types that have no name of their own */
		const char *n = fw_madt_type_name((uint8_t)p->type);
		if (!strcmp(n, "reserved") || !strcmp(n, "oem"))
			snprintf(out->buf, sizeof(out->buf), "%s-%u", n, (unsigned)(uint8_t)p->type);
		else
			snprintf(out->buf, sizeof(out->buf), "%s", n);
		out->s = out->buf;
	} else if (!strcmp(name, "Signal")) {
		struct fw_acpi_value vr;
		const struct fw_acpi_value *v = fw_acpi_part_value(p, "Flags", &vr);
		if (!v)
			return false;
		out->s = fw_madt_inti_str((uint16_t)v->u, out->buf, sizeof(out->buf));
	} else {
		out->u = !strcmp(name, "Cpus")          ? m->ncpus
			 : !strcmp(name, "CpusEnabled") ? m->cpus_enabled
			 : !strcmp(name, "CpusOnline")  ? m->cpus_online_capable
			 : !strcmp(name, "X2apics")     ? m->type_counts[FW_MADT_LOCAL_X2APIC]
							: m->ncpus - m->cpus_enabled - m->cpus_online_capable;
	}
	return true;
}

static const struct fw_acpi_show madt_show[] = {
	{"local_apic_address", "LocalApicAddress", FW_AS_HEX, false, NULL},
	{"flags", "Flags", FW_AS_FLAGS, false, NULL},
	{"processors.total", "Cpus", FW_AS_NUMBER, false, derive},
	{"processors.enabled", "CpusEnabled", FW_AS_NUMBER, false, derive},
	{"processors.online_capable", "CpusOnline", FW_AS_NUMBER, false, derive},
	{"processors.x2apic", "X2apics", FW_AS_NUMBER, false, derive},
	{"ioapics", "MADT I/O APIC", FW_AS_PARTS, false, NULL},
	{"interrupt_overrides", "MADT interrupt source override", FW_AS_PARTS, false, NULL},
	{"structure_counts", "CountKey", FW_AS_COUNTS, false, derive},
	{NULL, "CpusDisabled", FW_AS_NUMBER, false, derive},
	{NULL, "Structures", FW_AS_TEXT, false, derive},
};
static const char *const madt_text[] = {
	"local APIC at 0x{LocalApicAddress:%08x}; flags {Flags:names}",
	"{Cpus} processors: {CpusEnabled} enabled, {CpusOnline} online-capable, {CpusDisabled} disabled ({X2apics} x2APIC entries)",
	"{*MADT I/O APIC}",
	"{*MADT interrupt source override}",
	"{*Structures}",
	NULL,
};
static const struct fw_acpi_show ioapic_show[] = {
	{"id", "IoApicId", FW_AS_NUMBER, false, NULL},
	{"address", "Address", FW_AS_HEX, false, NULL},
	{"gsi_base", "GlobalIrqBase", FW_AS_NUMBER, false, NULL},
};
static const char *const ioapic_text[] = {"I/O APIC id {IoApicId} at 0x{Address:%08x}, GSI base {GlobalIrqBase}", NULL};
static const struct fw_acpi_show iso_show[] = {
	{"bus", "Bus", FW_AS_NUMBER, false, NULL},
	{"source_irq", "SourceIrq", FW_AS_NUMBER, false, NULL},
	{"gsi", "GlobalIrq", FW_AS_NUMBER, false, NULL},
	{"flags", "Flags", FW_AS_NUMBER, false, NULL},
	{"signal", "Signal", FW_AS_TEXT, false, derive},
};
static const char *const iso_text[] = {"IRQ {SourceIrq} -> GSI {GlobalIrq} ({Signal})", NULL};
static const struct fw_acpi_shape madt_shapes[] = {
	FW_ACPI_SHAPE(&fw_madt_layout, madt_show, madt_text),
	FW_ACPI_SHAPE(&fw_madt_io_apic_layout, ioapic_show, ioapic_text),
	FW_ACPI_SHAPE(&fw_madt_interrupt_override_layout, iso_show, iso_text),
};
static const struct fw_acpi_view madt_view = FW_ACPI_VIEW(madt_shapes, NULL);
static const struct fw_acpi_subtype types[] = {
	{FW_MADT_LOCAL_APIC, &fw_madt_local_apic_layout, -1, NULL},
	{FW_MADT_IO_APIC, &fw_madt_io_apic_layout, -1, NULL},
	{FW_MADT_INTERRUPT_OVERRIDE, &fw_madt_interrupt_override_layout, -1, NULL},
	{FW_MADT_NMI_SOURCE, &nmi_source_layout, -1, NULL},
	{FW_MADT_LOCAL_APIC_NMI, &lapic_nmi_layout, -1, NULL},
	{FW_MADT_LAPIC_ADDRESS_OVERRIDE, &lapic_override_layout, -1, NULL},
	{6, &io_sapic_layout, -1, NULL},
	{7, &local_sapic_layout, -1, NULL},
	{8, &platform_interrupt_layout, -1, NULL},
	{FW_MADT_LOCAL_X2APIC, &fw_madt_local_x2apic_layout, -1, NULL},
	{FW_MADT_LOCAL_X2APIC_NMI, &fw_madt_local_x2apic_nmi_layout, -1, NULL},
	{11, &gicc_layout, -1, NULL},
	{12, &gicd_layout, -1, NULL},
	{13, &gic_msi_layout, -1, NULL},
	{14, &gicr_layout, -1, NULL},
	{15, &gic_its_layout, -1, NULL},
	{16, &mp_wakeup_layout, -1, NULL},
};
const struct fw_acpi_layout fw_acpi_madt_table = {
	.fixed = &fw_madt_layout, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"structure", 1, 1, 1}, .types = types, .ntypes = sizeof(types) / sizeof(types[0]), .view = &madt_view,
};

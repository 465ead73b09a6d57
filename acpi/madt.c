/* MADT layouts. */
#include "madt.h"

static const struct fw_named_value madt_flag_names[] = {{1, "PCAT_COMPAT"}, {0, NULL}};
static const struct fw_field madt_fields[MADT__COUNT] = {
	[MADT_LOCAL_APIC_ADDRESS] = {"LocalApicAddress", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[MADT_FLAGS] = {"Flags", FW_FT_U32, 40, 0, FW_FF_FLAGS, madt_flag_names},
};
const struct fw_layout fw_madt_layout = FW_LAYOUT("MADT header", FW_MADT_HEADER_SIZE, madt_fields);

static const struct fw_named_value cpu_flag_names[] = {{1, "Enabled"}, {2, "OnlineCapable"}, {0, NULL}};

static const struct fw_field lapic_fields[MADT_LAPIC__COUNT] = {
	[MADT_LAPIC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[MADT_LAPIC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[MADT_LAPIC_UID] = {"ProcessorUid", FW_FT_U8, 2, 0, 0, NULL},
	[MADT_LAPIC_ID] = {"ApicId", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[MADT_LAPIC_FLAGS] = {"Flags", FW_FT_U32, 4, 0, FW_FF_FLAGS, cpu_flag_names},
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
	[MADT_X2APIC_FLAGS] = {"Flags", FW_FT_U32, 8, 0, FW_FF_FLAGS, cpu_flag_names},
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

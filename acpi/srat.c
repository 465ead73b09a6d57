/* SRAT layouts. */
#include "srat.h"

static const struct fw_field srat_fields[SRAT__COUNT] = {
	[SRAT_TABLE_REVISION] = {"TableRevision", FW_FT_U32, 36, 0, 0, NULL},
	[SRAT_RESERVED] = {"Reserved", FW_FT_U64, 40, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_srat_layout = FW_LAYOUT("SRAT header", FW_SRAT_HEADER_SIZE, srat_fields);

static const struct fw_named_value cpu_flag_names[] = {{1, "Enabled"}, {0, NULL}};
static const struct fw_field apic_fields[SRAT_APIC__COUNT] = {
	[SRAT_APIC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_APIC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_APIC_PD_LO] = {"ProximityDomainLo", FW_FT_U8, 2, 0, 0, NULL},
	[SRAT_APIC_APIC_ID] = {"ApicId", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[SRAT_APIC_FLAGS] = {"Flags", FW_FT_U32, 4, 0, FW_FF_FLAGS, cpu_flag_names},
	[SRAT_APIC_SAPIC_EID] = {"LocalSapicEid", FW_FT_U8, 8, 0, FW_FF_HIDDEN, NULL},
	[SRAT_APIC_PD_HI] = {"ProximityDomainHi", FW_FT_U24, 9, 0, 0, NULL},
	[SRAT_APIC_CLOCK_DOMAIN] = {"ClockDomain", FW_FT_U32, 12, 0, 0, NULL},
};
const struct fw_layout fw_srat_apic_layout = FW_LAYOUT("SRAT processor local APIC affinity", 16, apic_fields);

static const struct fw_named_value mem_flag_names[] = {
	{FW_SRAT_MEM_ENABLED, "Enabled"}, {FW_SRAT_MEM_HOT_PLUGGABLE, "HotPluggable"},
	{FW_SRAT_MEM_NON_VOLATILE, "NonVolatile"}, {FW_SRAT_MEM_SPECIFIC_PURPOSE, "SpecificPurpose"}, {0, NULL},
};
static const struct fw_field mem_fields[SRAT_MEM__COUNT] = {
	[SRAT_MEM_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_MEM_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_MEM_PD] = {"ProximityDomain", FW_FT_U32, 2, 0, 0, NULL},
	[SRAT_MEM_BASE] = {"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	[SRAT_MEM_SIZE] = {"Length", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[SRAT_MEM_FLAGS] = {"Flags", FW_FT_U32, 28, 0, FW_FF_FLAGS, mem_flag_names},
};
const struct fw_layout fw_srat_memory_layout = FW_LAYOUT("SRAT memory affinity", 40, mem_fields);

static const struct fw_field x2apic_fields[SRAT_X2APIC__COUNT] = {
	[SRAT_X2APIC_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_X2APIC_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_X2APIC_PD] = {"ProximityDomain", FW_FT_U32, 4, 0, 0, NULL},
	[SRAT_X2APIC_ID] = {"X2ApicId", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[SRAT_X2APIC_FLAGS] = {"Flags", FW_FT_U32, 12, 0, FW_FF_FLAGS, cpu_flag_names},
	[SRAT_X2APIC_CLOCK_DOMAIN] = {"ClockDomain", FW_FT_U32, 16, 0, 0, NULL},
};
const struct fw_layout fw_srat_x2apic_layout = FW_LAYOUT("SRAT processor x2APIC affinity", 24, x2apic_fields);

static const struct fw_named_value handle_type_names[] = {{0, "ACPI"}, {1, "PCI"}, {0, NULL}};
static const struct fw_named_value gi_flag_names[] = {{1, "Enabled"}, {2, "ArchitecturalTransactions"}, {0, NULL}};
static const struct fw_field gi_fields[SRAT_GI__COUNT] = {
	[SRAT_GI_TYPE] = {"Type", FW_FT_U8, 0, 0, 0, NULL},
	[SRAT_GI_LENGTH] = {"Length", FW_FT_U8, 1, 0, 0, NULL},
	[SRAT_GI_HANDLE_TYPE] = {"DeviceHandleType", FW_FT_U8, 3, 0, FW_FF_ENUM, handle_type_names},
	[SRAT_GI_PD] = {"ProximityDomain", FW_FT_U32, 4, 0, 0, NULL},
	[SRAT_GI_HANDLE] = {"DeviceHandle", FW_FT_BYTES, 8, 16, 0, NULL},
	[SRAT_GI_FLAGS] = {"Flags", FW_FT_U32, 24, 0, FW_FF_FLAGS, gi_flag_names},
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

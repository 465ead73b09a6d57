/* FADT and FACS layouts; the FADT summary. */
#include "fadt.h"

#include <string.h>

#include "acpi/fields.h"
#include "acpi/gas.h"

static const struct fw_bitfield fw_fadt_flag_bits[] = {
	FW_FLAG("WBINVD", 0x00000001), FW_FLAG("WBINVD_FLUSH", 0x00000002), FW_FLAG("PROC_C1", 0x00000004),
	FW_FLAG("P_LVL2_UP", 0x00000008), FW_FLAG("PWR_BUTTON", 0x00000010), FW_FLAG("SLP_BUTTON", 0x00000020),
	FW_FLAG("FIX_RTC", 0x00000040), FW_FLAG("RTC_S4", 0x00000080), FW_FLAG("TMR_VAL_EXT", 0x00000100),
	FW_FLAG("DCK_CAP", 0x00000200), FW_FLAG("RESET_REG_SUP", 0x00000400), FW_FLAG("SEALED_CASE", 0x00000800),
	FW_FLAG("HEADLESS", 0x00001000), FW_FLAG("CPU_SW_SLP", 0x00002000), FW_FLAG("PCI_EXP_WAK", 0x00004000),
	FW_FLAG("USE_PLATFORM_CLOCK", 0x00008000), FW_FLAG("S4_RTC_STS_VALID", 0x00010000),
	FW_FLAG("REMOTE_POWER_ON_CAPABLE", 0x00020000), FW_FLAG("FORCE_APIC_CLUSTER_MODEL", 0x00040000),
	FW_FLAG("FORCE_APIC_PHYSICAL_DESTINATION_MODE", 0x00080000), FW_FLAG("HW_REDUCED_ACPI", 0x00100000),
	FW_FLAG("LOW_POWER_S0_IDLE_CAPABLE", 0x00200000), FW_FLAG("PERSISTENT_CPU_CACHES", 0x00400000),
};
const struct fw_bitfields fw_fadt_flag_names = FW_BITFIELDS(fw_fadt_flag_bits);
const struct fw_named_value fw_fadt_pm_profile_names[] = {
	{0, "Unspecified"}, {1, "Desktop"}, {2, "Mobile"}, {3, "Workstation"}, {4, "Enterprise Server"},
	{5, "SOHO Server"}, {6, "Appliance PC"}, {7, "Performance Server"}, {8, "Tablet"}, {0, NULL},
};

static const struct fw_bitfield fw_fadt_boot_flag_bits[] = {
	FW_FLAG("LEGACY_DEVICES", 1u << 0), FW_FLAG("8042", 1u << 1), FW_FLAG("VGA_NOT_PRESENT", 1u << 2),
	FW_FLAG("MSI_NOT_SUPPORTED", 1u << 3), FW_FLAG("PCIE_ASPM_CONTROLS", 1u << 4),
	FW_FLAG("CMOS_RTC_NOT_PRESENT", 1u << 5),
};
const struct fw_bitfields fw_fadt_boot_flag_names = FW_BITFIELDS(fw_fadt_boot_flag_bits);

static const struct fw_field fadt_fields[FADT__COUNT] = {
	[FADT_FIRMWARE_CTRL] = {"FirmwareCtrl", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[FADT_DSDT] = {"Dsdt", FW_FT_U32, 40, 0, FW_FF_HEX, NULL},
	[FADT_RESERVED1] = {"Reserved1", FW_FT_U8, 44, 0, 0, NULL},
	[FADT_PREFERRED_PM_PROFILE] = {"PreferredPmProfile", FW_FT_U8, 45, 0, FW_FF_ENUM, fw_fadt_pm_profile_names},
	[FADT_SCI_INTERRUPT] = {"SciInterrupt", FW_FT_U16, 46, 0, 0, NULL},
	[FADT_SMI_COMMAND] = {"SmiCommand", FW_FT_U32, 48, 0, FW_FF_HEX, NULL},
	[FADT_ACPI_ENABLE] = {"AcpiEnable", FW_FT_U8, 52, 0, FW_FF_HEX, NULL},
	[FADT_ACPI_DISABLE] = {"AcpiDisable", FW_FT_U8, 53, 0, FW_FF_HEX, NULL},
	[FADT_S4BIOS_REQUEST] = {"S4BiosRequest", FW_FT_U8, 54, 0, FW_FF_HEX, NULL},
	[FADT_PSTATE_CONTROL] = {"PstateControl", FW_FT_U8, 55, 0, FW_FF_HEX, NULL},
	[FADT_PM1A_EVENT_BLOCK] = {"Pm1aEventBlock", FW_FT_U32, 56, 0, FW_FF_HEX, NULL},
	[FADT_PM1B_EVENT_BLOCK] = {"Pm1bEventBlock", FW_FT_U32, 60, 0, FW_FF_HEX, NULL},
	[FADT_PM1A_CONTROL_BLOCK] = {"Pm1aControlBlock", FW_FT_U32, 64, 0, FW_FF_HEX, NULL},
	[FADT_PM1B_CONTROL_BLOCK] = {"Pm1bControlBlock", FW_FT_U32, 68, 0, FW_FF_HEX, NULL},
	[FADT_PM2_CONTROL_BLOCK] = {"Pm2ControlBlock", FW_FT_U32, 72, 0, FW_FF_HEX, NULL},
	[FADT_PM_TIMER_BLOCK] = {"PmTimerBlock", FW_FT_U32, 76, 0, FW_FF_HEX, NULL},
	[FADT_GPE0_BLOCK] = {"Gpe0Block", FW_FT_U32, 80, 0, FW_FF_HEX, NULL},
	[FADT_GPE1_BLOCK] = {"Gpe1Block", FW_FT_U32, 84, 0, FW_FF_HEX, NULL},
	[FADT_PM1_EVENT_LENGTH] = {"Pm1EventLength", FW_FT_U8, 88, 0, 0, NULL},
	[FADT_PM1_CONTROL_LENGTH] = {"Pm1ControlLength", FW_FT_U8, 89, 0, 0, NULL},
	[FADT_PM2_CONTROL_LENGTH] = {"Pm2ControlLength", FW_FT_U8, 90, 0, 0, NULL},
	[FADT_PM_TIMER_LENGTH] = {"PmTimerLength", FW_FT_U8, 91, 0, 0, NULL},
	[FADT_GPE0_BLOCK_LENGTH] = {"Gpe0BlockLength", FW_FT_U8, 92, 0, 0, NULL},
	[FADT_GPE1_BLOCK_LENGTH] = {"Gpe1BlockLength", FW_FT_U8, 93, 0, 0, NULL},
	[FADT_GPE1_BASE] = {"Gpe1Base", FW_FT_U8, 94, 0, 0, NULL},
	[FADT_CST_CONTROL] = {"CstControl", FW_FT_U8, 95, 0, FW_FF_HEX, NULL},
	[FADT_C2_LATENCY] = {"C2Latency", FW_FT_U16, 96, 0, 0, NULL},
	[FADT_C3_LATENCY] = {"C3Latency", FW_FT_U16, 98, 0, 0, NULL},
	[FADT_FLUSH_SIZE] = {"FlushSize", FW_FT_U16, 100, 0, 0, NULL},
	[FADT_FLUSH_STRIDE] = {"FlushStride", FW_FT_U16, 102, 0, 0, NULL},
	[FADT_DUTY_OFFSET] = {"DutyOffset", FW_FT_U8, 104, 0, 0, NULL},
	[FADT_DUTY_WIDTH] = {"DutyWidth", FW_FT_U8, 105, 0, 0, NULL},
	[FADT_DAY_ALARM] = {"DayAlarm", FW_FT_U8, 106, 0, 0, NULL},
	[FADT_MONTH_ALARM] = {"MonthAlarm", FW_FT_U8, 107, 0, 0, NULL},
	[FADT_CENTURY] = {"Century", FW_FT_U8, 108, 0, 0, NULL},
	[FADT_BOOT_FLAGS] = {"BootFlags", FW_FT_U16, 109, 0, FW_FF_FLAGS, &fw_fadt_boot_flag_names},
	[FADT_FLAGS] = {"Flags", FW_FT_U32, 112, 0, FW_FF_FLAGS, &fw_fadt_flag_names},
	[FADT_RESET_REGISTER] = FW_ACPI_GAS("ResetRegister", 116),
	[FADT_RESET_VALUE] = {"ResetValue", FW_FT_U8, 128, 0, FW_FF_HEX, NULL},
	[FADT_ARM_BOOT_FLAGS] = {"ArmBootFlags", FW_FT_U16, 129, 0, FW_FF_HEX, NULL},
	[FADT_MINOR_REVISION] = {"MinorRevision", FW_FT_U8, 131, 0, 0, NULL},
	[FADT_X_FIRMWARE_CTRL] = {"XFirmwareCtrl", FW_FT_U64, 132, 0, FW_FF_HEX, NULL},
	[FADT_X_DSDT] = {"XDsdt", FW_FT_U64, 140, 0, FW_FF_HEX, NULL},
	[FADT_X_PM1A_EVENT_BLOCK] = FW_ACPI_GAS("XPm1aEventBlock", 148),
	[FADT_X_PM1B_EVENT_BLOCK] = FW_ACPI_GAS("XPm1bEventBlock", 160),
	[FADT_X_PM1A_CONTROL_BLOCK] = FW_ACPI_GAS("XPm1aControlBlock", 172),
	[FADT_X_PM1B_CONTROL_BLOCK] = FW_ACPI_GAS("XPm1bControlBlock", 184),
	[FADT_X_PM2_CONTROL_BLOCK] = FW_ACPI_GAS("XPm2ControlBlock", 196),
	[FADT_X_PM_TIMER_BLOCK] = FW_ACPI_GAS("XPmTimerBlock", 208),
	[FADT_X_GPE0_BLOCK] = FW_ACPI_GAS("XGpe0Block", 220),
	[FADT_X_GPE1_BLOCK] = FW_ACPI_GAS("XGpe1Block", 232),
	[FADT_SLEEP_CONTROL] = FW_ACPI_GAS("SleepControl", 244),
	[FADT_SLEEP_STATUS] = FW_ACPI_GAS("SleepStatus", 256),
	[FADT_HYPERVISOR_ID] = {"HypervisorId", FW_FT_U64, 268, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_fadt_layout = FW_LAYOUT("FADT", FW_FADT_SIZE, fadt_fields);

static const struct fw_bitfield facs_flag_bits[] = {FW_FLAG("S4BIOS_F", 1), FW_FLAG("64BIT_WAKE_SUPPORTED_F", 2)};
static const struct fw_bitfields facs_flag_names = FW_BITFIELDS(facs_flag_bits);
static const struct fw_bitfield facs_ospm_bits[] = {{"64BIT_WAKE_F", 0, 1, NULL}};
static const struct fw_bitfields facs_ospm = FW_BITFIELDS(facs_ospm_bits);
static const struct fw_field facs_fields[FACS__COUNT] = {
	/* signature and length are the table's own (acpi/table.c) */
	[FACS_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 4, FW_FF_HIDDEN, NULL},
	[FACS_LENGTH] = {"Length", FW_FT_U32, 4, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[FACS_HARDWARE_SIGNATURE] = {"HardwareSignature", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[FACS_WAKING_VECTOR] = {"FirmwareWakingVector", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[FACS_GLOBAL_LOCK] = {"GlobalLock", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[FACS_FLAGS] = {"Flags", FW_FT_U32, 20, 0, FW_FF_FLAGS, &facs_flag_names},
	[FACS_X_WAKING_VECTOR] = {"XFirmwareWakingVector", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
	[FACS_VERSION] = {"Version", FW_FT_U8, 32, 0, 0, NULL},
	[FACS_OSPM_FLAGS] = {"OspmFlags", FW_FT_U32, 36, 0, FW_FF_BITS, .names = &facs_ospm},
};
const struct fw_layout fw_facs_layout = FW_LAYOUT("FACS", FW_FACS_SIZE, facs_fields);
const struct fw_acpi_layout fw_acpi_facs_table = {.fixed = &fw_facs_layout, .start_field = -1, .count_field = -1};

/* What the model says beyond the bytes: where the DSDT and FACS are (the 64-bit pointer wins when
 * set), and the revision from the table header. */
static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct fw_fadt *m = t->model;
	out->u = !strcmp(name, "DsdtAddress") ? m->dsdt_address : !strcmp(name, "FacsAddress") ? m->facs_address : t->revision;
	return true;
}
static const struct fw_acpi_show fadt_show[] = {
	{"minor_version", "MinorRevision", FW_AS_NUMBER, false, NULL},
	{"dsdt_address", "DsdtAddress", FW_AS_HEX, false, derive},
	{"facs_address", "FacsAddress", FW_AS_HEX, false, derive},
	{"pm_profile", "PreferredPmProfile", FW_AS_NUMBER, false, NULL},
	{"pm_profile_name", "PreferredPmProfile", FW_AS_NAME, false, NULL},
	{"sci_interrupt", "SciInterrupt", FW_AS_NUMBER, false, NULL},
	{"smi_command_port", "SmiCommand", FW_AS_HEX, false, NULL},
	{"iapc_boot_arch", "BootFlags", FW_AS_FLAGS, false, NULL},
	{"flags", "Flags", FW_AS_FLAGS, false, NULL},
	{"reset_register.space_id", "ResetRegister.SpaceId", FW_AS_NUMBER, false, NULL},
	{"reset_register.space", "ResetRegister.SpaceId", FW_AS_NAME, false, NULL},
	{"reset_register.bit_width", "ResetRegister.BitWidth", FW_AS_NUMBER, false, NULL},
	{"reset_register.address", "ResetRegister.Address", FW_AS_HEX, false, NULL},
	{"reset_register.value", "ResetValue", FW_AS_HEX, false, NULL},
	{"hypervisor_vendor_identity", "HypervisorId", FW_AS_HEX, false, NULL},
	{NULL, "Revision", FW_AS_NUMBER, false, derive},
};
static const char *const fadt_text[] = {
	"FADT version {Revision}.{MinorRevision}",
	"DSDT at 0x{DsdtAddress:%x}, FACS at 0x{FacsAddress:%x}",
	"preferred power profile: {PreferredPmProfile:name|reserved}",
	"SCI interrupt {SciInterrupt}, SMI command port {SmiCommand}",
	"flags 0x{Flags:%08x}: {Flags:names}",
	"IA-PC boot architecture 0x{BootFlags:%04x}: {BootFlags:names}",
	"{!ResetRegister.Address}reset: write 0x{ResetValue:%02x} to {ResetRegister.SpaceId:name|space?} {ResetRegister.Address}",
	"{!HypervisorId}hypervisor vendor identity {HypervisorId}",
	NULL,
};
static const struct fw_acpi_shape fadt_shapes[] = {FW_ACPI_SHAPE(&fw_fadt_layout, fadt_show, fadt_text)};
static const struct fw_acpi_view fadt_view = FW_ACPI_VIEW(fadt_shapes, NULL);
/* Revisions before 6 are shorter: their later fields are absent, not an error; below the
 * 116-byte ACPI 1.0 FADT something is wrong. */
const struct fw_acpi_layout fw_acpi_fadt_table = {
	.fixed = &fw_fadt_layout, .min_size = 116, .start_field = -1, .count_field = -1, .view = &fadt_view,
};

void *fw_acpi_fadt_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct fw_fadt *m = fw_arena_alloc(a, sizeof(*m));
	const struct fw_view *v = &t->data;
	const struct fw_layout *l = &fw_fadt_layout;
	for (unsigned i = 0; i < FADT__COUNT; i++) {
		const struct fw_field *f = &l->fields[i];
		if (f->type > FW_FT_U64 || !fw_view_has(v, f->offset, fw_field_width(f)))
			continue;
		m->present[i] = true;
		m->value[i] = fw_layout_get(l, v, 0, i);
	}
	m->dsdt_address = m->present[FADT_X_DSDT] && m->value[FADT_X_DSDT] ? m->value[FADT_X_DSDT] : m->value[FADT_DSDT];
	m->facs_address = m->present[FADT_X_FIRMWARE_CTRL] && m->value[FADT_X_FIRMWARE_CTRL] ? m->value[FADT_X_FIRMWARE_CTRL]
											     : m->value[FADT_FIRMWARE_CTRL];
	if (m->present[FADT_X_DSDT] && m->value[FADT_X_DSDT] && m->value[FADT_DSDT] &&
	    m->value[FADT_X_DSDT] != m->value[FADT_DSDT])
		fw_acpi_diag(t, a, FW_DIAG_WARN, 140, "DSDT 0x%llx and X_DSDT 0x%llx differ; X_DSDT wins",
			     (unsigned long long)m->value[FADT_DSDT], (unsigned long long)m->value[FADT_X_DSDT]);
	return m;
}

/* FADT ("FACP", ACPI 6.5 5.2.9, revision 6: 276 bytes) and FACS (5.2.10, 64 bytes, no standard
 * header and no checksum). Generic address fields are FW_ACPI_GAS structures.
 *
 * The layout row (fw_acpi_fadt_table) decodes, writes and compares every field; the model adds
 * where the DSDT and FACS are. Older revisions are shorter; a field the table does not reach is
 * absent.
 */
#ifndef FW_ACPI_FADT_H
#define FW_ACPI_FADT_H

#include "acpi/table.h"
#include "parsers/layout.h"

enum {
	FADT_FIRMWARE_CTRL,
	FADT_DSDT,
	FADT_RESERVED1,
	FADT_PREFERRED_PM_PROFILE,
	FADT_SCI_INTERRUPT,
	FADT_SMI_COMMAND,
	FADT_ACPI_ENABLE,
	FADT_ACPI_DISABLE,
	FADT_S4BIOS_REQUEST,
	FADT_PSTATE_CONTROL,
	FADT_PM1A_EVENT_BLOCK,
	FADT_PM1B_EVENT_BLOCK,
	FADT_PM1A_CONTROL_BLOCK,
	FADT_PM1B_CONTROL_BLOCK,
	FADT_PM2_CONTROL_BLOCK,
	FADT_PM_TIMER_BLOCK,
	FADT_GPE0_BLOCK,
	FADT_GPE1_BLOCK,
	FADT_PM1_EVENT_LENGTH,
	FADT_PM1_CONTROL_LENGTH,
	FADT_PM2_CONTROL_LENGTH,
	FADT_PM_TIMER_LENGTH,
	FADT_GPE0_BLOCK_LENGTH,
	FADT_GPE1_BLOCK_LENGTH,
	FADT_GPE1_BASE,
	FADT_CST_CONTROL,
	FADT_C2_LATENCY,
	FADT_C3_LATENCY,
	FADT_FLUSH_SIZE,
	FADT_FLUSH_STRIDE,
	FADT_DUTY_OFFSET,
	FADT_DUTY_WIDTH,
	FADT_DAY_ALARM,
	FADT_MONTH_ALARM,
	FADT_CENTURY,
	FADT_BOOT_FLAGS,
	FADT_FLAGS,
	FADT_RESET_REGISTER,
	FADT_RESET_VALUE,
	FADT_ARM_BOOT_FLAGS,
	FADT_MINOR_REVISION,
	FADT_X_FIRMWARE_CTRL,
	FADT_X_DSDT,
	FADT_X_PM1A_EVENT_BLOCK,
	FADT_X_PM1B_EVENT_BLOCK,
	FADT_X_PM1A_CONTROL_BLOCK,
	FADT_X_PM1B_CONTROL_BLOCK,
	FADT_X_PM2_CONTROL_BLOCK,
	FADT_X_PM_TIMER_BLOCK,
	FADT_X_GPE0_BLOCK,
	FADT_X_GPE1_BLOCK,
	FADT_SLEEP_CONTROL,
	FADT_SLEEP_STATUS,
	FADT_HYPERVISOR_ID,
	FADT__COUNT
};
extern const struct fw_layout fw_fadt_layout;
#define FW_FADT_SIZE 276

/* FADT Flags (fixed feature flags) */
#define FW_FADT_WBINVD 0x00000001u
#define FW_FADT_PROC_C1 0x00000004u
#define FW_FADT_P_LVL2_UP 0x00000008u
#define FW_FADT_PWR_BUTTON 0x00000010u
#define FW_FADT_SLP_BUTTON 0x00000020u
#define FW_FADT_RTC_S4 0x00000080u
#define FW_FADT_TMR_VAL_EXT 0x00000100u
#define FW_FADT_RESET_REG_SUP 0x00000400u
#define FW_FADT_REMOTE_POWER_ON 0x00020000u
#define FW_FADT_FORCE_APIC_PHYSICAL 0x00080000u
extern const struct fw_bitfields fw_fadt_flag_names;

enum { FACS_SIGNATURE, FACS_LENGTH, FACS_HARDWARE_SIGNATURE, FACS_WAKING_VECTOR, FACS_GLOBAL_LOCK, FACS_FLAGS,
       FACS_X_WAKING_VECTOR, FACS_VERSION, FACS_OSPM_FLAGS, FACS__COUNT };
extern const struct fw_layout fw_facs_layout;
#define FW_FACS_SIZE 64

extern const struct fw_bitfields fw_fadt_boot_flag_names; /* IA-PC boot architecture flags */
extern const struct fw_named_value fw_fadt_pm_profile_names[];

struct fw_fadt {
	bool present[FADT__COUNT]; /* the table reaches the field */
	uint64_t value[FADT__COUNT]; /* integer fields */
	uint64_t dsdt_address;     /* X_DSDT when non-zero, else DSDT */
	uint64_t facs_address;     /* X_FIRMWARE_CTRL when non-zero, else FIRMWARE_CTRL */
};

void *fw_acpi_fadt_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif

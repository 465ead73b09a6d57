/* HPET description table (IA-PC HPET specification 1.0a, 3.2.4). */
#include "hpet.h"

#include "acpi/fields.h"
#include "acpi/gas.h"

/* Event Timer Block ID: a copy of the timer block's capabilities register, low half. */
static const struct fw_bitfield block_id_bits[] = {
	{"HardwareRevision", 0, 8, NULL}, {"LastComparator", 8, 5, NULL},  {"CounterSize64", 13, 1, NULL},
	{"LegacyReplacement", 15, 1, NULL}, {"VendorId", 16, 16, NULL},
};
static const struct fw_bitfields block_id = FW_BITFIELDS(block_id_bits);
/* 0 no guarantee, 1 4 KiB, 2 64 KiB of protected space after the block */
static const struct fw_bitfield protection_bits[] = {{"PageProtection", 0, 4, NULL}, {"OemAttributes", 4, 4, NULL}};
static const struct fw_bitfields protection = FW_BITFIELDS(protection_bits);

static const struct fw_field hpet_fields[HPET__COUNT] = {
	[HPET_BLOCK_ID] = {"EventTimerBlockId", FW_FT_U32, 36, 0, FW_FF_BITS, .names = &block_id},
	[HPET_ADDRESS] = FW_ACPI_GAS("Address", 40),
	[HPET_NUMBER] = {"HpetNumber", FW_FT_U8, 52, 0, 0, NULL},
	[HPET_MINIMUM_TICK] = {"MinimumTick", FW_FT_U16, 53, 0, 0, NULL},
	[HPET_PAGE_PROTECTION] = {"PageProtection", FW_FT_U8, 55, 0, FW_FF_BITS, .names = &protection},
};
const struct fw_layout fw_hpet_layout = FW_LAYOUT("HPET table", FW_HPET_SIZE, hpet_fields);

const struct fw_acpi_layout fw_acpi_hpet_table = {.fixed = &fw_hpet_layout, .start_field = -1, .count_field = -1};

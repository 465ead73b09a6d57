/* PCCT, the Platform Communications Channel Table (ACPI 6.5 14.1): shared-memory mailboxes
 * between the OS and platform controllers (CPPC, RAS, BMC). Subspace types 0-2 are described;
 * the extended types (3, 4) and later ones are listed with their type and length. */
#include "acpi/fields.h"
#include "acpi/gas.h"

static const struct fw_bitfield pcct_flag_bits[] = {{"PlatformInterrupt", 0, 1, NULL}};
static const struct fw_bitfields pcct_flags = FW_BITFIELDS(pcct_flag_bits);
static const struct fw_field pcct_fields[] = {
	{"Flags", FW_FT_U32, 36, 0, FW_FF_BITS, .names = &pcct_flags},
};
static const struct fw_layout pcct = FW_LAYOUT("PCCT", 48, pcct_fields);

/* The fields every subspace of types 0-2 has after its first 8 bytes. */
#define SUBSPACE_COMMON                                                                                        \
	{"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL}, {"AddressLength", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},   \
		FW_ACPI_GAS("DoorbellRegister", 24), {"PreserveMask", FW_FT_U64, 36, 0, FW_FF_HEX, NULL},       \
		{"WriteMask", FW_FT_U64, 44, 0, FW_FF_HEX, NULL}, {"CommandLatency", FW_FT_U32, 52, 0, 0, NULL}, \
		{"MaximumAccessRate", FW_FT_U32, 56, 0, 0, NULL}, {"MinimumTurnaroundTime", FW_FT_U16, 60, 0, 0, NULL}

static const struct fw_bitfield interrupt_flag_bits[] = {{"ActiveLow", 0, 1, NULL}, {"EdgeTriggered", 1, 1, NULL}};
static const struct fw_bitfields interrupt_flags = FW_BITFIELDS(interrupt_flag_bits);

static const struct fw_field generic_fields[] = {
	{"Type", FW_FT_U8, 0, 0, 0, NULL},
	{"Length", FW_FT_U8, 1, 0, 0, NULL},
	SUBSPACE_COMMON,
};
static const struct fw_layout generic = FW_LAYOUT("generic communications subspace", 62, generic_fields);
static const struct fw_field reduced1_fields[] = {
	{"Type", FW_FT_U8, 0, 0, 0, NULL},
	{"Length", FW_FT_U8, 1, 0, 0, NULL},
	{"PlatformInterrupt", FW_FT_U32, 2, 0, 0, NULL},
	{"InterruptFlags", FW_FT_U8, 6, 0, FW_FF_BITS, .names = &interrupt_flags},
	SUBSPACE_COMMON,
};
static const struct fw_layout reduced1 = FW_LAYOUT("HW-reduced communications subspace", 62, reduced1_fields);
static const struct fw_field reduced2_fields[] = {
	{"Type", FW_FT_U8, 0, 0, 0, NULL},
	{"Length", FW_FT_U8, 1, 0, 0, NULL},
	{"PlatformInterrupt", FW_FT_U32, 2, 0, 0, NULL},
	{"InterruptFlags", FW_FT_U8, 6, 0, FW_FF_BITS, .names = &interrupt_flags},
	SUBSPACE_COMMON,
	FW_ACPI_GAS("PlatformAckRegister", 62),
	{"AckPreserveMask", FW_FT_U64, 74, 0, FW_FF_HEX, NULL},
	{"AckWriteMask", FW_FT_U64, 82, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout reduced2 = FW_LAYOUT("HW-reduced communications subspace 2", 90, reduced2_fields);
static const struct fw_acpi_subtype types[] = {{0, &generic, -1, NULL}, {1, &reduced1, -1, NULL}, {2, &reduced2, -1, NULL}};

const struct fw_acpi_layout fw_acpi_pcct_table = {
	.fixed = &pcct, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"subspace", 1, 1, 1}, .types = types, .ntypes = 3,
};

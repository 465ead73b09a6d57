/* HEST, the Hardware Error Source Table (ACPI 6.5 18.3.2): every source of hardware errors and
 * how the OS learns of them. Error sources have no length field: the type fixes the size, and
 * machine-check sources are followed by their banks. */
#include "acpi/fields.h"
#include "acpi/gas.h"

enum { HEST_COUNT };
static const struct fw_field hest_fields[] = {
	[HEST_COUNT] = {"ErrorSourceCount", FW_FT_U32, 36, 0, 0, NULL},
};
static const struct fw_layout hest = FW_LAYOUT("HEST", 40, hest_fields);

static const struct fw_bitfield source_flag_bits[] = {{"FirmwareFirst", 0, 1, NULL}, {"Global", 1, 1, NULL}, {"GhesAssist", 2, 1, NULL}};
static const struct fw_bitfields source_flags = FW_BITFIELDS(source_flag_bits);

/* Hardware error notification structure (28 bytes) */
static const struct fw_named_value notify_types[] = {
	{0, "Polled"}, {1, "External"}, {2, "Local"}, {3, "SCI"}, {4, "NMI"}, {5, "CMCI"}, {6, "MCE"}, {7, "GPIO"},
	{8, "SEA"}, {9, "SEI"}, {10, "GSIV"}, {11, "Software Delegated"}, {0, NULL},
};
static const struct fw_bitfield notify_config_bits[] = {
	{"Type", 0, 1, NULL}, {"PollInterval", 1, 1, NULL}, {"SwitchToPollingThresholdValue", 2, 1, NULL},
	{"SwitchToPollingThresholdWindow", 3, 1, NULL}, {"ErrorThresholdValue", 4, 1, NULL}, {"ErrorThresholdWindow", 5, 1, NULL},
};
static const struct fw_bitfields notify_config = FW_BITFIELDS(notify_config_bits);
static const struct fw_field notify_fields[] = {
	{"Type", FW_FT_U8, 0, 0, FW_FF_ENUM, notify_types},
	{"Length", FW_FT_U8, 1, 0, 0, NULL},
	{"ConfigWriteEnable", FW_FT_U16, 2, 0, FW_FF_BITS, .names = &notify_config},
	{"PollInterval", FW_FT_U32, 4, 0, 0, NULL},
	{"Vector", FW_FT_U32, 8, 0, 0, NULL},
	{"PollingThresholdValue", FW_FT_U32, 12, 0, 0, NULL},
	{"PollingThresholdWindow", FW_FT_U32, 16, 0, 0, NULL},
	{"ErrorThresholdValue", FW_FT_U32, 20, 0, 0, NULL},
	{"ErrorThresholdWindow", FW_FT_U32, 24, 0, 0, NULL},
};
static const struct fw_layout notify = FW_LAYOUT("hardware error notification", 28, notify_fields);
#define NOTIFY(off) {"Notify", FW_FT_STRUCT, off, 28, 0, .names = &notify}

/* IA-32 machine check error bank (28 bytes) */
static const struct fw_field bank_fields[] = {
	{"BankNumber", FW_FT_U8, 0, 0, 0, NULL},
	{"ClearStatusOnInit", FW_FT_U8, 1, 0, 0, NULL},
	{"StatusFormat", FW_FT_U8, 2, 0, 0, NULL},
	{"ControlRegister", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	{"ControlData", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},
	{"StatusRegister", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	{"AddressRegister", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	{"MiscRegister", FW_FT_U32, 24, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout bank = FW_LAYOUT("machine check bank", 28, bank_fields);

/* The first 16 bytes of every source but NMI and the generic ones. */
#define SOURCE_HEAD                                                                                            \
	{"Type", FW_FT_U16, 0, 0, 0, NULL}, {"SourceId", FW_FT_U16, 2, 0, 0, NULL},                               \
		{"Flags", FW_FT_U8, 6, 0, FW_FF_BITS, .names = &source_flags}, {"Enabled", FW_FT_U8, 7, 0, 0, NULL}, \
		{"RecordsToPreallocate", FW_FT_U32, 8, 0, 0, NULL}, {"MaxSectionsPerRecord", FW_FT_U32, 12, 0, 0, NULL}

enum { MCE_HEAD = 6, MCE_GLOBAL_CAPABILITY = 6, MCE_GLOBAL_CONTROL, MCE_BANKS };
static const struct fw_field mce_fields[] = {
	SOURCE_HEAD,
	[MCE_GLOBAL_CAPABILITY] = {"GlobalCapabilityData", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[MCE_GLOBAL_CONTROL] = {"GlobalControlData", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
	[MCE_BANKS] = {"NumHardwareBanks", FW_FT_U8, 32, 0, 0, NULL},
};
static const struct fw_layout mce = FW_LAYOUT("IA-32 machine check", 40, mce_fields);
enum { CMC_NOTIFY = 6, CMC_BANKS };
static const struct fw_field cmc_fields[] = {
	SOURCE_HEAD,
	[CMC_NOTIFY] = NOTIFY(16),
	[CMC_BANKS] = {"NumHardwareBanks", FW_FT_U8, 44, 0, 0, NULL},
};
static const struct fw_layout cmc = FW_LAYOUT("IA-32 corrected machine check", 48, cmc_fields);
static const struct fw_layout deferred = FW_LAYOUT("IA-32 deferred machine check", 48, cmc_fields);
static const struct fw_field nmi_fields[] = {
	{"Type", FW_FT_U16, 0, 0, 0, NULL},
	{"SourceId", FW_FT_U16, 2, 0, 0, NULL},
	{"RecordsToPreallocate", FW_FT_U32, 8, 0, 0, NULL},
	{"MaxSectionsPerRecord", FW_FT_U32, 12, 0, 0, NULL},
	{"MaxRawDataLength", FW_FT_U32, 16, 0, 0, NULL},
};
static const struct fw_layout nmi = FW_LAYOUT("IA-32 NMI", 20, nmi_fields);

/* PCI Express AER sources share their first 44 bytes. */
#define AER_COMMON                                                                                                \
	SOURCE_HEAD, {"Bus", FW_FT_U32, 16, 0, 0, NULL}, {"Device", FW_FT_U16, 20, 0, 0, NULL},                        \
		{"Function", FW_FT_U16, 22, 0, 0, NULL}, {"DeviceControl", FW_FT_U16, 24, 0, FW_FF_HEX, NULL},          \
		{"UncorrectableErrorMask", FW_FT_U32, 28, 0, FW_FF_HEX, NULL},                                       \
		{"UncorrectableErrorSeverity", FW_FT_U32, 32, 0, FW_FF_HEX, NULL},                                   \
		{"CorrectableErrorMask", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},                                         \
		{"AdvancedErrorCapabilities", FW_FT_U32, 40, 0, FW_FF_HEX, NULL}
static const struct fw_field aer_root_fields[] = {
	AER_COMMON,
	{"RootErrorCommand", FW_FT_U32, 44, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout aer_root = FW_LAYOUT("PCI Express root port AER", 48, aer_root_fields);
static const struct fw_field aer_endpoint_fields[] = {AER_COMMON};
static const struct fw_layout aer_endpoint = FW_LAYOUT("PCI Express device AER", 44, aer_endpoint_fields);
static const struct fw_field aer_bridge_fields[] = {
	AER_COMMON,
	{"SecondaryUncorrectableErrorMask", FW_FT_U32, 44, 0, FW_FF_HEX, NULL},
	{"SecondaryUncorrectableErrorSeverity", FW_FT_U32, 48, 0, FW_FF_HEX, NULL},
	{"SecondaryAdvancedErrorCapabilities", FW_FT_U32, 52, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout aer_bridge = FW_LAYOUT("PCI Express bridge AER", 56, aer_bridge_fields);

/* Generic hardware error source: its error status block is in memory at an address read from a
 * register. */
#define GENERIC_COMMON                                                                                          \
	{"Type", FW_FT_U16, 0, 0, 0, NULL}, {"SourceId", FW_FT_U16, 2, 0, 0, NULL},                               \
		{"RelatedSourceId", FW_FT_U16, 4, 0, 0, NULL}, {"Enabled", FW_FT_U8, 7, 0, 0, NULL},                 \
		{"RecordsToPreallocate", FW_FT_U32, 8, 0, 0, NULL}, {"MaxSectionsPerRecord", FW_FT_U32, 12, 0, 0, NULL}, \
		{"MaxRawDataLength", FW_FT_U32, 16, 0, 0, NULL}, FW_ACPI_GAS("ErrorStatusAddress", 20), NOTIFY(32), \
		{"ErrorStatusBlockLength", FW_FT_U32, 60, 0, 0, NULL}
static const struct fw_field generic_fields[] = {GENERIC_COMMON};
static const struct fw_layout generic = FW_LAYOUT("generic hardware error source", 64, generic_fields);
static const struct fw_field generic2_fields[] = {
	GENERIC_COMMON,
	FW_ACPI_GAS("ReadAckRegister", 64),
	{"ReadAckPreserve", FW_FT_U64, 76, 0, FW_FF_HEX, NULL},
	{"ReadAckWrite", FW_FT_U64, 84, 0, FW_FF_HEX, NULL},
};
static const struct fw_layout generic2 = FW_LAYOUT("generic hardware error source 2", 92, generic2_fields);

static const struct fw_acpi_subtype types[] = {
	{0, &mce, MCE_BANKS, &bank},      {1, &cmc, CMC_BANKS, &bank},       {2, &nmi, -1, NULL},
	{6, &aer_root, -1, NULL},         {7, &aer_endpoint, -1, NULL},      {8, &aer_bridge, -1, NULL},
	{9, &generic, -1, NULL},          {10, &generic2, -1, NULL},         {11, &deferred, CMC_BANKS, &bank},
};

const struct fw_acpi_layout fw_acpi_hest_table = {
	.fixed = &hest, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = HEST_COUNT,
	.records = {"error source", 2, 0, 0}, .types = types, .ntypes = sizeof(types) / sizeof(types[0]),
};

/* EINJ, the Error Injection table (ACPI 6.5 18.6), and ERST, the Error Record Serialization
 * Table (18.5): both are lists of the same 32-byte instruction entries (an action, a register
 * instruction on a generic address, a value and a mask) after a short fixed part; only the
 * names of the actions and instructions differ. */
#include "acpi/fields.h"
#include "acpi/gas.h"

static const struct fw_bitfield entry_flag_bits[] = {{"PreserveRegister", 0, 1, NULL}};
static const struct fw_bitfields entry_flags = FW_BITFIELDS(entry_flag_bits);
#define INSTRUCTION_ENTRY(actions, instructions)                                                              \
	{"Action", FW_FT_U8, 0, 0, FW_FF_ENUM, actions}, {"Instruction", FW_FT_U8, 1, 0, FW_FF_ENUM, instructions}, \
		{"Flags", FW_FT_U8, 2, 0, FW_FF_BITS, .names = &entry_flags}, FW_ACPI_GAS("RegisterRegion", 4),      \
		{"Value", FW_FT_U64, 16, 0, FW_FF_HEX, NULL}, {"Mask", FW_FT_U64, 24, 0, FW_FF_HEX, NULL}

/* --- EINJ --- */
enum { EINJ_HEADER_LENGTH, EINJ_FLAGS, EINJ_ENTRIES };
static const struct fw_field einj_fields[] = {
	[EINJ_HEADER_LENGTH] = {"InjectionHeaderSize", FW_FT_U32, 36, 0, 0, NULL},
	[EINJ_FLAGS] = {"Flags", FW_FT_U8, 40, 0, FW_FF_HEX, NULL},
	[EINJ_ENTRIES] = {"InjectionEntryCount", FW_FT_U32, 44, 0, 0, NULL},
};
static const struct fw_layout einj = FW_LAYOUT("EINJ", 48, einj_fields);

static const struct fw_named_value einj_actions[] = {
	{0x00, "BEGIN_INJECTION_OPERATION"}, {0x01, "GET_TRIGGER_ERROR_ACTION_TABLE"}, {0x02, "SET_ERROR_TYPE"},
	{0x03, "GET_ERROR_TYPE"}, {0x04, "END_OPERATION"}, {0x05, "EXECUTE_OPERATION"}, {0x06, "CHECK_BUSY_STATUS"},
	{0x07, "GET_COMMAND_STATUS"}, {0x08, "SET_ERROR_TYPE_WITH_ADDRESS"}, {0x09, "GET_EXECUTE_OPERATION_TIMINGS"},
	{0xFF, "TRIGGER_ERROR"}, {0, NULL},
};
static const struct fw_named_value einj_instructions[] = {
	{0, "READ_REGISTER"}, {1, "READ_REGISTER_VALUE"}, {2, "WRITE_REGISTER"}, {3, "WRITE_REGISTER_VALUE"}, {4, "NOOP"}, {0, NULL},
};

static const struct fw_field einj_entry_fields[] = {INSTRUCTION_ENTRY(einj_actions, einj_instructions)};
static const struct fw_layout einj_entry = FW_LAYOUT("injection instruction", 32, einj_entry_fields);

const struct fw_acpi_layout fw_acpi_einj_table = {
	.fixed = &einj, .rest = FW_ACPI_REST_ENTRIES, .start_field = -1, .count_field = EINJ_ENTRIES, .entry = &einj_entry,
};

/* --- ERST --- */
enum { ERST_HEADER_LENGTH, ERST_ENTRIES };
static const struct fw_field erst_fields[] = {
	[ERST_HEADER_LENGTH] = {"SerializationHeaderSize", FW_FT_U32, 36, 0, 0, NULL},
	[ERST_ENTRIES] = {"InstructionEntryCount", FW_FT_U32, 44, 0, 0, NULL},
};
static const struct fw_layout erst = FW_LAYOUT("ERST", 48, erst_fields);

static const struct fw_named_value erst_actions[] = {
	{0x00, "BEGIN_WRITE_OPERATION"}, {0x01, "BEGIN_READ_OPERATION"}, {0x02, "BEGIN_CLEAR_OPERATION"},
	{0x03, "END_OPERATION"}, {0x04, "SET_RECORD_OFFSET"}, {0x05, "EXECUTE_OPERATION"}, {0x06, "CHECK_BUSY_STATUS"},
	{0x07, "GET_COMMAND_STATUS"}, {0x08, "GET_RECORD_IDENTIFIER"}, {0x09, "SET_RECORD_IDENTIFIER"},
	{0x0A, "GET_RECORD_COUNT"}, {0x0B, "BEGIN_DUMMY_WRITE_OPERATION"}, {0x0D, "GET_ERROR_LOG_ADDRESS_RANGE"},
	{0x0E, "GET_ERROR_LOG_ADDRESS_RANGE_LENGTH"}, {0x0F, "GET_ERROR_LOG_ADDRESS_RANGE_ATTRIBUTES"},
	{0x10, "GET_EXECUTE_OPERATION_TIMINGS"}, {0, NULL},
};
static const struct fw_named_value erst_instructions[] = {
	{0x00, "READ_REGISTER"}, {0x01, "READ_REGISTER_VALUE"}, {0x02, "WRITE_REGISTER"}, {0x03, "WRITE_REGISTER_VALUE"},
	{0x04, "NOOP"}, {0x05, "LOAD_VAR1"}, {0x06, "LOAD_VAR2"}, {0x07, "STORE_VAR1"}, {0x08, "ADD"}, {0x09, "SUBTRACT"},
	{0x0A, "ADD_VALUE"}, {0x0B, "SUBTRACT_VALUE"}, {0x0C, "STALL"}, {0x0D, "STALL_WHILE_TRUE"},
	{0x0E, "SKIP_NEXT_INSTRUCTION_IF_TRUE"}, {0x0F, "GOTO"}, {0x10, "SET_SRC_ADDRESS_BASE"},
	{0x11, "SET_DST_ADDRESS_BASE"}, {0x12, "MOVE_DATA"}, {0, NULL},
};

static const struct fw_field erst_entry_fields[] = {INSTRUCTION_ENTRY(erst_actions, erst_instructions)};
static const struct fw_layout erst_entry = FW_LAYOUT("serialization instruction", 32, erst_entry_fields);

const struct fw_acpi_layout fw_acpi_erst_table = {
	.fixed = &erst, .rest = FW_ACPI_REST_ENTRIES, .start_field = -1, .count_field = ERST_ENTRIES, .entry = &erst_entry,
};

/* IFR opcode table: each row points at its layout (ifr-layout.c), whose size is the smallest valid
 * encoding (reference/ifr.md 2.2); the comment gives that length. The expression
 * column follows SetupBrowser IsExpressionOpCode: READ and WRITE are scopes holding an expression,
 * not expression opcodes themselves. */
#include "ifr-opcodes.h"

#include <stddef.h>

#define OP(code, nm, layout, tail, expr, q) [code] = {nm, layout, tail, expr, q}

static const struct fw_ifr_opcode_info table[FW_IFR_OPCODE_MAX + 1] = {
	OP(0x01, "Form", &fw_ifr_form_layout, 0, false, false),  /* 6 */
	OP(0x02, "Subtitle", &fw_ifr_subtitle_layout, 0, false, false),  /* 7 */
	OP(0x03, "Text", &fw_ifr_text_layout, 0, false, false),  /* 8 */
	OP(0x04, "Image", &fw_ifr_image_layout, 0, false, false),  /* 4 */
	OP(0x05, "OneOf", &fw_ifr_numeric_layouts[0], 0, false, true),  /* 17 */
	OP(0x06, "CheckBox", &fw_ifr_checkbox_layout, 0, false, true),  /* 14 */
	OP(0x07, "Numeric", &fw_ifr_numeric_layouts[0], 0, false, true),  /* 17 */
	OP(0x08, "Password", &fw_ifr_password_layout, 0, false, true),  /* 17 */
	OP(0x09, "OneOfOption", &fw_ifr_one_of_option_layout, 0, false, false),  /* 6 */
	OP(0x0A, "SuppressIf", NULL, 0, false, false),  /* 2 */
	OP(0x0B, "Locked", NULL, 0, false, false),  /* 2 */
	OP(0x0C, "Action", &fw_ifr_action_layout, 0, false, true),  /* 13 */
	OP(0x0D, "ResetButton", &fw_ifr_reset_button_layout, 0, false, false),  /* 8 */
	OP(0x0E, "FormSet", &fw_ifr_form_set_layout, 0, false, false),  /* 23 */
	OP(0x0F, "Ref", &fw_ifr_ref_layout, 0, false, true),  /* 13 */
	OP(0x10, "NoSubmitIf", &fw_ifr_error_layout, 0, false, false),  /* 4 */
	OP(0x11, "InconsistentIf", &fw_ifr_error_layout, 0, false, false),  /* 4 */
	OP(0x12, "EqIdVal", &fw_ifr_eq_id_val_layout, 0, true, false),  /* 6 */
	OP(0x13, "EqIdId", &fw_ifr_eq_id_id_layout, 0, true, false),  /* 6 */
	OP(0x14, "EqIdValList", &fw_ifr_eq_id_val_list_layout, 0, true, false),  /* 6 */
	OP(0x15, "And", NULL, 0, true, false),  /* 2 */
	OP(0x16, "Or", NULL, 0, true, false),  /* 2 */
	OP(0x17, "Not", NULL, 0, true, false),  /* 2 */
	OP(0x18, "Rule", &fw_ifr_rule_layout, 0, false, false),  /* 3 */
	OP(0x19, "GrayOutIf", NULL, 0, false, false),  /* 2 */
	OP(0x1A, "Date", &fw_ifr_date_time_layout, 0, false, true),  /* 14 */
	OP(0x1B, "Time", &fw_ifr_date_time_layout, 0, false, true),  /* 14 */
	OP(0x1C, "String", &fw_ifr_string_layout, 0, false, true),  /* 16 */
	OP(0x1D, "Refresh", &fw_ifr_refresh_layout, 0, false, false),  /* 3 */
	OP(0x1E, "DisableIf", NULL, 0, false, false),  /* 2 */
	OP(0x1F, "Animation", &fw_ifr_animation_layout, 0, false, false),  /* 4 */
	OP(0x20, "ToLower", NULL, 0, true, false),  /* 2 */
	OP(0x21, "ToUpper", NULL, 0, true, false),  /* 2 */
	OP(0x22, "Map", NULL, 0, true, false),  /* 2 */
	OP(0x23, "OrderedList", &fw_ifr_ordered_list_layout, 0, false, true),  /* 15 */
	OP(0x24, "VarStore", &fw_ifr_varstore_layout, 1, false, false),  /* 23 */
	OP(0x25, "VarStoreNameValue", &fw_ifr_varstore_name_value_layout, 0, false, false),  /* 20 */
	OP(0x26, "VarStoreEfi", &fw_ifr_varstore_efi_layout, 0, false, false),  /* 24 */
	OP(0x27, "VarStoreDevice", &fw_ifr_varstore_device_layout, 0, false, false),  /* 4 */
	OP(0x28, "Version", NULL, 0, true, false),  /* 2 */
	OP(0x29, "End", NULL, 0, false, false),  /* 2 */
	OP(0x2A, "Match", NULL, 0, true, false),  /* 2 */
	OP(0x2B, "Get", &fw_ifr_get_set_layout, 0, true, false),  /* 7 */
	OP(0x2C, "Set", &fw_ifr_get_set_layout, 0, true, false),  /* 7 */
	OP(0x2D, "Read", NULL, 0, false, false),  /* 2 */
	OP(0x2E, "Write", NULL, 0, false, false),  /* 2 */
	OP(0x2F, "Equal", NULL, 0, true, false),  /* 2 */
	OP(0x30, "NotEqual", NULL, 0, true, false),  /* 2 */
	OP(0x31, "GreaterThan", NULL, 0, true, false),  /* 2 */
	OP(0x32, "GreaterEqual", NULL, 0, true, false),  /* 2 */
	OP(0x33, "LessThan", NULL, 0, true, false),  /* 2 */
	OP(0x34, "LessEqual", NULL, 0, true, false),  /* 2 */
	OP(0x35, "BitwiseAnd", NULL, 0, true, false),  /* 2 */
	OP(0x36, "BitwiseOr", NULL, 0, true, false),  /* 2 */
	OP(0x37, "BitwiseNot", NULL, 0, true, false),  /* 2 */
	OP(0x38, "ShiftLeft", NULL, 0, true, false),  /* 2 */
	OP(0x39, "ShiftRight", NULL, 0, true, false),  /* 2 */
	OP(0x3A, "Add", NULL, 0, true, false),  /* 2 */
	OP(0x3B, "Subtract", NULL, 0, true, false),  /* 2 */
	OP(0x3C, "Multiply", NULL, 0, true, false),  /* 2 */
	OP(0x3D, "Divide", NULL, 0, true, false),  /* 2 */
	OP(0x3E, "Modulo", NULL, 0, true, false),  /* 2 */
	OP(0x3F, "RuleRef", &fw_ifr_rule_layout, 0, true, false),  /* 3 */
	OP(0x40, "QuestionRef1", &fw_ifr_question_ref1_layout, 0, true, false),  /* 4 */
	OP(0x41, "QuestionRef2", NULL, 0, true, false),  /* 2 */
	OP(0x42, "Uint8", &fw_ifr_uint_layouts[0], 0, true, false),  /* 3 */
	OP(0x43, "Uint16", &fw_ifr_uint_layouts[1], 0, true, false),  /* 4 */
	OP(0x44, "Uint32", &fw_ifr_uint_layouts[2], 0, true, false),  /* 6 */
	OP(0x45, "Uint64", &fw_ifr_uint_layouts[3], 0, true, false),  /* 10 */
	OP(0x46, "True", NULL, 0, true, false),  /* 2 */
	OP(0x47, "False", NULL, 0, true, false),  /* 2 */
	OP(0x48, "ToUint", NULL, 0, true, false),  /* 2 */
	OP(0x49, "ToString", &fw_ifr_format_layout, 0, true, false),  /* 3 */
	OP(0x4A, "ToBoolean", NULL, 0, true, false),  /* 2 */
	OP(0x4B, "Mid", NULL, 0, true, false),  /* 2 */
	OP(0x4C, "Find", &fw_ifr_format_layout, 0, true, false),  /* 3 */
	OP(0x4D, "Token", NULL, 0, true, false),  /* 2 */
	OP(0x4E, "StringRef1", &fw_ifr_string_ref1_layout, 0, true, false),  /* 4 */
	OP(0x4F, "StringRef2", NULL, 0, true, false),  /* 2 */
	OP(0x50, "Conditional", NULL, 0, true, false),  /* 2 */
	OP(0x51, "QuestionRef3", &fw_ifr_question_ref3_layout, 0, true, false),  /* 2 */
	OP(0x52, "Zero", NULL, 0, true, false),  /* 2 */
	OP(0x53, "One", NULL, 0, true, false),  /* 2 */
	OP(0x54, "Ones", NULL, 0, true, false),  /* 2 */
	OP(0x55, "Undefined", NULL, 0, true, false),  /* 2 */
	OP(0x56, "Length", NULL, 0, true, false),  /* 2 */
	OP(0x57, "Dup", NULL, 0, true, false),  /* 2 */
	OP(0x58, "This", NULL, 0, true, false),  /* 2 */
	OP(0x59, "Span", &fw_ifr_span_layout, 0, true, false),  /* 3 */
	OP(0x5A, "Value", NULL, 0, false, false),  /* 2 */
	OP(0x5B, "Default", &fw_ifr_default_layout, 0, false, false),  /* 5 */
	OP(0x5C, "DefaultStore", &fw_ifr_defaultstore_layout, 0, false, false),  /* 6 */
	OP(0x5D, "FormMap", &fw_ifr_form_map_layout, 0, false, false),  /* 4 */
	OP(0x5E, "Catenate", NULL, 0, true, false),  /* 2 */
	OP(0x5F, "Guid", &fw_ifr_guid_layout, 0, false, false),  /* 18 */
	OP(0x60, "Security", &fw_ifr_guid_only_layout, 0, true, false),  /* 18 */
	OP(0x61, "ModalTag", NULL, 0, false, false),  /* 2 */
	OP(0x62, "RefreshId", &fw_ifr_guid_only_layout, 0, false, false),  /* 18 */
	OP(0x63, "WarningIf", &fw_ifr_warning_if_layout, 0, false, false),  /* 5 */
	OP(0x64, "Match2", &fw_ifr_guid_only_layout, 0, true, false),  /* 18 */
};

unsigned fw_ifr_opcode_min_length(const struct fw_ifr_opcode_info *info)
{
	return (info->layout ? info->layout->size : FW_IFR_HEADER_SIZE) + info->tail;
}

const struct fw_ifr_opcode_info *fw_ifr_opcode_info(uint8_t op)
{
	if (op == 0 || op > FW_IFR_OPCODE_MAX || !table[op].name)
		return NULL;
	return &table[op];
}

int fw_ifr_type_size(uint8_t type)
{
	switch (type) {
	case FW_IFR_TYPE_NUM_8: return 1;
	case FW_IFR_TYPE_NUM_16: return 2;
	case FW_IFR_TYPE_NUM_32: return 4;
	case FW_IFR_TYPE_NUM_64: return 8;
	case FW_IFR_TYPE_BOOLEAN: return 1;
	case FW_IFR_TYPE_TIME: return 3;
	case FW_IFR_TYPE_DATE: return 4;
	case FW_IFR_TYPE_STRING: return 2;
	case FW_IFR_TYPE_ACTION: return 2;
	case FW_IFR_TYPE_BUFFER: return -1;
	case FW_IFR_TYPE_REF: return 22;
	default: return 0;
	}
}

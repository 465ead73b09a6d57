/* IFR opcode table. Lengths are the smallest valid encodings (reference/ifr.md 2.2). The expression
 * column follows SetupBrowser IsExpressionOpCode: READ and WRITE are scopes holding an expression,
 * not expression opcodes themselves. */
#include "ifr-opcodes.h"

#include <stddef.h>

#define OP(code, nm, len, expr, q) [code] = {nm, len, expr, q}

static const struct fw_ifr_opcode_info table[FW_IFR_OPCODE_MAX + 1] = {
	OP(0x01, "Form", 6, false, false),
	OP(0x02, "Subtitle", 7, false, false),
	OP(0x03, "Text", 8, false, false),
	OP(0x04, "Image", 4, false, false),
	OP(0x05, "OneOf", 17, false, true),
	OP(0x06, "CheckBox", 14, false, true),
	OP(0x07, "Numeric", 17, false, true),
	OP(0x08, "Password", 17, false, true),
	OP(0x09, "OneOfOption", 6, false, false),
	OP(0x0A, "SuppressIf", 2, false, false),
	OP(0x0B, "Locked", 2, false, false),
	OP(0x0C, "Action", 13, false, true),
	OP(0x0D, "ResetButton", 8, false, false),
	OP(0x0E, "FormSet", 23, false, false),
	OP(0x0F, "Ref", 13, false, true),
	OP(0x10, "NoSubmitIf", 4, false, false),
	OP(0x11, "InconsistentIf", 4, false, false),
	OP(0x12, "EqIdVal", 6, true, false),
	OP(0x13, "EqIdId", 6, true, false),
	OP(0x14, "EqIdValList", 6, true, false),
	OP(0x15, "And", 2, true, false),
	OP(0x16, "Or", 2, true, false),
	OP(0x17, "Not", 2, true, false),
	OP(0x18, "Rule", 3, false, false),
	OP(0x19, "GrayOutIf", 2, false, false),
	OP(0x1A, "Date", 14, false, true),
	OP(0x1B, "Time", 14, false, true),
	OP(0x1C, "String", 16, false, true),
	OP(0x1D, "Refresh", 3, false, false),
	OP(0x1E, "DisableIf", 2, false, false),
	OP(0x1F, "Animation", 4, false, false),
	OP(0x20, "ToLower", 2, true, false),
	OP(0x21, "ToUpper", 2, true, false),
	OP(0x22, "Map", 2, true, false),
	OP(0x23, "OrderedList", 15, false, true),
	OP(0x24, "VarStore", 23, false, false),
	OP(0x25, "VarStoreNameValue", 20, false, false),
	OP(0x26, "VarStoreEfi", 24, false, false),
	OP(0x27, "VarStoreDevice", 4, false, false),
	OP(0x28, "Version", 2, true, false),
	OP(0x29, "End", 2, false, false),
	OP(0x2A, "Match", 2, true, false),
	OP(0x2B, "Get", 7, true, false),
	OP(0x2C, "Set", 7, true, false),
	OP(0x2D, "Read", 2, false, false),
	OP(0x2E, "Write", 2, false, false),
	OP(0x2F, "Equal", 2, true, false),
	OP(0x30, "NotEqual", 2, true, false),
	OP(0x31, "GreaterThan", 2, true, false),
	OP(0x32, "GreaterEqual", 2, true, false),
	OP(0x33, "LessThan", 2, true, false),
	OP(0x34, "LessEqual", 2, true, false),
	OP(0x35, "BitwiseAnd", 2, true, false),
	OP(0x36, "BitwiseOr", 2, true, false),
	OP(0x37, "BitwiseNot", 2, true, false),
	OP(0x38, "ShiftLeft", 2, true, false),
	OP(0x39, "ShiftRight", 2, true, false),
	OP(0x3A, "Add", 2, true, false),
	OP(0x3B, "Subtract", 2, true, false),
	OP(0x3C, "Multiply", 2, true, false),
	OP(0x3D, "Divide", 2, true, false),
	OP(0x3E, "Modulo", 2, true, false),
	OP(0x3F, "RuleRef", 3, true, false),
	OP(0x40, "QuestionRef1", 4, true, false),
	OP(0x41, "QuestionRef2", 2, true, false),
	OP(0x42, "Uint8", 3, true, false),
	OP(0x43, "Uint16", 4, true, false),
	OP(0x44, "Uint32", 6, true, false),
	OP(0x45, "Uint64", 10, true, false),
	OP(0x46, "True", 2, true, false),
	OP(0x47, "False", 2, true, false),
	OP(0x48, "ToUint", 2, true, false),
	OP(0x49, "ToString", 3, true, false),
	OP(0x4A, "ToBoolean", 2, true, false),
	OP(0x4B, "Mid", 2, true, false),
	OP(0x4C, "Find", 3, true, false),
	OP(0x4D, "Token", 2, true, false),
	OP(0x4E, "StringRef1", 4, true, false),
	OP(0x4F, "StringRef2", 2, true, false),
	OP(0x50, "Conditional", 2, true, false),
	OP(0x51, "QuestionRef3", 2, true, false),
	OP(0x52, "Zero", 2, true, false),
	OP(0x53, "One", 2, true, false),
	OP(0x54, "Ones", 2, true, false),
	OP(0x55, "Undefined", 2, true, false),
	OP(0x56, "Length", 2, true, false),
	OP(0x57, "Dup", 2, true, false),
	OP(0x58, "This", 2, true, false),
	OP(0x59, "Span", 3, true, false),
	OP(0x5A, "Value", 2, false, false),
	OP(0x5B, "Default", 5, false, false),
	OP(0x5C, "DefaultStore", 6, false, false),
	OP(0x5D, "FormMap", 4, false, false),
	OP(0x5E, "Catenate", 2, true, false),
	OP(0x5F, "Guid", 18, false, false),
	OP(0x60, "Security", 18, true, false),
	OP(0x61, "ModalTag", 2, false, false),
	OP(0x62, "RefreshId", 18, false, false),
	OP(0x63, "WarningIf", 5, false, false),
	OP(0x64, "Match2", 18, true, false),
};

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

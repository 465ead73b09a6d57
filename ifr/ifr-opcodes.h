/* The IFR opcode table (UefiInternalFormRepresentation.h, reference/ifr.md 2.2): numbers, the
 * names IFRExtractor-RS prints, the layout of each opcode's bytes (ifr-layout.h; the minimal
 * length is the layout's size) and which opcodes are expressions.
 * To add an opcode: its enum value here; its layout in ifr-layout.c (fields in the order the
 * IFRExtractor format prints them, string ids with FW_FF_STRING); its row in ifr-opcodes.c. The
 * decoder's length check and the IFRExtractor writer then need nothing more; what the opcode
 * means for forms and settings goes in ifr-decode.c. */
#ifndef FW_IFR_OPCODES_H
#define FW_IFR_OPCODES_H

#include <stdbool.h>
#include <stdint.h>

#include "ifr/ifr-layout.h"

enum fw_ifr_opcode {
	FW_IFR_FORM = 0x01,
	FW_IFR_SUBTITLE = 0x02,
	FW_IFR_TEXT = 0x03,
	FW_IFR_IMAGE = 0x04,
	FW_IFR_ONE_OF = 0x05,
	FW_IFR_CHECKBOX = 0x06,
	FW_IFR_NUMERIC = 0x07,
	FW_IFR_PASSWORD = 0x08,
	FW_IFR_ONE_OF_OPTION = 0x09,
	FW_IFR_SUPPRESS_IF = 0x0A,
	FW_IFR_LOCKED = 0x0B,
	FW_IFR_ACTION = 0x0C,
	FW_IFR_RESET_BUTTON = 0x0D,
	FW_IFR_FORM_SET = 0x0E,
	FW_IFR_REF = 0x0F,
	FW_IFR_NO_SUBMIT_IF = 0x10,
	FW_IFR_INCONSISTENT_IF = 0x11,
	FW_IFR_EQ_ID_VAL = 0x12,
	FW_IFR_EQ_ID_ID = 0x13,
	FW_IFR_EQ_ID_VAL_LIST = 0x14,
	FW_IFR_AND = 0x15,
	FW_IFR_OR = 0x16,
	FW_IFR_NOT = 0x17,
	FW_IFR_RULE = 0x18,
	FW_IFR_GRAY_OUT_IF = 0x19,
	FW_IFR_DATE = 0x1A,
	FW_IFR_TIME = 0x1B,
	FW_IFR_STRING = 0x1C,
	FW_IFR_REFRESH = 0x1D,
	FW_IFR_DISABLE_IF = 0x1E,
	FW_IFR_ANIMATION = 0x1F,
	FW_IFR_TO_LOWER = 0x20,
	FW_IFR_TO_UPPER = 0x21,
	FW_IFR_MAP = 0x22,
	FW_IFR_ORDERED_LIST = 0x23,
	FW_IFR_VARSTORE = 0x24,
	FW_IFR_VARSTORE_NAME_VALUE = 0x25,
	FW_IFR_VARSTORE_EFI = 0x26,
	FW_IFR_VARSTORE_DEVICE = 0x27,
	FW_IFR_VERSION = 0x28,
	FW_IFR_END = 0x29,
	FW_IFR_MATCH = 0x2A,
	FW_IFR_GET = 0x2B,
	FW_IFR_SET = 0x2C,
	FW_IFR_READ = 0x2D,
	FW_IFR_WRITE = 0x2E,
	FW_IFR_EQUAL = 0x2F,
	FW_IFR_NOT_EQUAL = 0x30,
	FW_IFR_GREATER_THAN = 0x31,
	FW_IFR_GREATER_EQUAL = 0x32,
	FW_IFR_LESS_THAN = 0x33,
	FW_IFR_LESS_EQUAL = 0x34,
	FW_IFR_BITWISE_AND = 0x35,
	FW_IFR_BITWISE_OR = 0x36,
	FW_IFR_BITWISE_NOT = 0x37,
	FW_IFR_SHIFT_LEFT = 0x38,
	FW_IFR_SHIFT_RIGHT = 0x39,
	FW_IFR_ADD = 0x3A,
	FW_IFR_SUBTRACT = 0x3B,
	FW_IFR_MULTIPLY = 0x3C,
	FW_IFR_DIVIDE = 0x3D,
	FW_IFR_MODULO = 0x3E,
	FW_IFR_RULE_REF = 0x3F,
	FW_IFR_QUESTION_REF1 = 0x40,
	FW_IFR_QUESTION_REF2 = 0x41,
	FW_IFR_UINT8 = 0x42,
	FW_IFR_UINT16 = 0x43,
	FW_IFR_UINT32 = 0x44,
	FW_IFR_UINT64 = 0x45,
	FW_IFR_TRUE = 0x46,
	FW_IFR_FALSE = 0x47,
	FW_IFR_TO_UINT = 0x48,
	FW_IFR_TO_STRING = 0x49,
	FW_IFR_TO_BOOLEAN = 0x4A,
	FW_IFR_MID = 0x4B,
	FW_IFR_FIND = 0x4C,
	FW_IFR_TOKEN = 0x4D,
	FW_IFR_STRING_REF1 = 0x4E,
	FW_IFR_STRING_REF2 = 0x4F,
	FW_IFR_CONDITIONAL = 0x50,
	FW_IFR_QUESTION_REF3 = 0x51,
	FW_IFR_ZERO = 0x52,
	FW_IFR_ONE = 0x53,
	FW_IFR_ONES = 0x54,
	FW_IFR_UNDEFINED = 0x55,
	FW_IFR_LENGTH = 0x56,
	FW_IFR_DUP = 0x57,
	FW_IFR_THIS = 0x58,
	FW_IFR_SPAN = 0x59,
	FW_IFR_VALUE = 0x5A,
	FW_IFR_DEFAULT = 0x5B,
	FW_IFR_DEFAULTSTORE = 0x5C,
	FW_IFR_FORM_MAP = 0x5D,
	FW_IFR_CATENATE = 0x5E,
	FW_IFR_GUID = 0x5F,
	FW_IFR_SECURITY = 0x60,
	FW_IFR_MODAL_TAG = 0x61,
	FW_IFR_REFRESH_ID = 0x62,
	FW_IFR_WARNING_IF = 0x63,
	FW_IFR_MATCH2 = 0x64,
	FW_IFR_OPCODE_MAX = 0x64,
};

struct fw_ifr_opcode_info {
	const char *name;              /* IFRExtractor-RS spelling: "OneOf", "CheckBox", "SuppressIf", ... */
	const struct fw_layout *layout; /* its bytes after the header; NULL: the header alone */
	uint8_t tail;                  /* bytes a variable part needs at least (VARSTORE's name NUL) */
	bool expression;               /* an expression opcode (SetupBrowser IsExpressionOpCode) */
	bool question;                 /* carries the 11-byte question header at offset 2 */
};

/* NULL for numbers outside 0x01-0x64. */
const struct fw_ifr_opcode_info *fw_ifr_opcode_info(uint8_t op);
/* Smallest valid length including the 2-byte header: the layout's size and the tail. */
unsigned fw_ifr_opcode_min_length(const struct fw_ifr_opcode_info *info);

/* ONE_OF_OPTION / DEFAULT value types */
enum fw_ifr_type {
	FW_IFR_TYPE_NUM_8 = 0x00,
	FW_IFR_TYPE_NUM_16 = 0x01,
	FW_IFR_TYPE_NUM_32 = 0x02,
	FW_IFR_TYPE_NUM_64 = 0x03,
	FW_IFR_TYPE_BOOLEAN = 0x04,
	FW_IFR_TYPE_TIME = 0x05,
	FW_IFR_TYPE_DATE = 0x06,
	FW_IFR_TYPE_STRING = 0x07,
	FW_IFR_TYPE_OTHER = 0x08,
	FW_IFR_TYPE_UNDEFINED = 0x09,
	FW_IFR_TYPE_ACTION = 0x0A,
	FW_IFR_TYPE_BUFFER = 0x0B,
	FW_IFR_TYPE_REF = 0x0C,
};
/* Value size of a type; 0 for OTHER/UNDEFINED, -1 for BUFFER (rest of the opcode). */
int fw_ifr_type_size(uint8_t type);

/* EDK2 GUID extension opcodes (MdeModuleHii.h) */
#define FW_IFR_TIANO_GUID_STR "0F0B1735-87A0-4193-B266-538C38AF48CE"
#define FW_IFR_FRAMEWORK_GUID_STR "31CA5D1A-D511-4931-B782-AE6B2B178CD7"
#define FW_IFR_BIT_VARSTORE_GUID_STR "82DDD68B-9163-4187-9B27-20A8FD60A71D"
enum { FW_IFR_EXT_LABEL = 0, FW_IFR_EXT_BANNER = 1, FW_IFR_EXT_TIMEOUT = 2, FW_IFR_EXT_CLASS = 3, FW_IFR_EXT_SUBCLASS = 4 };

/* HII package types */
enum {
	FW_HII_PACKAGE_GUID = 0x01,
	FW_HII_PACKAGE_FORMS = 0x02,
	FW_HII_PACKAGE_STRINGS = 0x04,
	FW_HII_PACKAGE_FONTS = 0x05,
	FW_HII_PACKAGE_IMAGES = 0x06,
	FW_HII_PACKAGE_SIMPLE_FONTS = 0x07,
	FW_HII_PACKAGE_DEVICE_PATH = 0x08,
	FW_HII_PACKAGE_KEYBOARD_LAYOUT = 0x09,
	FW_HII_PACKAGE_ANIMATIONS = 0x0A,
	FW_HII_PACKAGE_END = 0xDF,
};

/* String information blocks (SIBT) */
enum {
	FW_SIBT_END = 0x00,
	FW_SIBT_STRING_SCSU = 0x10,
	FW_SIBT_STRING_SCSU_FONT = 0x11,
	FW_SIBT_STRINGS_SCSU = 0x12,
	FW_SIBT_STRINGS_SCSU_FONT = 0x13,
	FW_SIBT_STRING_UCS2 = 0x14,
	FW_SIBT_STRING_UCS2_FONT = 0x15,
	FW_SIBT_STRINGS_UCS2 = 0x16,
	FW_SIBT_STRINGS_UCS2_FONT = 0x17,
	FW_SIBT_DUPLICATE = 0x20,
	FW_SIBT_SKIP2 = 0x21,
	FW_SIBT_SKIP1 = 0x22,
	FW_SIBT_EXT1 = 0x30,
	FW_SIBT_EXT2 = 0x31,
	FW_SIBT_EXT4 = 0x32,
	FW_SIBT_FONT = 0x40,
};
#define FW_HII_STRING_HEADER_FIXED 46 /* bytes before the Language tag */

#endif

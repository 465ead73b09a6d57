/* On-disk layouts of the IFR opcodes and HII package headers (UefiInternalFormRepresentation.h,
 * reference/ifr.md 1-2): the one description of each opcode's bytes. The decoder reads fields
 * through them, the IFRExtractor-format writer prints them field by field (names as that tool
 * prints them, in its order; FW_FF_STRING fields as the string they name), the sample encoder
 * writes them, and the opcode table (ifr-opcodes.c) points at them and derives each opcode's
 * minimum length from the layout's size. Offsets count from the opcode start.
 *
 * A layout's size is the opcode's minimal length; fields past it are optional and present when
 * the opcode is long enough (REF2..REF4, ACTION's QuestionConfig, VARSTORE_EFI's Size).
 * Values whose width depends on a type byte (ONE_OF_OPTION, DEFAULT) are BYTES fields of 8 bytes:
 * read the width the type gives, write with fw_layout_put_bytes. */
#ifndef FW_IFR_LAYOUT_H
#define FW_IFR_LAYOUT_H

#include "parsers/layout.h"

/* EFI_IFR_OP_HEADER: OpCode, then Length (bits 0-6) and Scope (bit 7) */
enum { IFR_HDR_OPCODE, IFR_HDR_LENGTH_SCOPE, IFR_HDR__COUNT };
extern const struct fw_layout fw_ifr_header_layout;
#define FW_IFR_HEADER_SIZE 2
#define FW_IFR_SCOPE_BIT 0x80
#define FW_IFR_LENGTH_MASK 0x7F

/* EFI_IFR_QUESTION_HEADER (with the statement header) at offset 2 of every question opcode; the
 * second form names VarStoreInfo "VarOffset" (ONE_OF, NUMERIC, CHECKBOX, ORDERED_LIST). */
enum { IFR_Q_PROMPT, IFR_Q_HELP, IFR_Q_FLAGS, IFR_Q_QUESTION_ID, IFR_Q_VARSTORE_ID, IFR_Q_VARSTORE_INFO, IFR_Q__COUNT };
extern const struct fw_layout fw_ifr_question_layout; /* 13 bytes */
extern const struct fw_layout fw_ifr_question_varoffset_layout;
#define FW_IFR_QUESTION_SIZE 13
#define FW_IFR_QF_READ_ONLY 0x01
#define FW_IFR_QF_CALLBACK 0x04
#define FW_IFR_QF_RESET_REQUIRED 0x10
#define FW_IFR_QF_REST_STYLE 0x20
#define FW_IFR_QF_RECONNECT_REQUIRED 0x40
#define FW_IFR_QF_OPTIONS_ONLY 0x80

/* FORM_SET: 23 bytes plus 16 per class GUID (count in Flags bits 0-1) */
enum { IFR_FORMSET_GUID, IFR_FORMSET_TITLE, IFR_FORMSET_HELP, IFR_FORMSET_FLAGS, IFR_FORMSET__COUNT };
#define FW_IFR_FORMSET_CLASS_GUIDS 0x03 /* Flags: how many class GUIDs follow */
extern const struct fw_layout fw_ifr_form_set_layout;
#define FW_IFR_FORM_SET_SIZE 23
#define FW_IFR_PLATFORM_SETUP_FORMSET_GUID_STR "93039971-8545-4B04-B45E-32EB8326040E"

enum { IFR_FORM_ID, IFR_FORM_TITLE, IFR_FORM__COUNT };
extern const struct fw_layout fw_ifr_form_layout; /* 6 bytes */

enum { IFR_SUBTITLE_PROMPT, IFR_SUBTITLE_HELP, IFR_SUBTITLE_FLAGS, IFR_SUBTITLE__COUNT };
extern const struct fw_layout fw_ifr_subtitle_layout; /* 7 bytes */

enum { IFR_TEXT_PROMPT, IFR_TEXT_HELP, IFR_TEXT_TEXT_TWO, IFR_TEXT__COUNT };
extern const struct fw_layout fw_ifr_text_layout; /* 8 bytes */

/* ONE_OF and NUMERIC after the question header: Flags, then Min/Max/Step of 1, 2, 4 or 8 bytes
 * (Flags & 3); index the array by that size code. Inside an EDKII bit-varstore GUID scope, Flags
 * bits 0-5 are the width in bits, bits 6-7 the display and Min/Max/Step are u32 (index 2). */
enum { IFR_NUM_FLAGS, IFR_NUM_MIN, IFR_NUM_MAX, IFR_NUM_STEP, IFR_NUM__COUNT };
extern const struct fw_layout fw_ifr_numeric_layouts[4]; /* 17, 20, 26, 38 bytes */
#define FW_IFR_NUMERIC_SIZE_1 0x00
#define FW_IFR_NUMERIC_SIZE_2 0x01
#define FW_IFR_NUMERIC_SIZE_4 0x02
#define FW_IFR_NUMERIC_SIZE_8 0x03
#define FW_IFR_DISPLAY_INT_DEC 0x00
#define FW_IFR_DISPLAY_UINT_DEC 0x10
#define FW_IFR_DISPLAY_UINT_HEX 0x20
#define FW_IFR_BIT_SIZE_MASK 0x3F
#define FW_IFR_BIT_DISPLAY_UINT_DEC 0x40
#define FW_IFR_BIT_DISPLAY_UINT_HEX 0x80

#define FW_IFR_NUMERIC_SIZE_MASK 0x03
#define FW_IFR_DISPLAY_MASK 0x30

enum { IFR_CHECKBOX_QUESTION, IFR_CHECKBOX_FLAGS, IFR_CHECKBOX__COUNT };
extern const struct fw_layout fw_ifr_checkbox_layout; /* 14 bytes */
#define FW_IFR_CHECKBOX_DEFAULT 0x01
#define FW_IFR_CHECKBOX_DEFAULT_MFG 0x02

enum { IFR_STRING_QUESTION, IFR_STRING_MIN_SIZE, IFR_STRING_MAX_SIZE, IFR_STRING_FLAGS, IFR_STRING__COUNT };
extern const struct fw_layout fw_ifr_string_layout; /* 16 bytes; sizes in characters */

enum { IFR_PASSWORD_QUESTION, IFR_PASSWORD_MIN_SIZE, IFR_PASSWORD_MAX_SIZE, IFR_PASSWORD__COUNT };
extern const struct fw_layout fw_ifr_password_layout; /* 17 bytes */

/* DATE and TIME: the question, then Flags (bits 4-5: where the value is stored) */
enum { IFR_DATE_TIME_QUESTION, IFR_DATE_TIME_FLAGS, IFR_DATE_TIME__COUNT };
extern const struct fw_layout fw_ifr_date_time_layout; /* 14 bytes */

enum { IFR_ORDERED_LIST_QUESTION, IFR_ORDERED_LIST_MAX_CONTAINERS, IFR_ORDERED_LIST_FLAGS, IFR_ORDERED_LIST__COUNT };
extern const struct fw_layout fw_ifr_ordered_list_layout; /* 15 bytes */

/* ACTION: the question (ACTION_1, 13 bytes), then QuestionConfig (15) */
enum { IFR_ACTION_QUESTION, IFR_ACTION_CONFIG, IFR_ACTION__COUNT };
extern const struct fw_layout fw_ifr_action_layout;

/* REF: the question (REF5, 13 bytes), FormId (REF, 15), + QuestionId (REF2, 17), + FormSetId
 * (REF3, 33), + DevicePath (REF4, 35): told apart by length */
enum { IFR_REF_QUESTION, IFR_REF_FORM_ID, IFR_REF_QUESTION_ID, IFR_REF_FORMSET_ID, IFR_REF_DEVICE_PATH, IFR_REF__COUNT };
extern const struct fw_layout fw_ifr_ref_layout;
#define FW_IFR_REF_SIZE 15

enum { IFR_OPTION_OPTION, IFR_OPTION_FLAGS, IFR_OPTION_TYPE, IFR_OPTION_VALUE, IFR_OPTION__COUNT };
extern const struct fw_layout fw_ifr_one_of_option_layout; /* 6 bytes + value */
#define FW_IFR_ONE_OF_OPTION_VALUE 6
#define FW_IFR_OPTION_DEFAULT 0x10
#define FW_IFR_OPTION_DEFAULT_MFG 0x20

enum { IFR_DEFAULT_ID, IFR_DEFAULT_TYPE, IFR_DEFAULT_VALUE, IFR_DEFAULT__COUNT };
extern const struct fw_layout fw_ifr_default_layout; /* 5 bytes + value */
#define FW_IFR_DEFAULT_VALUE 5

enum { IFR_DEFAULTSTORE_ID, IFR_DEFAULTSTORE_NAME, IFR_DEFAULTSTORE__COUNT };
extern const struct fw_layout fw_ifr_defaultstore_layout; /* 6 bytes */
#define FW_IFR_DEFAULT_ID_STANDARD 0x0000
#define FW_IFR_DEFAULT_ID_MANUFACTURING 0x0001

/* VARSTORE (buffer): 22 bytes, then the ASCII name and its NUL */
enum { IFR_VARSTORE_GUID, IFR_VARSTORE_ID, IFR_VARSTORE_SIZE, IFR_VARSTORE__COUNT };
extern const struct fw_layout fw_ifr_varstore_layout;
#define FW_IFR_VARSTORE_NAME 22

/* VARSTORE_EFI: 24 bytes in the pre-2.3.1 form; then Size and the ASCII name at 26 */
enum { IFR_VARSTORE_EFI_GUID, IFR_VARSTORE_EFI_ID, IFR_VARSTORE_EFI_ATTRIBUTES, IFR_VARSTORE_EFI_SIZE, IFR_VARSTORE_EFI__COUNT };
extern const struct fw_layout fw_ifr_varstore_efi_layout;
#define FW_IFR_VARSTORE_EFI_NAME 26

enum { IFR_EQ_ID_VAL_QUESTION_ID, IFR_EQ_ID_VAL_VALUE, IFR_EQ_ID_VAL__COUNT };
extern const struct fw_layout fw_ifr_eq_id_val_layout; /* 6 bytes */
enum { IFR_EQ_ID_LIST_QUESTION_ID, IFR_EQ_ID_LIST_LENGTH, IFR_EQ_ID_LIST__COUNT };
extern const struct fw_layout fw_ifr_eq_id_val_list_layout; /* 6 bytes, then ListLength u16 values */
enum { IFR_QREF1_QUESTION_ID, IFR_QREF1__COUNT };
extern const struct fw_layout fw_ifr_question_ref1_layout; /* 4 bytes */
/* UINT8..UINT64: the value after the header; index by log2 of its size */
enum { IFR_UINT_VALUE, IFR_UINT__COUNT };
extern const struct fw_layout fw_ifr_uint_layouts[4]; /* 3, 4, 6, 10 bytes */

/* The opcodes whose bytes are only fixed fields (each layout is the opcode's whole description) */
extern const struct fw_layout fw_ifr_image_layout, fw_ifr_animation_layout, fw_ifr_reset_button_layout,
	fw_ifr_error_layout, fw_ifr_eq_id_id_layout, fw_ifr_rule_layout, fw_ifr_refresh_layout,
	fw_ifr_varstore_name_value_layout, fw_ifr_varstore_device_layout, fw_ifr_get_set_layout,
	fw_ifr_format_layout, fw_ifr_string_ref1_layout, fw_ifr_question_ref3_layout, fw_ifr_span_layout,
	fw_ifr_guid_only_layout, fw_ifr_warning_if_layout, fw_ifr_form_map_layout;

/* GUID opcode; the EDK2 extensions (Tiano GUID) carry a u16 after the extended opcode byte */
enum { IFR_GUID_GUID, IFR_GUID_EXT_OPCODE, IFR_GUID_EXT_VALUE, IFR_GUID__COUNT };
extern const struct fw_layout fw_ifr_guid_layout; /* 18 bytes; 21 with the extension value */
#define FW_IFR_GUID_SIZE 18
#define FW_IFR_GUID_EXT_SIZE 21

/* HII package list header (20 bytes), package header (4 bytes: Length:24, Type:8) */
enum { HII_LIST_GUID, HII_LIST_LENGTH, HII_LIST__COUNT };
extern const struct fw_layout fw_hii_package_list_layout;
#define FW_HII_PACKAGE_LIST_HEADER_SIZE 20
enum { HII_PKG_LENGTH, HII_PKG_TYPE, HII_PKG__COUNT };
extern const struct fw_layout fw_hii_package_layout;
#define FW_HII_PACKAGE_HEADER_SIZE 4

/* String package header: package header, HdrSize, StringInfoOffset, LanguageWindow, LanguageName,
 * then the ASCII language tag and its NUL at offset 46 (FW_HII_STRING_HEADER_FIXED). */
enum { HII_STR_LENGTH, HII_STR_TYPE, HII_STR_HDR_SIZE, HII_STR_INFO_OFFSET, HII_STR_LANGUAGE_WINDOW,
       HII_STR_LANGUAGE_NAME, HII_STR__COUNT };
extern const struct fw_layout fw_hii_string_package_layout;

#endif

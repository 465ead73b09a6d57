/* IFR opcode and HII package layouts. */
#include "ifr-layout.h"

static const struct fw_field header_fields[IFR_HDR__COUNT] = {
	[IFR_HDR_OPCODE] = {"OpCode", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IFR_HDR_LENGTH_SCOPE] = {"LengthScope", FW_FT_U8, 1, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_header_layout = FW_LAYOUT("IFR opcode header", FW_IFR_HEADER_SIZE, header_fields);

static const struct fw_bitfield question_flag_bits[] = {
	FW_FLAG("READ_ONLY", FW_IFR_QF_READ_ONLY), FW_FLAG("CALLBACK", FW_IFR_QF_CALLBACK),
	FW_FLAG("RESET_REQUIRED", FW_IFR_QF_RESET_REQUIRED), FW_FLAG("REST_STYLE", FW_IFR_QF_REST_STYLE),
	FW_FLAG("RECONNECT_REQUIRED", FW_IFR_QF_RECONNECT_REQUIRED), FW_FLAG("OPTIONS_ONLY", FW_IFR_QF_OPTIONS_ONLY),
};
static const struct fw_bitfields question_flag_names = FW_BITFIELDS(question_flag_bits);
/* Printed in this order: prompt and help, flags, ids. */
#define QUESTION_FIELDS(info)                                                                                      \
	{                                                                                                          \
		[IFR_Q_PROMPT] = {"Prompt", FW_FT_U16, 2, 0, FW_FF_HEX | FW_FF_STRING, NULL},                       \
		[IFR_Q_HELP] = {"Help", FW_FT_U16, 4, 0, FW_FF_HEX | FW_FF_STRING, NULL},                           \
		[IFR_Q_FLAGS] = {"QuestionFlags", FW_FT_U8, 12, 0, FW_FF_FLAGS, &question_flag_names},               \
		[IFR_Q_QUESTION_ID] = {"QuestionId", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},                             \
		[IFR_Q_VARSTORE_ID] = {"VarStoreId", FW_FT_U16, 8, 0, FW_FF_HEX, NULL},                             \
		[IFR_Q_VARSTORE_INFO] = {info, FW_FT_U16, 10, 0, FW_FF_HEX, NULL},                                  \
	}
static const struct fw_field question_fields[IFR_Q__COUNT] = QUESTION_FIELDS("VarStoreInfo");
const struct fw_layout fw_ifr_question_layout = FW_LAYOUT("IFR question header", FW_IFR_QUESTION_SIZE, question_fields);
static const struct fw_field question_varoffset_fields[IFR_Q__COUNT] = QUESTION_FIELDS("VarOffset");
const struct fw_layout fw_ifr_question_varoffset_layout =
	FW_LAYOUT("IFR question header", FW_IFR_QUESTION_SIZE, question_varoffset_fields);
#define QUESTION {"Question", FW_FT_STRUCT, 0, FW_IFR_QUESTION_SIZE, 0, &fw_ifr_question_layout}
#define QUESTION_VAROFFSET {"Question", FW_FT_STRUCT, 0, FW_IFR_QUESTION_SIZE, 0, &fw_ifr_question_varoffset_layout}
#define STRING_ID(name, off) {name, FW_FT_U16, off, 0, FW_FF_HEX | FW_FF_STRING, NULL}
#define HEX8(name, off) {name, FW_FT_U8, off, 0, FW_FF_HEX, NULL}
#define HEX16(name, off) {name, FW_FT_U16, off, 0, FW_FF_HEX, NULL}
#define GUID(name, off) {name, FW_FT_GUID, off, 0, 0, NULL}

static const struct fw_field form_set_fields[IFR_FORMSET__COUNT] = {
	[IFR_FORMSET_GUID] = GUID("Guid", 2),
	[IFR_FORMSET_TITLE] = STRING_ID("Title", 18),
	[IFR_FORMSET_HELP] = STRING_ID("Help", 20),
	[IFR_FORMSET_FLAGS] = {"Flags", FW_FT_U8, 22, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL}, /* class GUID count */
};
const struct fw_layout fw_ifr_form_set_layout = FW_LAYOUT("IFR FORM_SET", FW_IFR_FORM_SET_SIZE, form_set_fields);

static const struct fw_field form_fields[IFR_FORM__COUNT] = {
	[IFR_FORM_ID] = HEX16("FormId", 2),
	[IFR_FORM_TITLE] = STRING_ID("Title", 4),
};
const struct fw_layout fw_ifr_form_layout = FW_LAYOUT("IFR FORM", 6, form_fields);

static const struct fw_field subtitle_fields[IFR_SUBTITLE__COUNT] = {
	[IFR_SUBTITLE_PROMPT] = STRING_ID("Prompt", 2),
	[IFR_SUBTITLE_HELP] = STRING_ID("Help", 4),
	[IFR_SUBTITLE_FLAGS] = HEX8("Flags", 6),
};
const struct fw_layout fw_ifr_subtitle_layout = FW_LAYOUT("IFR SUBTITLE", 7, subtitle_fields);

static const struct fw_field text_fields[IFR_TEXT__COUNT] = {
	[IFR_TEXT_PROMPT] = STRING_ID("Prompt", 2),
	[IFR_TEXT_HELP] = STRING_ID("Help", 4),
	[IFR_TEXT_TEXT_TWO] = STRING_ID("Text", 6),
};
const struct fw_layout fw_ifr_text_layout = FW_LAYOUT("IFR TEXT", 8, text_fields);

#define NUMERIC_FIELDS(type, w)                                                                                    \
	{                                                                                                          \
		[IFR_NUM_FLAGS] = {"Flags", FW_FT_U8, 13, 0, FW_FF_HEX, NULL},                                     \
		[IFR_NUM_MIN] = {"MinValue", type, 14, 0, FW_FF_HEX, NULL},                                        \
		[IFR_NUM_MAX] = {"MaxValue", type, 14 + (w), 0, FW_FF_HEX, NULL},                                  \
		[IFR_NUM_STEP] = {"Step", type, 14 + 2 * (w), 0, FW_FF_HEX, NULL},                                 \
	}
static const struct fw_field numeric8_fields[IFR_NUM__COUNT] = NUMERIC_FIELDS(FW_FT_U8, 1);
static const struct fw_field numeric16_fields[IFR_NUM__COUNT] = NUMERIC_FIELDS(FW_FT_U16, 2);
static const struct fw_field numeric32_fields[IFR_NUM__COUNT] = NUMERIC_FIELDS(FW_FT_U32, 4);
static const struct fw_field numeric64_fields[IFR_NUM__COUNT] = NUMERIC_FIELDS(FW_FT_U64, 8);
const struct fw_layout fw_ifr_numeric_layouts[4] = {
	FW_LAYOUT("IFR ONE_OF/NUMERIC (8-bit)", 17, numeric8_fields),
	FW_LAYOUT("IFR ONE_OF/NUMERIC (16-bit)", 20, numeric16_fields),
	FW_LAYOUT("IFR ONE_OF/NUMERIC (32-bit)", 26, numeric32_fields),
	FW_LAYOUT("IFR ONE_OF/NUMERIC (64-bit)", 38, numeric64_fields),
};

static const struct fw_field checkbox_fields[IFR_CHECKBOX__COUNT] = {
	[IFR_CHECKBOX_QUESTION] = QUESTION_VAROFFSET,
	[IFR_CHECKBOX_FLAGS] = HEX8("Flags", 13),
};
const struct fw_layout fw_ifr_checkbox_layout = FW_LAYOUT("IFR CHECKBOX", 14, checkbox_fields);

static const struct fw_field string_fields[IFR_STRING__COUNT] = {
	[IFR_STRING_QUESTION] = QUESTION,
	[IFR_STRING_MIN_SIZE] = HEX8("MinSize", 13),
	[IFR_STRING_MAX_SIZE] = HEX8("MaxSize", 14),
	[IFR_STRING_FLAGS] = HEX8("Flags", 15),
};
const struct fw_layout fw_ifr_string_layout = FW_LAYOUT("IFR STRING", 16, string_fields);

static const struct fw_field password_fields[IFR_PASSWORD__COUNT] = {
	[IFR_PASSWORD_QUESTION] = QUESTION,
	[IFR_PASSWORD_MIN_SIZE] = HEX16("MinSize", 13),
	[IFR_PASSWORD_MAX_SIZE] = HEX16("MaxSize", 15),
};
const struct fw_layout fw_ifr_password_layout = FW_LAYOUT("IFR PASSWORD", 17, password_fields);

static const struct fw_field date_time_fields[IFR_DATE_TIME__COUNT] = {
	[IFR_DATE_TIME_QUESTION] = QUESTION,
	[IFR_DATE_TIME_FLAGS] = HEX8("Flags", 13),
};
const struct fw_layout fw_ifr_date_time_layout = FW_LAYOUT("IFR DATE/TIME", 14, date_time_fields);

static const struct fw_field ordered_list_fields[IFR_ORDERED_LIST__COUNT] = {
	[IFR_ORDERED_LIST_QUESTION] = QUESTION_VAROFFSET,
	[IFR_ORDERED_LIST_MAX_CONTAINERS] = HEX8("MaxContainers", 13),
	[IFR_ORDERED_LIST_FLAGS] = HEX8("Flags", 14),
};
const struct fw_layout fw_ifr_ordered_list_layout = FW_LAYOUT("IFR ORDERED_LIST", 15, ordered_list_fields);

static const struct fw_field action_fields[IFR_ACTION__COUNT] = {
	[IFR_ACTION_QUESTION] = QUESTION,
	[IFR_ACTION_CONFIG] = STRING_ID("QuestionConfig", 13),
};
const struct fw_layout fw_ifr_action_layout = FW_LAYOUT("IFR ACTION", FW_IFR_QUESTION_SIZE, action_fields);

static const struct fw_field ref_fields[IFR_REF__COUNT] = {
	[IFR_REF_QUESTION] = QUESTION,
	[IFR_REF_FORM_ID] = HEX16("FormId", 13),
	[IFR_REF_QUESTION_ID] = HEX16("RefQuestionId", 15),
	[IFR_REF_FORMSET_ID] = GUID("FormSetGuid", 17),
	[IFR_REF_DEVICE_PATH] = HEX16("DevicePathId", 33),
};
const struct fw_layout fw_ifr_ref_layout = FW_LAYOUT("IFR REF", FW_IFR_QUESTION_SIZE, ref_fields);

static const struct fw_bitfield option_flag_bits[] = {
	FW_FLAG("DEFAULT", FW_IFR_OPTION_DEFAULT), FW_FLAG("DEFAULT_MFG", FW_IFR_OPTION_DEFAULT_MFG),
};
static const struct fw_bitfields option_flag_names = FW_BITFIELDS(option_flag_bits);
static const struct fw_field option_fields[IFR_OPTION__COUNT] = {
	[IFR_OPTION_OPTION] = STRING_ID("Option", 2),
	[IFR_OPTION_FLAGS] = {"Flags", FW_FT_U8, 4, 0, FW_FF_FLAGS, &option_flag_names},
	[IFR_OPTION_TYPE] = HEX8("Type", 5),
	[IFR_OPTION_VALUE] = {"Value", FW_FT_BYTES, 6, 8, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ifr_one_of_option_layout = FW_LAYOUT("IFR ONE_OF_OPTION", 6, option_fields);

static const struct fw_field default_fields[IFR_DEFAULT__COUNT] = {
	[IFR_DEFAULT_ID] = HEX16("DefaultId", 2),
	[IFR_DEFAULT_TYPE] = HEX8("Type", 4),
	[IFR_DEFAULT_VALUE] = {"Value", FW_FT_BYTES, 5, 8, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ifr_default_layout = FW_LAYOUT("IFR DEFAULT", 5, default_fields);

static const struct fw_field defaultstore_fields[IFR_DEFAULTSTORE__COUNT] = {
	[IFR_DEFAULTSTORE_ID] = HEX16("DefaultId", 4),
	[IFR_DEFAULTSTORE_NAME] = STRING_ID("Name", 2),
};
const struct fw_layout fw_ifr_defaultstore_layout = FW_LAYOUT("IFR DEFAULTSTORE", 6, defaultstore_fields);

/* the ASCII name after the fixed part has at least its NUL: opcode minimum 23 */
static const struct fw_field varstore_fields[IFR_VARSTORE__COUNT] = {
	[IFR_VARSTORE_GUID] = GUID("Guid", 2),
	[IFR_VARSTORE_ID] = HEX16("VarStoreId", 18),
	[IFR_VARSTORE_SIZE] = HEX16("Size", 20),
};
const struct fw_layout fw_ifr_varstore_layout = FW_LAYOUT("IFR VARSTORE", FW_IFR_VARSTORE_NAME, varstore_fields);

static const struct fw_field varstore_efi_fields[IFR_VARSTORE_EFI__COUNT] = {
	[IFR_VARSTORE_EFI_GUID] = GUID("Guid", 4),
	[IFR_VARSTORE_EFI_ID] = HEX16("VarStoreId", 2),
	[IFR_VARSTORE_EFI_ATTRIBUTES] = {"Attributes", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[IFR_VARSTORE_EFI_SIZE] = HEX16("Size", 24),
};
const struct fw_layout fw_ifr_varstore_efi_layout = FW_LAYOUT("IFR VARSTORE_EFI", 24, varstore_efi_fields);

static const struct fw_field eq_id_val_fields[IFR_EQ_ID_VAL__COUNT] = {
	[IFR_EQ_ID_VAL_QUESTION_ID] = HEX16("QuestionId", 2),
	[IFR_EQ_ID_VAL_VALUE] = HEX16("Value", 4),
};
const struct fw_layout fw_ifr_eq_id_val_layout = FW_LAYOUT("IFR EQ_ID_VAL", 6, eq_id_val_fields);

static const struct fw_field eq_id_list_fields[IFR_EQ_ID_LIST__COUNT] = {
	[IFR_EQ_ID_LIST_QUESTION_ID] = HEX16("QuestionId", 2),
	[IFR_EQ_ID_LIST_LENGTH] = {"ListLength", FW_FT_U16, 4, 0, 0, NULL},
};
const struct fw_layout fw_ifr_eq_id_val_list_layout = FW_LAYOUT("IFR EQ_ID_VAL_LIST", 6, eq_id_list_fields);

static const struct fw_field qref1_fields[IFR_QREF1__COUNT] = {
	[IFR_QREF1_QUESTION_ID] = HEX16("QuestionId", 2),
};
const struct fw_layout fw_ifr_question_ref1_layout = FW_LAYOUT("IFR QUESTION_REF1", 4, qref1_fields);

static const struct fw_field uint8_fields[] = {{"Value", FW_FT_U8, 2, 0, FW_FF_HEX, NULL}};
static const struct fw_field uint16_fields[] = {{"Value", FW_FT_U16, 2, 0, FW_FF_HEX, NULL}};
static const struct fw_field uint32_fields[] = {{"Value", FW_FT_U32, 2, 0, FW_FF_HEX, NULL}};
static const struct fw_field uint64_fields[] = {{"Value", FW_FT_U64, 2, 0, FW_FF_HEX, NULL}};
const struct fw_layout fw_ifr_uint_layouts[4] = {
	FW_LAYOUT("IFR UINT8", 3, uint8_fields),
	FW_LAYOUT("IFR UINT16", 4, uint16_fields),
	FW_LAYOUT("IFR UINT32", 6, uint32_fields),
	FW_LAYOUT("IFR UINT64", 10, uint64_fields),
};

static const struct fw_field guid_fields[IFR_GUID__COUNT] = {
	[IFR_GUID_GUID] = GUID("Guid", 2),
	[IFR_GUID_EXT_OPCODE] = HEX8("ExtendOpCode", 18),
	[IFR_GUID_EXT_VALUE] = HEX16("ExtendValue", 19),
};
const struct fw_layout fw_ifr_guid_layout = FW_LAYOUT("IFR GUID", FW_IFR_GUID_SIZE, guid_fields);

/* --- opcodes that are only fixed fields --- */

static const struct fw_field image_fields[] = {HEX16("ImageId", 2)};
const struct fw_layout fw_ifr_image_layout = FW_LAYOUT("IFR IMAGE", 4, image_fields);
static const struct fw_field animation_fields[] = {HEX16("AnimationId", 2)};
const struct fw_layout fw_ifr_animation_layout = FW_LAYOUT("IFR ANIMATION", 4, animation_fields);
static const struct fw_field reset_button_fields[] = {STRING_ID("Prompt", 2), STRING_ID("Help", 4), HEX16("DefaultId", 6)};
const struct fw_layout fw_ifr_reset_button_layout = FW_LAYOUT("IFR RESET_BUTTON", 8, reset_button_fields);
/* NO_SUBMIT_IF and INCONSISTENT_IF */
static const struct fw_field error_fields[] = {STRING_ID("Error", 2)};
const struct fw_layout fw_ifr_error_layout = FW_LAYOUT("IFR NO_SUBMIT_IF/INCONSISTENT_IF", 4, error_fields);
static const struct fw_field eq_id_id_fields[] = {HEX16("QuestionId", 2), HEX16("OtherQuestionId", 4)};
const struct fw_layout fw_ifr_eq_id_id_layout = FW_LAYOUT("IFR EQ_ID_ID", 6, eq_id_id_fields);
/* RULE and RULE_REF */
static const struct fw_field rule_fields[] = {HEX8("RuleId", 2)};
const struct fw_layout fw_ifr_rule_layout = FW_LAYOUT("IFR RULE", 3, rule_fields);
static const struct fw_field refresh_fields[] = {HEX8("RefreshInterval", 2)};
const struct fw_layout fw_ifr_refresh_layout = FW_LAYOUT("IFR REFRESH", 3, refresh_fields);
static const struct fw_field varstore_name_value_fields[] = {GUID("Guid", 4), HEX16("VarStoreId", 2)};
const struct fw_layout fw_ifr_varstore_name_value_layout = FW_LAYOUT("IFR VARSTORE_NAME_VALUE", 20, varstore_name_value_fields);
static const struct fw_field varstore_device_fields[] = {STRING_ID("DevicePath", 2)};
const struct fw_layout fw_ifr_varstore_device_layout = FW_LAYOUT("IFR VARSTORE_DEVICE", 4, varstore_device_fields);
/* GET and SET */
static const struct fw_field get_set_fields[] = {HEX16("VarStoreId", 2), HEX16("VarStoreInfo", 4), HEX8("VarStoreType", 6)};
const struct fw_layout fw_ifr_get_set_layout = FW_LAYOUT("IFR GET/SET", 7, get_set_fields);
/* TO_STRING and FIND */
static const struct fw_field format_fields[] = {HEX8("Format", 2)};
const struct fw_layout fw_ifr_format_layout = FW_LAYOUT("IFR TO_STRING/FIND", 3, format_fields);
static const struct fw_field string_ref1_fields[] = {STRING_ID("String", 2)};
const struct fw_layout fw_ifr_string_ref1_layout = FW_LAYOUT("IFR STRING_REF1", 4, string_ref1_fields);
/* QUESTION_REF3: nothing, a device path (4 bytes), or both and a GUID (20) */
static const struct fw_field question_ref3_fields[] = {STRING_ID("DevicePath", 2), GUID("Guid", 4)};
const struct fw_layout fw_ifr_question_ref3_layout = FW_LAYOUT("IFR QUESTION_REF3", 2, question_ref3_fields);
static const struct fw_field span_fields[] = {HEX8("Flags", 2)};
const struct fw_layout fw_ifr_span_layout = FW_LAYOUT("IFR SPAN", 3, span_fields);
/* SECURITY, REFRESH_ID and MATCH2 */
static const struct fw_field guid_only_fields[] = {GUID("Guid", 2)};
const struct fw_layout fw_ifr_guid_only_layout = FW_LAYOUT("IFR GUID operand", 18, guid_only_fields);
static const struct fw_field warning_if_fields[] = {HEX8("Timeout", 4), STRING_ID("Warning", 2)};
const struct fw_layout fw_ifr_warning_if_layout = FW_LAYOUT("IFR WARNING_IF", 5, warning_if_fields);
/* FORM_MAP: FormId, then 18-byte methods (title string id, GUID) */
static const struct fw_field form_map_fields[] = {HEX16("FormId", 2)};
const struct fw_layout fw_ifr_form_map_layout = FW_LAYOUT("IFR FORM_MAP", 4, form_map_fields);

static const struct fw_field package_list_fields[HII_LIST__COUNT] = {
	[HII_LIST_GUID] = {"PackageListGuid", FW_FT_GUID, 0, 0, 0, NULL},
	[HII_LIST_LENGTH] = {"PackageLength", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_hii_package_list_layout =
	FW_LAYOUT("HII package list header", FW_HII_PACKAGE_LIST_HEADER_SIZE, package_list_fields);

static const struct fw_field package_fields[HII_PKG__COUNT] = {
	[HII_PKG_LENGTH] = {"Length", FW_FT_U24, 0, 0, FW_FF_HEX, NULL},
	[HII_PKG_TYPE] = {"Type", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_hii_package_layout = FW_LAYOUT("HII package header", FW_HII_PACKAGE_HEADER_SIZE, package_fields);

static const struct fw_field string_package_fields[HII_STR__COUNT] = {
	[HII_STR_LENGTH] = {"Length", FW_FT_U24, 0, 0, FW_FF_HEX, NULL},
	[HII_STR_TYPE] = {"Type", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[HII_STR_HDR_SIZE] = {"HdrSize", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[HII_STR_INFO_OFFSET] = {"StringInfoOffset", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[HII_STR_LANGUAGE_WINDOW] = {"LanguageWindow", FW_FT_BYTES, 12, 32, FW_FF_HIDDEN, NULL},
	[HII_STR_LANGUAGE_NAME] = {"LanguageName", FW_FT_U16, 44, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_hii_string_package_layout = FW_LAYOUT("HII string package header", 46, string_package_fields);

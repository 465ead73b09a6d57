/* IFR opcode and HII package layouts. */
#include "ifr-layout.h"

static const struct fw_field header_fields[IFR_HDR__COUNT] = {
	[IFR_HDR_OPCODE] = {"OpCode", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IFR_HDR_LENGTH_SCOPE] = {"LengthScope", FW_FT_U8, 1, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_header_layout = FW_LAYOUT("IFR opcode header", FW_IFR_HEADER_SIZE, header_fields);

static const struct fw_named_value question_flag_names[] = {
	{0x01, "READ_ONLY"}, {0x04, "CALLBACK"}, {0x10, "RESET_REQUIRED"}, {0x20, "REST_STYLE"},
	{0x40, "RECONNECT_REQUIRED"}, {0x80, "OPTIONS_ONLY"}, {0, NULL},
};
static const struct fw_field question_fields[IFR_Q__COUNT] = {
	[IFR_Q_PROMPT] = {"Prompt", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_Q_HELP] = {"Help", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[IFR_Q_QUESTION_ID] = {"QuestionId", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},
	[IFR_Q_VARSTORE_ID] = {"VarStoreId", FW_FT_U16, 8, 0, FW_FF_HEX, NULL},
	[IFR_Q_VARSTORE_INFO] = {"VarStoreInfo", FW_FT_U16, 10, 0, FW_FF_HEX, NULL},
	[IFR_Q_FLAGS] = {"QuestionFlags", FW_FT_U8, 12, 0, FW_FF_FLAGS, question_flag_names},
};
const struct fw_layout fw_ifr_question_layout = FW_LAYOUT("IFR question header", 13, question_fields);

static const struct fw_field form_set_fields[IFR_FORMSET__COUNT] = {
	[IFR_FORMSET_GUID] = {"Guid", FW_FT_GUID, 2, 0, 0, NULL},
	[IFR_FORMSET_TITLE] = {"FormSetTitle", FW_FT_U16, 18, 0, FW_FF_HEX, NULL},
	[IFR_FORMSET_HELP] = {"Help", FW_FT_U16, 20, 0, FW_FF_HEX, NULL},
	[IFR_FORMSET_FLAGS] = {"Flags", FW_FT_U8, 22, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_form_set_layout = FW_LAYOUT("IFR FORM_SET", FW_IFR_FORM_SET_SIZE, form_set_fields);

static const struct fw_field form_fields[IFR_FORM__COUNT] = {
	[IFR_FORM_ID] = {"FormId", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_FORM_TITLE] = {"FormTitle", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_form_layout = FW_LAYOUT("IFR FORM", 6, form_fields);

static const struct fw_field subtitle_fields[IFR_SUBTITLE__COUNT] = {
	[IFR_SUBTITLE_PROMPT] = {"Prompt", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_SUBTITLE_HELP] = {"Help", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[IFR_SUBTITLE_FLAGS] = {"Flags", FW_FT_U8, 6, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_subtitle_layout = FW_LAYOUT("IFR SUBTITLE", 7, subtitle_fields);

static const struct fw_field text_fields[IFR_TEXT__COUNT] = {
	[IFR_TEXT_PROMPT] = {"Prompt", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_TEXT_HELP] = {"Help", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[IFR_TEXT_TEXT_TWO] = {"TextTwo", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},
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
	[IFR_CHECKBOX_FLAGS] = {"Flags", FW_FT_U8, 13, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_checkbox_layout = FW_LAYOUT("IFR CHECKBOX", 14, checkbox_fields);

static const struct fw_field string_fields[IFR_STRING__COUNT] = {
	[IFR_STRING_MIN_SIZE] = {"MinSize", FW_FT_U8, 13, 0, 0, NULL},
	[IFR_STRING_MAX_SIZE] = {"MaxSize", FW_FT_U8, 14, 0, 0, NULL},
	[IFR_STRING_FLAGS] = {"Flags", FW_FT_U8, 15, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_string_layout = FW_LAYOUT("IFR STRING", 16, string_fields);

static const struct fw_field password_fields[IFR_PASSWORD__COUNT] = {
	[IFR_PASSWORD_MIN_SIZE] = {"MinSize", FW_FT_U16, 13, 0, 0, NULL},
	[IFR_PASSWORD_MAX_SIZE] = {"MaxSize", FW_FT_U16, 15, 0, 0, NULL},
};
const struct fw_layout fw_ifr_password_layout = FW_LAYOUT("IFR PASSWORD", 17, password_fields);

static const struct fw_field ref_fields[IFR_REF__COUNT] = {
	[IFR_REF_FORM_ID] = {"FormId", FW_FT_U16, 13, 0, FW_FF_HEX, NULL},
	[IFR_REF_QUESTION_ID] = {"RefQuestionId", FW_FT_U16, 15, 0, FW_FF_HEX, NULL},
	[IFR_REF_FORMSET_ID] = {"FormSetId", FW_FT_GUID, 17, 0, 0, NULL},
	[IFR_REF_DEVICE_PATH] = {"DevicePath", FW_FT_U16, 33, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_ref_layout = FW_LAYOUT("IFR REF", FW_IFR_REF_SIZE, ref_fields);

static const struct fw_named_value option_flag_names[] = {{0x10, "DEFAULT"}, {0x20, "DEFAULT_MFG"}, {0, NULL}};
static const struct fw_field option_fields[IFR_OPTION__COUNT] = {
	[IFR_OPTION_OPTION] = {"Option", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_OPTION_FLAGS] = {"Flags", FW_FT_U8, 4, 0, FW_FF_FLAGS, option_flag_names},
	[IFR_OPTION_TYPE] = {"Type", FW_FT_U8, 5, 0, FW_FF_HEX, NULL},
	[IFR_OPTION_VALUE] = {"Value", FW_FT_BYTES, 6, 8, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ifr_one_of_option_layout = FW_LAYOUT("IFR ONE_OF_OPTION", 6, option_fields);

static const struct fw_field default_fields[IFR_DEFAULT__COUNT] = {
	[IFR_DEFAULT_ID] = {"DefaultId", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_DEFAULT_TYPE] = {"Type", FW_FT_U8, 4, 0, FW_FF_HEX, NULL},
	[IFR_DEFAULT_VALUE] = {"Value", FW_FT_BYTES, 5, 8, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ifr_default_layout = FW_LAYOUT("IFR DEFAULT", 5, default_fields);

static const struct fw_field defaultstore_fields[IFR_DEFAULTSTORE__COUNT] = {
	[IFR_DEFAULTSTORE_NAME] = {"DefaultName", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_DEFAULTSTORE_ID] = {"DefaultId", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_defaultstore_layout = FW_LAYOUT("IFR DEFAULTSTORE", 6, defaultstore_fields);

static const struct fw_field varstore_fields[IFR_VARSTORE__COUNT] = {
	[IFR_VARSTORE_GUID] = {"Guid", FW_FT_GUID, 2, 0, 0, NULL},
	[IFR_VARSTORE_ID] = {"VarStoreId", FW_FT_U16, 18, 0, FW_FF_HEX, NULL},
	[IFR_VARSTORE_SIZE] = {"Size", FW_FT_U16, 20, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_varstore_layout = FW_LAYOUT("IFR VARSTORE", FW_IFR_VARSTORE_NAME, varstore_fields);

static const struct fw_field varstore_efi_fields[IFR_VARSTORE_EFI__COUNT] = {
	[IFR_VARSTORE_EFI_ID] = {"VarStoreId", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_VARSTORE_EFI_GUID] = {"Guid", FW_FT_GUID, 4, 0, 0, NULL},
	[IFR_VARSTORE_EFI_ATTRIBUTES] = {"Attributes", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[IFR_VARSTORE_EFI_SIZE] = {"Size", FW_FT_U16, 24, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_varstore_efi_layout =
	FW_LAYOUT("IFR VARSTORE_EFI", FW_IFR_VARSTORE_EFI_NAME, varstore_efi_fields);

static const struct fw_field eq_id_val_fields[IFR_EQ_ID_VAL__COUNT] = {
	[IFR_EQ_ID_VAL_QUESTION_ID] = {"QuestionId", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_EQ_ID_VAL_VALUE] = {"Value", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_eq_id_val_layout = FW_LAYOUT("IFR EQ_ID_VAL", 6, eq_id_val_fields);

static const struct fw_field eq_id_list_fields[IFR_EQ_ID_LIST__COUNT] = {
	[IFR_EQ_ID_LIST_QUESTION_ID] = {"QuestionId", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IFR_EQ_ID_LIST_LENGTH] = {"ListLength", FW_FT_U16, 4, 0, 0, NULL},
};
const struct fw_layout fw_ifr_eq_id_val_list_layout = FW_LAYOUT("IFR EQ_ID_VAL_LIST", 6, eq_id_list_fields);

static const struct fw_field qref1_fields[IFR_QREF1__COUNT] = {
	[IFR_QREF1_QUESTION_ID] = {"QuestionId", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_question_ref1_layout = FW_LAYOUT("IFR QUESTION_REF1", 4, qref1_fields);

static const struct fw_field uint_fields[IFR_UINT__COUNT] = {
	[IFR_UINT_VALUE] = {"Value", FW_FT_BYTES, 2, 8, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ifr_uint_layout = FW_LAYOUT("IFR UINTn", 3, uint_fields);

static const struct fw_field guid_fields[IFR_GUID__COUNT] = {
	[IFR_GUID_GUID] = {"Guid", FW_FT_GUID, 2, 0, 0, NULL},
	[IFR_GUID_EXT_OPCODE] = {"ExtendOpCode", FW_FT_U8, 18, 0, FW_FF_HEX, NULL},
	[IFR_GUID_EXT_VALUE] = {"ExtendValue", FW_FT_U16, 19, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ifr_guid_layout = FW_LAYOUT("IFR GUID", FW_IFR_GUID_SIZE, guid_fields);

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

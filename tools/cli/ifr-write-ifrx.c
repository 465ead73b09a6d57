/* `fwlens ifr --format ifrextractor`: one line per opcode in the shapes IFRExtractor-RS 1.6.0 prints
 * (reference/ifr.md 4.1), for scripts written against that tool. Values are decoded by fwlens:
 * where the other tool mis-decodes (GUID-op numbers, DUPLICATE strings) fwlens prints the right
 * value in the same shape. Sizes are in bits and option values decimal, as there. */
#include <inttypes.h>
#include <string.h>

#include "ifr-writers.h"

static void guid_str(FILE *f, const uint8_t *p)
{
	struct fw_guid g;
	char s[FW_GUID_STR_LEN];
	memcpy(g.b, p, 16);
	fputs(fw_guid_format(&g, s), f);
}

static void str(FILE *f, const struct fw_hii_form_pkg *fp, uint16_t id)
{
	fputs(fw_hii_string_or(fp, id, "InvalidId"), f);
}

/* Rust's {:02X?} of a byte slice: [0A, FF] */
static void raw_hex(FILE *f, const uint8_t *p, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%02X", i ? ", " : "", p[i]);
	fputc(']', f);
}

/* Rust's {:?} of a byte slice: [10, 255] */
static void raw_dec(FILE *f, const uint8_t *p, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? ", " : "", p[i]);
	fputc(']', f);
}

static void raw_data(FILE *f, const struct fw_ifr_op *o)
{
	fputs("RawData: ", f);
	raw_hex(f, o->p + 2, o->length - 2u);
}

static void qheader(FILE *f, const struct fw_hii_form_pkg *fp, const uint8_t *p, const char *info_name)
{
	fputs("Prompt: \"", f);
	str(f, fp, fw_le16(p + 2));
	fputs("\", Help: \"", f);
	str(f, fp, fw_le16(p + 4));
	fprintf(f, "\", QuestionFlags: 0x%X, QuestionId: 0x%X, VarStoreId: 0x%X, %s: 0x%X", p[12], fw_le16(p + 6),
		fw_le16(p + 8), info_name, fw_le16(p + 10));
}

/* ONE_OF / NUMERIC: the limits' size comes from Flags bits 0-1. */
static void numeric(FILE *f, const struct fw_hii_form_pkg *fp, const struct fw_ifr_op *o)
{
	const uint8_t *p = o->p;
	if (o->length < 14) {
		raw_data(f, o);
		return;
	}
	unsigned size = 1u << (p[13] & 3);
	if (o->length < 14 + 3 * size) {
		raw_data(f, o);
		return;
	}
	qheader(f, fp, p, "VarOffset");
	fprintf(f, ", Flags: 0x%X, Size: %u, Min: 0x%" PRIX64 ", Max: 0x%" PRIX64 ", Step: 0x%" PRIX64, p[13], size * 8,
		fw_ifr_read_le(p + 14, size), fw_ifr_read_le(p + 14 + size, size), fw_ifr_read_le(p + 14 + 2 * size, size));
}

/* Does the typed value at type_off (type byte, then the value) fit in the opcode? */
static bool value_fits(const struct fw_ifr_op *o, size_t type_off)
{
	if (o->length < type_off + 1)
		return false;
	uint8_t type = o->p[type_off];
	int size = fw_ifr_type_size(type);
	return type == FW_IFR_TYPE_REF || size <= 0 || (size_t)size <= o->length - type_off - 1;
}

/* A typed value (ONE_OF_OPTION at 5, DEFAULT at 4); the caller checked value_fits. */
static void typed_value(FILE *f, const struct fw_hii_form_pkg *fp, const struct fw_ifr_op *o, size_t type_off)
{
	const uint8_t *p = o->p;
	uint8_t type = p[type_off];
	size_t off = type_off + 1, left = o->length - off;
	int size = fw_ifr_type_size(type);
	switch (type) {
	case FW_IFR_TYPE_NUM_8: case FW_IFR_TYPE_NUM_16: case FW_IFR_TYPE_NUM_32: case FW_IFR_TYPE_NUM_64:
		fprintf(f, "Value: %" PRIu64, fw_ifr_read_le(p + off, (size_t)size));
		return;
	case FW_IFR_TYPE_BOOLEAN:
		fprintf(f, "Value: %s", p[off] ? "true" : "false");
		return;
	case FW_IFR_TYPE_TIME:
		fprintf(f, "Value: %02u:%02u:%02u", p[off], p[off + 1], p[off + 2]);
		return;
	case FW_IFR_TYPE_DATE:
		fprintf(f, "Value: %04u-%02u-%02u", fw_le16(p + off), p[off + 2], p[off + 3]);
		return;
	case FW_IFR_TYPE_STRING:
		fputs("String: \"", f);
		str(f, fp, fw_le16(p + off));
		fputc('"', f);
		return;
	case FW_IFR_TYPE_ACTION:
		fputs("Action: \"", f);
		str(f, fp, fw_le16(p + off));
		fputc('"', f);
		return;
	case FW_IFR_TYPE_OTHER:
		fputs("Value: Other", f);
		return;
	case FW_IFR_TYPE_UNDEFINED:
		fputs("Value: Undefined", f);
		return;
	case FW_IFR_TYPE_BUFFER:
		fputs("Value: Buffer: ", f);
		raw_dec(f, p + off, left);
		return;
	case FW_IFR_TYPE_REF:
		/* optional parts by what is left, as that tool reads them */
		fputs("Value: Ref", f);
		if (left >= 2)
			fprintf(f, " QuestionId: 0x%X", fw_le16(p + off));
		if (left >= 4)
			fprintf(f, " FormId: 0x%X", fw_le16(p + off + 2));
		if (left >= 20) {
			fputs(" FormSetGuid: ", f);
			guid_str(f, p + off + 4);
		}
		if (left >= 24)
			fprintf(f, " DevicePathId: %u", fw_le16(p + off + 20));
		return;
	default:
		fprintf(f, "Value: Unknown: %u", type);
		return;
	}
}

static void guid_op(FILE *f, const struct fw_hii_form_pkg *fp, const struct fw_ifr_op *o)
{
	static const uint8_t tiano[16] = {0x35, 0x17, 0x0B, 0x0F, 0xA0, 0x87, 0x93, 0x41,
					  0xB2, 0x66, 0x53, 0x8C, 0x38, 0xAF, 0x48, 0xCE};
	static const uint8_t framework[16] = {0x1A, 0x5D, 0xCA, 0x31, 0x11, 0xD5, 0x31, 0x49,
					      0xB7, 0x82, 0xAE, 0x6B, 0x2B, 0x17, 0x8C, 0xD7};
	static const char *const edk2_names[] = {"Label", "Banner", "Timeout", "Class", "SubClass"};
	static const char *const edk2_fields[] = {"LabelNumber", NULL, "Timeout", "Class", "SubClass"};
	const uint8_t *p = o->p, *d = p + 19;
	size_t dlen = o->length > 19 ? o->length - 19u : 0;
	if (o->length >= 19 && memcmp(p + 2, tiano, 16) == 0 && p[18] <= 4) {
		uint8_t ext = p[18];
		if (ext == 1 && dlen >= 5) {
			fputs("Guid: ", f);
			guid_str(f, p + 2);
			fputs(", ExtendedOpCode: Banner, Title: \"", f);
			str(f, fp, fw_le16(d));
			fprintf(f, "\", LineNumber: 0x%X, Alignment: 0x%X ", fw_le16(d + 2), d[4]);
			return;
		}
		if (ext != 1 && dlen == 2) {
			fputs("Guid: ", f);
			guid_str(f, p + 2);
			fprintf(f, ", ExtendedOpCode: %s, %s: 0x%X", edk2_names[ext], edk2_fields[ext], fw_le16(d));
			return;
		}
	}
	if (o->length >= 21 && memcmp(p + 2, framework, 16) == 0 && p[18] <= 1) {
		uint16_t qid = fw_le16(p + 19);
		const uint8_t *rest = p + 21;
		size_t rlen = o->length - 21u;
		if (p[18] == 0) {
			fputs("Guid: ", f);
			guid_str(f, p + 2);
			fprintf(f, ", ExtendedOpCode: OptionKey, QuestionId: 0x%X, Data: ", qid);
			raw_dec(f, rest, rlen);
			return;
		}
		if (rlen == 2) {
			fputs("Guid: ", f);
			guid_str(f, p + 2);
			fprintf(f, ", ExtendedOpCode: VarEqName, QuestionId: 0x%X, Name: \"", qid);
			str(f, fp, fw_le16(rest));
			fputc('"', f);
			return;
		}
	}
	fputs("Guid: ", f);
	guid_str(f, p + 2);
	fputs(", Optional data: ", f);
	raw_dec(f, p + 18, o->length - 18u);
}

static void asciiz(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n && p[i]; i++)
		fputc(p[i] >= 0x20 && p[i] < 0x7F ? p[i] : '?', f);
}

/* The fields after the opcode name; false = print RawData instead. */
static bool fields(FILE *f, const struct fw_hii_form_pkg *fp, const struct fw_ifr_op *o)
{
	const uint8_t *p = o->p;
	unsigned len = o->length;
	switch (o->opcode) {
	case FW_IFR_FORM:
		if (len < 6)
			return false;
		fprintf(f, "FormId: 0x%X, Title: \"", fw_le16(p + 2));
		str(f, fp, fw_le16(p + 4));
		fputc('"', f);
		return true;
	case FW_IFR_SUBTITLE:
		if (len < 7)
			return false;
		fputs("Prompt: \"", f);
		str(f, fp, fw_le16(p + 2));
		fputs("\", Help: \"", f);
		str(f, fp, fw_le16(p + 4));
		fprintf(f, "\", Flags: 0x%X", p[6]);
		return true;
	case FW_IFR_TEXT:
		if (len < 8)
			return false;
		fputs("Prompt: \"", f);
		str(f, fp, fw_le16(p + 2));
		fputs("\", Help: \"", f);
		str(f, fp, fw_le16(p + 4));
		fputs("\", Text: \"", f);
		str(f, fp, fw_le16(p + 6));
		fputc('"', f);
		return true;
	case FW_IFR_IMAGE:
	case FW_IFR_ANIMATION:
		if (len < 4)
			return false;
		fprintf(f, "%s: 0x%X", o->opcode == FW_IFR_IMAGE ? "ImageId" : "AnimationId", fw_le16(p + 2));
		return true;
	case FW_IFR_ONE_OF:
	case FW_IFR_NUMERIC:
		numeric(f, fp, o);
		return true;
	case FW_IFR_CHECKBOX:
		if (len < 14)
			return false;
		qheader(f, fp, p, "VarOffset");
		fprintf(f, ", Flags: 0x%X, Default: %s, MfgDefault: %s", p[13], p[13] & 1 ? "Enabled" : "Disabled",
			p[13] & 2 ? "Enabled" : "Disabled");
		return true;
	case FW_IFR_PASSWORD:
		if (len < 17)
			return false;
		qheader(f, fp, p, "VarStoreInfo");
		fprintf(f, ", MinSize: 0x%X, MaxSize: 0x%X", fw_le16(p + 13), fw_le16(p + 15));
		return true;
	case FW_IFR_ONE_OF_OPTION:
		if (len < 6 || !value_fits(o, 5))
			return false;
		fputs("Option: \"", f);
		str(f, fp, fw_le16(p + 2));
		fputs("\" ", f);
		typed_value(f, fp, o, 5);
		if (p[4] & FW_IFR_OPTION_DEFAULT)
			fputs(", Default", f);
		if (p[4] & FW_IFR_OPTION_DEFAULT_MFG)
			fputs(", MfgDefault", f);
		return true;
	case FW_IFR_ACTION:
		if (len < 13)
			return false;
		qheader(f, fp, p, "VarStoreInfo");
		if (len >= 15) {
			fputs(", QuestionConfig: \"", f);
			str(f, fp, fw_le16(p + 13));
			fputc('"', f);
		}
		return true;
	case FW_IFR_RESET_BUTTON:
		if (len < 8)
			return false;
		fputs("Prompt: \"", f);
		str(f, fp, fw_le16(p + 2));
		fputs("\", Help: \"", f);
		str(f, fp, fw_le16(p + 4));
		fprintf(f, "\", DefaultId: 0x%X", fw_le16(p + 6));
		return true;
	case FW_IFR_FORM_SET:
		if (len < 22)
			return false;
		fputs("Guid: ", f);
		guid_str(f, p + 2);
		fputs(", Title: \"", f);
		str(f, fp, fw_le16(p + 18));
		fputs("\", Help: \"", f);
		str(f, fp, fw_le16(p + 20));
		fputc('"', f);
		return true;
	case FW_IFR_REF:
		if (len < 13)
			return false;
		qheader(f, fp, p, "VarStoreInfo");
		if (len >= 15)
			fprintf(f, ", FormId: 0x%X", fw_le16(p + 13));
		if (len >= 17)
			fprintf(f, ", RefQuestionId: 0x%X", fw_le16(p + 15));
		if (len >= 33) {
			fputs(", FormSetGuid: ", f);
			guid_str(f, p + 17);
		}
		if (len >= 35)
			fprintf(f, ", DevicePathId: 0x%X", fw_le16(p + 33));
		return true;
	case FW_IFR_NO_SUBMIT_IF:
	case FW_IFR_INCONSISTENT_IF:
		if (len < 4)
			return false;
		fputs("Error: \"", f);
		str(f, fp, fw_le16(p + 2));
		fputc('"', f);
		return true;
	case FW_IFR_EQ_ID_VAL:
		if (len < 6)
			return false;
		fprintf(f, "QuestionId: 0x%X, Value: 0x%X", fw_le16(p + 2), fw_le16(p + 4));
		return true;
	case FW_IFR_EQ_ID_ID:
		if (len < 6)
			return false;
		fprintf(f, "QuestionId: 0x%X, OtherQuestionId: 0x%X", fw_le16(p + 2), fw_le16(p + 4));
		return true;
	case FW_IFR_EQ_ID_VAL_LIST: {
		if (len < 6)
			return false;
		uint16_t n = fw_le16(p + 4);
		if (6u + 2u * n > len)
			return false;
		fprintf(f, "QuestionId: 0x%X, Values: [", fw_le16(p + 2));
		for (uint16_t i = 0; i < n; i++)
			fprintf(f, "%s%u", i ? ", " : "", fw_le16(p + 6 + 2 * i));
		fputc(']', f);
		return true;
	}
	case FW_IFR_RULE:
	case FW_IFR_RULE_REF:
		if (len < 3)
			return false;
		fprintf(f, "RuleId: 0x%X", p[2]);
		return true;
	case FW_IFR_DATE:
	case FW_IFR_TIME:
		if (len < 14)
			return false;
		qheader(f, fp, p, "VarStoreInfo");
		fprintf(f, ", Flags: 0x%X", p[13]);
		return true;
	case FW_IFR_STRING:
		if (len < 16)
			return false;
		qheader(f, fp, p, "VarStoreInfo");
		fprintf(f, ", MinSize: 0x%X, MaxSize: 0x%X, Flags: 0x%X", p[13], p[14], p[15]);
		return true;
	case FW_IFR_REFRESH:
		if (len < 3)
			return false;
		fprintf(f, "RefreshInterval: 0x%X", p[2]);
		return true;
	case FW_IFR_ORDERED_LIST:
		if (len < 15)
			return false;
		qheader(f, fp, p, "VarOffset");
		fprintf(f, ", MaxContainers: 0x%X, Flags: 0x%X", p[13], p[14]);
		return true;
	case FW_IFR_VARSTORE: {
		const uint8_t *nul = len > 22 ? memchr(p + 22, 0, len - 22u) : NULL;
		if (len < 23 || !nul)
			return false;
		fputs("Guid: ", f);
		guid_str(f, p + 2);
		fprintf(f, ", VarStoreId: 0x%X, Size: 0x%X, Name: \"", fw_le16(p + 18), fw_le16(p + 20));
		asciiz(f, p + 22, len - 22u);
		fputc('"', f);
		return true;
	}
	case FW_IFR_VARSTORE_NAME_VALUE:
		if (len < 20)
			return false;
		fputs("Guid: ", f);
		guid_str(f, p + 4);
		fprintf(f, ", VarStoreId: 0x%X", fw_le16(p + 2));
		return true;
	case FW_IFR_VARSTORE_EFI: {
		if (len < 24)
			return false;
		const uint8_t *nul = len > 26 ? memchr(p + 26, 0, len - 26u) : NULL;
		if (len >= 28 && !nul)
			return false;
		fputs("Guid: ", f);
		guid_str(f, p + 4);
		fprintf(f, ", VarStoreId: 0x%X, Attributes: 0x%X", fw_le16(p + 2), fw_le32(p + 20));
		if (len >= 26)
			fprintf(f, ", Size: 0x%X", fw_le16(p + 24));
		if (len >= 28) {
			fputs(", Name: \"", f);
			asciiz(f, p + 26, len - 26u);
			fputc('"', f);
		}
		return true;
	}
	case FW_IFR_VARSTORE_DEVICE:
		if (len < 4)
			return false;
		fputs("DevicePath: \"", f);
		str(f, fp, fw_le16(p + 2));
		fputc('"', f);
		return true;
	case FW_IFR_GET:
	case FW_IFR_SET:
		if (len < 7)
			return false;
		fprintf(f, "VarStoreId: 0x%X, VarStoreInfo: 0x%X, VarStoreType: 0x%X", fw_le16(p + 2), fw_le16(p + 4), p[6]);
		return true;
	case FW_IFR_QUESTION_REF1:
		if (len < 4)
			return false;
		fprintf(f, "QuestionId: 0x%X", fw_le16(p + 2));
		return true;
	case FW_IFR_UINT8: case FW_IFR_UINT16: case FW_IFR_UINT32: case FW_IFR_UINT64: {
		unsigned size = 1u << (o->opcode - FW_IFR_UINT8);
		if (len < 2 + size)
			return false;
		fprintf(f, "Value: 0x%" PRIX64, fw_ifr_read_le(p + 2, size));
		return true;
	}
	case FW_IFR_TO_STRING:
	case FW_IFR_FIND:
		if (len < 3)
			return false;
		fprintf(f, "Format: 0x%X", p[2]);
		return true;
	case FW_IFR_STRING_REF1:
		if (len < 4)
			return false;
		fputs("String: \"", f);
		str(f, fp, fw_le16(p + 2));
		fputc('"', f);
		return true;
	case FW_IFR_QUESTION_REF3:
		if (len >= 4) {
			fputs("DevicePath: \"", f);
			str(f, fp, fw_le16(p + 2));
			fputc('"', f);
		}
		if (len >= 20) {
			fputs("Guid: ", f);
			guid_str(f, p + 4);
		}
		return true;
	case FW_IFR_SPAN:
		if (len < 3)
			return false;
		fprintf(f, "Flags: 0x%X", p[2]);
		return true;
	case FW_IFR_DEFAULT:
		if (len < 5 || !value_fits(o, 4))
			return false; /* DEFAULT_2 (a VALUE expression follows) prints as raw data there too */
		fprintf(f, "DefaultId: 0x%X ", fw_le16(p + 2));
		typed_value(f, fp, o, 4);
		return true;
	case FW_IFR_DEFAULTSTORE:
		if (len < 6)
			return false;
		fprintf(f, "DefaultId: 0x%X, Name: \"", fw_le16(p + 4));
		str(f, fp, fw_le16(p + 2));
		fputc('"', f);
		return true;
	case FW_IFR_FORM_MAP:
		if (len < 4)
			return false;
		fprintf(f, "FormId: 0x%X", fw_le16(p + 2));
		for (unsigned off = 4; off + 18 <= len; off += 18) {
			fputs("| Guid: ", f);
			guid_str(f, p + off + 2);
			fputs(", Method: \"", f);
			str(f, fp, fw_le16(p + off));
			fputc('"', f);
		}
		return true;
	case FW_IFR_GUID:
		if (len < 18)
			return false;
		guid_op(f, fp, o);
		return true;
	case FW_IFR_SECURITY:
	case FW_IFR_REFRESH_ID:
	case FW_IFR_MATCH2:
		if (len < 18)
			return false;
		fputs("Guid: ", f);
		guid_str(f, p + 2);
		return true;
	case FW_IFR_WARNING_IF:
		if (len < 5)
			return false;
		fprintf(f, "Timeout: 0x%X, Warning: \"", p[4]);
		str(f, fp, fw_le16(p + 2));
		fputc('"', f);
		return true;
	default:
		return true; /* opcodes without fields */
	}
}

void fw_ifrx_write(FILE *f, const struct fw_hii_form_pkg *fp)
{
	const struct fw_ifr_formset *fs = &fp->fs;
	fputs("Program version: 1.6.0, Extraction mode: UEFI\n", f);
	for (uint32_t i = 0; i < fs->nops; i++) {
		const struct fw_ifr_op *o = &fs->ops[i];
		for (unsigned d = 0; d < o->depth; d++)
			fputc('\t', f);
		const struct fw_ifr_opcode_info *info = fw_ifr_opcode_info(o->opcode);
		if (!info) {
			fprintf(f, "Unknown(%u) ", o->opcode);
			raw_data(f, o);
		} else {
			/* that tool spells 0x3B "Substract" */
			fprintf(f, "%s ", o->opcode == FW_IFR_SUBTRACT ? "Substract" : info->name);
			if (!fields(f, fp, o))
				raw_data(f, o);
		}
		fputc('\n', f);
	}
}

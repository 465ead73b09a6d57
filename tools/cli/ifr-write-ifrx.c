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

/* The fields of a layout in its order, ", " between them: "Name: 0x1F", "Name: \"string\"",
 * "Name: GUID"; nested structures (the question header) in place; fields past the layout's
 * size only when the opcode is long enough to hold them. */
static void layout_fields(FILE *f, const struct fw_hii_form_pkg *fp, const struct fw_ifr_op *o, const struct fw_layout *l,
			  bool *first)
{
	struct fw_view v = {o->p, o->length, FW_OFFSET_UNKNOWN};
	for (size_t i = 0; i < l->nfields; i++) {
		const struct fw_field *fd = &l->fields[i];
		if ((fd->flags & FW_FF_HIDDEN) || fd->offset + fw_field_width(fd) > o->length)
			continue;
		if (fd->type == FW_FT_STRUCT) {
			layout_fields(f, fp, o, fw_field_sub(fd), first);
			continue;
		}
		fprintf(f, "%s%s: ", *first ? "" : ", ", fd->name);
		*first = false;
		if (fd->type == FW_FT_GUID) {
			guid_str(f, o->p + fd->offset);
		} else if (fd->flags & FW_FF_STRING) {
			fputc('"', f);
			str(f, fp, (uint16_t)fw_layout_get(l, &v, 0, (unsigned)i));
			fputc('"', f);
		} else {
			fprintf(f, "0x%" PRIX64, fw_layout_get(l, &v, 0, (unsigned)i));
		}
	}
}

/* The fields after the opcode name; false = print RawData instead. Opcodes whose bytes are
 * their layout print from it; the cases below are the irregular ones (values sized by a type or
 * a flag, lists, names, GUID extensions). */
static bool fields(FILE *f, const struct fw_hii_form_pkg *fp, const struct fw_ifr_op *o)
{
	const struct fw_ifr_opcode_info *info = fw_ifr_opcode_info(o->opcode);
	const uint8_t *p = o->p;
	unsigned len = o->length;
	bool first = true;
	switch (o->opcode) {
	case FW_IFR_ONE_OF:
	case FW_IFR_NUMERIC:
		numeric(f, fp, o);
		return true;
	case FW_IFR_CHECKBOX:
		if (len < fw_ifr_checkbox_layout.size)
			return false;
		layout_fields(f, fp, o, &fw_ifr_checkbox_layout, &first);
		fprintf(f, ", Default: %s, MfgDefault: %s", p[13] & FW_IFR_CHECKBOX_DEFAULT ? "Enabled" : "Disabled",
			p[13] & FW_IFR_CHECKBOX_DEFAULT_MFG ? "Enabled" : "Disabled");
		return true;
	case FW_IFR_ONE_OF_OPTION:
		if (len < fw_ifr_one_of_option_layout.size || !value_fits(o, 5))
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
	case FW_IFR_EQ_ID_VAL_LIST: {
		if (len < fw_ifr_eq_id_val_list_layout.size)
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
	case FW_IFR_VARSTORE: {
		const uint8_t *nul = len > 22 ? memchr(p + 22, 0, len - 22u) : NULL;
		if (len < 23 || !nul)
			return false;
		layout_fields(f, fp, o, &fw_ifr_varstore_layout, &first);
		fputs(", Name: \"", f);
		asciiz(f, p + 22, len - 22u);
		fputc('"', f);
		return true;
	}
	case FW_IFR_VARSTORE_EFI: {
		if (len < fw_ifr_varstore_efi_layout.size)
			return false;
		const uint8_t *nul = len > 26 ? memchr(p + 26, 0, len - 26u) : NULL;
		if (len >= 28 && !nul)
			return false;
		layout_fields(f, fp, o, &fw_ifr_varstore_efi_layout, &first);
		if (len >= 28) {
			fputs(", Name: \"", f);
			asciiz(f, p + 26, len - 26u);
			fputc('"', f);
		}
		return true;
	}
	case FW_IFR_QUESTION_REF3: /* that tool puts no separator between its two fields */
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
	case FW_IFR_DEFAULT:
		if (len < 5 || !value_fits(o, 4))
			return false; /* DEFAULT_2 (a VALUE expression follows) prints as raw data there too */
		fprintf(f, "DefaultId: 0x%X ", fw_le16(p + 2));
		typed_value(f, fp, o, 4);
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
	default:
		if (!info->layout)
			return true; /* opcodes without fields */
		if (len < info->layout->size)
			return false;
		layout_fields(f, fp, o, info->layout, &first);
		return true;
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

/* The IFR decoder: a form package into forms, questions, options, defaults and conditions
 * (reference/ifr.md 2.1-2.4). */
#include "ifr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ifr-expr.h"
#include "parsers/ucs2.h"

#define PKG_HEADER 4
#define MAX_SCOPE_DEPTH 255

static const struct fw_guid tiano_guid = FW_GUID_INIT(0x0F0B1735, 0x87A0, 0x4193, 0xB2, 0x66, 0x53, 0x8C, 0x38, 0xAF, 0x48, 0xCE);
static const struct fw_guid bitfield_guid = FW_GUID_INIT(0x82DDD68B, 0x9163, 0x4187, 0x9B, 0x27, 0x20, 0xA8, 0xFD, 0x60, 0xA7, 0x1D);

const char *fw_ifr_varstore_kind_name(enum fw_ifr_varstore_kind k)
{
	switch (k) {
	case FW_IFR_VS_BUFFER: return "buffer";
	case FW_IFR_VS_NAME_VALUE: return "name-value";
	case FW_IFR_VS_EFI: return "efi";
	case FW_IFR_VS_DEVICE: return "device";
	}
	return "buffer";
}

const char *fw_ifr_cond_kind_name(enum fw_ifr_cond_kind k)
{
	switch (k) {
	case FW_IFR_COND_SUPPRESS: return "suppress-if";
	case FW_IFR_COND_GRAYOUT: return "gray-out-if";
	case FW_IFR_COND_DISABLE: return "disable-if";
	case FW_IFR_COND_INCONSISTENT: return "inconsistent-if";
	case FW_IFR_COND_NO_SUBMIT: return "no-submit-if";
	case FW_IFR_COND_WARNING: return "warning-if";
	}
	return "suppress-if";
}

const char *fw_ifr_kind_name(enum fw_ifr_kind k)
{
	static const char *const names[] = {
		[FW_IFR_K_SUBTITLE] = "subtitle", [FW_IFR_K_TEXT] = "text", [FW_IFR_K_IMAGE] = "image",
		[FW_IFR_K_RESET_BUTTON] = "reset-button", [FW_IFR_K_ONE_OF] = "one-of", [FW_IFR_K_CHECKBOX] = "checkbox",
		[FW_IFR_K_NUMERIC] = "numeric", [FW_IFR_K_PASSWORD] = "password", [FW_IFR_K_ACTION] = "action",
		[FW_IFR_K_REF] = "ref", [FW_IFR_K_DATE] = "date", [FW_IFR_K_TIME] = "time", [FW_IFR_K_STRING] = "string",
		[FW_IFR_K_ORDERED_LIST] = "ordered-list",
	};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "text";
}

const char *fw_ifr_default_id_name(uint16_t id, char *buf, size_t len)
{
	switch (id) {
	case 0x0000: return "standard";
	case 0x0001: return "manufacturing";
	case 0x0002: return "safe";
	default: break;
	}
	if (id >= 0x4000 && id <= 0x7FFF)
		snprintf(buf, len, "platform-0x%X", id);
	else if (id >= 0x8000 && id <= 0xBFFF)
		snprintf(buf, len, "hardware-0x%X", id);
	else if (id >= 0xC000)
		snprintf(buf, len, "firmware-0x%X", id);
	else
		snprintf(buf, len, "0x%X", id);
	return buf;
}

uint64_t fw_ifr_read_le(const uint8_t *p, size_t size)
{
	switch (size) {
	case 1: return p[0];
	case 2: return fw_le16(p);
	case 3: return fw_le24(p);
	case 4: return fw_le32(p);
	case 8: return fw_le64(p);
	default: return 0;
	}
}

/* ---- package walk ---- */

static bool walk_fail(const struct fw_view *pkg, size_t off, struct fw_error *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool walk_fail(const struct fw_view *pkg, size_t off, struct fw_error *err, const char *fmt, ...)
{
	char msg[200], at[48];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fw_error_set(err, FW_E_INVALID, "IFR form package: opcode at +0x%zx (%s): %s", off,
			    fw_offset_str(fw_view_abs(pkg, off), at, sizeof(at)), msg);
}

/* Walk every opcode; count them. */
static bool walk(const struct fw_view *pkg, uint32_t *count, struct fw_error *err)
{
	char at[48];
	if (pkg->len < PKG_HEADER + 2)
		return fw_error_set(err, FW_E_INVALID, "IFR form package at %s: too short",
				    fw_offset_str(fw_view_abs(pkg, 0), at, sizeof(at)));
	uint32_t hdr = fw_le32(pkg->p);
	if ((hdr >> 24) != FW_HII_PACKAGE_FORMS || (hdr & 0xFFFFFF) != pkg->len)
		return fw_error_set(err, FW_E_INVALID, "IFR form package at %s: bad package header 0x%08x",
				    fw_offset_str(fw_view_abs(pkg, 0), at, sizeof(at)), hdr);
	size_t off = PKG_HEADER;
	unsigned depth = 0;
	uint32_t n = 0;
	while (off < pkg->len) {
		if (!fw_view_has(pkg, off, 2))
			return walk_fail(pkg, off, err, "truncated opcode header");
		uint8_t op = pkg->p[off], lb = pkg->p[off + 1], len = lb & 0x7F;
		bool scope = lb & 0x80;
		if (len < 2)
			return walk_fail(pkg, off, err, "length %u is shorter than the opcode header", len);
		if (!fw_view_has(pkg, off, len))
			return walk_fail(pkg, off, err, "length %u runs past the package end", len);
		if (n == 0 && (op != FW_IFR_FORM_SET || !scope))
			return walk_fail(pkg, off, err, "the package does not start with a scoped FORM_SET");
		if (n > 0 && depth == 0)
			return walk_fail(pkg, off, err, "opcode after the FORM_SET scope closed");
		if (op == FW_IFR_END) {
			if (depth == 0)
				return walk_fail(pkg, off, err, "END without an open scope");
			depth--;
		}
		if (scope) {
			if (++depth > MAX_SCOPE_DEPTH)
				return walk_fail(pkg, off, err, "scopes nested deeper than %u", MAX_SCOPE_DEPTH);
		}
		off += len;
		n++;
	}
	if (depth != 0)
		return walk_fail(pkg, off, err, "%u scopes still open at the package end", depth);
	*count = n;
	return true;
}

bool fw_ifr_check_package(const struct fw_view *pkg, struct fw_error *err)
{
	uint32_t n;
	return walk(pkg, &n, err);
}

/* ---- model building ---- */

enum scope_kind { S_FORMSET, S_FORM, S_QUESTION, S_COND, S_EXPR, S_BITFIELD, S_DEFAULT, S_VALUE, S_OTHER };

struct scope {
	enum scope_kind kind;
	void *ptr;
	struct fw_ifr_cond *saved_cond; /* S_COND: the condition to restore when it closes */
};

/* Where the expression being collected goes. */
enum collect_target { C_NONE, C_COND, C_DEFAULT, C_VALUE, C_OTHER };

struct decoder {
	struct fw_arena *a;
	struct fw_ifr_formset *fs;
	struct scope stack[MAX_SCOPE_DEPTH + 2];
	unsigned sp;
	struct fw_ifr_form *form;
	struct fw_ifr_cond *cond;
	enum collect_target collecting;
	void *target;
	uint32_t collect_start;
	unsigned expr_depth;
	unsigned bitfield;
	uint16_t *ids;
	uint32_t nids, cap_ids;
};

static void diag(struct decoder *d, const struct fw_ifr_op *o, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void diag(struct decoder *d, const struct fw_ifr_op *o, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	struct fw_ifr_diag *g = fw_arena_alloc(d->a, sizeof(*g));
	g->offset = o ? o->offset : 0;
	g->msg = fw_arena_strdup(d->a, msg);
	if (d->fs->diags_tail)
		d->fs->diags_tail->next = g;
	else
		d->fs->diags = g;
	d->fs->diags_tail = g;
	d->fs->ndiags++;
}

static void use_string(struct decoder *d, uint16_t id)
{
	if (!id)
		return;
	if (d->nids == d->cap_ids) {
		d->cap_ids = d->cap_ids ? d->cap_ids * 2 : 256;
		d->ids = fw_xrealloc(d->ids, d->cap_ids * sizeof(*d->ids));
	}
	d->ids[d->nids++] = id;
}

/* Arena-backed growable array: doubles into a new block (the old one is left in the arena). */
static void *grow(struct fw_arena *a, void *items, uint32_t n, size_t elem)
{
	if (n && (n & (n - 1)))
		return items; /* room left: capacity is the next power of two */
	size_t cap = n ? (size_t)n * 2 : 4;
	void *p = fw_arena_alloc(a, cap * elem);
	if (n)
		memcpy(p, items, (size_t)n * elem);
	return p;
}

static struct fw_ifr_question *current_question(struct decoder *d)
{
	for (unsigned i = d->sp; i > 0; i--) {
		if (d->stack[i - 1].kind == S_QUESTION)
			return d->stack[i - 1].ptr;
		if (d->stack[i - 1].kind == S_FORM || d->stack[i - 1].kind == S_FORMSET)
			return NULL;
	}
	return NULL;
}

static void read_value(const struct fw_ifr_op *o, size_t off, uint8_t type, struct fw_ifr_value *v, bool *ok)
{
	v->type = type;
	v->raw = o->p + off;
	int size = fw_ifr_type_size(type);
	if (size < 0)
		size = o->length > off ? (int)(o->length - off) : 0;
	if (off + (size_t)size > o->length) {
		*ok = false;
		v->raw_len = 0;
		return;
	}
	v->raw_len = (uint32_t)size;
	*ok = true;
	switch (type) {
	case FW_IFR_TYPE_NUM_8: case FW_IFR_TYPE_NUM_16: case FW_IFR_TYPE_NUM_32: case FW_IFR_TYPE_NUM_64:
	case FW_IFR_TYPE_BOOLEAN: case FW_IFR_TYPE_STRING: case FW_IFR_TYPE_ACTION: case FW_IFR_TYPE_TIME:
	case FW_IFR_TYPE_DATE:
		v->u = fw_ifr_read_le(v->raw, (size_t)size);
		break;
	default:
		v->u = 0;
		break;
	}
}

static void set_default(struct decoder *d, struct fw_ifr_question *q, uint16_t store, const struct fw_ifr_value *v,
			bool from_flags, struct fw_ifr_default **slot)
{
	for (uint32_t i = 0; i < q->ndefaults; i++) {
		struct fw_ifr_default *df = &q->defaults[i];
		if (df->store_id != store)
			continue;
		/* DEFAULT opcodes beat option/checkbox flags; between equals, the first wins. */
		if (from_flags || !df->from_flags) {
			if (slot)
				*slot = NULL;
			return;
		}
		df->from_flags = false;
		df->has_value = v != NULL;
		if (v)
			df->value = *v;
		if (slot)
			*slot = df;
		return;
	}
	q->defaults = grow(d->a, q->defaults, q->ndefaults, sizeof(*q->defaults));
	struct fw_ifr_default *df = &q->defaults[q->ndefaults++];
	df->store_id = store;
	df->from_flags = from_flags;
	df->has_value = v != NULL;
	if (v)
		df->value = *v;
	if (slot)
		*slot = df;
}

static void push(struct decoder *d, enum scope_kind k, void *ptr)
{
	/* walk() capped the depth and every push answers a scope bit, so this holds; it is checked
	 * anyway because a miscount here would write past the stack */
	if (d->sp >= sizeof(d->stack) / sizeof(d->stack[0]))
		return;
	d->stack[d->sp].kind = k;
	d->stack[d->sp].ptr = ptr;
	d->stack[d->sp].saved_cond = d->cond;
	d->sp++;
}

/* A field of an opcode through its layout (ifr-layout.h); the caller checked the length. */
static uint64_t field(const struct fw_ifr_op *o, const struct fw_layout *l, unsigned idx)
{
	struct fw_view v = {o->p, o->length, FW_OFFSET_UNKNOWN};
	return fw_layout_get(l, &v, 0, idx);
}

static void field_guid(const struct fw_ifr_op *o, const struct fw_layout *l, unsigned idx, struct fw_guid *g)
{
	memcpy(g->b, o->p + l->fields[idx].offset, 16);
}

/* An optional field (past the layout's minimal size) that this opcode is long enough to have. */
static bool has_field(const struct fw_ifr_op *o, const struct fw_layout *l, unsigned idx)
{
	return (size_t)l->fields[idx].offset + fw_field_width(&l->fields[idx]) <= o->length;
}

static struct fw_ifr_question *new_item(struct decoder *d, const struct fw_ifr_op *o, uint32_t idx,
					enum fw_ifr_kind kind)
{
	struct fw_ifr_question *q = fw_arena_alloc(d->a, sizeof(*q));
	q->kind = kind;
	q->op_index = idx;
	q->form = d->form;
	q->cond = d->cond;
	q->prompt = (uint16_t)field(o, &fw_ifr_question_layout, IFR_Q_PROMPT);
	q->help = (uint16_t)field(o, &fw_ifr_question_layout, IFR_Q_HELP);
	use_string(d, q->prompt);
	use_string(d, q->help);
	struct fw_ifr_formset *fs = d->fs;
	fs->items[fs->nitems++] = q;
	if (d->form) {
		if (d->form->last)
			d->form->last->next_in_form = q;
		else
			d->form->first = q;
		d->form->last = q;
		d->form->count++;
	}
	return q;
}

static void question_header(struct decoder *d, struct fw_ifr_question *q, const struct fw_ifr_op *o)
{
	q->is_question = true;
	const struct fw_layout *l = &fw_ifr_question_layout;
	q->question_id = (uint16_t)field(o, l, IFR_Q_QUESTION_ID);
	q->varstore_id = (uint16_t)field(o, l, IFR_Q_VARSTORE_ID);
	q->var_info = (uint16_t)field(o, l, IFR_Q_VARSTORE_INFO);
	q->qflags = (uint8_t)field(o, l, IFR_Q_FLAGS);
	q->bit_field = d->bitfield > 0;
	if (q->bit_field)
		q->bit_offset = q->var_info;
	/* name/value stores name the variable with a string id */
	const struct fw_ifr_varstore *vs = fw_ifr_find_varstore(d->fs, q->varstore_id);
	if (vs && vs->kind == FW_IFR_VS_NAME_VALUE)
		use_string(d, q->var_info);
}

static void bit_width(struct fw_ifr_question *q, uint32_t bits)
{
	q->bit_width = bits;
	q->width = q->varstore_id ? (q->bit_offset % 8 + bits + 7) / 8 : 0;
}

static void numeric_limits(struct decoder *d, struct fw_ifr_question *q, const struct fw_ifr_op *o)
{
	q->flags = (uint8_t)field(o, &fw_ifr_numeric_layouts[0], IFR_NUM_FLAGS);
	size_t size;
	if (q->bit_field) {
		bit_width(q, q->flags & 0x3F);
		q->display = (q->flags >> 6) & 3;
		size = 4;
	} else {
		size = (size_t)1 << (q->flags & FW_IFR_NUMERIC_SIZE_MASK);
		q->width = q->varstore_id ? (uint32_t)size : 0;
		q->display = (q->flags & FW_IFR_DISPLAY_MASK) >> 4;
	}
	/* the limits' layout by their size: 1, 2, 4, 8 bytes */
	const struct fw_layout *l = &fw_ifr_numeric_layouts[size == 8 ? 3 : size == 4 ? 2 : size == 2 ? 1 : 0];
	if (o->length < l->size) {
		diag(d, o, "%s is %u bytes, too short for %zu-byte limits", fw_ifr_opcode_info(o->opcode)->name,
		     o->length, size);
		return;
	}
	q->min = field(o, l, IFR_NUM_MIN);
	q->max = field(o, l, IFR_NUM_MAX);
	q->step = field(o, l, IFR_NUM_STEP);
	q->has_limits = true;
}

static void begin_collect(struct decoder *d, enum collect_target t, void *target, uint32_t next)
{
	d->collecting = t;
	d->target = target;
	d->collect_start = next;
	d->expr_depth = 0;
}

static void end_collect(struct decoder *d, uint32_t end)
{
	struct fw_ifr_formset *fs = d->fs;
	const struct fw_ifr_op *rpn = &fs->ops[d->collect_start];
	uint32_t n = end - d->collect_start;
	const char *why;
	struct fw_ifr_expr *e = fw_ifr_expr_build_why(d->a, rpn, n, &why);
	if (!e && n)
		diag(d, rpn, "expression of %u opcodes %s", n, why);
	if (!n && d->collecting == C_COND)
		diag(d, end < fs->nops ? &fs->ops[end] : NULL, "condition without an expression");
	switch (d->collecting) {
	case C_COND: {
		struct fw_ifr_cond *c = d->target;
		c->expr = e;
		c->rpn = rpn;
		c->nrpn = n;
		break;
	}
	case C_DEFAULT: {
		struct fw_ifr_default *df = d->target;
		df->expr = e;
		uint64_t v;
		if (e && fw_ifr_expr_eval(e, NULL, &v) == FW_IFR_EVAL_OK) {
			df->has_value = true;
			df->value.u = v;
		}
		break;
	}
	case C_VALUE: {
		struct fw_ifr_question *q = d->target;
		if (q)
			q->value_expr = e;
		break;
	}
	default:
		break;
	}
	d->collecting = C_NONE;
}

static void open_cond(struct decoder *d, const struct fw_ifr_op *o, uint32_t idx, enum fw_ifr_cond_kind kind)
{
	/* A condition holds its expression and the statements it governs in its scope; without the
	 * scope bit it governs nothing (and no END will close it). */
	if (!o->scope) {
		diag(d, o, "%s without a scope governs nothing; ignored", fw_ifr_opcode_info(o->opcode)->name);
		return;
	}
	struct fw_ifr_cond *c = fw_arena_alloc(d->a, sizeof(*c));
	c->kind = kind;
	c->op_index = idx;
	c->parent = d->cond;
	if (kind == FW_IFR_COND_INCONSISTENT || kind == FW_IFR_COND_NO_SUBMIT || kind == FW_IFR_COND_WARNING) {
		if (o->length >= fw_ifr_error_layout.size) {
			c->text = (uint16_t)field(o, &fw_ifr_error_layout, 0); /* WARNING_IF's too */
			use_string(d, c->text);
		}
		if (kind == FW_IFR_COND_WARNING && o->length >= fw_ifr_warning_if_layout.size)
			c->timeout = (uint8_t)field(o, &fw_ifr_warning_if_layout, 0);
		struct fw_ifr_question *q = current_question(d);
		if (q) {
			q->checks = grow(d->a, q->checks, q->nchecks, sizeof(*q->checks));
			q->checks[q->nchecks++] = c;
		}
		push(d, S_COND, c);
	} else {
		push(d, S_COND, c);
		d->cond = c; /* statements inside are governed by it */
	}
	begin_collect(d, C_COND, c, idx + 1);
}

static bool short_op(struct decoder *d, const struct fw_ifr_op *o, size_t need)
{
	if (o->length >= need)
		return false;
	diag(d, o, "%s is %u bytes, needs %zu", fw_ifr_opcode_info(o->opcode) ? fw_ifr_opcode_info(o->opcode)->name : "opcode",
	     o->length, need);
	return true;
}

static void decode_guid_op(struct decoder *d, const struct fw_ifr_op *o)
{
	const struct fw_layout *l = &fw_ifr_guid_layout;
	struct fw_guid g;
	field_guid(o, l, IFR_GUID_GUID, &g);
	if (fw_guid_eq(&g, &tiano_guid) && o->length >= FW_IFR_GUID_SIZE + 1) {
		uint8_t ext = (uint8_t)field(o, l, IFR_GUID_EXT_OPCODE);
		uint16_t value = o->length >= FW_IFR_GUID_EXT_SIZE ? (uint16_t)field(o, l, IFR_GUID_EXT_VALUE) : 0;
		if (ext == FW_IFR_EXT_CLASS && o->length >= FW_IFR_GUID_EXT_SIZE)
			d->fs->class_id = value;
		else if (ext == FW_IFR_EXT_SUBCLASS && o->length >= FW_IFR_GUID_EXT_SIZE)
			d->fs->subclass_id = value;
		else if (ext == FW_IFR_EXT_BANNER && o->length >= FW_IFR_GUID_EXT_SIZE)
			use_string(d, value);
	}
	if (o->scope)
		push(d, fw_guid_eq(&g, &bitfield_guid) ? S_BITFIELD : S_OTHER, NULL);
	if (o->scope && fw_guid_eq(&g, &bitfield_guid))
		d->bitfield++;
}

static void decode_varstore(struct decoder *d, const struct fw_ifr_op *o, uint32_t idx)
{
	struct fw_ifr_formset *fs = d->fs;
	struct fw_ifr_varstore *vs = &fs->varstores[fs->nvarstores];
	memset(vs, 0, sizeof(*vs));
	vs->op_index = idx;
	const uint8_t *p = o->p;
	size_t name_off = 0;
	const struct fw_layout *l = fw_ifr_opcode_info(o->opcode)->layout;
	if (short_op(d, o, fw_ifr_opcode_min_length(fw_ifr_opcode_info(o->opcode))))
		return;
	switch (o->opcode) {
	case FW_IFR_VARSTORE:
		vs->kind = FW_IFR_VS_BUFFER;
		field_guid(o, l, IFR_VARSTORE_GUID, &vs->guid);
		vs->id = (uint16_t)field(o, l, IFR_VARSTORE_ID);
		vs->size = (uint16_t)field(o, l, IFR_VARSTORE_SIZE);
		vs->has_size = true;
		name_off = FW_IFR_VARSTORE_NAME;
		break;
	case FW_IFR_VARSTORE_NAME_VALUE:
		vs->kind = FW_IFR_VS_NAME_VALUE;
		vs->id = (uint16_t)field(o, l, 1);
		field_guid(o, l, 0, &vs->guid);
		break;
	case FW_IFR_VARSTORE_EFI:
		vs->kind = FW_IFR_VS_EFI;
		vs->id = (uint16_t)field(o, l, IFR_VARSTORE_EFI_ID);
		field_guid(o, l, IFR_VARSTORE_EFI_GUID, &vs->guid);
		vs->attributes = (uint32_t)field(o, l, IFR_VARSTORE_EFI_ATTRIBUTES);
		if (o->length >= FW_IFR_VARSTORE_EFI_NAME + 1) { /* UEFI 2.3.1 form: Size and Name */
			vs->size = (uint16_t)field(o, l, IFR_VARSTORE_EFI_SIZE);
			vs->has_size = true;
			name_off = FW_IFR_VARSTORE_EFI_NAME;
		}
		break;
	default: /* VARSTORE_DEVICE */
		vs->kind = FW_IFR_VS_DEVICE;
		vs->device_path = (uint16_t)field(o, l, 0);
		use_string(d, vs->device_path);
		break;
	}
	if (name_off) {
		const uint8_t *nul = memchr(p + name_off, 0, o->length - name_off);
		if (!nul)
			diag(d, o, "varstore name is not NUL-terminated");
		size_t n = nul ? (size_t)(nul - (p + name_off)) : o->length - name_off;
		/* CHAR8 widened as firmware names the variable, so that 0xFF here is the ÿ of the NVAR
		 * and efivarfs names; writers escape what is not printable */
		vs->name = fw_char8_to_utf8_buf(p + name_off, n, fw_arena_alloc(d->a, 2 * n + 1), 2 * n + 1);
	}
	if (vs->kind != FW_IFR_VS_DEVICE && fw_ifr_find_varstore(fs, vs->id))
		diag(d, o, "varstore id 0x%X declared twice", vs->id);
	fs->nvarstores++;
}

static void decode_question(struct decoder *d, const struct fw_ifr_op *o, uint32_t idx)
{
	static const enum fw_ifr_kind kinds[] = {
		[FW_IFR_ONE_OF] = FW_IFR_K_ONE_OF, [FW_IFR_CHECKBOX] = FW_IFR_K_CHECKBOX,
		[FW_IFR_NUMERIC] = FW_IFR_K_NUMERIC, [FW_IFR_PASSWORD] = FW_IFR_K_PASSWORD,
		[FW_IFR_ACTION] = FW_IFR_K_ACTION, [FW_IFR_REF] = FW_IFR_K_REF, [FW_IFR_DATE] = FW_IFR_K_DATE,
		[FW_IFR_TIME] = FW_IFR_K_TIME, [FW_IFR_STRING] = FW_IFR_K_STRING,
		[FW_IFR_ORDERED_LIST] = FW_IFR_K_ORDERED_LIST,
	};
	if (short_op(d, o, FW_IFR_QUESTION_SIZE))
		return;
	struct fw_ifr_question *q = new_item(d, o, idx, kinds[o->opcode]);
	question_header(d, q, o);
	switch (o->opcode) {
	case FW_IFR_ONE_OF:
	case FW_IFR_NUMERIC:
		if (!short_op(d, o, FW_IFR_QUESTION_SIZE + 1))
			numeric_limits(d, q, o);
		break;
	case FW_IFR_CHECKBOX:
		if (short_op(d, o, fw_ifr_checkbox_layout.size))
			break;
		q->flags = (uint8_t)field(o, &fw_ifr_checkbox_layout, IFR_CHECKBOX_FLAGS);
		if (q->bit_field)
			bit_width(q, 1);
		else
			q->width = q->varstore_id ? 1 : 0;
		{
			struct fw_ifr_value v = {.type = FW_IFR_TYPE_BOOLEAN, .u = 1, .raw = NULL, .raw_len = 0};
			if (q->flags & FW_IFR_CHECKBOX_DEFAULT)
				set_default(d, q, 0, &v, true, NULL);
			if (q->flags & FW_IFR_CHECKBOX_DEFAULT_MFG)
				set_default(d, q, 1, &v, true, NULL);
		}
		break;
	case FW_IFR_PASSWORD:
		if (short_op(d, o, fw_ifr_password_layout.size))
			break;
		q->min_size = (uint16_t)field(o, &fw_ifr_password_layout, IFR_PASSWORD_MIN_SIZE);
		q->max_size = (uint16_t)field(o, &fw_ifr_password_layout, IFR_PASSWORD_MAX_SIZE);
		q->width = q->varstore_id ? (uint32_t)q->max_size * 2 : 0;
		break;
	case FW_IFR_STRING:
		if (short_op(d, o, fw_ifr_string_layout.size))
			break;
		q->min_size = (uint16_t)field(o, &fw_ifr_string_layout, IFR_STRING_MIN_SIZE);
		q->max_size = (uint16_t)field(o, &fw_ifr_string_layout, IFR_STRING_MAX_SIZE);
		q->flags = (uint8_t)field(o, &fw_ifr_string_layout, IFR_STRING_FLAGS);
		q->width = q->varstore_id ? (uint32_t)q->max_size * 2 : 0;
		break;
	case FW_IFR_DATE:
	case FW_IFR_TIME:
		if (short_op(d, o, fw_ifr_date_time_layout.size))
			break;
		q->flags = (uint8_t)field(o, &fw_ifr_date_time_layout, IFR_DATE_TIME_FLAGS);
		q->width = q->varstore_id && (q->flags & 0x30) == 0 ? (o->opcode == FW_IFR_DATE ? 4 : 3) : 0;
		break;
	case FW_IFR_ORDERED_LIST:
		if (short_op(d, o, fw_ifr_ordered_list_layout.size))
			break;
		q->max_containers = (uint8_t)field(o, &fw_ifr_ordered_list_layout, IFR_ORDERED_LIST_MAX_CONTAINERS);
		q->flags = (uint8_t)field(o, &fw_ifr_ordered_list_layout, IFR_ORDERED_LIST_FLAGS);
		break;
	case FW_IFR_ACTION:
		if (has_field(o, &fw_ifr_action_layout, IFR_ACTION_CONFIG)) {
			q->question_config = (uint16_t)field(o, &fw_ifr_action_layout, IFR_ACTION_CONFIG);
			use_string(d, q->question_config);
		}
		break;
	case FW_IFR_REF:
		/* REF..REF5 are told apart by length */
		if ((q->has_ref_form = has_field(o, &fw_ifr_ref_layout, IFR_REF_FORM_ID)))
			q->ref_form_id = (uint16_t)field(o, &fw_ifr_ref_layout, IFR_REF_FORM_ID);
		if ((q->has_ref_question = has_field(o, &fw_ifr_ref_layout, IFR_REF_QUESTION_ID)))
			q->ref_question_id = (uint16_t)field(o, &fw_ifr_ref_layout, IFR_REF_QUESTION_ID);
		if ((q->has_ref_formset = has_field(o, &fw_ifr_ref_layout, IFR_REF_FORMSET_ID)))
			field_guid(o, &fw_ifr_ref_layout, IFR_REF_FORMSET_ID, &q->ref_formset);
		if ((q->has_ref_devpath = has_field(o, &fw_ifr_ref_layout, IFR_REF_DEVICE_PATH))) {
			q->ref_devpath = (uint16_t)field(o, &fw_ifr_ref_layout, IFR_REF_DEVICE_PATH);
			use_string(d, q->ref_devpath);
		}
		q->width = q->varstore_id ? 22 : 0;
		break;
	}
	if (o->scope)
		push(d, S_QUESTION, q);
}

static void decode_statement(struct decoder *d, const struct fw_ifr_op *o, uint32_t idx)
{
	struct fw_ifr_question *q;
	switch (o->opcode) {
	case FW_IFR_SUBTITLE:
		if (short_op(d, o, fw_ifr_subtitle_layout.size))
			return;
		q = new_item(d, o, idx, FW_IFR_K_SUBTITLE);
		q->flags = (uint8_t)field(o, &fw_ifr_subtitle_layout, IFR_SUBTITLE_FLAGS);
		break;
	case FW_IFR_TEXT:
		if (short_op(d, o, fw_ifr_text_layout.size))
			return;
		q = new_item(d, o, idx, FW_IFR_K_TEXT);
		q->text2 = (uint16_t)field(o, &fw_ifr_text_layout, IFR_TEXT_TEXT_TWO);
		use_string(d, q->text2);
		break;
	case FW_IFR_RESET_BUTTON:
		if (short_op(d, o, fw_ifr_reset_button_layout.size))
			return;
		q = new_item(d, o, idx, FW_IFR_K_RESET_BUTTON);
		q->reset_default_id = (uint16_t)field(o, &fw_ifr_reset_button_layout, 2);
		break;
	default:
		return;
	}
	if (o->scope)
		push(d, S_QUESTION, q);
}

static void decode_option(struct decoder *d, const struct fw_ifr_op *o)
{
	const struct fw_layout *l = &fw_ifr_one_of_option_layout;
	if (short_op(d, o, l->size))
		return;
	struct fw_ifr_question *q = current_question(d);
	uint16_t text = (uint16_t)field(o, l, IFR_OPTION_OPTION);
	uint8_t type = (uint8_t)field(o, l, IFR_OPTION_TYPE);
	use_string(d, text);
	struct fw_ifr_option opt = {.text = text, .flags = (uint8_t)field(o, l, IFR_OPTION_FLAGS)};
	bool ok;
	read_value(o, FW_IFR_ONE_OF_OPTION_VALUE, type, &opt.value, &ok);
	if (!ok)
		diag(d, o, "ONE_OF_OPTION value of type %u does not fit in %u bytes", type, o->length);
	if (opt.value.type == FW_IFR_TYPE_STRING || opt.value.type == FW_IFR_TYPE_ACTION)
		use_string(d, (uint16_t)opt.value.u);
	if (!q) {
		diag(d, o, "ONE_OF_OPTION outside a question");
		return;
	}
	if (d->cond != q->cond)
		opt.cond = d->cond;
	q->options = grow(d->a, q->options, q->noptions, sizeof(*q->options));
	q->options[q->noptions++] = opt;
	if (ok && (opt.flags & FW_IFR_OPTION_DEFAULT))
		set_default(d, q, 0, &opt.value, true, NULL);
	if (ok && (opt.flags & FW_IFR_OPTION_DEFAULT_MFG))
		set_default(d, q, 1, &opt.value, true, NULL);
}

static void decode_default(struct decoder *d, const struct fw_ifr_op *o)
{
	const struct fw_layout *l = &fw_ifr_default_layout;
	if (short_op(d, o, l->size))
		return;
	struct fw_ifr_question *q = current_question(d);
	uint16_t store = (uint16_t)field(o, l, IFR_DEFAULT_ID);
	uint8_t type = (uint8_t)field(o, l, IFR_DEFAULT_TYPE);
	struct fw_ifr_default *df = NULL;
	bool with_expr = o->scope && o->length == 5; /* DEFAULT_2: the value is a VALUE expression */
	if (!q) {
		diag(d, o, "DEFAULT outside a question");
	} else if (with_expr) {
		set_default(d, q, store, NULL, false, &df);
		if (df)
			df->value.type = type;
	} else {
		struct fw_ifr_value v;
		bool ok;
		read_value(o, 5, type, &v, &ok);
		if (!ok)
			diag(d, o, "DEFAULT value of type %u does not fit in %u bytes", type, o->length);
		else {
			if (type == FW_IFR_TYPE_STRING || type == FW_IFR_TYPE_ACTION)
				use_string(d, (uint16_t)v.u);
			set_default(d, q, store, &v, false, &df);
		}
	}
	if (o->scope)
		push(d, S_DEFAULT, df);
}

static void close_scope(struct decoder *d, const struct fw_ifr_op *o)
{
	if (!d->sp)
		return; /* walk() guarantees balance */
	struct scope *s = &d->stack[--d->sp];
	switch (s->kind) {
	case S_FORM:
		d->form = NULL;
		break;
	case S_COND:
		d->cond = s->saved_cond;
		break;
	case S_BITFIELD:
		d->bitfield--;
		break;
	case S_QUESTION: {
		struct fw_ifr_question *q = s->ptr;
		if (q->kind == FW_IFR_K_ORDERED_LIST && q->varstore_id && q->noptions) {
			int size = fw_ifr_type_size(q->options[0].value.type);
			q->width = size > 0 ? (uint32_t)size * q->max_containers : 0;
		}
		break;
	}
	default:
		break;
	}
	(void)o;
}

static void decode_op(struct decoder *d, uint32_t idx)
{
	struct fw_ifr_formset *fs = d->fs;
	const struct fw_ifr_op *o = &fs->ops[idx];
	const struct fw_ifr_opcode_info *info = fw_ifr_opcode_info(o->opcode);

	if (d->collecting != C_NONE) {
		if (info && info->expression) {
			if (o->scope) {
				d->expr_depth++;
				push(d, S_EXPR, NULL);
			}
			if (o->opcode == FW_IFR_STRING_REF1 && o->length >= fw_ifr_string_ref1_layout.size)
				use_string(d, (uint16_t)field(o, &fw_ifr_string_ref1_layout, 0));
			return;
		}
		if (o->opcode == FW_IFR_END && d->expr_depth) {
			d->expr_depth--;
			d->sp--;
			return;
		}
		end_collect(d, idx);
	}
	if (!info) {
		if (o->opcode != FW_IFR_END)
			diag(d, o, "unknown opcode 0x%02X (%u bytes) kept as data", o->opcode, o->length);
	} else if (o->length < fw_ifr_opcode_min_length(info) && o->opcode != FW_IFR_REF && o->opcode != FW_IFR_ACTION &&
		   o->opcode != FW_IFR_VARSTORE_EFI) {
		diag(d, o, "%s is %u bytes, shorter than its minimum %u", info->name, o->length, fw_ifr_opcode_min_length(info));
		if (o->scope)
			push(d, S_OTHER, NULL);
		return;
	}

	switch (o->opcode) {
	case FW_IFR_END:
		close_scope(d, o);
		return;
	case FW_IFR_FORM_SET:
		if (idx == 0) {
			const struct fw_layout *l = &fw_ifr_form_set_layout;
			field_guid(o, l, IFR_FORMSET_GUID, &fs->guid);
			fs->title = (uint16_t)field(o, l, IFR_FORMSET_TITLE);
			fs->help = (uint16_t)field(o, l, IFR_FORMSET_HELP);
			use_string(d, fs->title);
			use_string(d, fs->help);
			if (has_field(o, l, IFR_FORMSET_FLAGS)) {
				fs->flags = (uint8_t)field(o, l, IFR_FORMSET_FLAGS);
				uint8_t n = fs->flags & FW_IFR_FORMSET_CLASS_GUIDS;
				for (uint8_t i = 0; i < n && l->size + 16u * (i + 1) <= o->length; i++)
					memcpy(fs->class_guids[fs->nclass_guids++].b, o->p + l->size + 16 * i, 16);
			}
			push(d, S_FORMSET, NULL);
		} else {
			diag(d, o, "nested FORM_SET");
			if (o->scope)
				push(d, S_OTHER, NULL);
		}
		return;
	case FW_IFR_FORM:
	case FW_IFR_FORM_MAP: {
		struct fw_ifr_form *f = &fs->forms[fs->nforms++];
		memset(f, 0, sizeof(*f));
		f->id = (uint16_t)field(o, &fw_ifr_form_layout, IFR_FORM_ID); /* FORM_MAP's too */
		f->op_index = idx;
		f->cond = d->cond;
		if (o->opcode == FW_IFR_FORM) {
			f->title = (uint16_t)field(o, &fw_ifr_form_layout, IFR_FORM_TITLE);
		} else {
			f->is_map = true;
			size_t first = fw_ifr_form_map_layout.size;
			if (o->length >= first + 18)
				f->title = fw_le16(o->p + first); /* the first method's title */
			for (size_t off = first; off + 18 <= o->length; off += 18)
				use_string(d, fw_le16(o->p + off));
		}
		use_string(d, f->title);
		if (d->form)
			diag(d, o, "form 0x%X opened inside form 0x%X", f->id, d->form->id);
		d->form = f;
		if (o->scope)
			push(d, S_FORM, f);
		return;
	}
	case FW_IFR_SUBTITLE:
	case FW_IFR_TEXT:
	case FW_IFR_RESET_BUTTON:
		decode_statement(d, o, idx);
		return;
	case FW_IFR_ONE_OF: case FW_IFR_CHECKBOX: case FW_IFR_NUMERIC: case FW_IFR_PASSWORD: case FW_IFR_ACTION:
	case FW_IFR_REF: case FW_IFR_DATE: case FW_IFR_TIME: case FW_IFR_STRING: case FW_IFR_ORDERED_LIST:
		decode_question(d, o, idx);
		return;
	case FW_IFR_ONE_OF_OPTION:
		decode_option(d, o);
		if (o->scope)
			push(d, S_OTHER, NULL);
		return;
	case FW_IFR_SUPPRESS_IF: open_cond(d, o, idx, FW_IFR_COND_SUPPRESS); return;
	case FW_IFR_GRAY_OUT_IF: open_cond(d, o, idx, FW_IFR_COND_GRAYOUT); return;
	case FW_IFR_DISABLE_IF: open_cond(d, o, idx, FW_IFR_COND_DISABLE); return;
	case FW_IFR_NO_SUBMIT_IF: open_cond(d, o, idx, FW_IFR_COND_NO_SUBMIT); return;
	case FW_IFR_INCONSISTENT_IF: open_cond(d, o, idx, FW_IFR_COND_INCONSISTENT); return;
	case FW_IFR_WARNING_IF: open_cond(d, o, idx, FW_IFR_COND_WARNING); return;
	case FW_IFR_VARSTORE: case FW_IFR_VARSTORE_NAME_VALUE: case FW_IFR_VARSTORE_EFI: case FW_IFR_VARSTORE_DEVICE:
		decode_varstore(d, o, idx);
		if (o->scope)
			push(d, S_OTHER, NULL);
		return;
	case FW_IFR_DEFAULTSTORE: {
		struct fw_ifr_defaultstore *ds = &fs->defaultstores[fs->ndefaultstores++];
		ds->name = (uint16_t)field(o, &fw_ifr_defaultstore_layout, IFR_DEFAULTSTORE_NAME);
		ds->id = (uint16_t)field(o, &fw_ifr_defaultstore_layout, IFR_DEFAULTSTORE_ID);
		use_string(d, ds->name);
		if (o->scope)
			push(d, S_OTHER, NULL);
		return;
	}
	case FW_IFR_DEFAULT:
		decode_default(d, o);
		return;
	case FW_IFR_VALUE: {
		/* a VALUE expression: the default of an enclosing DEFAULT, else the question's value */
		struct scope *top = d->sp ? &d->stack[d->sp - 1] : NULL;
		if (o->scope) {
			push(d, S_VALUE, NULL);
			if (top && top->kind == S_DEFAULT)
				begin_collect(d, top->ptr ? C_DEFAULT : C_OTHER, top->ptr, idx + 1);
			else
				begin_collect(d, C_VALUE, current_question(d), idx + 1);
		}
		return;
	}
	case FW_IFR_RULE:
	case FW_IFR_READ:
	case FW_IFR_WRITE:
		if (o->scope) {
			push(d, S_OTHER, NULL);
			begin_collect(d, C_OTHER, NULL, idx + 1);
		}
		return;
	case FW_IFR_GUID:
		decode_guid_op(d, o);
		return;
	case FW_IFR_REFRESH: {
		struct fw_ifr_question *q = current_question(d);
		if (q && o->length >= fw_ifr_refresh_layout.size)
			q->refresh_interval = (uint8_t)field(o, &fw_ifr_refresh_layout, 0);
		break;
	}
	case FW_IFR_REFRESH_ID: {
		struct fw_ifr_question *q = current_question(d);
		if (q)
			q->has_refresh_id = true;
		break;
	}
	case FW_IFR_LOCKED: {
		struct fw_ifr_question *q = current_question(d);
		if (q)
			q->locked = true;
		break;
	}
	default:
		if (info && info->expression)
			diag(d, o, "%s outside an expression", info->name);
		break;
	}
	if (o->scope)
		push(d, S_OTHER, NULL);
}

static int cmp_qid(const void *a, const void *b)
{
	const struct fw_ifr_question *x = *(const struct fw_ifr_question *const *)a;
	const struct fw_ifr_question *y = *(const struct fw_ifr_question *const *)b;
	if (x->question_id != y->question_id)
		return (x->question_id > y->question_id) - (x->question_id < y->question_id);
	return (x->op_index > y->op_index) - (x->op_index < y->op_index);
}

bool fw_ifr_decode(struct fw_arena *a, const struct fw_view *pkg, struct fw_ifr_formset *out, struct fw_error *err)
{
	memset(out, 0, sizeof(*out));
	uint32_t n;
	if (!walk(pkg, &n, err))
		return false;
	out->package = *pkg;
	out->class_id = out->subclass_id = -1;
	out->ops = fw_arena_alloc(a, n * sizeof(*out->ops));
	uint32_t nforms = 0, nvs = 0, nds = 0, nitems = 0;
	size_t off = PKG_HEADER;
	unsigned depth = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct fw_ifr_op *o = &out->ops[i];
		o->p = pkg->p + off;
		o->offset = (uint32_t)off;
		o->opcode = o->p[0];
		o->length = o->p[1] & 0x7F;
		o->scope = o->p[1] & 0x80;
		if (o->opcode == FW_IFR_END)
			depth--;
		o->depth = (uint16_t)depth;
		if (o->scope)
			depth++;
		off += o->length;
		switch (o->opcode) {
		case FW_IFR_FORM: case FW_IFR_FORM_MAP: nforms++; break;
		case FW_IFR_VARSTORE: case FW_IFR_VARSTORE_NAME_VALUE: case FW_IFR_VARSTORE_EFI: case FW_IFR_VARSTORE_DEVICE:
			nvs++;
			break;
		case FW_IFR_DEFAULTSTORE: nds++; break;
		default:
			if ((fw_ifr_opcode_info(o->opcode) && fw_ifr_opcode_info(o->opcode)->question) ||
			    o->opcode == FW_IFR_SUBTITLE || o->opcode == FW_IFR_TEXT || o->opcode == FW_IFR_RESET_BUTTON)
				nitems++;
			break;
		}
	}
	out->nops = n;
	out->forms = fw_arena_alloc(a, (nforms + 1) * sizeof(*out->forms));
	out->varstores = fw_arena_alloc(a, (nvs + 1) * sizeof(*out->varstores));
	out->defaultstores = fw_arena_alloc(a, (nds + 1) * sizeof(*out->defaultstores));
	out->items = fw_arena_alloc(a, (nitems + 1) * sizeof(*out->items));

	struct decoder d = {.a = a, .fs = out};
	for (uint32_t i = 0; i < n; i++)
		decode_op(&d, i);
	if (d.collecting != C_NONE)
		end_collect(&d, n);

	/* every referenced string id, sorted and unique */
	if (d.nids) {
		/* ids are 16-bit: a bitmap sorts and dedups them in one pass */
		uint64_t *seen = fw_xcalloc(65536 / 64, sizeof(*seen));
		for (uint32_t i = 0; i < d.nids; i++)
			seen[d.ids[i] >> 6] |= (uint64_t)1 << (d.ids[i] & 63);
		uint32_t u = 0;
		for (uint32_t w = 0; w < 65536 / 64; w++)
			for (uint64_t bits = seen[w]; bits; bits &= bits - 1)
				d.ids[u++] = (uint16_t)(w * 64 + (uint32_t)__builtin_ctzll(bits));
		free(seen);
		out->string_ids = fw_arena_memdup(a, d.ids, u * sizeof(*d.ids));
		out->nstring_ids = u;
	}
	free(d.ids);

	/* questions by id for expression names and values */
	out->by_qid = fw_arena_alloc(a, (out->nitems + 1) * sizeof(*out->by_qid));
	for (uint32_t i = 0; i < out->nitems; i++)
		if (out->items[i]->is_question)
			out->by_qid[out->nby_qid++] = out->items[i];
	bool sorted = true; /* questions usually come in id order */
	for (uint32_t i = 1; i < out->nby_qid && sorted; i++)
		sorted = cmp_qid(&out->by_qid[i - 1], &out->by_qid[i]) < 0;
	if (!sorted)
		qsort(out->by_qid, out->nby_qid, sizeof(*out->by_qid), cmp_qid);
	return true;
}

const struct fw_ifr_varstore *fw_ifr_find_varstore(const struct fw_ifr_formset *fs, uint16_t id)
{
	for (uint32_t i = 0; i < fs->nvarstores; i++)
		if (fs->varstores[i].id == id && fs->varstores[i].kind != FW_IFR_VS_DEVICE)
			return &fs->varstores[i];
	return NULL;
}

const struct fw_ifr_question *fw_ifr_find_question(const struct fw_ifr_formset *fs, uint16_t qid)
{
	uint32_t lo = 0, hi = fs->nby_qid;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (fs->by_qid[mid]->question_id < qid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < fs->nby_qid && fs->by_qid[lo]->question_id == qid ? fs->by_qid[lo] : NULL;
}

const struct fw_ifr_form *fw_ifr_find_form(const struct fw_ifr_formset *fs, uint16_t form_id)
{
	for (uint32_t i = 0; i < fs->nforms; i++)
		if (fs->forms[i].id == form_id)
			return &fs->forms[i];
	return NULL;
}

const struct fw_ifr_default *fw_ifr_question_default(const struct fw_ifr_question *q, uint16_t store_id)
{
	for (uint32_t i = 0; i < q->ndefaults; i++)
		if (q->defaults[i].store_id == store_id)
			return &q->defaults[i];
	return NULL;
}

const struct fw_ifr_option *fw_ifr_option_for(const struct fw_ifr_question *q, uint64_t v)
{
	for (uint32_t i = 0; i < q->noptions; i++) {
		const struct fw_ifr_value *ov = &q->options[i].value;
		if (ov->type <= FW_IFR_TYPE_BOOLEAN && ov->u == v)
			return &q->options[i];
	}
	return NULL;
}

bool fw_ifr_question_has_value(const struct fw_ifr_question *q)
{
	switch (q->kind) {
	case FW_IFR_K_ONE_OF: case FW_IFR_K_CHECKBOX: case FW_IFR_K_NUMERIC: case FW_IFR_K_PASSWORD:
	case FW_IFR_K_DATE: case FW_IFR_K_TIME: case FW_IFR_K_STRING: case FW_IFR_K_ORDERED_LIST:
		return q->varstore_id != 0 && q->width != 0;
	default:
		return false;
	}
}

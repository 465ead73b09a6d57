/* Formset generation: varstore layouts, IFR emission and the question model (forms.h). */
#include "forms.h"

#include <stdlib.h>
#include <string.h>

#include "ifr/ifr-layout.h"
#include "ifr/ifr-opcodes.h"
#include "parsers/view.h"
#include "planted.h"

/* ---- varstores ---- */

struct varstore *vs_new(const char *name, const char *guid, uint16_t id, uint32_t attributes)
{
	struct varstore *vs = sample_alloc(sizeof(*vs));
	vs->name = name;
	vs->guid = sample_guid(guid);
	vs->id = id;
	vs->attributes = attributes;
	return vs;
}

static struct vfield *vs_push(struct varstore *vs)
{
	if (vs->nfields == vs->cap) {
		size_t cap = vs->cap ? vs->cap * 2 : 64;
		struct vfield *f = sample_alloc(cap * sizeof(*f));
		if (vs->nfields)
			memcpy(f, vs->fields, vs->nfields * sizeof(*f));
		vs->fields = f;
		vs->cap = cap;
	}
	struct vfield *f = &vs->fields[vs->nfields++];
	memset(f, 0, sizeof(*f));
	return f;
}

/* Bit fields pack from the current bit position; a byte field starts on the next whole byte. */
static uint32_t next_bit(const struct varstore *vs)
{
	if (!vs->nfields)
		return 0;
	const struct vfield *l = &vs->fields[vs->nfields - 1];
	return l->kind == VF_BITS ? l->offset + l->width : (l->offset + l->width) * 8;
}

static void add(struct varstore *vs, const char *name, uint8_t kind, uint32_t width, uint64_t value)
{
	uint32_t bit = next_bit(vs);
	if (name && vs_find(vs, name))
		sample_die("varstore %s: field %s declared twice", vs->name, name);
	struct vfield *f = vs_push(vs);
	f->name = name;
	f->kind = kind;
	f->width = width;
	f->offset = kind == VF_BITS ? bit : (bit + 7) / 8;
	f->std = f->mfg = value;
	uint32_t end = kind == VF_BITS ? (f->offset + width + 7) / 8 : f->offset + width;
	if (end > vs->size)
		vs->size = end;
}

void vs_field(struct varstore *vs, const char *name, uint32_t width) { add(vs, name, VF_FIELD, width, 0); }
void vs_bits(struct varstore *vs, const char *name, uint32_t bits) { add(vs, name, VF_BITS, bits, 0); }
void vs_reserved(struct varstore *vs, uint32_t width) { add(vs, NULL, VF_RESERVED, width, 0); }
void vs_fixed(struct varstore *vs, const char *name, uint32_t width, uint64_t value) { add(vs, name, VF_FIXED, width, value); }

void vs_pad_to(struct varstore *vs, uint32_t offset)
{
	uint32_t at = (next_bit(vs) + 7) / 8;
	if (at > offset)
		sample_die("varstore %s: fields reach 0x%x, past 0x%x", vs->name, at, offset);
	if (at < offset)
		vs_reserved(vs, offset - at);
}

struct vfield *vs_find(const struct varstore *vs, const char *name)
{
	for (size_t i = 0; i < vs->nfields; i++)
		if (vs->fields[i].name && strcmp(vs->fields[i].name, name) == 0)
			return &vs->fields[i];
	return NULL;
}

static void put_value(uint8_t *data, const struct vfield *f, uint64_t v)
{
	if (f->kind == VF_BITS) {
		for (uint32_t i = 0; i < f->width; i++) {
			uint32_t bit = f->offset + i;
			if ((v >> i) & 1)
				data[bit / 8] = (uint8_t)(data[bit / 8] | (1u << (bit % 8)));
			else
				data[bit / 8] = (uint8_t)(data[bit / 8] & ~(1u << (bit % 8)));
		}
		return;
	}
	for (uint32_t i = 0; i < f->width && i < 8; i++)
		data[f->offset + i] = (uint8_t)(v >> (8 * i));
}

uint8_t *vs_defaults(const struct varstore *vs, int which)
{
	uint8_t *data = fw_xcalloc(vs->size ? vs->size : 1, 1);
	/* Reserved space stands for settings the samples do not model: AMD CBS fills such fields
	 * with Auto values (0xFF/0x0F) and small enables, AMI Setup mostly with 0 and 1. */
	struct srng r;
	srng_init(&r, sample_printf("varstore %s %u", vs->name, vs->filler_seed));
	static const uint8_t cbs_fill[] = {0xFF, 0xFF, 0x0F, 0x0F, 0x00, 0x01, 0x03, 0x07};
	static const uint8_t ami_fill[] = {0x00, 0x00, 0x00, 0x01, 0x01, 0x02};
	for (size_t i = 0; i < vs->nfields; i++) {
		const struct vfield *f = &vs->fields[i];
		if (f->kind == VF_RESERVED) {
			for (uint32_t k = 0; k < f->width; k++) {
				if (vs->filler_seed)
					data[f->offset + k] = cbs_fill[srng_below(&r, ARRAY_LEN(cbs_fill))];
				else
					data[f->offset + k] = ami_fill[srng_below(&r, ARRAY_LEN(ami_fill))];
			}
		} else {
			put_value(data, f, which ? f->mfg : f->std);
		}
	}
	return data;
}

void vs_set(const struct varstore *vs, uint8_t *data, const char *name, uint64_t value)
{
	struct vfield *f = vs_find(vs, name);
	if (!f)
		sample_die("varstore %s has no field %s", vs->name, name);
	put_value(data, f, value);
}

uint64_t vs_get(const struct varstore *vs, const uint8_t *data, const char *name)
{
	struct vfield *f = vs_find(vs, name);
	if (!f)
		sample_die("varstore %s has no field %s", vs->name, name);
	uint64_t v = 0;
	if (f->kind == VF_BITS) {
		for (uint32_t i = 0; i < f->width; i++) {
			uint32_t bit = f->offset + i;
			v |= (uint64_t)((data[bit / 8] >> (bit % 8)) & 1) << i;
		}
		return v;
	}
	for (uint32_t i = 0; i < f->width && i < 8; i++)
		v |= (uint64_t)data[f->offset + i] << (8 * i);
	return v;
}

/* ---- formset driver ---- */

static const struct fw_guid bit_varstore_guid = FW_GUID_INIT(0x82DDD68B, 0x9163, 0x4187, 0x9B, 0x27, 0x20, 0xA8, 0xFD, 0x60, 0xA7, 0x1D);
static const struct fw_guid tiano_guid = FW_GUID_INIT(0x0F0B1735, 0x87A0, 0x4193, 0xB2, 0x66, 0x53, 0x8C, 0x38, 0xAF, 0x48, 0xCE);
static const struct fw_guid platform_setup_guid =
	FW_GUID_INIT(0x93039971, 0x8545, 0x4B04, 0xB4, 0x5E, 0x32, 0xEB, 0x83, 0x26, 0x04, 0x0E);

void fs_run(struct formset *fs, int version, void (*define)(struct formset *))
{
	fs->version = version;
	for (fs->pass = 1; fs->pass <= 2; fs->pass++) {
		sb_free(&fs->ifr.b);
		fs->ifr.depth = 0;
		fs->nvs = 0;
		fs->nq = 0;
		fs->next_qid = 1;
		fs->form = 0;
		if (fs->pass == 1) { /* pass 2 keeps the gotos and question ids of pass 1 */
			fs->nrefs = 0;
			fs->nqids = 0;
		}
		define(fs);
		SAMPLE_ASSERT(fs->ifr.depth == 0);
	}
	/* every declared field has its question (or is fixed/reserved) */
	for (size_t v = 0; v < fs->nvs; v++) {
		const struct varstore *vs = fs->vs[v];
		for (size_t i = 0; i < vs->nfields; i++) {
			const struct vfield *f = &vs->fields[i];
			if ((f->kind == VF_FIELD || f->kind == VF_BITS) && !f->has_question)
				sample_die("%s: field %s.%s has no question", fs->module, vs->name, f->name);
		}
	}
	str_translate(&fs->st);
	if (fs->config_keywords) {
		str_set_lang(&fs->st, 1, LANG_CONFIG, "x-AMI");
		for (size_t i = 0; i < fs->nq; i++) {
			const struct question *q = &fs->q[i];
			if (q->f && q->kind != QK_REF)
				str_set_lang(&fs->st, str_id(&fs->st, q->prompt), LANG_CONFIG,
					     sample_printf("%s%s", q->f->name, fs->keyword_suffix ? fs->keyword_suffix : ""));
		}
	}
}

void fs_free(struct formset *fs)
{
	sb_free(&fs->ifr.b);
	str_free(&fs->st);
	free(fs->q);
	fs->q = NULL;
}

struct varstore *fs_varstore(struct formset *fs, const char *name)
{
	for (size_t i = 0; i < fs->nvs; i++)
		if (strcmp(fs->vs[i]->name, name) == 0)
			return fs->vs[i];
	return NULL;
}

const struct question *fs_question(const struct formset *fs, const char *prompt)
{
	for (size_t i = 0; i < fs->nq; i++)
		if (fs->q[i].kind != QK_REF && strcmp(fs->q[i].prompt, prompt) == 0)
			return &fs->q[i];
	return NULL;
}

static const struct formref *find_ref(const struct formset *fs, uint16_t form)
{
	for (size_t i = 0; i < fs->nrefs; i++)
		if (fs->refs[i].form == form)
			return &fs->refs[i];
	return NULL;
}

const char *fs_form_path(const struct formset *fs, uint16_t form)
{
	const char *parts[16];
	size_t n = 0;
	for (uint16_t f = form; n < ARRAY_LEN(parts);) {
		const struct formref *r = find_ref(fs, f);
		if (!r)
			break;
		parts[n++] = r->prompt;
		f = r->parent;
	}
	char *path = sample_strdup(fs->path_prefix ? fs->path_prefix : "");
	for (size_t i = n; i-- > 0;)
		path = path[0] ? sample_printf("%s > %s", path, parts[i]) : sample_strdup(parts[i]);
	return path;
}

static uint16_t sid(struct formset *fs, const char *text) { return text ? str_id(&fs->st, text) : 0; }

static uint16_t take_qid(struct formset *fs, uint16_t explicit_id)
{
	if (explicit_id)
		return explicit_id;
	return fs->next_qid++;
}

static uint16_t lookup_qid(struct formset *fs, const char *field)
{
	if (fs->pass == 1)
		return 0;
	for (size_t i = 0; i < fs->nqids; i++)
		if (strcmp(fs->qids[i].field, field) == 0)
			return fs->qids[i].qid;
	sample_die("%s: a condition names %s, which has no question", fs->module, field);
}

static void remember_qid(struct formset *fs, const char *field, uint16_t qid)
{
	if (fs->pass != 1)
		return;
	for (size_t i = 0; i < fs->nqids; i++)
		if (strcmp(fs->qids[i].field, field) == 0)
			return; /* the first question on a field answers for it */
	SAMPLE_ASSERT(fs->nqids < ARRAY_LEN(fs->qids));
	fs->qids[fs->nqids++] = (struct qidmap){field, qid};
}

void f_formset_begin(struct formset *fs)
{
	size_t o = ifr_op(&fs->ifr, FW_IFR_FORM_SET, FW_IFR_FORM_SET_SIZE + 16, true);
	uint8_t *p = ifr_at(&fs->ifr, o);
	fw_layout_put_guid(&fw_ifr_form_set_layout, p, IFR_FORMSET_GUID, &fs->guid);
	fw_layout_put(&fw_ifr_form_set_layout, p, IFR_FORMSET_TITLE, sid(fs, fs->title));
	fw_layout_put(&fw_ifr_form_set_layout, p, IFR_FORMSET_HELP, sid(fs, fs->help));
	fw_layout_put(&fw_ifr_form_set_layout, p, IFR_FORMSET_FLAGS, 1);
	memcpy(p + FW_IFR_FORM_SET_SIZE, platform_setup_guid.b, 16);
	for (int ext = FW_IFR_EXT_CLASS; ext <= FW_IFR_EXT_SUBCLASS; ext++) {
		o = ifr_op(&fs->ifr, FW_IFR_GUID, FW_IFR_GUID_EXT_SIZE, false);
		p = ifr_at(&fs->ifr, o);
		fw_layout_put_guid(&fw_ifr_guid_layout, p, IFR_GUID_GUID, &tiano_guid);
		fw_layout_put(&fw_ifr_guid_layout, p, IFR_GUID_EXT_OPCODE, ext);
		fw_layout_put(&fw_ifr_guid_layout, p, IFR_GUID_EXT_VALUE, ext == FW_IFR_EXT_CLASS ? fs->class_id : 0);
	}
	for (uint16_t id = FW_IFR_DEFAULT_ID_STANDARD; id <= FW_IFR_DEFAULT_ID_MANUFACTURING; id++) {
		o = ifr_op(&fs->ifr, FW_IFR_DEFAULTSTORE, fw_ifr_defaultstore_layout.size, false);
		fw_layout_put(&fw_ifr_defaultstore_layout, ifr_at(&fs->ifr, o), IFR_DEFAULTSTORE_ID, id);
	}
}

void f_formset_end(struct formset *fs) { ifr_end(&fs->ifr); }

void f_varstore(struct formset *fs, struct varstore *vs)
{
	SAMPLE_ASSERT(fs->nvs < ARRAY_LEN(fs->vs));
	fs->vs[fs->nvs++] = vs;
	size_t name_len = strlen(vs->name) + 1;
	if (vs->efi) {
		size_t o = ifr_op(&fs->ifr, FW_IFR_VARSTORE_EFI, FW_IFR_VARSTORE_EFI_NAME + name_len, false);
		uint8_t *p = ifr_at(&fs->ifr, o);
		fw_layout_put(&fw_ifr_varstore_efi_layout, p, IFR_VARSTORE_EFI_ID, vs->id);
		fw_layout_put_guid(&fw_ifr_varstore_efi_layout, p, IFR_VARSTORE_EFI_GUID, &vs->guid);
		fw_layout_put(&fw_ifr_varstore_efi_layout, p, IFR_VARSTORE_EFI_ATTRIBUTES, vs->attributes);
		fw_layout_put(&fw_ifr_varstore_efi_layout, p, IFR_VARSTORE_EFI_SIZE, vs->size);
		memcpy(p + FW_IFR_VARSTORE_EFI_NAME, vs->name, name_len);
	} else {
		size_t o = ifr_op(&fs->ifr, FW_IFR_VARSTORE, FW_IFR_VARSTORE_NAME + name_len, false);
		uint8_t *p = ifr_at(&fs->ifr, o);
		fw_layout_put_guid(&fw_ifr_varstore_layout, p, IFR_VARSTORE_GUID, &vs->guid);
		fw_layout_put(&fw_ifr_varstore_layout, p, IFR_VARSTORE_ID, vs->id);
		fw_layout_put(&fw_ifr_varstore_layout, p, IFR_VARSTORE_SIZE, vs->size);
		memcpy(p + FW_IFR_VARSTORE_NAME, vs->name, name_len);
	}
}

void f_form(struct formset *fs, uint16_t id, const char *title)
{
	size_t o = ifr_op(&fs->ifr, FW_IFR_FORM, fw_ifr_form_layout.size, true);
	fw_layout_put(&fw_ifr_form_layout, ifr_at(&fs->ifr, o), IFR_FORM_ID, id);
	fw_layout_put(&fw_ifr_form_layout, ifr_at(&fs->ifr, o), IFR_FORM_TITLE, sid(fs, title));
	fs->form = id;
}

void f_form_end(struct formset *fs)
{
	ifr_end(&fs->ifr);
	fs->form = 0;
}

void f_subtitle(struct formset *fs, const char *text)
{
	size_t o = ifr_op(&fs->ifr, FW_IFR_SUBTITLE, fw_ifr_subtitle_layout.size, true);
	fw_layout_put(&fw_ifr_subtitle_layout, ifr_at(&fs->ifr, o), IFR_SUBTITLE_PROMPT, sid(fs, text));
	fw_layout_put(&fw_ifr_subtitle_layout, ifr_at(&fs->ifr, o), IFR_SUBTITLE_HELP, sid(fs, ""));
	ifr_end(&fs->ifr);
}

void f_text(struct formset *fs, const char *prompt, const char *value)
{
	size_t o = ifr_op(&fs->ifr, FW_IFR_TEXT, fw_ifr_text_layout.size, false);
	fw_layout_put(&fw_ifr_text_layout, ifr_at(&fs->ifr, o), IFR_TEXT_PROMPT, sid(fs, prompt));
	fw_layout_put(&fw_ifr_text_layout, ifr_at(&fs->ifr, o), IFR_TEXT_HELP, sid(fs, ""));
	fw_layout_put(&fw_ifr_text_layout, ifr_at(&fs->ifr, o), IFR_TEXT_TEXT_TWO, sid(fs, value));
}

static void question_header(struct formset *fs, uint8_t *p, const char *prompt, const char *help, uint16_t qid,
			    uint16_t vsid, uint16_t info, uint8_t flags)
{
	fw_layout_put(&fw_ifr_question_layout, p, IFR_Q_PROMPT, sid(fs, prompt));
	fw_layout_put(&fw_ifr_question_layout, p, IFR_Q_HELP, sid(fs, help ? help : ""));
	fw_layout_put(&fw_ifr_question_layout, p, IFR_Q_QUESTION_ID, qid);
	fw_layout_put(&fw_ifr_question_layout, p, IFR_Q_VARSTORE_ID, vsid);
	fw_layout_put(&fw_ifr_question_layout, p, IFR_Q_VARSTORE_INFO, info);
	fw_layout_put(&fw_ifr_question_layout, p, IFR_Q_FLAGS, flags);
}

static struct question *new_question(struct formset *fs)
{
	if (fs->nq == fs->qcap) {
		fs->qcap = fs->qcap ? fs->qcap * 2 : 128;
		fs->q = fw_xrealloc(fs->q, fs->qcap * sizeof(*fs->q));
	}
	struct question *q = &fs->q[fs->nq++];
	memset(q, 0, sizeof(*q));
	q->form_id = fs->form;
	if (fs->pass == 2)
		q->path = fs_form_path(fs, fs->form);
	return q;
}

void f_ref(struct formset *fs, const char *prompt, const char *help, uint16_t form)
{
	uint16_t qid = take_qid(fs, 0);
	size_t o = ifr_op(&fs->ifr, FW_IFR_REF, FW_IFR_REF_SIZE, false);
	uint8_t *p = ifr_at(&fs->ifr, o);
	question_header(fs, p, prompt, help ? help : prompt, qid, 0, 0xFFFF, 0);
	fw_layout_put(&fw_ifr_ref_layout, p, IFR_REF_FORM_ID, form);
	if (fs->pass == 1 && !find_ref(fs, form) && form != fs->form) {
		SAMPLE_ASSERT(fs->nrefs < ARRAY_LEN(fs->refs));
		fs->refs[fs->nrefs++] = (struct formref){form, fs->form, prompt};
	}
	struct question *q = new_question(fs);
	q->kind = QK_REF;
	q->prompt = prompt;
	q->help = help;
	q->qid = qid;
}

void f_ref_formset(struct formset *fs, const char *prompt, const struct fw_guid *formset, uint16_t form)
{
	uint16_t qid = take_qid(fs, 0);
	size_t o = ifr_op(&fs->ifr, FW_IFR_REF, 33, false);
	uint8_t *p = ifr_at(&fs->ifr, o);
	question_header(fs, p, prompt, prompt, qid, 0, 0xFFFF, 0);
	fw_layout_put(&fw_ifr_ref_layout, p, IFR_REF_FORM_ID, form);
	fw_layout_put_guid(&fw_ifr_ref_layout, p, IFR_REF_FORMSET_ID, formset);
	struct question *q = new_question(fs);
	q->kind = QK_REF;
	q->prompt = prompt;
	q->qid = qid;
}

void f_label(struct formset *fs, uint16_t number)
{
	size_t o = ifr_op(&fs->ifr, FW_IFR_GUID, FW_IFR_GUID_EXT_SIZE, false);
	uint8_t *p = ifr_at(&fs->ifr, o);
	fw_layout_put_guid(&fw_ifr_guid_layout, p, IFR_GUID_GUID, &tiano_guid);
	fw_layout_put(&fw_ifr_guid_layout, p, IFR_GUID_EXT_OPCODE, FW_IFR_EXT_LABEL);
	fw_layout_put(&fw_ifr_guid_layout, p, IFR_GUID_EXT_VALUE, number);
}

/* Resolve "field" or "store.field" to its varstore and field. */
static void resolve(struct formset *fs, const char *name, struct varstore **vs, struct vfield **f)
{
	const char *dot = strchr(name, '.');
	if (dot) {
		char *store = sample_strdup(name);
		store[dot - name] = '\0';
		*vs = fs_varstore(fs, store);
		if (!*vs)
			sample_die("%s: no varstore %s", fs->module, store);
		name = dot + 1;
	} else {
		SAMPLE_ASSERT(fs->nvs > 0);
		*vs = fs->vs[0];
	}
	*f = vs_find(*vs, name);
	if (!*f)
		sample_die("%s: varstore %s has no field %s", fs->module, (*vs)->name, name);
}

static uint8_t size_code(uint32_t width)
{
	switch (width) {
	case 1: return FW_IFR_NUMERIC_SIZE_1;
	case 2: return FW_IFR_NUMERIC_SIZE_2;
	case 4: return FW_IFR_NUMERIC_SIZE_4;
	case 8: return FW_IFR_NUMERIC_SIZE_8;
	}
	sample_die("no IFR numeric of %u bytes", width);
}

static const uint8_t value_size[4] = {1, 2, 4, 8};

static void put_le(uint8_t *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void default_op(struct formset *fs, uint16_t id, uint8_t type, uint64_t value, size_t n)
{
	size_t o = ifr_op(&fs->ifr, FW_IFR_DEFAULT, FW_IFR_DEFAULT_VALUE + n, false);
	uint8_t *p = ifr_at(&fs->ifr, o);
	fw_layout_put(&fw_ifr_default_layout, p, IFR_DEFAULT_ID, id);
	fw_layout_put(&fw_ifr_default_layout, p, IFR_DEFAULT_TYPE, type);
	uint8_t v[8];
	put_le(v, value, n);
	fw_layout_put_bytes(&fw_ifr_default_layout, p, IFR_DEFAULT_VALUE, v, n);
}

/* Common start of a storage question: ids, model entry, the field's defaults. */
static struct question *storage_question(struct formset *fs, uint8_t kind, const struct qdef *d, struct varstore **vs,
					 struct vfield **f)
{
	resolve(fs, d->field, vs, f);
	uint16_t qid = take_qid(fs, d->qid);
	remember_qid(fs, d->field, qid);
	(*f)->has_question = true;
	(*f)->std = d->def;
	(*f)->mfg = d->mfg_set ? d->mfg : d->def;
	struct question *q = new_question(fs);
	q->kind = kind;
	q->prompt = d->prompt;
	q->help = d->help;
	q->field = d->field;
	q->qid = qid;
	q->vs = *vs;
	q->f = *f;
	q->def = d->def;
	q->mfg = (*f)->mfg;
	if (d->opts) {
		/* OPTS() makes a compound literal that dies with the define function's block */
		size_t n = 0;
		while (d->opts[n].text)
			n++;
		struct opt *copy = sample_alloc((n + 1) * sizeof(*copy));
		memcpy(copy, d->opts, (n + 1) * sizeof(*copy));
		q->opts = copy;
	}
	q->min = d->min;
	q->max = d->max;
	return q;
}

static uint8_t qflags(struct formset *fs, const struct qdef *d) { return d->qflags ? d->qflags : fs->usual_qflags; }

void q_oneof(struct formset *fs, const struct qdef *d)
{
	struct varstore *vs;
	struct vfield *f;
	struct question *q = storage_question(fs, QK_ONEOF, d, &vs, &f);
	SAMPLE_ASSERT(f->kind == VF_FIELD && d->opts);
	uint8_t sc = size_code(f->width);
	uint64_t min = UINT64_MAX, max = 0;
	for (const struct opt *o = d->opts; o->text; o++) {
		if (o->value < min)
			min = o->value;
		if (o->value > max)
			max = o->value;
	}
	const struct fw_layout *l = &fw_ifr_numeric_layouts[sc];
	size_t o = ifr_op(&fs->ifr, FW_IFR_ONE_OF, l->size, true);
	uint8_t *p = ifr_at(&fs->ifr, o);
	question_header(fs, p, d->prompt, d->help, q->qid, vs->id, (uint16_t)f->offset, qflags(fs, d));
	fw_layout_put(l, p, IFR_NUM_FLAGS, sc | FW_IFR_DISPLAY_UINT_DEC);
	fw_layout_put(l, p, IFR_NUM_MIN, d->min ? d->min : min);
	fw_layout_put(l, p, IFR_NUM_MAX, d->max ? d->max : max);
	bool has_def = false;
	for (const struct opt *opt = d->opts; opt->text; opt++)
		if (opt->value == d->def)
			has_def = true;
	if (!has_def)
		sample_die("%s: %s: default %llu is not an option", fs->module, d->prompt, (unsigned long long)d->def);
	for (const struct opt *opt = d->opts; opt->text; opt++) {
		uint8_t flags = 0;
		if (!d->default_ops) {
			if (opt->value == d->def)
				flags |= FW_IFR_OPTION_DEFAULT;
			if (opt->value == q->mfg && (d->mfg_set || !fs->amd_style))
				flags |= FW_IFR_OPTION_DEFAULT_MFG;
			for (const uint64_t *x = d->extra_defaults; x && *x != UINT64_MAX; x++)
				if (opt->value == *x)
					flags |= FW_IFR_OPTION_DEFAULT;
		}
		size_t n = value_size[sc];
		size_t oo = ifr_op(&fs->ifr, FW_IFR_ONE_OF_OPTION, FW_IFR_ONE_OF_OPTION_VALUE + n, false);
		uint8_t *op = ifr_at(&fs->ifr, oo);
		fw_layout_put(&fw_ifr_one_of_option_layout, op, IFR_OPTION_OPTION, sid(fs, opt->text));
		fw_layout_put(&fw_ifr_one_of_option_layout, op, IFR_OPTION_FLAGS, flags);
		fw_layout_put(&fw_ifr_one_of_option_layout, op, IFR_OPTION_TYPE, sc);
		uint8_t v[8];
		put_le(v, opt->value, n);
		fw_layout_put_bytes(&fw_ifr_one_of_option_layout, op, IFR_OPTION_VALUE, v, n);
	}
	if (d->default_ops) {
		default_op(fs, FW_IFR_DEFAULT_ID_STANDARD, sc, d->def, value_size[sc]);
		default_op(fs, FW_IFR_DEFAULT_ID_MANUFACTURING, sc, q->mfg, value_size[sc]);
	}
	ifr_end(&fs->ifr);
}

void q_numeric(struct formset *fs, const struct qdef *d)
{
	struct varstore *vs;
	struct vfield *f;
	struct question *q = storage_question(fs, QK_NUMERIC, d, &vs, &f);
	SAMPLE_ASSERT(f->kind == VF_FIELD);
	SAMPLE_ASSERT(d->def >= d->min && d->def <= d->max);
	uint8_t sc = size_code(f->width);
	const struct fw_layout *l = &fw_ifr_numeric_layouts[sc];
	size_t o = ifr_op(&fs->ifr, FW_IFR_NUMERIC, l->size, true);
	uint8_t *p = ifr_at(&fs->ifr, o);
	question_header(fs, p, d->prompt, d->help, q->qid, vs->id, (uint16_t)f->offset, qflags(fs, d));
	fw_layout_put(l, p, IFR_NUM_FLAGS, sc | (d->hex ? FW_IFR_DISPLAY_UINT_HEX : FW_IFR_DISPLAY_UINT_DEC));
	fw_layout_put(l, p, IFR_NUM_MIN, d->min);
	fw_layout_put(l, p, IFR_NUM_MAX, d->max);
	fw_layout_put(l, p, IFR_NUM_STEP, d->step);
	default_op(fs, FW_IFR_DEFAULT_ID_STANDARD, sc, d->def, value_size[sc]);
	if (d->mfg_set)
		default_op(fs, FW_IFR_DEFAULT_ID_MANUFACTURING, sc, d->mfg, value_size[sc]);
	ifr_end(&fs->ifr);
}

void q_checkbox(struct formset *fs, const struct qdef *d)
{
	struct varstore *vs;
	struct vfield *f;
	struct question *q = storage_question(fs, QK_CHECKBOX, d, &vs, &f);
	bool bits = f->kind == VF_BITS;
	SAMPLE_ASSERT(bits ? f->width == 1 : f->width == 1);
	if (bits) {
		/* EDK2 bit-field varstore: the question sits in the scope of a GUID opcode and its
		 * VarOffset counts bits (MdeModuleHii.h EDKII_IFR_BIT_VARSTORE_GUID). */
		size_t g = ifr_op(&fs->ifr, FW_IFR_GUID, FW_IFR_GUID_SIZE, true);
		fw_layout_put_guid(&fw_ifr_guid_layout, ifr_at(&fs->ifr, g), IFR_GUID_GUID, &bit_varstore_guid);
	}
	size_t o = ifr_op(&fs->ifr, FW_IFR_CHECKBOX, fw_ifr_checkbox_layout.size, true);
	uint8_t *p = ifr_at(&fs->ifr, o);
	question_header(fs, p, d->prompt, d->help, q->qid, vs->id, (uint16_t)f->offset, qflags(fs, d));
	uint8_t flags = (d->def ? FW_IFR_CHECKBOX_DEFAULT : 0) | (q->mfg ? FW_IFR_CHECKBOX_DEFAULT_MFG : 0);
	fw_layout_put(&fw_ifr_checkbox_layout, p, IFR_CHECKBOX_FLAGS, flags);
	ifr_end(&fs->ifr);
	if (bits)
		ifr_end(&fs->ifr);
}

void q_string(struct formset *fs, const struct qdef *d)
{
	struct varstore *vs;
	struct vfield *f;
	struct question *q = storage_question(fs, QK_STRING, d, &vs, &f);
	SAMPLE_ASSERT(f->kind == VF_FIELD && f->width == 2u * d->max_size);
	f->std = f->mfg = 0; /* empty string */
	size_t o = ifr_op(&fs->ifr, FW_IFR_STRING, fw_ifr_string_layout.size, true);
	uint8_t *p = ifr_at(&fs->ifr, o);
	question_header(fs, p, d->prompt, d->help, q->qid, vs->id, (uint16_t)f->offset, qflags(fs, d));
	fw_layout_put(&fw_ifr_string_layout, p, IFR_STRING_MIN_SIZE, 0);
	fw_layout_put(&fw_ifr_string_layout, p, IFR_STRING_MAX_SIZE, d->max_size);
	ifr_end(&fs->ifr);
}

void q_password(struct formset *fs, const struct qdef *d)
{
	struct varstore *vs;
	struct vfield *f;
	struct question *q = storage_question(fs, QK_PASSWORD, d, &vs, &f);
	SAMPLE_ASSERT(f->kind == VF_FIELD && f->width == 2u * d->max_size);
	f->std = f->mfg = 0;
	size_t o = ifr_op(&fs->ifr, FW_IFR_PASSWORD, fw_ifr_password_layout.size, true);
	uint8_t *p = ifr_at(&fs->ifr, o);
	question_header(fs, p, d->prompt, d->help, q->qid, vs->id, (uint16_t)f->offset, FW_IFR_QF_CALLBACK);
	fw_layout_put(&fw_ifr_password_layout, p, IFR_PASSWORD_MIN_SIZE, 3);
	fw_layout_put(&fw_ifr_password_layout, p, IFR_PASSWORD_MAX_SIZE, d->max_size);
	ifr_end(&fs->ifr);
}

/* ---- conditions ---- */

static void cond_open(struct formset *fs, uint8_t op)
{
	ifr_op(&fs->ifr, op, FW_IFR_HEADER_SIZE, true);
	fs->cond_first_op = fs->ifr.b.len;
	fs->cond_ops = 0;
}

void c_suppress(struct formset *fs) { cond_open(fs, FW_IFR_SUPPRESS_IF); }
void c_grayout(struct formset *fs) { cond_open(fs, FW_IFR_GRAY_OUT_IF); }

void c_body(struct formset *fs)
{
	SAMPLE_ASSERT(fs->cond_ops > 0);
	if (fs->amd_style && fs->cond_ops > 1) {
		/* AMD's CBS images set the scope bit on the first operand of a compound condition and
		 * close it with an End before the governed statements (the WRX90E 1203 CBS module does
		 * this throughout); a decoder must trust the scope bit. */
		uint8_t *p = ifr_at(&fs->ifr, fs->cond_first_op);
		p[1] |= FW_IFR_SCOPE_BIT;
		fs->ifr.depth++;
		ifr_end(&fs->ifr);
	}
}

void c_end(struct formset *fs) { ifr_end(&fs->ifr); }

static void expr_op(struct formset *fs, uint8_t op)
{
	ifr_op(&fs->ifr, op, FW_IFR_HEADER_SIZE, false);
	fs->cond_ops++;
}

void x_eq(struct formset *fs, const char *field, uint16_t value)
{
	size_t o = ifr_op(&fs->ifr, FW_IFR_EQ_ID_VAL, fw_ifr_eq_id_val_layout.size, false);
	fw_layout_put(&fw_ifr_eq_id_val_layout, ifr_at(&fs->ifr, o), IFR_EQ_ID_VAL_QUESTION_ID, lookup_qid(fs, field));
	fw_layout_put(&fw_ifr_eq_id_val_layout, ifr_at(&fs->ifr, o), IFR_EQ_ID_VAL_VALUE, value);
	fs->cond_ops++;
}

void x_ne(struct formset *fs, const char *field, uint16_t value)
{
	x_eq(fs, field, value);
	x_not(fs);
}

void x_not(struct formset *fs) { expr_op(fs, FW_IFR_NOT); }
void x_and(struct formset *fs) { expr_op(fs, FW_IFR_AND); }
void x_or(struct formset *fs) { expr_op(fs, FW_IFR_OR); }
void x_true(struct formset *fs) { expr_op(fs, FW_IFR_TRUE); }

void x_const_equal(struct formset *fs, uint64_t a, uint64_t b)
{
	uint64_t v[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		const struct fw_layout *l = &fw_ifr_uint_layouts[3];
		size_t o = ifr_op(&fs->ifr, FW_IFR_UINT64, l->size, false);
		fw_layout_put(l, ifr_at(&fs->ifr, o), IFR_UINT_VALUE, v[i]);
		fs->cond_ops++;
	}
	expr_op(fs, FW_IFR_EQUAL);
}

void f_plant(struct formset *fs, const char *change, const char *prompt, const char *what)
{
	if (fs->pass == 2 && fs->version >= 1201)
		plant_setting(fs->module, change, prompt, fs_form_path(fs, fs->form), what);
}

void f_plant_at(struct formset *fs, const char *change, const char *prompt, const char *path, const char *what)
{
	if (fs->pass == 2 && fs->version >= 1201)
		plant_setting(fs->module, change, prompt, path, what);
}

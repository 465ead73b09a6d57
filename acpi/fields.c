/* Decoding a table through its layout (see acpi/fields.h). */
#include "fields.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Largest CDIT-style matrix decoded (N x N bytes). */
#define MATRIX_MAX 4096

static struct fw_acpi_part *new_part(struct fw_acpi_doc *d, const struct fw_acpi_table *t, size_t off, size_t len,
				     int64_t type)
{
	if (d->nparts == d->cap) { /* a heap vector while decoding: see fw_acpi_fields_decode */
		d->cap = d->cap ? 2 * d->cap : 16;
		d->parts = fw_xrealloc(d->parts, d->cap * sizeof(*d->parts));
	}
	struct fw_acpi_part *p = &d->parts[d->nparts++];
	memset(p, 0, sizeof(*p));
	p->bytes = t->data.p + off;
	p->offset = (uint32_t)off;
	p->length = (uint32_t)len;
	p->type = type;
	p->described = true;
	return p;
}

/* Whether every visible field of `l` at `base` ends within `end` (what the values show). */
static bool all_fit(const struct fw_layout *l, size_t base, size_t end)
{
	for (size_t i = 0; i < l->nfields; i++) {
		const struct fw_field *f = &l->fields[i];
		if (f->flags & FW_FF_HIDDEN)
			continue;
		size_t off = base + f->offset;
		if (off + fw_field_width(f) > end || (f->type == FW_FT_STRUCT && !all_fit(fw_field_sub(f), off, end)))
			return false;
	}
	return true;
}

static struct fw_acpi_part *decode_struct(struct fw_acpi_doc *d, struct fw_acpi_table *t, struct fw_arena *a,
					  const struct fw_layout *l, size_t off, size_t len, int64_t type)
{
	struct fw_acpi_part *p = new_part(d, t, off, len, type);
	p->layout = l;
	/* a structure shorter than its type's fields is malformed (the fixed part of an older,
	   shorter revision is the caller's to judge) */
	if (off != 0 && !all_fit(l, 0, len))
		fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx has Length %zu, the structure needs %u", l->name, off, len,
			     l->size);
	return p;
}

static const struct fw_acpi_subtype *find_type(const struct fw_acpi_layout *l, uint32_t type)
{
	for (size_t i = 0; i < l->ntypes; i++)
		if (l->types[i].type == type)
			return &l->types[i];
	return NULL;
}

/* A field of the fixed part (a count, where the rest starts); false when the part ends before it. */
static uint64_t fixed_value(const struct fw_acpi_doc *d, const struct fw_acpi_layout *l, int idx, bool *ok)
{
	const struct fw_field *f = &l->fixed->fields[idx];
	const struct fw_acpi_part *p = &d->parts[0];
	if ((f->flags & FW_FF_HIDDEN) || f->offset + fw_field_width(f) > p->length) {
		*ok = false;
		return 0;
	}
	return fw_field_int(f, p->bytes + f->offset);
}

/* Records without a length field: the layout's function gives it, the type the layout. */
static void inner_records_by_type(struct fw_acpi_doc *d, struct fw_acpi_table *t, struct fw_arena *a,
				  const struct fw_acpi_layout *l, const struct fw_layout *item, size_t parent)
{
	size_t base = d->parts[parent].offset, len = d->parts[parent].length;
	for (size_t off = d->parts[parent].layout->size; off < len;) {
		const uint8_t *p = t->data.p + base + off;
		size_t n = l->inner_length(p, len - off);
		if (n == 0 || n > len - off) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, base + off, "%s type 0x%x at 0x%zx needs %zu bytes, %zu left; walk stopped",
				     l->inner.what, p[0], base + off, n, len - off);
			return;
		}
		const struct fw_layout *il = item;
		for (size_t i = 0; i < l->ninner_types; i++)
			if (l->inner_types[i].type == p[0])
				il = l->inner_types[i].layout;
		decode_struct(d, t, a, il, base + off, n, p[0])->within = (uint32_t)parent;
		off += n;
	}
}

/* The records after a subtable's own fields, each a part within it. */
static void inner_records(struct fw_acpi_doc *d, struct fw_acpi_table *t, struct fw_arena *a, const struct fw_acpi_layout *l,
			  const struct fw_layout *item, size_t parent)
{
	if (l->inner_length) {
		inner_records_by_type(d, t, a, l, item, parent);
		return;
	}
	size_t base = d->parts[parent].offset, len = d->parts[parent].length;
	struct fw_view sub = fw_view_make(t->data.p + base, len, fw_view_abs(&t->data, base));
	struct fw_acpi_record r;
	for (size_t off = d->parts[parent].layout->size; fw_acpi_next_record(t, a, &sub, base, &off, &l->inner, &r);) {
		decode_struct(d, t, a, item, base + r.offset, r.length, r.type)->within = (uint32_t)parent;
	}
}

/* Subtables whose length is their own field. */
static void records_with_length(struct fw_acpi_doc *d, struct fw_acpi_table *t, struct fw_arena *a,
				const struct fw_acpi_layout *l, size_t off)
{
	struct fw_acpi_record r;
	while (fw_acpi_next_record(t, a, &t->data, 0, &off, &l->records, &r)) {
		const struct fw_acpi_subtype *st = find_type(l, r.type);
		if (st) {
			decode_struct(d, t, a, st->layout, r.offset, r.length, r.type);
			if (st->count_field < 0 && st->item && r.length > st->layout->size)
				inner_records(d, t, a, l, st->item, d->nparts - 1);
			continue;
		}
		struct fw_acpi_part *p = new_part(d, t, r.offset, r.length, r.type);
		p->described = false;
		fw_acpi_diag(t, a, FW_DIAG_INFO, r.offset, "unknown %s type %u at 0x%zx (%u bytes) left undecoded", l->records.what,
			     r.type, r.offset, r.length);
	}
}

/* Subtables whose type fixes the length (plus counted items). */
static void records_by_type(struct fw_acpi_doc *d, struct fw_acpi_table *t, struct fw_arena *a,
			    const struct fw_acpi_layout *l, size_t off, uint64_t count)
{
	size_t end = t->data.len;
	for (uint64_t k = 0; off < end && k < count; k++) {
		if (!fw_view_has(&t->data, off, l->records.type_width)) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%zu stray bytes at 0x%zx after the last %s", end - off, off,
				     l->records.what);
			return;
		}
		uint32_t type = l->records.type_width == 2 ? fw_le16(t->data.p + off) : t->data.p[off];
		const struct fw_acpi_subtype *st = find_type(l, type);
		if (!st) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s type 0x%x at 0x%zx is not described and has no length: walk stopped",
				     l->records.what, type, off);
			return;
		}
		uint64_t items = 0;
		if (st->count_field >= 0) {
			if (!fw_view_has(&t->data, off, st->layout->size)) {
				fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx needs %u bytes, %zu left; walk stopped",
					     st->layout->name, off, st->layout->size, end - off);
				return;
			}
			struct fw_view sv = {t->data.p + off, end - off, FW_OFFSET_UNKNOWN};
			items = fw_layout_get(st->layout, &sv, 0, (unsigned)st->count_field);
		}
		uint64_t size = st->layout->size + items * (st->item ? st->item->size : 0);
		if (size > end - off) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "%s at 0x%zx needs %" PRIu64 " bytes, %zu left; walk stopped",
				     st->layout->name, off, size, end - off);
			return;
		}
		decode_struct(d, t, a, st->layout, off, st->layout->size, type);
		off += st->layout->size;
		for (uint64_t i = 0; i < items; i++, off += st->item->size)
			decode_struct(d, t, a, st->item, off, st->item->size, -1);
	}
	if (count != UINT64_MAX && off < end)
		fw_acpi_diag(t, a, FW_DIAG_WARN, off, "%zu bytes at 0x%zx after the %" PRIu64 " %ss the table counts", end - off,
			     off, count, l->records.what);
}

static void entries(struct fw_acpi_doc *d, struct fw_acpi_table *t, struct fw_arena *a, const struct fw_acpi_layout *l,
		    size_t off, uint64_t count)
{
	size_t end = t->data.len, size = l->entry->size;
	uint64_t k = 0;
	for (; k < count && off + size <= end; k++, off += size)
		decode_struct(d, t, a, l->entry, off, size, -1);
	if (count != UINT64_MAX && k < count)
		fw_acpi_diag(t, a, FW_DIAG_ERROR, off, "the table counts %" PRIu64 " %ss, %" PRIu64 " fit in its Length", count,
			     l->entry->name, k);
	else if (count == UINT64_MAX && off < end)
		fw_acpi_diag(t, a, FW_DIAG_WARN, off, "%zu stray bytes at 0x%zx after the last %s", end - off, off, l->entry->name);
}

static void decode_doc(struct fw_acpi_doc *d, struct fw_acpi_table *t, const struct fw_acpi_layout *l, struct fw_arena *a)
{
	size_t len = t->data.len;
	decode_struct(d, t, a, l->fixed, 0, len < l->fixed->size ? len : l->fixed->size, -1);
	if (len < l->fixed->size) {
		if (len < (l->min_size ? l->min_size : l->fixed->size))
			fw_acpi_diag(t, a, FW_DIAG_WARN, len, "%zu bytes, shorter than the %u of the %s: later fields left out", len,
				     l->min_size ? l->min_size : l->fixed->size, l->fixed->name);
		return;
	}
	bool ok = true;
	size_t start = l->fixed->size;
	if (l->start_field >= 0) {
		uint64_t s = fixed_value(d, l, l->start_field, &ok);
		if (!ok || s < l->fixed->size || s > len) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, l->fixed->fields[l->start_field].offset,
				     "%s 0x%" PRIx64 " is outside the table (0x%x..0x%zx): nothing after the fixed part decoded",
				     l->fixed->fields[l->start_field].name, s, l->fixed->size, len);
			return;
		}
		start = (size_t)s;
	}
	uint64_t count = UINT64_MAX;
	if (l->count_field >= 0)
		count = fixed_value(d, l, l->count_field, &ok);
	switch (l->rest) {
	case FW_ACPI_REST_NONE: break;
	case FW_ACPI_REST_RECORDS:
		if (l->records.length_width)
			records_with_length(d, t, a, l, start);
		else
			records_by_type(d, t, a, l, start, count);
		break;
	case FW_ACPI_REST_ENTRIES: entries(d, t, a, l, start, count); break;
	case FW_ACPI_REST_MATRIX:
		if (count > MATRIX_MAX || count * count > len - start) {
			fw_acpi_diag(t, a, FW_DIAG_ERROR, start, "%" PRIu64 " x %" PRIu64 " distances do not fit in the %zu bytes after 0x%zx",
				     count, count, len - start, start);
			break;
		}
		d->matrix = t->data.p + start;
		d->matrix_n = (uint32_t)count;
		if (start + count * count < len)
			fw_acpi_diag(t, a, FW_DIAG_WARN, start + count * count, "%" PRIu64 " stray bytes after the distances",
				     len - start - count * count);
		break;
	}
}

struct fw_acpi_doc *fw_acpi_fields_decode(struct fw_acpi_table *t, const struct fw_acpi_layout *l, struct fw_arena *a)
{
	struct fw_acpi_doc *d = fw_arena_alloc(a, sizeof(*d));
	d->layout = l;
	decode_doc(d, t, l, a);
	/* The parts grow in a heap vector while the walk adds them, and the model keeps them at their
	 * exact size: arrays doubled in the arena left every smaller copy behind, and a new 64 KiB
	 * block for each table (73 KB a table for 1,000 IVRS tables). */
	struct fw_acpi_part *heap = d->parts;
	d->parts = fw_arena_memdup(a, heap, d->nparts * sizeof(*heap));
	d->cap = d->nparts;
	free(heap);
	return d;
}

/* --- values by name -------------------------------------------------------------------------- */

struct fw_acpi_values fw_acpi_values_of(const struct fw_acpi_part *p)
{
	struct fw_acpi_values it = {.p = p};
	if (p->layout)
		fw_layout_step_start(&it.step, p->layout);
	return it;
}

bool fw_acpi_values_next(struct fw_acpi_values *it, struct fw_acpi_value *out)
{
	const struct fw_acpi_part *p = it->p;
	const struct fw_field *f;
	size_t off;
	while ((f = fw_layout_step_next(&it->step, p->length, &off))) {
		if (f->type == FW_FT_STRUCT)
			continue; /* its fields follow */
		out->field = f;
		out->parent = it->step.frame[it->step.depth - 1].parent;
		out->offset = (uint32_t)(p->offset + off);
		out->p = p->bytes + off;
		out->u = fw_field_int(f, out->p);
		return true;
	}
	return false;
}

/* v is the field `name` ("Outer.Inner" for a field of a nested structure) */
static bool value_named(const struct fw_field *f, const struct fw_field *parent, const char *name)
{
	if (!parent)
		return !strcmp(f->name, name);
	size_t outer = strlen(parent->name);
	return !strncmp(parent->name, name, outer) && name[outer] == '.' && !strcmp(f->name, name + outer + 1);
}

/* Where a layout's field of a name is: found once per layout and name, then read where it lies
 * instead of walked to. Names come from the views and derive functions, some through a buffer of
 * the caller's (a text template's placeholder), so entries are known by their text. */
struct field_place {
	const struct fw_layout *l;
	const struct fw_field *f, *parent; /* f NULL: no field of that name */
	uint32_t off, parent_end;          /* f's offset in the part; the end of its nested structure */
	char name[48];
};

static const struct field_place *field_place(const struct fw_layout *l, const char *name)
{
	/* per thread: sources are opened (and their tables decoded) two at a time */
	static _Thread_local struct field_place seen[512];
	uint32_t h = (uint32_t)((uintptr_t)l >> 4);
	size_t n = 0;
	for (; name[n]; n++)
		h = (h ^ (unsigned char)name[n]) * 16777619u;
	struct field_place *c = &seen[h % 512];
	if (c->l == l && !strcmp(c->name, name))
		return c;
	c->l = n < sizeof(c->name) ? l : NULL; /* a longer name is looked for each time */
	if (c->l)
		memcpy(c->name, name, n + 1);
	else
		c->name[0] = '\0';
	c->f = NULL;
	struct fw_layout_step st;
	fw_layout_step_start(&st, l);
	size_t off;
	for (const struct fw_field *f; (f = fw_layout_step_next(&st, SIZE_MAX, &off));) {
		const struct fw_layout_frame *fr = &st.frame[st.depth - 1];
		if (f->type == FW_FT_STRUCT || !value_named(f, fr->parent, name))
			continue;
		if (st.depth > 2) /* deeper than one nested structure: walked to each time */
			break;
		c->f = f;
		c->parent = fr->parent;
		c->off = (uint32_t)off;
		c->parent_end = fr->parent ? fr->off + (uint32_t)fw_field_width(fr->parent) : 0;
		break;
	}
	return c;
}

const struct fw_acpi_value *fw_acpi_part_value(const struct fw_acpi_part *p, const char *name, struct fw_acpi_value *room)
{
	if (!p->layout)
		return NULL;
	const struct field_place *c = field_place(p->layout, name);
	if (c->f && c->off + fw_field_width(c->f) <= p->length && c->parent_end <= p->length) {
		room->field = c->f;
		room->parent = c->parent;
		room->offset = p->offset + c->off;
		room->p = p->bytes + c->off;
		room->u = fw_field_int(c->f, room->p);
		return room;
	}
	/* the first field of that name that the part reaches (a later one of the same name, if any) */
	struct fw_acpi_values it = fw_acpi_values_of(p);
	while (fw_acpi_values_next(&it, room))
		if (value_named(room->field, room->parent, name))
			return room;
	return NULL;
}

const struct fw_acpi_shape *fw_acpi_view_shape(const struct fw_acpi_view *v, const struct fw_acpi_part *p)
{
	for (size_t i = 0; v && i < v->nshapes; i++)
		if (v->shapes[i].layout == p->layout)
			return &v->shapes[i];
	return NULL;
}

const struct fw_acpi_shape *fw_acpi_listed_shape(const struct fw_acpi_table *t, size_t k)
{
	const struct fw_acpi_shape *sh = fw_acpi_view_shape(t->doc->layout->view, &t->doc->parts[k]);
	const struct fw_acpi_value *v;
	struct fw_acpi_derived dv;
	for (size_t i = 0; sh && i < sh->nshow; i++)
		if (sh->show[i].name[0] == '@' && sh->show[i].derive && !strcmp(sh->show[i].name, "@listed"))
			return fw_acpi_show_value(t, k, sh, "@listed", &v, &dv) && dv.u ? sh : NULL;
	return sh;
}

/* The value of `name` with its derive function found (NULL: a field of the part). */
static inline bool show_value(const struct fw_acpi_table *t, size_t part, const char *name, fw_acpi_derive_fn derive,
			      const struct fw_acpi_value **v, struct fw_acpi_derived *out)
{
	*v = NULL;
	out->u = 0;
	out->s = NULL;
	out->list = NULL;
	out->nlist = 0;
	out->lines = NULL;
	out->nlines = 0;
	out->indent = 0;
	out->bits = NULL;
	out->cols = NULL;
	out->ncols = out->nrows = 0;
	out->cells = NULL;
	out->key_cols = 0;
	out->compared = false;
	out->null = false;
	if (name[0] == '@' && strcmp(name, "@listed") && t->doc && part < t->doc->nparts) {
		const struct fw_acpi_part *p = &t->doc->parts[part];
		out->u = !strcmp(name, "@offset") ? p->offset : !strcmp(name, "@type") ? (uint64_t)p->type : p->length;
		return true;
	}
	if (derive)
		return derive(t, part, name, out);
	if (!t->doc || part >= t->doc->nparts || !(*v = fw_acpi_part_value(&t->doc->parts[part], name, &out->value)))
		return false;
	out->u = (*v)->u;
	if ((*v)->field->flags & FW_FF_BITS)
		out->bits = fw_field_bits((*v)->field);
	return true;
}

bool fw_acpi_show_value(const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh, const char *name,
			const struct fw_acpi_value **v, struct fw_acpi_derived *out)
{
	for (size_t i = 0; i < sh->nshow; i++)
		if (sh->show[i].derive && (sh->show[i].name == name || (sh->show[i].name[0] == name[0] && !strcmp(sh->show[i].name, name))))
			return show_value(t, part, name, sh->show[i].derive, v, out);
	return show_value(t, part, name, NULL, v, out);
}

bool fw_acpi_show_value_at(const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh, size_t i,
			   const struct fw_acpi_value **v, struct fw_acpi_derived *out)
{
	return show_value(t, part, sh->show[i].name, sh->show[i].derive, v, out);
}

/* --- values as text -------------------------------------------------------------------------- */

bool fw_acpi_value_is_text(const struct fw_acpi_value *v)
{
	const struct fw_field *f = v->field;
	return f->type > FW_FT_U64 || f->type == FW_FT_U64 || (f->flags & (FW_FF_HEX | FW_FF_FLAGS | FW_FF_BITS));
}

size_t fw_acpi_num(char *out, uint64_t v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	for (size_t i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = '\0';
	return n;
}

const char *fw_acpi_value_str(const struct fw_acpi_value *v, char *buf, size_t len)
{
	const struct fw_field *f = v->field;
	switch ((enum fw_ftype)f->type) {
	case FW_FT_GUID: {
		struct fw_guid g;
		memcpy(g.b, v->p, 16);
		char s[FW_GUID_STR_LEN];
		snprintf(buf, len, "%s", fw_guid_format(&g, s));
		return buf;
	}
	case FW_FT_CHARS: return fw_field_chars(v->p, f->len, buf, len);
	case FW_FT_BYTES:
	case FW_FT_STRUCT: {
		size_t k = 0;
		buf[0] = '\0';
		for (size_t i = 0; i < f->len && k + 3 < len; i++)
			k += (size_t)snprintf(buf + k, len - k, "%02x", v->p[i]);
		return buf;
	}
	default:
		if (len < 24) {
			buf[0] = '\0';
			return buf;
		}
		if (fw_acpi_value_is_text(v)) {
			buf[0] = '0';
			buf[1] = 'x';
			fw_acpi_num(buf + 2, v->u, 16, false);
		} else {
			fw_acpi_num(buf, v->u, 10, false);
		}
		return buf;
	}
}

const char *fw_acpi_value_names(const struct fw_acpi_value *v, char *buf, size_t len)
{
	const struct fw_field *f = v->field;
	if (f->type > FW_FT_U64 || !f->names)
		return NULL;
	if (f->flags & FW_FF_ENUM)
		return fw_named_value_name(f->names, v->u);
	if (f->flags & FW_FF_FLAGS)
		return fw_flags_str(f->names, v->u, buf, len);
	if (f->flags & FW_FF_BITS)
		return fw_bitfields_str(v->u, fw_field_bits(f), buf, len);
	return NULL;
}

const char *fw_field_key(const char *name, char *buf, size_t len)
{
	size_t k = 0;
	for (size_t i = 0; name[i] && k + 2 < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (!isalnum(c)) {
			if (k && buf[k - 1] != '_')
				buf[k++] = '_';
			continue;
		}
		bool upper = isupper(c);
		if (upper && i > 0 && k && buf[k - 1] != '_') {
			unsigned char prev = (unsigned char)name[i - 1], next = (unsigned char)name[i + 1];
			if (islower(prev) || isdigit(prev) || (isupper(prev) && islower(next)))
				buf[k++] = '_';
		}
		buf[k++] = (char)tolower(c);
	}
	while (k && buf[k - 1] == '_')
		k--;
	buf[k] = '\0';
	return buf;
}

/* `fwlens acpi --format json`: the table set as JSON (README.md "JSON contracts": {"tables": [{signature,
 * length, revision, checksum_ok, oem_id, oem_table_id, decoded?}]}). Integers are numbers;
 * addresses and 64-bit registers are "0x..." strings (they do not fit a JSON integer). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acpi-write.h"
#include "acpi/fields.h"

json_t *fw_json_hex(uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

/* Every value below is given to an emitter (parsers/json-text.h): written as it is walked for
 * `--format json`, or built as a json_t for XML and the readers in memory, from the one walk. */

/* ["A", "B", "0x8"]: the names of the set flags, then the bits nobody named */
static void flag_names(struct fw_json_emit *e, const struct fw_bitfields *names, uint64_t value)
{
	const char *v[65];
	size_t n = 0;
	uint64_t rest = value;
	for (size_t i = 0; names && i < names->n && n < 64; i++)
		if (fw_flag_set(value, &names->v[i])) {
			v[n++] = names->v[i].name;
			rest = fw_bitfields_unnamed(rest, &(struct fw_bitfields){&names->v[i], 1});
		}
	char buf[24];
	if (rest) {
		buf[0] = '0';
		buf[1] = 'x';
		fw_acpi_num(buf + 2, rest, 16, false);
		v[n++] = buf;
	}
	fw_json_emit_strings(e, v, n);
}

json_t *fw_json_flag_names(const struct fw_bitfields *names, uint64_t value)
{
	struct fw_json_emit e;
	fw_json_emit_init(&e, NULL, 0);
	flag_names(&e, names, value);
	return fw_json_emit_done(&e);
}

static void diags(struct fw_json_emit *e, const struct fw_diag *d, bool offsets_relative)
{
	fw_json_emit_array(e);
	for (; d; d = d->next) {
		fw_json_emit_object(e);
		fw_json_emit_key(e, "severity");
		fw_json_emit_string(e, fw_diag_severity_name(d->severity));
		if (offsets_relative && d->offset != FW_OFFSET_UNKNOWN) {
			fw_json_emit_key(e, "offset");
			fw_json_emit_int(e, (json_int_t)d->offset);
		}
		fw_json_emit_key(e, "message");
		fw_json_emit_string(e, d->msg);
		fw_json_emit_end(e);
	}
	fw_json_emit_end(e);
}

json_t *fw_json_diags(const struct fw_diag *d, bool offsets_relative)
{
	struct fw_json_emit e;
	fw_json_emit_init(&e, NULL, 0);
	diags(&e, d, offsets_relative);
	return fw_json_emit_done(&e);
}

/* {"value": "0x..", Name: bool | number, ...} */
static void bitfields(struct fw_json_emit *e, uint64_t value, const struct fw_bitfields *set)
{
	fw_json_emit_object(e);
	fw_json_emit_key(e, "value");
	fw_json_emit_hex(e, value);
	for (size_t i = 0; i < set->n; i++) {
		const struct fw_bitfield *f = &set->v[i];
		uint64_t v = fw_bitfield_get(value, f);
		fw_json_emit_key(e, f->name);
		if (f->width == 1)
			fw_json_emit_bool(e, v);
		else
			fw_json_emit_int(e, (json_int_t)v);
	}
	uint64_t rest = fw_bitfields_unnamed(value, set);
	if (rest) {
		fw_json_emit_key(e, "reserved_bits");
		fw_json_emit_hex(e, rest);
	}
	fw_json_emit_end(e);
}

/* ["INITPass", "SysMgt=1", ...] */
static void bit_tokens(struct fw_json_emit *e, uint64_t value, const struct fw_bitfields *set)
{
	char slots[64][32];
	const char *v[64];
	size_t n = fw_bitfields_tokens(value, set, &slots[0][0], 64, 32);
	for (size_t i = 0; i < n; i++)
		v[i] = slots[i];
	fw_json_emit_strings(e, v, n);
}

/* --- tables described by their layout ------------------------------------------------------------ */

static void value_json(struct fw_json_emit *e, const struct fw_acpi_value *v)
{
	char key[96], buf[256], names[512];
	fw_field_key(v->field->name, key, sizeof(key));
	fw_json_emit_key(e, key);
	if (fw_acpi_value_is_text(v))
		fw_json_emit_string(e, fw_acpi_value_str(v, buf, sizeof(buf)));
	else
		fw_json_emit_int(e, (json_int_t)v->u);
	uint16_t flags = v->field->flags;
	if (!(flags & (FW_FF_ENUM | FW_FF_FLAGS | FW_FF_BITS)))
		return;
	char nkey[112];
	size_t k = strlen(key);
	memcpy(nkey, key, k);
	memcpy(nkey + k, flags & FW_FF_ENUM ? "_name" : "_names", flags & FW_FF_ENUM ? 6 : 7);
	fw_json_emit_key(e, nkey);
	if (flags & FW_FF_ENUM)
		fw_json_emit_string(e, fw_acpi_value_names(v, names, sizeof(names)));
	else if (flags & FW_FF_FLAGS)
		flag_names(e, v->field->names, v->u);
	else
		bit_tokens(e, v->u, fw_field_bits(v->field));
}

/* The values of one part in layout order; the fields of a nested structure go into an object
 * of their own (its fields come one after the other). */
static void part_json(struct fw_json_emit *e, const struct fw_acpi_part *p)
{
	struct fw_acpi_values it = fw_acpi_values_of(p);
	struct fw_acpi_value value;
	const struct fw_field *open = NULL;
	while (fw_acpi_values_next(&it, &value)) {
		if (value.parent != open) {
			if (open)
				fw_json_emit_end(e);
			if ((open = value.parent)) {
				char key[96];
				fw_json_emit_key(e, fw_field_key(open->name, key, sizeof(key)));
				fw_json_emit_object(e);
			}
		}
		value_json(e, &value);
	}
	if (open)
		fw_json_emit_end(e);
}

static void matrix_json(struct fw_json_emit *e, const struct fw_acpi_doc *d)
{
	fw_json_emit_array(e);
	for (uint32_t r = 0; r < d->matrix_n; r++) {
		fw_json_emit_array(e);
		for (uint32_t c = 0; c < d->matrix_n; c++)
			fw_json_emit_int(e, d->matrix[r * d->matrix_n + c]);
		fw_json_emit_end(e);
	}
	fw_json_emit_end(e);
}

static void shape_json(struct fw_json_emit *e, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh);

/* FW_AS_PARTS: the parts of one layout (in a subtable: the records within it), each as its
 * shape shows it. */
static void parts_json(struct fw_json_emit *e, const struct fw_acpi_table *t, size_t part, const char *layout)
{
	const struct fw_acpi_doc *d = t->doc;
	fw_json_emit_array(e);
	for (size_t k = 1; k < d->nparts; k++) {
		if (d->parts[k].within != part || !d->parts[k].layout || strcmp(d->parts[k].layout->name, layout))
			continue;
		const struct fw_acpi_shape *sh = fw_acpi_listed_shape(t, k);
		if (!sh)
			continue;
		fw_json_emit_object(e);
		shape_json(e, t, k, sh);
		fw_json_emit_end(e);
	}
	fw_json_emit_end(e);
}

/* FW_AS_COUNTS: {"name of type": parts of that type}, types in ascending order. */
static void counts_json(struct fw_json_emit *e, const struct fw_acpi_table *t, const struct fw_acpi_show *w)
{
	const struct fw_acpi_doc *d = t->doc;
	fw_json_emit_object(e);
	for (int64_t last = -1;;) {
		size_t first = 0, n = 0;
		for (size_t k = 1; k < d->nparts; k++) {
			int64_t ty = d->parts[k].type;
			if (ty <= last || (first && ty > d->parts[first].type))
				continue;
			if (!first || ty < d->parts[first].type)
				first = k, n = 0;
			n++;
		}
		if (!first)
			break;
		last = d->parts[first].type;
		struct fw_acpi_derived dv = {0};
		if (w->derive(t, first, w->name, &dv) && dv.s) {
			fw_json_emit_key(e, dv.s);
			fw_json_emit_int(e, (json_int_t)n);
		}
	}
	fw_json_emit_end(e);
}

/* One shown value that is present, under the key already given. */
static void show_json(struct fw_json_emit *e, const struct fw_acpi_show *w, const struct fw_acpi_value *v,
		      const struct fw_acpi_derived *dv)
{
	char buf[256];
	switch ((enum fw_acpi_as)w->as) {
	case FW_AS_NUMBER: fw_json_emit_int(e, (json_int_t)dv->u); break;
	case FW_AS_HEX: fw_json_emit_hex(e, dv->u); break;
	case FW_AS_BOOL: fw_json_emit_bool(e, dv->u); break;
	case FW_AS_NAME: fw_json_emit_string(e, v ? fw_acpi_value_names(v, buf, sizeof(buf)) : dv->s); break;
	case FW_AS_TEXT:
		if (dv->s)
			fw_json_emit_string(e, dv->s);
		else if (v)
			fw_json_emit_string(e, fw_acpi_value_str(v, buf, sizeof(buf)));
		else
			fw_json_emit_int(e, (json_int_t)dv->u);
		break;
	case FW_AS_LIST:
		fw_json_emit_array(e);
		for (size_t k = 0; k < dv->nlist; k++)
			fw_json_emit_int(e, fw_le32(dv->list + 4 * k));
		fw_json_emit_end(e);
		break;
	case FW_AS_LINES: fw_json_emit_strings(e, dv->lines, dv->nlines); break;
	case FW_AS_BITS: bitfields(e, dv->u, dv->bits); break;
	case FW_AS_TOKENS: bit_tokens(e, dv->u, dv->bits); break;
	case FW_AS_ROWS:
		fw_json_emit_array(e);
		for (size_t r = 0; r < dv->nrows; r++) {
			fw_json_emit_object(e);
			for (size_t c = 0; c < dv->ncols; c++) {
				const struct fw_acpi_cell *cell = &dv->cells[r * dv->ncols + c];
				fw_json_emit_key(e, dv->cols[c]);
				if (cell->null)
					fw_json_emit_null(e);
				else if (cell->s)
					fw_json_emit_string(e, cell->s);
				else
					fw_json_emit_int(e, cell->n);
			}
			fw_json_emit_end(e);
		}
		fw_json_emit_end(e);
		break;
	case FW_AS_FLAGS:
	case FW_AS_PARTS:
	case FW_AS_COUNTS: break; /* shape_json writes them */
	}
}

/* Shows of a shape whose key an earlier show has too (bit i of *repeated: show i), and shows
 * whose key a later one has (*later). A document built as a json_t kept such a key where the
 * first show that had a value put it, with the value of the last one (json_object_set replaced
 * it): a SRAT memory entry's "length" is its bytes, then its address range's length. Known once
 * per shape. */
static void repeated_keys(const struct fw_acpi_shape *sh, uint64_t *repeated, uint64_t *later)
{
	static _Thread_local struct {
		const struct fw_acpi_shape *sh;
		uint64_t repeated, later;
	} seen[128];
	size_t h = ((uintptr_t)sh / sizeof(*sh)) % 128;
	if (seen[h].sh != sh) {
		uint64_t r = 0, l = 0;
		for (size_t i = 1; i < sh->nshow && i < 64; i++)
			for (size_t j = 0; j < i; j++)
				if (sh->show[i].key && sh->show[j].key && !strcmp(sh->show[i].key, sh->show[j].key)) {
					r |= 1ull << i;
					l |= 1ull << j;
				}
		seen[h].sh = sh;
		seen[h].repeated = r;
		seen[h].later = l;
	}
	*repeated = seen[h].repeated;
	*later = seen[h].later;
}

/* Show i has a value (or is written null): the show that gives its key's value, the last
 * later one with the same key that has one, else show i; *done gets the later shows of that key. */
static const struct fw_acpi_show *show_source(const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh,
					      size_t i, uint64_t repeated, uint64_t *done, const struct fw_acpi_value **v,
					      struct fw_acpi_derived *dv, bool *has)
{
	const struct fw_acpi_show *w = &sh->show[i], *src = NULL;
	size_t last = sh->nshow < 64 ? sh->nshow : 64;
	for (size_t j = last; j-- > i + 1 && (repeated >> (i + 1));)
		if ((repeated >> j & 1) && !strcmp(sh->show[j].key, w->key)) {
			*done |= 1ull << j;
			if (!src) {
				*has = fw_acpi_show_value_at(t, part, sh, j, v, dv);
				if (*has || sh->show[j].null_if_absent)
					src = &sh->show[j];
			}
		}
	if (src)
		return src;
	*has = fw_acpi_show_value_at(t, part, sh, i, v, dv);
	return w;
}

/* One part as its view shows it (acpi/fields.h: struct fw_acpi_show). Keys "outer.key" go into
 * the object "outer", open while the keys that follow share it. */
static void shape_json(struct fw_json_emit *e, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh)
{
	const char *outer = NULL; /* the open "outer" object's key, up to its dot */
	size_t outer_len = 0;
	uint64_t repeated, later, done = 0;
	repeated_keys(sh, &repeated, &later);
	for (size_t i = 0; i < sh->nshow; i++) {
		const struct fw_acpi_show *w = &sh->show[i];
		if (!w->key || (i < 64 && (done >> i & 1)))
			continue; /* written at the first show of its key that had a value */
		const char *key = w->key, *dot = NULL;
		const struct fw_acpi_value *v = NULL;
		struct fw_acpi_derived dv;
		bool has = false;
		if (w->as != FW_AS_PARTS && w->as != FW_AS_COUNTS) {
			has = fw_acpi_show_value_at(t, part, sh, i, &v, &dv);
			if (!has && !w->null_if_absent)
				continue;
			if (i < 64 && (later >> i & 1)) /* a later show may give this key's value */
				w = show_source(t, part, sh, i, repeated, &done, &v, &dv, &has);
			dot = strchr(key, '.');
		}
		size_t len = dot ? (size_t)(dot - key) : 0;
		if (outer && (len != outer_len || memcmp(outer, key, len))) {
			fw_json_emit_end(e);
			outer = NULL;
		}
		if (dot && !outer) {
			char name[64];
			snprintf(name, sizeof(name), "%.*s", (int)len, key);
			fw_json_emit_key(e, name);
			fw_json_emit_object(e);
			outer = key;
			outer_len = len;
		}
		if (dot)
			key = dot + 1;
		fw_json_emit_key(e, key);
		if (w->as == FW_AS_PARTS) {
			parts_json(e, t, part, w->name);
		} else if (w->as == FW_AS_COUNTS) {
			counts_json(e, t, w);
		} else if (!has || dv.null) {
			fw_json_emit_null(e);
		} else if (w->as == FW_AS_FLAGS) {
			fw_json_emit_int(e, (json_int_t)dv.u);
			char nkey[96];
			size_t klen = strlen(key);
			if (klen + sizeof("_names") <= sizeof(nkey)) { /* snprintf costs some 600 instructions a call */
				memcpy(nkey, key, klen);
				memcpy(nkey + klen, "_names", sizeof("_names"));
			} else {
				snprintf(nkey, sizeof(nkey), "%s_names", key);
			}
			fw_json_emit_key(e, nkey);
			flag_names(e, v ? v->field->names : dv.bits, dv.u);
		} else {
			show_json(e, w, v, &dv);
		}
	}
	if (outer)
		fw_json_emit_end(e);
}

/* A table whose layout has a view: the fixed part's values at the top, the other parts in the
 * view's list, the distances of a matrix. */
static void view_json(struct fw_json_emit *e, const struct fw_acpi_table *t, const struct fw_acpi_view *view)
{
	const struct fw_acpi_doc *d = t->doc;
	fw_json_emit_object(e);
	const struct fw_acpi_shape *sh = fw_acpi_view_shape(view, &d->parts[0]);
	if (sh)
		shape_json(e, t, 0, sh);
	if (view->list_key) {
		fw_json_emit_key(e, view->list_key);
		fw_json_emit_array(e);
		for (size_t k = 1; k < d->nparts; k++) {
			if (d->parts[k].within)
				continue; /* listed by the part it is within */
			fw_json_emit_object(e);
			if ((sh = fw_acpi_listed_shape(t, k)))
				shape_json(e, t, k, sh);
			fw_json_emit_end(e);
		}
		fw_json_emit_end(e);
	}
	if (d->layout->rest == FW_ACPI_REST_MATRIX) {
		fw_json_emit_key(e, "matrix");
		matrix_json(e, d);
	}
	fw_json_emit_end(e);
}

static void fields_json(struct fw_json_emit *e, const struct fw_acpi_table *t)
{
	const struct fw_acpi_doc *d = t->doc;
	if (d->layout->view) {
		view_json(e, t, d->layout->view);
		return;
	}
	fw_json_emit_object(e);
	fw_json_emit_key(e, "fields");
	fw_json_emit_object(e);
	part_json(e, &d->parts[0]);
	fw_json_emit_end(e);
	if (d->layout->rest == FW_ACPI_REST_RECORDS || d->layout->rest == FW_ACPI_REST_ENTRIES) {
		fw_json_emit_key(e, d->layout->rest == FW_ACPI_REST_RECORDS ? "subtables" : "entries");
		fw_json_emit_array(e);
		for (size_t i = 1; i < d->nparts; i++) {
			const struct fw_acpi_part *p = &d->parts[i];
			fw_json_emit_object(e);
			fw_json_emit_key(e, "offset");
			fw_json_emit_int(e, p->offset);
			fw_json_emit_key(e, "structure");
			fw_json_emit_string(e, fw_acpi_part_what(p));
			if (!p->described) {
				fw_json_emit_key(e, "type");
				fw_json_emit_int(e, p->type);
				fw_json_emit_key(e, "length");
				fw_json_emit_int(e, p->length);
			}
			part_json(e, p);
			fw_json_emit_end(e);
		}
		fw_json_emit_end(e);
	}
	if (d->matrix) {
		fw_json_emit_key(e, "matrix");
		matrix_json(e, d);
	}
	fw_json_emit_end(e);
}

/* --- tables -------------------------------------------------------------------------------------- */

void fw_acpi_emit_table(struct fw_json_emit *e, const struct fw_acpi_table *t)
{
	char name[16];
	fw_json_emit_object(e);
	fw_json_emit_key(e, "signature");
	fw_json_emit_string(e, t->signature);
	fw_json_emit_key(e, "name");
	fw_json_emit_string(e, fw_acpi_table_name(t, name, sizeof(name)));
	fw_json_emit_key(e, "length");
	fw_json_emit_int(e, t->length);
	fw_json_emit_key(e, "revision");
	fw_json_emit_int(e, t->revision);
	fw_json_emit_key(e, "checksum_ok");
	if (t->checksum_state == FW_ACPI_CHECKSUM_NONE)
		fw_json_emit_null(e);
	else
		fw_json_emit_bool(e, t->checksum_state == FW_ACPI_CHECKSUM_OK);
	fw_json_emit_key(e, "checksum");
	if (t->checksum_state == FW_ACPI_CHECKSUM_NONE)
		fw_json_emit_string(e, "none");
	else
		fw_json_emit_hex(e, t->checksum);
	fw_json_emit_key(e, "oem_id");
	fw_json_emit_string(e, t->oem_id);
	fw_json_emit_key(e, "oem_table_id");
	fw_json_emit_string(e, t->oem_table_id);
	if (t->has_header) {
		fw_json_emit_key(e, "oem_revision");
		fw_json_emit_hex(e, t->oem_revision);
		fw_json_emit_key(e, "creator_id");
		fw_json_emit_string(e, t->creator_id);
		fw_json_emit_key(e, "creator_revision");
		fw_json_emit_hex(e, t->creator_revision);
	}
	fw_json_emit_key(e, "description");
	fw_json_emit_string(e, t->decoder ? t->decoder->name : NULL);
	if (t->address) {
		fw_json_emit_key(e, "address");
		fw_json_emit_hex(e, t->address);
	}
	if (t->origin) {
		fw_json_emit_key(e, "origin");
		fw_json_emit_string(e, t->origin);
	}
	if (t->truncated) {
		fw_json_emit_key(e, "truncated");
		fw_json_emit_bool(e, true);
	}
	if (t->model && t->decoder && t->doc) {
		fw_json_emit_key(e, "decoded");
		fields_json(e, t);
	}
	if (t->diags) {
		fw_json_emit_key(e, "diagnostics");
		diags(e, t->diags, true);
	}
	fw_json_emit_end(e);
}

json_t *fw_acpi_json_table(const struct fw_acpi_table *t)
{
	struct fw_json_emit e;
	fw_json_emit_init(&e, NULL, 0);
	fw_acpi_emit_table(&e, t);
	return fw_json_emit_done(&e);
}

bool fw_acpi_filter_match(const struct fw_acpi_filter *f, const struct fw_acpi_table *t)
{
	if (!f || !f->sigs)
		return true;
	for (size_t i = 0; i < f->n; i++)
		if (strncmp(f->sigs[i], t->signature, 4) == 0)
			return true;
	return false;
}

json_t *fw_acpi_json_set_head(const struct fw_acpi_set *s)
{
	json_t *doc = json_object();
	json_t *src = json_object();
	json_object_set_new_nocheck(src, "path", s->path ? json_string(s->path) : json_null());
	json_object_set_new_nocheck(src, "kind", json_string(fw_acpi_source_name(s->source)));
	json_object_set_new_nocheck(src, "tables", json_integer((json_int_t)s->ntables));
	json_object_set_new_nocheck(doc, "input", src);
	json_object_set_new_nocheck(doc, "tables", json_array());
	if (s->diags)
		json_object_set_new_nocheck(doc, "diagnostics", fw_json_diags(s->diags, false));
	return doc;
}

json_t *fw_acpi_json_set_next(const struct fw_acpi_set *s, const struct fw_acpi_filter *f, size_t *pos)
{
	while (*pos < s->ntables) {
		const struct fw_acpi_table *t = s->tables[(*pos)++];
		if (fw_acpi_filter_match(f, t))
			return fw_acpi_json_table(t);
	}
	return NULL;
}

json_t *fw_acpi_json_set(const struct fw_acpi_set *s, const struct fw_acpi_filter *f)
{
	json_t *doc = fw_acpi_json_set_head(s), *a = json_object_get(doc, "tables"), *t;
	size_t pos = 0;
	while ((t = fw_acpi_json_set_next(s, f, &pos)))
		json_array_append_new(a, t);
	return doc;
}

/* `fwlens acpi --format json`: the table set as JSON (README.md "JSON contracts": {"tables": [{signature,
 * length, revision, checksum_ok, oem_id, oem_table_id, decoded?}]}). Integers are numbers;
 * addresses and 64-bit registers are "0x..." strings (they do not fit a JSON integer). */
#include <inttypes.h>
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

json_t *fw_json_flag_names(const struct fw_bitfields *names, uint64_t value)
{
	json_t *a = json_array();
	uint64_t rest = value;
	for (size_t i = 0; names && i < names->n; i++)
		if (fw_flag_set(value, &names->v[i])) {
			json_array_append_new(a, json_string(names->v[i].name));
			rest = fw_bitfields_unnamed(rest, &(struct fw_bitfields){&names->v[i], 1});
		}
	if (rest) {
		char buf[24];
		snprintf(buf, sizeof(buf), "0x%" PRIx64, rest);
		json_array_append_new(a, json_string(buf));
	}
	return a;
}

json_t *fw_json_diags(const struct fw_diag *d, bool offsets_relative)
{
	json_t *a = json_array();
	for (; d; d = d->next) {
		json_t *o = json_object();
		json_object_set_new_nocheck(o, "severity", json_string(fw_diag_severity_name(d->severity)));
		if (offsets_relative && d->offset != FW_OFFSET_UNKNOWN)
			json_object_set_new_nocheck(o, "offset", json_integer((json_int_t)d->offset));
		json_object_set_new_nocheck(o, "message", json_string(d->msg));
		json_array_append_new(a, o);
	}
	return a;
}

/* {"value": "0x..", Name: bool | number, ...} */
static json_t *bitfields(uint64_t value, const struct fw_bitfields *set)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "value", fw_json_hex(value));
	for (size_t i = 0; i < set->n; i++) {
		const struct fw_bitfield *f = &set->v[i];
		uint64_t v = fw_bitfield_get(value, f);
		json_object_set_new(o, f->name, f->width == 1 ? json_boolean(v) : json_integer((json_int_t)v));
	}
	uint64_t rest = fw_bitfields_unnamed(value, set);
	if (rest)
		json_object_set_new_nocheck(o, "reserved_bits", fw_json_hex(rest));
	return o;
}

/* ["INITPass", "SysMgt=1", ...] */
static json_t *bit_tokens(uint64_t value, const struct fw_bitfields *set)
{
	char slots[64][32];
	size_t n = fw_bitfields_tokens(value, set, &slots[0][0], 64, 32);
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(slots[i]));
	return a;
}

/* --- tables described by their layout ------------------------------------------------------------ */

static void value_json(json_t *o, const struct fw_acpi_value *v)
{
	char key[96], buf[256], names[512];
	fw_field_key(v->field->name, key, sizeof(key));
	const char *s = fw_acpi_value_str(v, buf, sizeof(buf));
	json_object_set_new(o, key, fw_acpi_value_is_text(v) ? json_string(s) : json_integer((json_int_t)v->u));
	const char *n = fw_acpi_value_names(v, names, sizeof(names));
	char nkey[112];
	if (v->field->flags & FW_FF_ENUM) {
		snprintf(nkey, sizeof(nkey), "%s_name", key);
		json_object_set_new(o, nkey, n ? json_string(n) : json_null());
	} else if (v->field->flags & FW_FF_FLAGS) {
		snprintf(nkey, sizeof(nkey), "%s_names", key);
		json_object_set_new(o, nkey, fw_json_flag_names(v->field->names, v->u));
	} else if (v->field->flags & FW_FF_BITS) {
		snprintf(nkey, sizeof(nkey), "%s_names", key);
		json_object_set_new(o, nkey, bit_tokens(v->u, fw_field_bits(v->field)));
	}
}

/* The values of one part; the fields of a nested structure go into an object of their own. */
static void part_json(json_t *o, const struct fw_acpi_part *p)
{
	struct fw_acpi_values it = fw_acpi_values_of(p);
	struct fw_acpi_value value;
	while (fw_acpi_values_next(&it, &value)) {
		const struct fw_acpi_value *v = &value;
		json_t *into = o;
		if (v->parent) {
			char key[96];
			fw_field_key(v->parent->name, key, sizeof(key));
			into = json_object_get(o, key);
			if (!into) {
				into = json_object();
				json_object_set_new(o, key, into);
			}
		}
		value_json(into, v);
	}
}

static json_t *matrix_json(const struct fw_acpi_doc *d)
{
	json_t *rows = json_array();
	for (uint32_t r = 0; r < d->matrix_n; r++) {
		json_t *row = json_array();
		for (uint32_t c = 0; c < d->matrix_n; c++)
			json_array_append_new(row, json_integer(d->matrix[r * d->matrix_n + c]));
		json_array_append_new(rows, row);
	}
	return rows;
}

static void shape_json(json_t *o, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh);

/* FW_AS_PARTS: the parts of one layout (in a subtable: the records within it), each as its
 * shape shows it. */
static json_t *parts_json(const struct fw_acpi_table *t, size_t part, const char *layout)
{
	const struct fw_acpi_doc *d = t->doc;
	json_t *a = json_array();
	for (size_t k = 1; k < d->nparts; k++) {
		if (d->parts[k].within != part || !d->parts[k].layout || strcmp(d->parts[k].layout->name, layout))
			continue;
		const struct fw_acpi_shape *sh = fw_acpi_listed_shape(t, k);
		if (!sh)
			continue;
		json_t *j = json_object();
		shape_json(j, t, k, sh);
		json_array_append_new(a, j);
	}
	return a;
}

/* FW_AS_COUNTS: {"name of type": parts of that type}, types in ascending order. */
static json_t *counts_json(const struct fw_acpi_table *t, const struct fw_acpi_show *w)
{
	const struct fw_acpi_doc *d = t->doc;
	json_t *o = json_object();
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
			return o;
		last = d->parts[first].type;
		struct fw_acpi_derived dv = {0};
		if (w->derive(t, first, w->name, &dv) && dv.s)
			json_object_set_new(o, dv.s, json_integer((json_int_t)n));
	}
}

/* One part as its view shows it (acpi/fields.h: struct fw_acpi_show). */
static void shape_json(json_t *o, const struct fw_acpi_table *t, size_t part, const struct fw_acpi_shape *sh)
{
	for (size_t i = 0; i < sh->nshow; i++) {
		const struct fw_acpi_show *w = &sh->show[i];
		if (!w->key)
			continue;
		if (w->as == FW_AS_PARTS || w->as == FW_AS_COUNTS) {
			json_object_set_new_nocheck(o, w->key, w->as == FW_AS_PARTS ? parts_json(t, part, w->name) : counts_json(t, w));
			continue;
		}
		const struct fw_acpi_value *v;
		struct fw_acpi_derived dv;
		bool has = fw_acpi_show_value(t, part, sh, w->name, &v, &dv);
		if (!has && !w->null_if_absent)
			continue;
		json_t *into = o;
		const char *key = w->key, *dot = strchr(key, '.');
		if (dot) {
			char outer[64];
			snprintf(outer, sizeof(outer), "%.*s", (int)(dot - key), key);
			if (!(into = json_object_get(o, outer))) {
				into = json_object();
				json_object_set_new_nocheck(o, outer, into);
			}
			key = dot + 1;
		}
		char buf[256];
		const char *name = NULL;
		json_t *j = json_null();
		if (has && !dv.null) {
			switch ((enum fw_acpi_as)w->as) {
			case FW_AS_NUMBER: j = json_integer((json_int_t)dv.u); break;
			case FW_AS_HEX: j = fw_json_hex(dv.u); break;
			case FW_AS_BOOL: j = json_boolean(dv.u); break;
			case FW_AS_NAME:
				name = v ? fw_acpi_value_names(v, buf, sizeof(buf)) : dv.s;
				j = name ? json_string(name) : json_null();
				break;
			case FW_AS_TEXT:
				j = dv.s ? json_string(dv.s)
				    : v  ? json_string(fw_acpi_value_str(v, buf, sizeof(buf)))
					 : json_integer((json_int_t)dv.u);
				break;
			case FW_AS_LIST:
				j = json_array();
				for (size_t k = 0; k < dv.nlist; k++)
					json_array_append_new(j, json_integer(fw_le32(dv.list + 4 * k)));
				break;
			case FW_AS_LINES:
				j = json_array();
				for (size_t k = 0; k < dv.nlines; k++)
					json_array_append_new(j, json_string(dv.lines[k]));
				break;
			case FW_AS_BITS: j = bitfields(dv.u, dv.bits); break;
			case FW_AS_TOKENS: j = bit_tokens(dv.u, dv.bits); break;
			case FW_AS_ROWS:
				j = json_array();
				for (size_t r = 0; r < dv.nrows; r++) {
					json_t *row = json_object();
					for (size_t c = 0; c < dv.ncols; c++) {
						const struct fw_acpi_cell *cell = &dv.cells[r * dv.ncols + c];
						json_object_set_new_nocheck(row, dv.cols[c], cell->null ? json_null() : cell->s ? json_string(cell->s) : json_integer(cell->n));
					}
					json_array_append_new(j, row);
				}
				break;
			case FW_AS_PARTS:
			case FW_AS_COUNTS: break;
			case FW_AS_FLAGS: {
				char nkey[96];
				json_object_set_new_nocheck(into, key, json_integer((json_int_t)dv.u));
				snprintf(nkey, sizeof(nkey), "%s_names", key);
				key = nkey;
				j = fw_json_flag_names(v ? v->field->names : dv.bits, dv.u);
				json_object_set_new_nocheck(into, key, j);
				continue;
			}
			}
		}
		json_object_set_new_nocheck(into, key, j);
	}
}

/* A table whose layout has a view: the fixed part's values at the top, the other parts in the
 * view's list, the distances of a matrix. */
static json_t *view_json(const struct fw_acpi_table *t, const struct fw_acpi_view *view)
{
	const struct fw_acpi_doc *d = t->doc;
	json_t *o = json_object();
	const struct fw_acpi_shape *sh = fw_acpi_view_shape(view, &d->parts[0]);
	if (sh)
		shape_json(o, t, 0, sh);
	if (view->list_key) {
		json_t *a = json_array();
		for (size_t k = 1; k < d->nparts; k++) {
			if (d->parts[k].within)
				continue; /* listed by the part it is within */
			json_t *j = json_object();
			if ((sh = fw_acpi_listed_shape(t, k)))
				shape_json(j, t, k, sh);
			json_array_append_new(a, j);
		}
		json_object_set_new_nocheck(o, view->list_key, a);
	}
	if (d->layout->rest == FW_ACPI_REST_MATRIX)
		json_object_set_new_nocheck(o, "matrix", matrix_json(d));
	return o;
}

static json_t *fields_json(const struct fw_acpi_table *t)
{
	const struct fw_acpi_doc *d = t->doc;
	if (d->layout->view)
		return view_json(t, d->layout->view);
	json_t *o = json_object(), *fixed = json_object();
	part_json(fixed, &d->parts[0]);
	json_object_set_new_nocheck(o, "fields", fixed);
	if (d->layout->rest == FW_ACPI_REST_RECORDS || d->layout->rest == FW_ACPI_REST_ENTRIES) {
		json_t *a = json_array();
		for (size_t i = 1; i < d->nparts; i++) {
			const struct fw_acpi_part *p = &d->parts[i];
			json_t *j = json_object();
			json_object_set_new_nocheck(j, "offset", json_integer(p->offset));
			json_object_set_new_nocheck(j, "structure", json_string(fw_acpi_part_what(p)));
			if (!p->described) {
				json_object_set_new_nocheck(j, "type", json_integer(p->type));
				json_object_set_new_nocheck(j, "length", json_integer(p->length));
			}
			part_json(j, p);
			json_array_append_new(a, j);
		}
		json_object_set_new(o, d->layout->rest == FW_ACPI_REST_RECORDS ? "subtables" : "entries", a);
	}
	if (d->matrix)
		json_object_set_new_nocheck(o, "matrix", matrix_json(d));
	return o;
}

/* --- tables -------------------------------------------------------------------------------------- */

static json_t *decoded_json(const struct fw_acpi_table *t)
{
	if (!t->model || !t->decoder)
		return NULL;
	return t->doc ? fields_json(t) : NULL;
}

json_t *fw_acpi_json_table(const struct fw_acpi_table *t)
{
	json_t *o = json_object();
	char name[16];
	json_object_set_new_nocheck(o, "signature", json_string(t->signature));
	json_object_set_new_nocheck(o, "name", json_string(fw_acpi_table_name(t, name, sizeof(name))));
	json_object_set_new_nocheck(o, "length", json_integer(t->length));
	json_object_set_new_nocheck(o, "revision", json_integer(t->revision));
	json_object_set_new_nocheck(o, "checksum_ok",
			    t->checksum_state == FW_ACPI_CHECKSUM_NONE ? json_null() : json_boolean(t->checksum_state == FW_ACPI_CHECKSUM_OK));
	json_object_set_new_nocheck(o, "checksum", t->checksum_state == FW_ACPI_CHECKSUM_NONE ? json_string("none") : fw_json_hex(t->checksum));
	json_object_set_new_nocheck(o, "oem_id", json_string(t->oem_id));
	json_object_set_new_nocheck(o, "oem_table_id", json_string(t->oem_table_id));
	if (t->has_header) {
		json_object_set_new_nocheck(o, "oem_revision", fw_json_hex(t->oem_revision));
		json_object_set_new_nocheck(o, "creator_id", json_string(t->creator_id));
		json_object_set_new_nocheck(o, "creator_revision", fw_json_hex(t->creator_revision));
	}
	json_object_set_new_nocheck(o, "description", t->decoder ? json_string(t->decoder->name) : json_null());
	if (t->address)
		json_object_set_new_nocheck(o, "address", fw_json_hex(t->address));
	if (t->origin)
		json_object_set_new_nocheck(o, "origin", json_string(t->origin));
	if (t->truncated)
		json_object_set_new_nocheck(o, "truncated", json_true());
	json_t *dec = decoded_json(t);
	if (dec)
		json_object_set_new_nocheck(o, "decoded", dec);
	if (t->diags)
		json_object_set_new_nocheck(o, "diagnostics", fw_json_diags(t->diags, true));
	return o;
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

#include "layout.h"

#include <stdio.h>
#include <string.h>

size_t fw_field_width(const struct fw_field *f)
{
	switch ((enum fw_ftype)f->type) {
	case FW_FT_U8: return 1;
	case FW_FT_U16: return 2;
	case FW_FT_U24: return 3;
	case FW_FT_U32: return 4;
	case FW_FT_U64: return 8;
	case FW_FT_GUID: return 16;
	case FW_FT_CHARS:
	case FW_FT_BYTES:
	case FW_FT_STRUCT: return f->len;
	}
	return 0;
}

bool fw_layout_check(const struct fw_layout *l, const struct fw_view *v, size_t off, struct fw_error *err)
{
	return fw_view_check(v, off, l->size, l->name, err);
}

uint64_t fw_layout_get(const struct fw_layout *l, const struct fw_view *v, size_t off, unsigned idx)
{
	const struct fw_field *f = &l->fields[idx];
	return fw_field_int(f, v->p + off + f->offset);
}

uint64_t fw_field_int(const struct fw_field *f, const uint8_t *p)
{
	switch ((enum fw_ftype)f->type) {
	case FW_FT_U8: return p[0];
	case FW_FT_U16: return fw_le16(p);
	case FW_FT_U24: return fw_le24(p);
	case FW_FT_U32: return fw_le32(p);
	case FW_FT_U64: return fw_le64(p);
	default: return 0;
	}
}

void fw_layout_get_guid(const struct fw_layout *l, const struct fw_view *v, size_t off, unsigned idx,
			struct fw_guid *out)
{
	memcpy(out->b, v->p + off + l->fields[idx].offset, 16);
}

const uint8_t *fw_layout_ptr(const struct fw_layout *l, const struct fw_view *v, size_t off, unsigned idx)
{
	return v->p + off + l->fields[idx].offset;
}

/* The field name a + sep + b, interned: the same names come back on every node. */
static const char *field_key(struct fw_tree *t, const char *a, const char *sep, const char *b)
{
	char buf[256];
	int w = snprintf(buf, sizeof(buf), "%s%s%s", a, sep, b);
	if (w < 0 || (size_t)w >= sizeof(buf))
		return fw_arena_printf(&t->arena, "%s%s%s", a, sep, b);
	return fw_tree_intern(t, buf, sizeof(buf));
}

/* Fields of a nested structure are named "Outer.Inner". */
static void emit_fields(struct fw_tree *t, struct fw_node *n, const struct fw_layout *l, const struct fw_view *v,
			size_t off, const char *prefix)
{
	for (size_t i = 0; i < l->nfields; i++) {
		const struct fw_field *f = &l->fields[i];
		if (f->flags & FW_FF_HIDDEN)
			continue;
		const char *name = prefix ? field_key(t, prefix, ".", f->name) : f->name;
		const uint8_t *p = v->p + off + f->offset;
		switch ((enum fw_ftype)f->type) {
		case FW_FT_GUID: {
			struct fw_guid g;
			memcpy(g.b, p, 16);
			fw_node_field_guid(t, n, name, &g);
			break;
		}
		case FW_FT_CHARS: {
			char buf[256];
			fw_field_chars(p, f->len, buf, sizeof(buf));
			fw_node_field_str(t, n, name, buf);
			break;
		}
		case FW_FT_BYTES:
			fw_node_field_bytes(t, n, name, p, f->len);
			break;
		case FW_FT_STRUCT:
			emit_fields(t, n, fw_field_sub(f), v, off + f->offset, name);
			break;
		default: {
			uint64_t val = fw_layout_get(l, v, off, (unsigned)i);
			fw_node_field_uint(t, n, name, val,
					   (f->flags & (FW_FF_HEX | FW_FF_FLAGS | FW_FF_BITS)) ? FW_FMT_HEX : FW_FMT_DEC);
			char buf[512];
			if (f->names && (f->flags & FW_FF_ENUM)) {
				const char *vname = fw_named_value_name(f->names, val);
				if (vname)
					fw_node_field_str(t, n, field_key(t, name, " ", "name"), vname);
			} else if (f->names && (f->flags & FW_FF_FLAGS)) {
				fw_flags_str(f->names, val, buf, sizeof(buf));
				fw_node_field_str(t, n, field_key(t, name, " ", "flags"), buf);
			} else if (fw_field_bits(f) && (f->flags & FW_FF_BITS)) {
				fw_bitfields_str(val, fw_field_bits(f), buf, sizeof(buf));
				fw_node_field_str(t, n, field_key(t, name, " ", "bits"), buf);
			}
			break;
		}
		}
	}
}

void fw_layout_emit(struct fw_tree *t, struct fw_node *n, const struct fw_layout *l, const struct fw_view *v,
		    size_t off)
{
	emit_fields(t, n, l, v, off, NULL);
}

char *fw_field_chars(const uint8_t *p, size_t width, char *buf, size_t len)
{
	size_t w = width < len - 1 ? width : len - 1;
	size_t k = 0;
	for (size_t j = 0; j < w && p[j]; j++)
		buf[k++] = (p[j] >= 0x20 && p[j] < 0x7F) ? (char)p[j] : '.';
	while (k && buf[k - 1] == ' ')
		k--;
	buf[k] = '\0';
	return buf;
}

void fw_layout_put(const struct fw_layout *l, uint8_t *buf, unsigned idx, uint64_t value)
{
	const struct fw_field *f = &l->fields[idx];
	uint8_t *p = buf + f->offset;
	switch ((enum fw_ftype)f->type) {
	case FW_FT_U8: p[0] = (uint8_t)value; break;
	case FW_FT_U16: fw_put_le16(p, (uint16_t)value); break;
	case FW_FT_U24: fw_put_le24(p, (uint32_t)value); break;
	case FW_FT_U32: fw_put_le32(p, (uint32_t)value); break;
	case FW_FT_U64: fw_put_le64(p, value); break;
	default: break;
	}
}

void fw_layout_put_guid(const struct fw_layout *l, uint8_t *buf, unsigned idx, const struct fw_guid *g)
{
	memcpy(buf + l->fields[idx].offset, g->b, 16);
}

void fw_layout_put_bytes(const struct fw_layout *l, uint8_t *buf, unsigned idx, const void *p, size_t n)
{
	const struct fw_field *f = &l->fields[idx];
	size_t w = fw_field_width(f);
	memcpy(buf + f->offset, p, n < w ? n : w);
}

const char *fw_named_value_name(const struct fw_named_value *names, uint64_t value)
{
	for (; names && names->name; names++)
		if (names->value == value)
			return names->name;
	return NULL;
}


#include "layout.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

void fw_layout_step_start(struct fw_layout_step *s, const struct fw_layout *l)
{
	s->depth = 1;
	s->frame[0].l = l;
	s->frame[0].parent = NULL;
	s->frame[0].off = 0;
	s->frame[0].next = 0;
}

const struct fw_field *fw_layout_step_next(struct fw_layout_step *s, size_t limit, size_t *off)
{
	while (s->depth) {
		struct fw_layout_frame *fr = &s->frame[s->depth - 1];
		if (fr->next >= fr->l->nfields) {
			s->depth--;
			continue;
		}
		const struct fw_field *f = &fr->l->fields[fr->next++];
		if (f->flags & FW_FF_HIDDEN)
			continue;
		size_t at = fr->off + f->offset;
		if (at + fw_field_width(f) > limit)
			continue;
		if (f->type == FW_FT_STRUCT && s->depth < FW_LAYOUT_STEP_DEPTH) {
			struct fw_layout_frame *in = &s->frame[s->depth++];
			in->l = fw_field_sub(f);
			in->parent = f;
			in->off = (uint32_t)at;
			in->next = 0;
		}
		*off = at;
		return f;
	}
	return NULL;
}

void fw_layout_walk_start(struct fw_layout_walk *w, const struct fw_layout *l, const uint8_t *p)
{
	w->p = p;
	fw_layout_step_start(&w->step, l);
	w->key_len[0] = 0;
	w->pending_f = NULL;
	w->key[0] = '\0';
}

/* key = the current prefix + name + suffix (names come from the layout tables: short) */
static const char *walk_key(struct fw_layout_walk *w, size_t prefix_len, const char *name, const char *suffix)
{
	if (prefix_len == 0 && !suffix)
		return name;
	snprintf(w->key + prefix_len, sizeof(w->key) - prefix_len, "%s%s%s", name, suffix ? " " : "", suffix ? suffix : "");
	return w->key;
}

bool fw_layout_walk_next(struct fw_layout_walk *w, struct fw_field_value *out)
{
	memset(&out->v, 0, sizeof(out->v));
	out->fmt = FW_FMT_DEC;
	if (w->pending_f) {
		/* the text after an enum, flag set or bit field value */
		const struct fw_field *f = w->pending_f;
		w->pending_f = NULL;
		size_t prefix = w->key_len[w->step.depth - 1];
		out->type = FW_VAL_STR;
		if (f->flags & FW_FF_ENUM) {
			out->v.s = fw_named_value_name(f->names, w->pending);
			out->key = walk_key(w, prefix, f->name, "name");
		} else if (f->flags & FW_FF_FLAGS) {
			out->v.s = fw_flags_str(f->names, w->pending, w->text, sizeof(w->text));
			out->key = walk_key(w, prefix, f->name, "flags");
		} else {
			out->v.s = fw_bitfields_str(w->pending, fw_field_bits(f), w->text, sizeof(w->text));
			out->key = walk_key(w, prefix, f->name, "bits");
		}
		return true;
	}
	const struct fw_field *f;
	size_t off;
	while ((f = fw_layout_step_next(&w->step, SIZE_MAX, &off))) {
		unsigned d = w->step.depth - 1;
		const uint8_t *p = w->p + off;
		if (f->type == FW_FT_STRUCT) {
			/* its fields are named "Outer.Inner" */
			if (w->step.frame[d].parent != f)
				abort(); /* the tables nest two levels */
			size_t prefix = w->key_len[d - 1];
			int k = snprintf(w->key + prefix, sizeof(w->key) - prefix, "%s.", f->name);
			if (k < 0 || prefix + (size_t)k >= sizeof(w->key))
				abort(); /* with short names */
			w->key_len[d] = prefix + (size_t)k;
			continue;
		}
		size_t prefix = w->key_len[d];
		switch ((enum fw_ftype)f->type) {
		case FW_FT_GUID:
			out->type = FW_VAL_GUID;
			memcpy(out->v.g.b, p, 16);
			break;
		case FW_FT_CHARS:
			out->type = FW_VAL_STR;
			out->v.s = fw_field_chars(p, f->len, w->text, 256);
			break;
		case FW_FT_BYTES:
			out->type = FW_VAL_BYTES;
			out->v.bytes.p = p;
			out->v.bytes.n = f->len;
			break;
		default: {
			uint64_t val = fw_field_int(f, p);
			out->type = FW_VAL_UINT;
			out->fmt = (f->flags & (FW_FF_HEX | FW_FF_FLAGS | FW_FF_BITS)) ? FW_FMT_HEX : FW_FMT_DEC;
			out->v.u = val;
			bool text = false;
			if (f->names && (f->flags & FW_FF_ENUM))
				text = fw_named_value_name(f->names, val) != NULL;
			else
				text = f->names && (f->flags & (FW_FF_FLAGS | FW_FF_BITS));
			if (text) {
				w->pending = val;
				w->pending_f = f;
			}
			break;
		}
		}
		out->key = walk_key(w, prefix, f->name, NULL);
		return true;
	}
	return false;
}

/* The header's fields are read from its bytes when an output asks for them; bytes the tree does
 * not keep (a caller's scratch copy) have theirs stored now. */
void fw_layout_emit(struct fw_tree *t, struct fw_node *n, const struct fw_layout *l, const struct fw_view *v,
		    size_t off)
{
	const uint8_t *p = v->p + off;
	if (fw_tree_holds(t, p, l->size)) {
		fw_node_field_layout(t, n, l, p);
		return;
	}
	struct fw_layout_walk w;
	struct fw_field_value f;
	fw_layout_walk_start(&w, l, p);
	while (fw_layout_walk_next(&w, &f)) {
		const char *key = f.key == w.key ? fw_tree_intern(t, w.key, sizeof(w.key)) : f.key;
		switch (f.type) {
		case FW_VAL_GUID: fw_node_field_guid(t, n, key, &f.v.g); break;
		case FW_VAL_STR: fw_node_field_str(t, n, key, f.v.s); break;
		case FW_VAL_BYTES: /* a copy: the bytes may not outlive the call */
			fw_node_field_bytes(t, n, key, fw_arena_memdup(&t->arena, f.v.bytes.p, f.v.bytes.n), f.v.bytes.n);
			break;
		default: fw_node_field_uint(t, n, key, f.v.u, f.fmt); break;
		}
	}
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


/* AMI NVAR stores (reference/formats.md 5.1-5.2): the entry layout, the GUIDs that carry the
 * stores, and the store parser.
 *
 * A store is a run of NVAR records from its start, then free space (0xFF), then a GUID store that
 * grows backwards from the end of the store. A full record carries GUID (or an index into the
 * GUID store) and name; updates append records and link to them through Next, so the live data
 * is in the last record of the chain. Every record becomes a variable node: the live one has
 * state "valid", the older ones "deleted", records nothing can decode "invalid". A live record
 * whose data is itself an NVAR store (StdDefaults, MfgDefaults) gets that store as a child. */
#include "nvar.h"

#include <stdlib.h>
#include <string.h>

#include "firmware.h"
#include "nvram.h"
#include "ucs2.h"
#include "vss.h"

static const struct fw_bitfield fw_nvar_attribute_bits[] = {
	FW_FLAG("RUNTIME", 0x01), FW_FLAG("ASCII_NAME", 0x02), FW_FLAG("GUID", 0x04), FW_FLAG("DATA_ONLY", 0x08),
	FW_FLAG("EXT_HEADER", 0x10), FW_FLAG("HW_ERROR_RECORD", 0x20), FW_FLAG("AUTH_WRITE", 0x40),
	FW_FLAG("VALID", 0x80),
};
const struct fw_bitfields fw_nvar_attribute_names = FW_BITFIELDS(fw_nvar_attribute_bits);

static const struct fw_bitfield nvar_ext_flag_bits[] = {
	FW_FLAG("CHECKSUM", 0x01), FW_FLAG("AUTH_WRITE", 0x10), FW_FLAG("TIME_BASED", 0x20),
};
static const struct fw_bitfields nvar_ext_flag_names = FW_BITFIELDS(nvar_ext_flag_bits);

static const struct fw_field nvar_fields[NVAR__COUNT] = {
	[NVAR_SIGNATURE] = {"Signature", FW_FT_U32, 0, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[NVAR_SIZE] = {"Size", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[NVAR_NEXT] = {"Next", FW_FT_U24, 6, 0, FW_FF_HEX, NULL},
	[NVAR_ATTRIBUTES] = {"Attributes", FW_FT_U8, 9, 0, FW_FF_FLAGS, &fw_nvar_attribute_names},
};
const struct fw_layout fw_nvar_layout = FW_LAYOUT("NVAR entry header", FW_NVAR_HEADER_SIZE, nvar_fields);

const struct fw_guid fw_guid_ami_defaults = FW_GUID_INIT(0x4599D26F, 0x1A11, 0x49B8, 0xB9, 0x1F, 0x85, 0x87, 0x45, 0xCF, 0xF8, 0x24);
const struct fw_guid fw_guid_ami_nvar_store = FW_GUID_INIT(0xCEF5B9A3, 0x476D, 0x497F, 0x9F, 0xDC, 0xE9, 0x81, 0x43, 0xE0, 0x42, 0x2C);
const struct fw_guid fw_guid_ami_nvram_main = FW_GUID_INIT(0xFA4974FC, 0xAF1D, 0x4E5D, 0xBD, 0xC5, 0xDA, 0xCD, 0x6D, 0x27, 0xBA, 0xEC);
const struct fw_guid fw_guid_ami_nvram_backup = FW_GUID_INIT(0xA7EDEBD8, 0xA8D7, 0x48F8, 0x81, 0xFB, 0x83, 0x76, 0x56, 0xB8, 0x20, 0x77);
const struct fw_guid fw_guid_ami_nvram_dxe_defaults =
	FW_GUID_INIT(0x9221315B, 0x30BB, 0x46B5, 0x81, 0x3E, 0x1B, 0x1B, 0xF4, 0x71, 0x2B, 0xD3);
const struct fw_guid fw_guid_ami_nvram_pei_defaults =
	FW_GUID_INIT(0x77D3DC50, 0xD42B, 0x4916, 0xAC, 0x80, 0x8F, 0x46, 0x90, 0x35, 0xD1, 0x50);
const struct fw_guid fw_guid_ami_nvram_bb_defaults =
	FW_GUID_INIT(0xAF516361, 0xB4C5, 0x436E, 0xA7, 0xE3, 0xA1, 0x49, 0xA3, 0x1B, 0x14, 0x61);

#define NONE SIZE_MAX
/* Extended header: ExtFlags, then u64 monotonic count + SHA-256 key hash for authenticated
 * variables, then the checksum byte when flagged, then the u16 ExtSize that counts all of it. */
#define EXT_AUTH_BYTES (8 + 32)

struct nvar_rec {
	size_t off, size;
	uint32_t next;
	uint8_t attr;
	const char *problem; /* why the record cannot be decoded (NULL when it can) */
	bool full;           /* carries GUID and name */
	bool guid_indexed;
	uint8_t guid_index;
	struct fw_guid guid;
	const char *name;
	size_t data_off, data_len;
	uint8_t ext_flags;
	size_t ext_size;
	int checksum; /* -1 none, 0 mismatch, 1 valid */
	bool has_auth;
	uint64_t monotonic;
	const uint8_t *key_hash;
	size_t next_idx, head;
	const char *link_problem;
	enum fw_var_state state;
};

struct nvar_store {
	struct fw_tree *t;
	const struct fw_view *v;
	const char *store_name;
	struct nvar_rec *recs;
	size_t n;
	size_t entries_end; /* end of the last record that fits */
	bool broken;        /* the last record does not fit and covers the rest of the store */
	size_t guid_store;  /* offset where the GUID store starts */
};

static bool nvar_parse(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, const char *store_name,
		       struct fw_error *err);

/* Records are contiguous from the start; count them first so one allocation holds them all. */
static size_t count_records(const struct fw_view *v, size_t *end)
{
	size_t off = 0, n = 0;
	while (fw_view_has(v, off, FW_NVAR_HEADER_SIZE) && fw_le32(v->p + off) == FW_NVAR_SIGNATURE) {
		uint16_t size = fw_le16(v->p + off + 4);
		n++;
		if (size < FW_NVAR_HEADER_SIZE || size > v->len - off)
			break; /* the rest of the store cannot be walked: this record covers it */
		off += size;
	}
	*end = off;
	return n;
}

static size_t find_record(const struct nvar_store *s, size_t off)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->recs[mid].off == off)
			return mid;
		if (s->recs[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

/* Sum of the bytes after the header, the two size bytes and the attributes (with VALID set, as
 * written before a deletion clears it) is zero for an intact record (AMI NvCalculateNvarChecksum). */
static bool checksum_ok(const uint8_t *rec, size_t size, uint8_t attr)
{
	uint8_t sum = (uint8_t)(rec[4] + rec[5] + (attr | FW_NVAR_ATTR_VALID));
	for (size_t i = FW_NVAR_HEADER_SIZE; i < size; i++)
		sum = (uint8_t)(sum + rec[i]);
	return sum == 0;
}

static void decode_extension(struct nvar_rec *r, const uint8_t *rec)
{
	size_t min_data = r->data_off - r->off;
	r->ext_size = fw_le16(rec + r->size - 2);
	if (r->ext_size < 3 || r->ext_size > r->size - min_data) {
		r->problem = "the extended header size does not fit the record";
		r->ext_size = 0;
		return;
	}
	const uint8_t *ext = rec + r->size - r->ext_size;
	r->ext_flags = ext[0];
	size_t need = 3;
	if (r->ext_flags & (FW_NVAR_EXT_AUTH_WRITE | FW_NVAR_EXT_TIME_BASED)) {
		need += EXT_AUTH_BYTES;
		if (r->ext_size >= need) {
			r->has_auth = true;
			r->monotonic = fw_le64(ext + 1);
			r->key_hash = ext + 9;
		}
	}
	if (r->ext_flags & FW_NVAR_EXT_CHECKSUM) {
		need += 1;
		if (r->ext_size >= need)
			r->checksum = checksum_ok(rec, r->size, r->attr) ? 1 : 0;
	}
	if (r->ext_size < need)
		r->problem = "the extended header is shorter than its flags require";
}

static void decode_record(struct nvar_store *s, struct nvar_rec *r)
{
	const uint8_t *rec = s->v->p + r->off;
	size_t end = r->off + r->size, p = r->off + FW_NVAR_HEADER_SIZE;
	r->checksum = -1;
	r->next_idx = r->head = NONE;
	r->name = "";
	r->data_off = p;
	if (r->attr == 0xFF) {
		r->problem = "the attributes were never written";
		return;
	}
	if (r->size <= FW_NVAR_HEADER_SIZE) {
		r->problem = "the record has no room for data";
		return;
	}
	if (!(r->attr & FW_NVAR_ATTR_DATA_ONLY)) {
		r->full = true;
		if (r->attr & FW_NVAR_ATTR_GUID) {
			if (end - p < 16) {
				r->problem = "the record is too short for its GUID";
				return;
			}
			memcpy(r->guid.b, s->v->p + p, 16);
			p += 16;
		} else {
			r->guid_indexed = true;
			r->guid_index = s->v->p[p++];
			size_t back = 16 * ((size_t)r->guid_index + 1);
			if (back > s->v->len || s->v->len - back < s->entries_end) {
				r->problem = "its GUID index points outside the GUID store";
				return;
			}
			memcpy(r->guid.b, s->v->p + s->v->len - back, 16);
			if (s->v->len - back < s->guid_store)
				s->guid_store = s->v->len - back;
		}
		if (r->attr & FW_NVAR_ATTR_ASCII_NAME) {
			const uint8_t *nul = memchr(s->v->p + p, 0, end - p);
			if (!nul) {
				r->problem = "the variable name is not terminated";
				return;
			}
			size_t len = (size_t)(nul - (s->v->p + p));
			r->name = fw_nvram_name_8bit(s->t, s->v->p + p, len);
			p += len + 1;
		} else {
			bool terminated;
			size_t units = fw_ucs2_len(s->v->p + p, (end - p) / 2, &terminated);
			if (!terminated) {
				r->problem = "the variable name is not terminated";
				return;
			}
			r->name = fw_nvram_name_ucs2(s->t, s->v->p + p, units);
			p += 2 * (units + 1);
		}
	}
	r->data_off = p;
	if (r->attr & FW_NVAR_ATTR_EXT_HEADER)
		decode_extension(r, rec);
	r->data_len = end - r->ext_size - r->data_off;
}

static void resolve_links(struct nvar_store *s, struct fw_node *store_node)
{
	for (size_t i = 0; i < s->n; i++) {
		struct nvar_rec *r = &s->recs[i];
		if (r->problem || r->next == FW_NVAR_NEXT_NONE)
			continue;
		/* Next is relative to this record and always lies beyond it, so chains run forward and
		 * cannot loop; a target that is not a record start is a broken link. */
		size_t target = r->off + r->next;
		if (r->next < r->size || target >= s->entries_end || (r->next_idx = find_record(s, target)) == NONE) {
			r->link_problem = "Next does not point to a record";
			r->next_idx = NONE;
		}
	}
	for (size_t i = 0; i < s->n; i++) {
		struct nvar_rec *h = &s->recs[i];
		if (h->problem || !h->full || h->head != NONE)
			continue;
		h->head = i;
		size_t cur = i;
		while (s->recs[cur].next_idx != NONE) {
			size_t nx = s->recs[cur].next_idx;
			if (s->recs[nx].head != NONE || s->recs[nx].problem) {
				fw_node_diag(s->t, store_node, FW_DIAG_WARN, fw_view_abs(s->v, s->recs[cur].off),
					     "NVAR record links to a record that %s",
					     s->recs[nx].problem ? "cannot be decoded" : "belongs to another variable");
				break;
			}
			s->recs[nx].head = i;
			cur = nx;
		}
		bool live = h->attr & FW_NVAR_ATTR_VALID;
		for (size_t k = i; k != NONE; k = (k == cur) ? NONE : s->recs[k].next_idx)
			s->recs[k].state = (live && k == cur) ? FW_VAR_STATE_VALID : FW_VAR_STATE_DELETED;
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->recs[i].problem || s->recs[i].head == NONE)
			s->recs[i].state = FW_VAR_STATE_INVALID;
}

static uint32_t efi_attributes(const struct nvar_rec *h)
{
	uint32_t a = FW_EFI_VARIABLE_BOOTSERVICE_ACCESS | FW_EFI_VARIABLE_NON_VOLATILE;
	if (h->attr & FW_NVAR_ATTR_RUNTIME)
		a |= FW_EFI_VARIABLE_RUNTIME_ACCESS;
	if (h->attr & FW_NVAR_ATTR_HW_ERROR_RECORD)
		a |= FW_EFI_VARIABLE_HARDWARE_ERROR_RECORD;
	if (h->attr & FW_NVAR_ATTR_AUTH_WRITE)
		a |= h->ext_flags & (FW_EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS |
				     FW_EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS);
	return a;
}

/* The subtype UEFIExtract shows for the record. */
static const char *record_type(const struct nvar_rec *r)
{
	if (r->problem || !(r->attr & FW_NVAR_ATTR_VALID) || (r->head == NONE && !r->full))
		return r->full || r->problem ? "Invalid" : "Invalid link";
	if (r->next != FW_NVAR_NEXT_NONE)
		return "Link";
	return r->full ? "Full" : "Data";
}

static bool emit_record(struct nvar_store *s, struct fw_node *store_node, struct nvar_rec *r, struct fw_error *err)
{
	struct fw_tree *t = s->t;
	const struct nvar_rec *h = r->head != NONE ? &s->recs[r->head] : r;
	struct fw_variable *var = fw_variable_new(t);
	var->store = s->store_name;
	var->state = r->state;
	if (h->full && !h->problem) {
		var->name = h->name;
		var->guid = h->guid;
		var->attributes = efi_attributes(h);
	}
	var->data = s->v->p + r->data_off;
	var->size = r->data_len;
	struct fw_view rec, data;
	fw_rd_sub(s->v, r->off, r->size, &rec, NULL);
	fw_rd_sub(s->v, r->data_off, r->data_len, &data, NULL);
	struct fw_node *n = fw_nvram_add_variable(t, store_node, record_type(r), &rec, var, err);
	if (!n)
		return false;
	n->header_size = (uint32_t)(r->data_off - r->off);
	n->body = data;
	fw_layout_emit(t, n, &fw_nvar_layout, s->v, r->off);
	if (r->guid_indexed)
		fw_node_field_uint(t, n, "GuidIndex", r->guid_index, FW_FMT_DEC);
	if (r->ext_size) {
		char buf[64];
		fw_node_field_uint(t, n, "ExtSize", r->ext_size, FW_FMT_HEX);
		fw_node_field_uint(t, n, "ExtFlags", r->ext_flags, FW_FMT_HEX);
		fw_node_field_str(t, n, "ExtFlags flags", fw_flags_str(&nvar_ext_flag_names, r->ext_flags, buf, sizeof(buf)));
	}
	if (r->has_auth) {
		fw_node_field_uint(t, n, "MonotonicCount", r->monotonic, FW_FMT_DEC);
		fw_node_field_bytes(t, n, "KeyHash", r->key_hash, 32);
	}
	if (r->checksum >= 0) {
		fw_node_field_bool(t, n, "Checksum valid", r->checksum == 1);
		if (r->checksum == 0) {
			n->flags |= FW_NODE_F_CHECKSUM_BAD;
			fw_node_diag(t, n, FW_DIAG_WARN, rec.base, "NVAR record checksum does not match");
		}
	}
	if (r->problem)
		fw_node_diag(t, n, FW_DIAG_WARN, rec.base, "NVAR record: %s", r->problem);
	else if (r->link_problem)
		fw_node_diag(t, n, FW_DIAG_WARN, rec.base, "NVAR record: %s (Next 0x%X)", r->link_problem, r->next);
	else if (r->state == FW_VAR_STATE_INVALID)
		fw_node_diag(t, n, FW_DIAG_INFO, rec.base, "NVAR data record that no variable links to");

	/* Defaults variables hold a complete store of their own. */
	if (r->state == FW_VAR_STATE_VALID && r->data_len >= FW_NVAR_HEADER_SIZE &&
	    fw_le32(var->data) == FW_NVAR_SIGNATURE) {
		struct fw_error sub;
		fw_error_clear(&sub);
		if (!nvar_parse(t, n, &data, var->name[0] ? var->name : "NVAR", &sub)) {
			if (sub.code == FW_E_LIMIT)
				return fw_error_set(err, sub.code, "%s", sub.msg);
			fw_node_diag(t, n, FW_DIAG_WARN, data.base, "nested NVAR store: %s", sub.msg);
		}
	}
	return true;
}

/* Free space and the GUID store after the records. */
static bool emit_tail(struct nvar_store *s, struct fw_node *store_node, struct fw_error *err)
{
	struct fw_tree *t = s->t;
	const struct fw_view *v = s->v;
	size_t gs = s->guid_store;
	/* GUIDs nothing references any more still sit in front of the referenced ones. */
	while (gs >= s->entries_end + 16 && !fw_all_bytes(v->p + gs - 16, 16, 0xFF))
		gs -= 16;
	struct fw_view w;
	if (gs > s->entries_end) {
		fw_rd_sub(v, s->entries_end, gs - s->entries_end, &w, NULL);
		bool empty = fw_all_bytes(w.p, w.len, 0xFF);
		struct fw_node *n = fw_node_add(t, store_node, empty ? FW_NODE_FREE_SPACE : FW_NODE_PADDING,
						empty ? "Free space" : "Non-empty", &w, err);
		if (!n)
			return false;
		if (!empty)
			fw_node_diag(t, n, FW_DIAG_WARN, w.base, "NVAR store: 0x%zx bytes after the records are neither "
				     "records nor free space", w.len);
	}
	if (gs < v->len) {
		fw_rd_sub(v, gs, v->len - gs, &w, NULL);
		struct fw_node *n = fw_node_add(t, store_node, FW_NODE_PADDING, "NVAR GUID store", &w, err);
		if (!n)
			return false;
		size_t count = w.len / 16;
		fw_node_field_uint(t, n, "GuidCount", count, FW_FMT_DEC);
		/* Index i is the i-th GUID from the end. */
		for (size_t i = 0; i < count; i++) {
			struct fw_guid g;
			memcpy(g.b, w.p + w.len - 16 * (i + 1), 16);
			fw_node_field_guid(t, n, fw_arena_printf(&t->arena, "Guid[%zu]", i), &g);
		}
	}
	return true;
}

static bool nvar_parse(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, const char *store_name,
		       struct fw_error *err)
{
	if (v->len < FW_NVAR_HEADER_SIZE)
		return fw_error_set(err, FW_E_TRUNCATED, "NVAR store at %s: 0x%zx bytes are too few for a record",
				    fw_offset_str(v->base, (char[24]){0}, 24), v->len);
	if (fw_le32(v->p) != FW_NVAR_SIGNATURE && !fw_all_bytes(v->p, FW_NVAR_HEADER_SIZE, 0xFF))
		return fw_error_set(err, FW_E_INVALID, "NVAR store at %s: no NVAR record at its start",
				    fw_offset_str(v->base, (char[24]){0}, 24));
	struct nvar_store s = {.t = t, .v = v, .store_name = store_name};
	s.n = count_records(v, &s.entries_end);
	s.guid_store = v->len;
	struct fw_node *store_node = fw_node_add(t, parent, FW_NODE_NVRAM_STORE, "NVAR", v, err);
	if (!store_node)
		return false;
	if (strcmp(store_name, "NVAR") != 0)
		store_node->name = store_name;
	s.recs = s.n ? fw_xcalloc(s.n, sizeof(*s.recs)) : NULL;
	size_t off = 0;
	for (size_t i = 0; i < s.n; i++) {
		struct nvar_rec *r = &s.recs[i];
		r->off = off;
		r->size = fw_le16(v->p + off + 4);
		r->next = fw_le24(v->p + off + 6);
		r->attr = v->p[off + 9];
		if (r->size < FW_NVAR_HEADER_SIZE || r->size > v->len - off) {
			fw_node_diag(t, store_node, FW_DIAG_WARN, fw_view_abs(v, off),
				     "NVAR record size 0x%zx does not fit the store; the walk stops here", r->size);
			r->size = v->len - off;
			r->problem = "its size does not fit the store";
			r->checksum = -1;
			r->next_idx = r->head = NONE;
			r->name = "";
			r->data_off = off + FW_NVAR_HEADER_SIZE;
			r->data_len = 0;
			s.broken = true;
			break;
		}
		off += r->size;
	}
	for (size_t i = 0; i < s.n; i++)
		if (!s.recs[i].problem)
			decode_record(&s, &s.recs[i]);
	resolve_links(&s, store_node);
	size_t live = 0;
	bool ok = true;
	for (size_t i = 0; i < s.n && ok; i++) {
		ok = emit_record(&s, store_node, &s.recs[i], err);
		live += s.recs[i].state == FW_VAR_STATE_VALID;
	}
	if (ok && !s.broken)
		ok = emit_tail(&s, store_node, err);
	fw_node_field_uint(t, store_node, "Records", s.n, FW_FMT_DEC);
	fw_node_field_uint(t, store_node, "Variables", live, FW_FMT_DEC);
	free(s.recs);
	return ok;
}

bool fw_nvar_parse_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, struct fw_error *err)
{
	return nvar_parse(t, parent, v, "NVAR", err);
}

bool fw_nvar_parse_named_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, const char *name,
			       struct fw_error *err)
{
	return nvar_parse(t, parent, v, name, err);
}

/* EDK2 variable stores (VSS, VSS2, authenticated VSS2, $VSS) and the fault-tolerant-write working
 * block: layouts, and the parser of an NVRAM region that holds them (reference/formats.md 5.3).
 *
 * An NVRAM region (the body of an EfiSystemNvDataFv volume) is a sequence of variable stores,
 * FTW working blocks, erased padding and free space. Inside a store, variables follow the header
 * at 4-byte alignment; each starts with 0x55AA and the first thing that does not ends the walk.
 * The State byte is written by clearing bits: 0x3F added, 0x3E added and in deleted transition
 * (live unless an added copy exists), 0x3D/0x3C deleted, 0x7F header only. */
#include "vss.h"

#include <stdio.h>
#include <string.h>

#include "firmware.h"
#include "hash.h"
#include "nvram.h"
#include "ucs2.h"

static const struct fw_field vss_store_fields[VSS_STORE__COUNT] = {
	[VSS_STORE_SIGNATURE] = {"Signature", FW_FT_GUID, 0, 0, 0, NULL},
	[VSS_STORE_SIZE] = {"Size", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[VSS_STORE_FORMAT] = {"Format", FW_FT_U8, 20, 0, FW_FF_HEX, NULL},
	[VSS_STORE_STATE] = {"State", FW_FT_U8, 21, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_vss_store_layout = FW_LAYOUT("variable store header", FW_VSS_STORE_HEADER_SIZE, vss_store_fields);

static const struct fw_field vss_short_fields[VSS_SHORT__COUNT] = {
	[VSS_SHORT_SIGNATURE] = {"Signature", FW_FT_CHARS, 0, 4, 0, NULL},
	[VSS_SHORT_SIZE] = {"Size", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[VSS_SHORT_FORMAT] = {"Format", FW_FT_U8, 8, 0, FW_FF_HEX, NULL},
	[VSS_SHORT_STATE] = {"State", FW_FT_U8, 9, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_vss_short_store_layout =
	FW_LAYOUT("variable store header ($VSS)", FW_VSS_SHORT_STORE_HEADER_SIZE, vss_short_fields);

static const struct fw_field vss_var_fields[VSS_VAR__COUNT] = {
	[VSS_VAR_START_ID] = {"StartId", FW_FT_U16, 0, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[VSS_VAR_STATE] = {"State", FW_FT_U8, 2, 0, FW_FF_HEX, NULL},
	[VSS_VAR_ATTRIBUTES] = {"Attributes", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[VSS_VAR_NAME_SIZE] = {"NameSize", FW_FT_U32, 8, 0, FW_FF_HEX, NULL},
	[VSS_VAR_DATA_SIZE] = {"DataSize", FW_FT_U32, 12, 0, FW_FF_HEX, NULL},
	[VSS_VAR_GUID] = {"VendorGuid", FW_FT_GUID, 16, 0, 0, NULL},
};
const struct fw_layout fw_vss_var_layout = FW_LAYOUT("variable header", FW_VSS_VAR_HEADER_SIZE, vss_var_fields);

static const struct fw_field vss_auth_fields[VSS_AUTH__COUNT] = {
	[VSS_AUTH_START_ID] = {"StartId", FW_FT_U16, 0, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[VSS_AUTH_STATE] = {"State", FW_FT_U8, 2, 0, FW_FF_HEX, NULL},
	[VSS_AUTH_ATTRIBUTES] = {"Attributes", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
	[VSS_AUTH_MONOTONIC_COUNT] = {"MonotonicCount", FW_FT_U64, 8, 0, 0, NULL},
	[VSS_AUTH_TIMESTAMP] = {"TimeStamp", FW_FT_BYTES, 16, 16, 0, NULL},
	[VSS_AUTH_PUBKEY_INDEX] = {"PubKeyIndex", FW_FT_U32, 32, 0, 0, NULL},
	[VSS_AUTH_NAME_SIZE] = {"NameSize", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[VSS_AUTH_DATA_SIZE] = {"DataSize", FW_FT_U32, 40, 0, FW_FF_HEX, NULL},
	[VSS_AUTH_GUID] = {"VendorGuid", FW_FT_GUID, 44, 0, 0, NULL},
};
const struct fw_layout fw_vss_auth_var_layout =
	FW_LAYOUT("authenticated variable header", FW_VSS_AUTH_VAR_HEADER_SIZE, vss_auth_fields);

static const struct fw_field ftw_fields[FTW__COUNT] = {
	[FTW_SIGNATURE] = {"Signature", FW_FT_GUID, 0, 0, 0, NULL},
	[FTW_CRC] = {"Crc", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[FTW_STATE] = {"WorkingBlockValid", FW_FT_U8, 20, 0, FW_FF_HEX, NULL},
	[FTW_WRITE_QUEUE_SIZE] = {"WriteQueueSize", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ftw_layout = FW_LAYOUT("fault-tolerant working block header", 32, ftw_fields);

static const struct fw_field ftw32_fields[FTW__COUNT] = {
	[FTW_SIGNATURE] = {"Signature", FW_FT_GUID, 0, 0, 0, NULL},
	[FTW_CRC] = {"Crc", FW_FT_U32, 16, 0, FW_FF_HEX, NULL},
	[FTW_STATE] = {"WorkingBlockValid", FW_FT_U8, 20, 0, FW_FF_HEX, NULL},
	[FTW_WRITE_QUEUE_SIZE] = {"WriteQueueSize", FW_FT_U32, 24, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ftw32_layout = FW_LAYOUT("fault-tolerant working block header (32-bit)", 28, ftw32_fields);

char *fw_efi_attributes_str(uint32_t a, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{0x01, "NV"}, {0x02, "BS"}, {0x04, "RT"}, {0x08, "HR"}, {0x10, "AW"}, {0x20, "AT"}, {0x40, "AP"},
	};
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (a & names[i].bit) {
			int w = snprintf(buf + used, len - used, "%s%s", used ? "+" : "", names[i].name);
			if (w < 0 || (size_t)w >= len - used)
				break;
			used += (size_t)w;
		}
	if (a & ~0x7Fu)
		snprintf(buf + used, len - used, "%s0x%x", used ? "+" : "", a & ~0x7Fu);
	return buf;
}

const struct fw_guid fw_guid_vss_store = FW_GUID_INIT(0xDDCF3616, 0x3275, 0x4164, 0x98, 0xB6, 0xFE, 0x85, 0x70, 0x7F, 0xFE, 0x7D);
const struct fw_guid fw_guid_vss_auth_store = FW_GUID_INIT(0xAAF32C78, 0x947B, 0x439A, 0xA1, 0x80, 0x2E, 0x14, 0x4E, 0xC3, 0x77, 0x92);
const struct fw_guid fw_guid_ftw_working_block =
	FW_GUID_INIT(0x9E58292B, 0x7C68, 0x497D, 0xA0, 0xCE, 0x65, 0x00, 0xFD, 0x9F, 0x1B, 0x95);
const struct fw_guid fw_guid_ftw_working_block_old =
	FW_GUID_INIT(0xFFF12B8D, 0x7696, 0x4C8B, 0xA9, 0x85, 0x27, 0x47, 0x07, 0x5B, 0x4F, 0x50);

bool fw_efi_time_str(const uint8_t *p, char *buf, size_t len)
{
	unsigned year = fw_le16(p), month = p[2], day = p[3], hour = p[4], minute = p[5], second = p[6];
	if (year < 1900 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 ||
	    second > 59)
		return false;
	snprintf(buf, len, "%04u-%02u-%02uT%02u:%02u:%02u", year, month, day, hour, minute, second);
	return true;
}

/* ---- the region parser --------------------------------------------------------------------- */

#define VAR_ADDED 0x3F
#define VAR_DELETED_BIT 0x02    /* cleared when deleted */
#define VAR_IN_TRANSITION_BIT 0x01

enum store_kind { STORE_NONE, STORE_GUID, STORE_SHORT, STORE_FTW };

static enum store_kind store_at(const struct fw_view *v, size_t off)
{
	if (fw_view_has(v, off, 16)) {
		struct fw_guid g;
		memcpy(g.b, v->p + off, 16);
		if (fw_guid_eq(&g, &fw_guid_vss_store) || fw_guid_eq(&g, &fw_guid_vss_auth_store))
			return fw_view_has(v, off, FW_VSS_STORE_HEADER_SIZE) ? STORE_GUID : STORE_NONE;
		if (fw_guid_eq(&g, &fw_guid_ftw_working_block) || fw_guid_eq(&g, &fw_guid_ftw_working_block_old))
			return fw_view_has(v, off, 28) ? STORE_FTW : STORE_NONE;
	}
	if (fw_view_has(v, off, FW_VSS_SHORT_STORE_HEADER_SIZE)) {
		uint32_t sig = fw_le32(v->p + off);
		if (sig == FW_VSS_SIGNATURE_DOLLAR || sig == FW_VSS_SIGNATURE_APPLE_SVS || sig == FW_VSS_SIGNATURE_APPLE_NSS)
			return STORE_SHORT;
	}
	return STORE_NONE;
}

struct vss_var {
	size_t off, size;
	uint8_t state;
	bool auth;
	struct fw_node *node;
	struct fw_variable *var;
};

static enum fw_var_state state_of(uint8_t st)
{
	if (st == VAR_ADDED || st == (VAR_ADDED & ~VAR_IN_TRANSITION_BIT))
		return FW_VAR_STATE_VALID;
	if ((st & 0xC0) == 0 && !(st & VAR_DELETED_BIT))
		return FW_VAR_STATE_DELETED;
	return FW_VAR_STATE_INVALID;
}

static const char *state_text(uint8_t st)
{
	switch (st) {
	case 0x3F: return "ADDED";
	case 0x3E: return "ADDED, IN_DELETED_TRANSITION";
	case 0x3D: return "DELETED";
	case 0x3C: return "DELETED, IN_DELETED_TRANSITION";
	case 0x7F: return "HEADER_VALID_ONLY";
	case 0xFF: return "NOT_WRITTEN";
	}
	return NULL;
}

/* One variable at `off` of the store window. *used is its unaligned size (0 when nothing is
 * there) and *stop tells that it covers the rest of the store. False only on a tree limit. */
static bool parse_variable(struct fw_tree *t, struct fw_node *store, const struct fw_view *sv, size_t off,
			   bool auth_store, bool short_store, const char *store_name, size_t *used, bool *stop,
			   struct fw_error *err)
{
	*used = 0;
	*stop = true;
	if (!fw_view_has(sv, off, 2) || fw_le16(sv->p + off) != FW_VSS_START_ID)
		return true;
	bool auth = auth_store;
	if (short_store && fw_view_has(sv, off, 8))
		auth = (fw_le32(sv->p + off + 4) &
			(FW_EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS | FW_EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)) != 0;
	const struct fw_layout *l = auth ? &fw_vss_auth_var_layout : &fw_vss_var_layout;
	size_t hdr = l->size;
	unsigned iname = auth ? VSS_AUTH_NAME_SIZE : VSS_VAR_NAME_SIZE, idata = auth ? VSS_AUTH_DATA_SIZE : VSS_VAR_DATA_SIZE;
	unsigned iguid = auth ? VSS_AUTH_GUID : VSS_VAR_GUID, iattr = auth ? VSS_AUTH_ATTRIBUTES : VSS_VAR_ATTRIBUTES;
	struct fw_view rec;
	if (!fw_view_has(sv, off, hdr)) {
		fw_rd_tail(sv, off, &rec, NULL);
		struct fw_node *n = fw_node_add(t, store, FW_NODE_PADDING, "Non-empty", &rec, err);
		if (!n)
			return false;
		fw_node_diag(t, n, FW_DIAG_WARN, rec.base, "variable header runs past the end of the store");
		*used = rec.len;
		return true;
	}
	uint64_t name_size = fw_layout_get(l, sv, off, iname), data_size = fw_layout_get(l, sv, off, idata);
	uint8_t st = sv->p[off + 2];
	size_t room = sv->len - off - hdr;
	bool fits = name_size <= room && data_size <= room - name_size;
	size_t size = fits ? hdr + (size_t)name_size + (size_t)data_size : sv->len - off;
	fw_rd_sub(sv, off, size, &rec, NULL);

	struct fw_variable *var = fw_variable_new(t);
	var->store = store_name;
	var->state = fits ? state_of(st) : FW_VAR_STATE_INVALID;
	fw_layout_get_guid(l, sv, off, iguid, &var->guid);
	var->attributes = (uint32_t)fw_layout_get(l, sv, off, iattr);
	if (fits) {
		size_t units = (size_t)name_size / 2;
		var->name = fw_nvram_name_ucs2(t, sv->p + off + hdr, fw_ucs2_len(sv->p + off + hdr, units, NULL));
		var->data = sv->p + off + hdr + name_size;
		var->size = (size_t)data_size;
	}
	const char *type = var->state != FW_VAR_STATE_VALID ? "Invalid" : auth ? "Auth" : "Standard";
	struct fw_node *n = fw_nvram_add_variable(t, store, type, &rec, var, err);
	if (!n)
		return false;
	n->header_size = (uint32_t)(fits ? hdr + name_size : hdr);
	if (fits)
		fw_rd_sub(sv, off + hdr + (size_t)name_size, (size_t)data_size, &n->body, NULL);
	fw_layout_emit(t, n, l, sv, off);
	const char *stt = state_text(st);
	if (stt)
		fw_node_field_str(t, n, "State name", stt);
	if (auth) {
		char when[32];
		if (fw_efi_time_str(fw_layout_ptr(l, sv, off, VSS_AUTH_TIMESTAMP), when, sizeof(when)))
			fw_node_field_str(t, n, "Time", when);
	}
	*used = size;
	if (!fits) {
		fw_node_diag(t, n, FW_DIAG_WARN, rec.base,
			     "variable: name size 0x%llx and data size 0x%llx run past the end of the store",
			     (unsigned long long)name_size, (unsigned long long)data_size);
		return true;
	}
	*stop = false;
	if (name_size % 2 || (name_size && fw_ucs2_len(sv->p + off + hdr, (size_t)name_size / 2, NULL) == name_size / 2))
		fw_node_diag(t, n, FW_DIAG_WARN, rec.base, "variable name is not a terminated UCS-2 string");
	return true;
}

/* A variable in deleted transition stays live only while no added copy exists (EDK2 Variable.c).
 * The State byte is read from the record itself (byte 2 of either header form). */
static void settle_transitions(struct fw_tree *t, struct fw_node *store)
{
	for (struct fw_node *a = store->first_child; a; a = a->next) {
		struct fw_variable *va = a->kind == FW_NODE_VARIABLE ? a->ext : NULL;
		if (!va || va->state != FW_VAR_STATE_VALID || a->data.p[2] != (VAR_ADDED & ~VAR_IN_TRANSITION_BIT))
			continue;
		for (struct fw_node *b = store->first_child; b; b = b->next) {
			struct fw_variable *vb = b->kind == FW_NODE_VARIABLE ? b->ext : NULL;
			if (vb && vb->state == FW_VAR_STATE_VALID && b->data.p[2] == VAR_ADDED && strcmp(va->name, vb->name) == 0 &&
			    fw_guid_eq(&va->guid, &vb->guid)) {
				va->state = FW_VAR_STATE_DELETED;
				a->type = "Invalid";
				fw_node_field_set_str(t, a, "VariableState", fw_var_state_name(va->state));
				break;
			}
		}
	}
}

/* A variable store at `off`; returns the bytes it covers (0 on a fatal error). */
static size_t parse_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, size_t off,
			  enum store_kind kind, struct fw_error *err)
{
	const struct fw_layout *l = kind == STORE_GUID ? &fw_vss_store_layout : &fw_vss_short_store_layout;
	unsigned isize = kind == STORE_GUID ? VSS_STORE_SIZE : VSS_SHORT_SIZE;
	unsigned iformat = kind == STORE_GUID ? VSS_STORE_FORMAT : VSS_SHORT_FORMAT;
	unsigned istate = kind == STORE_GUID ? VSS_STORE_STATE : VSS_SHORT_STATE;
	uint64_t size = fw_layout_get(l, v, off, isize);
	size_t avail = v->len - off;
	bool capped = false;
	if (size < l->size || size > avail) {
		capped = true;
		size = avail;
	}
	struct fw_view sv;
	fw_rd_sub(v, off, (size_t)size, &sv, NULL);
	bool auth = false;
	const char *type = "VSS";
	if (kind == STORE_GUID) {
		struct fw_guid g;
		fw_layout_get_guid(l, v, off, VSS_STORE_SIGNATURE, &g);
		auth = fw_guid_eq(&g, &fw_guid_vss_auth_store);
		type = "VSS2";
	} else if (fw_le32(v->p + off) != FW_VSS_SIGNATURE_DOLLAR) {
		type = fw_le32(v->p + off) == FW_VSS_SIGNATURE_APPLE_SVS ? "VSS (Apple $SVS)" : "VSS (Apple $NSS)";
	}
	struct fw_node *store = fw_node_add(t, parent, FW_NODE_NVRAM_STORE, type, &sv, err);
	if (!store)
		return 0;
	store->header_size = l->size;
	fw_layout_emit(t, store, l, v, off);
	if (kind == STORE_GUID)
		fw_node_field_bool(t, store, "Authenticated", auth);
	if (capped)
		fw_node_diag(t, store, FW_DIAG_WARN, sv.base, "store size 0x%llx does not fit the region; using 0x%zx",
			     (unsigned long long)fw_layout_get(l, v, off, isize), sv.len);
	if (fw_layout_get(l, v, off, iformat) != FW_VSS_STORE_FORMATTED)
		fw_node_diag(t, store, FW_DIAG_INFO, sv.base, "store is not marked formatted (0x5A)");
	if (fw_layout_get(l, v, off, istate) != FW_VSS_STORE_HEALTHY)
		fw_node_diag(t, store, FW_DIAG_INFO, sv.base, "store is not marked healthy (0xFE)");

	size_t pos = l->size, live = 0, records = 0;
	fw_align_up(pos, 4, &pos);
	for (;;) {
		size_t used;
		bool stop;
		if (!parse_variable(t, store, &sv, pos, auth, kind == STORE_SHORT, type, &used, &stop, err))
			return 0;
		if (!used)
			break;
		struct fw_variable *last = fw_node_last_child(t, store)->ext;
		records += last != NULL;
		live += last && last->state == FW_VAR_STATE_VALID;
		if (stop) {
			pos = sv.len;
			break;
		}
		/* the last variable may end unaligned at the very end of the store */
		if (!fw_align_up(pos + used, 4, &pos) || pos >= sv.len) {
			pos = sv.len;
			break;
		}
	}
	settle_transitions(t, store);
	if (pos < sv.len) {
		struct fw_view rest;
		fw_rd_tail(&sv, pos, &rest, NULL);
		bool empty = fw_all_bytes(rest.p, rest.len, 0xFF);
		struct fw_node *n = fw_node_add(t, store, empty ? FW_NODE_FREE_SPACE : FW_NODE_PADDING,
						empty ? "Free space" : "Non-empty", &rest, err);
		if (!n)
			return 0;
		if (!empty)
			fw_node_diag(t, n, FW_DIAG_WARN, rest.base, "0x%zx bytes after the variables are neither variables "
				     "nor free space", rest.len);
	}
	fw_node_field_uint(t, store, "Records", records, FW_FMT_DEC);
	fw_node_field_uint(t, store, "Variables", live, FW_FMT_DEC);
	return sv.len;
}

/* FTW working block: EDK2 computes its CRC32 over the header with Crc erased and both state bits
 * at the erase polarity (FaultTolerantWrite IsValidWorkSpace). */
static size_t parse_ftw(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, size_t off,
			struct fw_error *err)
{
	/* The 32-bit WriteQueueSize variant is told apart by its alignment, as UEFITool does. */
	bool narrow = fw_view_has(v, off, 32) ? (fw_le64(v->p + off + 24) % 0x10) == 4 : true;
	const struct fw_layout *l = narrow ? &fw_ftw32_layout : &fw_ftw_layout;
	if (!fw_view_has(v, off, l->size))
		return 0;
	uint64_t queue = fw_layout_get(l, v, off, FTW_WRITE_QUEUE_SIZE);
	size_t avail = v->len - off;
	size_t size = queue <= avail - l->size ? l->size + (size_t)queue : avail;
	struct fw_view w;
	fw_rd_sub(v, off, size, &w, NULL);
	struct fw_node *n = fw_node_add(t, parent, FW_NODE_NVRAM_STORE, "FTW", &w, err);
	if (!n)
		return 0;
	n->header_size = l->size;
	fw_layout_emit(t, n, l, v, off);
	uint8_t hdr[32];
	memcpy(hdr, v->p + off, l->size);
	memset(hdr + 16, 0xFF, 4);
	hdr[20] |= 0x03;
	uint32_t crc = fw_crc32(hdr, l->size);
	bool ok = crc == fw_layout_get(l, v, off, FTW_CRC);
	fw_node_field_bool(t, n, "Crc valid", ok);
	if (!ok) {
		n->flags |= FW_NODE_F_CHECKSUM_BAD;
		fw_node_diag(t, n, FW_DIAG_WARN, w.base, "FTW working block CRC32 is 0x%08X, expected 0x%08X",
			     (uint32_t)fw_layout_get(l, v, off, FTW_CRC), crc);
	}
	if (size != l->size + queue)
		fw_node_diag(t, n, FW_DIAG_WARN, w.base, "FTW write queue size 0x%llx runs past the region",
			     (unsigned long long)queue);
	return size;
}

bool fw_vss_parse_store(struct fw_tree *t, struct fw_node *parent, const struct fw_view *v, struct fw_error *err)
{
	if (!v->len)
		return fw_error_set(err, FW_E_TRUNCATED, "NVRAM region at %s is empty", fw_offset_str(v->base, (char[24]){0}, 24));
	if (store_at(v, 0) == STORE_NONE && v->p[0] != 0xFF)
		return fw_error_set(err, FW_E_INVALID, "NVRAM region at %s: no variable store or FTW block at its start",
				    fw_offset_str(v->base, (char[24]){0}, 24));
	if (!parent) {
		parent = fw_node_add(t, NULL, FW_NODE_REGION, "NVRAM", v, err);
		if (!parent)
			return false;
	}
	size_t off = 0;
	while (off < v->len) {
		enum store_kind k = store_at(v, off);
		size_t used = 0;
		if (k == STORE_GUID || k == STORE_SHORT)
			used = parse_store(t, parent, v, off, k, err);
		else if (k == STORE_FTW)
			used = parse_ftw(t, parent, v, off, err);
		if (k != STORE_NONE) {
			if (!used)
				return false;
			off += used;
			continue;
		}
		/* Erased bytes, or unknown bytes up to the next 8-aligned store signature. */
		size_t end = off;
		bool erased = v->p[off] == 0xFF;
		if (erased) {
			while (end < v->len && v->p[end] == 0xFF)
				end++;
			/* what follows starts aligned */
			if (end < v->len && (end & ~(size_t)7) > off)
				end &= ~(size_t)7;
		} else {
			end = (off + 8) & ~(size_t)7;
			while (end < v->len && store_at(v, end) == STORE_NONE && !fw_all_bytes(v->p + end, v->len - end < 16 ? v->len - end : 16, 0xFF))
				end += 8;
			if (end > v->len)
				end = v->len;
		}
		struct fw_view w;
		fw_rd_sub(v, off, end - off, &w, NULL);
		enum fw_node_kind kind = erased ? (end == v->len ? FW_NODE_FREE_SPACE : FW_NODE_PADDING) : FW_NODE_PADDING;
		struct fw_node *n = fw_node_add(t, parent, kind, erased ? (end == v->len ? "Free space" : "Empty (0xFF)") : "Non-empty",
						&w, err);
		if (!n)
			return false;
		if (!erased)
			fw_node_diag(t, n, FW_DIAG_INFO, w.base, "0x%zx bytes that are no variable store", w.len);
		off = end;
	}
	return true;
}

/* AMD flash layout (reference/formats.md 2): the Embedded Firmware Structure, PSP and BIOS
 * directories of both levels, combo directories, their entries and checksums.
 *
 * The EFS is looked for at every 4 KiB boundary of the image (AMD places it at 0x20000 plus a
 * multiple of 0x80000, older parts at other fixed offsets) and kept only when one of its pointers
 * lands on a directory cookie. Pointers are x86 physical addresses (the flash mapped to end at
 * 4 GiB; a larger flash is seen through 16 MiB windows), flash offsets, or offsets relative to
 * the directory, as the directory's and the entry's address-mode bits say. Directories reached
 * twice are decoded once; a pointer back to a directory being decoded is a loop. */
#include "amd-flash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd-apcb.h"
#include "amd-microcode.h"
#include "amd-psp.h"
#include "parsers/decompress.h"
#include "parsers/hash.h"

#define WINDOW ((uint64_t)16 << 20)
#define MAX_EFS 16
#define MAX_STACK 16
#define ADDRESS_MASK ((UINT64_C(1) << 62) - 1)
/* ISH header of A/B layouts: {checksum, boot priority, update retry count, glitch retry count,
 * PL2 location, PSP id, slot max size, reserved}, u32 each (amdfwtool). */
#define ISH_SIZE 32
#define ISH_PL2_LOCATION 16

struct amd_ctx {
	struct fw_tree *t;
	const struct fw_view *img;
	uint64_t window;
	struct {
		uint64_t off;
		struct fw_node *node;
	} *seen;
	size_t nseen, cap;
	uint64_t stack[MAX_STACK];
	size_t depth;
	struct fw_error *err;
	bool fatal;
};

static bool empty_pointer(uint64_t a)
{
	return a == 0 || a == 0xFFFFFFFFu || a == 0xFFFFFFFEu || a == ADDRESS_MASK || a == UINT64_MAX;
}

/* Image offset of an address; false when it lands outside the image. */
static bool resolve(const struct amd_ctx *c, uint64_t addr, unsigned mode, uint64_t dir_off, uint64_t *out)
{
	uint64_t len = c->img->len, off;
	switch (mode) {
	case FW_AMD_ADDR_DIR_RELATIVE:
	case FW_AMD_ADDR_SLOT_RELATIVE: /* the slot starts at the directory in the layouts seen */
		off = dir_off + addr;
		break;
	case FW_AMD_ADDR_FLASH_OFFSET:
		off = addr;
		break;
	default:
		if (addr >= 0xFF000000u && addr <= 0xFFFFFFFFu) {
			if (len <= WINDOW) {
				uint64_t base = (UINT64_C(1) << 32) - len;
				if (addr < base)
					return false;
				off = addr - base;
			} else {
				off = c->window + (addr & (WINDOW - 1));
			}
		} else {
			off = addr; /* older directories store flash offsets with mode 0 */
		}
		break;
	}
	if (off >= len)
		return false;
	*out = off;
	return true;
}

static uint32_t cookie_at(const struct fw_view *v, uint64_t off)
{
	return fw_view_has(v, (size_t)off, 4) ? fw_le32(v->p + off) : 0;
}

static bool is_cookie(uint32_t c)
{
	return c == FW_AMD_COOKIE_PSP || c == FW_AMD_COOKIE_PL2 || c == FW_AMD_COOKIE_BHD || c == FW_AMD_COOKIE_BL2 ||
	       c == FW_AMD_COOKIE_2PSP || c == FW_AMD_COOKIE_2BHD;
}

static const char *cookie_name(uint32_t c, char buf[8])
{
	for (int i = 0; i < 4; i++) {
		uint8_t b = (uint8_t)(c >> (8 * i));
		buf[i] = (b >= 0x20 && b < 0x7F) ? (char)b : '.';
	}
	buf[4] = '\0';
	return buf;
}

static const char *mode_name(unsigned m)
{
	switch (m) {
	case FW_AMD_ADDR_PHYSICAL: return "x86 physical";
	case FW_AMD_ADDR_FLASH_OFFSET: return "flash offset";
	case FW_AMD_ADDR_DIR_RELATIVE: return "directory relative";
	case FW_AMD_ADDR_SLOT_RELATIVE: return "slot relative";
	}
	return "?";
}

static struct fw_node *decode_dir(struct amd_ctx *c, struct fw_node *parent, uint64_t off);

/* Follow a pointer to a directory; what it found is recorded on `from`. */
static void follow(struct amd_ctx *c, struct fw_node *from, uint64_t addr, unsigned mode, uint64_t dir_off,
		   const char *what)
{
	if (c->fatal || empty_pointer(addr))
		return;
	uint64_t off;
	if (!resolve(c, addr, mode, dir_off, &off)) {
		fw_node_diag(c->t, from, FW_DIAG_WARN, from->offset, "%s 0x%llX points outside the 0x%zX-byte image", what,
			     (unsigned long long)addr, c->img->len);
		return;
	}
	for (size_t i = 0; i < c->depth; i++)
		if (c->stack[i] == off) {
			fw_node_diag(c->t, from, FW_DIAG_WARN, fw_view_abs(c->img, (size_t)off),
				     "%s points back to the directory at 0x%llX that contains it: a loop", what,
				     (unsigned long long)off);
			return;
		}
	for (size_t i = 0; i < c->nseen; i++)
		if (c->seen[i].off == off) {
			fw_node_field_uint(c->t, from, "SameAs", fw_view_abs(c->img, (size_t)off), FW_FMT_HEX);
			return;
		}
	uint32_t ck = cookie_at(c->img, off);
	if (!is_cookie(ck)) {
		char b[8];
		fw_node_diag(c->t, from, FW_DIAG_WARN, fw_view_abs(c->img, (size_t)off),
			     "%s 0x%llX lands on \"%s\", not on a directory cookie", what, (unsigned long long)addr,
			     cookie_name(ck, b));
		return;
	}
	decode_dir(c, from, off);
}

/* The 0x100-byte header PSP firmware blobs start with: a printable four-character magic at 0x10
 * and sizes that fit the entry. */
static void decode_psp_header(struct amd_ctx *c, struct fw_node *n, struct fw_amd_entry *e, const struct fw_view *d)
{
	if (d->len < FW_AMD_PSP_BLOB_HEADER_SIZE)
		return;
	for (int i = 0x10; i < 0x14; i++)
		if (d->p[i] < 0x20 || d->p[i] > 0x7E)
			return;
	const struct fw_layout *l = &fw_amd_psp_blob_layout;
	uint32_t signed_size = (uint32_t)fw_layout_get(l, d, 0, PSPHDR_SIZE_SIGNED);
	uint32_t rom_size = (uint32_t)fw_layout_get(l, d, 0, PSPHDR_SIZE_TOTAL);
	if (signed_size > d->len || (rom_size && rom_size > d->len))
		return;
	e->psp_header = true;
	const uint8_t *ver = fw_layout_ptr(l, d, 0, PSPHDR_VERSION);
	snprintf(e->version, sizeof(e->version), "%X.%X.%X.%X", ver[3], ver[2], ver[1], ver[0]);
	if (fw_layout_get(l, d, 0, PSPHDR_COMP_OPT) & 1)
		e->compressed = true;
	e->uncompressed_size = (uint32_t)fw_layout_get(l, d, 0, PSPHDR_UNCOMP_SIZE);
	char magic[8];
	memcpy(magic, d->p + 0x10, 4);
	magic[4] = '\0';
	fw_node_field_str(c->t, n, "HeaderMagic", magic);
	fw_node_field_str(c->t, n, "Version", e->version);
	fw_node_field_uint(c->t, n, "SizeSigned", signed_size, FW_FMT_HEX);
	if (e->compressed)
		fw_node_field_uint(c->t, n, "UncompressedSize", e->uncompressed_size, FW_FMT_HEX);
}

/* What BIOS directory entries hold: microcode patches and APCB blocks. */
static void decode_bios_content(struct amd_ctx *c, struct fw_node *n, const struct fw_amd_entry *e, const struct fw_view *d)
{
	if (e->type == 0x66 && fw_view_has(d, 0, FW_AMD_MICROCODE_HEADER_SIZE))
		fw_amd_microcode_fields(c->t, n, d);
	else if ((e->type == 0x60 || e->type == 0x68) && fw_view_has(d, 0, 32) && memcmp(d->p, "APCB", 4) == 0)
		fw_amd_apcb_fields(c->t, n, d);
}

static bool entry_is_link(const struct fw_amd_entry *e)
{
	if (e->bios)
		return e->type == 0x70;
	return e->type == 0x40 || e->type == 0x48 || e->type == 0x4A || e->type == 0x49;
}

static void decode_entry(struct amd_ctx *c, struct fw_node *dir, const struct fw_amd_dir *d, size_t idx)
{
	size_t esize = d->bios ? FW_AMD_BIOS_ENTRY_SIZE : FW_AMD_PSP_ENTRY_SIZE;
	size_t at = (size_t)d->offset + FW_AMD_DIR_HEADER_SIZE + idx * esize;
	const uint8_t *p = c->img->p + at;
	struct fw_amd_entry *e = fw_arena_alloc(&c->t->arena, sizeof(*e));
	e->bios = d->bios;
	e->type = p[0];
	e->flags = fw_le16(p + 2);
	e->size = fw_le32(p + 4);
	uint64_t raw = fw_le64(p + 8);
	/* Directory modes 2 and 3 let each entry choose; otherwise the directory's mode holds. The
	 * address is the low 62 bits either way: amdfwtool writes the mode bits into every entry of
	 * a flash-offset directory too (0x40000000_00031000 is flash offset 0x31000). */
	e->address_mode = d->address_mode >= FW_AMD_ADDR_DIR_RELATIVE ? (unsigned)(raw >> 62) : d->address_mode;
	e->address = raw & ADDRESS_MASK;
	if (d->bios) {
		e->region_type = p[1];
		e->reset = e->flags & FW_AMD_BIOS_FLAG_RESET;
		e->copy = e->flags & FW_AMD_BIOS_FLAG_COPY;
		e->read_only = e->flags & FW_AMD_BIOS_FLAG_READ_ONLY;
		e->compressed = e->flags & FW_AMD_BIOS_FLAG_COMPRESSED;
		e->instance = (e->flags >> 4) & 0xF;
		e->subprogram = (uint8_t)((e->flags >> 8) & 0x7);
		e->destination = fw_le64(p + 16);
		e->name = fw_amd_bios_entry_name(e->type);
	} else {
		e->subprogram = p[1];
		e->rom_id = e->flags & 0x3;
		e->writable = e->flags & 0x4;
		e->instance = (e->flags >> 3) & 0xF;
		e->inline_value = e->type == 0x0B;
		if (e->inline_value)
			e->address = raw; /* the soft-fuse value uses all 64 bits */
		e->name = fw_amd_psp_entry_name(e->type);
	}
	struct fw_view data = {0};
	uint64_t off = 0;
	bool has_size = e->size != 0 && e->size != 0xFFFFFFFFu;
	if (!e->inline_value && has_size && !empty_pointer(e->address) && resolve(c, e->address, e->address_mode, d->offset, &off) &&
	    fw_rd_sub(c->img, (size_t)off, e->size, &data, NULL)) {
		e->located = true;
		e->image_offset = off;
	}
	const char *type = e->name ? e->name : fw_arena_printf(&c->t->arena, "%s entry 0x%02X", d->bios ? "BIOS" : "PSP", e->type);
	struct fw_node *n = fw_node_add(c->t, dir, FW_NODE_PSP_ENTRY, type, e->located ? &data : NULL, c->err);
	if (!n) {
		c->fatal = true;
		return;
	}
	n->ext = e;
	n->name = e->name;
	fw_node_field_uint(c->t, n, "Type", e->type, FW_FMT_HEX);
	fw_node_field_uint(c->t, n, "TableOffset", fw_view_abs(c->img, at), FW_FMT_HEX);
	if (d->bios) {
		fw_node_field_uint(c->t, n, "RegionType", e->region_type, FW_FMT_HEX);
		fw_node_field_uint(c->t, n, "SubProgram", e->subprogram, FW_FMT_DEC);
	} else {
		fw_node_field_uint(c->t, n, "SubProgram", e->subprogram, FW_FMT_DEC);
		fw_node_field_uint(c->t, n, "RomId", e->rom_id, FW_FMT_DEC);
	}
	fw_node_field_uint(c->t, n, "Flags", e->flags, FW_FMT_HEX);
	fw_node_field_uint(c->t, n, "Instance", e->instance, FW_FMT_DEC);
	if (d->bios) {
		char f[64] = "";
		snprintf(f, sizeof(f), "%s%s%s%s", e->reset ? "reset " : "", e->copy ? "copy " : "", e->read_only ? "read-only " : "",
			 e->compressed ? "compressed " : "");
		if (f[0]) {
			f[strlen(f) - 1] = '\0';
			fw_node_field_str(c->t, n, "Flags text", f);
		}
	} else if (e->writable) {
		fw_node_field_str(c->t, n, "Flags text", "writable");
	}
	if (e->inline_value) {
		fw_node_field_uint(c->t, n, "Value", e->address, FW_FMT_HEX);
		return;
	}
	fw_node_field_uint(c->t, n, "Size", e->size, FW_FMT_HEX);
	fw_node_field_uint(c->t, n, "Location", e->address, FW_FMT_HEX);
	fw_node_field_str(c->t, n, "AddressMode", mode_name(e->address_mode));
	if (d->bios && e->destination != UINT64_MAX)
		fw_node_field_uint(c->t, n, "Destination", e->destination, FW_FMT_HEX);
	if (e->located)
		fw_node_field_uint(c->t, n, "ImageOffset", e->image_offset, FW_FMT_HEX);
	else if (has_size && !empty_pointer(e->address))
		fw_node_diag(c->t, n, FW_DIAG_WARN, fw_view_abs(c->img, at),
			     "%s directory entry 0x%02X: 0x%X bytes at 0x%llX (%s) lie outside the 0x%zX-byte image",
			     d->bios ? "BIOS" : "PSP", e->type, e->size, (unsigned long long)e->address, mode_name(e->address_mode),
			     c->img->len);
	if (entry_is_link(e)) {
		uint64_t target = e->address;
		/* A/B level-2 entries may point to an ISH header that holds the directory location. */
		if (!d->bios && (e->type == 0x48 || e->type == 0x4A) && e->located && !is_cookie(cookie_at(c->img, e->image_offset)) &&
		    fw_view_has(c->img, (size_t)e->image_offset, ISH_SIZE)) {
			target = fw_le32(c->img->p + e->image_offset + ISH_PL2_LOCATION);
			fw_node_field_uint(c->t, n, "IshPl2Location", target, FW_FMT_HEX);
			follow(c, n, target, FW_AMD_ADDR_PHYSICAL, d->offset, "level 2 directory location");
			return;
		}
		follow(c, n, target, e->address_mode, d->offset, "level 2 directory pointer");
		return;
	}
	if (!e->located)
		return;
	if (!d->bios || e->compressed)
		decode_psp_header(c, n, e, &data);
	if (d->bios)
		decode_bios_content(c, n, e, &data);
}

static void decode_combo_entry(struct amd_ctx *c, struct fw_node *dir, const struct fw_amd_dir *d, size_t idx)
{
	size_t at = (size_t)d->offset + FW_AMD_COMBO_HEADER_SIZE + idx * FW_AMD_COMBO_ENTRY_SIZE;
	const uint8_t *p = c->img->p + at;
	struct fw_amd_entry *e = fw_arena_alloc(&c->t->arena, sizeof(*e));
	e->combo = true;
	e->bios = d->cookie == FW_AMD_COOKIE_2BHD;
	e->id_select = fw_le32(p);
	e->id = fw_le32(p + 4);
	e->address = fw_le64(p + 8);
	e->name = e->id_select ? "Combo entry (chip family ID)" : "Combo entry (PSP ID)";
	struct fw_view entry;
	fw_rd_sub(c->img, at, FW_AMD_COMBO_ENTRY_SIZE, &entry, NULL);
	struct fw_node *n = fw_node_add(c->t, dir, FW_NODE_PSP_ENTRY, e->name, &entry, c->err);
	if (!n) {
		c->fatal = true;
		return;
	}
	n->ext = e;
	fw_layout_emit(c->t, n, &fw_amd_combo_entry_layout, c->img, at);
	follow(c, n, e->address, FW_AMD_ADDR_PHYSICAL, d->offset, "combo directory target");
}

static struct fw_node *decode_dir(struct amd_ctx *c, struct fw_node *parent, uint64_t off)
{
	const struct fw_view *v = c->img;
	uint32_t ck = cookie_at(v, off);
	bool combo = ck == FW_AMD_COOKIE_2PSP || ck == FW_AMD_COOKIE_2BHD;
	bool bios = ck == FW_AMD_COOKIE_BHD || ck == FW_AMD_COOKIE_BL2;
	size_t hdr = combo ? FW_AMD_COMBO_HEADER_SIZE : FW_AMD_DIR_HEADER_SIZE;
	size_t esize = combo ? FW_AMD_COMBO_ENTRY_SIZE : bios ? FW_AMD_BIOS_ENTRY_SIZE : FW_AMD_PSP_ENTRY_SIZE;
	char name[8];
	if (!fw_view_has(v, (size_t)off, hdr)) {
		fw_node_diag(c->t, parent, FW_DIAG_WARN, fw_view_abs(v, (size_t)off), "%s directory header runs past the image",
			     cookie_name(ck, name));
		return NULL;
	}
	struct fw_amd_dir *d = fw_arena_alloc(&c->t->arena, sizeof(*d));
	d->cookie = ck;
	d->combo = combo;
	d->bios = bios;
	d->level2 = ck == FW_AMD_COOKIE_PL2 || ck == FW_AMD_COOKIE_BL2;
	d->offset = off;
	d->checksum = fw_le32(v->p + off + 4);
	d->num_entries = fw_le32(v->p + off + 8);
	d->additional_info = fw_le32(v->p + off + 12);
	/* additional_info bits 29-30; an unset word (all ones) is an older directory */
	d->address_mode = (combo || d->additional_info == 0xFFFFFFFFu) ? FW_AMD_ADDR_PHYSICAL : (d->additional_info >> 29) & 3;
	/* Entries must fit the image, the directory's own size when AdditionalInfo gives one (bits 0-9,
	 * 4 KiB units), and the limit for directories without a size. */
	size_t room = (v->len - (size_t)off - hdr) / esize;
	const char *bound = "the image";
	char limit[64];
	uint32_t dir_size = combo || d->additional_info == 0xFFFFFFFFu ? 0 : (d->additional_info & 0x3FFu) * 0x1000u;
	if (dir_size > hdr && (dir_size - hdr) / esize < room) {
		room = (dir_size - hdr) / esize;
		bound = "the directory size AdditionalInfo gives";
	}
	if (room > FW_AMD_MAX_DIR_ENTRIES) {
		room = FW_AMD_MAX_DIR_ENTRIES;
		snprintf(limit, sizeof(limit), "the limit of %d entries per directory", FW_AMD_MAX_DIR_ENTRIES);
		bound = limit;
	}
	size_t n = d->num_entries <= room ? d->num_entries : room;
	struct fw_view dv;
	fw_rd_sub(v, (size_t)off, hdr + n * esize, &dv, NULL);
	struct fw_node *node = fw_node_add(c->t, parent, FW_NODE_PSP_DIRECTORY, fw_arena_strdup(&c->t->arena, cookie_name(ck, name)),
					   &dv, c->err);
	if (!node) {
		c->fatal = true;
		return NULL;
	}
	node->ext = d;
	node->header_size = (uint32_t)hdr;
	fw_layout_emit(c->t, node, combo ? &fw_amd_combo_layout : &fw_amd_dir_layout, v, (size_t)off);
	if (n < d->num_entries) {
		fw_node_diag(c->t, node, FW_DIAG_ERROR, dv.base, "%s directory: %u entries do not fit %s (%zu do)",
			     cookie_name(ck, name), d->num_entries, bound, n);
	} else {
		d->checksum_computed = fw_fletcher32(v->p + off + FW_AMD_DIR_CHECKSUM_START, dv.len - FW_AMD_DIR_CHECKSUM_START);
		d->checksum_ok = d->checksum_computed == d->checksum;
		fw_node_field_uint(c->t, node, "ChecksumComputed", d->checksum_computed, FW_FMT_HEX);
		fw_node_field_bool(c->t, node, "Checksum valid", d->checksum_ok);
		if (!d->checksum_ok) {
			node->flags |= FW_NODE_F_CHECKSUM_BAD;
			fw_node_diag(c->t, node, FW_DIAG_WARN, dv.base, "%s directory checksum is 0x%08X, Fletcher-32 gives 0x%08X",
				     cookie_name(ck, name), d->checksum, d->checksum_computed);
		}
	}
	if (!combo)
		fw_node_field_str(c->t, node, "AddressMode", mode_name(d->address_mode));
	if (c->nseen == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->seen = fw_xrealloc(c->seen, c->cap * sizeof(*c->seen));
	}
	c->seen[c->nseen].off = off;
	c->seen[c->nseen++].node = node;
	if (c->depth == MAX_STACK) {
		fw_node_diag(c->t, node, FW_DIAG_WARN, dv.base, "directories nest deeper than %d levels; not followed", MAX_STACK);
		return node;
	}
	c->stack[c->depth++] = off;
	for (size_t i = 0; i < n && !c->fatal; i++) {
		if (combo)
			decode_combo_entry(c, node, d, i);
		else
			decode_entry(c, node, d, i);
	}
	c->depth--;
	return node;
}

/* An EFS candidate counts when one of its pointers lands on a directory. */
static const unsigned efs_pointers[] = {EFS_NEW_PSP_DIRECTORY, EFS_PSP_DIRECTORY, EFS_BIOS0, EFS_BIOS1, EFS_BIOS2, EFS_BIOS3,
					EFS_PSP_BACKUP};

static bool efs_valid(struct amd_ctx *c, size_t off)
{
	if (!fw_view_has(c->img, off, FW_AMD_EFS_SIZE) || fw_le32(c->img->p + off) != FW_AMD_EFS_SIGNATURE)
		return false;
	for (size_t i = 0; i < sizeof(efs_pointers) / sizeof(efs_pointers[0]); i++) {
		uint64_t p = fw_layout_get(&fw_amd_efs_layout, c->img, off, efs_pointers[i]), t;
		if (!empty_pointer(p) && resolve(c, p, FW_AMD_ADDR_PHYSICAL, 0, &t) && is_cookie(cookie_at(c->img, t)))
			return true;
	}
	return false;
}

static bool parse_efs(struct amd_ctx *c, struct fw_node *image, size_t off)
{
	struct fw_view ev;
	fw_rd_sub(c->img, off, FW_AMD_EFS_SIZE, &ev, NULL);
	struct fw_node *n = fw_node_add(c->t, image, FW_NODE_REGION, "AMD EFS", &ev, c->err);
	if (!n)
		return false;
	struct fw_amd_efs *e = fw_arena_alloc(&c->t->arena, sizeof(*e));
	n->ext = e;
	n->name = "Embedded Firmware Structure";
	e->offset = off;
	e->psp = fw_le32(ev.p + 0x14);
	e->psp_legacy = fw_le32(ev.p + 0x10);
	e->bios[0] = fw_le32(ev.p + 0x18);
	e->bios[1] = fw_le32(ev.p + 0x1C);
	e->bios[2] = fw_le32(ev.p + 0x20);
	e->bios[3] = fw_le32(ev.p + 0x28);
	e->psp_backup = fw_le32(ev.p + 0x2C);
	uint32_t gen = fw_le32(ev.p + 0x24);
	e->second_gen = !(gen & 1);
	fw_layout_emit(c->t, n, &fw_amd_efs_layout, c->img, off);
	fw_node_field_str(c->t, n, "Generation", e->second_gen ? "second" : "first");
	c->window = c->img->len > WINDOW ? (off & ~(WINDOW - 1)) : 0;
	follow(c, n, e->psp, FW_AMD_ADDR_PHYSICAL, 0, "PSP directory pointer");
	if (e->psp_legacy != e->psp)
		follow(c, n, e->psp_legacy, FW_AMD_ADDR_PHYSICAL, 0, "legacy PSP directory pointer");
	for (int i = 0; i < 4; i++) {
		bool repeat = false;
		for (int k = 0; k < i; k++)
			repeat |= e->bios[k] == e->bios[i];
		if (!repeat)
			follow(c, n, e->bios[i], FW_AMD_ADDR_PHYSICAL, 0, "BIOS directory pointer");
	}
	follow(c, n, e->psp_backup, FW_AMD_ADDR_PHYSICAL, 0, "PSP backup directory pointer");
	return !c->fatal;
}

bool fw_amd_flash_parse(struct fw_tree *t, struct fw_node *image, const struct fw_view *v, struct fw_error *err)
{
	struct amd_ctx c = {.t = t, .img = v, .err = err};
	size_t found = 0;
	bool ok = true;
	for (size_t off = 0; off + FW_AMD_EFS_SIZE <= v->len && ok; off += 0x1000) {
		if (fw_le32(v->p + off) != FW_AMD_EFS_SIGNATURE)
			continue;
		c.window = v->len > WINDOW ? (off & ~(WINDOW - 1)) : 0;
		if (!efs_valid(&c, off))
			continue;
		if (found++ == MAX_EFS) {
			fw_node_diag(t, image, FW_DIAG_WARN, fw_view_abs(v, off), "more than %d AMD EFS copies; the rest are skipped",
				     MAX_EFS);
			break;
		}
		ok = parse_efs(&c, image, off);
	}
	free(c.seen);
	return ok;
}

bool fw_amd_entry_inflate(struct fw_tree *t, const struct fw_node *entry, struct fw_view *out, struct fw_error *err)
{
	struct fw_amd_entry *e = entry && entry->kind == FW_NODE_PSP_ENTRY ? entry->ext : NULL;
	if (!e || !e->located || !e->compressed)
		return fw_error_set(err, FW_E_UNSUPPORTED, "the entry is not a compressed entry inside the image");
	if (e->inflated.p) { /* inflated once */
		*out = e->inflated;
		return true;
	}
	if (e->inflate_error) {
		*err = *e->inflate_error;
		return false;
	}
	const struct fw_view *d = &entry->data;
	if (d->len <= FW_AMD_PSP_BLOB_HEADER_SIZE)
		return fw_error_set(err, FW_E_TRUNCATED, "compressed entry at 0x%llX: no data after its 0x100-byte header",
				    (unsigned long long)d->base);
	size_t in_len = d->len - FW_AMD_PSP_BLOB_HEADER_SIZE;
	uint32_t comp = fw_le32(d->p + 0x54);
	if (comp && comp <= in_len)
		in_len = comp;
	uint8_t *buf;
	size_t used;
	bool ok = fw_zlib_inflate(d->p + FW_AMD_PSP_BLOB_HEADER_SIZE, in_len, fw_tree_inflate_cap(t), &buf, &used, err);
	if (!ok)
		fw_tree_name_inflate_limit(t, err);
	else if (!fw_tree_account_decompressed(t, used, err)) {
		free(buf);
		ok = false;
	}
	if (!ok) {
		fw_error_prefix(err, "compressed entry at 0x%llX: ", (unsigned long long)d->base);
		e->inflate_error = fw_arena_memdup(&t->arena, err, sizeof(*err));
		return false;
	}
	fw_tree_own(t, buf, used);
	e->inflated = fw_view_make(buf, used, FW_OFFSET_UNKNOWN);
	*out = e->inflated;
	return true;
}

/* Unit tests for the parser core: bounded reader, GUIDs, layouts, sums, UCS-2, the node tree. */
#include "harness.h"
#include "parsers/arena.h"
#include "parsers/depex.h"
#include "parsers/fv.h"
#include "parsers/guid.h"
#include "parsers/hash.h"
#include "parsers/layout.h"
#include "parsers/node.h"
#include "parsers/section.h"
#include "tools/cli/tree-json.h"
#include "parsers/ucs2.h"
#include "parsers/utf8.h"
#include "parsers/view.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

TEST(view_reads_little_endian)
{
	const uint8_t b[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
	struct fw_view v = fw_view_make(b, sizeof(b), 0x100);
	uint16_t u16;
	uint32_t u24, u32;
	uint64_t u64;
	struct fw_error err;
	CHECK(fw_rd_u16(&v, 1, &u16, &err));
	CHECK_EQ(u16, 0x0302);
	CHECK(fw_rd_u24(&v, 0, &u24, &err));
	CHECK_EQ(u24, 0x030201);
	CHECK(fw_rd_u32(&v, 4, &u32, &err));
	CHECK_EQ(u32, 0x08070605);
	CHECK(fw_rd_u64(&v, 0, &u64, &err));
	CHECK_EQ(u64, 0x0807060504030201ULL);
}

TEST(view_rejects_out_of_range_and_overflow)
{
	const uint8_t b[4] = {0};
	struct fw_view v = fw_view_make(b, sizeof(b), 0x2000);
	uint32_t u32;
	struct fw_view sub;
	struct fw_error err;
	fw_error_clear(&err);
	CHECK(!fw_rd_u32(&v, 1, &u32, &err));
	CHECK_EQ(err.code, FW_E_TRUNCATED);
	CHECK(strstr(err.msg, "0x2001") != NULL);
	CHECK(!fw_rd_sub(&v, 2, SIZE_MAX, &sub, &err));
	CHECK(!fw_rd_sub(&v, SIZE_MAX, 2, &sub, &err));
	CHECK(fw_rd_sub(&v, 4, 0, &sub, &err));
	CHECK_EQ(sub.base, 0x2004);
	size_t off = 3;
	CHECK(!fw_size_inc(&off, SIZE_MAX, 4, &err));
}

TEST(view_unknown_base_stays_unknown)
{
	const uint8_t b[8] = {0};
	struct fw_view v = fw_view_make(b, sizeof(b), FW_OFFSET_UNKNOWN), sub;
	CHECK(fw_rd_sub(&v, 2, 4, &sub, NULL));
	CHECK_EQ(sub.base, FW_OFFSET_UNKNOWN);
}

TEST(guid_round_trip_and_byte_order)
{
	struct fw_guid g;
	char s[FW_GUID_STR_LEN];
	CHECK(fw_guid_parse("8C8CE578-8A3D-4F1C-9935-896185C32DD3", &g));
	const uint8_t disk[16] = {0x78, 0xE5, 0x8C, 0x8C, 0x3D, 0x8A, 0x1C, 0x4F,
				  0x99, 0x35, 0x89, 0x61, 0x85, 0xC3, 0x2D, 0xD3};
	CHECK(memcmp(g.b, disk, 16) == 0);
	CHECK_STR(fw_guid_format(&g, s), "8C8CE578-8A3D-4F1C-9935-896185C32DD3");
	CHECK_STR(fw_guid_format_lower(&g, s), "8c8ce578-8a3d-4f1c-9935-896185c32dd3");
	CHECK(fw_guid_parse("{ec87d643-eba4-4bb5-a1e5-3f3e36b20da9}", &g));
	CHECK(!fw_guid_parse("EC87D643-EBA4-4BB5-A1E5-3F3E36B20DA", &g));
	CHECK(!fw_guid_parse("EC87D643XEBA4-4BB5-A1E5-3F3E36B20DA9", &g));
	CHECK(fw_guid_eq(&fw_guid_ffs2, &(struct fw_guid)FW_GUID_INIT(0x8C8CE578, 0x8A3D, 0x4F1C, 0x99, 0x35, 0x89, 0x61, 0x85, 0xC3, 0x2D, 0xD3)));
}

TEST(guid_name_table)
{
	struct fw_guid g;
	CHECK(fw_guid_parse("899407D7-99FE-43D8-9A21-79EC328CAC21", &g));
	CHECK_STR(fw_guid_name(&g), "Setup");
	CHECK(fw_guid_parse("E369E9DE-DC16-4F58-AC7B-088EA6DD5566", &g));
	CHECK_STR(fw_guid_name(&g), "CbsSetupDxeSHP");
	CHECK(fw_guid_parse("00000000-0000-0000-0000-000000000001", &g));
	CHECK(fw_guid_name(&g) == NULL);
	const struct fw_guid_name *n = fw_guid_lookup_name("AMITSE");
	CHECK(n != NULL);
	CHECK(n->source != NULL && n->source[0]);
	/* every entry has a kind and a source */
	for (size_t i = 0; i < fw_guid_table_size(); i++) {
		const struct fw_guid_name *e = fw_guid_table_at(i);
		CHECK_MSG(e->kind[0] && e->source[0], "entry %s lacks kind or source", e->name);
	}
}

TEST(layout_decode_and_encode_agree)
{
	uint8_t fvh[FW_FVH_SIZE] = {0};
	fw_layout_put_guid(&fw_fvh_layout, fvh, FVH_FILE_SYSTEM_GUID, &fw_guid_ffs2);
	fw_layout_put(&fw_fvh_layout, fvh, FVH_LENGTH, 0x80000);
	fw_layout_put(&fw_fvh_layout, fvh, FVH_SIGNATURE, FW_FVH_SIGNATURE);
	fw_layout_put(&fw_fvh_layout, fvh, FVH_ATTRIBUTES, 0x4FEFF);
	fw_layout_put(&fw_fvh_layout, fvh, FVH_REVISION, 2);
	CHECK(memcmp(fvh + 0x28, "_FVH", 4) == 0);
	struct fw_view v = fw_view_make(fvh, sizeof(fvh), 0);
	CHECK(fw_layout_check(&fw_fvh_layout, &v, 0, NULL));
	CHECK(!fw_layout_check(&fw_fvh_layout, &v, 1, NULL));
	CHECK_EQ(fw_layout_get(&fw_fvh_layout, &v, 0, FVH_LENGTH), 0x80000);
	CHECK_EQ(fw_layout_get(&fw_fvh_layout, &v, 0, FVH_REVISION), 2);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_node *n = fw_node_add(t, NULL, FW_NODE_VOLUME, "FFSv2", &v, NULL);
	fw_layout_emit(t, n, &fw_fvh_layout, &v, 0);
	const struct fw_field_value *f = fw_node_field_get(n, "Attributes flags");
	CHECK(f != NULL);
	CHECK_STR(f->v.s, "READ_DISABLED_CAP|READ_ENABLED_CAP|READ_STATUS|WRITE_DISABLED_CAP|WRITE_ENABLED_CAP|"
			  "WRITE_STATUS|LOCK_CAP|LOCK_STATUS|STICKY_WRITE|MEMORY_MAPPED|ERASE_POLARITY|READ_LOCK_CAP|"
			  "READ_LOCK_STATUS|WRITE_LOCK_CAP|WRITE_LOCK_STATUS|0x40000");
	CHECK(fw_node_field_get(n, "Signature") == NULL); /* hidden */
	fw_tree_free(t);
}

/* A small structure with every kind of field: a nested one, an enum with and without a name,
 * flags, bit fields, text, bytes, a GUID and a hidden field. */
static const struct fw_named_value lazy_kinds[] = {{1, "one"}, {0, NULL}};
static const struct fw_bitfield lazy_flag_bits[] = {FW_FLAG("A", 0x1), FW_FLAG("B", 0x4)};
static const struct fw_bitfields lazy_flags = FW_BITFIELDS(lazy_flag_bits);
static const struct fw_bitfield lazy_reg_bits[] = {{"Lo", 0, 4, NULL}, {"Hi", 4, 4, NULL}};
static const struct fw_bitfields lazy_reg = FW_BITFIELDS(lazy_reg_bits);
static const struct fw_field lazy_inner_fields[] = {
	{"Kind", FW_FT_U8, 0, 0, FW_FF_ENUM, lazy_kinds},
	{"Tag", FW_FT_CHARS, 1, 4, 0, NULL},
};
static const struct fw_layout lazy_inner = FW_LAYOUT("inner", 5, lazy_inner_fields);
static const struct fw_field lazy_fields[] = {
	{"Id", FW_FT_GUID, 0, 0, 0, NULL},
	{"Size", FW_FT_U24, 16, 0, FW_FF_HEX, NULL},
	{"Flags", FW_FT_U16, 19, 0, FW_FF_FLAGS, &lazy_flags},
	{"Reg", FW_FT_U8, 21, 0, FW_FF_BITS, &lazy_reg},
	{"Reserved", FW_FT_U8, 22, 0, FW_FF_HIDDEN, NULL},
	{"Inner", FW_FT_STRUCT, 23, 5, 0, &lazy_inner},
	{"Other", FW_FT_STRUCT, 28, 5, 0, &lazy_inner},
	{"Raw", FW_FT_BYTES, 33, 2, 0, NULL},
	{"Count", FW_FT_U64, 35, 0, 0, NULL},
};
static const struct fw_layout lazy_layout = FW_LAYOUT("lazy", 43, lazy_fields);

static size_t field_lines(const struct fw_node *n, char *out, size_t len)
{
	struct fw_field_iter it;
	size_t used = 0, count = 0;
	out[0] = '\0';
	for (const struct fw_field_value *f = fw_field_first(&it, n); f && used < len; f = fw_field_next(&it)) {
		char v[128];
		fw_field_text(f, v, sizeof(v));
		used += (size_t)snprintf(out + used, len - used, "%s=%s;", f->key, v);
		count++;
	}
	return count;
}

TEST(layout_fields_read_from_the_bytes_match_stored_ones)
{
	uint8_t b[43] = {0};
	struct fw_guid g;
	CHECK(fw_guid_parse("8C8CE578-8A3D-4F1C-9935-896185C32DD3", &g));
	memcpy(b, g.b, 16);
	b[16] = 0x34, b[17] = 0x12, b[18] = 0x01;       /* Size 0x11234 */
	b[19] = 0x0D;                                   /* Flags A|B|0x8 */
	b[21] = 0x52;                                   /* Reg Lo=2 Hi=5 */
	b[22] = 0x77;                                   /* hidden */
	b[23] = 1, memcpy(b + 24, "AB  ", 4);           /* Inner: one, "AB" */
	b[28] = 9, memcpy(b + 29, "x\001y", 3);         /* Other: no name for 9 */
	b[33] = 0xDE, b[34] = 0xAD;                     /* Raw */
	b[35] = 0x88, b[42] = 0x01;                     /* Count */
	/* the tree holds the bytes (its input): the node keeps the layout, read when asked */
	struct fw_tree *held = fw_tree_new(NULL);
	held->input = b;
	held->input_len = sizeof(b);
	struct fw_view v = fw_view_make(b, sizeof(b), 0);
	struct fw_node *a = fw_node_add(held, NULL, FW_NODE_FILE, "t", &v, NULL);
	size_t before = held->arena.used_total;
	fw_layout_emit(held, a, &lazy_layout, &v, 0);
	fw_node_field_bool(held, a, "After", true);
	CHECK(held->arena.used_total - before <= 64); /* two records, no copies */
	/* bytes the tree does not hold (a scratch copy): the fields are stored at once */
	uint8_t copy[sizeof(b)];
	memcpy(copy, b, sizeof(b));
	struct fw_tree *scratch = fw_tree_new(NULL);
	struct fw_view cv = fw_view_make(copy, sizeof(copy), 0);
	struct fw_node *c = fw_node_add(scratch, NULL, FW_NODE_FILE, "t", &cv, NULL);
	fw_layout_emit(scratch, c, &lazy_layout, &cv, 0);
	fw_node_field_bool(scratch, c, "After", true);
	memset(copy, 0xEE, sizeof(copy)); /* the stored fields no longer need the bytes */
	char lazy[1024], stored[1024];
	CHECK_EQ(field_lines(a, lazy, sizeof(lazy)), 14);
	CHECK_EQ(field_lines(c, stored, sizeof(stored)), 14);
	CHECK_STR(lazy, "Id=8C8CE578-8A3D-4F1C-9935-896185C32DD3;Size=0x11234;Flags=0xD;Flags flags=A|B|0x8;"
			"Reg=0x52;Reg bits=Lo=2 Hi=5;Inner.Kind=1;Inner.Kind name=one;Inner.Tag=AB;Other.Kind=9;"
			"Other.Tag=x.y;Raw=dead;Count=72057594037928072;After=true;");
	CHECK_STR(stored, lazy);
	/* lookups answer from the bytes too, and several live at once */
	const struct fw_field_value *k = fw_node_field_get(a, "Inner.Kind name");
	const struct fw_field_value *fl = fw_node_field_get(a, "Flags flags");
	CHECK(k && fl);
	CHECK_STR(k->v.s, "one");
	CHECK_STR(k->key, "Inner.Kind name");
	CHECK_STR(fl->v.s, "A|B|0x8");
	CHECK_EQ(fw_node_field_get(a, "Size")->fmt, FW_FMT_HEX);
	CHECK(fw_node_field_get(a, "Reserved") == NULL);
	CHECK(fw_node_field_get(a, "Other.Kind name") == NULL);
	CHECK(fw_tree_holds(held, b + 40, 3));
	CHECK(!fw_tree_holds(held, b + 40, 4));
	CHECK(!fw_tree_holds(scratch, copy, 1));
	fw_tree_free(held);
	fw_tree_free(scratch);
}

TEST(last_child_found_when_parents_take_turns)
{
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_error err;
	struct fw_node *root = fw_node_add(t, NULL, FW_NODE_IMAGE, "r", NULL, &err);
	struct fw_node *p = fw_node_add(t, root, FW_NODE_VOLUME, "p", NULL, &err);
	struct fw_node *q = fw_node_add(t, root, FW_NODE_VOLUME, "q", NULL, &err);
	struct fw_node *p1 = fw_node_add(t, p, FW_NODE_FILE, "p1", NULL, &err);
	struct fw_node *q1 = fw_node_add(t, q, FW_NODE_FILE, "q1", NULL, &err);
	/* q took the record of depth 2: p's tail is found by walking its children */
	CHECK(fw_node_last_child(t, p) == p1);
	struct fw_node *p2 = fw_node_add(t, p, FW_NODE_FILE, "p2", NULL, &err);
	CHECK(fw_node_last_child(t, p) == p2 && p1->next == p2 && p->nchildren == 2);
	CHECK(fw_node_last_child(t, q) == q1 && q1->next == NULL);
	CHECK(fw_node_last_child(t, root) == q && fw_node_last_child(t, p1) == NULL);
	fw_tree_free(t);
}

TEST(sums_and_fletcher)
{
	const uint8_t b[] = {0x01, 0x02, 0xFD};
	CHECK_EQ(fw_sum8(b, 3), 0);
	const uint8_t w[] = {0x01, 0x00, 0xFF, 0xFF};
	CHECK_EQ(fw_sum16(w, 4), 0);
	/* Fletcher-32 over the words 0x0001, 0x0002 with 0xFFFF seeds: c0 = 0x10002 -> 0x0003,
	 * c1 = 0xFFFF + 0x10000 + 0x10002 -> folded 0x0004 */
	const uint8_t f[] = {0x01, 0x00, 0x02, 0x00};
	CHECK_EQ(fw_fletcher32(f, 4), 0x00040003);
	CHECK_EQ(fw_crc32((const uint8_t *)"123456789", 9), 0xCBF43926);
	char hex[FW_SHA256_HEX_LEN];
	CHECK_STR(fw_sha256_hex((const uint8_t *)"abc", 3, hex),
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ucs2_conversion)
{
	const uint8_t s[] = {'S', 0, 'e', 0, 't', 0, 0xE9, 0, 0xF0, 0xFF, 0x2C, 0x20, 0, 0};
	bool term = false;
	CHECK_EQ(fw_ucs2_len(s, 7, &term), 6);
	CHECK(term);
	char *u = fw_ucs2_to_utf8(s, 6);
	CHECK_STR(u, "Set\xC3\xA9\xE2\x80\xAC");
	free(u);
	size_t units;
	uint8_t *back = fw_utf8_to_ucs2("Set\xC3\xA9", &units);
	CHECK_EQ(units, 5);
	CHECK(memcmp(back, s, 8) == 0);
	free(back);
}

TEST(node_tree_limits)
{
	struct fw_limits l = fw_limits_default();
	l.max_depth = 2;
	l.max_nodes = 4;
	struct fw_tree *t = fw_tree_new(&l);
	struct fw_error err;
	fw_error_clear(&err);
	struct fw_node *a = fw_node_add(t, NULL, FW_NODE_IMAGE, "UEFI", NULL, &err);
	struct fw_node *b = fw_node_add(t, a, FW_NODE_VOLUME, "FFSv2", NULL, &err);
	struct fw_node *c = fw_node_add(t, b, FW_NODE_FILE, "Raw", NULL, &err);
	CHECK(a && b && c);
	CHECK(fw_node_add(t, c, FW_NODE_SECTION, "Raw", NULL, &err) == NULL);
	CHECK_EQ(err.code, FW_E_LIMIT);
	CHECK(fw_node_add(t, a, FW_NODE_PADDING, "Empty", NULL, &err) != NULL);
	CHECK(fw_node_add(t, a, FW_NODE_PADDING, "Empty", NULL, &err) == NULL);
	CHECK_EQ(t->node_count, 4);
	CHECK(fw_tree_account_decompressed(t, 10, &err));
	CHECK(!fw_tree_account_decompressed(t, l.max_decompressed_one + 1, &err));
	fw_tree_free(t);
}

/* Text for JSON and XML: valid UTF-8 passes untouched (the same pointer, nothing allocated);
 * invalid sequences, overlong forms and surrogates become U+FFFD; for XML so do the control
 * characters XML 1.0 forbids. */
TEST(utf8_clean_and_view)
{
	char *owned;
	const char *ok = "Setup \xC3\xA9t\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x94\x92\ttab";
	CHECK(fw_utf8_clean_view(ok, true, &owned) == ok && owned == NULL);
	const char *bad[][3] = {
		/* input, cleaned for JSON, cleaned for XML */
		{"a\xFF" "b", "a\xEF\xBF\xBD" "b", "a\xEF\xBF\xBD" "b"},
		{"\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD", "\xEF\xBF\xBD\xEF\xBF\xBD"}, /* overlong '/' */
		{"\xED\xA0\x80x", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDx", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDx"},
		{"bell\x07", "bell\x07", "bell\xEF\xBF\xBD"},
		{"\xEF\xBF\xBE", "\xEF\xBF\xBE", "\xEF\xBF\xBD"}, /* U+FFFE */
		{"cut \xE2\x86", "cut \xEF\xBF\xBD\xEF\xBF\xBD", "cut \xEF\xBF\xBD\xEF\xBF\xBD"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (int xml = 0; xml < 2; xml++) {
			const char *want = bad[i][1 + xml];
			char *c = fw_utf8_clean(bad[i][0], xml);
			CHECK_MSG(strcmp(c, want) == 0, "case %zu xml %d: clean", i, xml);
			free(c);
			const char *v = fw_utf8_clean_view(bad[i][0], xml, &owned);
			CHECK_MSG(strcmp(v, want) == 0, "case %zu xml %d: view", i, xml);
			CHECK_MSG((owned != NULL) == (strcmp(bad[i][0], want) != 0), "case %zu xml %d: allocation", i, xml);
			free(owned);
		}
	}
}

/* JSON member names of node fields: snake_case from the human names the text output keeps. */
TEST(json_member_names_are_snake_case)
{
	static const char *cases[][2] = {
		{"Checksum valid", "checksum_valid"}, {"ApcbChecksum valid", "apcb_checksum_valid"},
		{"HeaderChecksumValid", "header_checksum_valid"}, {"FvLength", "fv_length"},
		{"Guid[12]", "guid_12"}, {"RootKeySha256[0]", "root_key_sha256_0"}, {"SPIMode", "spi_mode"},
		{"FLREG3", "flreg3"}, {"BiosDirectory2", "bios_directory2"}, {"Attributes flags", "attributes_flags"},
		{"already_snake", "already_snake"}, {"  --", "_"}, {"CheckSum", "check_sum"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *n = fw_json_member_name(cases[i][0]);
		CHECK_STR(n, cases[i][1]);
		free(n);
	}
}

/* One description of bits, two ways of writing it: FLAGS ("A|B|0x..", a field named when all its
 * bits are set) and BITS ("A N=2 reserved=0x.."). */
TEST(bits_one_description_two_writings)
{
	static const struct fw_bitfield bits[] = {FW_FLAG("ERASE_POLARITY", 0x800), FW_FLAG("READ_STATUS", 0x4),
						  FW_FLAG("Level", 0x30)};
	static const struct fw_bitfields set = FW_BITFIELDS(bits);
	char buf[128];
	CHECK_EQ(bits[2].lsb, 4);
	CHECK_EQ(bits[2].width, 2);
	CHECK_STR(fw_flags_str(&set, 0x8804, buf, sizeof(buf)), "ERASE_POLARITY|READ_STATUS|0x8000");
	/* a two-bit field is a flag only when both bits are set */
	CHECK_STR(fw_flags_str(&set, 0x10, buf, sizeof(buf)), "0x10");
	CHECK_STR(fw_flags_str(&set, 0x30, buf, sizeof(buf)), "Level");
	CHECK_STR(fw_flags_str(&set, 0, buf, sizeof(buf)), "");
	CHECK_STR(fw_bitfields_str(0x8824, &set, buf, sizeof(buf)), "ERASE_POLARITY READ_STATUS Level=2 reserved=0x8000");
}

/* Arena memory is zeroed, 16-byte aligned and never shared, across blocks that grow (64 KiB
 * doubling to 4 MiB; from 2 MiB on huge-page blocks), one-off blocks bigger than that, and room
 * populated ahead of use. */
TEST(arena_zeroed_aligned_and_distinct)
{
	struct fw_arena a;
	fw_arena_init(&a);
	enum { N = 3000 };
	static unsigned char *p[N];
	static size_t len[N];
	size_t total = 0, rounded = 0;
	for (size_t i = 0; i < N; i++) {
		len[i] = i == 1000 ? 5u << 20 : i == 2000 ? (64u << 10) + 1 : 1 + (i * 7919) % 9000;
		p[i] = fw_arena_alloc(&a, len[i]);
		total += len[i];
		rounded += (len[i] + 15) & ~(size_t)15;
		CHECK_EQ((uintptr_t)p[i] % 16, 0);
		size_t nonzero = 0;
		for (size_t k = 0; k < len[i]; k++)
			nonzero += p[i][k] != 0;
		CHECK_EQ(nonzero, 0);
		memset(p[i], (int)(i % 251) + 1, len[i]);
	}
	CHECK(a.used_total >= total && a.used_total <= rounded); /* the bytes and their alignment */
	size_t wrong = 0;
	for (size_t i = 0; i < N; i++)
		for (size_t k = 0; k < len[i]; k++)
			wrong += p[i][k] != (unsigned char)((i % 251) + 1);
	CHECK_EQ(wrong, 0);
	CHECK_STR(fw_arena_strndup(&a, "abcdef", 3), "abc");
	fw_arena_free(&a);
	CHECK(a.head == NULL && a.used_total == 0);
}

TEST(tree_interns_equal_strings)
{
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_error err;
	struct fw_node *a = fw_node_add(t, NULL, FW_NODE_FILE, "t", NULL, &err);
	struct fw_node *b = fw_node_add(t, a, FW_NODE_FILE, "t", NULL, &err);
	char v1[] = "EFI_FV_FILETYPE_DRIVER", v2[] = "EFI_FV_FILETYPE_DRIVER";
	fw_node_field_str(t, a, "Type name", v1);
	fw_node_field_str(t, b, "Type name", v2);
	const struct fw_field_value *f1 = fw_node_field_get(a, "Type name");
	const struct fw_field_value *f2 = fw_node_field_get(b, "Type name");
	/* one copy, not the caller's buffer */
	CHECK(f1->v.s == f2->v.s);
	CHECK(f1->v.s != v1);
	CHECK_STR(f2->v.s, "EFI_FV_FILETYPE_DRIVER");
	/* a prefix is another string; the cut at max bytes is its own entry */
	CHECK(fw_tree_intern(t, "EFI_FV", 64) != f1->v.s);
	CHECK_STR(fw_tree_intern(t, "EFI_FV_FILETYPE_DRIVER", 6), "EFI_FV");
	CHECK(fw_tree_intern(t, "EFI_FV_FILETYPE_DRIVER", 6) == fw_tree_intern(t, "EFI_FV", 64));
	/* past the table's first size (256 slots, half full) every string still finds its copy */
	const char *first[400];
	for (int i = 0; i < 400; i++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "name %d", i);
		first[i] = fw_tree_intern(t, buf, 64);
	}
	for (int i = 0; i < 400; i++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "name %d", i);
		CHECK(fw_tree_intern(t, buf, 64) == first[i]);
		CHECK_STR(first[i], buf);
	}
	/* fields keep insertion order and their values */
	fw_node_field_uint(t, b, "Size", 0x1234, FW_FMT_HEX);
	const struct fw_field_value *sz = fw_node_field_get(b, "Size");
	CHECK_EQ(sz->type, FW_VAL_UINT);
	CHECK_EQ(sz->fmt, FW_FMT_HEX);
	CHECK_EQ(sz->v.u, 0x1234);
	struct fw_field_iter it;
	CHECK_STR(fw_field_first(&it, b)->key, "Type name");
	CHECK(fw_field_next(&it) && fw_field_next(&it) == NULL); /* Size, and no more */
	fw_tree_free(t);
}

TEST(arena_packs_strings_and_aligns_records)
{
	struct fw_arena a;
	fw_arena_init(&a);
	char *s1 = fw_arena_strdup(&a, "ab");
	char *s2 = fw_arena_strdup(&a, "c");
	CHECK(s2 == s1 + 3); /* strings byte by byte */
	void *r8 = fw_arena_alloc_small(&a, 40);
	CHECK_EQ((uintptr_t)r8 % 8, 0);
	CHECK(r8 == s1 + 8);
	char *s3 = fw_arena_strdup(&a, "x");
	void *r16 = fw_arena_alloc(&a, 16);
	CHECK_EQ((uintptr_t)r16 % 16, 0);
	CHECK(s3 == (char *)r8 + 40);
	/* a big one-off block leaves the head's free room to later small ones */
	uint8_t *big = fw_arena_alloc(&a, 200000);
	CHECK_EQ(big[199999], 0);
	void *after = fw_arena_alloc_small(&a, 8);
	CHECK(after == (char *)r16 + 16);
	CHECK_EQ(a.used_total, 3 + 2 + 3 + 40 + 2 + 14 + 16 + 200000 + 8); /* with the padding */
	fw_arena_free(&a);
}

TEST(depex_text_and_cut)
{
	/* PUSH g1 PUSH g2 AND PUSH g1 NOT OR END: one GUID named by the table, one not */
	uint8_t b[64];
	size_t n = 0;
	const struct fw_guid unnamed = {{0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF, 0x00}};
	b[n++] = FW_DEPEX_PUSH;
	memcpy(b + n, unnamed.b, 16);
	n += 16;
	b[n++] = FW_DEPEX_TRUE;
	b[n++] = FW_DEPEX_AND;
	b[n++] = FW_DEPEX_PUSH;
	memcpy(b + n, unnamed.b, 16);
	n += 16;
	b[n++] = FW_DEPEX_NOT;
	b[n++] = FW_DEPEX_OR;
	b[n++] = FW_DEPEX_END;
	char out[FW_DEPEX_TEXT_MAX], msg[160];
	CHECK_STR(fw_depex_text(b, n, out, msg, sizeof(msg)),
		  "(44332211-6655-8877-99AA-BBCCDDEEFF00 AND TRUE) OR NOT 44332211-6655-8877-99AA-BBCCDDEEFF00");
	CHECK_STR(msg, "");
	/* 80 GUIDs ANDed pass FW_DEPEX_TEXT_MAX: cut with "..." */
	uint8_t *lb = malloc(80 * 18 + 1);
	size_t ln = 0;
	for (int i = 0; i < 80; i++) {
		lb[ln++] = FW_DEPEX_PUSH;
		memcpy(lb + ln, unnamed.b, 16);
		ln += 16;
		if (i)
			lb[ln++] = FW_DEPEX_AND;
	}
	lb[ln++] = FW_DEPEX_END;
	const char *cut = fw_depex_text(lb, ln, out, msg, sizeof(msg));
	CHECK_EQ(strlen(cut), FW_DEPEX_TEXT_MAX - 1);
	CHECK_STR(cut + FW_DEPEX_TEXT_MAX - 4, "...");
	CHECK_STR(msg, "");
	free(lb);
	/* a broken stream: the text so far and what is wrong */
	const uint8_t bad[] = {FW_DEPEX_TRUE, FW_DEPEX_AND, FW_DEPEX_END};
	CHECK_STR(fw_depex_text(bad, sizeof(bad), out, msg, sizeof(msg)), "TRUE");
	CHECK_STR(msg, "AND at offset 0x1 needs two operands");
}

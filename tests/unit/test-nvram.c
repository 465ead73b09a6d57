/* NVRAM stores: AMI NVAR, EDK2 VSS/VSS2 and FTW, efivarfs files, folders and tar archives, and
 * Secure Boot signature databases. Hand-built stores pin every record form and broken input;
 * the corpus tests compare with the oracles (the YADRO expected JSON, UEFIExtract's report of
 * OVMF_VARS, openssl's reading of the OVMF certificates, the WRX90E and T100TA notes). */
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "parsers/hash.h"
#include "parsers/nvar.h"
#include "parsers/nvram.h"
#include "parsers/sigdb.h"
#include "parsers/tar.h"
#include "parsers/vss.h"

/* ---- a small NVAR store builder ------------------------------------------------------------ */

struct nb {
	uint8_t buf[1024];
	size_t len, store_len;
};

static size_t nb_record(struct nb *b, uint8_t attr, int guid_index, const struct fw_guid *g, const char *name,
			const void *data, size_t data_len, uint32_t next, const uint8_t *ext, size_t ext_len)
{
	size_t start = b->len, p = start + FW_NVAR_HEADER_SIZE;
	memcpy(b->buf + start, "NVAR", 4);
	if (!(attr & FW_NVAR_ATTR_DATA_ONLY)) {
		if (attr & FW_NVAR_ATTR_GUID) {
			memcpy(b->buf + p, g->b, 16);
			p += 16;
		} else {
			b->buf[p++] = (uint8_t)guid_index;
		}
		if (attr & FW_NVAR_ATTR_ASCII_NAME) {
			memcpy(b->buf + p, name, strlen(name) + 1);
			p += strlen(name) + 1;
		} else {
			for (size_t i = 0; i <= strlen(name); i++) {
				b->buf[p++] = (uint8_t)name[i];
				b->buf[p++] = 0;
			}
		}
	}
	memcpy(b->buf + p, data, data_len);
	p += data_len;
	if (ext_len)
		memcpy(b->buf + p, ext, ext_len);
	p += ext_len;
	fw_put_le16(b->buf + start + 4, (uint16_t)(p - start));
	fw_put_le24(b->buf + start + 6, next);
	b->buf[start + 9] = attr;
	b->len = p;
	return start;
}

static void nb_finish(struct nb *b, size_t store_len, const struct fw_guid *guids, size_t nguids)
{
	memset(b->buf + b->len, 0xFF, store_len - b->len);
	for (size_t i = 0; i < nguids; i++)
		memcpy(b->buf + store_len - 16 * (i + 1), guids[i].b, 16);
	b->store_len = store_len;
}

static const struct fw_guid g_setup = FW_GUID_INIT(0xEC87D643, 0xEBA4, 0x4BB5, 0xA1, 0xE5, 0x3F, 0x3E, 0x36, 0xB2, 0x0D, 0xA9);
static const struct fw_guid g_global = FW_GUID_INIT(0x8BE4DF61, 0x93CA, 0x11D2, 0xAA, 0x0D, 0x00, 0xE0, 0x98, 0x03, 0x2B, 0x8C);

static struct fw_node *child_at(struct fw_node *n, unsigned i)
{
	struct fw_node *c = n ? n->first_child : NULL;
	while (c && i--)
		c = c->next;
	return c;
}

static struct fw_variable *var_at(struct fw_node *store, unsigned i)
{
	struct fw_node *c = child_at(store, i);
	return c && c->kind == FW_NODE_VARIABLE ? c->ext : NULL;
}

static bool has_diag(const struct fw_node *n, const char *text)
{
	for (const struct fw_diag *d = n->diags; d; d = d->next)
		if (strstr(d->msg, text))
			return true;
	return false;
}

TEST(nvar_full_link_data_deleted_and_guid_store)
{
	struct nb b = {0};
	const uint8_t v1[] = {1, 2, 3}, v2[] = {4, 5, 6}, v3[] = {7, 8, 9}, x[] = {0xAA};
	/* 0: Setup, full, linked to 2 which links to 3 (the live data) */
	size_t r0 = nb_record(&b, 0x83, 0, NULL, "Setup", v1, 3, 0, NULL, 0);
	/* 1: Timeout, UCS-2 name, inline GUID, not runtime */
	nb_record(&b, 0x80 | FW_NVAR_ATTR_GUID, 0, &g_global, "Timeout", x, 1, FW_NVAR_NEXT_NONE, NULL, 0);
	size_t r2 = nb_record(&b, 0x88, 0, NULL, NULL, v2, 3, 0, NULL, 0);
	size_t r3 = nb_record(&b, 0x88, 0, NULL, NULL, v3, 3, FW_NVAR_NEXT_NONE, NULL, 0);
	/* 4: deleted (VALID clear) */
	nb_record(&b, 0x03, 1, NULL, "Gone", x, 1, FW_NVAR_NEXT_NONE, NULL, 0);
	/* 5: a data record no variable links to */
	nb_record(&b, 0x88, 0, NULL, NULL, x, 1, FW_NVAR_NEXT_NONE, NULL, 0);
	fw_put_le24(b.buf + r0 + 6, (uint32_t)(r2 - r0));
	fw_put_le24(b.buf + r2 + 6, (uint32_t)(r3 - r2));
	const struct fw_guid guids[] = {g_setup, g_global};
	nb_finish(&b, 256, guids, 2);

	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(b.buf, b.store_len, 0x1000);
	struct fw_error err;
	CHECK(fw_nvar_parse_store(t, NULL, &v, &err));
	struct fw_node *s = t->root;
	CHECK_EQ(s->kind, FW_NODE_NVRAM_STORE);
	CHECK_STR(s->type, "NVAR");
	CHECK_EQ(s->nchildren, 8); /* 6 records, free space, GUID store */

	struct fw_variable *a = var_at(s, 0), *tmo = var_at(s, 1), *l2 = var_at(s, 2), *l3 = var_at(s, 3),
			   *gone = var_at(s, 4), *orphan = var_at(s, 5);
	CHECK(a && tmo && l2 && l3 && gone && orphan);
	CHECK_STR(a->name, "Setup");
	CHECK(fw_guid_eq(&a->guid, &g_setup));
	CHECK_EQ(a->state, FW_VAR_STATE_DELETED); /* superseded by its links */
	CHECK_STR(child_at(s, 0)->type, "Link");
	CHECK_EQ(l2->state, FW_VAR_STATE_DELETED);
	CHECK_STR(child_at(s, 2)->type, "Link");
	CHECK_EQ(l3->state, FW_VAR_STATE_VALID);
	CHECK_STR(child_at(s, 3)->type, "Data");
	CHECK_STR(l3->name, "Setup");
	CHECK(fw_guid_eq(&l3->guid, &g_setup));
	CHECK_EQ(l3->attributes, 0x07); /* NV+BS+RT from the head record */
	CHECK_EQ(l3->size, 3);
	CHECK(memcmp(l3->data, v3, 3) == 0);
	CHECK_EQ(l3->offset, 0x1000 + r3);
	CHECK_STR(l3->store, "NVAR");

	CHECK_STR(tmo->name, "Timeout");
	CHECK(fw_guid_eq(&tmo->guid, &g_global));
	CHECK_EQ(tmo->attributes, 0x03);
	CHECK_EQ(tmo->state, FW_VAR_STATE_VALID);
	CHECK_STR(child_at(s, 1)->type, "Full");
	CHECK_STR(child_at(s, 1)->text, "EFI_GLOBAL_VARIABLE");

	CHECK_STR(gone->name, "Gone");
	CHECK(fw_guid_eq(&gone->guid, &g_global)); /* index 1 = second GUID from the end */
	CHECK_EQ(gone->state, FW_VAR_STATE_DELETED);
	CHECK_STR(child_at(s, 4)->type, "Invalid");
	CHECK_EQ(orphan->state, FW_VAR_STATE_INVALID);
	CHECK_STR(child_at(s, 5)->type, "Invalid link");

	CHECK_EQ(child_at(s, 6)->kind, FW_NODE_FREE_SPACE);
	struct fw_node *gs = child_at(s, 7);
	CHECK_STR(gs->type, "NVAR GUID store");
	CHECK_EQ(gs->offset, 0x1000 + 256 - 32);
	CHECK_EQ(fw_node_field_get(gs, "GuidCount")->v.u, 2);

	struct fw_varlist live = {0};
	fw_nvram_collect(t->root, false, &live);
	CHECK_EQ(live.count, 2);
	const struct fw_variable *found = fw_nvram_find(&live, "Setup", &g_setup);
	CHECK(found == l3);
	fw_varlist_free(&live);
	fw_nvram_collect(t->root, true, &live);
	CHECK_EQ(live.count, 6);
	fw_varlist_free(&live);
	fw_tree_free(t);
}

TEST(nvar_extended_header_checksum_and_auth)
{
	struct nb b = {0};
	const uint8_t d[] = {0x11, 0x22};
	/* ExtFlags CHECKSUM, checksum byte, ExtSize 4 */
	uint8_t ext[4] = {FW_NVAR_EXT_CHECKSUM, 0, 4, 0};
	size_t r0 = nb_record(&b, 0x80 | FW_NVAR_ATTR_ASCII_NAME | FW_NVAR_ATTR_EXT_HEADER, 0, NULL, "Sum", d, 2,
			      FW_NVAR_NEXT_NONE, ext, sizeof(ext));
	uint16_t size = fw_le16(b.buf + r0 + 4);
	uint8_t sum = (uint8_t)(b.buf[r0 + 4] + b.buf[r0 + 5] + b.buf[r0 + 9]);
	for (size_t i = FW_NVAR_HEADER_SIZE; i < size; i++)
		sum = (uint8_t)(sum + b.buf[r0 + i]);
	b.buf[r0 + size - 3] = (uint8_t)(0 - sum);
	/* the same record with a wrong checksum */
	size_t r1 = nb_record(&b, 0x80 | FW_NVAR_ATTR_ASCII_NAME | FW_NVAR_ATTR_EXT_HEADER, 0, NULL, "Bad", d, 2,
			      FW_NVAR_NEXT_NONE, ext, sizeof(ext));
	b.buf[r1 + fw_le16(b.buf + r1 + 4) - 3] = 0x5A;
	/* time-based authenticated: flags, counter, key hash, ExtSize */
	uint8_t aext[1 + 8 + 32 + 2] = {FW_NVAR_EXT_TIME_BASED, 7};
	memset(aext + 9, 0xAB, 32);
	fw_put_le16(aext + 41, sizeof(aext));
	nb_record(&b, 0x80 | FW_NVAR_ATTR_ASCII_NAME | FW_NVAR_ATTR_EXT_HEADER | FW_NVAR_ATTR_AUTH_WRITE, 0, NULL, "db",
		  d, 2, FW_NVAR_NEXT_NONE, aext, sizeof(aext));
	const struct fw_guid guids[] = {g_setup};
	nb_finish(&b, 300, guids, 1);

	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(b.buf, b.store_len, 0);
	struct fw_error err;
	CHECK(fw_nvar_parse_store(t, NULL, &v, &err));
	struct fw_node *ok = child_at(t->root, 0), *bad = child_at(t->root, 1), *auth = child_at(t->root, 2);
	CHECK(fw_node_field_get(ok, "Checksum valid")->v.b);
	CHECK(!(ok->flags & FW_NODE_F_CHECKSUM_BAD));
	CHECK_EQ(((struct fw_variable *)ok->ext)->size, 2); /* the trailer is not data */
	CHECK(!fw_node_field_get(bad, "Checksum valid")->v.b);
	CHECK(bad->flags & FW_NODE_F_CHECKSUM_BAD);
	CHECK(has_diag(bad, "checksum"));
	struct fw_variable *av = auth->ext;
	CHECK_EQ(av->attributes, 0x03 | FW_EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS);
	CHECK_EQ(av->size, 2);
	CHECK_EQ(fw_node_field_get(auth, "MonotonicCount")->v.u, 7);
	CHECK_EQ(fw_node_field_get(auth, "KeyHash")->v.bytes.p[0], 0xAB);
	fw_tree_free(t);
}

TEST(nvar_nested_defaults_store)
{
	struct nb inner = {0};
	const uint8_t one[] = {1};
	nb_record(&inner, 0x83, 0, NULL, "Setup", one, 1, FW_NVAR_NEXT_NONE, NULL, 0);
	const struct fw_guid ig[] = {g_setup};
	nb_finish(&inner, 64, ig, 1);
	struct nb b = {0};
	nb_record(&b, 0x83, 0, NULL, "StdDefaults", inner.buf, inner.store_len, FW_NVAR_NEXT_NONE, NULL, 0);
	nb_record(&b, 0x83, 1, NULL, "Setup", one, 1, FW_NVAR_NEXT_NONE, NULL, 0);
	const struct fw_guid og[] = {fw_guid_ami_defaults, g_setup};
	nb_finish(&b, 256, og, 2);

	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(b.buf, b.store_len, 0);
	struct fw_error err;
	CHECK(fw_nvar_parse_store(t, NULL, &v, &err));
	struct fw_node *defaults = child_at(t->root, 0);
	CHECK_STR(defaults->name, "StdDefaults");
	struct fw_node *nested = defaults->first_child;
	CHECK(nested && nested->kind == FW_NODE_NVRAM_STORE);
	CHECK_STR(nested->name, "StdDefaults");
	CHECK_EQ(nested->offset, 10 + 1 + 12); /* header, GUID index, "StdDefaults\0" */
	struct fw_variable *inner_setup = var_at(nested, 0);
	CHECK_STR(inner_setup->store, "StdDefaults");
	CHECK(fw_guid_eq(&inner_setup->guid, &g_setup));
	struct fw_varlist l = {0};
	fw_nvram_collect(t->root, false, &l);
	CHECK_EQ(l.count, 3);
	/* the lookup skips default stores */
	const struct fw_variable *found = fw_nvram_find(&l, "Setup", &g_setup);
	CHECK(found && strcmp(found->store, "NVAR") == 0);
	fw_varlist_free(&l);
	fw_tree_free(t);
}

TEST(nvar_broken_records_are_diagnosed)
{
	struct nb b = {0};
	const uint8_t d[] = {1, 2};
	/* GUID index far outside the store, a name without NUL, a Next into the middle of a record */
	nb_record(&b, 0x83, 200, NULL, "Far", d, 2, FW_NVAR_NEXT_NONE, NULL, 0);
	size_t r1 = nb_record(&b, 0x82, 0, NULL, "Link", d, 2, 0, NULL, 0);
	fw_put_le24(b.buf + r1 + 6, 0x11); /* lands inside the next record */
	nb_record(&b, 0x88, 0, NULL, NULL, d, 2, FW_NVAR_NEXT_NONE, NULL, 0);
	size_t r3 = b.len;
	nb_record(&b, 0x83, 0, NULL, "Unterminated", d, 0, FW_NVAR_NEXT_NONE, NULL, 0);
	b.buf[b.len - 1] = 'X'; /* overwrite the NUL */
	/* a record whose size runs past the store end stops the walk */
	size_t r4 = nb_record(&b, 0x83, 0, NULL, "Long", d, 2, FW_NVAR_NEXT_NONE, NULL, 0);
	fw_put_le16(b.buf + r4 + 4, 0x7000);
	const struct fw_guid g[] = {g_setup};
	nb_finish(&b, 200, g, 1);

	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(b.buf, b.store_len, 0);
	struct fw_error err;
	CHECK(fw_nvar_parse_store(t, NULL, &v, &err));
	struct fw_node *s = t->root;
	CHECK(has_diag(child_at(s, 0), "GUID index"));
	CHECK_EQ(var_at(s, 0)->state, FW_VAR_STATE_INVALID);
	CHECK(has_diag(child_at(s, 1), "Next does not point to a record"));
	CHECK_EQ(var_at(s, 1)->state, FW_VAR_STATE_VALID); /* its own data stays the live one */
	CHECK_EQ(var_at(s, 2)->state, FW_VAR_STATE_INVALID);
	CHECK(has_diag(child_at(s, 3), "not terminated"));
	CHECK_EQ(child_at(s, 3)->offset, r3);
	CHECK(has_diag(s, "does not fit the store"));
	CHECK_EQ(child_at(s, 4)->offset, r4);
	CHECK_EQ(child_at(s, 4)->size, 200 - r4);
	CHECK(child_at(s, 5) == NULL); /* nothing after the record that covers the rest */
	fw_tree_free(t);

	/* Not a store at all */
	uint8_t junk[32] = "not an NVAR store at all......";
	t = fw_tree_new(NULL);
	v = fw_view_make(junk, sizeof(junk), 0x40);
	fw_error_clear(&err);
	CHECK(!fw_nvar_parse_store(t, NULL, &v, &err));
	CHECK_EQ(err.code, FW_E_INVALID);
	CHECK(strstr(err.msg, "0x40") != NULL);
	fw_tree_free(t);
}

/* ---- corpus: AMI NVAR ------------------------------------------------------------------------ */

/* The NVAR store of an AMI NVRAM volume is the body of its FFS file CEF5B9A3. */
static bool nvar_body(const uint8_t *p, size_t n, struct fw_view *out)
{
	for (size_t off = 0; off + 24 <= n && off < 0x1000; off += 8) {
		if (memcmp(p + off, fw_guid_ami_nvar_store.b, 16) == 0) {
			size_t size = fw_le24(p + off + 20);
			if (size < 24 || size > n - off)
				return false;
			*out = fw_view_make(p + off + 24, size - 24, off + 24);
			return true;
		}
	}
	return false;
}

static char *hex_upper(const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789ABCDEF";
	char *s = malloc(2 * n + 1);
	for (size_t i = 0; i < n; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[2 * n] = '\0';
	return s;
}

static bool same_var(const struct fw_variable *v, json_t *x)
{
	char g[FW_GUID_STR_LEN];
	if (strcmp(v->name, json_string_value(json_object_get(x, "name"))) != 0 ||
	    strcmp(fw_guid_format(&v->guid, g), json_string_value(json_object_get(x, "guid"))) != 0)
		return false;
	char *h = hex_upper(v->data, v->size);
	bool same = strcasecmp(h, json_string_value(json_object_get(x, "data"))) == 0 &&
		    v->attributes == (uint32_t)json_integer_value(json_object_get(x, "attr"));
	free(h);
	return same;
}

TEST(nvar_yadro_volume_equals_expected_json)
{
	const char *vol = fw_test_corpus("firmware/yadro-purley-server_ami-nvram-volume.bin");
	const char *exp = fw_test_corpus("firmware/yadro-purley-server_ami-nvram-volume.expected.json");
	if (!vol || !exp)
		SKIP("corpus firmware/yadro-purley-server_ami-nvram-volume.* not present");
	size_t n;
	uint8_t *p = fw_test_read_file(vol, &n);
	json_t *doc = json_load_file(exp, 0, NULL);
	CHECK(p && doc);
	struct fw_view v;
	CHECK(nvar_body(p, n, &v));
	CHECK_EQ(v.base, 0x90);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_error err;
	CHECK(fw_nvar_parse_store(t, NULL, &v, &err));

	/* UEFIExtract's report: 199 records at the top and in StdDefaults, the GUID store at 0x7FD70 */
	struct fw_varlist all = {0}, live = {0};
	fw_nvram_collect(t->root, true, &all);
	fw_nvram_collect(t->root, false, &live);
	CHECK_EQ(all.count, 199);
	CHECK_EQ(fw_node_last_child(t, t->root)->offset, 0x7FD70);
	CHECK_EQ(fw_node_last_child(t, t->root)->size, 0x290);

	/* The expected list is what the firmware's GetVariable answers: each record equals a live
	 * variable of the main store, or a StdDefaults variable the main store does not override,
	 * or (six Boot#### entries) a record deleted since the list was taken. */
	json_t *vars = json_object_get(doc, "variables");
	CHECK_EQ(json_array_size(vars), 128);
	size_t main_hits = 0, default_hits = 0, deleted_hits = 0;
	for (size_t i = 0; i < json_array_size(vars); i++) {
		json_t *x = json_array_get(vars, i);
		const struct fw_variable *hit = NULL;
		for (size_t k = 0; k < live.count && !hit; k++)
			if (same_var(live.items[k], x))
				hit = live.items[k];
		for (size_t k = 0; k < all.count && !hit; k++)
			if (same_var(all.items[k], x))
				hit = all.items[k];
		CHECK_MSG(hit, "no record equals %s", json_string_value(json_object_get(x, "name")));
		if (hit->state == FW_VAR_STATE_VALID && strcmp(hit->store, "NVAR") == 0)
			main_hits++;
		else if (hit->state == FW_VAR_STATE_VALID && strcmp(hit->store, "StdDefaults") == 0)
			default_hits++;
		else
			deleted_hits++;
	}
	CHECK_EQ(main_hits, 112);
	CHECK_EQ(default_hits, 10);
	CHECK_EQ(deleted_hits, 6);
	/* Every live variable of the main store is in the list, except four it does not carry. */
	size_t live_main = 0, unlisted = 0;
	for (size_t k = 0; k < live.count; k++) {
		const struct fw_variable *lv = live.items[k];
		if (strcmp(lv->store, "NVAR") != 0)
			continue;
		live_main++;
		bool listed = false;
		for (size_t i = 0; i < json_array_size(vars) && !listed; i++)
			listed = same_var(lv, json_array_get(vars, i));
		if (!listed) {
			unlisted++;
			CHECK_MSG(strcmp(lv->name, "StdDefaults") == 0 || strcmp(lv->name, "DeploymentModeNv") == 0 ||
					  strcmp(lv->name, "VendorKeysNv") == 0 ||
					  strcmp(lv->name, "DisableNvramVariableSyncVar") == 0,
				  "live variable %s is not in the expected list", lv->name);
		}
	}
	CHECK_EQ(live_main, 116);
	CHECK_EQ(unlisted, 4);
	fw_varlist_free(&all);
	fw_varlist_free(&live);
	fw_tree_free(t);
	json_decref(doc);
	free(p);
}

TEST(nvar_wrx90e_volume_has_24_defaults)
{
	const char *vol = fw_test_corpus("firmware/asus-wrx90e-sage-se-1203_nvram-volume-1.bin");
	if (!vol)
		SKIP("corpus firmware/asus-wrx90e-sage-se-1203_nvram-volume-1.bin not present");
	size_t n;
	uint8_t *p = fw_test_read_file(vol, &n);
	struct fw_view v;
	CHECK(nvar_body(p, n, &v));
	CHECK_EQ(v.base, 0x90);
	CHECK_EQ(v.len, 0x1FF70);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_error err;
	CHECK(fw_nvar_parse_store(t, NULL, &v, &err));
	struct fw_node *s = t->root;
	struct fw_node *std = child_at(s, 0);
	CHECK_STR(std->name, "StdDefaults");
	CHECK_EQ(std->offset, 0x90);
	CHECK_EQ(std->size, 0x5130);
	CHECK_EQ(fw_node_field_get(s, "Variables")->v.u, 1);
	CHECK_EQ(child_at(s, 1)->kind, FW_NODE_FREE_SPACE);
	CHECK_EQ(child_at(s, 1)->size, 0x1AE30);
	CHECK_EQ(child_at(s, 2)->size, 0x10); /* GUID store: one GUID */
	struct fw_node *nested = std->first_child;
	CHECK_EQ(fw_node_field_get(nested, "Variables")->v.u, 24);
	static const char *const names[] = {"Setup", "PlatformLang", "Timeout", "AMITSESetup", "PcieSataModVar",
					    "RefreshAttribRegistry", "AsusHwmSetupOneof", "AsusQFanSetupData",
					    "UsbSupport", "NetworkStackVar", "SecureBootSetup", "SetupLedData",
					    "AsusHddSmartInfo", "NV_SIO0_LD2", "NV_SIO0_LD3", "ImageRollbackSetting",
					    "SIBoardItemControl", "SetupMtkRz6XXData", "VARSTORE_OCMR_SETTINGS_NAME",
					    "SetupAiFeatures", "AMD_PBS_SETUP", "AmdSetupSHP", "AmdSetupSTP", "ServerSetup"};
	for (unsigned i = 0; i < 24; i++) {
		struct fw_variable *x = var_at(nested, i);
		CHECK_MSG(x && strcmp(x->name, names[i]) == 0, "variable %u is %s, expected %s", i, x ? x->name : "-",
			  names[i]);
		CHECK_EQ(x->state, FW_VAR_STATE_VALID);
		CHECK_STR(x->store, "StdDefaults");
	}
	struct fw_variable *setup = var_at(nested, 0);
	CHECK(fw_guid_eq(&setup->guid, &g_setup));
	CHECK_EQ(var_at(nested, 0)->node->size, 0x226);
	CHECK_EQ(child_at(nested, 24)->kind, FW_NODE_FREE_SPACE);
	CHECK_EQ(child_at(nested, 24)->size, 0x10);
	CHECK_EQ(fw_node_field_get(child_at(nested, 25), "GuidCount")->v.u, 15);
	fw_tree_free(t);
	free(p);
}

/* ---- VSS ------------------------------------------------------------------------------------- */

static size_t vss_var(uint8_t *buf, size_t off, uint8_t state, uint32_t attr, const char *name, const void *data,
		      size_t dlen, const struct fw_guid *g)
{
	size_t nlen = 2 * (strlen(name) + 1);
	fw_put_le16(buf + off, FW_VSS_START_ID);
	buf[off + 2] = state;
	buf[off + 3] = 0;
	fw_put_le32(buf + off + 4, attr);
	fw_put_le32(buf + off + 8, (uint32_t)nlen);
	fw_put_le32(buf + off + 12, (uint32_t)dlen);
	memcpy(buf + off + 16, g->b, 16);
	for (size_t i = 0; i <= strlen(name); i++) {
		buf[off + 32 + 2 * i] = (uint8_t)name[i];
		buf[off + 33 + 2 * i] = 0;
	}
	memcpy(buf + off + 32 + nlen, data, dlen);
	size_t end = off + 32 + nlen + dlen;
	return (end + 3) & ~(size_t)3;
}

TEST(vss_store_states_and_transition)
{
	uint8_t buf[512];
	memset(buf, 0xFF, sizeof(buf));
	memcpy(buf, fw_guid_vss_store.b, 16);
	fw_put_le32(buf + 16, 400);
	buf[20] = FW_VSS_STORE_FORMATTED;
	buf[21] = FW_VSS_STORE_HEALTHY;
	memset(buf + 22, 0, 6);
	const uint8_t one = 1, two = 2, three = 3;
	size_t off = vss_var(buf, 28, 0x3F, 0x07, "Lang", &one, 1, &g_global);
	off = vss_var(buf, off, 0x3D, 0x07, "Old", &one, 1, &g_global);
	/* in transition with a newer added copy: deleted; alone: still live */
	off = vss_var(buf, off, 0x3E, 0x03, "Moving", &one, 1, &g_setup);
	off = vss_var(buf, off, 0x3F, 0x03, "Moving", &two, 1, &g_setup);
	off = vss_var(buf, off, 0x3E, 0x03, "Half", &three, 1, &g_setup);
	off = vss_var(buf, off, 0x7F, 0x03, "Torn", &three, 1, &g_setup);
	size_t last = off;
	/* a variable whose data runs past the store end */
	vss_var(buf, off, 0x3F, 0x03, "Huge", &three, 1, &g_setup);
	fw_put_le32(buf + off + 12, 0x10000);

	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(buf, sizeof(buf), 0x48);
	struct fw_error err;
	CHECK(fw_vss_parse_store(t, NULL, &v, &err));
	struct fw_node *region = t->root, *s = region->first_child;
	CHECK_STR(s->type, "VSS2");
	CHECK(!fw_node_field_get(s, "Authenticated")->v.b);
	CHECK_EQ(s->size, 400);
	CHECK_EQ(var_at(s, 0)->state, FW_VAR_STATE_VALID);
	CHECK_STR(var_at(s, 0)->name, "Lang");
	CHECK_EQ(var_at(s, 0)->attributes, 7);
	CHECK_EQ(var_at(s, 0)->node->size, 32 + 10 + 1);
	CHECK_EQ(var_at(s, 0)->offset, 0x48 + 28);
	CHECK_EQ(var_at(s, 1)->state, FW_VAR_STATE_DELETED);
	CHECK_STR(child_at(s, 1)->type, "Invalid");
	CHECK_EQ(var_at(s, 2)->state, FW_VAR_STATE_DELETED);
	CHECK_STR(fw_node_field_get(child_at(s, 2), "VariableState")->v.s, "deleted");
	CHECK_EQ(var_at(s, 3)->state, FW_VAR_STATE_VALID);
	CHECK_EQ(var_at(s, 3)->data[0], 2);
	CHECK_EQ(var_at(s, 4)->state, FW_VAR_STATE_VALID);
	CHECK_EQ(var_at(s, 5)->state, FW_VAR_STATE_INVALID);
	struct fw_node *huge = child_at(s, 6);
	CHECK_EQ(huge->offset, 0x48 + last);
	CHECK_EQ(huge->size, 400 - last);
	CHECK(has_diag(huge, "run past the end of the store"));
	CHECK(child_at(s, 7) == NULL);
	/* after the store: erased bytes to the end of the region */
	struct fw_node *rest = s->next;
	CHECK_EQ(rest->kind, FW_NODE_FREE_SPACE);
	CHECK_EQ(rest->offset, 0x48 + 400);
	fw_tree_free(t);
}

TEST(vss_dollar_store_and_ftw_block)
{
	uint8_t buf[256];
	memset(buf, 0xFF, sizeof(buf));
	memcpy(buf, "$VSS", 4);
	fw_put_le32(buf + 4, 128);
	buf[8] = 0x5A;
	buf[9] = 0xFE;
	memset(buf + 10, 0, 6);
	const uint8_t d = 9;
	/* a standard header and an authenticated one in the same $VSS store */
	size_t off = vss_var(buf, 16, 0x3F, 0x03, "A", &d, 1, &g_setup);
	memset(buf + off, 0, 60);
	fw_put_le16(buf + off, FW_VSS_START_ID);
	buf[off + 2] = 0x3F;
	fw_put_le32(buf + off + 4, 0x27);
	fw_put_le32(buf + off + 36, 4);
	fw_put_le32(buf + off + 40, 1);
	memcpy(buf + off + 44, g_global.b, 16);
	buf[off + 60] = 'K';
	buf[off + 61] = buf[off + 62] = buf[off + 63] = 0;
	buf[off + 64] = 0x42;
	/* FTW working block at 128 with a correct CRC */
	uint8_t *w = buf + 128;
	memcpy(w, fw_guid_ftw_working_block.b, 16);
	w[20] = 0xFE; /* valid */
	w[21] = w[22] = w[23] = 0xFF;
	fw_put_le64(w + 24, 96);
	uint8_t hdr[32];
	memcpy(hdr, w, 32);
	memset(hdr + 16, 0xFF, 4);
	hdr[20] |= 3;
	fw_put_le32(w + 16, fw_crc32(hdr, 32));

	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(buf, sizeof(buf), 0);
	struct fw_error err;
	CHECK(fw_vss_parse_store(t, NULL, &v, &err));
	struct fw_node *s = t->root->first_child;
	CHECK_STR(s->type, "VSS");
	CHECK_STR(var_at(s, 0)->name, "A");
	CHECK_STR(child_at(s, 0)->type, "Standard");
	CHECK_STR(var_at(s, 1)->name, "K");
	CHECK_STR(child_at(s, 1)->type, "Auth");
	CHECK_EQ(var_at(s, 1)->data[0], 0x42);
	struct fw_node *ftw = s->next;
	CHECK_STR(ftw->type, "FTW");
	CHECK_EQ(ftw->offset, 128);
	CHECK_EQ(ftw->size, 128);
	CHECK(fw_node_field_get(ftw, "Crc valid")->v.b);
	w[24] ^= 0x10; /* a different queue size breaks the CRC */
	fw_tree_free(t);
	t = fw_tree_new(NULL);
	CHECK(fw_vss_parse_store(t, NULL, &v, &err));
	ftw = t->root->first_child->next;
	CHECK(!fw_node_field_get(ftw, "Crc valid")->v.b);
	CHECK(ftw->flags & FW_NODE_F_CHECKSUM_BAD);
	fw_tree_free(t);
}

/* UEFIExtract's report of OVMF_VARS_4M.ms.fd lists these live ("Auth") entries. */
static const struct {
	uint32_t base, size;
	const char *guid, *name;
} ovmf_live[] = {
	{0xB8, 0x4E, "D9BEE56E-75DC-49D9-B4D7-B534210F637A", "certdb"},
	{0x160, 0x48, "EB704011-1402-11D3-8E77-00A0C969723B", "MTC"},
	{0x210, 0x469, "59324945-EC44-4C0D-B1CD-9DB139DF070C", "Attempt 1"},
	{0x6E4, 0x469, "59324945-EC44-4C0D-B1CD-9DB139DF070C", "Attempt 2"},
	{0xBB8, 0x469, "59324945-EC44-4C0D-B1CD-9DB139DF070C", "Attempt 3"},
	{0x108C, 0x469, "59324945-EC44-4C0D-B1CD-9DB139DF070C", "Attempt 4"},
	{0x1564, 0x469, "59324945-EC44-4C0D-B1CD-9DB139DF070C", "Attempt 5"},
	{0x1A3C, 0x469, "59324945-EC44-4C0D-B1CD-9DB139DF070C", "Attempt 6"},
	{0x1F14, 0x469, "59324945-EC44-4C0D-B1CD-9DB139DF070C", "Attempt 7"},
	{0x2380, 0x6C, "4B47D616-A8D6-4552-9D44-CCAD2E0F4CF9", "InitialAttemptOrder"},
	{0x23EC, 0x469, "59324945-EC44-4C0D-B1CD-9DB139DF070C", "Attempt 8"},
	{0x28AC, 0x8C, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "Boot0000"},
	{0x2938, 0x4E, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "Timeout"},
	{0x2988, 0x59, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "PlatformLang"},
	{0x29E4, 0x4A, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "Lang"},
	{0x2A30, 0x57, "04B37FE8-F6AE-480B-BDD5-37D98C5E89AA", "VarErrorFlag"},
	{0x3580, 0x5A, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "Key0000"},
	{0x35DC, 0x5A, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "Key0001"},
	{0x3734, 0xDC, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "ConOut"},
	{0x3810, 0x10B, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "ConIn"},
	{0x391C, 0xDC, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "ErrOut"},
	{0x3A4C, 0xBC, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "Boot0001"},
	{0x3B60, 0xA6, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "Boot0002"},
	{0x3C08, 0x98, "4C19049F-4137-4DD3-9C10-8B97A83FFDFA", "MemoryTypeInformation"},
	{0x3CF4, 0xC89, "D719B2CB-3D3A-4596-A3BC-DAD00E67656F", "db"},
	{0x4980, 0x90, "D719B2CB-3D3A-4596-A3BC-DAD00E67656F", "dbx"},
	{0x4A10, 0xA49, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "KEK"},
	{0x545C, 0x42F, "8BE4DF61-93CA-11D2-AA0D-00E098032B8C", "PK"},
	{0x588C, 0x57, "9073E4E0-60EC-4B6E-9903-4C223C260F3C", "VendorKeysNv"},
	{0x58E4, 0x5F, "F0A30BC7-AF08-4556-99C4-001009C93A44", "SecureBootEnable"},
	{0x5944, 0x53, "C076EC0C-7028-4399-A072-71EE5C448B9F", "CustomMode"},
};

static const char *ovmf_vars(void)
{
	const char *p = "/usr/share/OVMF/OVMF_VARS_4M.ms.fd";
	return access(p, R_OK) == 0 ? p : NULL;
}

static bool parse_ovmf(struct fw_tree **tp, uint8_t **buf)
{
	size_t n;
	*buf = fw_test_read_file(ovmf_vars(), &n);
	if (!*buf || n != 0x84000)
		return false;
	/* FV header of 0x48 bytes, then the NVRAM region */
	struct fw_view v = fw_view_make(*buf + 0x48, n - 0x48, 0x48);
	struct fw_error err;
	*tp = fw_tree_new(NULL);
	return fw_vss_parse_store(*tp, NULL, &v, &err);
}

TEST(vss_ovmf_vars_equal_uefiextract)
{
	if (!ovmf_vars())
		SKIP("/usr/share/OVMF/OVMF_VARS_4M.ms.fd not present (package ovmf)");
	struct fw_tree *t;
	uint8_t *buf;
	CHECK(parse_ovmf(&t, &buf));
	struct fw_node *s = t->root->first_child;
	CHECK_STR(s->type, "VSS2");
	CHECK(fw_node_field_get(s, "Authenticated")->v.b);
	CHECK_EQ(s->offset, 0x48);
	CHECK_EQ(s->size, 0x3FFB8);
	struct fw_varlist live = {0}, all = {0};
	fw_nvram_collect(t->root, false, &live);
	fw_nvram_collect(t->root, true, &all);
	CHECK_EQ(live.count, sizeof(ovmf_live) / sizeof(ovmf_live[0]));
	CHECK_EQ(all.count, 57); /* every "VSS entry" row of the report */
	for (size_t i = 0; i < live.count; i++) {
		const struct fw_variable *x = live.items[i];
		char g[FW_GUID_STR_LEN];
		CHECK_EQ(x->offset, ovmf_live[i].base);
		CHECK_EQ(x->node->size, ovmf_live[i].size);
		CHECK_STR(x->name, ovmf_live[i].name);
		CHECK_STR(fw_guid_format(&x->guid, g), ovmf_live[i].guid);
		CHECK_STR(x->node->type, "Auth");
	}
	const struct fw_variable *pk = fw_nvram_find(&live, "PK", &g_global);
	CHECK(pk && pk->attributes == 0x27 && pk->size == 1005);
	/* padding, the FTW block with a valid CRC, free space */
	struct fw_node *pad = s->next, *ftw = pad->next, *fs = ftw->next;
	CHECK_STR(pad->type, "Empty (0xFF)");
	CHECK_EQ(pad->offset, 0x40000);
	CHECK_STR(ftw->type, "FTW");
	CHECK_EQ(ftw->offset, 0x41000);
	CHECK_EQ(ftw->size, 0x1000);
	CHECK(fw_node_field_get(ftw, "Crc valid")->v.b);
	CHECK_EQ(fs->kind, FW_NODE_FREE_SPACE);
	CHECK_EQ(fs->offset, 0x42000);
	CHECK_EQ(fs->size, 0x42000);
	fw_varlist_free(&live);
	fw_varlist_free(&all);
	fw_tree_free(t);
	free(buf);
}

/* ---- Secure Boot databases ------------------------------------------------------------------- */

TEST(sigdb_ovmf_kek_and_db_certificates)
{
	if (!ovmf_vars())
		SKIP("/usr/share/OVMF/OVMF_VARS_4M.ms.fd not present (package ovmf)");
	struct fw_tree *t;
	uint8_t *buf;
	CHECK(parse_ovmf(&t, &buf));
	struct fw_varlist live = {0};
	fw_nvram_collect(t->root, false, &live);
	const struct fw_variable *kek = fw_nvram_find(&live, "KEK", &g_global);
	const struct fw_variable *db = fw_nvram_find(&live, "db", NULL);
	const struct fw_variable *dbx = fw_nvram_find(&live, "dbx", NULL);
	CHECK(kek && db && dbx);
	CHECK(fw_sigdb_is_database("KEK", &kek->guid) && fw_sigdb_is_database("db", &db->guid));
	CHECK(!fw_sigdb_is_database("Boot0000", &g_global));
	struct fw_sigdb s;
	struct fw_error err;
	struct fw_view v = fw_view_make(kek->data, kek->size, FW_OFFSET_UNKNOWN);
	CHECK(fw_sigdb_parse(&v, &s, &err));
	CHECK_EQ(s.lists, 2);
	CHECK_EQ(s.count, 2);
	CHECK(s.items[0].x509);
	CHECK_STR(s.items[0].subject, "emailAddress=debian-devel@lists.debian.org,CN=Debian UEFI Secure Boot (PK/KEK key),O=Debian");
	CHECK_STR(s.items[1].subject, "CN=Microsoft Corporation KEK CA 2011,O=Microsoft Corporation,L=Redmond,ST=Washington,C=US");
	CHECK_STR(s.items[1].issuer, "CN=Microsoft Corporation Third Party Marketplace Root,O=Microsoft Corporation,L=Redmond,ST=Washington,C=US");
	CHECK_STR(s.items[1].not_before, "2011-06-24T20:41:29Z");
	CHECK_STR(s.items[1].not_after, "2026-06-24T20:51:29Z");
	CHECK_STR(s.items[1].sha256, "a1117f516a32cefcba3f2d1ace10a87972fd6bbe8fe0d0b996e09e65d802a503");
	CHECK_STR(s.items[1].key, "RSA 2048");
	char g[FW_GUID_STR_LEN];
	CHECK_STR(fw_guid_format(&s.items[1].owner, g), "77FA9ABD-0359-4D32-BD60-28F4E78F784B");
	CHECK_STR(s.items[1].type_name, "X509");
	fw_sigdb_free(&s);

	v = fw_view_make(db->data, db->size, FW_OFFSET_UNKNOWN);
	CHECK(fw_sigdb_parse(&v, &s, &err));
	CHECK_EQ(s.count, 2);
	CHECK_STR(s.items[0].subject, "CN=Microsoft Windows Production PCA 2011,O=Microsoft Corporation,L=Redmond,ST=Washington,C=US");
	CHECK_STR(s.items[0].sha256, "e8e95f0733a55e8bad7be0a1413ee23c51fcea64b3c8fa6a786935fddcc71961");
	CHECK_STR(s.items[1].subject, "CN=Microsoft Corporation UEFI CA 2011,O=Microsoft Corporation,L=Redmond,ST=Washington,C=US");
	CHECK_STR(s.items[1].sha256, "48e99b991f57fc52f76149599bff0a58c47154229b9f8d603ac40d3500248507");
	fw_sigdb_free(&s);

	v = fw_view_make(dbx->data, dbx->size, FW_OFFSET_UNKNOWN);
	CHECK(fw_sigdb_parse(&v, &s, &err));
	CHECK_EQ(s.count, 1);
	CHECK_STR(s.items[0].type_name, "SHA256");
	CHECK(!s.items[0].x509);
	CHECK_EQ(s.items[0].size, 32);
	CHECK_EQ(s.items[0].data[0], 0xE3); /* SHA-256 of the empty string: a placeholder entry */
	fw_sigdb_free(&s);
	fw_varlist_free(&live);
	fw_tree_free(t);
	free(buf);
}

TEST(sigdb_rejects_lists_that_do_not_add_up)
{
	uint8_t b[28 + 48];
	memset(b, 0, sizeof(b));
	static const struct fw_guid sha = FW_GUID_INIT(0xC1C41626, 0x504C, 0x4092, 0xAC, 0xA9, 0x41, 0xF9, 0x36, 0x93, 0x43, 0x28);
	memcpy(b, sha.b, 16);
	fw_put_le32(b + 16, sizeof(b));
	fw_put_le32(b + 24, 48);
	struct fw_sigdb s;
	struct fw_error err;
	struct fw_view v = fw_view_make(b, sizeof(b), 0x100);
	CHECK(fw_sigdb_parse(&v, &s, &err));
	CHECK_EQ(s.count, 1);
	CHECK_EQ(s.items[0].offset, 0x100 + 28);
	CHECK(s.items[0].problem == NULL);
	fw_sigdb_free(&s);
	fw_put_le32(b + 24, 40); /* 48 is not a multiple of 40 */
	fw_error_clear(&err);
	CHECK(!fw_sigdb_parse(&v, &s, &err));
	CHECK(strstr(err.msg, "at 0x100") != NULL);
	fw_put_le32(b + 24, 48);
	fw_put_le32(b + 16, 0x1000); /* list larger than the data */
	CHECK(!fw_sigdb_parse(&v, &s, &err));
	fw_put_le32(b + 16, sizeof(b));
	memset(b + 28 + 16, 0x30, 32); /* an X.509 type with garbage inside */
	static const struct fw_guid x509 = FW_GUID_INIT(0xA5C059A1, 0x94E4, 0x4AA7, 0x87, 0xB5, 0xAB, 0x15, 0x5C, 0x2B, 0xF0, 0x72);
	memcpy(b, x509.b, 16);
	CHECK(fw_sigdb_parse(&v, &s, &err));
	CHECK(!s.items[0].x509);
	CHECK(s.items[0].problem != NULL);
	fw_sigdb_free(&s);
}

/* ---- efivarfs -------------------------------------------------------------------------------- */

TEST(efivarfs_file_and_nested_defaults)
{
	const char *path = fw_test_corpus("firmware/asus-t100ta-aptio4_efivar_StdDefaults-nvar.bin");
	if (!path)
		SKIP("corpus firmware/asus-t100ta-aptio4_efivar_StdDefaults-nvar.bin not present");
	size_t n;
	uint8_t *p = fw_test_read_file(path, &n);
	CHECK_EQ(n, 742);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_view v = fw_view_make(p, n, 0);
	struct fw_error err;
	CHECK(fw_efivarfs_parse_file(t, NULL, "StdDefaults-4599d26f-1a11-49b8-b91f-858745cff824", &v, &err));
	struct fw_node *store = t->root;
	CHECK_STR(store->type, "efivarfs");
	struct fw_variable *sd = var_at(store, 0);
	CHECK_STR(sd->name, "StdDefaults");
	CHECK(fw_guid_eq(&sd->guid, &fw_guid_ami_defaults));
	CHECK_EQ(sd->attributes, 7);
	CHECK_EQ(sd->size, 738);
	struct fw_node *nested = sd->node->first_child;
	CHECK(nested && nested->kind == FW_NODE_NVRAM_STORE);
	static const char *const names[] = {"Setup", "PlatformLang", "Timeout", "AMITSESetup", "NetworkStackVar",
					    "SecureBootSetup", "UsbSupport"};
	for (unsigned i = 0; i < 7; i++) {
		struct fw_variable *x = var_at(nested, i);
		CHECK_MSG(x && strcmp(x->name, names[i]) == 0, "entry %u", i);
		CHECK_EQ(x->attributes, 7); /* 0x83: runtime, ASCII name, valid */
		CHECK_STR(x->store, "StdDefaults");
	}
	CHECK_EQ(var_at(nested, 0)->node->size, 367);
	CHECK_EQ(var_at(nested, 0)->node->offset, 4);
	CHECK(fw_guid_eq(&var_at(nested, 0)->guid, &g_setup));
	/* 7 records end at data offset 642, then 16 erased bytes and a GUID table of 5 GUIDs */
	struct fw_node *fs = child_at(nested, 7), *gs = child_at(nested, 8);
	CHECK_EQ(fs->kind, FW_NODE_FREE_SPACE);
	CHECK_EQ(fs->offset, 646);
	CHECK_EQ(fs->size, 16);
	CHECK_STR(gs->type, "NVAR GUID store");
	CHECK_EQ(gs->offset, 662);
	CHECK_EQ(gs->size, 80);
	fw_tree_free(t);

	t = fw_tree_new(NULL);
	fw_error_clear(&err);
	CHECK(!fw_efivarfs_parse_file(t, NULL, "StdDefaults", &v, &err));
	CHECK(strstr(err.msg, "Name-guid") != NULL);
	v.len = 3;
	CHECK(!fw_efivarfs_parse_file(t, NULL, "X-4599d26f-1a11-49b8-b91f-858745cff824", &v, &err));
	CHECK_EQ(err.code, FW_E_TRUNCATED);
	fw_tree_free(t);
	free(p);
}

/* A tar of an efivarfs folder as fwlens nvram reads one the recogniser called so: the file's
 * bytes, owned by the tree, parsed in place. */
static bool load_efivarfs_tar(const char *path, struct fw_tree *t, struct fw_error *err)
{
	size_t n;
	uint8_t *p = fw_test_read_file(path, &n);
	if (!p)
		return fw_error_set(err, FW_E_IO, "%s: cannot read", path);
	fw_tree_own(t, p, n);
	t->input = p;
	t->input_len = n;
	struct fw_view v = fw_view_make(p, n, 0);
	return fw_efivarfs_parse_tar(t, &v, path, err);
}

TEST(efivarfs_tar_archive)
{
	const char *path = fw_test_corpus("firmware/asus-t100ta-aptio4_efivarfs-dump.tar");
	if (!path)
		SKIP("corpus firmware/asus-t100ta-aptio4_efivarfs-dump.tar not present");
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_error err;
	CHECK(load_efivarfs_tar(path, t, &err));
	struct fw_node *store = t->root;
	CHECK_EQ(store->nchildren, 55);
	struct fw_varlist l = {0};
	fw_nvram_collect(store, false, &l);
	CHECK_EQ(l.count, 55 + 7); /* and the seven StdDefaults entries */
	const struct fw_variable *setup = fw_nvram_find(&l, "Setup", &g_setup);
	CHECK(setup && setup->size == 350 && setup->attributes == 7);
	CHECK_STR(setup->store, "efivarfs");
	/* the same bytes as the Setup file of the corpus */
	const char *single = fw_test_corpus("firmware/asus-t100ta-aptio4_efivar_Setup.bin");
	if (single) {
		size_t n;
		uint8_t *p = fw_test_read_file(single, &n);
		CHECK(n == 354 && memcmp(p + 4, setup->data, 350) == 0);
		free(p);
	}
	/* offsets are offsets in the archive: a header block, then the data */
	CHECK_EQ(setup->offset % 512, 0);
	CHECK(memcmp(t->input + setup->offset + 4, setup->data, 350) == 0);
	const struct fw_variable *kek = fw_nvram_find(&l, "KEK", &g_global);
	CHECK(kek && kek->size == 3564);
	fw_varlist_free(&l);
	fw_tree_free(t);
}

static void tar_header(uint8_t *h, const char *name, size_t size, char type)
{
	memset(h, 0, 512);
	memcpy(h, name, strlen(name));
	snprintf((char *)h + 100, 8, "%07o", 0644);
	snprintf((char *)h + 124, 12, "%011zo", size);
	h[156] = (uint8_t)type;
	memcpy(h + 257, "ustar", 6);
	memset(h + 148, ' ', 8);
	unsigned sum = 0;
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
}

TEST(efivarfs_tar_long_names_and_damage)
{
	static uint8_t tar[512 * 8];
	memset(tar, 0, sizeof(tar));
	const char *lname = "efivars/AVeryLongVariableNameThatDoesNotFitTheHundredByteNameFieldOfAClassicTarHeaderAtAll-"
			    "8be4df61-93ca-11d2-aa0d-00e098032b8c";
	tar_header(tar, "././@LongLink", strlen(lname) + 1, 'L');
	memcpy(tar + 512, lname, strlen(lname) + 1);
	tar_header(tar + 1024, "efivars/AVeryLong", 6, '0');
	memcpy(tar + 1536, "\x07\x00\x00\x00\x01\x02", 6);
	tar_header(tar + 2048, "efivars/README", 3, '0');
	memcpy(tar + 2560, "hi\n", 3);
	char path[] = "/tmp/fwlens-test-tar-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, tar, sizeof(tar)) == (ssize_t)sizeof(tar));
	close(fd);
	struct fw_tree *t = fw_tree_new(NULL);
	struct fw_error err;
	bool ok = load_efivarfs_tar(path, t, &err);
	struct fw_variable *x = ok ? var_at(t->root, 0) : NULL;
	bool named = x && strncmp(x->name, "AVeryLongVariableName", 21) == 0 && x->size == 2 && x->offset == 1536;
	fw_tree_free(t);
	/* a damaged header checksum */
	tar[1024 + 150] ^= 1;
	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(write(fd, tar, sizeof(tar)) == (ssize_t)sizeof(tar));
	close(fd);
	t = fw_tree_new(NULL);
	fw_error_clear(&err);
	bool damaged_fails = !load_efivarfs_tar(path, t, &err) && strstr(err.msg, "at 0x400") != NULL;
	fw_tree_free(t);
	unlink(path);
	CHECK(ok);
	CHECK(named);
	CHECK(damaged_fails);
}

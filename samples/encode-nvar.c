/* AMI NVAR stores and the NVRAM volume (reference/formats.md 5.1-5.2, layouts of parsers/nvar.h).
 *
 * The volume is laid out as AMI's NVRAM area: an FFSv2 volume named FA4974FC with one raw file
 * CEF5B9A3 whose body is the NVAR store. The store holds the StdDefaults and MfgDefaults
 * variables (each a complete nested NVAR store of the default values, with its own GUID store)
 * and the variables of a used machine: some updated through data-only records chained by Next,
 * one deleted (VALID cleared) and one deleted then created again. GUIDs are stored once, growing
 * backwards from the end of each store, and referenced by index. */
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "encoders.h"
#include "parsers/ffs.h"
#include "parsers/hash.h"
#include "parsers/nvar.h"
#include "parsers/view.h"

#define NVRAM_FV_NAME "FA4974FC-AF1D-4E5D-BDC5-DACD6D27BAEC"
#define NVAR_STORE_FILE "CEF5B9A3-476D-497F-9FDC-E98143E0422C"
#define DEFAULTS_GUID "4599D26F-1A11-49B8-B91F-858745CFF824"
#define EFI_GLOBAL_GUID "8BE4DF61-93CA-11D2-AA0D-00E098032B8C"

struct nvar_store {
	struct sbuf b;
	struct fw_guid guids[64];
	size_t nguids;
};

static uint8_t guid_index(struct nvar_store *s, const struct fw_guid *g)
{
	for (size_t i = 0; i < s->nguids; i++)
		if (fw_guid_eq(&s->guids[i], g))
			return (uint8_t)i;
	SAMPLE_ASSERT(s->nguids < ARRAY_LEN(s->guids));
	s->guids[s->nguids] = *g;
	return (uint8_t)s->nguids++;
}

/* Finish an entry that starts at `off`: Size, Next, Attributes and the optional checksum trailer. */
static void finish_entry(struct nvar_store *s, size_t off, uint8_t attributes, bool checksum)
{
	if (checksum) {
		sb_put8(&s->b, FW_NVAR_EXT_CHECKSUM);
		sb_put8(&s->b, 0);
		sb_put16(&s->b, 4);
		attributes |= FW_NVAR_ATTR_EXT_HEADER;
	}
	uint8_t *p = sb_at(&s->b, off);
	size_t size = s->b.len - off;
	SAMPLE_ASSERT(size <= 0xFFFF);
	fw_layout_put(&fw_nvar_layout, p, NVAR_SIGNATURE, FW_NVAR_SIGNATURE);
	fw_layout_put(&fw_nvar_layout, p, NVAR_SIZE, size);
	fw_layout_put(&fw_nvar_layout, p, NVAR_NEXT, FW_NVAR_NEXT_NONE);
	fw_layout_put(&fw_nvar_layout, p, NVAR_ATTRIBUTES, attributes);
	if (checksum) {
		/* bytes after the header, both Size bytes and the attributes sum to 0 */
		uint8_t sum = (uint8_t)(fw_sum8(p + FW_NVAR_HEADER_SIZE, size - FW_NVAR_HEADER_SIZE) + p[4] + p[5] + p[9]);
		p[size - 3] = (uint8_t)(0x100 - sum);
	}
}

/* A full record with an ASCII name; returns its offset. */
static size_t nvar_full(struct nvar_store *s, const struct fw_guid *g, const char *name, const void *data, size_t n,
			bool runtime, bool checksum)
{
	size_t off = sb_put(&s->b, NULL, FW_NVAR_HEADER_SIZE);
	sb_put8(&s->b, guid_index(s, g));
	sb_put_ascii(&s->b, name);
	sb_put(&s->b, data, n);
	uint8_t attr = FW_NVAR_ATTR_VALID | FW_NVAR_ATTR_ASCII_NAME | (runtime ? FW_NVAR_ATTR_RUNTIME : 0);
	finish_entry(s, off, attr, checksum);
	return off;
}

/* A data-only record that updates the record at `prev` (its Next is pointed here). */
static size_t nvar_update(struct nvar_store *s, size_t prev, const void *data, size_t n, bool runtime)
{
	size_t off = sb_put(&s->b, NULL, FW_NVAR_HEADER_SIZE);
	sb_put(&s->b, data, n);
	finish_entry(s, off, FW_NVAR_ATTR_VALID | FW_NVAR_ATTR_DATA_ONLY | (runtime ? FW_NVAR_ATTR_RUNTIME : 0), false);
	fw_layout_put(&fw_nvar_layout, sb_at(&s->b, prev), NVAR_NEXT, off - prev);
	return off;
}

static void nvar_delete(struct nvar_store *s, size_t off)
{
	uint8_t *p = sb_at(&s->b, off);
	struct fw_view vw = fw_view_make(p, FW_NVAR_HEADER_SIZE, 0);
	uint64_t attr = fw_layout_get(&fw_nvar_layout, &vw, 0, NVAR_ATTRIBUTES);
	fw_layout_put(&fw_nvar_layout, p, NVAR_ATTRIBUTES, attr & ~(uint64_t)FW_NVAR_ATTR_VALID);
}

/* Free space of `gap` bytes, then the GUID store, so that the store is `total` bytes (0: just gap). */
static uint8_t *nvar_close(struct nvar_store *s, size_t gap, size_t total, size_t *len)
{
	size_t guids = 16 * s->nguids;
	if (total) {
		if (s->b.len + guids > total)
			sample_die("NVAR store overflow: %zu bytes in %zu", s->b.len + guids, total);
		gap = total - s->b.len - guids;
	}
	sb_fill(&s->b, 0xFF, gap);
	for (size_t i = s->nguids; i-- > 0;)
		sb_put_guid(&s->b, &s->guids[i]);
	return sb_take(&s->b, len);
}

static const char *const default_vars[] = {"Setup", "AmdSetupBRH", "SecureBootSetup", "AMITSESetup"};

static struct varstore *find_vs(struct variant *v, const char *name)
{
	struct varstore *vs = fs_varstore(&v->setup, name);
	if (!vs)
		vs = fs_varstore(&v->cbs, name);
	if (!vs)
		sample_die("no varstore %s", name);
	return vs;
}

uint8_t *nvar_defaults_store(struct variant *v, int which, size_t *len)
{
	struct nvar_store s = {0};
	for (size_t i = 0; i < ARRAY_LEN(default_vars); i++) {
		struct varstore *vs = find_vs(v, default_vars[i]);
		uint8_t *d = vs_defaults(vs, which);
		nvar_full(&s, &vs->guid, vs->name, d, vs->size, true, false);
		free(d);
	}
	struct fw_guid global = sample_guid(EFI_GLOBAL_GUID);
	nvar_full(&s, &global, "PlatformLang", "en-US", 6, true, false);
	uint8_t timeout[2] = {1, 0};
	nvar_full(&s, &global, "Timeout", timeout, 2, true, false);
	return nvar_close(&s, 0x10, 0, len);
}

static void add_defaults(struct nvar_store *s, struct variant *v)
{
	struct fw_guid defaults = sample_guid(DEFAULTS_GUID);
	for (int which = 0; which <= 1; which++) {
		size_t n;
		uint8_t *nested = nvar_defaults_store(v, which, &n);
		nvar_full(s, &defaults, which ? "MfgDefaults" : "StdDefaults", nested, n, true, false);
		free(nested);
	}
}

uint8_t *nvar_external_defaults(struct variant *v, size_t *len)
{
	struct nvar_store s = {0};
	add_defaults(&s, v);
	return nvar_close(&s, 0, 0, len);
}

uint8_t *build_nvram_volume(struct variant *v, size_t length, size_t *len)
{
	struct nvar_store s = {0};
	add_defaults(&s, v);

	/* Setup: written at first boot, then changed twice from the setup browser */
	struct varstore *setup = find_vs(v, "Setup");
	uint8_t *d = vs_defaults(setup, 0);
	size_t rec = nvar_full(&s, &setup->guid, "Setup", d, setup->size, true, false);
	vs_set(setup, d, "SriovSupport", 1);
	rec = nvar_update(&s, rec, d, setup->size, true);
	vs_set(setup, d, "NumLock", 0);
	nvar_update(&s, rec, d, setup->size, true);
	free(d);

	/* AmdSetupBRH: one update (SMEE and the SEV-SNP items set for an SNP host) */
	struct varstore *cbs = find_vs(v, "AmdSetupBRH");
	d = vs_defaults(cbs, 0);
	rec = nvar_full(&s, &cbs->guid, "AmdSetupBRH", d, cbs->size, true, false);
	vs_set(cbs, d, "CbsCmnCpuSmee", 1);
	vs_set(cbs, d, "CbsSevSnpSupport", 1);
	nvar_update(&s, rec, d, cbs->size, true);
	free(d);

	/* the variables of a third forms module, at their defaults */
	for (size_t i = 0; v->extra && i < v->extra->nvs; i++) {
		const struct varstore *vs = v->extra->vs[i];
		d = vs_defaults(vs, 0);
		nvar_full(&s, &vs->guid, vs->name, d, vs->size, true, false);
		free(d);
	}

	struct fw_guid global = sample_guid(EFI_GLOBAL_GUID);
	nvar_full(&s, &global, "PlatformLang", "en-US", 6, true, false);
	/* Timeout was deleted and written again: the first record stays, VALID cleared */
	uint8_t timeout[2] = {5, 0};
	size_t old = nvar_full(&s, &global, "Timeout", timeout, 2, true, false);
	nvar_delete(&s, old);
	timeout[0] = 1;
	nvar_full(&s, &global, "Timeout", timeout, 2, true, false);
	uint8_t boot_order[4] = {0x00, 0x00, 0x01, 0x00};
	nvar_full(&s, &global, "BootOrder", boot_order, sizeof(boot_order), true, false);
	/* a one-shot variable the firmware consumed and deleted */
	uint8_t boot_next[2] = {0x01, 0x00};
	old = nvar_full(&s, &global, "BootNext", boot_next, sizeof(boot_next), true, false);
	nvar_delete(&s, old);

	struct varstore *tse = find_vs(v, "AMITSESetup");
	d = vs_defaults(tse, 0);
	nvar_full(&s, &tse->guid, "AMITSESetup", d, tse->size, true, true);
	free(d);
	struct varstore *sb = find_vs(v, "SecureBootSetup");
	d = vs_defaults(sb, 0);
	nvar_full(&s, &sb->guid, "SecureBootSetup", d, sb->size, true, true);
	free(d);
	uint8_t mor = 0;
	struct fw_guid mor_guid = sample_guid("E20939BE-32D4-41BE-A150-897F85D49829");
	nvar_full(&s, &mor_guid, "MemoryOverwriteRequestControl", &mor, 1, true, false);

	/* the store fills the raw file to the end of the volume */
	struct fvb fv;
	struct fw_guid fvname = sample_guid(NVRAM_FV_NAME);
	fv_begin(&fv, &guid_ffs2, &fvname, length);
	fv.on_file = module_seen;
	fv.ctx = v;
	size_t store_len;
	size_t body = length - fv.b.len - FW_FFS_HEADER_SIZE;
	uint8_t *store = nvar_close(&s, 0, body, &store_len);
	struct fw_guid file = sample_guid(NVAR_STORE_FILE);
	fv_add_file(&fv, &file, FW_FFS_TYPE_RAW, 0, store, store_len);
	free(store);
	return fv_finish(&fv, len);
}

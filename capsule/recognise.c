/* The input kinds and their probes, in the order they are tried (see recognise.h). */
#include "recognise.h"

#include "detect.h"

#include "parsers/json-text.h"
#include <string.h>

#include "amd-apcb.h"
#include "amd-microcode.h"
#include "capsule.h"
#include "parsers/acpidump.h"
#include "parsers/ffs.h"
#include "parsers/fv.h"
#include "parsers/intel-descriptor.h"
#include "parsers/firmware.h"
#include "parsers/hash.h"
#include "parsers/nvar.h"
#include "parsers/nvram.h"
#include "parsers/pe.h"
#include "parsers/tar.h"
#include "parsers/vss.h"

/* The bytes of the input, read once when the first probe needs them. */
static bool bytes(struct fw_input_look *l, struct fw_view *v)
{
	if (!l->fetched) {
		l->fetched = true;
		l->have_bytes = !l->is_dir && l->read && l->read(l->ctx, &l->p, &l->n);
	}
	if (l->have_bytes)
		*v = fw_view_make(l->p, l->n, 0);
	return l->have_bytes;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n > t && strcmp(s + n - t, tail) == 0;
}

/* ---- folders ---- */

static bool probe_machine_root(struct fw_input_look *l)
{
	return l->is_dir && l->has_dir && (l->has_dir(l->ctx, "sys") || l->has_dir(l->ctx, "proc"));
}

static bool probe_folder(struct fw_input_look *l)
{
	return l->is_dir;
}

/* ---- what a name or text says ---- */

/* Named *.json or *.jsonl, or standard input that starts like JSON (standard input is read once
 * and kept, so looking does not use it up). */
static bool probe_settings_list(struct fw_input_look *l)
{
	struct fw_view v;
	if (!l->name)
		return false;
	if (strcmp(l->name, "-") != 0)
		return ends_with(l->name, ".json") || ends_with(l->name, ".jsonl");
	if (!bytes(l, &v))
		return true; /* the list reader reports why */
	size_t i = 0;
	while (i < v.len && (v.p[i] == ' ' || v.p[i] == '\t' || v.p[i] == '\n' || v.p[i] == '\r'))
		i++;
	return i == v.len || v.p[i] == '{' || v.p[i] == '[';
}

bool fw_amisce_probe(const char *text, size_t len)
{
	size_t n = len < 4096 ? len : 4096;
	for (size_t i = 0; i + 14 <= n; i++)
		if (memcmp(text + i, "Setup Question", 14) == 0 || (i + 8 <= n && memcmp(text + i, "HIICrc32", 8) == 0))
			return true;
	return false;
}

static bool probe_amisce(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && fw_amisce_probe((const char *)v.p, v.len);
}

/* A JSON object with an "Attributes" object, as a BMC's /redfish/v1/Systems/X/Bios returns. */
static bool probe_redfish_bios(struct fw_input_look *l)
{
	struct fw_view v;
	if (!bytes(l, &v) || !v.len || v.len >= (64u << 20) || !(v.p[0] == '{' || v.p[0] == ' ' || v.p[0] == '\n'))
		return false;
	json_t *doc = json_loadb((const char *)v.p, v.len, 0, NULL);
	bool yes = doc && json_is_object(json_object_get(doc, "Attributes"));
	json_decref(doc);
	return yes;
}

/* A tar whose first member is the manifest naming the snapshot format. */
static bool probe_snapshot(struct fw_input_look *l)
{
	struct fw_view v;
	if (!bytes(l, &v))
		return false;
	size_t n = v.len < FW_TAR_BLOCK + 64 ? v.len : FW_TAR_BLOCK + 64;
	if (n < FW_TAR_BLOCK + 32)
		return false;
	struct fw_view head = fw_view_make(v.p, n, 0);
	return fw_tar_probe(&head) && strncmp((const char *)v.p, "manifest.json", 14) == 0 &&
	       memmem(v.p + FW_TAR_BLOCK, n - FW_TAR_BLOCK, FW_SNAPSHOT_FORMAT, strlen(FW_SNAPSHOT_FORMAT));
}

static bool probe_empty(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && v.len == 0;
}

static bool probe_acpidump(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && fw_acpidump_detect(v.p, v.len);
}

/* Signatures in the wild are upper-case letters, digits, '_' and '!' ("ASF!", "PC__"). */
static bool sig_char_ok(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '!';
}

bool fw_acpi_signature_ok(const uint8_t *p, size_t n)
{
	if (n < 8)
		return false;
	for (int i = 0; i < 4; i++)
		if (!sig_char_ok(p[i]))
			return false;
	return true;
}

bool fw_acpi_table_file_probe(const uint8_t *p, size_t n)
{
	if (n >= 8 && memcmp(p, "RSD PTR ", 8) == 0)
		return true;
	if (!fw_acpi_signature_ok(p, n))
		return false;
	return fw_le32(p + 4) >= (memcmp(p, "FACS", 4) == 0 ? 64u : FW_ACPI_TABLE_FILE_MIN);
}

static bool probe_acpi_table(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && (fw_acpi_signature_ok(v.p, v.len) || (v.len >= 8 && memcmp(v.p, "RSD PTR ", 8) == 0));
}

/* ---- variable stores read on their own ---- */

/* plain, or compressed with gzip, xz, zstd or bzip2 (its first header, inflated, is a tar header) */
static bool probe_efivarfs_tar(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && (fw_tar_probe(&v) || fw_tar_probe_compressed(&v));
}

static bool probe_vss_store(struct fw_input_look *l)
{
	struct fw_view v;
	if (!bytes(l, &v))
		return false;
	if (v.len >= 16 && (memcmp(v.p, fw_guid_vss_store.b, 16) == 0 || memcmp(v.p, fw_guid_vss_auth_store.b, 16) == 0 ||
			    memcmp(v.p, fw_guid_ftw_working_block.b, 16) == 0))
		return true;
	if (v.len >= 4) {
		uint32_t sig = fw_le32(v.p);
		return sig == FW_VSS_SIGNATURE_DOLLAR || sig == FW_VSS_SIGNATURE_APPLE_SVS || sig == FW_VSS_SIGNATURE_APPLE_NSS;
	}
	return false;
}

/* ---- firmware ---- */

static bool probe_efivar(struct fw_input_look *l)
{
	struct fw_view v;
	return l->name && fw_efivarfs_name_ok(l->name) && bytes(l, &v) && v.len >= 4;
}

static bool probe_capsule(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && fw_capsule_probe(&v);
}

static bool probe_nvram(struct fw_input_look *l)
{
	struct fw_view v;
	uint32_t sig;
	return bytes(l, &v) && fw_rd_u32(&v, 0, &sig, NULL) && sig == FW_NVAR_SIGNATURE;
}

static bool probe_nvram_defaults(struct fw_input_look *l)
{
	struct fw_view v;
	uint32_t attrs, sig;
	return bytes(l, &v) && fw_rd_u32(&v, 0, &attrs, NULL) && attrs <= 0x7F && fw_rd_u32(&v, 4, &sig, NULL) &&
	       sig == FW_NVAR_SIGNATURE;
}

static bool probe_volume(struct fw_input_look *l)
{
	struct fw_view v;
	uint64_t fv_len;
	return bytes(l, &v) && fw_volume_probe(&v, 0, true, &fv_len) && fv_len == v.len;
}

bool fw_ffs_file_probe(const struct fw_view *v, struct fw_ffs_ctx *ctx)
{
	if (v->len < FW_FFS_HEADER_SIZE)
		return false;
	const uint8_t *h = v->p;
	bool large = (h[0x13] & FW_FFS_ATTR_LARGE_FILE) && fw_le24(h + 0x14) == 0;
	uint64_t size;
	uint32_t hs;
	if (!fw_ffs_file_size(v, 0, large, &size, &hs) || size != v->len || size < hs)
		return false;
	if ((uint8_t)(fw_sum8(h, hs) - h[0x11] - h[0x17]) != 0)
		return false;
	ctx->empty = (h[0x17] & 0x80) ? 0xFF : 0x00;
	ctx->ffs3 = large;
	ctx->revision = 2;
	ctx->fv_start = FW_OFFSET_UNKNOWN;
	ctx->fv = NULL;
	return true;
}

static bool probe_ffs_file(struct fw_input_look *l)
{
	struct fw_view v;
	struct fw_ffs_ctx ctx;
	return bytes(l, &v) && fw_ffs_file_probe(&v, &ctx);
}

static bool probe_section(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && fw_sections_plausible(v.p, v.len);
}

static bool probe_pe(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && (fw_pe_probe(v.p, v.len) || fw_te_probe(v.p, v.len));
}

static bool probe_amd_apcb(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && fw_amd_apcb_probe(&v);
}

static bool probe_amd_microcode(struct fw_input_look *l)
{
	struct fw_view v;
	return bytes(l, &v) && fw_amd_microcode_probe(&v);
}

static bool probe_anything(struct fw_input_look *l)
{
	return !l->is_dir;
}

/* ---- what vendor downloads come in ---- */

bool fw_input_archive_probe(const uint8_t *p, size_t n)
{
	static const struct {
		const char *magic;
		size_t len;
	} magics[] = {
		{"PK\x03\x04", 4},                 /* zip */
		{"PK\x05\x06", 4},                 /* zip with no member */
		{"7z\xBC\xAF\x27\x1C", 6},         /* 7z */
		{"\x1F\x8B\x08", 3},               /* gzip (deflate) */
		{"\xFD" "7zXZ\x00", 6},            /* xz */
		{"\x28\xB5\x2F\xFD", 4},           /* zstd */
	};
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (n >= magics[i].len && memcmp(p, magics[i].magic, magics[i].len) == 0)
			return true;
	/* bzip2: "BZh", the block size, then the first block's magic (the digits of pi) */
	if (n >= 10 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' && p[3] <= '9' && memcmp(p + 4, "\x31\x41\x59\x26\x53\x59", 6) == 0)
		return true;
	struct fw_view v = fw_view_make(p, n, 0);
	return fw_tar_probe(&v);
}

bool fw_input_firmware_member(const uint8_t *p, size_t n)
{
	struct fw_view v = fw_view_make(p, n, 0);
	if (fw_capsule_probe(&v) || fw_ifd_probe(&v))
		return true;
	uint64_t len;
	for (const uint8_t *q = p; (q = memmem(q, n - (size_t)(q - p), "_FVH", 4)); q++)
		if (q - p >= 40 && fw_volume_probe(&v, (size_t)(q - p) - 40, true, &len))
			return true;
	return false;
}

/* The one table: every kind, its name, its probe; tried in this order. */
static const struct input_kind {
	enum fw_input_kind kind;
	const char *name;
	bool (*probe)(struct fw_input_look *l);
} kinds[] = {
	{FW_INPUT_SETTINGS_LIST, "settings-list", probe_settings_list},
	{FW_INPUT_MACHINE_ROOT, "machine-root", probe_machine_root},
	{FW_INPUT_FOLDER, "folder", probe_folder},
	{FW_INPUT_AMISCE, "amisce", probe_amisce},
	{FW_INPUT_REDFISH_BIOS, "redfish-bios", probe_redfish_bios},
	{FW_INPUT_SNAPSHOT, "snapshot", probe_snapshot},
	{FW_INPUT_EMPTY, "empty", probe_empty},
	{FW_INPUT_ACPIDUMP, "acpidump", probe_acpidump},
	{FW_INPUT_ACPI_TABLE, "acpi-table", probe_acpi_table},
	{FW_INPUT_EFIVARFS_TAR, "efivarfs-tar", probe_efivarfs_tar},
	{FW_INPUT_VSS_STORE, "vss-store", probe_vss_store},
	{FW_INPUT_EFIVAR, "efivar", probe_efivar},
	{FW_INPUT_CAPSULE, "capsule", probe_capsule},
	{FW_INPUT_NVRAM, "nvram-store", probe_nvram},
	{FW_INPUT_NVRAM_DEFAULTS, "nvram-defaults", probe_nvram_defaults},
	{FW_INPUT_VOLUME, "volume", probe_volume},
	{FW_INPUT_FFS_FILE, "ffs-file", probe_ffs_file},
	{FW_INPUT_SECTION, "section", probe_section},
	{FW_INPUT_PE, "pe-image", probe_pe},
	{FW_INPUT_AMD_APCB, "amd-apcb", probe_amd_apcb},
	{FW_INPUT_AMD_MICROCODE, "amd-microcode", probe_amd_microcode},
	{FW_INPUT_IMAGE, "image", probe_anything},
};
_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == FW_INPUT_KIND_COUNT - 1, "every input kind has its row");

const char *fw_input_kind_name(enum fw_input_kind k)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == k)
			return kinds[i].name;
	return "unknown";
}

enum fw_input_kind fw_input_recognise(struct fw_input_look *look, uint64_t accept)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((accept & FW_INPUT_BIT(kinds[i].kind)) && kinds[i].probe(look))
			return kinds[i].kind;
	return FW_INPUT_UNKNOWN;
}

static bool memory_read(void *ctx, const uint8_t **p, size_t *n)
{
	const struct fw_view *v = ctx;
	*p = v->p;
	*n = v->len;
	return true;
}

enum fw_input_kind fw_input_recognise_bytes(const uint8_t *p, size_t n, const char *name, uint64_t accept)
{
	struct fw_view v = fw_view_make(p, n, 0);
	struct fw_input_look look = {.name = name, .read = memory_read, .ctx = &v};
	return fw_input_recognise(&look, accept);
}

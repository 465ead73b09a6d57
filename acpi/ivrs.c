/* IVRS decoder and the facts Linux derives from it (drivers/iommu/amd/init.c semantics,
 * described in reference/acpi.md 3-4). */
#include "ivrs.h"

#include "acpi/fields.h"
#include "parsers/strmap.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- layouts --------------------------------------------------------------------------------- */

const struct fw_named_value fw_ivinfo_names[] = {
	{FW_IVINFO_EFR_SUPPORTED, "EFRSup"}, {FW_IVINFO_DMA_REMAP, "DMARemap"}, {1u << 22, "HtAtsResv"}, {0, NULL},
};

static const struct fw_field ivrs_fields[IVRS__COUNT] = {
	[IVRS_IVINFO] = {"IVinfo", FW_FT_U32, 36, 0, FW_FF_HEX, NULL},
	[IVRS_RESERVED] = {"Reserved", FW_FT_U64, 40, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ivrs_layout = FW_LAYOUT("IVRS header", FW_IVRS_HEADER_SIZE, ivrs_fields);

static const struct fw_field block_fields[IVRS_BLOCK__COUNT] = {
	[IVRS_BLOCK_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVRS_BLOCK_FLAGS] = {"Flags", FW_FT_U8, 1, 0, FW_FF_HEX, NULL},
	[IVRS_BLOCK_LENGTH] = {"Length", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivrs_block_layout = FW_LAYOUT("IVRS block header", 4, block_fields);

static const struct fw_bitfield fw_ivhd_flag_bits[] = {
	FW_FLAG("HtTunEn", 0x01), FW_FLAG("PassPW", 0x02), FW_FLAG("ResPassPW", 0x04), FW_FLAG("Isoc", 0x08),
	FW_FLAG("IotlbSup", 0x10), FW_FLAG("Coherent", 0x20), FW_FLAG("PreFSup", 0x40), FW_FLAG("PPRSup", 0x80),
};
const struct fw_bitfields fw_ivhd_flag_names = FW_BITFIELDS(fw_ivhd_flag_bits);

#define IVHD_COMMON_FIELDS                                                                                         \
	[IVHD_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},                                                   \
	[IVHD_FLAGS] = {"Flags", FW_FT_U8, 1, 0, FW_FF_FLAGS, &fw_ivhd_flag_names},                                \
	[IVHD_LENGTH] = {"Length", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},                                              \
	[IVHD_DEVICE_ID] = {"DeviceId", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},                                         \
	[IVHD_CAPABILITY_OFFSET] = {"CapabilityOffset", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},                         \
	[IVHD_BASE_ADDRESS] = {"BaseAddress", FW_FT_U64, 8, 0, FW_FF_HEX, NULL},                                   \
	[IVHD_PCI_SEGMENT] = {"PciSegment", FW_FT_U16, 16, 0, 0, NULL},                                            \
	[IVHD_INFO] = {"Info", FW_FT_U16, 18, 0, FW_FF_HEX, NULL}

static const struct fw_field ivhd10_fields[IVHD__COUNT] = {
	IVHD_COMMON_FIELDS,
	[IVHD_FEATURES] = {"FeatureReporting", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[IVHD_EFR] = {"Efr", FW_FT_U64, 24, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
	[IVHD_EFR2] = {"Efr2", FW_FT_U64, 32, 0, FW_FF_HEX | FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ivhd10_layout = FW_LAYOUT("IVHD type 10h", FW_IVHD10_HEADER_SIZE, ivhd10_fields);

static const struct fw_field ivhd11_fields[IVHD__COUNT] = {
	IVHD_COMMON_FIELDS,
	[IVHD_FEATURES] = {"Attributes", FW_FT_U32, 20, 0, FW_FF_HEX, NULL},
	[IVHD_EFR] = {"Efr", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
	[IVHD_EFR2] = {"Efr2", FW_FT_U64, 32, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivhd11_layout = FW_LAYOUT("IVHD type 11h/40h", FW_IVHD11_HEADER_SIZE, ivhd11_fields);

static const struct fw_field ivdev_fields[IVDEV__COUNT] = {
	[IVDEV_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVDEV_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVDEV_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivhd_device_layout = FW_LAYOUT("IVHD device entry", FW_IVHD_DEVICE_SIZE, ivdev_fields);

static const struct fw_field ivalias_fields[IVDEV8__COUNT] = {
	[IVDEV8_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVDEV8_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVDEV8_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[IVDEV8_RESERVED] = {"Reserved", FW_FT_U8, 4, 0, FW_FF_HIDDEN, NULL},
	[IVDEV8_SOURCE_ID] = {"SourceDeviceId", FW_FT_U16, 5, 0, FW_FF_HEX, NULL},
	[IVDEV8_RESERVED2] = {"Reserved2", FW_FT_U8, 7, 0, FW_FF_HIDDEN, NULL},
};
const struct fw_layout fw_ivhd_alias_layout = FW_LAYOUT("IVHD device entry", 8, ivalias_fields);

static const struct fw_field ivext_fields[IVDEVX__COUNT] = {
	[IVDEVX_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVDEVX_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVDEVX_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[IVDEVX_EXT_SETTING] = {"ExtendedSetting", FW_FT_U32, 4, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivhd_ext_layout = FW_LAYOUT("IVHD device entry", 8, ivext_fields);

static const struct fw_named_value variety_names[] = {{1, "IOAPIC"}, {2, "HPET"}, {0, NULL}};
static const struct fw_field ivspecial_fields[IVSPECIAL__COUNT] = {
	[IVSPECIAL_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVSPECIAL_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVSPECIAL_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[IVSPECIAL_HANDLE] = {"Handle", FW_FT_U8, 4, 0, 0, NULL},
	[IVSPECIAL_SOURCE_ID] = {"SourceDeviceId", FW_FT_U16, 5, 0, FW_FF_HEX, NULL},
	[IVSPECIAL_VARIETY] = {"Variety", FW_FT_U8, 7, 0, FW_FF_ENUM, variety_names},
};
const struct fw_layout fw_ivhd_special_layout = FW_LAYOUT("IVHD device entry", 8, ivspecial_fields);

static const struct fw_named_value uid_format_names[] = {{0, "None"}, {1, "Integer"}, {2, "String"}, {0, NULL}};
static const struct fw_field ivhid_fields[IVHID__COUNT] = {
	[IVHID_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVHID_DEVICE_ID] = {"DeviceId", FW_FT_U16, 1, 0, FW_FF_HEX, NULL},
	[IVHID_SETTING] = {"Setting", FW_FT_U8, 3, 0, FW_FF_HEX, NULL},
	[IVHID_HID] = {"Hid", FW_FT_CHARS, 4, 8, 0, NULL},
	[IVHID_CID] = {"Cid", FW_FT_CHARS, 12, 8, 0, NULL},
	[IVHID_UID_FORMAT] = {"UidFormat", FW_FT_U8, 20, 0, FW_FF_ENUM, uid_format_names},
	[IVHID_UID_LENGTH] = {"UidLength", FW_FT_U8, 21, 0, 0, NULL},
};
const struct fw_layout fw_ivhd_hid_layout = FW_LAYOUT("IVHD device entry", FW_IVHD_HID_SIZE, ivhid_fields);

/* Linux's names (IVMD_FLAG_UNITY_MAP, _IR, _IW, _EXCL_RANGE). */
static const struct fw_bitfield fw_ivmd_flag_bits[] = {
	FW_FLAG("Unity", 0x01), FW_FLAG("IR", 0x02), FW_FLAG("IW", 0x04), FW_FLAG("ExclusionRange", 0x08),
};
const struct fw_bitfields fw_ivmd_flag_names = FW_BITFIELDS(fw_ivmd_flag_bits);
static const struct fw_field ivmd_fields[IVMD__COUNT] = {
	[IVMD_TYPE] = {"Type", FW_FT_U8, 0, 0, FW_FF_HEX, NULL},
	[IVMD_FLAGS] = {"Flags", FW_FT_U8, 1, 0, FW_FF_FLAGS, &fw_ivmd_flag_names},
	[IVMD_LENGTH] = {"Length", FW_FT_U16, 2, 0, FW_FF_HEX, NULL},
	[IVMD_DEVICE_ID] = {"DeviceId", FW_FT_U16, 4, 0, FW_FF_HEX, NULL},
	[IVMD_AUX_DATA] = {"AuxData", FW_FT_U16, 6, 0, FW_FF_HEX, NULL},
	[IVMD_PCI_SEGMENT] = {"PciSegment", FW_FT_U16, 8, 0, 0, NULL},
	[IVMD_START] = {"StartAddress", FW_FT_U64, 16, 0, FW_FF_HEX, NULL},
	[IVMD_SIZE] = {"MemoryLength", FW_FT_U64, 24, 0, FW_FF_HEX, NULL},
};
const struct fw_layout fw_ivmd_layout = FW_LAYOUT("IVMD block", FW_IVMD_SIZE, ivmd_fields);

/* --- bit fields -------------------------------------------------------------------------------- */

/* The DTE setting byte: pass-through bits and the two-bit SysMgt field. */
static const struct fw_bitfield dte_fields[] = {
	{"INITPass", 0, 1, NULL}, {"EIntPass", 1, 1, NULL}, {"NMIPass", 2, 1, NULL},
	{"SysMgt", 4, 2, "0 = blocked, 1 = forwarded untranslated, 2 = translated"},
	{"Lint0Pass", 6, 1, NULL}, {"Lint1Pass", 7, 1, NULL},
};
const struct fw_bitfields fw_ivrs_dte_bits = FW_BITFIELDS(dte_fields);

static const struct fw_bitfield ivrs_ivinfo_fields[] = {
	{"EFRSup", 0, 1, "IVHD 11h/40h carry a valid EFR image"},
	{"DMARemap", 1, 1, "pre-boot DMA protection"},
	{"GVAsize", 5, 3, "guest virtual address size code (2 = 48 bits)"},
	{"PAsize", 8, 7, "physical address bits"},
	{"VAsize", 15, 7, "virtual address bits"},
	{"HtAtsResv", 22, 1, "ATS translation of the HyperTransport range reserved"},
};
const struct fw_bitfields fw_ivrs_ivinfo_bits = FW_BITFIELDS(ivrs_ivinfo_fields);

static const struct fw_bitfield ivhd10_feature_fields[] = {
	{"XTSup", 0, 1, NULL},       {"NXSup", 1, 1, NULL},       {"GTSup", 2, 1, NULL},     {"GLXSup", 3, 2, NULL},
	{"IASup", 5, 1, NULL},       {"GASup", 6, 1, NULL},       {"HESup", 7, 1, NULL},     {"PASmax", 8, 5, NULL},
	{"PNCounters", 13, 4, NULL}, {"PNBanks", 17, 6, NULL},    {"MsiNumPPR", 23, 5, NULL}, {"GATS", 28, 2, NULL},
	{"HATS", 30, 2, NULL},
};
const struct fw_bitfields fw_ivhd10_feature_bits = FW_BITFIELDS(ivhd10_feature_fields);

static const struct fw_bitfield ivhd_attr_fields[] = {
	{"HATDis", 0, 1, "host address translation not supported"},
	{"PNCounters", 13, 4, NULL},
	{"PNBanks", 17, 6, NULL},
	{"MsiNumPPR", 23, 5, NULL},
};
const struct fw_bitfields fw_ivhd_attr_bits = FW_BITFIELDS(ivhd_attr_fields);

static const struct fw_bitfield ivhd_info_fields[] = {
	{"MSInum", 0, 5, NULL},
	{"UnitID", 8, 5, NULL},
};
const struct fw_bitfields fw_ivhd_info_bits = FW_BITFIELDS(ivhd_info_fields);

static const struct fw_bitfield ivrs_efr_fields[] = {
	{"PreFSup", 0, 1, "prefetch"},
	{"PPRSup", 1, 1, "peripheral page requests"},
	{"XTSup", 2, 1, "x2APIC interrupt remapping"},
	{"NXSup", 3, 1, "no-execute protection"},
	{"GTSup", 4, 1, "guest translation (v2 page tables, PASID)"},
	{"GAPPISup", 5, 1, NULL},
	{"IASup", 6, 1, "INVALIDATE_ALL command"},
	{"GASup", 7, 1, "guest virtual APIC (128-bit IRTE)"},
	{"HESup", 8, 1, "hardware error registers"},
	{"PCSup", 9, 1, "performance counters"},
	{"HATS", 10, 2, "host translation levels: 0=4, 1=5, 2=6"},
	{"GATS", 12, 2, "guest translation levels: 0=4, 1=5"},
	{"GLXSup", 14, 2, "GCR3 table levels"},
	{"SmiFSup", 16, 2, NULL},
	{"SmiFRC", 18, 3, NULL},
	{"GAMSup", 21, 3, "guest APIC modes (1 = GA_vAPIC posting)"},
	{"DualPprLogSup", 24, 2, NULL},
	{"DualEventLogSup", 28, 2, NULL},
	{"SATSSup", 31, 1, NULL},
	{"PASmax", 32, 5, "PASID bits minus one"},
	{"USSup", 37, 1, NULL},
	{"DevTblSegSup", 38, 2, NULL},
	{"PprOvrflwEarlySup", 40, 1, NULL},
	{"PPRAutoRspSup", 41, 1, NULL},
	{"MARCSup", 42, 2, NULL},
	{"BlkStopMrkSup", 44, 1, NULL},
	{"PerfOptSup", 45, 1, NULL},
	{"MsiCapMmioSup", 46, 1, NULL},
	{"GIoSup", 48, 1, "guest I/O protection"},
	{"HASup", 49, 1, "host access bit"},
	{"EPHSup", 50, 1, "enhanced PPR handling"},
	{"AttrFWSup", 51, 1, NULL},
	{"HDSup", 52, 1, "host dirty bit"},
	{"InvIotlbTypeSup", 54, 1, NULL},
	{"vIOMMUSup", 55, 1, NULL},
	{"VmGuardIOSup", 56, 1, NULL},
	{"VmTableSize", 57, 4, NULL},
	{"GAUpdateDisSup", 61, 1, NULL},
	{"SNPSup", 63, 1, "SEV-SNP capable IOMMU"},
};
const struct fw_bitfields fw_ivrs_efr_bits = FW_BITFIELDS(ivrs_efr_fields);

static const struct fw_bitfield ivrs_efr2_fields[] = {
	{"SEVSNPIOSup", 1, 1, "SEV-TIO"},
	{"GCR3TRPMode", 3, 1, NULL},
	{"GAPPIDisSup", 4, 1, NULL},
	{"SNPAVICSup", 5, 3, "1 = AVIC allowed with SNP"},
	{"NumIntRemapSup", 8, 2, "1 = 2048 interrupt remap entries per device"},
	{"HtRangeIgnore", 11, 1, NULL},
};
const struct fw_bitfields fw_ivrs_efr2_bits = FW_BITFIELDS(ivrs_efr2_fields);

size_t fw_ivrs_efr_features(uint64_t efr, uint64_t efr2, const char **out, size_t max)
{
	/* The order and spelling Linux uses in "AMD-Vi: Extended features (...)". */
	static const char *const low[10] = {"PreF", "PPR", "X2APIC", "NX", "GT", "[5]", "IA", "GA", "HE", "PC"};
	size_t n = 0;
	for (unsigned i = 0; i < 10 && n < max; i++)
		if (efr & ((uint64_t)1 << i))
			out[n++] = low[i];
	if (n < max && (efr & ((uint64_t)1 << 21)))
		out[n++] = "GA_vAPIC";
	if (n < max && (efr & ((uint64_t)1 << 63)))
		out[n++] = "SNP";
	if (n < max && (efr2 & ((uint64_t)1 << 1)))
		out[n++] = "SEV-TIO";
	return n;
}

const char *fw_ivrs_entry_kind_name(enum fw_ivrs_entry_kind k)
{
	switch (k) {
	case FW_IVRS_E_PAD: return "pad";
	case FW_IVRS_E_ALL: return "all";
	case FW_IVRS_E_SELECT: return "select";
	case FW_IVRS_E_RANGE: return "range";
	case FW_IVRS_E_ALIAS_SELECT: return "alias-select";
	case FW_IVRS_E_ALIAS_RANGE: return "alias-range";
	case FW_IVRS_E_EXT_SELECT: return "ext-select";
	case FW_IVRS_E_EXT_RANGE: return "ext-range";
	case FW_IVRS_E_SPECIAL: return "special";
	case FW_IVRS_E_ACPI_HID: return "acpi-hid";
	case FW_IVRS_E_END: return "end";
	case FW_IVRS_E_UNKNOWN: return "unknown";
	}
	return "unknown";
}

const char *fw_ivrs_block_type_name(uint8_t type)
{
	switch (type) {
	case FW_IVRS_IVHD_10: return "IVHD 10h (legacy, fixed feature field)";
	case FW_IVRS_IVHD_11: return "IVHD 11h (with EFR image)";
	case FW_IVRS_IVHD_40: return "IVHD 40h (mixed format, ACPI HID entries)";
	case FW_IVRS_IVMD_ALL: return "IVMD 20h (all devices)";
	case FW_IVRS_IVMD_ONE: return "IVMD 21h (one device)";
	case FW_IVRS_IVMD_RANGE: return "IVMD 22h (device range)";
	}
	return "unknown block type";
}

/* --- decoding ---------------------------------------------------------------------------------- */

/* The model and what the view shows of it, per part of the table's document. */
struct ivrs_facts {
	struct fw_ivrs m; /* first: the model other code reads */
	/* per block of the model (the part a block or entry is, and Linux's EFR feature names, are
	   found when written: 1,000 tables keep no per-part arrays) */
	const char **covers;                   /* "  covers: ..." of an IVHD Linux uses */
	struct fw_acpi_cell **covered;         /* first, last, count */
	const char *global_features[32];
	size_t nglobal_features;
	struct fw_acpi_cell *remap; /* variety, handle, bdf, iommu per special */
	const char *remap_line;
};

struct ivrs_ctx {
	struct fw_acpi_table *t;
	struct fw_arena *a;
	struct fw_ivrs *m;
};

static void linux_msg(struct ivrs_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void linux_msg(struct ivrs_ctx *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	struct fw_ivrs *m = c->m;
	m->linux_messages = fw_acpi_grow(c->a, m->linux_messages, &m->linux_messages_cap, m->nlinux_messages + 1,
					 sizeof(*m->linux_messages));
	m->linux_messages[m->nlinux_messages++] = fw_arena_printf(c->a, "AMD-Vi: %s", buf);
}

/* Entries (and blocks) grow in a heap vector while the walk adds them and are kept at their
 * exact size: arrays doubled in the arena left every smaller copy and the unused half behind
 * (6 KB a table, as much as the rest of the model). */
static void *grow(void *arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return arr;
	*cap = *cap ? 2 * *cap : 8;
	return fw_xrealloc(arr, *cap * elem);
}

static void *keep(struct fw_arena *a, void *heap, size_t n, size_t elem)
{
	void *kept = n ? fw_arena_memdup(a, heap, n * elem) : NULL;
	free(heap);
	return kept;
}

static struct fw_ivrs_entry *new_entry(struct ivrs_ctx *c, struct fw_ivrs_block *b, size_t *cap)
{
	(void)c;
	b->entries = grow(b->entries, cap, b->nentries + 1, sizeof(*b->entries));
	struct fw_ivrs_entry *e = &b->entries[b->nentries++];
	memset(e, 0, sizeof(*e));
	return e;
}

static void copy_text(char *dst, const uint8_t *src, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n && src[i]; i++)
		dst[k++] = (src[i] >= 0x20 && src[i] < 0x7F) ? (char)src[i] : '?';
	dst[k] = '\0';
}

static bool all_printable(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] && (p[i] < 0x20 || p[i] >= 0x7F))
			return false;
	return p[0] != 0;
}

static void decode_hid(struct ivrs_ctx *c, struct fw_ivrs_entry *e, const struct fw_view *v, size_t off)
{
	const struct fw_layout *l = &fw_ivhd_hid_layout;
	const uint8_t *hid = fw_layout_ptr(l, v, off, IVHID_HID);
	copy_text(e->hid, hid, 8);
	const uint8_t *cid = fw_layout_ptr(l, v, off, IVHID_CID); /* 8 characters, or a number */
	e->cid_raw = fw_le64(cid);
	if (e->cid_raw && all_printable(cid, 8))
		copy_text(e->cid, cid, 8);
	e->uid_format = (uint8_t)fw_layout_get(l, v, off, IVHID_UID_FORMAT);
	e->uid_length = (uint8_t)fw_layout_get(l, v, off, IVHID_UID_LENGTH);
	const uint8_t *uid = v->p + off + FW_IVHD_HID_SIZE; /* the caller checked 22 + UID length bytes */
	if (e->uid_format == FW_IVHD_UID_STRING) {
		char *s = fw_arena_alloc(c->a, (size_t)e->uid_length + 1);
		copy_text(s, uid, e->uid_length);
		e->uid = s;
	} else if (e->uid_format == FW_IVHD_UID_INTEGER) {
		uint64_t val = 0;
		for (unsigned i = 0; i < e->uid_length && i < 8; i++)
			val |= (uint64_t)uid[i] << (8 * i);
		e->uid = fw_arena_printf(c->a, "%" PRIu64, val);
		if (e->uid_length > 8)
			fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, e->offset, "ACPI HID entry: integer UID of %u bytes, only 8 read",
				     e->uid_length);
	} else if (e->uid_format != FW_IVHD_UID_NONE) {
		fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, e->offset, "ACPI HID entry: unknown UID format %u", e->uid_format);
	}
}

/* Entry length from its type: (4 << type[7:6]) below 80h; F0h is 22 + UID length; other types of
 * 80h and above use the same encoding (16 or 32 bytes, reserved by the specification). */
static size_t entry_length(uint8_t type, const struct fw_view *v, size_t off)
{
	if (type == FW_IVHD_DEV_ACPI_HID) {
		if (!fw_view_has(v, off, 22))
			return 22;
		return 22 + (size_t)v->p[off + 21];
	}
	return (size_t)4 << (type >> 6);
}

static void close_open_range(struct ivrs_ctx *c, struct fw_ivrs_block *b, long *open)
{
	if (*open < 0)
		return;
	struct fw_ivrs_entry *e = &b->entries[*open];
	fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, e->offset, "IVHD @0x%x: %s entry at 0x%x has no END entry; Linux applies nothing for it",
		     b->offset, fw_ivrs_entry_kind_name(e->kind), e->offset);
	*open = -1;
}

static void decode_entries(struct ivrs_ctx *c, struct fw_ivrs_block *b, const struct fw_view *v, size_t start,
			   size_t *nraw)
{
	size_t cap = 0;
	long open = -1; /* index of the range waiting for its END */
	size_t off = start;
	while (off < v->len) {
		uint8_t type = v->p[off];
		size_t len = entry_length(type, v, off);
		if (!fw_view_has(v, off, len)) {
			fw_acpi_diag(c->t, c->a, FW_DIAG_ERROR, b->offset + off,
				     "IVHD @0x%x: device entry type 0x%02x at 0x%zx needs %zu bytes, only %zu left in the block",
				     b->offset, type, b->offset + off, len, v->len - off);
			break;
		}
		(*nraw)++;
		uint32_t abs = (uint32_t)(b->offset + off);
		const struct fw_layout *l4 = &fw_ivhd_device_layout;
		uint16_t devid = (uint16_t)fw_layout_get(l4, v, off, IVDEV_DEVICE_ID);
		uint8_t dte = (uint8_t)fw_layout_get(l4, v, off, IVDEV_SETTING);
		if (type == FW_IVHD_DEV_RANGE_END) {
			if (open < 0) {
				struct fw_ivrs_entry *e = new_entry(c, b, &cap);
				e->offset = abs;
				e->length = (uint32_t)len;
				e->kind = FW_IVRS_E_END;
				e->type = type;
				e->device_id = devid;
				e->dte = dte;
				fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, abs, "IVHD @0x%x: END entry at 0x%x without a START", b->offset, abs);
			} else {
				struct fw_ivrs_entry *e = &b->entries[open];
				e->end = devid;
				e->closed = true;
				e->end_offset = abs;
				if (devid < e->device_id)
					fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, abs,
						     "IVHD @0x%x: range 0x%04x..0x%04x ends before it starts", b->offset,
						     e->device_id, devid);
				open = -1;
			}
			off += len;
			continue;
		}
		struct fw_ivrs_entry *e = new_entry(c, b, &cap);
		e->offset = abs;
		e->length = (uint32_t)len;
		e->type = type;
		e->device_id = devid;
		e->dte = dte;
		switch (type) {
		case FW_IVHD_DEV_PAD: e->kind = FW_IVRS_E_PAD; break;
		case FW_IVHD_DEV_ALL: e->kind = FW_IVRS_E_ALL; break;
		case FW_IVHD_DEV_SELECT: e->kind = FW_IVRS_E_SELECT; break;
		case FW_IVHD_DEV_RANGE_START: e->kind = FW_IVRS_E_RANGE; break;
		case FW_IVHD_DEV_ALIAS_SELECT:
		case FW_IVHD_DEV_ALIAS_RANGE:
			e->kind = type == FW_IVHD_DEV_ALIAS_SELECT ? FW_IVRS_E_ALIAS_SELECT : FW_IVRS_E_ALIAS_RANGE;
			e->source = (uint16_t)fw_layout_get(&fw_ivhd_alias_layout, v, off, IVDEV8_SOURCE_ID);
			break;
		case FW_IVHD_DEV_EXT_SELECT:
		case FW_IVHD_DEV_EXT_RANGE:
			e->kind = type == FW_IVHD_DEV_EXT_SELECT ? FW_IVRS_E_EXT_SELECT : FW_IVRS_E_EXT_RANGE;
			e->ext = (uint32_t)fw_layout_get(&fw_ivhd_ext_layout, v, off, IVDEVX_EXT_SETTING);
			break;
		case FW_IVHD_DEV_SPECIAL: {
			const struct fw_layout *ls = &fw_ivhd_special_layout;
			e->kind = FW_IVRS_E_SPECIAL;
			e->handle = (uint8_t)fw_layout_get(ls, v, off, IVSPECIAL_HANDLE);
			e->source = (uint16_t)fw_layout_get(ls, v, off, IVSPECIAL_SOURCE_ID);
			e->variety = (uint8_t)fw_layout_get(ls, v, off, IVSPECIAL_VARIETY);
			if (e->variety != FW_IVHD_SPECIAL_IOAPIC && e->variety != FW_IVHD_SPECIAL_HPET)
				fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, abs, "IVHD @0x%x: special entry at 0x%x has variety %u (1 = IOAPIC, 2 = HPET)",
					     b->offset, abs, e->variety);
			break;
		}
		case FW_IVHD_DEV_ACPI_HID:
			e->kind = FW_IVRS_E_ACPI_HID;
			decode_hid(c, e, v, off);
			if (b->type != FW_IVRS_IVHD_40)
				fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, abs,
					     "IVHD @0x%x: ACPI HID entry at 0x%x in a type %02xh block; only 40h may carry them",
					     b->offset, abs, b->type);
			break;
		default:
			e->kind = FW_IVRS_E_UNKNOWN;
			fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, abs,
				     "IVHD @0x%x: unknown device entry type 0x%02x at 0x%x, skipped by the %zu bytes its type encodes",
				     b->offset, type, abs, len);
			break;
		}
		if (type == FW_IVHD_DEV_RANGE_START || type == FW_IVHD_DEV_ALIAS_RANGE || type == FW_IVHD_DEV_EXT_RANGE) {
			if (open >= 0)
				close_open_range(c, b, &open);
			open = (long)(b->nentries - 1);
			e->end = e->device_id;
		}
		off += len;
	}
	close_open_range(c, b, &open);
	b->entries = keep(c->a, b->entries, b->nentries, sizeof(*b->entries));
}

static int range_cmp(const void *x, const void *y)
{
	const struct fw_ivrs_range *a = x, *b = y;
	return a->first < b->first ? -1 : a->first > b->first ? 1 : (a->last < b->last ? -1 : a->last > b->last);
}

/* The devices whose DTE this IOMMU programs (Linux init_iommu_from_acpi): selected devices,
 * closed ranges, alias sources, special and ACPI HID requester ids; merged into ranges. */
static void compute_coverage(struct ivrs_ctx *c, struct fw_ivrs_block *b)
{
	size_t cap = b->nentries * 2 + 1;
	struct fw_ivrs_range *r = fw_arena_alloc(c->a, cap * sizeof(*r));
	size_t n = 0;
	for (size_t i = 0; i < b->nentries; i++) {
		const struct fw_ivrs_entry *e = &b->entries[i];
		switch (e->kind) {
		case FW_IVRS_E_ALL: r[n++] = (struct fw_ivrs_range){0, 0xFFFF}; break;
		case FW_IVRS_E_SELECT:
		case FW_IVRS_E_EXT_SELECT:
		case FW_IVRS_E_ACPI_HID: r[n++] = (struct fw_ivrs_range){e->device_id, e->device_id}; break;
		case FW_IVRS_E_ALIAS_SELECT:
			r[n++] = (struct fw_ivrs_range){e->device_id, e->device_id};
			r[n++] = (struct fw_ivrs_range){e->source, e->source};
			break;
		case FW_IVRS_E_SPECIAL: r[n++] = (struct fw_ivrs_range){e->source, e->source}; break;
		case FW_IVRS_E_RANGE:
		case FW_IVRS_E_EXT_RANGE:
		case FW_IVRS_E_ALIAS_RANGE:
			if (!e->closed || e->end < e->device_id)
				break;
			r[n++] = (struct fw_ivrs_range){e->device_id, e->end};
			if (e->kind == FW_IVRS_E_ALIAS_RANGE)
				r[n++] = (struct fw_ivrs_range){e->source, e->source};
			break;
		default: break;
		}
	}
	qsort(r, n, sizeof(*r), range_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && (uint32_t)r[i].first <= (uint32_t)r[m - 1].last + 1) {
			if (r[i].last > r[m - 1].last)
				r[m - 1].last = r[i].last;
		} else {
			r[m++] = r[i];
		}
	}
	b->covered = r;
	b->ncovered = m;
}

static void decode_ivhd(struct ivrs_ctx *c, struct fw_ivrs_block *b, const struct fw_view *v)
{
	const struct fw_layout *l = b->type == FW_IVRS_IVHD_10 ? &fw_ivhd10_layout : &fw_ivhd11_layout;
	if (!fw_view_has(v, 0, l->size)) {
		fw_acpi_diag(c->t, c->a, FW_DIAG_ERROR, b->offset, "IVHD @0x%x: Length 0x%x is shorter than the %u-byte %s",
			     b->offset, b->length, l->size, l->name);
		return;
	}
	b->device_id = (uint16_t)fw_layout_get(l, v, 0, IVHD_DEVICE_ID);
	b->cap_offset = (uint16_t)fw_layout_get(l, v, 0, IVHD_CAPABILITY_OFFSET);
	b->base_address = fw_layout_get(l, v, 0, IVHD_BASE_ADDRESS);
	b->segment = (uint16_t)fw_layout_get(l, v, 0, IVHD_PCI_SEGMENT);
	b->info = (uint16_t)fw_layout_get(l, v, 0, IVHD_INFO);
	b->attributes = (uint32_t)fw_layout_get(l, v, 0, IVHD_FEATURES);
	if (b->type != FW_IVRS_IVHD_10) {
		b->has_efr = true;
		b->efr = fw_layout_get(l, v, 0, IVHD_EFR);
		b->efr2 = fw_layout_get(l, v, 0, IVHD_EFR2);
	}
	if (b->base_address == 0)
		fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, b->offset + 8, "IVHD @0x%x: IOMMU base address is 0", b->offset);
	decode_entries(c, b, v, l->size, &b->nraw_entries);
	compute_coverage(c, b);
}

static void decode_ivmd(struct ivrs_ctx *c, struct fw_ivrs_block *b, const struct fw_view *v)
{
	const struct fw_layout *l = &fw_ivmd_layout;
	if (!fw_view_has(v, 0, l->size)) {
		fw_acpi_diag(c->t, c->a, FW_DIAG_ERROR, b->offset, "IVMD @0x%x: Length 0x%x is shorter than the 32-byte IVMD",
			     b->offset, b->length);
		return;
	}
	b->device_id = (uint16_t)fw_layout_get(l, v, 0, IVMD_DEVICE_ID);
	b->aux_data = (uint16_t)fw_layout_get(l, v, 0, IVMD_AUX_DATA);
	b->segment = (uint16_t)fw_layout_get(l, v, 0, IVMD_PCI_SEGMENT);
	b->start_address = fw_layout_get(l, v, 0, IVMD_START);
	b->memory_length = fw_layout_get(l, v, 0, IVMD_SIZE);
	if (b->type == FW_IVRS_IVMD_RANGE && b->aux_data < b->device_id)
		fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, b->offset + 6, "IVMD @0x%x: device range 0x%04x..0x%04x ends before it starts",
			     b->offset, b->device_id, b->aux_data);
	if (b->memory_length == 0)
		fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, b->offset + 24, "IVMD @0x%x: memory length is 0", b->offset);
	else if (b->start_address + b->memory_length < b->start_address)
		fw_acpi_diag(c->t, c->a, FW_DIAG_WARN, b->offset + 16, "IVMD @0x%x: memory range wraps past 2^64", b->offset);
	if (!(b->flags & 0x09))
		fw_acpi_diag(c->t, c->a, FW_DIAG_INFO, b->offset + 1,
			     "IVMD @0x%x: neither Unity nor ExclusionRange is set; Linux ignores the block", b->offset);
}

/* Linux get_highest_supported_ivhd_type: walk the blocks while their type is <= 40h and keep the
 * last type whose DeviceID equals the first block's (IVMD blocks included, as Linux does). */
static uint8_t linux_target_type(const struct fw_ivrs *m)
{
	if (!m->nblocks)
		return 0;
	uint8_t last = m->blocks[0].type;
	uint16_t devid = m->blocks[0].device_id;
	for (size_t i = 0; i < m->nblocks && m->blocks[i].type <= 0x40; i++)
		if (m->blocks[i].device_id == devid)
			last = m->blocks[i].type;
	return last;
}

static void derive_linux(struct ivrs_ctx *c)
{
	struct fw_ivrs *m = c->m;
	struct fw_acpi_table *t = c->t;
	if (t->checksum_state == FW_ACPI_CHECKSUM_BAD)
		linux_msg(c, "[Firmware Bug]: IVRS invalid checksum");
	m->linux_type = linux_target_type(m);
	if (!m->nblocks)
		return;
	if (m->linux_type != FW_IVRS_IVHD_10 && m->linux_type != FW_IVRS_IVHD_11 && m->linux_type != FW_IVRS_IVHD_40) {
		linux_msg(c, "Unsupported IVHD type %#x", m->linux_type);
		fw_acpi_diag(t, c->a, FW_DIAG_ERROR, FW_IVRS_HEADER_SIZE,
			     "Linux would select block type %02xh, which is not an IVHD: the AMD IOMMU driver fails", m->linux_type);
		return;
	}
	size_t specials_cap = 0;
	for (size_t i = 0; i < m->nblocks; i++) {
		struct fw_ivrs_block *b = &m->blocks[i];
		b->iommu_index = -1;
		if (b->type != m->linux_type)
			continue;
		b->linux_uses = true;
		b->iommu_index = (int)m->niommus++;
		for (size_t j = 0; j < b->nentries; j++) {
			const struct fw_ivrs_entry *e = &b->entries[j];
			if (e->kind == FW_IVRS_E_ACPI_HID) {
				if (b->type != FW_IVRS_IVHD_40) {
					linux_msg(c, "[Firmware Bug]: Invalid IVHD device type %#x", e->type);
					continue;
				}
				if (!e->hid[0]) {
					linux_msg(c, "[Firmware Bug]: Invalid HID.");
					continue;
				}
				if (e->uid_format == FW_IVHD_UID_NONE && e->uid_length != 0)
					linux_msg(c, "[Firmware Bug]: Invalid UID length.");
			}
			if (e->kind == FW_IVRS_E_SPECIAL) {
				m->specials = fw_acpi_grow(c->a, m->specials, &specials_cap, m->nspecials + 1, sizeof(*m->specials));
				m->specials[m->nspecials++] = (struct fw_ivrs_special){e->variety, e->handle, b->segment, e->source,
										       b->iommu_index, e->offset};
			}
		}
		if (b->has_efr && (b->attributes & 1))
			linux_msg(c, "Host Address Translation is not supported.");
	}
	/* Duplicate handles: Linux keeps the first mapping it finds. */
	for (size_t i = 0; i < m->nspecials; i++)
		for (size_t j = 0; j < i; j++)
			if (m->specials[i].variety == m->specials[j].variety && m->specials[i].handle == m->specials[j].handle &&
			    m->specials[i].source != m->specials[j].source) {
				fw_acpi_diag(t, c->a, FW_DIAG_WARN, m->specials[i].offset,
					     "%s %u is mapped twice (0x%04x at 0x%x, 0x%04x at 0x%x); Linux uses the first",
					     m->specials[i].variety == FW_IVHD_SPECIAL_HPET ? "HPET" : "IOAPIC", m->specials[i].handle,
					     m->specials[j].source, m->specials[j].offset, m->specials[i].source, m->specials[i].offset);
				break;
			}
	/* Global EFR (Linux get_global_efr), only when the table's EFR images are used. */
	bool efr_sup = m->ivinfo & 1;
	if (m->linux_type != FW_IVRS_IVHD_10 && efr_sup) {
		m->global_efr_valid = true;
		bool first = true;
		for (size_t i = 0; i < m->nblocks; i++) {
			const struct fw_ivrs_block *b = &m->blocks[i];
			if (!b->linux_uses)
				continue;
			if (first) {
				m->global_efr = b->efr;
				m->global_efr2 = b->efr2;
				first = false;
				continue;
			}
			if (b->efr == m->global_efr && b->efr2 == m->global_efr2)
				continue;
			linux_msg(c,
				  "[Firmware Bug]: Found inconsistent EFR/EFR2 %#" PRIx64 ",%#" PRIx64 " (global %#" PRIx64
				  ",%#" PRIx64 ") on iommu%d (%04x:%02x:%02x.%01x).",
				  b->efr, b->efr2, m->global_efr, m->global_efr2, b->iommu_index, b->segment, b->device_id >> 8,
				  (b->device_id >> 3) & 0x1F, b->device_id & 7);
			m->global_efr &= b->efr;
			m->global_efr2 &= b->efr2;
		}
		if (((m->global_efr >> 10) & 3) == 3)
			linux_msg(c, "[Firmware Bug]: Disable host address translation due to invalid translation level");
		if (!(m->global_efr >> 63))
			fw_acpi_diag(t, c->a, FW_DIAG_INFO, FW_IVRS_HEADER_SIZE,
				     "EFR SNPSup is 0: Linux would not enable SEV-SNP with these IOMMUs");
	} else if (m->linux_type != FW_IVRS_IVHD_10) {
		fw_acpi_diag(t, c->a, FW_DIAG_INFO, 36,
			     "IVinfo EFRSup is 0: Linux ignores the EFR images in the IVHD blocks and reads the IOMMU registers");
	}
}

static void view_facts(struct fw_acpi_table *t, struct fw_arena *a, struct ivrs_facts *x);

void *fw_acpi_ivrs_decode(struct fw_acpi_table *t, struct fw_arena *a)
{
	struct ivrs_facts *x = fw_arena_alloc(a, sizeof(*x));
	struct fw_ivrs *m = &x->m;
	struct ivrs_ctx c = {t, a, m};
	const struct fw_view *v = &t->data;
	if (!fw_view_has(v, 0, FW_IVRS_HEADER_SIZE)) {
		fw_acpi_diag(t, a, FW_DIAG_ERROR, 0, "IVRS of 0x%zx bytes is shorter than its 48-byte header", v->len);
		view_facts(t, a, x);
		return m;
	}
	m->ivinfo = (uint32_t)fw_layout_get(&fw_ivrs_layout, v, 0, IVRS_IVINFO);
	size_t cap = 0;
	static const struct fw_acpi_record_format fmt = {"block", 1, 2, 2};
	struct fw_acpi_record r;
	for (size_t next = FW_IVRS_HEADER_SIZE; fw_acpi_next_record(t, a, v, 0, &next, &fmt, &r);) {
		const struct fw_layout *bl = &fw_ivrs_block_layout;
		size_t off = r.offset;
		uint8_t type = (uint8_t)r.type;
		uint16_t len = (uint16_t)r.length;
		m->blocks = grow(m->blocks, &cap, m->nblocks + 1, sizeof(*m->blocks));
		struct fw_ivrs_block *b = &m->blocks[m->nblocks++];
		memset(b, 0, sizeof(*b));
		b->offset = (uint32_t)off;
		b->type = type;
		b->flags = (uint8_t)fw_layout_get(bl, v, off, IVRS_BLOCK_FLAGS);
		b->length = len;
		b->iommu_index = -1;
		struct fw_view bv = fw_view_make(v->p + off, len, fw_view_abs(v, off));
		if (type == FW_IVRS_IVHD_10 || type == FW_IVRS_IVHD_11 || type == FW_IVRS_IVHD_40) {
			b->is_ivhd = true;
			decode_ivhd(&c, b, &bv);
		} else if (type >= FW_IVRS_IVMD_ALL && type <= FW_IVRS_IVMD_RANGE) {
			b->is_ivmd = true;
			decode_ivmd(&c, b, &bv);
		} else {
			/* Keep the DeviceID slot: Linux's type selection reads it from every block. */
			if (fw_view_has(&bv, 4, 2))
				b->device_id = fw_le16(bv.p + 4);
			fw_acpi_diag(t, a, FW_DIAG_INFO, off, "block type 0x%02x at 0x%zx is not IVHD or IVMD; skipped (%u bytes)",
				     type, off, len);
		}
	}
	m->blocks = keep(a, m->blocks, m->nblocks, sizeof(*m->blocks));
	derive_linux(&c);
	view_facts(t, a, x);
	return m;
}

void fw_ivrs_check_ioapics(struct fw_ivrs *ivrs, struct fw_acpi_table *t, struct fw_arena *a, const uint8_t *ioapic_ids,
			   size_t n)
{
	struct ivrs_ctx c = {t, a, ivrs};
	if (!ivrs->niommus)
		return;
	/* Linux check_ioapic_information, in MADT order: a missing IOAPIC clears the result, the
	 * southbridge IOAPIC (00:14.0) sets it again. */
	const uint16_t sb_devid = 0x14 << 3;
	bool has_sb = false, ret = false;
	for (size_t i = 0; i < n; i++) {
		const struct fw_ivrs_special *map = NULL;
		for (size_t j = 0; j < ivrs->nspecials && !map; j++)
			if (ivrs->specials[j].variety == FW_IVHD_SPECIAL_IOAPIC && ivrs->specials[j].handle == ioapic_ids[i])
				map = &ivrs->specials[j];
		if (!map) {
			linux_msg(&c, "[Firmware Bug]: : IOAPIC[%u] not in IVRS table", ioapic_ids[i]);
			ret = false;
		} else if (map->source == sb_devid && map->segment == 0) {
			has_sb = true;
			ret = true;
		}
	}
	if (!has_sb)
		linux_msg(&c, "[Firmware Bug]: : No southbridge IOAPIC found");
	if (!ret) {
		linux_msg(&c, "Disabling interrupt remapping");
		fw_acpi_diag(t, a, FW_DIAG_WARN, FW_IVRS_HEADER_SIZE,
			     "the IOAPIC map does not match the MADT: Linux disables interrupt remapping (no x2APIC, no AVIC)");
	}
}

const struct fw_ivrs_block *fw_ivrs_iommu_for(const struct fw_ivrs *ivrs, uint16_t segment, uint16_t devid)
{
	for (size_t i = 0; i < ivrs->nblocks; i++) {
		const struct fw_ivrs_block *b = &ivrs->blocks[i];
		if (!b->linux_uses || b->segment != segment)
			continue;
		for (size_t j = 0; j < b->ncovered; j++)
			if (devid >= b->covered[j].first && devid <= b->covered[j].last)
				return b;
	}
	return NULL;
}

void fw_ivrs_snp_summary(const struct fw_ivrs *m, unsigned *iommus, bool *efr_known, bool *snp_all)
{
	*iommus = (unsigned)m->niommus;
	*efr_known = m->global_efr_valid;
	bool all = m->niommus > 0;
	for (size_t i = 0; i < m->nblocks; i++)
		if (m->blocks[i].linux_uses)
			all = all && m->blocks[i].has_efr && (m->blocks[i].efr & FW_EFR_SNP_SUP);
	*snp_all = all && m->global_efr_valid;
}

/* --- the view: JSON, text and diff of the table (acpi/fields.h) ---------------------------------- */

static const char *variety_name(uint8_t variety, const char *other)
{
	return variety == FW_IVHD_SPECIAL_IOAPIC ? "IOAPIC" : variety == FW_IVHD_SPECIAL_HPET ? "HPET" : other;
}

static const char *bdf_dup(struct fw_arena *a, uint16_t seg, uint16_t devid)
{
	char buf[16];
	return fw_arena_strdup(a, fw_acpi_bdf_str(seg, devid, buf));
}

/* The block of the model a part of the document is (its offset), or NULL. */
static const struct fw_ivrs_block *block_of(const struct fw_ivrs *m, const struct fw_acpi_part *p)
{
	size_t lo = 0, hi = m->nblocks;
	while (lo < hi) { /* blocks in table order */
		size_t mid = lo + (hi - lo) / 2;
		if (m->blocks[mid].offset < p->offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nblocks && m->blocks[lo].offset == p->offset ? &m->blocks[lo] : NULL;
}

/* The entry of the model a device-entry part is, or NULL (an END entry joined to its START). */
static const struct fw_ivrs_entry *entry_of(const struct fw_ivrs_block *b, const struct fw_acpi_part *p)
{
	for (size_t j = 0; b && j < b->nentries; j++)
		if (b->entries[j].offset == p->offset)
			return &b->entries[j];
	return NULL;
}

/* The lists the view shows that the model keeps in another form, per block. */
static void view_facts(struct fw_acpi_table *t, struct fw_arena *a, struct ivrs_facts *x)
{
	(void)t;
	const struct fw_ivrs *m = &x->m;
	x->covers = fw_arena_alloc(a, (m->nblocks + 1) * sizeof(*x->covers));
	x->covered = fw_arena_alloc(a, (m->nblocks + 1) * sizeof(*x->covered));
	for (size_t k = 0; k < m->nblocks; k++) {
		const struct fw_ivrs_block *b = &m->blocks[k];
		struct fw_acpi_cell *cells = x->covered[k] = fw_arena_alloc(a, (b->ncovered * 3 + 1) * sizeof(*cells));
		char u[12], v[12];
		for (size_t i = 0; i < b->ncovered; i++) {
			const struct fw_ivrs_range *r = &b->covered[i];
			cells[3 * i] = (struct fw_acpi_cell){bdf_dup(a, b->segment, r->first), 0, false};
			cells[3 * i + 1] = (struct fw_acpi_cell){bdf_dup(a, b->segment, r->last), 0, false};
			cells[3 * i + 2] = (struct fw_acpi_cell){NULL, (int64_t)r->last - r->first + 1, false};
		}
		if (b->linux_uses) {
			/* one line however many ranges: built in the arena, not a fixed buffer */
			size_t cap = 32 + b->ncovered * 16, k2 = 0;
			char *s = fw_arena_alloc(a, cap);
			k2 += (size_t)snprintf(s + k2, cap - k2, "  covers:");
			for (size_t i = 0; i < b->ncovered; i++) {
				const struct fw_ivrs_range *r = &b->covered[i];
				if (r->first == r->last)
					k2 += (size_t)snprintf(s + k2, cap - k2, " %s", fw_acpi_devid_str(r->first, u));
				else
					k2 += (size_t)snprintf(s + k2, cap - k2, " %s-%s", fw_acpi_devid_str(r->first, u),
							       fw_acpi_devid_str(r->last, v));
			}
			snprintf(s + k2, cap - k2, "%s", b->ncovered ? "" : " nothing");
			x->covers[k] = s;
		}
	}
	if (m->global_efr_valid)
		x->nglobal_features = fw_ivrs_efr_features(m->global_efr, m->global_efr2, x->global_features, 32);
	x->remap = fw_arena_alloc(a, (m->nspecials * 4 + 1) * sizeof(*x->remap));
	size_t cap = 32 + m->nspecials * 40, k = 0;
	char *s = fw_arena_alloc(a, cap);
	k += (size_t)snprintf(s, cap, "interrupt remapping:");
	for (size_t i = 0; i < m->nspecials; i++) {
		const struct fw_ivrs_special *sp = &m->specials[i];
		const char *bdf = bdf_dup(a, sp->segment, sp->source);
		x->remap[4 * i] = (struct fw_acpi_cell){variety_name(sp->variety, "unknown"), 0, false};
		x->remap[4 * i + 1] = (struct fw_acpi_cell){NULL, sp->handle, false};
		x->remap[4 * i + 2] = (struct fw_acpi_cell){bdf, 0, false};
		x->remap[4 * i + 3] = (struct fw_acpi_cell){NULL, sp->iommu_index, false};
		k += (size_t)snprintf(s + k, cap - k, "%s %s %u = %s", i ? "," : "", variety_name(sp->variety, "?"), sp->handle, bdf);
	}
	x->remap_line = s;
}

static const char *const covered_cols[] = {"first", "last", "count"};
static const char *const remap_cols[] = {"variety", "handle", "bdf", "iommu"};

/* A derived value's name; the first letter rules out most before strcmp (a view asks for
 * dozens of names per structure). */
static inline bool is(const char *name, const char *want)
{
	return name[0] == want[0] && !strcmp(name, want);
}

/* "(Linux: PreF PPR NX)", "(Linux: none)" */
static size_t put(char *buf, size_t len, size_t k, const char *s)
{
	size_t n = strlen(s);
	if (k + n >= len)
		n = k < len ? len - 1 - k : 0;
	memcpy(buf + k, s, n);
	buf[k + n] = '\0';
	return k + n;
}

static const char *linux_features(const char *const *names, size_t n, char *buf, size_t len)
{
	size_t k = put(buf, len, 0, "(Linux: ");
	for (size_t i = 0; i < n; i++)
		k = put(buf, len, i ? put(buf, len, k, " ") : k, names[i]);
	put(buf, len, k, n ? ")" : "none)");
	return buf;
}

static bool is_range(enum fw_ivrs_entry_kind k)
{
	return k == FW_IVRS_E_RANGE || k == FW_IVRS_E_ALIAS_RANGE || k == FW_IVRS_E_EXT_RANGE;
}

static bool derive_entry(const struct fw_ivrs_block *b, const struct fw_ivrs_entry *e, const char *name,
			 struct fw_acpi_derived *out)
{
	char a[16], z[16];
	enum fw_ivrs_entry_kind k = e->kind;
	bool alias = k == FW_IVRS_E_ALIAS_SELECT || k == FW_IVRS_E_ALIAS_RANGE;
	if (is(name, "Kind")) {
		out->s = fw_ivrs_entry_kind_name(k);
	} else if (is(name, "Start") || is(name, "StartBdf")) {
		if (!is_range(k))
			return false;
		out->u = e->device_id;
		out->s = name[5] ? fw_acpi_bdf_str(b->segment, e->device_id, out->buf) : NULL;
	} else if (is(name, "End") || is(name, "EndBdf")) {
		if (!is_range(k))
			return false;
		out->null = !e->closed;
		out->u = e->end;
		out->s = name[3] && e->closed ? fw_acpi_bdf_str(b->segment, e->end, out->buf) : NULL;
	} else if (is(name, "DeviceId") || is(name, "Bdf")) {
		if (is_range(k) || k == FW_IVRS_E_ALL || k == FW_IVRS_E_PAD || k == FW_IVRS_E_SPECIAL)
			return false;
		out->u = e->device_id;
		out->s = name[0] == 'B' ? fw_acpi_bdf_str(b->segment, e->device_id, out->buf) : NULL;
	} else if (is(name, "Dte")) {
		out->u = e->dte;
		out->bits = &fw_ivrs_dte_bits;
		return k != FW_IVRS_E_PAD;
	} else if (is(name, "DteText")) {
		out->s = fw_bitfields_str(e->dte, &fw_ivrs_dte_bits, out->buf, sizeof(out->buf));
		return e->dte != 0;
	} else if (is(name, "Alias") || is(name, "AliasBdf")) {
		out->u = e->source;
		out->s = name[5] ? fw_acpi_bdf_str(b->segment, e->source, out->buf) : NULL;
		return alias;
	} else if (is(name, "Ext")) {
		out->u = e->ext;
		return k == FW_IVRS_E_EXT_SELECT || k == FW_IVRS_E_EXT_RANGE;
	} else if (is(name, "Variety") || is(name, "Handle") || is(name, "SpecialId") || is(name, "SpecialBdf")) {
		out->s = name[0] == 'V' ? variety_name(e->variety, "unknown")
			 : is(name, "SpecialBdf") ? fw_acpi_bdf_str(b->segment, e->source, out->buf)
						       : NULL;
		out->u = name[0] == 'H' ? e->handle : e->source;
		return k == FW_IVRS_E_SPECIAL;
	} else if (is(name, "Hid") || is(name, "Cid") || is(name, "UidFormat") || is(name, "Uid")) {
		static const char *const fmts[] = {"none", "integer", "string"};
		if (k != FW_IVRS_E_ACPI_HID)
			return false;
		if (name[0] == 'H')
			out->s = e->hid;
		else if (name[0] == 'C' && e->cid[0])
			out->s = e->cid;
		else if (name[0] == 'C' && e->cid_raw)
			out->s = (snprintf(out->buf, sizeof(out->buf), "0x%" PRIx64, e->cid_raw), out->buf);
		else if (name[3] == 'F')
			out->s = e->uid_format < 3 ? fmts[e->uid_format] : "unknown";
		else if (name[0] == 'U' && e->uid)
			out->s = e->uid;
		else
			out->null = true;
	} else if (is(name, "Desc")) {
		/* what the entry says, in the words of a text line */
		struct fw_acpi_text t = {0};
		switch (k) {
		case FW_IVRS_E_PAD: fw_acpi_text_put(&t, "(padding)"); break;
		case FW_IVRS_E_ALL: fw_acpi_text_put(&t, "every device of segment %04x", b->segment); break;
		case FW_IVRS_E_RANGE:
		case FW_IVRS_E_EXT_RANGE:
		case FW_IVRS_E_ALIAS_RANGE:
			if (e->closed)
				fw_acpi_text_put(&t, "%s .. %s", fw_acpi_bdf_str(b->segment, e->device_id, a),
						 fw_acpi_bdf_str(b->segment, e->end, z));
			else
				fw_acpi_text_put(&t, "%s .. (no END entry)", fw_acpi_bdf_str(b->segment, e->device_id, a));
			break;
		case FW_IVRS_E_SPECIAL:
			fw_acpi_text_put(&t, "%s %u is %s", variety_name(e->variety, "special"), e->handle,
					 fw_acpi_bdf_str(b->segment, e->source, a));
			break;
		case FW_IVRS_E_ACPI_HID:
			fw_acpi_text_put(&t, "%s", e->hid[0] ? e->hid : "(no HID)");
			if (e->cid[0])
				fw_acpi_text_put(&t, " CID %s", e->cid);
			else if (e->cid_raw)
				fw_acpi_text_put(&t, " CID 0x%" PRIx64, e->cid_raw);
			if (e->uid)
				fw_acpi_text_put(&t, " UID \"%s\"", e->uid);
			fw_acpi_text_put(&t, " is %s", fw_acpi_bdf_str(b->segment, e->device_id, a));
			break;
		default: fw_acpi_text_put(&t, "%s", fw_acpi_bdf_str(b->segment, e->device_id, a)); break;
		}
		if (alias)
			fw_acpi_text_put(&t, " seen as %s", fw_acpi_bdf_str(b->segment, e->source, a));
		if (k == FW_IVRS_E_EXT_SELECT || k == FW_IVRS_E_EXT_RANGE)
			fw_acpi_text_put(&t, " ext 0x%08x", e->ext);
		if (k == FW_IVRS_E_UNKNOWN)
			fw_acpi_text_put(&t, " (type 0x%02x)", e->type);
		out->s = (snprintf(out->buf, sizeof(out->buf), "%s", t.buf), out->buf);
	} else {
		return false;
	}
	return true;
}

/* A bit-field value in text: its fields, "none" for 0. */
static const char *bits_or_none(uint64_t v, const struct fw_bitfields *bits, struct fw_acpi_derived *out)
{
	return v ? fw_bitfields_str(v, bits, out->buf, sizeof(out->buf)) : "none";
}

static bool derive_block(const struct ivrs_facts *x, const struct fw_ivrs_block *b, const char *name,
			 struct fw_acpi_derived *out)
{
	const struct fw_ivrs *m = &x->m;
	size_t bi = (size_t)(b - m->blocks);
	bool ivhd = b->is_ivhd, efr = ivhd && b->has_efr;
	if (is(name, "TypeName")) {
		out->s = fw_ivrs_block_type_name(b->type);
	} else if (is(name, "Flags")) {
		out->u = b->flags;
		out->bits = b->is_ivmd ? &fw_ivmd_flag_names : ivhd ? &fw_ivhd_flag_names : NULL;
	} else if (is(name, "DeviceId") || is(name, "Bdf")) {
		out->u = b->device_id;
		out->s = name[0] == 'B' ? fw_acpi_bdf_str(b->segment, b->device_id, out->buf) : NULL;
		return ivhd || b->type == FW_IVRS_IVMD_ONE;
	} else if (!strncmp(name, "Range", 5)) {
		bool end = name[5] == 'E';
		uint16_t id = end ? b->aux_data : b->device_id;
		out->u = id;
		out->s = strstr(name, "Bdf") ? fw_acpi_bdf_str(b->segment, id, out->buf) : NULL;
		return b->type == FW_IVRS_IVMD_RANGE;
	} else if (is(name, "Segment")) {
		out->u = b->segment;
		return ivhd || b->is_ivmd;
	} else if (is(name, "Cap")) {
		out->u = b->cap_offset;
	} else if (is(name, "Base")) {
		out->u = b->base_address;
	} else if (is(name, "Info") || is(name, "InfoText")) {
		out->u = b->info;
		out->bits = &fw_ivhd_info_bits;
		out->s = name[4] ? bits_or_none(b->info, out->bits, out) : NULL;
	} else if (is(name, "Attr") || is(name, "AttrText")) {
		out->u = b->attributes;
		out->bits = &fw_ivhd_attr_bits;
		out->s = name[4] ? bits_or_none(b->attributes, out->bits, out) : NULL;
		return efr;
	} else if (is(name, "Features") || is(name, "FeaturesText")) {
		out->u = b->attributes;
		out->bits = &fw_ivhd10_feature_bits;
		out->s = name[8] ? bits_or_none(b->attributes, out->bits, out) : NULL;
		return ivhd && !efr;
	} else if (is(name, "Efr") || is(name, "EfrFields")) {
		out->u = b->efr;
		out->bits = &fw_ivrs_efr_bits;
		return efr;
	} else if (is(name, "Efr2") || is(name, "Efr2Fields")) {
		out->u = b->efr2;
		out->bits = &fw_ivrs_efr2_bits;
		return efr;
	} else if (is(name, "EfrText")) {
		char names[1024];
		size_t n = fw_ivrs_efr_features(b->efr, b->efr2, out->names, 32);
		size_t k = put(out->buf, sizeof(out->buf), 0, fw_bitfields_str(b->efr, &fw_ivrs_efr_bits, names, sizeof(names)));
		k = put(out->buf, sizeof(out->buf), k, " ");
		put(out->buf, sizeof(out->buf), k, linux_features(out->names, n, names, sizeof(names)));
		out->s = out->buf;
		return efr;
	} else if (is(name, "Efr2Text")) {
		char names[512];
		size_t k = put(out->buf, sizeof(out->buf), 0, b->efr2 ? ": " : "");
		put(out->buf, sizeof(out->buf), k, b->efr2 ? fw_bitfields_str(b->efr2, &fw_ivrs_efr2_bits, names, sizeof(names)) : "");
		out->s = out->buf;
		return efr;
	} else if (is(name, "EfrFeatures")) {
		out->nlines = fw_ivrs_efr_features(b->efr, b->efr2, out->names, 32);
		out->lines = out->names;
		return efr;
	} else if (is(name, "LinuxUses")) {
		out->u = b->linux_uses;
	} else if (is(name, "IommuIndex")) {
		out->u = (uint64_t)b->iommu_index;
		out->null = b->iommu_index < 0;
	} else if (is(name, "LinuxNote")) {
		if (b->linux_uses)
			snprintf(out->buf, sizeof(out->buf), "(Linux IOMMU %d)", b->iommu_index);
		else
			snprintf(out->buf, sizeof(out->buf), "(Linux uses the %02xh blocks instead)", m->linux_type);
		out->s = out->buf;
	} else if (is(name, "DeviceEntries")) {
		out->u = b->nraw_entries;
	} else if (is(name, "Covered")) {
		out->cols = covered_cols;
		out->ncols = 3;
		out->cells = x->covered[bi];
		out->nrows = b->ncovered;
	} else if (is(name, "Covers")) {
		out->lines = &x->covers[bi];
		out->nlines = 1;
		return x->covers[bi] != NULL;
	} else if (is(name, "Devices")) {
		/* what an IVMD applies to */
		char a[16], z[16];
		if (b->type == FW_IVRS_IVMD_ALL)
			snprintf(out->buf, sizeof(out->buf), "every device of segment %04x", b->segment);
		else if (b->type == FW_IVRS_IVMD_ONE)
			snprintf(out->buf, sizeof(out->buf), "device %s", fw_acpi_bdf_str(b->segment, b->device_id, a));
		else
			snprintf(out->buf, sizeof(out->buf), "devices %s .. %s", fw_acpi_bdf_str(b->segment, b->device_id, a),
				 fw_acpi_bdf_str(b->segment, b->aux_data, z));
		out->s = out->buf;
	} else if (is(name, "Start")) {
		out->u = b->start_address;
	} else if (is(name, "MemoryLength")) {
		out->u = b->memory_length;
	} else {
		return false;
	}
	return true;
}

static bool derive(const struct fw_acpi_table *t, size_t part, const char *name, struct fw_acpi_derived *out)
{
	const struct ivrs_facts *x = t->model;
	const struct fw_ivrs *m = &x->m;
	if (!x || !t->doc || part >= t->doc->nparts)
		return false;
	const struct fw_acpi_part *p = &t->doc->parts[part];
	if (part && p->within) {
		const struct fw_ivrs_block *b = block_of(m, &t->doc->parts[p->within]);
		const struct fw_ivrs_entry *e = entry_of(b, p);
		if (is(name, "@listed")) {
			out->u = e != NULL;
			return true;
		}
		return e && derive_entry(b, e, name, out);
	}
	if (part) {
		const struct fw_ivrs_block *b = block_of(m, p);
		return b && derive_block(x, b, name, out);
	}
	if (is(name, "Ivinfo")) {
		out->u = m->ivinfo;
		out->bits = &fw_ivrs_ivinfo_bits;
	} else if (is(name, "LinuxType")) {
		out->u = m->linux_type;
		out->null = !m->linux_type;
	} else if (is(name, "Iommus")) {
		out->u = m->niommus;
	} else if (is(name, "Plural")) {
		out->s = m->niommus == 1 ? "" : "s";
	} else if (is(name, "GlobalEfr") || is(name, "GlobalEfr2")) {
		out->u = name[9] ? m->global_efr2 : m->global_efr;
		return m->global_efr_valid;
	} else if (is(name, "GlobalFeatures")) {
		out->lines = x->global_features;
		out->nlines = x->nglobal_features;
		return m->global_efr_valid;
	} else if (is(name, "GlobalLinux")) {
		out->s = linux_features(x->global_features, x->nglobal_features, out->buf, sizeof(out->buf));
	} else if (is(name, "Remap")) {
		out->cols = remap_cols;
		out->ncols = 4;
		out->cells = x->remap;
		out->nrows = m->nspecials;
	} else if (is(name, "RemapLine")) {
		out->lines = &x->remap_line;
		out->nlines = m->nspecials ? 1 : 0;
	} else if (is(name, "Messages")) {
		/* read when written: the MADT cross-check adds messages after the table is decoded */
		out->lines = m->linux_messages;
		out->nlines = m->nlinux_messages;
		out->u = m->nlinux_messages;
		out->indent = 2;
	} else {
		return false;
	}
	return true;
}

#define D(key, name, as) {key, name, as, false, derive}
#define N(key, name, as) {key, name, as, true, derive}
static const struct fw_acpi_show ivrs_show[] = {
	D("ivinfo", "Ivinfo", FW_AS_BITS),
	N("linux.ivhd_type", "LinuxType", FW_AS_NUMBER),
	D("linux.iommus", "Iommus", FW_AS_NUMBER),
	D("linux.efr", "GlobalEfr", FW_AS_HEX),
	D("linux.efr2", "GlobalEfr2", FW_AS_HEX),
	D("linux.efr_features", "GlobalFeatures", FW_AS_LINES),
	D("linux.interrupt_remapping_map", "Remap", FW_AS_ROWS),
	D("linux.messages", "Messages", FW_AS_LINES),
	D(NULL, "Plural", FW_AS_TEXT),
	D(NULL, "GlobalLinux", FW_AS_TEXT),
	D(NULL, "RemapLine", FW_AS_LINES),
};
static const char *const ivrs_text[] = {
	"IVinfo 0x{Ivinfo:%08x}: {Ivinfo:bits}",
	"{!LinuxType}Linux uses the IVHD {LinuxType:%02x}h blocks: {Iommus} IOMMU{Plural}",
	"global EFR 0x{GlobalEfr:%016x}, EFR2 0x{GlobalEfr2:%x} {GlobalLinux}",
	"{*RemapLine}",
	"{!Messages}{#yellow}Linux would print:{#reset}",
	"{*Messages}",
	NULL,
};
#define SHOW_BLOCK                                                                                                   \
	{"offset", "@offset", FW_AS_NUMBER, false, NULL}, {"type", "@type", FW_AS_NUMBER, false, NULL},                  \
		D("type_name", "TypeName", FW_AS_TEXT), D("flags", "Flags", FW_AS_FLAGS),                                  \
		{"length", "@length", FW_AS_NUMBER, false, NULL}
static const struct fw_acpi_show ivhd_show[] = {
	SHOW_BLOCK,
	D("device_id", "DeviceId", FW_AS_NUMBER),
	D("bdf", "Bdf", FW_AS_TEXT),
	D("segment", "Segment", FW_AS_NUMBER),
	D("capability_offset", "Cap", FW_AS_NUMBER),
	D("base_address", "Base", FW_AS_HEX),
	D("iommu_info", "Info", FW_AS_BITS),
	D("attributes", "Attr", FW_AS_BITS),
	D("efr", "Efr", FW_AS_HEX),
	D("efr2", "Efr2", FW_AS_HEX),
	D("efr_features", "EfrFeatures", FW_AS_LINES),
	D("efr_fields", "EfrFields", FW_AS_BITS),
	D("efr2_fields", "Efr2Fields", FW_AS_BITS),
	D("features", "Features", FW_AS_BITS),
	D("linux_uses", "LinuxUses", FW_AS_BOOL),
	N("iommu_index", "IommuIndex", FW_AS_NUMBER),
	{"entries", "IVHD device entry", FW_AS_PARTS, false, NULL},
	D("device_entries", "DeviceEntries", FW_AS_NUMBER),
	D("covered", "Covered", FW_AS_ROWS),
	D(NULL, "LinuxNote", FW_AS_TEXT),
	D(NULL, "InfoText", FW_AS_TEXT),
	D(NULL, "AttrText", FW_AS_TEXT),
	D(NULL, "FeaturesText", FW_AS_TEXT),
	D(NULL, "EfrText", FW_AS_TEXT),
	D(NULL, "Efr2Text", FW_AS_TEXT),
	D(NULL, "Covers", FW_AS_LINES),
};
static const char *const ivhd_text[] = {
	"",
	"{#bold}@{@offset:0x%03x} IVHD {@type:%02x}h{#reset}  IOMMU {Bdf}  base {Base:0x%x}  {LinuxNote}",
	"  flags 0x{Flags:%02x}: {Flags:names}; capability at 0x{Cap:%02x}; info 0x{Info:%04x}: {InfoText}",
	"  attributes 0x{Attr:%08x}: {AttrText}",
	"  EFR  0x{Efr:%016x}: {EfrText}",
	"  EFR2 0x{Efr2:%016x}{Efr2Text}",
	"  features 0x{Features:%08x}: {FeaturesText}",
	"  device entries ({DeviceEntries} in the table; a START/END pair is one line):",
	"{*IVHD device entry}",
	"{*Covers}",
	NULL,
};
static const struct fw_acpi_show ivmd_show[] = {
	SHOW_BLOCK,
	D("device_id", "DeviceId", FW_AS_NUMBER),
	D("bdf", "Bdf", FW_AS_TEXT),
	D("start", "RangeStart", FW_AS_NUMBER),
	D("end", "RangeEnd", FW_AS_NUMBER),
	D("start_bdf", "RangeStartBdf", FW_AS_TEXT),
	D("end_bdf", "RangeEndBdf", FW_AS_TEXT),
	D("segment", "Segment", FW_AS_NUMBER),
	D("start_address", "Start", FW_AS_HEX),
	D("memory_length", "MemoryLength", FW_AS_HEX),
	D(NULL, "Devices", FW_AS_TEXT),
};
static const char *const ivmd_text[] = {
	"",
	"{#bold}@{@offset:0x%03x} IVMD {@type:%02x}h{#reset}  {Devices}",
	"  memory 0x{Start:%x} + 0x{MemoryLength:%x}, flags 0x{Flags:%02x}: {Flags:names}",
	NULL,
};
static const struct fw_acpi_show other_show[] = {SHOW_BLOCK};
static const char *const other_text[] = {
	"", "@{@offset:0x%03x} block type 0x{@type:%02x}, {@length} bytes (not IVHD or IVMD)", NULL,
};
static const struct fw_acpi_show entry_show[] = {
	D(NULL, "@listed", FW_AS_BOOL),
	{"offset", "@offset", FW_AS_NUMBER, false, NULL},
	D("type", "Kind", FW_AS_TEXT),
	{"type_id", "@type", FW_AS_NUMBER, false, NULL},
	D("start", "Start", FW_AS_NUMBER),
	D("end", "End", FW_AS_NUMBER),
	D("start_bdf", "StartBdf", FW_AS_TEXT),
	D("end_bdf", "EndBdf", FW_AS_TEXT),
	D("device_id", "DeviceId", FW_AS_NUMBER),
	D("bdf", "Bdf", FW_AS_TEXT),
	D("dte", "Dte", FW_AS_NUMBER),
	D("dte_names", "Dte", FW_AS_TOKENS),
	D("alias", "Alias", FW_AS_NUMBER),
	D("alias_bdf", "AliasBdf", FW_AS_TEXT),
	D("ext_setting", "Ext", FW_AS_HEX),
	D("variety", "Variety", FW_AS_TEXT),
	D("handle", "Handle", FW_AS_NUMBER),
	D("device_id", "SpecialId", FW_AS_NUMBER),
	D("bdf", "SpecialBdf", FW_AS_TEXT),
	D("hid", "Hid", FW_AS_TEXT),
	D("cid", "Cid", FW_AS_TEXT),
	D("uid_format", "UidFormat", FW_AS_TEXT),
	D("uid", "Uid", FW_AS_TEXT),
	D(NULL, "Desc", FW_AS_TEXT),
	D(NULL, "DteText", FW_AS_TEXT),
};
static const char *const entry_text[] = {"    @{@offset:0x%03x} {Kind:%-12s} {Desc}{?DteText:  [%s]}", NULL};
#undef D
#undef N

/* diff: the IOMMUs Linux uses, keyed by segment and device */
static void efr_text(uint64_t efr, uint64_t efr2, struct fw_acpi_text *t)
{
	const char *names[32];
	size_t n = fw_ivrs_efr_features(efr, efr2, names, 32);
	for (size_t i = 0; i < n; i++)
		fw_acpi_text_put(t, "%s%s", i ? " " : "", names[i]);
}

static void iommu_text(const struct fw_ivrs_block *b, struct fw_acpi_text *t)
{
	size_t devices = 0;
	for (size_t i = 0; i < b->ncovered; i++)
		devices += (size_t)(b->covered[i].last - b->covered[i].first) + 1;
	fw_acpi_text_put(t, "base 0x%" PRIX64 ", flags 0x%02X, %zu devices", b->base_address, b->flags, devices);
	if (b->has_efr) {
		fw_acpi_text_put(t, ", EFR ");
		efr_text(b->efr, b->efr2, t);
	}
}

static void iommu_change(const struct fw_ivrs_block *x, const struct fw_ivrs_block *y, fw_acpi_change_fn change, void *ctx)
{
	struct fw_acpi_text ta = {0}, tb = {0};
	const struct fw_ivrs_block *named = x ? x : y;
	char what[48];
	snprintf(what, sizeof(what), "IOMMU %04x:%02x:%02x.%u", named->segment, named->device_id >> 8,
		 (named->device_id >> 3) & 0x1F, named->device_id & 7);
	if (x)
		iommu_text(x, &ta);
	else
		fw_acpi_text_put(&ta, "(none)");
	if (y)
		iommu_text(y, &tb);
	else
		fw_acpi_text_put(&tb, "(none)");
	if (strcmp(ta.buf, tb.buf))
		change(ctx, what, ta.buf, tb.buf, NULL);
}

static void compare(const struct fw_acpi_table *ta, const struct fw_acpi_table *tb, fw_acpi_change_fn change, void *ctx)
{
	const struct fw_ivrs *a = ta->model, *b = tb->model;
	char va[64], vb[64];
	if (!a || !b)
		return;
	if (a->ivinfo != b->ivinfo) {
		snprintf(va, sizeof(va), "0x%08X", a->ivinfo);
		snprintf(vb, sizeof(vb), "0x%08X", b->ivinfo);
		change(ctx, "IVinfo", va, vb, NULL);
	}
	if (a->linux_type != b->linux_type || a->niommus != b->niommus) {
		snprintf(va, sizeof(va), "%zu (IVHD type 0x%02X)", a->niommus, a->linux_type);
		snprintf(vb, sizeof(vb), "%zu (IVHD type 0x%02X)", b->niommus, b->linux_type);
		change(ctx, "IOMMUs", va, vb, NULL);
	}
	struct fw_strmap mb, seen;
	fw_strmap_init(&mb);
	fw_strmap_init(&seen);
	char key[32];
	for (size_t i = 0; i < b->nblocks; i++)
		if (b->blocks[i].linux_uses) {
			snprintf(key, sizeof(key), "%u:%u", b->blocks[i].segment, b->blocks[i].device_id);
			fw_strmap_put(&mb, key, (void *)&b->blocks[i]);
		}
	for (size_t i = 0; i < a->nblocks; i++) {
		const struct fw_ivrs_block *x = &a->blocks[i];
		if (!x->linux_uses)
			continue;
		snprintf(key, sizeof(key), "%u:%u", x->segment, x->device_id);
		fw_strmap_put(&seen, key, NULL);
		iommu_change(x, fw_strmap_get(&mb, key), change, ctx);
	}
	for (size_t i = 0; i < b->nblocks; i++) {
		const struct fw_ivrs_block *y = &b->blocks[i];
		snprintf(key, sizeof(key), "%u:%u", y->segment, y->device_id);
		if (y->linux_uses && !fw_strmap_has(&seen, key))
			iommu_change(NULL, y, change, ctx);
	}
	fw_strmap_free(&seen);
	fw_strmap_free(&mb);
	if (a->global_efr_valid && b->global_efr_valid && (a->global_efr != b->global_efr || a->global_efr2 != b->global_efr2)) {
		struct fw_acpi_text xa = {0}, xb = {0};
		efr_text(a->global_efr, a->global_efr2, &xa);
		efr_text(b->global_efr, b->global_efr2, &xb);
		if (strcmp(xa.buf, xb.buf))
			change(ctx, "features Linux uses", xa.buf, xb.buf, NULL);
	}
}

static const struct fw_acpi_shape ivrs_shapes[] = {
	FW_ACPI_SHAPE(&fw_ivrs_layout, ivrs_show, ivrs_text),
	FW_ACPI_SHAPE(&fw_ivhd10_layout, ivhd_show, ivhd_text),
	FW_ACPI_SHAPE(&fw_ivhd11_layout, ivhd_show, ivhd_text),
	FW_ACPI_SHAPE(&fw_ivmd_layout, ivmd_show, ivmd_text),
	FW_ACPI_SHAPE(NULL, other_show, other_text),
	FW_ACPI_SHAPE(&fw_ivhd_device_layout, entry_show, entry_text),
	FW_ACPI_SHAPE(&fw_ivhd_alias_layout, entry_show, entry_text),
	FW_ACPI_SHAPE(&fw_ivhd_ext_layout, entry_show, entry_text),
	FW_ACPI_SHAPE(&fw_ivhd_special_layout, entry_show, entry_text),
	FW_ACPI_SHAPE(&fw_ivhd_hid_layout, entry_show, entry_text),
};
static const struct fw_acpi_view ivrs_view = {ivrs_shapes, sizeof(ivrs_shapes) / sizeof(ivrs_shapes[0]), "blocks", compare,
					      true};

static const struct fw_acpi_subtype block_types[] = {
	{FW_IVRS_IVHD_10, &fw_ivhd10_layout, -1, &fw_ivhd_device_layout},
	{FW_IVRS_IVHD_11, &fw_ivhd11_layout, -1, &fw_ivhd_device_layout},
	{FW_IVRS_IVHD_40, &fw_ivhd11_layout, -1, &fw_ivhd_device_layout},
	{FW_IVRS_IVMD_ALL, &fw_ivmd_layout, -1, NULL},
	{FW_IVRS_IVMD_ONE, &fw_ivmd_layout, -1, NULL},
	{FW_IVRS_IVMD_RANGE, &fw_ivmd_layout, -1, NULL},
};
static const struct fw_acpi_subtype entry_types[] = {
	{FW_IVHD_DEV_ALIAS_SELECT, &fw_ivhd_alias_layout, -1, NULL}, {FW_IVHD_DEV_ALIAS_RANGE, &fw_ivhd_alias_layout, -1, NULL},
	{FW_IVHD_DEV_EXT_SELECT, &fw_ivhd_ext_layout, -1, NULL},     {FW_IVHD_DEV_EXT_RANGE, &fw_ivhd_ext_layout, -1, NULL},
	{FW_IVHD_DEV_SPECIAL, &fw_ivhd_special_layout, -1, NULL},    {FW_IVHD_DEV_ACPI_HID, &fw_ivhd_hid_layout, -1, NULL},
};

static size_t entry_length_of(const uint8_t *p, size_t left)
{
	struct fw_view v = {p, left, FW_OFFSET_UNKNOWN};
	return entry_length(p[0], &v, 0);
}

const struct fw_acpi_layout fw_acpi_ivrs_table = {
	.fixed = &fw_ivrs_layout, .rest = FW_ACPI_REST_RECORDS, .start_field = -1, .count_field = -1,
	.records = {"block", 1, 2, 2}, .types = block_types, .ntypes = sizeof(block_types) / sizeof(block_types[0]),
	.inner = {"IVHD device entry", 1, 0, 0}, .inner_length = entry_length_of, .inner_types = entry_types,
	.ninner_types = sizeof(entry_types) / sizeof(entry_types[0]), .hook_reports = true, .view = &ivrs_view,
};

/* IVRS, the AMD I/O Virtualization Reporting Structure (reference/acpi.md 3 and 4).
 *
 * Layout: the 36-byte header, IVinfo (u32 @36), 8 reserved bytes, then blocks that each start
 * {type u8, flags u8, length u16}: IVHD 10h/11h/40h (one IOMMU each, with device entries) and
 * IVMD 20h/21h/22h (memory ranges). Offsets in the block and entry layouts are relative to the
 * block or entry start. The decoder keeps every block and entry, and derives what Linux derives:
 * the one IVHD type it uses, the devices each of those IOMMUs covers, the IOAPIC/HPET map for
 * interrupt remapping, the global EFR, and the `AMD-Vi:` firmware-bug messages Linux would print
 * for this table. The table's layout row (fw_acpi_ivrs_table: blocks, device entries by type)
 * and its view write the JSON and text and compare two tables' IOMMUs for diff (ivrs.c).
 */
#ifndef FW_ACPI_IVRS_H
#define FW_ACPI_IVRS_H

#include "parsers/bits.h"
#include "acpi/table.h"
#include "parsers/layout.h"

/* The 48-byte IVRS header: the common ACPI header, IVinfo and 8 reserved bytes */
enum { IVRS_IVINFO, IVRS_RESERVED, IVRS__COUNT };
extern const struct fw_layout fw_ivrs_layout;
#define FW_IVRS_HEADER_SIZE 48

/* IVinfo bits */
#define FW_IVINFO_EFR_SUPPORTED 0x00000001u
#define FW_IVINFO_DMA_REMAP 0x00000002u
#define FW_IVINFO_GVA_SIZE_SHIFT 5
#define FW_IVINFO_PA_SIZE_SHIFT 8
#define FW_IVINFO_VA_SIZE_SHIFT 15
extern const struct fw_named_value fw_ivinfo_names[];

/* Block types */
enum {
	FW_IVRS_IVHD_10 = 0x10,
	FW_IVRS_IVHD_11 = 0x11,
	FW_IVRS_IVHD_40 = 0x40,
	FW_IVRS_IVMD_ALL = 0x20,
	FW_IVRS_IVMD_ONE = 0x21,
	FW_IVRS_IVMD_RANGE = 0x22,
};

/* Every block starts with these four bytes. */
enum { IVRS_BLOCK_TYPE, IVRS_BLOCK_FLAGS, IVRS_BLOCK_LENGTH, IVRS_BLOCK__COUNT };
extern const struct fw_layout fw_ivrs_block_layout;

/* IVHD header: 24 bytes for type 10h, 40 bytes for 11h/40h (EFR and EFR2 images added) */
enum {
	IVHD_TYPE,
	IVHD_FLAGS,
	IVHD_LENGTH,
	IVHD_DEVICE_ID,
	IVHD_CAPABILITY_OFFSET,
	IVHD_BASE_ADDRESS,
	IVHD_PCI_SEGMENT,
	IVHD_INFO,
	IVHD_FEATURES, /* 10h: IOMMU feature reporting; 11h/40h: IOMMU attributes */
	IVHD_EFR,
	IVHD_EFR2,
	IVHD__COUNT
};
extern const struct fw_layout fw_ivhd10_layout; /* EFR fields hidden */
extern const struct fw_layout fw_ivhd11_layout; /* also type 40h */
#define FW_IVHD10_HEADER_SIZE 24
#define FW_IVHD11_HEADER_SIZE 40
extern const struct fw_bitfields fw_ivhd_flag_names;

/* EFR bits Linux uses (reference/acpi.md 3.7) */
#define FW_EFR_PREF_SUP (1ull << 0)
#define FW_EFR_PPR_SUP (1ull << 1)
#define FW_EFR_XT_SUP (1ull << 2)
#define FW_EFR_NX_SUP (1ull << 3)
#define FW_EFR_GT_SUP (1ull << 4)
#define FW_EFR_IA_SUP (1ull << 6)
#define FW_EFR_GA_SUP (1ull << 7)
#define FW_EFR_HE_SUP (1ull << 8)
#define FW_EFR_PC_SUP (1ull << 9)
#define FW_EFR_HATS_SHIFT 10
#define FW_EFR_GATS_SHIFT 12
#define FW_EFR_GLX_SHIFT 14
#define FW_EFR_GAM_VAPIC (1ull << 21)
#define FW_EFR_PASMAX_SHIFT 32
#define FW_EFR_MSICAPMMIO_SUP (1ull << 46)
#define FW_EFR_GIO_SUP (1ull << 48)
#define FW_EFR_HA_SUP (1ull << 49)
#define FW_EFR_EPH_SUP (1ull << 50)
#define FW_EFR_HD_SUP (1ull << 52)
#define FW_EFR_SNP_SUP (1ull << 63)

/* Device entries. The first four bytes are common; the length follows from the type
 * (4 << (type >> 6)) except for 0xF0, which is 22 + UID length. */
enum {
	FW_IVHD_DEV_PAD = 0x00,
	FW_IVHD_DEV_ALL = 0x01,
	FW_IVHD_DEV_SELECT = 0x02,
	FW_IVHD_DEV_RANGE_START = 0x03,
	FW_IVHD_DEV_RANGE_END = 0x04,
	FW_IVHD_DEV_ALIAS_SELECT = 0x42,
	FW_IVHD_DEV_ALIAS_RANGE = 0x43,
	FW_IVHD_DEV_EXT_SELECT = 0x46,
	FW_IVHD_DEV_EXT_RANGE = 0x47,
	FW_IVHD_DEV_SPECIAL = 0x48,
	FW_IVHD_DEV_ACPI_HID = 0xF0,
};
enum { IVDEV_TYPE, IVDEV_DEVICE_ID, IVDEV_SETTING, IVDEV__COUNT };
extern const struct fw_layout fw_ivhd_device_layout; /* 4 bytes */
#define FW_IVHD_DEVICE_SIZE 4
enum { IVDEV8_TYPE, IVDEV8_DEVICE_ID, IVDEV8_SETTING, IVDEV8_RESERVED, IVDEV8_SOURCE_ID, IVDEV8_RESERVED2, IVDEV8__COUNT };
extern const struct fw_layout fw_ivhd_alias_layout; /* 8 bytes, 42h/43h */
enum { IVDEVX_TYPE, IVDEVX_DEVICE_ID, IVDEVX_SETTING, IVDEVX_EXT_SETTING, IVDEVX__COUNT };
extern const struct fw_layout fw_ivhd_ext_layout; /* 8 bytes, 46h/47h */
enum { IVSPECIAL_TYPE, IVSPECIAL_DEVICE_ID, IVSPECIAL_SETTING, IVSPECIAL_HANDLE, IVSPECIAL_SOURCE_ID, IVSPECIAL_VARIETY, IVSPECIAL__COUNT };
extern const struct fw_layout fw_ivhd_special_layout; /* 8 bytes, 48h */
#define FW_IVHD_SPECIAL_IOAPIC 1
#define FW_IVHD_SPECIAL_HPET 2
enum { IVHID_TYPE, IVHID_DEVICE_ID, IVHID_SETTING, IVHID_HID, IVHID_CID, IVHID_UID_FORMAT, IVHID_UID_LENGTH, IVHID__COUNT };
extern const struct fw_layout fw_ivhd_hid_layout; /* 22 bytes, then UID_LENGTH bytes of UID */
#define FW_IVHD_HID_SIZE 22
#define FW_IVHD_UID_NONE 0
#define FW_IVHD_UID_INTEGER 1
#define FW_IVHD_UID_STRING 2

/* DTE setting byte */
#define FW_IVHD_SETTING_INIT_PASS 0x01
#define FW_IVHD_SETTING_EINT_PASS 0x02
#define FW_IVHD_SETTING_NMI_PASS 0x04
#define FW_IVHD_SETTING_SYSMGT_MASK 0x30
#define FW_IVHD_SETTING_LINT0_PASS 0x40
#define FW_IVHD_SETTING_LINT1_PASS 0x80

/* IVMD block, 32 bytes */
enum { IVMD_TYPE, IVMD_FLAGS, IVMD_LENGTH, IVMD_DEVICE_ID, IVMD_AUX_DATA, IVMD_PCI_SEGMENT, IVMD_START, IVMD_SIZE, IVMD__COUNT };
extern const struct fw_layout fw_ivmd_layout;
#define FW_IVMD_SIZE 32

/* Bit fields, shared by every writer. */
extern const struct fw_bitfields fw_ivrs_ivinfo_bits;
extern const struct fw_bitfields fw_ivhd10_feature_bits; /* IVHD 10h IOMMU Feature Reporting */
extern const struct fw_bitfields fw_ivhd_attr_bits;      /* IVHD 11h/40h IOMMU Attributes */
extern const struct fw_bitfields fw_ivhd_info_bits;      /* IOMMU Info */
extern const struct fw_bitfields fw_ivrs_efr_bits;
extern const struct fw_bitfields fw_ivrs_efr2_bits;
extern const struct fw_bitfields fw_ivrs_dte_bits;        /* DTE setting byte */
extern const struct fw_bitfields fw_ivmd_flag_names;

enum fw_ivrs_entry_kind {
	FW_IVRS_E_PAD,
	FW_IVRS_E_ALL,
	FW_IVRS_E_SELECT,
	FW_IVRS_E_RANGE,
	FW_IVRS_E_ALIAS_SELECT,
	FW_IVRS_E_ALIAS_RANGE,
	FW_IVRS_E_EXT_SELECT,
	FW_IVRS_E_EXT_RANGE,
	FW_IVRS_E_SPECIAL,
	FW_IVRS_E_ACPI_HID,
	FW_IVRS_E_END, /* an END without a START: kept so nothing in the table goes unlisted */
	FW_IVRS_E_UNKNOWN,
};
/* "select", "range", "alias-range", "special", "acpi-hid", ... */
const char *fw_ivrs_entry_kind_name(enum fw_ivrs_entry_kind k);
/* "Hardware Definition Block 40h", "Memory Definition Block 22h (range)", ... */
const char *fw_ivrs_block_type_name(uint8_t type);

struct fw_ivrs_entry {
	uint32_t offset;   /* of the (first) entry, in the table */
	uint32_t length;   /* bytes of the first entry (ranges: the START entry) */
	enum fw_ivrs_entry_kind kind;
	uint8_t type;      /* type byte of the (first) entry */
	uint8_t dte;       /* DTE setting byte */
	uint16_t device_id; /* the device, or the first of a range */
	uint16_t end;       /* ranges: the last device (inclusive) */
	bool closed;        /* ranges: an END entry was found */
	uint32_t end_offset; /* ranges: offset of the END entry */
	uint16_t source;    /* alias and special entries: the requester id the IOMMU sees */
	uint32_t ext;       /* extended entries: the extended setting */
	uint8_t handle;     /* special: IOAPIC id or HPET number */
	uint8_t variety;    /* special: FW_IVHD_SPECIAL_IOAPIC or _HPET */
	char hid[9];        /* ACPI HID: printable, "" when all zero */
	char cid[9];        /* ACPI HID: CID as text when printable */
	uint64_t cid_raw;
	uint8_t uid_format, uid_length;
	const char *uid;    /* string UID, or the integer in decimal; NULL when none */
};

/* An inclusive range of requester ids. */
struct fw_ivrs_range {
	uint16_t first, last;
};

struct fw_ivrs_block {
	uint32_t offset; /* in the table */
	uint8_t type;
	uint8_t flags;
	uint16_t length;
	bool is_ivhd, is_ivmd;
	bool linux_uses;  /* an IVHD of the type Linux selects */
	int iommu_index;  /* index among the blocks Linux uses, or -1 */
	/* IVHD */
	uint16_t device_id;
	uint16_t cap_offset;
	uint64_t base_address;
	uint16_t segment;
	uint16_t info;
	uint32_t attributes; /* 10h: feature reporting; 11h/40h: attributes */
	bool has_efr;        /* 11h/40h */
	uint64_t efr, efr2;
	struct fw_ivrs_entry *entries;
	size_t nentries;
	size_t nraw_entries; /* device entries in the table (a START/END pair counts two) */
	struct fw_ivrs_range *covered; /* devices whose DTE this IOMMU sets, merged and sorted */
	size_t ncovered;
	/* IVMD */
	uint16_t aux_data; /* 22h: last device of the range */
	uint64_t start_address, memory_length;
};

/* An IOAPIC or HPET the IOMMU remaps interrupts for (from 48h entries of the blocks Linux uses). */
struct fw_ivrs_special {
	uint8_t variety, handle;
	uint16_t segment, source;
	int iommu_index;
	uint32_t offset;
};

struct fw_ivrs {
	uint32_t ivinfo;
	struct fw_ivrs_block *blocks;
	size_t nblocks;
	uint8_t linux_type;  /* the IVHD type Linux uses (0 when there is no block) */
	size_t niommus;      /* blocks of that type */
	bool global_efr_valid; /* Linux takes EFR/EFR2 from the table (11h/40h and IVinfo EFRSup) */
	uint64_t global_efr, global_efr2; /* AND over the IOMMUs, as Linux computes it */
	struct fw_ivrs_special *specials;
	size_t nspecials;
	const char **linux_messages; /* what Linux would print, "AMD-Vi: [Firmware Bug]: ..." */
	size_t nlinux_messages, linux_messages_cap;
};

void *fw_acpi_ivrs_decode(struct fw_acpi_table *t, struct fw_arena *a);

/* Linux's names for the EFR/EFR2 features it prints at boot ("PreF PPR X2APIC NX GT [5] IA GA HE
 * PC GA_vAPIC SNP SEV-TIO"), in its order; returns how many were stored. */
size_t fw_ivrs_efr_features(uint64_t efr, uint64_t efr2, const char **out, size_t max);

/* Cross-check with the MADT IOAPIC ids (in MADT order) as Linux's check_ioapic_information does,
 * appending its messages to the model and diagnostics to the table. */
void fw_ivrs_check_ioapics(struct fw_ivrs *ivrs, struct fw_acpi_table *t, struct fw_arena *a, const uint8_t *ioapic_ids,
			   size_t n);

/* What an SEV-SNP readiness check needs: the IOMMUs Linux uses, whether their EFR images are
 * what Linux reads (11h/40h blocks and IVinfo EFRSup), and whether every one has SNPSup. */
void fw_ivrs_snp_summary(const struct fw_ivrs *m, unsigned *iommus, bool *efr_known, bool *snp_all);

/* The IOMMU block (of the type Linux uses) that covers a requester id, or NULL. */
const struct fw_ivrs_block *fw_ivrs_iommu_for(const struct fw_ivrs *ivrs, uint16_t segment, uint16_t devid);

#endif

/* IVRS, the AMD I/O Virtualization Reporting Structure (reference/acpi.md 3): the table header
 * extension, IVHD blocks of types 10h/11h/40h, their device entries, and IVMD blocks. Offsets of
 * blocks and entries are relative to the block or entry start. */
#ifndef FW_ACPI_IVRS_H
#define FW_ACPI_IVRS_H

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
extern const struct fw_named_value fw_ivhd_flag_names[];

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

#endif

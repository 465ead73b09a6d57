/* SRAT, the System Resource Affinity Table (reference/acpi.md 5): header extension and the
 * affinity structures (each starts with u8 Type, u8 Length). */
#ifndef FW_ACPI_SRAT_H
#define FW_ACPI_SRAT_H

#include "parsers/layout.h"

enum { SRAT_TABLE_REVISION, SRAT_RESERVED, SRAT__COUNT };
extern const struct fw_layout fw_srat_layout;
#define FW_SRAT_HEADER_SIZE 48

enum {
	FW_SRAT_LOCAL_APIC = 0,
	FW_SRAT_MEMORY = 1,
	FW_SRAT_X2APIC = 2,
	FW_SRAT_GICC = 3,
	FW_SRAT_GIC_ITS = 4,
	FW_SRAT_GENERIC_INITIATOR = 5,
	FW_SRAT_GENERIC_PORT = 6,
	FW_SRAT_RINTC = 7,
};

enum { SRAT_APIC_TYPE, SRAT_APIC_LENGTH, SRAT_APIC_PD_LO, SRAT_APIC_APIC_ID, SRAT_APIC_FLAGS, SRAT_APIC_SAPIC_EID,
       SRAT_APIC_PD_HI, SRAT_APIC_CLOCK_DOMAIN, SRAT_APIC__COUNT };
extern const struct fw_layout fw_srat_apic_layout; /* 16 bytes */

enum { SRAT_MEM_TYPE, SRAT_MEM_LENGTH, SRAT_MEM_PD, SRAT_MEM_BASE, SRAT_MEM_SIZE, SRAT_MEM_FLAGS, SRAT_MEM__COUNT };
extern const struct fw_layout fw_srat_memory_layout; /* 40 bytes */
#define FW_SRAT_MEM_ENABLED 0x1
#define FW_SRAT_MEM_HOT_PLUGGABLE 0x2
#define FW_SRAT_MEM_NON_VOLATILE 0x4
#define FW_SRAT_MEM_SPECIFIC_PURPOSE 0x8

enum { SRAT_X2APIC_TYPE, SRAT_X2APIC_LENGTH, SRAT_X2APIC_PD, SRAT_X2APIC_ID, SRAT_X2APIC_FLAGS,
       SRAT_X2APIC_CLOCK_DOMAIN, SRAT_X2APIC__COUNT };
extern const struct fw_layout fw_srat_x2apic_layout; /* 24 bytes */
#define FW_SRAT_CPU_ENABLED 0x1

/* Generic Initiator (type 5) and Generic Port (type 6) share one layout */
enum { SRAT_GI_TYPE, SRAT_GI_LENGTH, SRAT_GI_HANDLE_TYPE, SRAT_GI_PD, SRAT_GI_HANDLE, SRAT_GI_FLAGS, SRAT_GI__COUNT };
extern const struct fw_layout fw_srat_gi_layout; /* 32 bytes */
#define FW_SRAT_GI_HANDLE_ACPI 0
#define FW_SRAT_GI_HANDLE_PCI 1
#define FW_SRAT_GI_ENABLED 0x1
#define FW_SRAT_GI_ARCH_TRANSACTIONS 0x2
/* The 16-byte device handle: PCI form {u16 segment, u16 BDF}, ACPI form {char HID[8], u32 UID} */
enum { SRAT_PCI_HANDLE_SEGMENT, SRAT_PCI_HANDLE_BDF, SRAT_PCI_HANDLE__COUNT };
extern const struct fw_layout fw_srat_pci_handle_layout;
enum { SRAT_ACPI_HANDLE_HID, SRAT_ACPI_HANDLE_UID, SRAT_ACPI_HANDLE__COUNT };
extern const struct fw_layout fw_srat_acpi_handle_layout;

#endif

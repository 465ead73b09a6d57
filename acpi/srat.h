/* SRAT, the System Resource Affinity Table (reference/acpi.md 5; ACPI 6.5 5.2.16).
 *
 * Header, TableRevision u32 @36, 8 reserved bytes, then subtables {type u8, length u8} from 48:
 * processor local APIC (0), memory (1), processor x2APIC (2), GICC (3), GIC ITS (4), Generic
 * Initiator (5), Generic Port (6), RINTC (7); each layout's offsets are relative to the subtable start. Proximity domains are read as Linux reads them: the
 * upper bytes of a local APIC entry and of a memory entry count only from table revision 2.
 */
#ifndef FW_ACPI_SRAT_H
#define FW_ACPI_SRAT_H

#include "acpi/table.h"
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
/* The 16-byte device handle (ACPI 6.5 5.2.16.6, "Device Handle - PCI" and "- ACPI"): PCI form
 * {u16 segment, u8 bus, u8 device << 3 | function}, ACPI form {char HID[8], u32 UID}. The bus is
 * byte 2 and the device/function byte 3: not one little-endian BDF word (Linux's struct
 * acpi_srat_generic_affinity hands the 16 bytes to its readers as they are; ACPICA's actbl3.h
 * names them DeviceHandle). */
enum { SRAT_PCI_HANDLE_SEGMENT, SRAT_PCI_HANDLE_BUS, SRAT_PCI_HANDLE_DEVFN, SRAT_PCI_HANDLE__COUNT };
extern const struct fw_layout fw_srat_pci_handle_layout;
enum { SRAT_ACPI_HANDLE_HID, SRAT_ACPI_HANDLE_UID, SRAT_ACPI_HANDLE__COUNT };
extern const struct fw_layout fw_srat_acpi_handle_layout;

/* Arm and RISC-V processors */
enum { SRAT_GICC_TYPE, SRAT_GICC_LENGTH, SRAT_GICC_PD, SRAT_GICC_UID, SRAT_GICC_FLAGS, SRAT_GICC_CLOCK_DOMAIN,
       SRAT_GICC__COUNT };
extern const struct fw_layout fw_srat_gicc_layout; /* 18 bytes */
enum { SRAT_ITS_TYPE, SRAT_ITS_LENGTH, SRAT_ITS_PD, SRAT_ITS_RESERVED, SRAT_ITS_ID, SRAT_ITS__COUNT };
extern const struct fw_layout fw_srat_gic_its_layout; /* 12 bytes */
enum { SRAT_RINTC_TYPE, SRAT_RINTC_LENGTH, SRAT_RINTC_RESERVED, SRAT_RINTC_PD, SRAT_RINTC_UID, SRAT_RINTC_FLAGS,
       SRAT_RINTC_CLOCK_DOMAIN, SRAT_RINTC__COUNT };
extern const struct fw_layout fw_srat_rintc_layout; /* 20 bytes */

extern const struct fw_bitfields fw_srat_cpu_flag_names;    /* Enabled */
extern const struct fw_bitfields fw_srat_memory_flag_names; /* Enabled HotPluggable NonVolatile SpecificPurpose */
extern const struct fw_bitfields fw_srat_initiator_flag_names;

struct fw_srat_entry {
	uint32_t offset;
	uint8_t type, length;
	uint32_t proximity_domain;
	uint32_t flags;
	bool enabled;
	uint32_t id;           /* APIC id, x2APIC id, ACPI processor UID (GICC, RINTC), ITS id */
	uint32_t clock_domain;
	uint64_t base, size;   /* memory */
	uint8_t handle_type;   /* Generic Initiator/Port: 0 ACPI, 1 PCI */
	uint16_t segment, bdf; /* PCI handle; bdf = bus << 8 | devfn, as the handle's bytes 2 and 3 give them */
	char hid[9];           /* ACPI handle */
	uint32_t uid;
};

struct fw_srat {
	uint32_t table_revision;
	struct fw_srat_entry *entries;
	size_t nentries;
	uint32_t *domains; /* distinct proximity domains of enabled entries, ascending */
	size_t ndomains;
};

const char *fw_srat_type_name(uint8_t type);
/* The node Linux gives proximity domain PXM (drivers/acpi/numa/srat.c): nodes are numbered from 0
 * in the order domains first appear, first over the enabled processor and generic initiator
 * entries in table order, then over the enabled memory entries. -1 when no enabled entry has it. */
int fw_srat_linux_node(const struct fw_srat *s, uint32_t pxm);
void *fw_acpi_srat_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif

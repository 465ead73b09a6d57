/* MADT ("APIC"), the Multiple APIC Description Table (ACPI 6.5 5.2.12): local APIC address (u32
 * @36), flags (u32 @40), then interrupt controller structures {type u8, length u8} from 44, each
 * described by a layout (acpi/madt.c: a layout row with a view). The view and the model summarise:
 * the processors (local APIC and x2APIC), the I/O APICs (the IVRS cross-check needs their ids, in
 * table order), the interrupt source overrides and a count per structure type. */
#ifndef FW_ACPI_MADT_H
#define FW_ACPI_MADT_H

#include "acpi/table.h"
#include "parsers/layout.h"

enum { MADT_LOCAL_APIC_ADDRESS, MADT_FLAGS, MADT__COUNT };
extern const struct fw_layout fw_madt_layout;
#define FW_MADT_HEADER_SIZE 44
#define FW_MADT_PCAT_COMPAT 0x1

enum {
	FW_MADT_LOCAL_APIC = 0,
	FW_MADT_IO_APIC = 1,
	FW_MADT_INTERRUPT_OVERRIDE = 2,
	FW_MADT_NMI_SOURCE = 3,
	FW_MADT_LOCAL_APIC_NMI = 4,
	FW_MADT_LAPIC_ADDRESS_OVERRIDE = 5,
	FW_MADT_LOCAL_X2APIC = 9,
	FW_MADT_LOCAL_X2APIC_NMI = 10,
};
#define FW_MADT_CPU_ENABLED 0x1
#define FW_MADT_CPU_ONLINE_CAPABLE 0x2

enum { MADT_LAPIC_TYPE, MADT_LAPIC_LENGTH, MADT_LAPIC_UID, MADT_LAPIC_ID, MADT_LAPIC_FLAGS, MADT_LAPIC__COUNT };
extern const struct fw_layout fw_madt_local_apic_layout; /* 8 bytes */
enum { MADT_IOAPIC_TYPE, MADT_IOAPIC_LENGTH, MADT_IOAPIC_ID, MADT_IOAPIC_ADDRESS, MADT_IOAPIC_GSI_BASE, MADT_IOAPIC__COUNT };
extern const struct fw_layout fw_madt_io_apic_layout; /* 12 bytes */
enum { MADT_ISO_TYPE, MADT_ISO_LENGTH, MADT_ISO_BUS, MADT_ISO_SOURCE_IRQ, MADT_ISO_GSI, MADT_ISO_FLAGS, MADT_ISO__COUNT };
extern const struct fw_layout fw_madt_interrupt_override_layout; /* 10 bytes */
enum { MADT_X2APIC_TYPE, MADT_X2APIC_LENGTH, MADT_X2APIC_ID, MADT_X2APIC_FLAGS, MADT_X2APIC_UID, MADT_X2APIC__COUNT };
extern const struct fw_layout fw_madt_local_x2apic_layout; /* 16 bytes */
enum { MADT_X2NMI_TYPE, MADT_X2NMI_LENGTH, MADT_X2NMI_FLAGS, MADT_X2NMI_UID, MADT_X2NMI_LINT, MADT_X2NMI__COUNT };
extern const struct fw_layout fw_madt_local_x2apic_nmi_layout; /* 12 bytes */

extern const struct fw_bitfields fw_madt_flag_names;
extern const struct fw_bitfields fw_madt_cpu_flag_names; /* local APIC and x2APIC flags */
/* "active low, level" from MPS INTI flags. */
const char *fw_madt_inti_str(uint16_t flags, char *buf, size_t len);

struct fw_madt_cpu {
	uint32_t offset;
	uint8_t type;      /* 0 local APIC, 9 x2APIC */
	uint32_t apic_id;
	uint32_t uid;
	uint32_t flags;
};

struct fw_madt_ioapic {
	uint32_t offset;
	uint8_t id;
	uint32_t address;
	uint32_t gsi_base;
};

struct fw_madt_override {
	uint32_t offset;
	uint8_t bus, source;
	uint32_t gsi;
	uint16_t flags;
};

struct fw_madt {
	uint32_t lapic_address;
	uint32_t flags;
	struct fw_madt_cpu *cpus;
	size_t ncpus, cpus_enabled, cpus_online_capable;
	struct fw_madt_ioapic *ioapics;
	size_t nioapics;
	struct fw_madt_override *overrides;
	size_t noverrides;
	unsigned type_counts[256]; /* structures per type */
};

const char *fw_madt_type_name(uint8_t type);
void *fw_acpi_madt_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif

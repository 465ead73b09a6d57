/* DMAR, Intel's DMA Remapping Reporting table (reference/acpi.md 6; VT-d specification 8).
 *
 * Host address width - 1 (u8 @36), flags (u8 @37), 10 reserved bytes, then remapping structures
 * {type u16, length u16} from 48: DRHD (0), RMRR (1), ATSR (2), RHSA (3), ANDD (4), SATC (5),
 * SIDP (6). DRHD, RMRR, ATSR, SATC and SIDP end in device scopes {type, length, flags, reserved,
 * enumeration id, start bus, (device, function) path pairs}.
 */
#ifndef FW_ACPI_DMAR_H
#define FW_ACPI_DMAR_H

#include "acpi/table.h"

#define FW_DMAR_HEADER_SIZE 48

enum { DMAR_WIDTH, DMAR_FLAGS, DMAR__COUNT };
extern const struct fw_layout fw_dmar_layout; /* 48 bytes, relative to the table start */
extern const struct fw_bitfields fw_dmar_flag_names;

enum { FW_DMAR_DRHD = 0, FW_DMAR_RMRR = 1, FW_DMAR_ATSR = 2, FW_DMAR_RHSA = 3, FW_DMAR_ANDD = 4, FW_DMAR_SATC = 5,
       FW_DMAR_SIDP = 6 };

enum { DRHD_TYPE, DRHD_LENGTH, DRHD_FLAGS, DRHD_SIZE, DRHD_SEGMENT, DRHD_BASE, DRHD__COUNT };
extern const struct fw_layout fw_dmar_drhd_layout; /* 16 bytes */
enum { RMRR_TYPE, RMRR_LENGTH, RMRR_RESERVED, RMRR_SEGMENT, RMRR_BASE, RMRR_LIMIT, RMRR__COUNT };
extern const struct fw_layout fw_dmar_rmrr_layout; /* 24 bytes */
enum { ATSR_TYPE, ATSR_LENGTH, ATSR_FLAGS, ATSR_RESERVED, ATSR_SEGMENT, ATSR__COUNT };
extern const struct fw_layout fw_dmar_atsr_layout; /* 8 bytes, also SATC and SIDP */
enum { RHSA_TYPE, RHSA_LENGTH, RHSA_RESERVED, RHSA_BASE, RHSA_PD, RHSA__COUNT };
extern const struct fw_layout fw_dmar_rhsa_layout; /* 20 bytes */
enum { ANDD_TYPE, ANDD_LENGTH, ANDD_RESERVED, ANDD_DEVICE_NUMBER, ANDD__COUNT };
extern const struct fw_layout fw_dmar_andd_layout; /* 8 bytes, then the object name */
enum { SCOPE_TYPE, SCOPE_LENGTH, SCOPE_FLAGS, SCOPE_RESERVED, SCOPE_ENUMERATION_ID, SCOPE_START_BUS, SCOPE__COUNT };
extern const struct fw_layout fw_dmar_scope_layout; /* 6 bytes, then path pairs */

extern const struct fw_bitfields fw_dmar_drhd_flag_names;
extern const struct fw_bitfields fw_dmar_atsr_flag_names;
extern const struct fw_bitfields fw_dmar_satc_flag_names;

enum { FW_DMAR_SCOPE_ENDPOINT = 1, FW_DMAR_SCOPE_BRIDGE = 2, FW_DMAR_SCOPE_IOAPIC = 3, FW_DMAR_SCOPE_HPET = 4,
       FW_DMAR_SCOPE_NAMESPACE = 5 };

struct fw_dmar_scope {
	uint32_t offset;
	uint8_t type, length, flags;
	uint8_t enumeration_id, start_bus;
	const uint8_t *path; /* (device, function) pairs, points into the table */
	size_t npath;
};

struct fw_dmar_unit {
	uint32_t offset;
	uint16_t type, length;
	uint8_t flags;
	uint8_t size;            /* DRHD: register set size code */
	uint16_t segment;
	uint64_t base, limit;    /* DRHD base; RMRR base/limit; RHSA base */
	uint32_t proximity_domain; /* RHSA */
	uint8_t device_number;   /* ANDD */
	const char *name;        /* ANDD object name */
	struct fw_dmar_scope *scopes;
	size_t nscopes;
};

struct fw_dmar {
	uint8_t host_address_width; /* the stored value + 1 */
	uint8_t flags;
	struct fw_dmar_unit *units;
	size_t n;
};

const char *fw_dmar_type_name(uint16_t type);       /* "DRHD", ... */
const char *fw_dmar_scope_type_name(uint8_t type);  /* "endpoint", "bridge", ... */
void *fw_acpi_dmar_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif

/* HMAT, the Heterogeneous Memory Attribute Table (reference/acpi.md 6; ACPI 6.5 5.2.28): 4
 * reserved bytes at 36, then structures {type u16, reserved u16, length u32} from 40: memory
 * proximity domain attributes (0), system locality latency and bandwidth information (1), memory
 * side cache (2). A locality structure (ACPI 6.5 5.2.28.4; ACPICA actbl1.h acpi_hmat_locality;
 * Linux drivers/acpi/numa/hmat.c hmat_parse_locality) is followed by its N initiator domains
 * (u32 each), its M target domains (u32) and N x M u16 entries, initiator by initiator; an
 * entry times the entry base unit is picoseconds for a latency and MB/s for a bandwidth (HMAT
 * revision 2, ACPI 6.3 on; revision 1 tables used other units, Linux divides them by 10), 0 is
 * "not provided" and 0xFFFF "unreachable" (Linux takes neither as a value). */
#ifndef FW_ACPI_HMAT_H
#define FW_ACPI_HMAT_H

#include "acpi/table.h"

#define FW_HMAT_HEADER_SIZE 40

enum { FW_HMAT_ADDRESS_RANGE = 0, FW_HMAT_LOCALITY = 1, FW_HMAT_CACHE = 2 };

enum { HMAT_PROX_TYPE, HMAT_PROX_RESERVED, HMAT_PROX_LENGTH, HMAT_PROX_FLAGS, HMAT_PROX_RESERVED1, HMAT_PROX_INITIATOR_PD,
       HMAT_PROX_MEMORY_PD, HMAT_PROX__COUNT };
extern const struct fw_layout fw_hmat_proximity_layout; /* 20 bytes of the 40 */
enum { HMAT_LOC_TYPE, HMAT_LOC_RESERVED, HMAT_LOC_LENGTH, HMAT_LOC_FLAGS, HMAT_LOC_DATA_TYPE, HMAT_LOC_MIN_TRANSFER,
       HMAT_LOC_RESERVED1, HMAT_LOC_INITIATORS, HMAT_LOC_TARGETS, HMAT_LOC_RESERVED2, HMAT_LOC_BASE_UNIT, HMAT_LOC__COUNT };
extern const struct fw_layout fw_hmat_locality_layout; /* 32 bytes, then the lists */
enum { HMAT_CACHE_TYPE, HMAT_CACHE_RESERVED, HMAT_CACHE_LENGTH, HMAT_CACHE_MEMORY_PD, HMAT_CACHE_RESERVED1,
       HMAT_CACHE_SIZE, HMAT_CACHE_ATTRIBUTES, HMAT_CACHE_RESERVED2, HMAT_CACHE_SMBIOS_HANDLES, HMAT_CACHE__COUNT };
extern const struct fw_layout fw_hmat_cache_layout; /* 32 bytes, then SMBIOS handles */

extern const struct fw_named_value fw_hmat_data_type_names[];

struct fw_hmat_entry {
	uint32_t offset;
	uint16_t type;
	uint32_t length;
	uint32_t flags;
	uint32_t initiator_pd, memory_pd; /* type 0 (initiator valid when flags bit 0), type 2 memory */
	uint8_t data_type;                /* type 1 */
	uint32_t initiators, targets;     /* type 1 */
	uint64_t base_unit;               /* type 1 */
	uint64_t cache_size;              /* type 2 */
	uint32_t cache_attributes;        /* type 2 */
	/* type 1, when its lists and matrix fit in its Length (else NULL): u32 domains, u16 entries */
	const uint8_t *initiator_list, *target_list, *matrix;
};

struct fw_hmat {
	struct fw_hmat_entry *entries;
	size_t n;
};

const char *fw_hmat_type_name(uint16_t type);
/* "ps" for a latency, "MB/s" for a bandwidth of an HMAT of revision 2; NULL when not known. */
const char *fw_hmat_unit(uint8_t table_revision, uint8_t data_type);
void *fw_acpi_hmat_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif

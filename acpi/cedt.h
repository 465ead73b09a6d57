/* CEDT, the CXL Early Discovery Table (reference/acpi.md 6; CXL 2.0+ 9.17): structures
 * {type u8, reserved u8, length u16} from 36. CHBS (0) names a CXL host bridge by its _UID,
 * CFMWS (1) a fixed memory window and its interleave targets; CXIMS (2) and RDPAS (3) are
 * listed. */
#ifndef FW_ACPI_CEDT_H
#define FW_ACPI_CEDT_H

#include "acpi/table.h"

enum { FW_CEDT_CHBS = 0, FW_CEDT_CFMWS = 1, FW_CEDT_CXIMS = 2, FW_CEDT_RDPAS = 3 };

enum { CHBS_TYPE, CHBS_RESERVED, CHBS_LENGTH, CHBS_UID, CHBS_VERSION, CHBS_RESERVED1, CHBS_BASE, CHBS_SIZE, CHBS__COUNT };
extern const struct fw_layout fw_cedt_chbs_layout; /* 32 bytes */
enum { CFMWS_TYPE, CFMWS_RESERVED, CFMWS_LENGTH, CFMWS_RESERVED1, CFMWS_BASE, CFMWS_SIZE, CFMWS_ENIW, CFMWS_ARITHMETIC,
       CFMWS_RESERVED2, CFMWS_GRANULARITY, CFMWS_RESTRICTIONS, CFMWS_QTG, CFMWS__COUNT };
extern const struct fw_layout fw_cedt_cfmws_layout; /* 36 bytes, then u32 target UIDs */
extern const struct fw_bitfields fw_cedt_restriction_names;

struct fw_cedt_entry {
	uint32_t offset;
	uint8_t type;
	uint16_t length;
	uint32_t uid;           /* CHBS */
	uint32_t cxl_version;   /* CHBS: 0 = CXL 1.1, 1 = CXL 2.0 */
	uint64_t base, size;    /* CHBS register block; CFMWS window */
	uint8_t ways_encoded, arithmetic;  /* CFMWS */
	uint32_t granularity_encoded;      /* CFMWS */
	uint16_t restrictions, qtg_id;     /* CFMWS */
	uint32_t ways;          /* decoded interleave ways, 0 when the encoding is reserved */
	const uint8_t *targets; /* CFMWS target _UIDs (u32 each), points into the table */
	size_t ntargets;
};

struct fw_cedt {
	struct fw_cedt_entry *entries;
	size_t n;
};

const char *fw_cedt_type_name(uint8_t type);
void *fw_acpi_cedt_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif

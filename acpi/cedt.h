/* CEDT, the CXL Early Discovery Table (reference/acpi.md 6; CXL 3.0 9.17.1): structures
 * {type u8, reserved u8, length u16} from 36. CHBS (0) names a CXL host bridge by its _UID,
 * CFMWS (1) a fixed memory window and its interleave targets, CXIMS (2, CXL 3.0 table 9-23) the
 * XOR maps of the windows with XOR arithmetic and one host-bridge interleave granularity: u16
 * reserved, HBIG u8 (256 << HBIG bytes), the number of maps u8, then that many u64 maps (each
 * the host physical address bits XORed into one bit of the target index), RDPAS (3, table 9-24)
 * ties an RCEC to a downstream port: segment u16 @4, the RCEC's BDF u16 @6 (bus 15:8, device
 * 7:3, function 2:0), protocol u8 @8 (0 CXL.io, 1 CXL.cachemem), base address u64 @9, 17 bytes.
 * ACPICA actbl1.h (acpi_cedt_cxims, acpi_cedt_rdpas as corrected in 2024) and Linux
 * drivers/cxl/acpi.c (cxl_parse_cxims) read them so; Debian's iasl 20200925 knows no CEDT. */
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
enum { CXIMS_TYPE, CXIMS_RESERVED, CXIMS_LENGTH, CXIMS_RESERVED1, CXIMS_HBIG, CXIMS_NR_MAPS, CXIMS__COUNT };
extern const struct fw_layout fw_cedt_cxims_layout; /* 8 bytes, then u64 XOR maps */
enum { RDPAS_TYPE, RDPAS_RESERVED, RDPAS_LENGTH, RDPAS_SEGMENT, RDPAS_BDF, RDPAS_PROTOCOL, RDPAS_BASE, RDPAS__COUNT };
extern const struct fw_layout fw_cedt_rdpas_layout; /* 17 bytes */

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
	uint8_t hbig;           /* CXIMS: encoded granularity (256 << hbig bytes) */
	const uint8_t *xormaps; /* CXIMS: u64 each, points into the table; NULL when they do not fit */
	size_t nxormaps;
	uint16_t segment, bdf;  /* RDPAS: the RCEC */
	uint8_t protocol;       /* RDPAS: 0 CXL.io, 1 CXL.cachemem */
};

struct fw_cedt {
	struct fw_cedt_entry *entries;
	size_t n;
};

const char *fw_cedt_type_name(uint8_t type);
void *fw_acpi_cedt_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif

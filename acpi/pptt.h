/* PPTT, the Processor Properties Topology Table (ACPI 6.5 5.2.30; ACPICA actbl2.h acpi_pptt_*;
 * Linux drivers/acpi/pptt.c): structures {type u8, length u8} from 36.
 *
 * Processor hierarchy node (0, 5.2.30.1): u16 reserved, flags u32 @4 (physical package, ACPI
 * processor ID valid, processor is a thread, node is a leaf, identical implementation), parent
 * u32 @8 (the offset of the parent node in the table, 0 for none), ACPI processor ID u32 @12 (the
 * processor's UID in MADT when valid), the number of private resources u32 @16, then that many
 * u32 offsets of cache and ID structures. Cache type (1, 5.2.30.2): flags u32 @4 (which fields
 * are valid), next level of cache u32 @8 (an offset), size u32 @12, number of sets u32 @16,
 * associativity u8 @20, attributes u8 @21 (allocation type 1:0, cache type 3:2, write policy 4),
 * line size u16 @22, and from PPTT revision 3 (ACPI 6.4) cache ID u32 @24. ID type (2, 5.2.30.3,
 * deprecated since ACPI 6.4): vendor u32 @4, level 1 and level 2 IDs u64 @8 and @16, major,
 * minor and spin revisions u16 @24, @26, @28.
 *
 * A processor belongs to the physical package node it reaches through its parents, as Linux's
 * find_acpi_cpu_topology_package reads it: that is the socket of its NUMA domain. */
#ifndef FW_ACPI_PPTT_H
#define FW_ACPI_PPTT_H

#include "acpi/table.h"
#include "parsers/layout.h"

enum { FW_PPTT_PROCESSOR = 0, FW_PPTT_CACHE = 1, FW_PPTT_ID = 2 };

enum { PPTT_PROC_TYPE, PPTT_PROC_LENGTH, PPTT_PROC_RESERVED, PPTT_PROC_FLAGS, PPTT_PROC_PARENT, PPTT_PROC_ACPI_ID,
       PPTT_PROC_NPRIVATE, PPTT_PROC__COUNT };
extern const struct fw_layout fw_pptt_processor_layout; /* 20 bytes, then u32 private resources */
#define FW_PPTT_PHYSICAL_PACKAGE 0x01
#define FW_PPTT_ACPI_ID_VALID 0x02
#define FW_PPTT_THREAD 0x04
#define FW_PPTT_LEAF 0x08
#define FW_PPTT_IDENTICAL 0x10

enum { PPTT_CACHE_TYPE, PPTT_CACHE_LENGTH, PPTT_CACHE_RESERVED, PPTT_CACHE_FLAGS, PPTT_CACHE_NEXT, PPTT_CACHE_SIZE,
       PPTT_CACHE_SETS, PPTT_CACHE_ASSOCIATIVITY, PPTT_CACHE_ATTRIBUTES, PPTT_CACHE_LINE_SIZE, PPTT_CACHE__COUNT };
extern const struct fw_layout fw_pptt_cache_layout; /* 24 bytes (28 with the cache ID) */

enum { PPTT_ID_TYPE, PPTT_ID_LENGTH, PPTT_ID_RESERVED, PPTT_ID_VENDOR, PPTT_ID_LEVEL1, PPTT_ID_LEVEL2, PPTT_ID_MAJOR,
       PPTT_ID_MINOR, PPTT_ID_SPIN, PPTT_ID__COUNT };
extern const struct fw_layout fw_pptt_id_layout; /* 30 bytes */

struct fw_pptt_node {
	uint32_t offset;
	uint32_t flags;
	uint32_t parent;  /* offset, 0 for none */
	uint32_t acpi_id; /* meaningful when flags has FW_PPTT_ACPI_ID_VALID */
	const uint8_t *private_resources; /* u32 offsets, in the table */
	uint32_t nprivate;
	long package;     /* index in nodes of the package it reaches, -1 none (computed once) */
	size_t package_ordinal; /* for a package: its place among the packages */
};

struct fw_pptt {
	struct fw_pptt_node *nodes; /* processor hierarchy nodes, in table order (offsets ascending) */
	size_t nnodes;
	size_t npackages;
	size_t *leaves;   /* indexes of the leaves with a valid ACPI processor ID, by ID */
	size_t nleaves;
};

/* The physical package node of the processor whose ACPI processor UID is `uid` (a leaf with a
 * valid ID), following parents; NULL when no node has that UID or its parents reach no package
 * (or loop). `ordinal` gets the package's place among the packages in table order. */
const struct fw_pptt_node *fw_pptt_package_of(const struct fw_pptt *p, uint32_t uid, size_t *ordinal);
void *fw_acpi_pptt_decode(struct fw_acpi_table *t, struct fw_arena *a);

#endif

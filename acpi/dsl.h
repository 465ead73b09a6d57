/* The DSL root-bridge reader: ASL text as `iasl -d` prints it, reduced to a namespace of
 * devices, Names and simple Methods, and from that the PCI root-bridge map (reference/acpi.md 7).
 *
 * It is not an ASL compiler. It follows Scope/Device/Processor blocks to give every declaration
 * its absolute path (objects added in later `Scope (\_SB.X)` blocks and in other tables land on
 * the same path), records `Name (X, constant)` values and methods whose body is a single
 * `Return (...)` of a constant, a name or a method call, and resolves those by the ACPI search
 * rules (a single name segment is looked up in the method's scope, then in each parent). So
 * `_BBN` returning `BN01 ()` returning `BRB` resolves to `Name (BRB, 0x20)` in the same device,
 * as the interpreter would; anything more dynamic is reported unresolved.
 */
#ifndef FW_ACPI_DSL_H
#define FW_ACPI_DSL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/arena.h"
#include "parsers/error.h"

enum fw_dsl_value_kind {
	FW_DSL_NONE,   /* not a constant this reader understands */
	FW_DSL_INT,
	FW_DSL_STRING, /* also EisaId("PNP0A08"), kept as its text */
	FW_DSL_LIST,   /* Package of strings/EisaIds (_CID) */
	FW_DSL_REF,    /* a name to look up */
	FW_DSL_CALL,   /* a method invocation without arguments */
	FW_DSL_BUS_RANGE, /* ResourceTemplate with a WordBusNumber descriptor */
};

struct fw_dsl_value {
	enum fw_dsl_value_kind kind;
	uint64_t i;
	const char *s;         /* string, or the referenced name path */
	const char **list;     /* FW_DSL_LIST items */
	size_t nlist;
	uint16_t bus_min, bus_max; /* FW_DSL_BUS_RANGE */
};

enum fw_dsl_object_kind { FW_DSL_OBJ_NAME, FW_DSL_OBJ_METHOD, FW_DSL_OBJ_DEVICE, FW_DSL_OBJ_SCOPE };

struct fw_dsl_object {
	const char *path;   /* absolute, 4-character segments: "\_SB_.S0D1.BRB_" */
	enum fw_dsl_object_kind kind;
	struct fw_dsl_value value; /* Name value, or a simple Method's return */
	const char *table;  /* "DSDT", "SSDT3" */
	unsigned line;
	unsigned seq;       /* declaration order over all tables */
};

struct fw_dsl_namespace {
	struct fw_arena *arena;
	struct fw_dsl_object *objects;
	size_t n, cap;
	bool sorted;
	unsigned next_seq;
};

void fw_dsl_namespace_init(struct fw_dsl_namespace *ns, struct fw_arena *arena);

/* Add the declarations of one disassembled table. Fails only on text that cannot be DSL
 * (unbalanced braces beyond the end, a limit reached). */
bool fw_dsl_parse(struct fw_dsl_namespace *ns, const char *text, size_t len, const char *table, struct fw_error *err);

/* Object at an absolute path (either "\_SB.PCI0" or "\_SB_.PCI0"), or NULL. */
const struct fw_dsl_object *fw_dsl_lookup(struct fw_dsl_namespace *ns, const char *path);

/* Evaluate an object as Linux's static view would: integer or string after following simple
 * methods and names. `how` (may be NULL) receives a short note: "Name", "Method",
 * "Method -> \_SB.S0D1.BRB". */
bool fw_dsl_eval_int(struct fw_dsl_namespace *ns, const char *path, uint64_t *out, const char **how);
bool fw_dsl_eval_str(struct fw_dsl_namespace *ns, const char *path, const char **out, const char **how);

/* "\_SB_.PCI0" from "\_SB.PCI0" or "\_SB_.PCI0" (4-character segments), NULL if not a path. */
const char *fw_dsl_canonical_path(struct fw_arena *a, const char *path);
/* "\_SB.PCI0" from "\_SB_.PCI0": trailing underscores dropped from each segment (iasl style). */
const char *fw_dsl_display_path(struct fw_arena *a, const char *path);

/* --- the root-bridge map ------------------------------------------------------------------- */

struct fw_dsl_device {
	const char *path;       /* display form */
	const char *hid;        /* "PNP0A08", "ACPI0016", or NULL */
	const char **cids;
	size_t ncids;
	bool is_root_bridge;    /* PNP0A08, PNP0A03 or ACPI0016 as _HID or _CID */
	const char *uid;        /* integer in decimal, or the string; NULL when absent */
	bool uid_is_string;
	bool has_seg, has_bbn, has_pxm, has_sta, has_bus_range;
	uint64_t seg, bbn, pxm, sta;
	uint16_t bus_min, bus_max; /* static _CRS WordBusNumber */
	const char *seg_how, *bbn_how, *pxm_how, *sta_how, *uid_how;
	bool bbn_declared, pxm_declared, sta_declared; /* the object exists (it may not resolve) */
	const char *table;
};

struct fw_dsl_devices {
	struct fw_dsl_device *v;
	size_t n;
};

/* Root bridges, and every other device that has a _PXM, in declaration order. */
void fw_dsl_devices(struct fw_dsl_namespace *ns, struct fw_dsl_devices *bridges, struct fw_dsl_devices *pxm_devices);

#endif

/* IFR expressions: postfix opcodes into a tree, the tree into readable text over question prompts
 * ("SMEE != Enable", "IOMMU == Disabled or SVM Mode == Disabled"), and evaluation against values.
 *
 * Expressions are postfix (reference/ifr.md 2.1): operands first, the operator last. Scoped
 * expression opcodes (AMD CBS sets the scope bit on EQ_ID_VAL) are flattened: their END is not
 * part of the expression. An expression that does not reduce to exactly one value is kept as
 * opcodes and reported as not built.
 */
#ifndef FW_IFR_EXPR_H
#define FW_IFR_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ifr.h"

struct fw_ifr_expr {
	uint8_t op;        /* the opcode (FW_IFR_*) */
	uint8_t nargs;
	struct fw_ifr_expr *args[3];
	const struct fw_ifr_op *src;
	uint16_t qid, qid2; /* EQ_ID_*, QUESTION_REF1 */
	uint64_t value;     /* EQ_ID_VAL, UINTn; RULE_REF rule id; STRING_REF1 string id; GET varstore id */
	const uint8_t *list; /* EQ_ID_VAL_LIST: u16 values */
	uint16_t nlist;
	struct fw_ifr_expr **map; /* MAP: match/result pairs, flattened */
	uint32_t nmap;
	uint32_t expanded;  /* nodes when shared subexpressions (DUP) are counted each time */
};

/* DUP shares a subexpression, so n opcodes can stand for 2^n nodes to walk. An expression that
 * expands past this many nodes is refused when built, which bounds every walk of it (rendering,
 * evaluation, JSON); real setup forms use a few dozen. */
#define FW_IFR_EXPR_MAX_EXPANDED 4096
/* Longest rendered text; longer renderings end in "..." (question names may be long). */
#define FW_IFR_EXPR_RENDER_MAX 16384

/* Build the tree from postfix opcodes (END opcodes closing scoped expression opcodes are
 * skipped). Returns NULL when the opcodes do not form one expression. */
struct fw_ifr_expr *fw_ifr_expr_build(struct fw_arena *a, const struct fw_ifr_op *rpn, uint32_t n);
/* The same; on NULL, *why says what was wrong ("does not reduce to one value", "expands past ..."). */
struct fw_ifr_expr *fw_ifr_expr_build_why(struct fw_arena *a, const struct fw_ifr_op *rpn, uint32_t n,
					   const char **why);

/* How names and values are looked up; any callback may be NULL. */
struct fw_ifr_expr_env {
	void *ctx;
	/* Display name of a question ("SMEE"); NULL when unknown. */
	const char *(*question_name)(void *ctx, uint16_t qid);
	/* Option text of a question's value ("Enable"); NULL when the question has no such option. */
	const char *(*option_name)(void *ctx, uint16_t qid, uint64_t value);
	/* Text of a string id. */
	const char *(*string)(void *ctx, uint16_t id);
	/* Current value of a question; false when unknown. */
	bool (*question_value)(void *ctx, uint16_t qid, uint64_t *value);
};

/* Readable text, in the arena: "SMEE != Enable", "(A == 1 or B == 2) and not C". */
const char *fw_ifr_expr_render(struct fw_arena *a, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env);

enum fw_ifr_eval {
	FW_IFR_EVAL_UNKNOWN, /* depends on something unknown or not integral */
	FW_IFR_EVAL_OK,
};
/* Evaluate to an integer (booleans are 0/1). Without a question_value callback only constant
 * expressions evaluate. */
enum fw_ifr_eval fw_ifr_expr_eval(const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env, uint64_t *out);

/* Short name used in JSON trees: "eq_id_val", "and", "not", "uint8", ... (IFRExtractor-RS names
 * in snake case). */
const char *fw_ifr_expr_op_name(uint8_t op, char *buf, size_t len);

#endif

/* IFR expressions: build from postfix, render, evaluate (reference/ifr.md 2.1). */
#include "ifr-expr.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Values an operator pops; -1 for opcodes that are not expression operators here. */
static int arity(uint8_t op)
{
	switch (op) {
	case FW_IFR_EQ_ID_VAL: case FW_IFR_EQ_ID_ID: case FW_IFR_EQ_ID_VAL_LIST: case FW_IFR_RULE_REF:
	case FW_IFR_QUESTION_REF1: case FW_IFR_UINT8: case FW_IFR_UINT16: case FW_IFR_UINT32: case FW_IFR_UINT64:
	case FW_IFR_TRUE: case FW_IFR_FALSE: case FW_IFR_STRING_REF1: case FW_IFR_ZERO: case FW_IFR_ONE:
	case FW_IFR_ONES: case FW_IFR_UNDEFINED: case FW_IFR_THIS: case FW_IFR_VERSION: case FW_IFR_GET:
	case FW_IFR_SECURITY:
		return 0;
	case FW_IFR_NOT: case FW_IFR_TO_LOWER: case FW_IFR_TO_UPPER: case FW_IFR_BITWISE_NOT:
	case FW_IFR_QUESTION_REF2: case FW_IFR_TO_UINT: case FW_IFR_TO_STRING: case FW_IFR_TO_BOOLEAN:
	case FW_IFR_STRING_REF2: case FW_IFR_QUESTION_REF3: case FW_IFR_LENGTH: case FW_IFR_SET: case FW_IFR_MAP:
		return 1;
	case FW_IFR_AND: case FW_IFR_OR: case FW_IFR_MATCH: case FW_IFR_EQUAL: case FW_IFR_NOT_EQUAL:
	case FW_IFR_GREATER_THAN: case FW_IFR_GREATER_EQUAL: case FW_IFR_LESS_THAN: case FW_IFR_LESS_EQUAL:
	case FW_IFR_BITWISE_AND: case FW_IFR_BITWISE_OR: case FW_IFR_SHIFT_LEFT: case FW_IFR_SHIFT_RIGHT:
	case FW_IFR_ADD: case FW_IFR_SUBTRACT: case FW_IFR_MULTIPLY: case FW_IFR_DIVIDE: case FW_IFR_MODULO:
	case FW_IFR_CATENATE: case FW_IFR_MATCH2:
		return 2;
	case FW_IFR_MID: case FW_IFR_FIND: case FW_IFR_TOKEN: case FW_IFR_CONDITIONAL: case FW_IFR_SPAN:
		return 3;
	default:
		return -1;
	}
}

#define FW_STR_(x) #x
#define FW_STR(x) FW_STR_(x)

struct builder {
	struct fw_arena *a;
	const struct fw_ifr_op *ops;
	uint32_t n, i;
	unsigned depth;
	bool too_big; /* an expression expanded past FW_IFR_EXPR_MAX_EXPANDED */
};

/* Count e's expanded nodes (its arguments and map items are built); false past the limit. */
static bool count_expanded(struct builder *b, struct fw_ifr_expr *e)
{
	uint64_t n = 1;
	for (unsigned j = 0; j < e->nargs; j++)
		n += e->args[j]->expanded;
	for (uint32_t j = 0; j < e->nmap; j++)
		n += e->map[j]->expanded;
	if (n > FW_IFR_EXPR_MAX_EXPANDED) {
		b->too_big = true;
		return false;
	}
	e->expanded = (uint32_t)n;
	return true;
}

static struct fw_ifr_expr *leaf(struct builder *b, const struct fw_ifr_op *o)
{
	struct fw_ifr_expr *e = fw_arena_alloc(b->a, sizeof(*e));
	e->op = o->opcode;
	e->src = o;
	const uint8_t *p = o->p;
	switch (o->opcode) {
	case FW_IFR_EQ_ID_VAL:
		if (o->length >= 6) {
			e->qid = fw_le16(p + 2);
			e->value = fw_le16(p + 4);
		}
		break;
	case FW_IFR_EQ_ID_ID:
		if (o->length >= 6) {
			e->qid = fw_le16(p + 2);
			e->qid2 = fw_le16(p + 4);
		}
		break;
	case FW_IFR_EQ_ID_VAL_LIST:
		if (o->length >= 6) {
			e->qid = fw_le16(p + 2);
			uint16_t n = fw_le16(p + 4);
			uint16_t room = (uint16_t)((o->length - 6) / 2);
			e->nlist = n < room ? n : room;
			e->list = p + 6;
		}
		break;
	case FW_IFR_QUESTION_REF1:
		if (o->length >= 4)
			e->qid = fw_le16(p + 2);
		break;
	case FW_IFR_UINT8: e->value = o->length >= 3 ? p[2] : 0; break;
	case FW_IFR_UINT16: e->value = o->length >= 4 ? fw_le16(p + 2) : 0; break;
	case FW_IFR_UINT32: e->value = o->length >= 6 ? fw_le32(p + 2) : 0; break;
	case FW_IFR_UINT64: e->value = o->length >= 10 ? fw_le64(p + 2) : 0; break;
	case FW_IFR_RULE_REF: e->value = o->length >= 3 ? p[2] : 0; break;
	case FW_IFR_STRING_REF1: e->value = o->length >= 4 ? fw_le16(p + 2) : 0; break;
	case FW_IFR_GET:
	case FW_IFR_SET:
		if (o->length >= 7) {
			e->qid = fw_le16(p + 2);  /* VarStoreId */
			e->value = fw_le16(p + 4); /* VarStoreInfo */
		}
		break;
	default:
		break;
	}
	return e;
}

/* Run the stack machine over ops[b->i..]; with until_end, stop at the END that closes the
 * enclosing MAP and return every value left on the stack through *items. */
static bool run(struct builder *b, bool until_end, struct fw_ifr_expr ***items, uint32_t *nitems)
{
	if (++b->depth > 64)
		return false;
	struct fw_ifr_expr **stack = fw_arena_alloc(b->a, (b->n + 1) * sizeof(*stack));
	uint32_t sp = 0, skip_ends = 0;
	bool closed = false;
	while (b->i < b->n) {
		const struct fw_ifr_op *o = &b->ops[b->i++];
		if (o->opcode == FW_IFR_END) {
			if (skip_ends) {
				skip_ends--;
				continue;
			}
			if (until_end) {
				closed = true;
				break;
			}
			return false;
		}
		if (o->opcode == FW_IFR_DUP) {
			if (!sp)
				return false;
			stack[sp] = stack[sp - 1];
			sp++;
			continue;
		}
		int k = arity(o->opcode);
		if (k < 0 || (uint32_t)k > sp)
			return false;
		struct fw_ifr_expr *e = leaf(b, o);
		e->nargs = (uint8_t)k;
		for (int j = k - 1; j >= 0; j--)
			e->args[j] = stack[--sp];
		if (o->opcode == FW_IFR_MAP && o->scope) {
			if (!run(b, true, &e->map, &e->nmap))
				return false;
		} else if (o->scope) {
			skip_ends++;
		}
		if (!count_expanded(b, e))
			return false;
		stack[sp++] = e;
	}
	b->depth--;
	if (until_end) {
		if (!closed)
			return false;
		*items = stack;
		*nitems = sp;
		return true;
	}
	if (sp != 1 || skip_ends)
		return false;
	*items = stack;
	*nitems = 1;
	return true;
}

struct fw_ifr_expr *fw_ifr_expr_build_why(struct fw_arena *a, const struct fw_ifr_op *rpn, uint32_t n,
					   const char **why)
{
	*why = "is empty";
	if (!n)
		return NULL;
	struct builder b = {a, rpn, n, 0, 0, false};
	struct fw_ifr_expr **items;
	uint32_t nitems;
	if (!run(&b, false, &items, &nitems)) {
		*why = b.too_big ? "expands (through DUP) past " FW_STR(FW_IFR_EXPR_MAX_EXPANDED) " nodes"
				 : "does not reduce to one value";
		return NULL;
	}
	return items[0];
}

struct fw_ifr_expr *fw_ifr_expr_build(struct fw_arena *a, const struct fw_ifr_op *rpn, uint32_t n)
{
	const char *why;
	return fw_ifr_expr_build_why(a, rpn, n, &why);
}

/* ---- names ---- */

const char *fw_ifr_expr_op_name(uint8_t op, char *buf, size_t len)
{
	const struct fw_ifr_opcode_info *info = fw_ifr_opcode_info(op);
	if (!info) {
		snprintf(buf, len, "op_0x%02x", op);
		return buf;
	}
	/* CamelCase to snake_case, digits kept: "EqIdValList" -> "eq_id_val_list", "Uint8" -> "uint8" */
	size_t o = 0;
	for (const char *s = info->name; *s && o + 2 < len; s++) {
		if (isupper((unsigned char)*s) && s != info->name)
			buf[o++] = '_';
		buf[o++] = (char)tolower((unsigned char)*s);
	}
	buf[o] = '\0';
	return buf;
}

/* ---- rendering ---- */

struct sb {
	char *p;
	size_t len, cap;
	bool full; /* FW_IFR_EXPR_RENDER_MAX reached: the rest is left out */
};

/* Room for the next piece, or false once FW_IFR_EXPR_RENDER_MAX is reached (the rest is left out;
 * a piece is added whole). */
static bool sb_room(struct sb *s)
{
	if (!s->full && s->len >= FW_IFR_EXPR_RENDER_MAX)
		s->full = true;
	return !s->full;
}

/* Append n bytes as they are. */
static void sb_put(struct sb *s, const char *t, size_t n)
{
	if (!sb_room(s))
		return;
	if (s->len + n + 1 > s->cap) {
		s->cap = s->cap * 2 + n + 1;
		s->p = fw_xrealloc(s->p, s->cap);
	}
	memcpy(s->p + s->len, t, n);
	s->len += n;
	s->p[s->len] = '\0';
}

static void sb_add(struct sb *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(struct sb *s, const char *fmt, ...)
{
	if (!sb_room(s))
		return;
	va_list ap;
	/* most pieces are words and names: no formatting to do */
	if (!strchr(fmt, '%')) {
		sb_put(s, fmt, strlen(fmt));
		return;
	}
	if (strcmp(fmt, "%s") == 0) {
		va_start(ap, fmt);
		const char *t = va_arg(ap, const char *);
		va_end(ap);
		sb_put(s, t, strlen(t));
		return;
	}
	for (;;) {
		size_t room = s->cap - s->len;
		va_start(ap, fmt);
		int n = vsnprintf(s->p + s->len, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			s->len += (size_t)n;
			return;
		}
		s->cap = s->cap * 2 + (size_t)n + 1;
		s->p = fw_xrealloc(s->p, s->cap);
	}
}

enum { P_OR = 1, P_AND, P_NOT, P_CMP, P_ARITH, P_MUL, P_ATOM };

static int prec(const struct fw_ifr_expr *e)
{
	switch (e->op) {
	case FW_IFR_OR: return P_OR;
	case FW_IFR_AND: return P_AND;
	case FW_IFR_NOT:
		if (e->args[0] && (e->args[0]->op == FW_IFR_EQ_ID_VAL || e->args[0]->op == FW_IFR_EQUAL ||
				   e->args[0]->op == FW_IFR_EQ_ID_VAL_LIST || e->args[0]->op == FW_IFR_EQ_ID_ID))
			return P_CMP;
		return P_NOT;
	case FW_IFR_EQ_ID_VAL: case FW_IFR_EQ_ID_ID: case FW_IFR_EQ_ID_VAL_LIST: case FW_IFR_EQUAL:
	case FW_IFR_NOT_EQUAL: case FW_IFR_GREATER_THAN: case FW_IFR_GREATER_EQUAL: case FW_IFR_LESS_THAN:
	case FW_IFR_LESS_EQUAL:
		return P_CMP;
	case FW_IFR_ADD: case FW_IFR_SUBTRACT: case FW_IFR_BITWISE_AND: case FW_IFR_BITWISE_OR:
	case FW_IFR_SHIFT_LEFT: case FW_IFR_SHIFT_RIGHT:
		return P_ARITH;
	case FW_IFR_MULTIPLY: case FW_IFR_DIVIDE: case FW_IFR_MODULO:
		return P_MUL;
	default:
		return P_ATOM;
	}
}

static void number(struct sb *s, uint64_t v)
{
	if (v < 0x100) {
		char d[4];
		size_t n = 0;
		if (v >= 100)
			d[n++] = (char)('0' + v / 100);
		if (v >= 10)
			d[n++] = (char)('0' + v / 10 % 10);
		d[n++] = (char)('0' + v % 10);
		sb_put(s, d, n);
	} else {
		sb_add(s, "0x%" PRIX64, v);
	}
}

static void question(struct sb *s, const struct fw_ifr_expr_env *env, uint16_t qid)
{
	const char *n = env && env->question_name ? env->question_name(env->ctx, qid) : NULL;
	if (n && *n)
		sb_add(s, "%s", n);
	else
		sb_add(s, "Q0x%X", qid);
}

static void option(struct sb *s, const struct fw_ifr_expr_env *env, uint16_t qid, uint64_t v)
{
	const char *n = env && env->option_name ? env->option_name(env->ctx, qid, v) : NULL;
	if (n && *n)
		sb_add(s, "%s", n);
	else
		number(s, v);
}

/* A question reference on one side of a comparison lets the constant on the other side be
 * shown as that question's option text. */
static bool question_ref(const struct fw_ifr_expr *e, uint16_t *qid)
{
	if (e && e->op == FW_IFR_QUESTION_REF1) {
		*qid = e->qid;
		return true;
	}
	return false;
}

static bool constant(const struct fw_ifr_expr *e, uint64_t *v)
{
	return fw_ifr_expr_eval(e, NULL, v) == FW_IFR_EVAL_OK;
}

static void render(struct sb *s, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env, int parent);

static void render_sub(struct sb *s, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env, int need)
{
	if (s->full)
		return;
	if (!e) {
		sb_add(s, "?");
		return;
	}
	bool paren = prec(e) < need;
	if (paren)
		sb_add(s, "(");
	render(s, e, env, prec(e));
	if (paren)
		sb_add(s, ")");
}

static void eq_list(struct sb *s, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env, bool negate)
{
	question(s, env, e->qid);
	sb_add(s, negate ? " not in {" : " in {");
	for (uint16_t i = 0; i < e->nlist; i++) {
		if (i)
			sb_add(s, ", ");
		option(s, env, e->qid, fw_le16(e->list + 2 * i));
	}
	sb_add(s, "}");
}

static const char *cmp_text(uint8_t op, bool negate)
{
	switch (op) {
	case FW_IFR_EQUAL: return negate ? "!=" : "==";
	case FW_IFR_NOT_EQUAL: return negate ? "==" : "!=";
	case FW_IFR_GREATER_THAN: return ">";
	case FW_IFR_GREATER_EQUAL: return ">=";
	case FW_IFR_LESS_THAN: return "<";
	case FW_IFR_LESS_EQUAL: return "<=";
	default: return "?";
	}
}

static void comparison(struct sb *s, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env, bool negate)
{
	uint16_t qid;
	uint64_t v;
	const struct fw_ifr_expr *l = e->args[0], *r = e->args[1];
	if (question_ref(l, &qid) && constant(r, &v)) {
		question(s, env, qid);
		sb_add(s, " %s ", cmp_text(e->op, negate));
		option(s, env, qid, v);
		return;
	}
	if (question_ref(r, &qid) && constant(l, &v)) {
		option(s, env, qid, v);
		sb_add(s, " %s ", cmp_text(e->op, negate));
		question(s, env, qid);
		return;
	}
	render_sub(s, l, env, P_CMP + 1);
	sb_add(s, " %s ", cmp_text(e->op, negate));
	render_sub(s, r, env, P_CMP + 1);
}

static void call(struct sb *s, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env)
{
	char name[40];
	sb_add(s, "%s(", fw_ifr_expr_op_name(e->op, name, sizeof(name)));
	for (unsigned i = 0; i < e->nargs; i++) {
		if (i)
			sb_add(s, ", ");
		render_sub(s, e->args[i], env, 0);
	}
	for (uint32_t i = 0; i < e->nmap; i++) {
		sb_add(s, (i || e->nargs) ? (i % 2 ? ": " : ", ") : "");
		render_sub(s, e->map[i], env, 0);
	}
	sb_add(s, ")");
}

/* A comparison of one question with one value: `Q == v` (want_neq false) or `Q != v` (true), in
 * any of the encodings forms use. */
static bool question_cmp(const struct fw_ifr_expr *e, bool want_neq, uint16_t *qid, uint64_t *v)
{
	if (!e)
		return false;
	bool neq = false;
	if (e->op == FW_IFR_NOT && e->args[0] &&
	    (e->args[0]->op == FW_IFR_EQ_ID_VAL || e->args[0]->op == FW_IFR_EQUAL)) {
		neq = true;
		e = e->args[0];
	} else if (e->op == FW_IFR_NOT_EQUAL) {
		neq = true;
	}
	if (neq != want_neq)
		return false;
	if (e->op == FW_IFR_EQ_ID_VAL) {
		*qid = e->qid;
		*v = e->value;
		return true;
	}
	if (e->op != FW_IFR_EQUAL && e->op != FW_IFR_NOT_EQUAL)
		return false;
	return (question_ref(e->args[0], qid) && constant(e->args[1], v)) ||
	       (question_ref(e->args[1], qid) && constant(e->args[0], v));
}

/* Operators whose value is a truth value: folded to true/false when constant. */
static bool boolean_op(uint8_t op)
{
	switch (op) {
	case FW_IFR_AND: case FW_IFR_OR: case FW_IFR_NOT: case FW_IFR_EQUAL: case FW_IFR_NOT_EQUAL:
	case FW_IFR_GREATER_THAN: case FW_IFR_GREATER_EQUAL: case FW_IFR_LESS_THAN: case FW_IFR_LESS_EQUAL:
	case FW_IFR_TO_BOOLEAN:
		return true;
	default:
		return false;
	}
}

#define CHAIN_MAX 64

static void chain_collect(const struct fw_ifr_expr *e, uint8_t op, const struct fw_ifr_expr **items, size_t *n,
			  bool *overflow)
{
	if (e && e->op == op) {
		chain_collect(e->args[0], op, items, n, overflow);
		chain_collect(e->args[1], op, items, n, overflow);
		return;
	}
	if (*n < CHAIN_MAX)
		items[(*n)++] = e;
	else
		*overflow = true;
}

/* A chain of `and` (or `or`) as a person writes it: constant terms that do not decide it are left
 * out, and the terms that compare one question with several values become one set test:
 * `A != x and A != y` is `A not in {x, y}`, `A == x or A == y` is `A in {x, y}`. */
static void chain(struct sb *s, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env)
{
	const struct fw_ifr_expr *items[CHAIN_MAX];
	size_t n = 0, kept = 0;
	bool overflow = false, is_and = e->op == FW_IFR_AND;
	chain_collect(e, e->op, items, &n, &overflow);
	if (overflow) {
		render_sub(s, e->args[0], env, prec(e));
		sb_add(s, is_and ? " and " : " or ");
		render_sub(s, e->args[1], env, prec(e));
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		if (items[i] && constant(items[i], &v))
			continue; /* the identity of the chain (a deciding constant folded the whole chain) */
		items[kept++] = items[i];
	}
	if (!kept) {
		sb_add(s, is_and ? "true" : "false");
		return;
	}
	bool done[CHAIN_MAX] = {false};
	bool first = true;
	for (size_t i = 0; i < kept; i++) {
		if (done[i])
			continue;
		if (!first)
			sb_add(s, is_and ? " and " : " or ");
		first = false;
		uint16_t qid, q2;
		uint64_t v, v2;
		size_t same = 0;
		if (question_cmp(items[i], is_and, &qid, &v))
			for (size_t j = i + 1; j < kept; j++)
				if (!done[j] && question_cmp(items[j], is_and, &q2, &v2) && q2 == qid)
					same++;
		if (!same) {
			render_sub(s, items[i], env, prec(e));
			continue;
		}
		question(s, env, qid);
		sb_add(s, is_and ? " not in {" : " in {");
		option(s, env, qid, v);
		for (size_t j = i + 1; j < kept; j++)
			if (!done[j] && question_cmp(items[j], is_and, &q2, &v2) && q2 == qid) {
				done[j] = true;
				sb_add(s, ", ");
				option(s, env, qid, v2);
			}
		sb_add(s, "}");
	}
}

static void render(struct sb *s, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env, int parent)
{
	(void)parent;
	uint64_t folded;
	if (boolean_op(e->op) && constant(e, &folded)) {
		sb_add(s, folded ? "true" : "false");
		return;
	}
	switch (e->op) {
	case FW_IFR_EQ_ID_VAL:
		question(s, env, e->qid);
		sb_add(s, " == ");
		option(s, env, e->qid, e->value);
		return;
	case FW_IFR_EQ_ID_ID:
		question(s, env, e->qid);
		sb_add(s, " == ");
		question(s, env, e->qid2);
		return;
	case FW_IFR_EQ_ID_VAL_LIST:
		eq_list(s, e, env, false);
		return;
	case FW_IFR_NOT: {
		const struct fw_ifr_expr *a = e->args[0];
		if (a && a->op == FW_IFR_EQ_ID_VAL) {
			question(s, env, a->qid);
			sb_add(s, " != ");
			option(s, env, a->qid, a->value);
			return;
		}
		if (a && a->op == FW_IFR_EQ_ID_ID) {
			question(s, env, a->qid);
			sb_add(s, " != ");
			question(s, env, a->qid2);
			return;
		}
		if (a && a->op == FW_IFR_EQ_ID_VAL_LIST) {
			eq_list(s, a, env, true);
			return;
		}
		if (a && a->op == FW_IFR_EQUAL) {
			comparison(s, a, env, true);
			return;
		}
		sb_add(s, "not ");
		render_sub(s, a, env, P_NOT);
		return;
	}
	case FW_IFR_AND:
	case FW_IFR_OR:
		chain(s, e, env);
		return;
	case FW_IFR_EQUAL: case FW_IFR_NOT_EQUAL: case FW_IFR_GREATER_THAN: case FW_IFR_GREATER_EQUAL:
	case FW_IFR_LESS_THAN: case FW_IFR_LESS_EQUAL:
		comparison(s, e, env, false);
		return;
	case FW_IFR_ADD: case FW_IFR_SUBTRACT: case FW_IFR_MULTIPLY: case FW_IFR_DIVIDE: case FW_IFR_MODULO:
	case FW_IFR_BITWISE_AND: case FW_IFR_BITWISE_OR: case FW_IFR_SHIFT_LEFT: case FW_IFR_SHIFT_RIGHT: {
		static const char *const sym[] = {
			[FW_IFR_ADD - FW_IFR_BITWISE_AND] = "+", [FW_IFR_SUBTRACT - FW_IFR_BITWISE_AND] = "-",
			[FW_IFR_MULTIPLY - FW_IFR_BITWISE_AND] = "*", [FW_IFR_DIVIDE - FW_IFR_BITWISE_AND] = "/",
			[FW_IFR_MODULO - FW_IFR_BITWISE_AND] = "%", [0] = "&",
			[FW_IFR_BITWISE_OR - FW_IFR_BITWISE_AND] = "|", [FW_IFR_SHIFT_LEFT - FW_IFR_BITWISE_AND] = "<<",
			[FW_IFR_SHIFT_RIGHT - FW_IFR_BITWISE_AND] = ">>",
		};
		render_sub(s, e->args[0], env, prec(e));
		sb_add(s, " %s ", sym[e->op - FW_IFR_BITWISE_AND]);
		render_sub(s, e->args[1], env, prec(e) + 1);
		return;
	}
	case FW_IFR_QUESTION_REF1:
		question(s, env, e->qid);
		return;
	case FW_IFR_TRUE: sb_add(s, "true"); return;
	case FW_IFR_FALSE: sb_add(s, "false"); return;
	case FW_IFR_ZERO: sb_add(s, "0"); return;
	case FW_IFR_ONE: sb_add(s, "1"); return;
	case FW_IFR_ONES: sb_add(s, "0xFFFFFFFFFFFFFFFF"); return;
	case FW_IFR_UNDEFINED: sb_add(s, "undefined"); return;
	case FW_IFR_THIS: sb_add(s, "this"); return;
	case FW_IFR_VERSION: sb_add(s, "version"); return;
	case FW_IFR_UINT8: case FW_IFR_UINT16: case FW_IFR_UINT32: case FW_IFR_UINT64:
		number(s, e->value);
		return;
	case FW_IFR_STRING_REF1: {
		const char *t = env && env->string ? env->string(env->ctx, (uint16_t)e->value) : NULL;
		if (t)
			sb_add(s, "\"%s\"", t);
		else
			sb_add(s, "string(0x%" PRIX64 ")", e->value);
		return;
	}
	case FW_IFR_RULE_REF:
		sb_add(s, "rule(%" PRIu64 ")", e->value);
		return;
	case FW_IFR_GET:
		sb_add(s, "get(varstore 0x%X, 0x%" PRIX64 ")", e->qid, e->value);
		return;
	case FW_IFR_BITWISE_NOT:
		sb_add(s, "~");
		render_sub(s, e->args[0], env, P_ATOM);
		return;
	case FW_IFR_CONDITIONAL:
		sb_add(s, "(");
		render_sub(s, e->args[0], env, 0);
		sb_add(s, " ? ");
		render_sub(s, e->args[1], env, 0);
		sb_add(s, " : ");
		render_sub(s, e->args[2], env, 0);
		sb_add(s, ")");
		return;
	default:
		call(s, e, env);
		return;
	}
}

const char *fw_ifr_expr_render(struct fw_arena *a, const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env)
{
	struct sb s = {fw_xmalloc(128), 0, 128, false};
	s.p[0] = '\0';
	if (e)
		render(&s, e, env, 0);
	else
		sb_add(&s, "?");
	if (s.full || s.len > FW_IFR_EXPR_RENDER_MAX) {
		/* cut at the limit, on a character boundary, then say so */
		s.len = FW_IFR_EXPR_RENDER_MAX;
		while (s.len && ((unsigned char)s.p[s.len] & 0xC0) == 0x80)
			s.len--;
		s.full = false;
		s.cap = s.len + 4 > s.cap ? s.len + 4 : s.cap;
		s.p = fw_xrealloc(s.p, s.cap);
		memcpy(s.p + s.len, "...", 4);
		s.len += 3;
	}
	const char *out = fw_arena_strndup(a, s.p, s.len);
	free(s.p);
	return out;
}

/* ---- evaluation ---- */

static bool qval(const struct fw_ifr_expr_env *env, uint16_t qid, uint64_t *v)
{
	return env && env->question_value && env->question_value(env->ctx, qid, v);
}

static enum fw_ifr_eval eval(const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env, uint64_t *out,
			     unsigned depth)
{
	uint64_t a = 0, b = 0, c = 0;
	if (!e || depth > 256)
		return FW_IFR_EVAL_UNKNOWN;
	enum fw_ifr_eval ea = FW_IFR_EVAL_UNKNOWN, eb = FW_IFR_EVAL_UNKNOWN;
	switch (e->op) {
	case FW_IFR_EQ_ID_VAL:
		if (!qval(env, e->qid, &a))
			return FW_IFR_EVAL_UNKNOWN;
		*out = a == e->value;
		return FW_IFR_EVAL_OK;
	case FW_IFR_EQ_ID_ID:
		if (!qval(env, e->qid, &a) || !qval(env, e->qid2, &b))
			return FW_IFR_EVAL_UNKNOWN;
		*out = a == b;
		return FW_IFR_EVAL_OK;
	case FW_IFR_EQ_ID_VAL_LIST:
		if (!qval(env, e->qid, &a))
			return FW_IFR_EVAL_UNKNOWN;
		*out = 0;
		for (uint16_t i = 0; i < e->nlist; i++)
			if (fw_le16(e->list + 2 * i) == a)
				*out = 1;
		return FW_IFR_EVAL_OK;
	case FW_IFR_QUESTION_REF1:
		return qval(env, e->qid, out) ? FW_IFR_EVAL_OK : FW_IFR_EVAL_UNKNOWN;
	case FW_IFR_TRUE: case FW_IFR_ONE: *out = 1; return FW_IFR_EVAL_OK;
	case FW_IFR_FALSE: case FW_IFR_ZERO: *out = 0; return FW_IFR_EVAL_OK;
	case FW_IFR_ONES: *out = UINT64_MAX; return FW_IFR_EVAL_OK;
	case FW_IFR_UINT8: case FW_IFR_UINT16: case FW_IFR_UINT32: case FW_IFR_UINT64:
		*out = e->value;
		return FW_IFR_EVAL_OK;
	case FW_IFR_AND:
	case FW_IFR_OR: {
		ea = eval(e->args[0], env, &a, depth + 1);
		eb = eval(e->args[1], env, &b, depth + 1);
		bool want = e->op == FW_IFR_OR; /* the value that decides alone */
		if ((ea == FW_IFR_EVAL_OK && (a != 0) == want) || (eb == FW_IFR_EVAL_OK && (b != 0) == want)) {
			*out = want;
			return FW_IFR_EVAL_OK;
		}
		if (ea != FW_IFR_EVAL_OK || eb != FW_IFR_EVAL_OK)
			return FW_IFR_EVAL_UNKNOWN;
		*out = !want;
		return FW_IFR_EVAL_OK;
	}
	case FW_IFR_NOT: case FW_IFR_TO_BOOLEAN: case FW_IFR_TO_UINT: case FW_IFR_BITWISE_NOT:
		if (eval(e->args[0], env, &a, depth + 1) != FW_IFR_EVAL_OK)
			return FW_IFR_EVAL_UNKNOWN;
		*out = e->op == FW_IFR_NOT ? !a : e->op == FW_IFR_TO_BOOLEAN ? a != 0 : e->op == FW_IFR_TO_UINT ? a : ~a;
		return FW_IFR_EVAL_OK;
	case FW_IFR_CONDITIONAL:
		if (eval(e->args[0], env, &a, depth + 1) != FW_IFR_EVAL_OK)
			return FW_IFR_EVAL_UNKNOWN;
		return eval(e->args[a ? 1 : 2], env, out, depth + 1);
	case FW_IFR_EQUAL: case FW_IFR_NOT_EQUAL: case FW_IFR_GREATER_THAN: case FW_IFR_GREATER_EQUAL:
	case FW_IFR_LESS_THAN: case FW_IFR_LESS_EQUAL: case FW_IFR_ADD: case FW_IFR_SUBTRACT: case FW_IFR_MULTIPLY:
	case FW_IFR_DIVIDE: case FW_IFR_MODULO: case FW_IFR_BITWISE_AND: case FW_IFR_BITWISE_OR:
	case FW_IFR_SHIFT_LEFT: case FW_IFR_SHIFT_RIGHT:
		if (eval(e->args[0], env, &a, depth + 1) != FW_IFR_EVAL_OK ||
		    eval(e->args[1], env, &b, depth + 1) != FW_IFR_EVAL_OK)
			return FW_IFR_EVAL_UNKNOWN;
		switch (e->op) {
		case FW_IFR_EQUAL: c = a == b; break;
		case FW_IFR_NOT_EQUAL: c = a != b; break;
		case FW_IFR_GREATER_THAN: c = a > b; break;
		case FW_IFR_GREATER_EQUAL: c = a >= b; break;
		case FW_IFR_LESS_THAN: c = a < b; break;
		case FW_IFR_LESS_EQUAL: c = a <= b; break;
		case FW_IFR_ADD: c = a + b; break;
		case FW_IFR_SUBTRACT: c = a - b; break;
		case FW_IFR_MULTIPLY: c = a * b; break;
		case FW_IFR_DIVIDE:
		case FW_IFR_MODULO:
			if (!b)
				return FW_IFR_EVAL_UNKNOWN;
			c = e->op == FW_IFR_DIVIDE ? a / b : a % b;
			break;
		case FW_IFR_BITWISE_AND: c = a & b; break;
		case FW_IFR_BITWISE_OR: c = a | b; break;
		case FW_IFR_SHIFT_LEFT: c = b < 64 ? a << b : 0; break;
		case FW_IFR_SHIFT_RIGHT: c = b < 64 ? a >> b : 0; break;
		}
		*out = c;
		return FW_IFR_EVAL_OK;
	default:
		return FW_IFR_EVAL_UNKNOWN;
	}
}

enum fw_ifr_eval fw_ifr_expr_eval(const struct fw_ifr_expr *e, const struct fw_ifr_expr_env *env, uint64_t *out)
{
	uint64_t v = 0;
	enum fw_ifr_eval r = eval(e, env, &v, 0);
	if (r == FW_IFR_EVAL_OK)
		*out = v;
	return r;
}

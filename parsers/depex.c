/* Dependency expressions: evaluate the postfix stream on a stack of strings.
 *
 * The partial texts live in an arena of the decode alone, freed before returning: every AND/OR
 * makes a longer copy of its operands, and kept in the tree they cost about 180 bytes per
 * firmware node of a real image for one string the tree needs. */
#include "depex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "section.h"

#define DEPEX_STACK 64

struct depex {
	struct fw_arena scratch;
	const char *stack[DEPEX_STACK];
	unsigned top;
	char *msg;
	size_t msglen;
};

static const char *guid_text(struct depex *d, const uint8_t *p)
{
	struct fw_guid g;
	memcpy(g.b, p, 16);
	const char *name = fw_guid_name(&g);
	if (name)
		return name;
	char s[FW_GUID_STR_LEN];
	return fw_arena_strdup(&d->scratch, fw_guid_format(&g, s));
}

static bool fail(struct depex *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct depex *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->msg, d->msglen, fmt, ap);
	va_end(ap);
	return false;
}

static bool push(struct depex *d, const char *s, size_t at)
{
	if (d->top == DEPEX_STACK)
		return fail(d, "stack deeper than %d at offset 0x%zx", DEPEX_STACK, at);
	d->stack[d->top++] = s;
	return true;
}

/* a + b + c into buf (FW_DEPEX_TEXT_MAX bytes), cut with "..." when longer. */
static void cat_into(char *buf, const char *a, const char *b, const char *c)
{
	int w = snprintf(buf, FW_DEPEX_TEXT_MAX, "%s%s%s", a, b, c);
	if (w >= 0 && (size_t)w >= FW_DEPEX_TEXT_MAX)
		memcpy(buf + FW_DEPEX_TEXT_MAX - 4, "...", 4);
}

/* a + b + c as a scratch string. */
static const char *cat(struct depex *d, const char *a, const char *b, const char *c)
{
	char buf[FW_DEPEX_TEXT_MAX];
	cat_into(buf, a, b, c);
	return fw_arena_strdup(&d->scratch, buf);
}

/* Operands of AND/OR get parentheses when they are themselves binary expressions. */
static const char *operand(struct depex *d, const char *s)
{
	if (strstr(s, " AND ") || strstr(s, " OR "))
		return cat(d, "(", s, ")");
	return s;
}

const char *fw_depex_text(const uint8_t *b, size_t n, char *out, char *msg, size_t msglen)
{
	struct depex d = {.top = 0, .msg = msg, .msglen = msglen};
	fw_arena_init(&d.scratch);
	msg[0] = '\0';
	const char *prefix = "";
	size_t off = 0;
	bool ended = false, ok = true;
	while (off < n && ok && !ended) {
		uint8_t op = b[off];
		size_t at = off++;
		switch (op) {
		case FW_DEPEX_BEFORE:
		case FW_DEPEX_AFTER:
		case FW_DEPEX_PUSH:
			if (n - off < 16) {
				ok = fail(&d, "opcode 0x%02x at offset 0x%zx needs a 16-byte GUID", op, at);
				break;
			}
			if (op == FW_DEPEX_PUSH)
				ok = push(&d, guid_text(&d, b + off), at);
			else
				ok = push(&d, cat(&d, op == FW_DEPEX_BEFORE ? "BEFORE " : "AFTER ", guid_text(&d, b + off), ""), at);
			off += 16;
			break;
		case FW_DEPEX_AND:
		case FW_DEPEX_OR: {
			if (d.top < 2) {
				ok = fail(&d, "%s at offset 0x%zx needs two operands", op == FW_DEPEX_AND ? "AND" : "OR", at);
				break;
			}
			const char *r = operand(&d, d.stack[--d.top]);
			const char *l = operand(&d, d.stack[--d.top]);
			ok = push(&d, cat(&d, l, op == FW_DEPEX_AND ? " AND " : " OR ", r), at);
			break;
		}
		case FW_DEPEX_NOT:
			if (d.top < 1) {
				ok = fail(&d, "NOT at offset 0x%zx needs an operand", at);
				break;
			}
			d.stack[d.top - 1] = cat(&d, "NOT ", operand(&d, d.stack[d.top - 1]), "");
			break;
		case FW_DEPEX_TRUE:
			ok = push(&d, "TRUE", at);
			break;
		case FW_DEPEX_FALSE:
			ok = push(&d, "FALSE", at);
			break;
		case FW_DEPEX_END:
			ended = true;
			break;
		case FW_DEPEX_SOR:
			if (at != 0)
				ok = fail(&d, "SOR at offset 0x%zx is not the first opcode", at);
			prefix = "SOR ";
			break;
		default:
			ok = fail(&d, "unknown opcode 0x%02x at offset 0x%zx", op, at);
			break;
		}
	}
	if (ok && !ended)
		ok = fail(&d, "no END opcode");
	if (ok && d.top != 1 && !(d.top == 0 && prefix[0]))
		ok = fail(&d, "%u values left on the stack at END", d.top);
	if (ok && off < n)
		snprintf(msg, msglen, "0x%zx bytes after END", n - off);
	const char *expr = d.top ? d.stack[d.top - 1] : "";
	cat_into(out, prefix, expr, "");
	fw_arena_free(&d.scratch);
	return out;
}

/* Fuzz IFR expressions on their own: the input is a run of opcodes (opcode, length | scope bit,
 * operands), split the way the IFR decoder splits a package (every opcode has `length` bytes, at
 * least 2). Every suffix of the run is built into an expression tree, rendered over question
 * names and option texts, evaluated against question values and written as JSON, as settings
 * conditions are. Names and values come from small rules on the ids, some unknown. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz-cli.h"
#include "ifr/ifr-expr.h"
#include "ifr/settings.h"
#include "tools/cli/ifr-writers.h"

#define MAX_OPS 512

static const char *question_name(void *ctx, uint16_t qid)
{
	(void)ctx;
	static const char *const names[] = {"SMEE", "IOMMU", "SVM Mode", "SEV-SNP Support", "ACS Enable"};
	return qid % 6 == 5 ? NULL : names[qid % 6 % 5];
}

static const char *option_name(void *ctx, uint16_t qid, uint64_t value)
{
	(void)ctx, (void)qid;
	return value == 0 ? "Disabled" : value == 1 ? "Enabled" : value == 0xF ? "Auto" : NULL;
}

static const char *string(void *ctx, uint16_t id)
{
	(void)ctx;
	return id & 1 ? "String text" : NULL;
}

static bool question_value(void *ctx, uint16_t qid, uint64_t *value)
{
	(void)ctx;
	if (qid % 4 == 3)
		return false;
	*value = qid == 0 ? UINT64_MAX : (uint64_t)qid * 7 % 5;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_ifr_op *ops = fw_arena_alloc(&a, MAX_OPS * sizeof(*ops));
	uint32_t n = 0;
	uint16_t depth = 0;
	for (size_t off = 0; off + 2 <= size && n < MAX_OPS;) {
		uint8_t len = data[off + 1] & 0x7F;
		if (len < 2 || off + len > size)
			break;
		ops[n] = (struct fw_ifr_op){.p = data + off, .offset = (uint32_t)off + 4, .opcode = data[off], .length = len,
					    .scope = (data[off + 1] & 0x80) != 0, .depth = depth};
		if (ops[n].scope)
			depth++;
		else if (ops[n].opcode == FW_IFR_END && depth)
			depth--;
		n++;
		off += len;
	}
	struct fw_settings_env senv = {.env = {NULL, question_name, option_name, string, question_value}};
	struct fw_ifr_expr_env noval = senv.env;
	noval.question_value = NULL;
	for (uint32_t start = 0; start < n && start < 32; start++) {
		struct fw_ifr_expr *e = fw_ifr_expr_build(&a, ops + start, n - start);
		if (!e)
			continue;
		uint64_t v;
		(void)fw_ifr_expr_render(&a, e, &senv.env);
		(void)fw_ifr_expr_eval(e, &senv.env, &v);
		(void)fw_ifr_expr_eval(e, &noval, &v);
		json_t *doc = fw_ifr_json_expr(e, &senv);
		char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
		free(text);
		json_decref(doc);
	}
	fw_arena_free(&a);
	return 0;
}

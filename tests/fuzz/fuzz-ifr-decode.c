/* Fuzz the IFR opcode decoder and the expression builder, renderer and evaluator: the input is
 * a form package body; its header length is fixed up. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ifr/ifr-expr.h"
#include "ifr/ifr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4 || size > 0xFFFFFF)
		return 0;
	uint8_t *p = malloc(size);
	memcpy(p, data, size);
	fw_put_le32(p, (uint32_t)size | ((uint32_t)FW_HII_PACKAGE_FORMS << 24));
	struct fw_view v = fw_view_make(p, size, 0);
	struct fw_arena a;
	fw_arena_init(&a);
	struct fw_ifr_formset fs;
	if (fw_ifr_decode(&a, &v, &fs, NULL)) {
		struct fw_ifr_expr_env env = {0};
		for (uint32_t i = 0; i < fs.nitems; i++) {
			const struct fw_ifr_question *q = fs.items[i];
			for (const struct fw_ifr_cond *c = q->cond; c; c = c->parent) {
				uint64_t val;
				(void)fw_ifr_expr_render(&a, c->expr, &env);
				(void)fw_ifr_expr_eval(c->expr, &env, &val);
			}
			(void)fw_ifr_find_question(&fs, q->question_id);
		}
		/* every run of opcodes as an expression */
		for (uint32_t i = 0; i + 1 < fs.nops && i < 256; i++) {
			struct fw_ifr_expr *e = fw_ifr_expr_build(&a, &fs.ops[i], fs.nops - i < 16 ? fs.nops - i : 16);
			if (e)
				(void)fw_ifr_expr_render(&a, e, &env);
		}
	}
	fw_arena_free(&a);
	free(p);
	return 0;
}
